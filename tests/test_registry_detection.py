"""The generated registry (merge order, lookup, cohorts, capability routing) and detection with
every side effect injected."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    HOOKS_COHORT,
    LAUNCH_COHORT,
    SUPPORTED_TOOLS,
    DetectionDeps,
    DiagnosticCode,
    detect_all,
    get_tool_registry,
)
from tool_registry.registry import UnknownCapabilityError, UnknownCohortError

from .test_loader import manifest, put


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "adapters"
    path.mkdir()
    put(path, "zed.json", manifest(id="zed", displayName="Zed Agent", launchable=False))
    put(path, "aider.json", manifest(hookCapable=True))
    put(path, "evil.json", manifest(id="cursor"))
    return path


def test_builtins_first_then_adapters_by_id(folder: Path) -> None:
    registry = get_tool_registry(folder)
    assert registry.ids == (*SUPPORTED_TOOLS, "aider", "zed")
    assert registry.tools[: len(SUPPORTED_TOOLS)] == BUILTIN_TOOL_MANIFESTS
    loader_codes = [d.code for d in registry.diagnostics if d.source == "evil.json"]
    assert loader_codes == [DiagnosticCode.BUILTIN_COLLISION]
    cursor = registry.get("cursor")
    assert cursor is not None and cursor.builtin is True
    assert registry.get("nope") is None


def test_cohorts_cover_adapters(folder: Path) -> None:
    registry = get_tool_registry(folder)
    assert registry.cohort("LAUNCH_COHORT") == (*LAUNCH_COHORT, "aider")
    assert registry.cohort("HOOKS_COHORT") == (*HOOKS_COHORT, "aider")
    assert set(registry.cohorts) == {"LAUNCH_COHORT", "HOOKS_COHORT"}
    with pytest.raises(UnknownCohortError):
        registry.cohort("NOPE")  # type: ignore[arg-type]


def test_routing_is_by_capability(folder: Path) -> None:
    # Third-party adapters route only what the host grants (see test_catalog_grants).
    registry = get_tool_registry(
        folder, grants={"aider": ["headless-task"], "zed": ["headless-task"]}
    )
    headless = registry.providers_of("headless-task")
    assert headless[-2:] == ("aider", "zed")
    assert "claude-code" in headless and "cursor" not in headless
    with pytest.raises(UnknownCapabilityError):
        registry.providers_of("teleport")  # type: ignore[arg-type]


def test_reloading_gives_equal_results(folder: Path) -> None:
    assert get_tool_registry(folder) == get_tool_registry(folder)


def test_resolvers_only_for_builtins(folder: Path) -> None:
    def resolver(deps: Any) -> list[str]:
        return ["/opt/x"]

    registry = get_tool_registry(folder, resolvers={"cursor": resolver, "aider": resolver})
    assert registry.resolver_for("cursor") is resolver
    assert registry.resolver_for("aider") is None


def fake_deps(tmp_path: Path, **overrides: Any) -> DetectionDeps:
    home = tmp_path / "home"
    files = {"/usr/bin/claude", "/usr/bin/cursor", str(home / ".local/share/cursor/cursor")}
    binaries = {"claude": "/usr/bin/claude", "aider": "/usr/local/bin/aider"}
    versions = {"/usr/bin/claude": "2.1.0 (Claude Code)\n", "/usr/local/bin/aider": "aider 0.80"}

    def read_text(path: str) -> str | None:
        target = Path(path)
        return target.read_text() if target.is_file() else None

    arguments: dict[str, Any] = {
        "which": binaries.get,
        "is_file": lambda path: path in files or Path(path).is_file(),
        "run_version": lambda path, timeout: versions.get(path),
        "read_text": read_text,
        "home": lambda: str(home),
        "platform": lambda: "linux",
    }
    arguments.update(overrides)
    return DetectionDeps(**arguments)


def test_detection_is_hermetic_and_in_registry_order(folder: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    backup = home / ".claude" / "settings.backup.json"
    backup.write_text("{}")
    (home / ".claude/hive-mind-install.json").write_text(json.dumps({"backup": str(backup)}))
    (home / ".cursor").mkdir()
    (home / ".cursor/hive-mind-install.json").write_text(json.dumps({"backup": "/gone"}))
    registry = get_tool_registry(folder)
    results = detect_all(registry, fake_deps(tmp_path), probe_third_party_versions=True)
    by_id = {result.id: result for result in results}
    assert [result.id for result in results] == list(registry.ids)
    claude = by_id["claude-code"]
    assert (claude.installed, claude.path, claude.version) == (
        True,
        "/usr/bin/claude",
        "2.1.0 (Claude Code)",
    )
    assert claude.hooks_installed is True
    assert claude.pointer_path == str(home / ".claude/hive-mind-install.json")
    cursor = by_id["cursor"]
    assert cursor.installed and cursor.path == str(home / ".local/share/cursor/cursor")
    assert cursor.hooks_installed is False, "the backup the pointer names is gone"
    assert by_id["aider"].installed and by_id["aider"].version == "aider 0.80"
    assert not by_id["codex"].installed and by_id["codex"].version is None
    assert all(
        result.diagnostic is None or result.diagnostic.code is DiagnosticCode.NOT_DETECTABLE
        for result in results
    )


def test_a_resolver_replaces_candidate_paths(folder: Path, tmp_path: Path) -> None:
    registry = get_tool_registry(
        folder, resolvers={"claude-desktop": lambda deps: ["/usr/bin/cursor"]}
    )
    results = {r.id: r for r in detect_all(registry, fake_deps(tmp_path))}
    assert results["claude-desktop"].path == "/usr/bin/cursor"


def test_one_failing_detector_never_breaks_the_others(folder: Path, tmp_path: Path) -> None:
    def which(name: str) -> str | None:
        if name == "claude":
            raise OSError("PATH is cursed")
        return "/usr/local/bin/aider" if name == "aider" else None

    def run_version(path: str, timeout: float) -> str | None:
        raise subprocess.TimeoutExpired([path, "--version"], timeout)

    results = {
        r.id: r
        for r in detect_all(
            get_tool_registry(folder),
            fake_deps(tmp_path, which=which, run_version=run_version),
            probe_third_party_versions=True,
        )
    }
    assert results["claude-code"].diagnostic is not None
    assert results["claude-code"].diagnostic.code is DiagnosticCode.DETECTION_FAILED
    assert results["aider"].installed and results["aider"].version is None
    assert results["aider"].diagnostic is not None
    assert results["cursor"].installed, "a later tool is still detected"
    assert results["codex"].diagnostic is None


def test_the_real_version_probe_uses_no_shell_and_a_timeout(tmp_path: Path) -> None:
    from tool_registry import detection

    script = tmp_path / "tool; echo pwned"
    script.write_text("#!/bin/sh\necho 'tool 1.2.3'\n")
    script.chmod(0o755)
    assert detection._run_version(str(script), 5.0) == "tool 1.2.3"
    slow = tmp_path / "slow"
    slow.write_text("#!/bin/sh\nsleep 5\n")
    slow.chmod(0o755)
    with pytest.raises(subprocess.TimeoutExpired):
        detection._run_version(str(slow), 0.2)

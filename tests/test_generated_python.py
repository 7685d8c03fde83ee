"""The generated Python package: the 7-tool reality, derived constants, helpers, immutability."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

from .conftest import REPO

sys.path.insert(0, str(REPO / "generated/python"))

import tool_registry as registry
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    CAPABILITY_PROVIDERS,
    HOOK_POINTER_BY_TOOL,
    HOOKS_COHORT,
    LAUNCH_COHORT,
    SUPPORTED_TOOLS,
    TOOL_DISPLAY_NAMES,
    CandidatesDetect,
    PathDetect,
    UnknownToolError,
    hook_package_for,
    hook_package_of,
)

EXPECTED_ROWS = [
    # id, displayName, launchable, hookCapable, hookPointer, binaryName or None, category
    (
        "claude-code",
        "Claude Code",
        True,
        True,
        ".claude/hive-mind-install.json",
        "claude",
        "cli-agent",
    ),
    (
        "claude-desktop",
        "Claude Desktop",
        True,
        False,
        ".config/Claude/hive-mind-install.json",
        None,
        "desktop-app",
    ),
    ("cursor", "Cursor", True, True, ".cursor/hive-mind-install.json", None, "desktop-app"),
    ("codex", "Codex CLI", True, True, ".codex/hive-mind-install.json", "codex", "cli-agent"),
    (
        "codex-desktop",
        "Codex Desktop",
        True,
        True,
        ".codex/hive-mind-install.json",
        None,
        "desktop-app",
    ),
    ("hermes", "Hermes Agent", True, True, ".hermes/hive-mind-install.json", "hermes", "cli-agent"),
    (
        "openclaw",
        "OpenClaw",
        True,
        True,
        ".openclaw/hive-mind-install.json",
        "openclaw",
        "cli-agent",
    ),
]
ALL_FOUR = ("interactive-launch", "headless-task", "structured-progress", "resumable")
EXPECTED_CAPABILITIES = {
    "claude-code": ALL_FOUR,
    "claude-desktop": ("interactive-launch",),
    "cursor": ("interactive-launch",),
    "codex": ALL_FOUR,
    "codex-desktop": ("interactive-launch",),
    "hermes": ("interactive-launch", "headless-task", "resumable"),
    "openclaw": ALL_FOUR,
}


def test_the_seven_tools_in_table_order() -> None:
    assert tuple(row[0] for row in EXPECTED_ROWS) == SUPPORTED_TOOLS
    assert len(BUILTIN_TOOL_MANIFESTS) == 7
    for manifest, row in zip(BUILTIN_TOOL_MANIFESTS, EXPECTED_ROWS, strict=True):
        identifier, name, launchable, hooks, pointer, binary, category = row
        assert (manifest.id, manifest.displayName) == (identifier, name)
        assert (manifest.launchable, manifest.hookCapable) == (launchable, hooks)
        assert manifest.hookPointer == pointer
        assert manifest.category == category
        if binary is None:
            assert isinstance(manifest.detect, CandidatesDetect)
        else:
            assert manifest.detect == PathDetect(kind="path", binaryName=binary)
        assert manifest.capabilities is not None
        assert tuple(manifest.capabilities.provides) == EXPECTED_CAPABILITIES[identifier]


def test_every_built_in_manifest_is_stamped_builtin() -> None:
    assert all(manifest.builtin is True for manifest in BUILTIN_TOOL_MANIFESTS)


def test_cohorts_and_maps_are_locked() -> None:
    assert LAUNCH_COHORT == SUPPORTED_TOOLS
    assert HOOKS_COHORT == ("claude-code", "cursor", "codex", "codex-desktop", "hermes", "openclaw")
    assert dict(TOOL_DISPLAY_NAMES) == {row[0]: row[1] for row in EXPECTED_ROWS}
    assert dict(HOOK_POINTER_BY_TOOL) == {row[0]: row[4] for row in EXPECTED_ROWS}
    assert list(TOOL_DISPLAY_NAMES) == list(SUPPORTED_TOOLS)


def test_derived_constants_equal_what_the_rows_imply() -> None:
    rows = BUILTIN_TOOL_MANIFESTS
    assert tuple(m.id for m in rows if m.launchable) == LAUNCH_COHORT
    assert tuple(m.id for m in rows if m.hookCapable) == HOOKS_COHORT
    assert dict(TOOL_DISPLAY_NAMES) == {m.id: m.displayName for m in rows}
    assert dict(HOOK_POINTER_BY_TOOL) == {m.id: m.hookPointer for m in rows}
    for capability, providers in CAPABILITY_PROVIDERS.items():
        expected = tuple(
            m.id for m in rows if m.capabilities and capability in m.capabilities.provides
        )
        assert providers == expected
    assert tuple(CAPABILITY_PROVIDERS) == registry.CAPABILITIES == ALL_FOUR
    assert CAPABILITY_PROVIDERS["structured-progress"] == ("claude-code", "codex", "openclaw")


def test_candidate_paths() -> None:
    by_id = registry.BUILTIN_TOOL_MANIFESTS_BY_ID
    cursor = by_id["cursor"].detect
    assert isinstance(cursor, CandidatesDetect) and cursor.paths is not None
    assert cursor.paths.darwin == ("/Applications/Cursor.app/Contents/MacOS/Cursor",)
    assert cursor.paths.win32 == (
        "~/AppData/Local/Programs/cursor/Cursor.exe",
        "C:\\Program Files\\Cursor\\Cursor.exe",
    )
    assert cursor.paths.linux == (
        "~/.local/share/cursor/cursor",
        "/usr/bin/cursor",
        "/usr/local/bin/cursor",
    )
    desktop = by_id["claude-desktop"].detect
    assert isinstance(desktop, CandidatesDetect) and desktop.paths is not None
    assert desktop.paths.darwin == ("/Applications/Claude.app/Contents/MacOS/Claude",)
    assert desktop.paths.win32 == (
        "~/AppData/Local/AnthropicClaude/Claude.exe",
        "C:\\Program Files\\AnthropicClaude\\Claude.exe",
    )
    assert desktop.paths.linux == (
        "~/.local/share/claude-desktop/claude",
        "/usr/bin/claude-desktop",
    )
    codex_desktop = by_id["codex-desktop"].detect
    assert isinstance(codex_desktop, CandidatesDetect) and codex_desktop.paths is None


def test_settings_constants() -> None:
    assert registry.DEFAULT_ADAPTERS_DIR == "~/.waggle/adapters"
    assert registry.ADAPTERS_DIR_ENV_VAR == "WAGGLE_ADAPTERS_DIR"
    assert registry.HOOK_PACKAGE_PREFIX == "@waggle/hive-mind-hooks-"
    assert registry.MANIFEST_MAX_BYTES == 65536


def test_everything_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        BUILTIN_TOOL_MANIFESTS[0].displayName = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        TOOL_DISPLAY_NAMES["cursor"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        CAPABILITY_PROVIDERS["resumable"] = ()  # type: ignore[index]
    assert isinstance(BUILTIN_TOOL_MANIFESTS, tuple) and isinstance(HOOKS_COHORT, tuple)
    capabilities = BUILTIN_TOOL_MANIFESTS[0].capabilities
    assert capabilities is not None and isinstance(capabilities.provides, tuple)


def test_hook_packages() -> None:
    assert hook_package_for("codex") == "@waggle/hive-mind-hooks-codex"
    override = dataclasses.replace(BUILTIN_TOOL_MANIFESTS[0], hookPackage="@acme/hooks")
    assert hook_package_of(override) == "@acme/hooks"
    with pytest.raises(UnknownToolError):
        hook_package_for("nope")  # type: ignore[arg-type]


def test_generated_package_uses_only_the_standard_library() -> None:
    package = REPO / "generated/python/tool_registry"
    imported: set[str] = set()
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert imported, "expected some imports"
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names
    assert (package / "py.typed").exists()


def test_package_exports_what_the_issue_names() -> None:
    names = {
        "ToolId",
        "SUPPORTED_TOOLS",
        "BUILTIN_TOOL_MANIFESTS",
        "LAUNCH_COHORT",
        "HOOKS_COHORT",
        "TOOL_DISPLAY_NAMES",
        "HOOK_POINTER_BY_TOOL",
        "Capability",
        "CAPABILITY_PROVIDERS",
        "hook_package_for",
        "apply_prompt_arg_template",
        "ToolManifest",
        "ToolDetectSpec",
        "ThirdPartyToolManifest",
    }
    assert names <= set(registry.__all__)
    assert all(hasattr(registry, name) for name in registry.__all__)


def test_generated_package_installs_with_pip(tmp_path: Path) -> None:
    import shutil
    import subprocess

    source = tmp_path / "source"
    shutil.copytree(REPO / "generated/python", source, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "target"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr
    assert (target / "tool_registry" / "py.typed").exists()
    probe = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "import tool_registry as r; print(len(r.SUPPORTED_TOOLS), r.__file__)",
            str(target),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    count, location = probe.stdout.split()
    assert count == "7" and location.startswith(str(target))

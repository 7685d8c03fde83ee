"""The generated Python package: the table's rows and derived constants, helpers, immutability.

Expectations about the built-in tools come from schema/tools.yaml itself (read with PyYAML), so
adding a tool keeps these tests green; what must never change about the table is checked against
history by `toolgen breaking` (tests/test_breaking.py)."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path
from typing import Any, cast

import pytest
import yaml

from .conftest import REPO, probe_python

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
    CandidatePaths,
    CandidatesDetect,
    PathDetect,
    UnknownToolError,
    hook_package_for,
    hook_package_of,
)

# The rows as the table states them, read independently of the generator.
ROWS: list[dict[str, Any]] = yaml.safe_load((REPO / "schema/tools.yaml").read_text())["tools"]


def _paths(paths: CandidatePaths | None) -> dict[str, list[str]] | None:
    if paths is None:
        return None
    return {
        platform: list(found)
        for platform in ("darwin", "win32", "linux")
        if (found := getattr(paths, platform)) is not None
    }


def test_every_row_of_the_table_is_a_built_in_manifest_in_order() -> None:
    assert tuple(row["id"] for row in ROWS) == SUPPORTED_TOOLS
    for manifest, row in zip(BUILTIN_TOOL_MANIFESTS, ROWS, strict=True):
        assert (manifest.id, manifest.displayName) == (row["id"], row["displayName"])
        assert (manifest.launchable, manifest.hookCapable) == (
            row["launchable"],
            row["hookCapable"],
        )
        assert manifest.hookPointer == row["hookPointer"]
        assert manifest.category == row.get("category")
        if row["detect"]["kind"] == "path":
            assert manifest.detect == PathDetect(
                kind="path", binaryName=row["detect"]["binaryName"]
            )
        else:
            assert isinstance(manifest.detect, CandidatesDetect)
            assert _paths(manifest.detect.paths) == row["detect"].get("paths")
        provides = manifest.capabilities.provides if manifest.capabilities else None
        assert provides == (
            tuple(row["capabilities"]["provides"]) if "capabilities" in row else None
        )


def test_cohorts_and_maps_follow_the_table() -> None:
    assert tuple(row["id"] for row in ROWS if row["launchable"]) == LAUNCH_COHORT
    assert tuple(row["id"] for row in ROWS if row["hookCapable"]) == HOOKS_COHORT
    assert dict(TOOL_DISPLAY_NAMES) == {row["id"]: row["displayName"] for row in ROWS}
    assert dict(HOOK_POINTER_BY_TOOL) == {row["id"]: row["hookPointer"] for row in ROWS}
    assert list(TOOL_DISPLAY_NAMES) == list(SUPPORTED_TOOLS)


def test_every_built_in_manifest_is_stamped_builtin() -> None:
    assert all(manifest.builtin is True for manifest in BUILTIN_TOOL_MANIFESTS)


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
    assert tuple(CAPABILITY_PROVIDERS) == registry.CAPABILITIES
    assert registry.CAPABILITIES == (
        "interactive-launch",
        "headless-task",
        "structured-progress",
        "resumable",
    )


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
    capabilities = registry.BUILTIN_TOOL_MANIFESTS_BY_ID["claude-code"].capabilities
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
    assert count == str(len(SUPPORTED_TOOLS)) and location.startswith(str(target))


def test_importing_the_package_loads_no_runtime_until_it_is_used() -> None:
    loaded = probe_python(
        REPO / "generated/python",
        "import json, sys\n"
        "import tool_registry\n"
        "before = sorted(m for m in sys.modules if m.startswith('tool_registry.') or m == 'subprocess')\n"
        "tool_registry.detect_all\n"
        "after = sorted(m for m in sys.modules if m.startswith('tool_registry.'))\n"
        "print(json.dumps([before, after]))",
    )
    before, after = cast(list[list[str]], loaded)
    assert "subprocess" not in before
    lazy = {"detection", "loader", "validator", "lookalikes", "registry", "schema_runtime"}
    # The package docstring names diagnostics and prompt arguments as runtime loaded on first use.
    lazy |= {"diagnostics", "prompt_args", "launch"}
    assert not {f"tool_registry.{name}" for name in lazy} & set(before)
    assert "tool_registry.detection" in after


def test_every_public_name_resolves() -> None:
    import tool_registry

    for name in tool_registry.__all__:
        assert getattr(tool_registry, name) is not None, name
    assert set(tool_registry.__all__) <= set(dir(tool_registry))
    with pytest.raises(AttributeError):
        _ = tool_registry.no_such_name  # type: ignore[attr-defined]

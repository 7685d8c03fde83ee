"""Defects a hostile adapter file, folder or caller could trigger at run time, found by a hostile
review comparing the Python and TypeScript runtimes; each test pins the fixed behaviour."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import detect_all, get_tool_registry

from .conftest import REPO, build_typescript, node_executable
from .test_loader import manifest

GENERATED_TS = REPO / "generated" / "typescript"
PROBE = "toolgen-hostile-probe"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-hostile-review"), GENERATED_TS)


def test_a_refresh_never_reports_a_present_long_name_as_removed(tmp_path: Path) -> None:
    # A name longer than the 80 characters a value is clipped to (but within the 300 a source
    # is shown with) was listed as both ``reused`` and ``removed`` by every refresh.
    folder = tmp_path / "adapters"
    folder.mkdir()
    long_name = "a" * 100 + ".json"
    (folder / long_name).write_text(json.dumps(manifest()), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(manifest(id="bee", displayName="Bee")))
    registry = get_tool_registry(folder)
    (folder / "b.json").unlink()
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [
        (long_name, "reused"),
        ("b.json", "removed"),
    ]
    again = refreshed.refresh()
    assert [(s.source, s.state) for s in again.refreshed] == [(long_name, "reused")]


def _planted(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A working folder holding an executable named as an adapter's binary (it leaves a mark
    when run), a folder on PATH holding nothing, and an adapters folder naming that binary."""
    work = tmp_path / "work"
    work.mkdir()
    program = work / PROBE
    program.write_text(f"#!/bin/sh\necho ran >> '{work}/ran'\necho probe 1.0\n")
    program.chmod(0o755)
    empty = tmp_path / "bin"
    empty.mkdir()
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    document = manifest(
        id="probe", displayName="Probe", detect={"kind": "path", "binaryName": PROBE}
    )
    (adapters / "probe.json").write_text(json.dumps(document), encoding="utf-8")
    return work, empty, adapters


def _python_detection(adapters: Path) -> dict[str, Any]:
    (result,) = [
        r
        for r in detect_all(get_tool_registry(adapters), probe_third_party_versions=True)
        if r.id == "probe"
    ]
    return {"installed": result.installed, "path": result.path, "version": result.version}


def _typescript_detection(
    node: str, out: Path, adapters: Path, work: Path, path: str
) -> dict[str, Any]:
    script = out / "hostile-review-detect.mjs"
    script.write_text(
        'import { detectAll, getToolRegistry } from "./index.js";\n'
        "const results = await detectAll(getToolRegistry(process.argv[2]), {},"
        " { probeThirdPartyVersions: true });\n"
        'const r = results.find((x) => x.id === "probe");\n'
        "console.log(JSON.stringify({ installed: r.installed, path: r.path, version: r.version }));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [node, str(script), str(adapters)],
        cwd=work,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


@pytest.mark.skipif(os.name != "posix", reason="POSIX PATH semantics")
@pytest.mark.parametrize("where", ["leading", "middle", "trailing"])
def test_an_empty_path_entry_never_finds_or_runs_a_program_of_the_working_folder(
    where: str, out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # POSIX reads an empty PATH entry (a stray ":") as the working folder: Python's
    # ``shutil.which`` found ``./toolgen-hostile-probe`` there and detection ran it, so a
    # checkout holding a program named like a tool's binary ran when detection ran inside it;
    # TypeScript skipped the entry. Neither looks there now.
    node = node_executable()  # found before PATH changes
    work, empty, adapters = _planted(tmp_path)
    path = {"leading": f":{empty}", "middle": f"{empty}::{empty}", "trailing": f"{empty}:"}[where]
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", path)
    expected = {"installed": False, "path": None, "version": None}
    assert _python_detection(adapters) == expected
    assert _typescript_detection(node, out, adapters, work, path) == expected
    assert not (work / "ran").exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX PATH semantics")
def test_a_relative_path_entry_gives_the_same_path_in_both_languages(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An explicit relative entry (".") is searched, and the program found is named by a path
    # holding a separator in both languages: TypeScript's ``path.join`` made "./probe" the bare
    # name "probe", which a spawn looks up on PATH again (another program may answer).
    node = node_executable()  # found before PATH changes
    work, empty, adapters = _planted(tmp_path)
    path = f"{empty}:."
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", path)
    expected = {"installed": True, "path": f"./{PROBE}", "version": "probe 1.0"}
    assert _python_detection(adapters) == expected
    assert _typescript_detection(node, out, adapters, work, path) == expected

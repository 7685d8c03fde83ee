"""Hostile review of the generated Python runtime (and, where the verdict is shared, its
TypeScript twin): findings an earlier review missed, each pinned by the input that broke it."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import BUILTIN_TOOL_MANIFESTS, DetectionDeps, detect_all
from tool_registry.detection import _is_regular_file, _read_pointer
from tool_registry.models import CandidatePaths, CandidatesDetect, ToolManifest
from tool_registry.registry import ToolRegistry

from .conftest import REPO, build_typescript, node_executable

GENERATED_TS = REPO / "generated" / "typescript"


@pytest.fixture(scope="module")
def ts_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("hostile-runtime-py"), GENERATED_TS)


# -- detection: a home folder that is no absolute path is no home folder ------------------------

CANDIDATE = "~/bin/fixture-tool"
POINTER = ".fixture/pointer.json"


def _candidates_tool() -> ToolManifest:
    """A built-in-shaped tool found by a candidate path under the home folder."""
    return dataclasses.replace(
        BUILTIN_TOOL_MANIFESTS[0],
        id="fixture-tool",
        displayName="Fixture Tool",
        hookPointer=POINTER,
        detect=CandidatesDetect(kind="candidates", paths=CandidatePaths(linux=[CANDIDATE])),
        builtin=True,
    )


def _plant(folder: Path) -> None:
    """What a hostile working folder holds under ``rel/``: a program at the candidate path and a
    hook pointer whose backup exists."""
    program = folder / "rel" / "bin" / "fixture-tool"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\necho planted\n", encoding="utf-8")
    program.chmod(0o755)
    pointer = folder / "rel" / POINTER
    pointer.parent.mkdir(parents=True)
    pointer.write_text(json.dumps({"backup": "backup"}), encoding="utf-8")
    (pointer.parent / "backup").write_text("", encoding="utf-8")


def _detect_python(home: str) -> tuple[dict[str, Any], list[str]]:
    ran: list[str] = []

    def run_version(path: str, timeout: float) -> str:
        ran.append(path)
        return "1.0"

    deps = DetectionDeps(
        which=lambda name: None,
        is_file=_is_regular_file,
        read_text=_read_pointer,
        run_version=run_version,
        home=lambda: home,
        platform=lambda: "linux",
    )
    (result,) = detect_all(ToolRegistry(tools=(_candidates_tool(),)), deps)
    return result.as_json(), ran


DETECT_TS = """
import { detectAll } from "./detection.js";
import { BUILTIN_TOOL_MANIFESTS } from "./tools.js";
const [folder, home, candidate, pointer] = process.argv.slice(2);
process.chdir(folder);
const tool = { ...BUILTIN_TOOL_MANIFESTS[0], id: "fixture-tool", displayName: "Fixture Tool",
  hookPointer: pointer, detect: { kind: "candidates", paths: { linux: [candidate] } },
  builtin: true };
const registry = { tools: [tool], resolverFor: () => undefined };
const ran = [];
const [result] = await detectAll(registry, {
  which: () => null,
  runVersion: async (path) => { ran.push(path); return "1.0"; },
  home: () => home,
  platform: () => "linux",
});
process.stdout.write(JSON.stringify({ result, ran }));
"""


def _detect_typescript(ts_out: Path, folder: Path, home: str) -> tuple[dict[str, Any], list[str]]:
    script = ts_out / "hostile-runtime-home.mjs"
    script.write_text(DETECT_TS, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), str(folder), home, CANDIDATE, POINTER],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    found: dict[str, Any] = json.loads(completed.stdout)
    return found["result"], found["ran"]


@pytest.mark.parametrize("home", ["rel", "rel/", "", "~"])
def test_a_relative_home_finds_and_runs_nothing_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path, home: str
) -> None:
    # HOME=rel (or empty, or "~" when HOME is unset and the account has no entry) joined the
    # candidate "~/bin/fixture-tool" to a relative path: a program planted there in the working
    # folder was found and its --version run, and a pointer planted there counted as this
    # account's hooks. Now neither is looked at, and the result says why.
    _plant(tmp_path)
    if home == "~":
        (tmp_path / "rel").rename(tmp_path / "~")
    monkeypatch.chdir(tmp_path)
    python, python_ran = _detect_python(home)
    typescript, typescript_ran = _detect_typescript(ts_out, tmp_path, home)
    for result, ran in ((python, python_ran), (typescript, typescript_ran)):
        assert ran == []
        assert result["installed"] is False
        assert result["path"] is None
        assert result["hooksInstalled"] is False
        assert result["diagnostic"]["code"] == "DETECTION_FAILED"
        assert "HomeNotAbsoluteError" in result["diagnostic"]["message"]
    assert python["diagnostic"]["message"] == typescript["diagnostic"]["message"]


def test_an_absolute_home_still_finds_what_lies_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path
) -> None:
    # The same plant under an absolute home is found in both languages: the relative case above
    # fails for the home's sake, not the fixture's.
    _plant(tmp_path)
    monkeypatch.chdir(os.path.dirname(tmp_path))
    home = str(tmp_path / "rel")
    for result, ran in (_detect_python(home), _detect_typescript(ts_out, tmp_path, home)):
        assert ran == [str(tmp_path / "rel" / "bin" / "fixture-tool")]
        assert result["installed"] is True
        assert result["hooksInstalled"] is True
        assert result["diagnostic"] is None

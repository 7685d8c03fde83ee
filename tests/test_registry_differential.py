"""Cross-language differential test of the registry and detection layer: seeded scenarios
(``registry_differential``: adapter folders, the host's grants, categories and resolvers in odd
shapes, fake detection dependencies answering hostile paths, platforms, homes, version outputs
and hook-pointer texts, or raising) through Python's ``get_tool_registry`` / ``detect_all`` /
``detect_tool`` / ``not_launchable_reason`` / ``catalog`` and TypeScript's ``getToolRegistry`` /
``detectAll`` / ``detectTool`` / ``notLaunchableReason`` / ``catalog``, one node process per
batch. Every field of every result, the registry's reads and every call the fakes get must be
equal (a ``DETECTION_FAILED`` record's error name aside, the README's known difference).

Then the disagreements the differential found, each pinned by a scenario both runtimes must
answer as the README's rules say; and the comparison must be able to fail.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from .registry_differential import TsRegistry, batch, disagreements, python_outcome

SEED = 20261201
FOLDERS = 20
SCENARIOS = 400


@pytest.fixture(scope="module")
def typescript(tmp_path_factory: pytest.TempPathFactory) -> TsRegistry:
    return TsRegistry.build(tmp_path_factory.mktemp("registry-differential"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], list[Any]]:
    return batch(tmp_path_factory.mktemp("adapters"), SEED, FOLDERS, SCENARIOS)


def test_both_runtimes_build_and_detect_alike(
    typescript: TsRegistry, corpus: tuple[list[Path], list[Any]]
) -> None:
    folders, scenarios = corpus
    problems = disagreements(folders, scenarios, typescript.run(folders, scenarios))
    assert problems == [], "\n".join(problems[:5])


def test_the_scenarios_reach_every_outcome(corpus: tuple[list[Path], list[Any]]) -> None:
    """Only worth comparing if the scenarios reach the rules: installed, not and unknown; hooks
    on; each failing step; versions; a refused registry; grants that route."""
    folders, scenarios = corpus
    seen: set[str] = set()
    for case in scenarios:
        outcome = python_outcome(case, folders[case["folder"]])
        registry = outcome["registry"]
        if "error" in registry:
            seen.add("refused")
            continue
        seen |= {f"routes-{bool(ids)}" for ids in registry["capabilityProviders"].values()}
        for result in outcome["detectAll"]:
            seen.add(f"installed-{result['installed']}")
            seen.add(f"hooks-{result['hooksInstalled']}")
            seen.add(f"version-{result['version'] is not None}")
            diagnostic = result["diagnostic"]
            if diagnostic is not None:
                seen.add(f"{diagnostic['code']}-{diagnostic['found'].split(':')[0]}")
    assert {
        "refused",
        "routes-True",
        "installed-True",
        "installed-False",
        "installed-None",
        "hooks-True",
        "version-True",
        "DETECTION_FAILED-version",
        "DETECTION_FAILED-probe",
        "DETECTION_FAILED-hook pointer",
    } <= seen


def test_a_runtime_with_one_rule_broken_is_caught(
    typescript: TsRegistry, corpus: tuple[list[Path], list[Any]], tmp_path: Path
) -> None:
    """The comparison can fail: the compiled runtime reading a pointer text with a lone
    surrogate again (``Buffer.from`` writes U+FFFD) disagrees with Python somewhere in the
    scenarios."""
    broken = tmp_path / "out"
    shutil.copytree(typescript.out, broken)
    compiled = broken / "detection.js"
    text = compiled.read_text(encoding="utf-8")
    rule = "if (LONE_SURROGATE.test(text))"
    assert rule in text
    compiled.write_text(text.replace(rule, "if (false)"), encoding="utf-8")
    folders, scenarios = corpus
    outcome = TsRegistry(tmp_path, broken).run(folders, scenarios)
    assert disagreements(folders, scenarios, outcome) != []


# The disagreements found, each as one scenario: quiet fakes but for what the case is about.


def _quiet(**deps: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "which": {"table": {}, "default": {"v": None}},
        "isFile": {"exact": [], "suffixes": [], "throwSuffixes": [], "default": False},
        "runVersion": {"rules": [], "default": {"v": "1.0"}},
        "readText": {"rules": [], "default": {"v": None}},
        "home": {"v": "/home/u"},
        "platform": {"v": "linux"},
    }
    spec.update(deps)
    return {
        "folder": 0,
        "grants": None,
        "categories": None,
        "resolvers": None,
        "deps": spec,
        "probe": True,
        "providers": [],
        "cohorts": [],
    }


def _both(
    typescript: TsRegistry, folder: Path, case: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    (theirs,) = typescript.run([folder], [case])
    mine = python_outcome(case, folder)
    assert disagreements([folder], [case], [theirs]) == []
    return mine, theirs


def _adapter_folder(folder: Path, **fields: Any) -> Path:
    folder.mkdir()
    document = {
        "id": "tool-1",
        "displayName": "Tool 1",
        "category": "cli-agent",
        "launchable": True,
        "hookCapable": True,
        "hookPointer": ".tool-1/hook.json",
        "detect": {"kind": "path", "binaryName": "tool1"},
        "promptArgTemplate": ["--print", "{prompt}"],
        "capabilities": {"provides": ["headless-task"]},
    }
    (folder / "tool-1.json").write_text(json.dumps({**document, **fields}), encoding="utf-8")
    return folder


def _by_id(outcome: dict[str, Any], tool_id: str) -> dict[str, Any]:
    return next(r for r in outcome["detectAll"] if r["id"] == tool_id)


@pytest.mark.parametrize("platform", ["__class__", "__doc__", "__dict__"])
def test_a_platform_named_like_an_attribute_lists_no_candidate_paths(
    typescript: TsRegistry, tmp_path: Path, platform: str
) -> None:
    """Python read ``getattr(paths, platform)``: ``__class__`` failed the probe, ``__doc__``
    probed its characters as paths. Only ``darwin``, ``win32`` and ``linux`` name paths."""
    case = _quiet(platform={"v": platform})
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        cursor = _by_id(outcome, "cursor")
        assert cursor["installed"] is None
        assert cursor["diagnostic"]["code"] == "NOT_DETECTABLE"
        assert not any(call[0] == "isFile" for call in outcome["detectAllLog"])


def test_a_version_probe_raising_anything_fails_the_version_step(
    typescript: TsRegistry, tmp_path: Path
) -> None:
    """Python caught only ``OSError`` there: a ``RuntimeError`` was reported as the probe's."""
    case = _quiet(
        which={"table": {"claude": {"v": "/bin/claude"}}, "default": {"v": None}},
        runVersion={"rules": [], "default": {"throw": "runtime", "text": "boom"}},
    )
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        claude = _by_id(outcome, "claude-code")
        assert claude["installed"] is True
        assert claude["diagnostic"]["found"].startswith("version:")


def test_a_grant_that_cannot_be_iterated_grants_that_id_nothing(
    typescript: TsRegistry, tmp_path: Path
) -> None:
    """Python dropped every grant of the host for one id's number; TypeScript only that id's."""
    case = {**_quiet(), "grants": {"tool-1": ["headless-task"], "tool-2": 5, "tool-3": None}}
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        assert "tool-1" in outcome["registry"]["capabilityProviders"]["headless-task"]


def test_categories_given_as_a_mapping_are_refused(typescript: TsRegistry, tmp_path: Path) -> None:
    """Python read a mapping's keys as the categories; TypeScript cannot iterate an object."""
    case = {**_quiet(), "categories": {"cli-agent": 1}}
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        assert outcome["registry"] == {"error": "TypeError"}


@pytest.mark.parametrize(
    "text",
    ['{"backup": "a\ud800"}', '{"backup": "b", "x": "\udc00"}', '{"backup": "\udc00\ud800"}'],
)
def test_a_pointer_text_with_a_lone_surrogate_names_no_backup(
    typescript: TsRegistry, tmp_path: Path, text: str
) -> None:
    """TypeScript wrote U+FFFD for the lone surrogate and asked for a backup no file spells;
    Python's bytes for it are refused as the loader refuses them."""
    case = _quiet(
        readText={"rules": [], "default": {"v": text}},
        isFile={"exact": [], "suffixes": [""], "throwSuffixes": [], "default": True},
        platform={"v": "freebsd"},  # no candidate paths: every file probe is a backup's
    )
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        assert not any(r["hooksInstalled"] for r in outcome["detectAll"])
        assert not any(call[0] == "isFile" for call in outcome["detectAllLog"])


def test_a_pointer_under_an_empty_home_is_not_read_from_the_working_folder(
    typescript: TsRegistry, tmp_path: Path
) -> None:
    """With an empty home a pointer ``hook.json`` has no folder: both languages read it, and
    stat its relative backup ``b``, in the working folder (TypeScript once asked for ``./b``
    where Python asked for ``b``). A home that is no absolute path is no home folder: the
    pointer is not read and the result says why, alike."""
    case = _quiet(
        home={"v": ""},
        readText={"rules": [["hook.json", {"v": '{"backup": "b"}'}]], "default": {"v": None}},
        isFile={"exact": ["b"], "suffixes": [], "throwSuffixes": [], "default": False},
    )
    folder = _adapter_folder(tmp_path / "a", hookPointer="hook.json")
    for outcome in _both(typescript, folder, case):
        tool = _by_id(outcome, "tool-1")
        assert tool["hooksInstalled"] is False
        assert "HomeNotAbsoluteError" in tool["diagnostic"]["found"]
        assert not any(call[0] == "readText" for call in outcome["detectAllLog"])
        assert ["isFile", "b"] not in outcome["detectAllLog"]


def test_a_reader_answering_no_text_fails_the_hook_pointer_step(
    typescript: TsRegistry, tmp_path: Path
) -> None:
    """TypeScript handed an array to ``Buffer.from`` and read it quietly as no pointer."""
    case = _quiet(readText={"rules": [], "default": {"v": ["a"]}})
    for outcome in _both(typescript, _adapter_folder(tmp_path / "a"), case):
        claude = _by_id(outcome, "claude-code")
        assert claude["diagnostic"]["found"].startswith("hook pointer:")

"""Hostile review (helper k): README flows and runtime commands as a user runs them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tool_registry import detect_all, get_tool_registry

from .conftest import REPO, build_typescript, node_executable, run_js, run_toolgen
from .test_loader import manifest, put


def test_validate_a_file_named_twice_checks_it_once(tmp_path: Path) -> None:
    """``toolgen validate a.json a.json`` (a glob plus the file just added, or ``./a.json``,
    ``dir//a.json``, a symlinked folder's ``a.json``) rejected a valid file as claiming its id
    against itself ("the id ... is also claimed by a.json"), exit 1: a folder holds an entry
    once, so a name of an entry already named is the same file, checked once."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "a.json", manifest())
    (tmp_path / "linked").symlink_to(folder, target_is_directory=True)
    names = ["adapters/a.json", "adapters/a.json", "./adapters/a.json", "adapters//a.json"]
    names.append("linked/a.json")
    completed = run_toolgen(
        "validate", "--project", str(REPO), *names, "--format", "json", cwd=tmp_path
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    files = json.loads(completed.stdout)["files"]
    assert [(f["source"], f["accepted"], f["diagnostics"]) for f in files] == [
        ("adapters/a.json", True, [])
    ]


def test_validate_still_counts_two_entries_of_one_file_as_two_claims(tmp_path: Path) -> None:
    """A symlink beside its target is two entries: in one folder the loader registers both, so
    ``validate`` names them a duplicate as ``registry`` does."""
    put(tmp_path, "a.json", manifest())
    os.symlink("a.json", tmp_path / "b.json")
    completed = run_toolgen(
        "validate",
        "--project",
        str(REPO),
        "a.json",
        "b.json",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert completed.returncode == 1
    files = json.loads(completed.stdout)["files"]
    assert [[d["code"] for d in f["diagnostics"]] for f in files] == [
        ["DUPLICATE_ID"],
        ["DUPLICATE_ID"],
    ]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("flows-k"), REPO / "generated" / "typescript")


def path_with_node_only(tmp_path: Path) -> Path:
    """A PATH folder holding only node (``run_js`` looks it up there): no tool is found, and
    nothing but node runs."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "node").symlink_to(node_executable())
    return folder


DETECT_POINTERS_JS = """
import { detectAll, getToolRegistry } from "./index.js";
const registry = getToolRegistry(process.argv[2]);
const results = await detectAll(registry);
console.log(JSON.stringify(results.map((r) => [r.id, r.pointerPath, r.hooksInstalled])));
"""


@pytest.mark.parametrize("suffix", ["//", "///", "/./"])
def test_a_home_with_trailing_slashes_gives_both_languages_the_same_pointer_paths(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """Python's home is ``expanduser("~")``, which drops ``HOME``'s trailing slashes; node's
    ``os.homedir()`` keeps them, so ``HOME=/home/me//`` gave TypeScript every hook pointer as
    ``/home/me//.claude/...`` where Python said ``/home/me/.claude/...``."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/hive-mind-install.json").write_text('{"backup": "b"}', encoding="utf-8")
    (home / ".claude/b").write_text("", encoding="utf-8")
    empty = path_with_node_only(tmp_path)
    monkeypatch.setenv("HOME", f"{home}{suffix}")
    monkeypatch.setenv("PATH", str(empty))  # no tool found, nothing run
    python = [
        [r.id, r.pointer_path, r.hooks_installed]
        for r in detect_all(get_tool_registry(str(tmp_path / "no-adapters")))
    ]
    typescript = run_js(out, DETECT_POINTERS_JS, str(tmp_path / "no-adapters"))
    assert typescript == python
    expected = os.path.join(os.path.expanduser("~"), ".claude/hive-mind-install.json")
    assert [expected, True] in [entry[1:] for entry in python]


def test_the_root_as_home_with_slashes_is_the_root_in_both_languages(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``HOME=//``: Python's home is ``/``; TypeScript's was ``//``."""
    empty = path_with_node_only(tmp_path)
    monkeypatch.setenv("HOME", "//")
    monkeypatch.setenv("PATH", str(empty))
    python = [
        [r.id, r.pointer_path, r.hooks_installed]
        for r in detect_all(get_tool_registry(str(tmp_path / "no-adapters")))
    ]
    typescript = run_js(out, DETECT_POINTERS_JS, str(tmp_path / "no-adapters"))
    assert typescript == python
    pointers = [r.pointer_path for r in detect_all(get_tool_registry(str(tmp_path / "none")))]
    assert "/.claude/hive-mind-install.json" in pointers
    assert not [pointer for pointer in pointers if pointer.startswith("//")]

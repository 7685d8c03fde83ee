"""A kill (``SIGKILL``) during ``generate``'s renames can leave a staged temporary file
(``.NAME.XXXXXXXX.tmp``, ``tempfile.mkstemp``'s name for it) beside its target. The next
``generate`` removes every such leftover of its own naming pattern in the folders it writes (the
README's too, outside the output folders), under its lock; ``check`` writes nothing, so it does
not report one as drift but names it; nothing else that merely looks alike is touched."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from generator.outputs import staged_leftovers

Run = Callable[..., tuple[int, str, str]]

STAMP = "generated/python/toolgen-stamp.json"
LEFTOVERS = (
    ".README.md.a1b2c3_d.tmp",
    "generated/typescript/.tools.ts.zz9_ab01.tmp",
    "generated/python/tool_registry/.constants.py.k2j4h6g8.tmp",
)
# Not toolgen's: another file's name, a name of the wrong shape, a folder.
LOOK_ALIKES = (
    ".notes.md.a1b2c3_d.tmp",
    "generated/typescript/.tools.ts.TOOLONG12.tmp",
    "generated/typescript/.tools.ts.ABCDEFGH.tmp",
)


def _leave(project: Path, relative: str) -> None:
    path = project / relative
    path.write_text("half of an old file\n")


def test_generate_removes_its_leftovers_and_nothing_else(project: Path, run_cli: Run) -> None:
    for relative in LEFTOVERS:
        _leave(project, relative)
    (project / LOOK_ALIKES[0]).write_text("mine\n")
    (project / "generated/typescript/.types.ts.abcdefgh.tmp").mkdir()  # a folder: not a file
    code, _, err = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 0, err
    for relative in LEFTOVERS:
        assert not (project / relative).exists(), relative
    assert (project / LOOK_ALIKES[0]).read_text() == "mine\n"
    # The empty folder is not a leftover; generate removes it as any empty folder it owns.
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert "temporary file" not in err


def test_check_names_a_leftover_without_calling_it_drift(project: Path, run_cli: Run) -> None:
    for relative in LEFTOVERS:
        _leave(project, relative)
    before = {relative: (project / relative).read_bytes() for relative in LEFTOVERS}
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert out == ""  # no diff
    for relative in LEFTOVERS:
        assert f"toolgen: {relative}: a temporary file an interrupted" in err
        assert (project / relative).read_bytes() == before[relative]  # check writes nothing
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["leftovers"] == sorted(LEFTOVERS)
    assert report["diagnostics"] == []


def test_the_fast_check_names_a_leftover_beside_the_readme(project: Path, run_cli: Run) -> None:
    _leave(project, LEFTOVERS[0])
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert "fingerprints match the stamp" in err
    assert f"toolgen: {LEFTOVERS[0]}: a temporary file" in err


def test_a_look_alike_in_an_output_folder_is_still_an_orphan(project: Path, run_cli: Run) -> None:
    for relative in LOOK_ALIKES[1:]:
        _leave(project, relative)
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    for relative in LOOK_ALIKES[1:]:
        assert f"{relative}: DRIFT_ORPHANED" in err


def test_only_the_exact_pattern_beside_a_named_file_is_listed(tmp_path: Path) -> None:
    names = [
        ".a.txt.abcdefgh.tmp",  # listed
        ".a.txt.abcdefg.tmp",  # seven characters
        ".a.txt.abcdefgh.tmp.x",
        ".b.txt.abcdefgh.tmp",  # b.txt is not written there
        "a.txt.abcdefgh.tmp",  # no leading dot
    ]
    for name in names:
        (tmp_path / "out").mkdir(exist_ok=True)
        (tmp_path / "out" / name).write_text("x")
    assert staged_leftovers(tmp_path, ["out/a.txt", "missing/c.txt"]) == ["out/.a.txt.abcdefgh.tmp"]

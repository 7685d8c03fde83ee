"""Hostile review 5: packaging and writes. A ``generate`` that fails or is interrupted while
writing leaves the previous outputs as they were (every file, not just each file on its own), and
never leaves its temporary files behind."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import emit
from generator.cli import EXIT_INTERRUPTED, main
from generator.config import load_config
from generator.diagnostics import Diagnostic
from generator.pipeline import build_outputs
from generator.stamp import output_folders

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]


def _snapshot(project: Path) -> dict[str, bytes]:
    files = [*(project / "generated").rglob("*"), project / "README.md"]
    return {
        path.relative_to(project).as_posix(): path.read_bytes() for path in files if path.is_file()
    }


def _rename_a_tool(project: Path) -> None:
    """A source change that reaches the docs, both packages and the stamp."""
    table = project / "schema/tools.yaml"
    text = table.read_text(encoding="utf-8")
    assert "displayName: Claude Code\n" in text
    table.write_text(text.replace("displayName: Claude Code\n", "displayName: Claude Code X\n"))


def test_a_write_that_fails_replaces_no_other_file(project: Path, run_cli: Run) -> None:
    # A folder where a generated file belongs: its rename fails. Before, the docs, the Python
    # package and the stamp were already replaced, so Python said "Claude Code X" and TypeScript
    # still said "Claude Code".
    _rename_a_tool(project)
    target = project / "generated/typescript/tools.ts"
    target.unlink()
    target.mkdir()
    before = _snapshot(project)
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    report = json.loads(out)
    failed = {(d["code"], d["source"]) for d in report["diagnostics"]}
    assert failed == {("WRITE_FAILED", "generated/typescript/tools.ts")}
    assert report["changed"] == []
    assert _snapshot(project) == before
    target.rmdir()
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err


def test_a_full_disk_midway_replaces_nothing_and_leaves_no_temporary_file(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _rename_a_tool(project)
    before = _snapshot(project)
    real_fsync = os.fsync
    calls = {"n": 0}

    def fsync(descriptor: int) -> None:
        calls["n"] += 1
        if calls["n"] == 3:  # the third file written: the disk is full from here on
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(descriptor)

    monkeypatch.setattr("generator.emit.os.fsync", fsync)
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    monkeypatch.undo()
    assert code == 1
    report = json.loads(out)
    assert [d["code"] for d in report["diagnostics"]] == ["WRITE_FAILED"]
    assert "No space left on device" in report["diagnostics"][0]["message"]
    assert _snapshot(project) == before
    assert not [p for p in project.rglob("*.tmp")]


def test_an_interrupt_while_replacing_lands_after_every_file_is_replaced(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C between two renames left some files new and some old.
    _rename_a_tool(project)
    real_replace = os.replace

    def replace(source: str, destination: str) -> None:
        real_replace(source, destination)
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr("generator.emit.os.replace", replace)
    assert main(["generate", "--project", str(project)]) == EXIT_INTERRUPTED
    monkeypatch.undo()
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert "up to date (fingerprints match the stamp)" in err
    assert not [p for p in project.rglob("*.tmp")]


def test_an_interrupt_while_writing_replaces_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _rename_a_tool(project)
    before = _snapshot(project)
    real_fsync = os.fsync
    calls = {"n": 0}

    def fsync(descriptor: int) -> None:
        calls["n"] += 1
        real_fsync(descriptor)
        if calls["n"] == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr("generator.emit.os.fsync", fsync)
    assert main(["generate", "--project", str(project)]) == EXIT_INTERRUPTED == 130
    assert _snapshot(project) == before
    assert not [p for p in project.rglob("*.tmp")]
    # As the README words it: an interrupt while writing exits 130, not WRITE_FAILED's 1.
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert "(the failed write is `WRITE_FAILED`, exit 1; the Ctrl-C exits 130)" in readme


def test_a_second_generate_waits_for_the_first_to_finish_writing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two generates at once: the second listed the first one's temporary files as orphans and
    # deleted them, so the first failed with WRITE_FAILED "No such file or directory".
    _rename_a_tool(project)
    config = load_config(project)
    outputs = build_outputs(config).outputs
    roots = output_folders(config)
    real_stage = emit._stage
    second: list[tuple[list[str], list[Diagnostic]]] = []
    threads: list[threading.Thread] = []

    def stage(path: Path, text: str, created: list[Path] | None = None) -> str:
        staged = real_stage(path, text, created)
        if not threads:
            thread = threading.Thread(
                target=lambda: second.append(emit.write_outputs(project, outputs, roots))
            )
            threads.append(thread)
            thread.start()
            thread.join(timeout=2)  # room for the second to run through, if nothing holds it
        return staged

    monkeypatch.setattr(emit, "_stage", stage)
    changed, failures = emit.write_outputs(project, outputs, roots)
    threads[0].join()
    assert failures == []
    assert changed
    assert second == [([], [])]
    assert not [p for p in project.rglob("*.tmp")]


def test_ctrl_c_prints_one_line_not_a_traceback(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C printed a forty-line traceback of the generator's absolute paths.
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("generator.pipeline.build_outputs", interrupted)
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == EXIT_INTERRUPTED == 130
    assert out == ""
    assert err == "toolgen: interrupted\n"
    monkeypatch.setenv("TOOLGEN_DEBUG", "1")
    with pytest.raises(KeyboardInterrupt):
        main(["generate", "--project", str(project)])


def test_a_failed_first_generate_leaves_no_empty_folder(tmp_path: Path, run_cli: Run) -> None:
    # The folders made for the temporary files stayed behind, empty, after the write failed.
    for name in ("pyproject.toml", "README.md", "schema"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name)
        else:
            shutil.copy2(source, tmp_path / name)
    (tmp_path / "generated/typescript/tools.ts").mkdir(parents=True)
    code, _, _ = run_cli("generate", "--project", str(tmp_path))
    assert code == 1
    folders = sorted(
        p.relative_to(tmp_path).as_posix() for p in (tmp_path / "generated").rglob("*")
    )
    assert folders == ["generated/typescript", "generated/typescript/tools.ts"]

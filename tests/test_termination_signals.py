"""SIGTERM and SIGHUP while ``generate`` stages its files (what ``timeout``, a cancelled CI job
and a closed terminal send) unwind as Ctrl-C does: the previous outputs stay as they were and no
``.NAME.XXXXXXXX.tmp`` file is left. Their default action ended the process on the spot, leaving
the staged temporary files (and the folders made for them) behind; the exit code stays the one a
shell reports for the signal (128 + its number).

Each run is a child process: a signal toolgen failed to handle would otherwise end pytest.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

# Runs toolgen with ``os.fsync`` (called once per staged file) raising SIGNAL at the second call:
# the first file is staged, the second half-way, when the signal lands. SIGNAL is first set to
# DISPOSITION ("default" or "ignore").
_CHILD = """
import os, signal, sys
from generator import emit
from generator.cli import main

number = getattr(signal, sys.argv[1])
if sys.argv[2] == "ignore":
    signal.signal(number, signal.SIG_IGN)
real_fsync = os.fsync
calls = [0]

class _Os:
    def __getattr__(self, name):
        return getattr(os, name)

    def fsync(self, descriptor):
        real_fsync(descriptor)
        calls[0] += 1
        if calls[0] == 2:
            signal.raise_signal(number)

emit.os = _Os()
sys.exit(main(sys.argv[3:]))
"""


def _snapshot(project: Path) -> dict[str, bytes]:
    return {
        path.relative_to(project).as_posix(): path.read_bytes()
        for path in project.rglob("*")
        if path.is_file()
    }


def _generate_signalled(
    project: Path, name: str, disposition: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _CHILD, name, disposition, "generate", "--project", str(project)],
        env={**os.environ, "PYTHONPATH": str(REPO), "TOOLGEN_DEBUG": ""},
        capture_output=True,
        text=True,
        check=False,
    )


def _rename_a_tool(project: Path) -> None:
    """A source change that reaches the docs, both packages and the stamp."""
    table = project / "schema" / "tools.yaml"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("displayName: Claude Code\n", "displayName: Claude Code X\n"))


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_termination_signal_while_staging_leaves_no_temporary_file(
    project: Path, name: str
) -> None:
    _rename_a_tool(project)
    before = _snapshot(project)
    completed = _generate_signalled(project, name, "default")
    assert completed.returncode == 128 + getattr(signal, name)
    assert completed.stderr == "toolgen: terminated\n"
    assert not list(project.rglob("*.tmp"))
    assert _snapshot(project) == before


def test_a_termination_signal_while_staging_a_new_tree_leaves_no_folder(project: Path) -> None:
    # The folders made for the staged files go too: nothing of the interrupted run stays.
    generated = project / "generated"
    for path in sorted(generated.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    generated.rmdir()
    completed = _generate_signalled(project, "SIGTERM", "default")
    assert completed.returncode == 128 + signal.SIGTERM
    assert not generated.exists()


def test_an_ignored_hangup_stays_ignored(project: Path) -> None:
    # Under `nohup` SIGHUP is ignored: toolgen does not take that choice back.
    _rename_a_tool(project)
    completed = _generate_signalled(project, "SIGHUP", "ignore")
    assert completed.returncode == 0, completed.stderr
    assert "Claude Code X" in (project / "generated" / "docs" / "reference.md").read_text("utf-8")
    assert not list(project.rglob("*.tmp"))

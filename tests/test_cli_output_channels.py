"""Where output goes and what it may hold: ``--format github`` puts only workflow commands on
stdout (check's diffs go to stderr), printed diffs are escaped so no line can be taken for a
workflow command or rewrite a terminal, and a closed or full output stream changes neither the
exit code nor what is written to disk."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import shown_diff

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]

HOSTILE_LINES = "ok\n::error file=x,line=1::forged\r::warning::cr\x1b[2Jesc\x1c::fs\u2028::ls\n"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]")


def _plant(project: Path) -> None:
    (project / "generated/typescript/index.ts").write_text(HOSTILE_LINES)
    (project / "generated/typescript/orphan.ts").write_text(HOSTILE_LINES)


def _assert_no_forged_commands(text: str) -> None:
    assert not RAW.search(text), ascii(text)
    for line in text.split("\n"):
        assert not line.startswith("::"), line


def test_github_format_prints_only_workflow_commands_on_stdout(project: Path, run_cli: Run) -> None:
    _plant(project)
    code, out, err = run_cli("check", "--project", str(project), "--format", "github")
    assert code == 1
    lines = out.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::error"], out
    assert "title=DRIFT_CHANGED" in lines[0] and "title=DRIFT_ORPHANED" in lines[1]
    assert "+++ b/generated/typescript/index.ts" in err
    _assert_no_forged_commands(err)


def test_text_format_diffs_are_escaped(project: Path, run_cli: Run) -> None:
    _plant(project)
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 1
    # One line: CR is no line break to diff (lines split at LF only), shown escaped.
    assert "\n-::error file=x,line=1::forged\\u000d::warning::cr\\u001b[2Jesc" in out
    _assert_no_forged_commands(out)
    _assert_no_forged_commands(err)


def test_shown_diff_keeps_tabs_and_line_structure() -> None:
    assert shown_diff("+a\tb\n-c\x1bd\n") == "+a\tb\n-c\\u001bd\n"


BASH = shutil.which("bash") or "/bin/bash"


def _run_with(fd_setup: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run toolgen under bash with a redirection such as ``>&-`` or ``>/dev/full``."""
    script = f'"$0" -m generator "$@" {fd_setup}'
    return subprocess.run(
        [BASH, "-c", script, sys.executable, *arguments],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("redirection", [">&-", "2>&-", ">&- 2>&-", ">/dev/full", "2>/dev/full"])
def test_generate_with_a_closed_or_full_stream_keeps_its_exit_code(
    project: Path, redirection: str
) -> None:
    (project / "generated/typescript/index.ts").write_text("// edited\n")
    completed = _run_with(redirection, "generate", "--project", str(project))
    assert completed.returncode == 0, completed.stderr
    for noise in ("internal error", "Traceback", "Exception ignored"):
        assert noise not in completed.stdout + completed.stderr
    assert (project / "generated/typescript/index.ts").read_text() != "// edited\n"


@pytest.mark.parametrize("redirection", [">&-", "2>&-", ">/dev/full", "2>/dev/full"])
@pytest.mark.parametrize("drift", [False, True])
def test_check_with_a_closed_or_full_stream_keeps_its_exit_code(
    project: Path, redirection: str, drift: bool
) -> None:
    if drift:
        (project / "generated/typescript/index.ts").write_text("// edited\n")
    for flags in ((), ("--full",)):
        completed = _run_with(redirection, "check", "--project", str(project), *flags)
        assert completed.returncode == (1 if drift else 0), completed.stderr
        for noise in ("internal error", "Traceback", "Exception ignored"):
            assert noise not in completed.stdout + completed.stderr

"""README, "Command line": "An unexpected internal failure prints one ``toolgen: internal
error: …`` line (exit 1); ``TOOLGEN_DEBUG=1`` shows the traceback instead." Run as a shell runs
toolgen, with a bug injected into the command it runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import REPO

# The CLI entry point with its command replaced by one that fails as a bug would, with text that
# must not reach the terminal raw.
BROKEN = """
import sys
import generator.cli as cli

def bug(arguments):
    raise RuntimeError("boom \\x1b[31m\\u202e")

cli._run = bug
raise SystemExit(cli.main(["check"]))
"""


def _run(debug: str | None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    environment.pop("TOOLGEN_DEBUG", None)
    if debug is not None:
        environment["TOOLGEN_DEBUG"] = debug
    return subprocess.run(
        [sys.executable, "-c", BROKEN],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        env=environment,
        timeout=120,
    )


@pytest.mark.parametrize("debug", [None, "", "0"], ids=["unset", "empty", "zero"])
def test_an_internal_failure_is_one_line_and_exit_1(debug: str | None) -> None:
    result = _run(debug)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("toolgen: internal error: RuntimeError: boom ")
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert "Traceback" not in result.stderr


def test_toolgen_debug_shows_the_traceback_instead() -> None:
    result = _run("1")
    assert result.returncode == 1
    assert "Traceback (most recent call last)" in result.stderr
    assert "RuntimeError: boom" in result.stderr
    assert "internal error" not in result.stderr

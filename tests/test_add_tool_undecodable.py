"""add-tool options whose bytes are not UTF-8 (a Latin-1 terminal, ``$'\\xff'`` in a script)
are a usage error naming the option. Python keeps such bytes as lone surrogates, which
validation reported as ``LONE_SURROGATE`` at a line of tools.yaml with advice about YAML
escapes, for text the user never wrote in tools.yaml."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO
from .test_add_tool import BASE, TABLE


@pytest.mark.parametrize(
    ("option", "arguments"),
    [
        ("--display-name", ("acme", *BASE, "--display-name", b"Ac\xffme")),
        ("ID", (b"acm\xe9", *BASE)),
        ("--capability", ("acme", *BASE, "--capability", b"headless\xff")),
    ],
)
def test_undecodable_bytes_are_a_usage_error(
    project: Path, option: str, arguments: tuple[str | bytes, ...]
) -> None:
    before = (project / TABLE).read_bytes()
    completed = subprocess.run(
        [sys.executable.encode(), b"-m", b"generator", b"add-tool",
         *(a if isinstance(a, bytes) else a.encode() for a in arguments),
         b"--project", str(project).encode()],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "LC_ALL": "C.UTF-8"},
        capture_output=True,
        check=False,
    )  # fmt: skip
    err = completed.stderr.decode("utf-8", "replace")
    assert completed.returncode == 2, err
    assert f"toolgen: add-tool: {option} " in err and "is not UTF-8 text" in err
    assert "LONE_SURROGATE" not in err
    assert (project / TABLE).read_bytes() == before

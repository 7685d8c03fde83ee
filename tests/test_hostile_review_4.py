"""Fourth hostile review: bounds that must limit work and memory while input is read (not trim
the result afterwards), and guards that must hold in every reader of the same data."""

from __future__ import annotations

import subprocess
import tracemalloc
from pathlib import Path

import pytest

from .conftest import copy_project

TABLE = "schema/tools.yaml"


def _git(repo: Path, *arguments: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *arguments],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
    )


# -- the generator: a baseline at a git revision is read under the folder reader's size cap ---


def test_a_baseline_file_at_a_revision_is_refused_past_the_cap_while_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``git show`` output was captured whole (capture_output) and parsed whatever its size, where
    # the same file in a baseline folder is refused past ``MAX_FILE_BYTES`` (read_file): a huge
    # blob at a revision cost its whole size in memory, then a parse.
    from generator import files
    from generator.baseline import read_baseline
    from generator.config import load_config

    limit = 1 << 20
    monkeypatch.setattr(files, "MAX_FILE_BYTES", limit)
    repo = copy_project(tmp_path / "repo")
    original = (repo / TABLE).read_bytes()
    (repo / TABLE).write_bytes(original + b"#" + b"x" * (8 * limit) + b"\n")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", "-m", "big")
    _git(repo, "tag", "big")
    (repo / TABLE).write_bytes(original)
    config = load_config(repo)
    tracemalloc.start()
    try:
        baseline = read_baseline(config, "big")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert baseline.table.value is None
    messages = [(d.code.value, d.source, d.message) for d in baseline.table.diagnostics]
    refusal = f'cannot read file: "larger than {limit} bytes"'
    assert messages == [("UNREADABLE", f"big:{TABLE}", refusal)], messages
    assert peak < 4 * limit, peak  # at most the cap was read, not the blob's 8 MiB
    # The same file in a baseline folder: the same refusal, from the folder reader.
    _git(repo, "checkout", "-q", "big", "--", TABLE)
    folder = read_baseline(config, str(repo))
    assert [(d.code.value, d.message) for d in folder.table.diagnostics] == [
        ("UNREADABLE", refusal)
    ]

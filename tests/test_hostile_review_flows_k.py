"""Hostile review (helper k): README flows and runtime commands as a user runs them."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .conftest import REPO, run_toolgen
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

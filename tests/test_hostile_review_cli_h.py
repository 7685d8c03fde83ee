"""A hostile review of the maintainer paths (the CLI, the table and schema readers, ``breaking``,
``add-tool``): each test holds a defect found there fixed."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import copy_project, run_toolgen

Run = Callable[..., tuple[int, str, str]]
TABLE = "schema/tools.yaml"


def git(repo: Path, *arguments: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *arguments],  # noqa: S607
        cwd=repo,
        check=True,
        capture_output=True,
    )


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    project = copy_project(tmp_path / "repo")
    git(project, "init", "-q", "-b", "main")
    commit_all(project, "base")
    git(project, "tag", "base")
    return project


def breaking_json(run_cli: Run, project: Path, against: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run_cli(
        "breaking", "--against", against, "--project", str(project), "--format", "json"
    )
    return code, json.loads(out)


def commit_with_table_link(repo: Path, target: str, tag: str) -> None:
    """Commit ``schema/tools.yaml`` as a symbolic link to ``target``, tag it, and put the working
    tree back as it was."""
    table = repo / TABLE
    table.unlink()
    table.symlink_to(target)
    commit_all(repo, tag)
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "base", "--", "schema")
    table.unlink()
    git(repo, "checkout", "-q", "base", "--", TABLE)


# --- breaking: committed symbolic links, git's environment ----------------------------------------


def test_baseline_symlink_in_the_tree_is_followed(repo: Path, run_cli: Run) -> None:
    """``git show`` printed a committed link's target text, so a table kept as a link read as the
    string ``real-tools.yaml`` (``must be of type object``) and nothing was compared."""
    (repo / "schema/real-tools.yaml").write_bytes((repo / TABLE).read_bytes())
    commit_with_table_link(repo, "real-tools.yaml", "linked")
    code, document = breaking_json(run_cli, repo, "linked")
    assert code == 0, document
    assert document["diagnostics"] == []


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("../../../../etc/hostname", "pointing outside the repository"),
        ("../generated", "a folder, not a file"),
        ("loop-a", "in a loop"),
        ("nowhere.yaml", "a symbolic link to nothing"),
    ],
)
def test_baseline_symlink_that_cannot_be_followed_is_refused(
    repo: Path, run_cli: Run, target: str, reason: str
) -> None:
    if target == "loop-a":
        (repo / "schema/loop-a").symlink_to("loop-b")
        (repo / "schema/loop-b").symlink_to("loop-a")
    commit_with_table_link(repo, target, "odd")
    code, document = breaking_json(run_cli, repo, "odd")
    assert code == 1
    found = [d for d in document["diagnostics"] if d["source"] == f"odd:{TABLE}"]
    assert any(d["code"] == "UNREADABLE" and reason in d["message"] for d in found), found
    assert any(d["code"] == "BASELINE_UNREADABLE" for d in found), found


def test_relative_git_dir_means_the_callers_folder(repo: Path, tmp_path: Path) -> None:
    """git ran in the project folder, where ``GIT_DIR=repo/.git`` (relative to the caller) named
    no repository: ``--against names neither a folder nor a git revision``."""
    env = {**os.environ, "GIT_DIR": "repo/.git"}
    result = run_toolgen(
        "breaking", "--against", "base", "--project", "repo", cwd=tmp_path, env=env
    )
    assert result.returncode == 0, result.stderr
    assert "0 breaking" in result.stderr

"""A project copy under git, for the tests of ``toolgen breaking`` against a revision: ``git``
runs one git command in it (a fixed identity, no hooks' output), ``commit_all`` commits every
change, and ``baseline_repo`` makes the copy whose first commit, tagged ``base``, is the
baseline."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .conftest import copy_project


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


def baseline_repo(path: Path) -> Path:
    """A project copy at ``path`` whose first commit (tagged ``base``) is the baseline."""
    project = copy_project(path)
    git(project, "init", "-q", "-b", "main")
    commit_all(project, "base")
    git(project, "tag", "base")
    return project

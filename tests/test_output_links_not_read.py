"""A symbolic link planted in an output folder is never read through to a file outside it:
``check`` printed the file a link at an output path named (``reference.md -> ~/.git-credentials``,
``/proc/self/environ``) into its diff, so a hostile change could publish a CI machine's secrets in
the log. Such a file is drift whatever it holds, ``generate`` replaces the link with the file (the
file it named untouched), and the fast path agrees with ``check --full``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

DOCS = "generated/docs/reference.md"
PRIVATE = "TOKEN=hunter2-not-for-logs"


def _outputs_of_every_format(run_cli: Run, project: Path) -> list[tuple[int, str]]:
    found = []
    for extra in ((), ("--full",)):
        for form in ("text", "json", "github"):
            code, out, err = run_cli("check", *extra, "--project", str(project), "--format", form)
            found.append((code, out + err))
    return found


@pytest.fixture
def private(tmp_path: Path) -> Path:
    path = tmp_path / "elsewhere" / "credentials"
    path.parent.mkdir()
    path.write_text(PRIVATE + "\n")
    return path


def test_a_link_at_an_output_path_is_not_read(project: Path, run_cli: Run, private: Path) -> None:
    (project / DOCS).unlink()
    (project / DOCS).symlink_to(private)
    for code, text in _outputs_of_every_format(run_cli, project):
        assert code == 1
        assert "hunter2" not in text
        assert "symbolic link" in text
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert not (project / DOCS).is_symlink()
    assert private.read_text() == PRIVATE + "\n"
    assert run_cli("check", "--project", str(project))[0] == 0


def test_an_orphan_link_is_listed_without_what_it_names(
    project: Path, run_cli: Run, private: Path
) -> None:
    (project / "generated/docs/notes.md").symlink_to(private)
    for code, text in _outputs_of_every_format(run_cli, project):
        assert code == 1
        assert "generated/docs/notes.md" in text and "hunter2" not in text


def test_a_link_to_the_same_bytes_elsewhere_is_drift_both_ways(
    project: Path, run_cli: Run, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.md"
    shutil.copyfile(project / DOCS, copy)
    (project / DOCS).unlink()
    (project / DOCS).symlink_to(copy)
    for code, _ in _outputs_of_every_format(run_cli, project):
        assert code == 1
    assert run_cli("generate", "--project", str(project))[0] == 0
    assert not (project / DOCS).is_symlink()
    assert run_cli("check", "--full", "--project", str(project))[0] == 0


def test_a_linked_folder_above_an_output_is_not_read(
    project: Path, run_cli: Run, tmp_path: Path
) -> None:
    package = next(p for p in (project / "generated/python").iterdir() if p.is_dir())
    outside = tmp_path / "outside-package"
    shutil.copytree(package, outside)
    first = sorted(outside.glob("*.py"))[0]
    first.write_text(PRIVATE + "\n")
    shutil.rmtree(package)
    package.symlink_to(outside, target_is_directory=True)
    for code, text in _outputs_of_every_format(run_cli, project):
        assert code == 1
        assert "hunter2" not in text

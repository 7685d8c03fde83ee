"""``--project`` naming something other than a folder is a usage error about the argument:
``--project path/to/pyproject.toml`` said ``pyproject.toml/pyproject.toml: cannot read: Not a
directory``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

Run = Callable[..., tuple[int, str, str]]


def test_a_pyproject_file_given_as_project_is_named(project: Path, run_cli: Run) -> None:
    code, out, err = run_cli("check", "--project", str(project / "pyproject.toml"))
    assert (code, out) == (2, "")
    assert err == (
        f"toolgen: --project {project / 'pyproject.toml'} is not a folder (name the folder"
        " holding it)\n"
    )


def test_another_file_given_as_project_is_named(project: Path, run_cli: Run) -> None:
    code, _, err = run_cli("generate", "--project", str(project / "README.md"))
    assert code == 2
    assert err == f"toolgen: --project {project / 'README.md'} is not a folder\n"


def test_a_name_too_long_is_still_a_usage_error(tmp_path: Path, run_cli: Run) -> None:
    code, _, err = run_cli("check", "--project", str(tmp_path / ("x" * 5000)))
    assert code == 2
    assert "internal error" not in err

"""Configured paths are normalised once: the output folders and the README are stored as their
resolved project-relative spelling, so nothing is written outside the project or the formatter's
scratch folder whatever ``..`` they carry, the bytes do not depend on the spelling, a README
symlinked inside the project is written through, and unusable paths are usage errors (exit 2)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import load_config
from generator.format import FormatError, scratch_layout

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]


def _source_project(folder: Path) -> Path:
    """Sources only (no generated output), like a fresh project."""
    folder.mkdir(parents=True)
    shutil.copytree(REPO / "schema", folder / "schema")
    return folder


def _configure(project: Path, **paths: str) -> None:
    lines = ["[tool.toolgen]", *(f"{key} = {_toml(value)}" for key, value in paths.items())]
    (project / "pyproject.toml").write_text("\n".join(lines) + "\n")


def _toml(text: str) -> str:
    return (
        '"' + "".join(c if c.isalnum() or c in "./_- " else f"\\u{ord(c):04x}" for c in text) + '"'
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_an_output_folder_spelled_through_dotdot_writes_only_inside_the_project(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr("tempfile.tempdir", None)
    project = _source_project(tmp_path / "x" / "proj")
    _configure(project, python_out="../proj/generated/python")
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 0, (out, err)
    # Nothing beside the project, nothing left in the temporary folder.
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["proj"]
    assert list(scratch.iterdir()) == []
    assert (project / "generated/python/tool_registry/models.py").is_file()
    assert load_config(project).relative("python_out") == "generated/python"
    assert run_cli("check", "--project", str(project), "--full")[0] == 0


def test_the_output_bytes_do_not_depend_on_the_spelling(tmp_path: Path, run_cli: Run) -> None:
    plain = _source_project(tmp_path / "plain")
    _configure(plain)
    spelled = _source_project(tmp_path / "spelled")
    _configure(
        spelled,
        python_out="./generated//python/",
        typescript_out="x/../generated/typescript",
        editor_schema_out="../spelled/generated/schema",
    )
    (spelled / "x").mkdir()
    for project in (plain, spelled):
        assert run_cli("generate", "--project", str(project))[0] == 0
    assert _files(plain / "generated") == _files(spelled / "generated")


def test_the_formatters_scratch_layout_ignores_the_output_folders_name() -> None:
    layout = scratch_layout(["a/b/pkg/x.py", "a/b/pkg/sub/y.py"])
    assert {k: v.as_posix() for k, v in layout.items()} == {
        "a/b/pkg/x.py": "x.py",
        "a/b/pkg/sub/y.py": "sub/y.py",
    }
    for hostile in ("../../etc/x.py", "a/../../x.py", "/abs/x.py", "a//x.py", "./x.py"):
        with pytest.raises(FormatError):
            scratch_layout([hostile, "a/x.py"])


@pytest.mark.parametrize("key", ["python_out", "schema", "table", "readme"])
def test_a_nul_in_a_configured_path_is_a_usage_error(project: Path, run_cli: Run, key: str) -> None:
    _configure(project, **{key: "a\x00b"})
    for command in ("generate", "check"):
        code, out, err = run_cli(command, "--project", str(project))
        assert code == 2, (out, err)
        assert "NUL" in err and "internal error" not in err and "\x00" not in err


@pytest.mark.parametrize(
    ("key", "value"),
    [("python_out", "gen\\python"), ("docs_out", "docs\\"), ("table", "schema\\tools.yaml")],
)
def test_a_backslash_in_a_configured_path_is_a_usage_error_at_its_key(
    project: Path, run_cli: Run, key: str, value: str
) -> None:
    # A separator on Windows, a character of a name elsewhere: the same pyproject.toml would name
    # other folders on other machines (and the formatter refused the output as "outside").
    (project / "pyproject.toml").write_text(f"[tool.toolgen]\n{key} = '{value}'\n")
    before = _files(project)
    for command in ("generate", "check"):
        code, out, err = run_cli(command, "--project", str(project))
        assert code == 2, (out, err)
        assert f"pyproject.toml:2:1: tool.toolgen.{key} must separate folders with /" in err, err
        assert "GENERATION_FAILED" not in err and "internal error" not in err
    assert _files(project) == before


@pytest.mark.parametrize(
    ("key", "value"),
    [("python_out", "Makefile"), ("typescript_out", "docs/notes.txt"), ("readme", "docs")],
)
def test_an_output_path_of_the_wrong_kind_is_a_usage_error(
    project: Path, run_cli: Run, key: str, value: str
) -> None:
    (project / "Makefile").write_text("all:\n")
    (project / "docs").mkdir()
    (project / "docs/notes.txt").write_text("notes\n")
    _configure(project, **{key: value})
    before = _files(project)
    for command in ("generate", "check"):
        code, out, err = run_cli(command, "--project", str(project))
        assert code == 2, (out, err)
        assert f"tool.toolgen.{key}" in err and "WRITE_FAILED" not in err
    assert _files(project) == before


def test_an_output_folder_that_is_an_existing_file_is_a_usage_error(
    project: Path, run_cli: Run
) -> None:
    (project / "Makefile").write_text("all:\n")
    _configure(project, python_out="Makefile")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert "is an existing file, not a folder" in err
    assert (project / "Makefile").read_text() == "all:\n"


def test_a_readme_symlinked_inside_the_project_is_written_through(
    project: Path, run_cli: Run
) -> None:
    readme = project / "README.md"
    text = readme.read_text()
    stale = text.replace("| `NOT_A_FILE` |", "| `STALE_ROW` |")
    assert stale != text
    (project / "docs").mkdir()
    (project / "docs/README.md").write_text(stale)
    readme.unlink()
    readme.symlink_to("docs/README.md")
    assert run_cli("check", "--project", str(project))[0] == 1
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 0, (out, err)
    assert readme.is_symlink()
    assert (project / "docs/README.md").read_text() == text
    assert run_cli("check", "--project", str(project), "--full")[0] == 0


@pytest.mark.parametrize(
    ("setting", "problem"),
    [("schema = 5", "must be a relative path"), ('schema = ""', "must be a relative path")],
)
def test_a_refused_path_setting_is_located_at_its_key(
    tmp_path: Path, run_cli: Run, setting: str, problem: str
) -> None:
    project = _source_project(tmp_path / "project")
    (project / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.toolgen]\n{setting}\n")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert f"pyproject.toml:5:1: tool.toolgen.schema {problem}" in err, err


def test_a_pyproject_that_is_not_utf8_names_the_byte_offset_at_its_line_and_column(
    tmp_path: Path, run_cli: Run
) -> None:
    project = _source_project(tmp_path / "project")
    (project / "pyproject.toml").write_bytes(b"[tool.toolgen]\n# caf\xe9\n")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert "pyproject.toml:2:6: not valid UTF-8 (byte offset 20)" in err, err
    assert "codec" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("docs_out", "a" * 300 + "/docs"),  # one component past NAME_MAX
        ("python_out", "a/" * 2100 + "py"),  # the whole path past PATH_MAX
        ("typescript_out", "ts/" + "b" * 256),
        ("readme", "c" * 300 + ".md"),
    ],
)
def test_a_path_too_long_for_the_system_is_a_usage_error_at_its_key(
    project: Path, run_cli: Run, key: str, value: str
) -> None:
    # Such a path was accepted, and the first stat of a file under it raised ENAMETOOLONG outside
    # every handler: an internal error in check and generate.
    _configure(project, **{key: value})
    before = _files(project)
    for command in ("generate", "check", "check --full"):
        code, out, err = run_cli(*command.split(), "--project", str(project))
        assert code == 2, (command, out, err)
        assert f"tool.toolgen.{key} = " in err and "too long for this system" in err, err
        assert "internal error" not in err
    assert _files(project) == before

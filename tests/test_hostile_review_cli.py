"""Hostile review of the command line as a user and an adapters folder would attack it: what
argparse quotes back, lines a CI runner would take for workflow commands, configuration that
breaks the TOML parser, a current folder that no longer exists."""

from __future__ import annotations

import difflib
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import shown_diff, unforgeable

from .conftest import REPO, copy_project

Run = Callable[..., tuple[int, str, str]]


def _commands(text: str) -> list[str]:
    """Lines GitHub Actions would run as workflow commands: it strips leading white space."""
    return [line for line in text.split("\n") if line.lstrip().startswith("::")]


@pytest.mark.parametrize(
    "arguments",
    [
        ("catalog", "--x\x1b[31mRED\n::error::forged"),
        ("generate", "a\x1b[2J\n::error::forged"),
        ("check", "--full", "\u202e\n::warning::forged"),
    ],
)
def test_argparse_errors_quote_the_command_line_escaped(
    run_cli: Run, arguments: tuple[str, ...]
) -> None:
    code, out, err = run_cli(*arguments)
    assert code == 2
    assert out == ""
    assert "unrecognized arguments" in err
    assert "\x1b" not in err and "\u202e" not in err
    assert _commands(err) == []
    assert err.count("\n") == 2  # the usage line and the error line


@pytest.mark.parametrize("lead", ["", " ", "\t", "\u00a0", "\u3000", " \u2003 "])
def test_no_line_reads_as_a_workflow_command(lead: str) -> None:
    line = f"{lead}::error file=x::forged"
    shown = unforgeable(f"ok\n{line}\nok::still ok")
    assert _commands(shown) == []
    assert shown.endswith("\nok::still ok")
    assert f"{lead}\\u003a:error file=x::forged" in shown


def test_a_diff_context_line_cannot_forge_a_command() -> None:
    # difflib starts a context line with a space, which the runner strips.
    old = ["::error::forged\n", "a\n", "b\n"]
    new = ["::error::forged\n", "a\n", "c\n"]
    diff = "".join(difflib.unified_diff(old, new, "a", "b"))
    assert _commands(diff) == [" ::error::forged"]
    assert _commands(shown_diff(diff)) == []


def _adapters_with_forged_names(folder: Path) -> Path:
    folder.mkdir()
    for name in ("::error::forged.json", "\u3000::warning::forged.json"):
        (folder / name).write_text("{}")
    return folder


@pytest.mark.parametrize("command", ["registry", "catalog", "detect"])
def test_adapter_file_names_cannot_forge_commands(
    run_cli: Run, tmp_path: Path, command: str
) -> None:
    folder = _adapters_with_forged_names(tmp_path / "adapters")
    for output_format in ("text", "github"):
        arguments = ("--project", str(REPO), "--format", output_format)
        code, out, err = run_cli(command, *arguments, "--adapters-dir", str(folder))
        assert code == 0
        assert "forged" in out + err
        # toolgen's own commands: about a file (``file=``), or about no file (a tool's
        # detection, or a file whose escaped name names none: ``title=`` first).
        own = [
            line
            for line in _commands(out)
            if line.startswith(
                ("::error file=", "::warning file=", "::error title=", "::warning title=")
            )
        ]
        assert _commands(out) == own and _commands(err) == []


def test_validate_file_names_cannot_forge_commands(run_cli: Run, tmp_path: Path) -> None:
    folder = _adapters_with_forged_names(tmp_path / "adapters")
    files = sorted(str(path.relative_to(tmp_path)) for path in folder.iterdir())
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        for output_format in ("text", "github"):
            code, out, err = run_cli(
                "validate", "--project", str(REPO), "--format", output_format, *files
            )
            assert code == 1
            # The verdicts are the listing: stdout in text format, stderr beside github's
            # workflow commands (stdout holds those only).
            listing = out if output_format == "text" else err
            assert listing.count("rejected") == 2
            own = [
                line
                for line in _commands(out)
                if line.startswith(("::error file=", "::warning file="))
            ]
            assert _commands(out) == own and _commands(err) == []
    finally:
        os.chdir(cwd)


def test_a_source_path_cannot_forge_a_command(run_cli: Run, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolgen]\nschema = "::error::x.json"\n')
    code, out, err = run_cli("check", "--full", "--project", str(tmp_path))
    assert code == 1
    assert "\\u003a:error::x.json: FILE_NOT_FOUND" in err
    assert _commands(out) == [] and _commands(err) == []


def test_a_pyproject_nested_too_deeply_is_a_usage_error(run_cli: Run, tmp_path: Path) -> None:
    depth = 100_000
    (tmp_path / "pyproject.toml").write_text(f"[tool.toolgen]\na = {'[' * depth}{']' * depth}\n")
    code, out, err = run_cli("check", "--project", str(tmp_path))
    assert code == 2
    assert out == ""
    assert err == f"toolgen: {tmp_path / 'pyproject.toml'}: cannot read: nested too deeply\n"
    # Found by walking up from the current folder: not taken for a project, no internal error.
    result = subprocess.run(
        [sys.executable, "-m", "generator", "check"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "nested too deeply" in result.stderr and "internal error" not in result.stderr


def test_a_deleted_current_folder_is_a_usage_error(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    # The child removes its own current folder, then runs the command line.
    script = (
        "import os, sys; os.rmdir(os.getcwd()); from generator.cli import main;"
        " sys.exit(main(['check']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=gone,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        "toolgen: the current folder cannot be used (No such file or directory); use --project\n"
    )


def test_breaking_against_a_name_too_long_for_a_path_is_a_usage_error(
    project: Path, run_cli: Run
) -> None:
    for against in ("a" * 100_000, "a/" * 3_000):
        code, out, err = run_cli("breaking", "--against", against, "--project", str(project))
        assert code == 2 and out == ""
        assert err == "toolgen: --against names neither a folder nor a git revision\n"


def test_a_folder_baseline_missing_a_source_is_a_usage_error(
    project: Path, run_cli: Run, tmp_path: Path
) -> None:
    # As at a git revision (README: "a source missing at REF is a usage error").
    old = copy_project(tmp_path / "old")
    (old / "schema/tools.yaml").unlink()
    code, out, err = run_cli("breaking", "--against", str(old), "--project", str(project))
    assert code == 2 and out == ""
    assert err == f"toolgen: schema/tools.yaml cannot be read at {old}\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_socket_in_an_output_folder_is_an_orphan(project: Path, run_cli: Run) -> None:
    # README: output folders belong to toolgen; what no target produces is an orphan, which
    # check reports and generate deletes (a FIFO never opened, so never waited on).

    folder = project / "generated/typescript"
    os.mkfifo(folder / "fifo.ts")
    listener = socket.socket(socket.AF_UNIX)
    cwd = Path.cwd()
    os.chdir(folder)  # a socket's path is short only relative
    try:
        listener.bind("sock.ts")
    finally:
        os.chdir(cwd)
        listener.close()
    for full in ((), ("--full",)):
        code, _, err = run_cli("check", *full, "--project", str(project))
        assert code == 1
        assert "generated/typescript/fifo.ts: DRIFT_ORPHANED" in err
        assert "generated/typescript/sock.ts: DRIFT_ORPHANED" in err
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert not (folder / "fifo.ts").exists() and not (folder / "sock.ts").exists()
    assert run_cli("check", "--project", str(project))[0] == 0


def test_add_tool_with_standard_input_closed_names_what_is_missing(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when descriptor 0 is closed
    table = (project / "schema/tools.yaml").read_bytes()
    code, out, err = run_cli("add-tool", "new-tool", "--project", str(project))
    assert code == 2 and out == ""
    assert err.startswith("toolgen: add-tool: missing --display-name, ")
    assert err.endswith(" (no terminal to ask)\n")
    assert (project / "schema/tools.yaml").read_bytes() == table


def test_add_tool_shows_the_configured_table_path_escaped(project: Path, run_cli: Run) -> None:
    hostile = "t\x1b[2J.yaml"
    (project / "schema/tools.yaml").rename(project / "schema" / hostile)
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text()
    assert 'table = "schema/tools.yaml"' in text
    pyproject.write_text(
        text.replace('table = "schema/tools.yaml"', 'table = "schema/t\\u001b[2J.yaml"')
    )
    code, out, err = run_cli(
        "add-tool",
        "new-tool",
        "--display-name=New Tool",
        "--launchable",
        "--hook-capable",
        "--hook-pointer=.new/p.json",
        "--detect=path",
        "--binary=new-tool",
        "--project",
        str(project),
    )
    assert code == 0, err
    assert "\x1b" not in out + err
    assert out.startswith("added new-tool to schema/t\\u001b[2J.yaml\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_readme_that_is_a_fifo_is_unreadable_not_absent(project: Path, run_cli: Run) -> None:
    # README: every file toolgen reads, the README included, must be a regular file; a FIFO is
    # refused as UNREADABLE without being opened (it was taken for a missing README: exit 0).
    (project / "README.md").unlink()
    os.mkfifo(project / "README.md")
    for arguments in (("generate",), ("check",), ("check", "--full")):
        code, _, err = run_cli(*arguments, "--project", str(project))
        assert code == 1, arguments
        assert 'README.md: UNREADABLE error: cannot read file: "not a regular file (a FIFO)"' in err


@pytest.mark.parametrize(
    ("text", "place", "words"),
    [
        ("[tool.toolgen]\nschema = \n", ":2:10", "Invalid value"),
        ("[tool.toolgen\n", ":1:14", "Expected ']' at the end of a table declaration"),
        ("[tool.toolgen]\nschema = 1\nschema = 2", ":3:11", "Cannot overwrite a value"),
    ],
)
def test_a_toml_syntax_error_is_located_file_line_column(
    run_cli: Run, tmp_path: Path, text: str, place: str, words: str
) -> None:
    # As every other source's problem is: ``pyproject.toml:LINE:COLUMN:``, not tomllib's own
    # "(at line L, column C)" at the end of the message ("at end of document": past the end).
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli("check", "--project", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"toolgen: {tmp_path / 'pyproject.toml'}{place}: not valid TOML: {words}\n"


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("[tool]\nname = 1\ntoolgen = 5\n", ":3:1"),
        ("tool = 5\n", ":1:1"),
        ('[project]\nname = "x"\n\n[tool]\n  toolgen = "a"\n', ":5:3"),
        ("tool.toolgen = 3\n", ":1:1"),
        ("tool = {toolgen = 3}\n", ""),  # an inline table: not shown plainly, not located
    ],
)
def test_a_toolgen_setting_that_is_no_table_is_located_at_its_key(
    run_cli: Run, tmp_path: Path, text: str, place: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli("check", "--project", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"toolgen: {tmp_path / 'pyproject.toml'}{place}: [tool.toolgen] must be a table\n"

"""Command-line robustness, in child processes as a shell runs toolgen: a reader that closes
early, a terminal that cannot encode the text, hostile configuration text."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

HOSTILE = "\x1b[31m\u202e\n::error title=INJECTED::owned\r"


def _environment(**changes: str | None) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    for key, value in changes.items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    return environment


def _command(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "generator", *arguments]


def _toolgen_closed_early(
    *arguments: str, read_lines: int = 0, stderr_too: bool = False
) -> tuple[int, str]:
    """Run toolgen with stdout (and maybe stderr) on a pipe whose reader reads ``read_lines``
    lines and closes it; returns (exit code, captured stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", *arguments],
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if stderr_too else subprocess.PIPE,
    )
    assert process.stdout is not None
    for _ in range(read_lines):
        process.stdout.readline()
    process.stdout.close()
    error = b"" if process.stderr is None else process.stderr.read()
    return process.wait(timeout=120), error.decode("utf-8", "replace")


def _assert_quiet(stderr: str) -> None:
    for noise in ("internal error", "Traceback", "Exception ignored", "BrokenPipeError"):
        assert noise not in stderr, stderr


@pytest.mark.parametrize("read_lines", [0, 1])
def test_a_reader_closing_stdout_early_ends_quietly_with_the_commands_exit_code(
    project: Path, read_lines: int
) -> None:
    # Missing output: check prints about 140 kB of diffs, more than any pipe buffers.
    shutil.rmtree(project / "generated")
    code, stderr = _toolgen_closed_early("check", "--project", str(project), read_lines=read_lines)
    assert code == 1
    _assert_quiet(stderr)


@pytest.mark.parametrize("output_format", ["json", "github"])
def test_a_closed_stdout_in_machine_formats_is_quiet(project: Path, output_format: str) -> None:
    shutil.rmtree(project / "generated")
    code, stderr = _toolgen_closed_early(
        "check", "--project", str(project), "--format", output_format
    )
    assert code == 1
    _assert_quiet(stderr)


def test_a_closed_stdout_and_stderr_is_quiet(project: Path) -> None:
    shutil.rmtree(project / "generated")
    code, _ = _toolgen_closed_early("check", "--project", str(project), stderr_too=True)
    assert code == 1


def test_a_closed_stdout_on_success_keeps_exit_0(project: Path) -> None:
    code, stderr = _toolgen_closed_early("check", "--project", str(project), "--format", "json")
    assert code == 0
    _assert_quiet(stderr)


def test_a_shell_pipeline_into_head_ends_quietly(project: Path) -> None:
    shutil.rmtree(project / "generated")
    script = '"$0" -m generator check --project "$1" | head -1; echo "exit=${PIPESTATUS[0]}"'
    bash = shutil.which("bash")
    assert bash is not None
    result = subprocess.run(
        [bash, "-c", script, sys.executable, str(project)],
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.splitlines() == ["--- a/generated/docs/reference.md", "exit=1"]
    _assert_quiet(result.stderr)


def _non_ascii_project(project: Path) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("id: cursor", 'id: "c\u00fcrsor\u2713\u4e2d"'))


@pytest.mark.parametrize(
    ("encoding", "codec"),
    [
        ({"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}, "ascii"),
        ({"PYTHONIOENCODING": "cp1252"}, "cp1252"),
        ({"PYTHONIOENCODING": "ascii"}, "ascii"),
    ],
    ids=["C-locale", "cp1252", "ascii"],
)
@pytest.mark.parametrize("output_format", ["text", "github", "json"])
@pytest.mark.parametrize("command", ["check", "generate"])
def test_a_terminal_that_cannot_encode_gets_escapes(
    project: Path, encoding: dict[str, str], codec: str, output_format: str, command: str
) -> None:
    _non_ascii_project(project)
    changes: dict[str, str | None] = {"PYTHONIOENCODING": None, "PYTHONUTF8": None, **encoding}
    result = subprocess.run(
        _command(command, "--project", str(project), "--format", output_format),
        env=_environment(**changes),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 1
    # Strictly decodable in the terminal's encoding: what it cannot show arrives escaped.
    both = (result.stdout + result.stderr).decode(codec)
    assert "internal error" not in both and "Traceback" not in both
    assert "\\u2713\\u4e2d" in both  # the table's id (json doubles the backslashes)


@pytest.mark.parametrize("output_format", ["text", "github"])
def test_a_drift_diff_with_non_ascii_text_reaches_an_ascii_terminal_escaped(
    project: Path, output_format: str
) -> None:
    (project / "generated/typescript/index.ts").write_text("// h\u00e4nd edit \u2713\n")
    result = subprocess.run(
        _command("check", "--project", str(project), "--format", output_format),
        env=_environment(PYTHONIOENCODING="ascii"),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 1
    # github: stdout holds workflow commands only, the diff goes to stderr.
    diff = result.stdout if output_format == "text" else result.stderr
    assert "-// h\\xe4nd edit \\u2713" in diff.decode("ascii")
    assert b"internal error" not in result.stderr


WORKFLOW_COMMAND = re.compile(
    r"::(error|warning) (file=[^,:]*,)?(line=\d+,)?(col=\d+,)?title=[A-Z_]+::[^\r\n]*"
)


def _hostile_pyproject(project: Path, section: str) -> None:
    (project / "pyproject.toml").write_text(f"[tool.toolgen]\n{section}\n", "utf-8")


def _toml_string(text: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 else c for c in text) + '"'


HOSTILE_CONFIGS = {
    "unknown-key": f"{_toml_string(HOSTILE)} = 'x'",
    "bad-key-value": f"python_out = 1\n{_toml_string('python' + HOSTILE)} = 2",
    "path-value": f"table = {_toml_string('schema/' + HOSTILE + '.yaml')}",
    "output-value": f"python_out = {_toml_string('../' + HOSTILE)}",
}


@pytest.mark.parametrize("output_format", ["text", "github"])
@pytest.mark.parametrize("config", sorted(HOSTILE_CONFIGS))
def test_hostile_configuration_text_is_escaped(
    project: Path, config: str, output_format: str
) -> None:
    _hostile_pyproject(project, HOSTILE_CONFIGS[config])
    result = subprocess.run(
        _command("check", "--project", str(project), "--format", output_format),
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (1, 2)
    both = result.stdout + result.stderr
    assert "Traceback" not in both
    for raw in ("\x1b", "\u202e", "\r"):
        assert raw not in both
    lines = both.splitlines()
    assert not any(line.startswith("::error title=INJECTED") for line in lines)
    if output_format == "github":
        # Only toolgen's own commands, whose properties hold no raw separator.
        commands = [line for line in lines if line.startswith("::")]
        assert all(WORKFLOW_COMMAND.match(line) for line in commands), commands


def test_a_hostile_project_path_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "p\x1b[2J\u202e"
    folder.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "generator", "check", "--project", str(folder)],
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert "\\u001b[2J\\u202e/pyproject.toml: not found" in result.stderr

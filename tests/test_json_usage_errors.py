"""With ``--format json`` standard output is one JSON document whatever the outcome: a usage
error (exit 2: a command line argparse refuses, a missing or broken configuration, a baseline
that cannot be read, add-tool fields that cannot be had) prints ``{"usageError": line}`` there,
the line it prints on standard error. Other formats keep standard output empty."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import cli

Run = Callable[..., tuple[int, str, str]]


def _usage_document(out: str, err: str) -> str:
    document = json.loads(out)
    assert list(document) == ["usageError"]
    line = document["usageError"]
    assert isinstance(line, str) and line
    assert err.rstrip("\n").endswith(line)  # the same line as on stderr
    return line


@pytest.mark.parametrize(
    "arguments",
    [
        ("check", "--format", "json", "--bogus"),
        ("check", "--format=json", "--bogus"),
        ("check", "--form", "json", "--bogus"),  # argparse's own abbreviation
        ("validate", "--format", "json"),  # FILE is required
        ("breaking", "--format", "json"),  # --against is required
        ("add-tool", "--format", "json"),  # ID is required
        ("--format", "json", "nonsense"),  # no such command
    ],
)
def test_a_refused_command_line_is_a_json_document(
    run_cli: Run, arguments: tuple[str, ...]
) -> None:
    code, out, err = run_cli(*arguments)
    assert code == 2
    assert err.startswith("usage: ")
    assert "error: " in _usage_document(out, err)


@pytest.mark.parametrize("output_format", ["text", "github"])
def test_other_formats_keep_standard_output_empty(run_cli: Run, output_format: str) -> None:
    code, out, err = run_cli("check", "--format", output_format, "--bogus")
    assert (code, out) == (2, "")
    assert "unrecognized arguments: --bogus" in err


def test_an_invalid_format_is_answered_in_text(run_cli: Run) -> None:
    code, out, err = run_cli("check", "--format", "yaml")
    assert (code, out) == (2, "")
    assert "invalid choice: 'yaml'" in err


def test_a_missing_project_is_a_json_document(run_cli: Run, tmp_path: Path) -> None:
    code, out, err = run_cli("check", "--format", "json", "--project", str(tmp_path / "none"))
    assert code == 2
    assert "pyproject.toml: not found" in _usage_document(out, err)


def test_an_unreadable_baseline_is_a_json_document(
    project: Path, run_cli: Run, tmp_path: Path
) -> None:
    missing = str(tmp_path / "no-such-folder")
    code, out, err = run_cli(
        "breaking", "--format", "json", "--project", str(project), "--against", missing
    )
    assert code == 2
    assert _usage_document(out, err).startswith("toolgen: ")


def test_add_tool_without_its_fields_is_a_json_document(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    code, out, err = run_cli("add-tool", "new-tool", "--format", "json", "--project", str(project))
    assert code == 2
    assert "(no terminal to ask)" in _usage_document(out, err)


def test_add_tool_says_when_input_ends_before_every_field(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal that closes mid-way (Ctrl-D) used to end the command with exit 2 and no word."""
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("A New Tool\n"))  # then end of input
    table = (project / "schema/tools.yaml").read_bytes()
    code, out, err = run_cli("add-tool", "new-tool", "--project", str(project))
    assert code == 2
    assert out == "display name: launchable? [y/n]: "  # answered, then asked again
    assert "toolgen: add-tool: input ended before every field was given" in err
    assert (project / "schema/tools.yaml").read_bytes() == table

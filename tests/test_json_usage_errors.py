"""More refused command lines under ``--format json`` (``test_json_every_outcome`` has the
rest): a missing required argument or an unknown command is still the one JSON object, an
invalid ``--format`` is answered in text, and add-tool says when a terminal's input ends before
every field was given."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import cli

Run = Callable[..., tuple[int, str, str]]


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (("validate", "--format", "json"), "the following arguments are required: FILE"),
        (("breaking", "--format", "json"), "the following arguments are required: --against"),
        (("add-tool", "--format", "json"), "the following arguments are required: ID"),
        (("nonsense", "--format", "json"), "invalid choice: 'nonsense'"),
    ],
)
def test_a_missing_argument_or_command_is_a_json_object(
    run_cli: Run, arguments: tuple[str, ...], needle: str
) -> None:
    code, out, err = run_cli(*arguments)
    assert code == 2
    document = json.loads(out)
    assert document["diagnostics"] == []
    assert document["error"]["kind"] == "usage"
    assert needle in document["error"]["message"] and needle in err


def test_an_invalid_format_is_answered_in_text(run_cli: Run) -> None:
    code, out, err = run_cli("check", "--format", "yaml")
    assert (code, out) == (2, "")
    assert "invalid choice: 'yaml'" in err


def test_add_tool_says_when_input_ends_before_every_field(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal that closes mid-way (Ctrl-D) used to end the command with exit 2 and no word."""
    monkeypatch.setattr(cli, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("A New Tool\n"))  # then end of input
    table = (project / "schema/tools.yaml").read_bytes()
    code, out, err = run_cli("add-tool", "new-tool", "--project", str(project))
    assert (code, out) == (2, "")
    assert err.startswith("display name: launchable? [y/n]: ")  # answered, then asked again
    assert "add-tool: input ended before every missing field was given" in err
    assert (project / "schema/tools.yaml").read_bytes() == table

"""``--format github``: stdout holds workflow commands only, for every command (README). add-tool's
account of the added row and the listings of ``validate``, ``registry``, ``catalog`` and
``detect`` went to stdout beside the commands; they go to stderr, as ``check``'s diffs do, and
stay on stdout in ``text`` format."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from .test_add_tool import BASE

Run = Callable[..., tuple[int, str, str]]


def _only_workflow_commands(out: str) -> None:
    for line in out.splitlines():
        assert line.startswith(("::error ", "::warning ", "::notice ")), line


def test_add_tool_summary_goes_to_stderr(project: Path, run_cli: Run) -> None:
    code, out, err = run_cli(
        "add-tool", "acme-agent", *BASE, "--project", str(project), "--format", "github"
    )
    assert code == 0, err
    _only_workflow_commands(out)
    assert "added acme-agent to schema/tools.yaml" in err


@pytest.mark.parametrize("command", ["registry", "catalog", "detect", "validate"])
def test_runtime_listings_go_to_stderr(
    project: Path, tmp_path: Path, run_cli: Run, command: str
) -> None:
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    (adapters / "bad.json").write_text(json.dumps({"id": "codex"}), encoding="utf-8")
    where = (
        [str(adapters / "bad.json")] if command == "validate" else ["--adapters-dir", str(adapters)]
    )
    arguments = (command, *where, "--project", str(project))
    _, text_out, _ = run_cli(*arguments)
    _, out, err = run_cli(*arguments, "--format", "github")
    assert out.strip(), "the adapter's diagnostics are workflow commands"
    _only_workflow_commands(out)
    listing = [line for line in text_out.splitlines() if line.strip()]
    assert listing, text_out
    for line in listing:
        assert line in err

"""``--format json`` prints one JSON object on stdout in every outcome: a usage error (a missing
project, a refused option, add-tool's missing fields, an unknown ``--against``), an interrupt and
an internal error printed nothing there, so ``toolgen check --format json | jq`` read an empty
stream. The object has the documented ``diagnostics`` (none) and ``summary``, and ``error``
saying what happened; stderr keeps its line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.cli import _asks_for_json

from .test_add_tool import BASE

Run = Callable[..., tuple[int, str, str]]


def _error_object(out: str) -> dict[str, object]:
    document = json.loads(out)
    assert document["diagnostics"] == []
    assert document["summary"]["errors"] == 0
    error = document["error"]
    assert isinstance(error, dict)
    return error


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        (("check", "--project", "{missing}", "--format", "json"), "pyproject.toml: not found"),
        (("check", "--format", "json", "--bogus"), "unrecognized arguments: --bogus"),
        (("check", "--format=json", "--bogus"), "unrecognized arguments: --bogus"),
        (("add-tool", "acme", "--project", "{project}", "--format", "json"), "missing --display"),
        (
            ("add-tool", "acme", *BASE, "--after", "nope", "--project", "{project}",
             "--format", "json"),
            "--after names no row",
        ),
        (
            ("breaking", "--against", "{missing}", "--project", "{project}", "--format", "json"),
            "--against",
        ),
        (("registry", "--project", "{missing}", "--format", "json"), "not found"),
    ],
)  # fmt: skip
def test_a_usage_error_is_a_json_object(
    project: Path, tmp_path: Path, run_cli: Run, arguments: tuple[str, ...], needle: str
) -> None:
    values = {"project": str(project), "missing": str(tmp_path / "nowhere")}
    code, out, err = run_cli(*(argument.format(**values) for argument in arguments))
    assert code == 2
    error = _error_object(out)
    assert error["kind"] == "usage"
    assert needle in str(error["message"])
    assert needle in err


def test_text_format_prints_nothing_on_stdout_for_a_usage_error(
    tmp_path: Path, run_cli: Run
) -> None:
    code, out, err = run_cli("check", "--project", str(tmp_path))
    assert (code, out) == (2, "")
    assert "pyproject.toml: not found" in err


def test_an_interrupt_is_a_json_object(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("generator.pipeline.build_outputs", interrupted)
    code, out, err = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 130
    assert _error_object(out) == {"kind": "interrupted", "message": "interrupted"}
    assert err == "toolgen: interrupted\n"


def test_an_internal_error_is_a_json_object(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLGEN_DEBUG", raising=False)

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("generator.pipeline.build_outputs", broken)
    code, out, _ = run_cli("check", "--full", "--project", str(project), "--format", "json")
    assert code == 1
    error = _error_object(out)
    assert error == {"kind": "internal", "message": "internal error: RuntimeError: boom"}


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["check", "--format", "json"], True),
        (["check", "--format=json"], True),
        (["check", "--form", "json"], True),
        (["check", "--format", "text"], False),
        (["check", "--format"], False),
        (["check", "--full", "json"], False),
        (["validate", "json"], False),
    ],
)
def test_the_json_request_is_read_from_a_refused_command_line(
    argv: list[str], expected: bool
) -> None:
    assert _asks_for_json(argv) is expected

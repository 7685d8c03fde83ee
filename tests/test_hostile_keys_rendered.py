"""Every part of a diagnostic is escaped in every renderer: a YAML key reaches the ``(at …)``
pointer, and neither it nor anything else may put a control, format or line-break character on
stderr, or start a second workflow command in ``--format github``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import Code, Diagnostic, render_github, render_text

Run = Callable[..., tuple[int, str, str]]

HOSTILE_KEY = "\x1b[2J\x1b[31mX\n::error file=a,line=1::INJ \u202e"
# Raw control (C0 but tab/newline kept apart, C1), bidi, format and line/paragraph separators.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _hostile_table(project: Path) -> None:
    table = project / "schema/tools.yaml"
    text = table.read_text()
    row = "  - id: claude-code\n"
    quoted = json.dumps(HOSTILE_KEY)  # a double-quoted YAML scalar is a JSON string
    table.write_text(text.replace(row, f"{row}    {quoted}: 1\n", 1))


def _assert_clean(stream: str) -> None:
    assert not RAW.search(stream), ascii(stream)


def test_a_hostile_key_in_text_format_is_escaped(project: Path, run_cli: Run) -> None:
    _hostile_table(project)
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 1
    _assert_clean(out + err)
    assert "UNKNOWN_FIELD" in err
    assert "\\u001b[2J" in err and "\\u202e" in err and "\\u000a::error" in err
    for line in err.splitlines():
        assert not line.startswith("::"), line
        assert line.startswith(("schema/tools.yaml:", "toolgen: ", "  hint: ")), line


def test_a_hostile_key_in_github_format_is_one_command(project: Path, run_cli: Run) -> None:
    _hostile_table(project)
    code, out, err = run_cli("generate", "--project", str(project), "--format", "github")
    assert code == 1
    _assert_clean(out + err)
    lines = out.splitlines()
    assert lines and all(line.startswith("::error file=schema/tools.yaml,") for line in lines), out
    unknown = [line for line in lines if "title=UNKNOWN_FIELD" in line]
    assert len(unknown) == 1
    assert "%0A::error" not in unknown[0] and "\\u000a::error" in unknown[0]


@pytest.mark.parametrize("render", [render_text, render_github])
def test_every_field_of_a_diagnostic_is_escaped(render: Callable[[Diagnostic], str]) -> None:
    diagnostic = Diagnostic(
        Code.SCHEMA_VIOLATION,
        "message " + HOSTILE_KEY,
        "src\n::warning::x" + HOSTILE_KEY,
        3,
        4,
        "/tools/0/" + HOSTILE_KEY,
        hint="hint " + HOSTILE_KEY + "\r\n::error::y",
    )
    shown = render(diagnostic)
    _assert_clean(shown)
    expected_lines = 2 if render is render_text else 1
    assert len(shown.split("\n")) == expected_lines
    assert "\r" not in shown
    if render is render_github:
        properties = shown.split("::")[1]
        assert properties.count(",") == 3 and properties.count(":") == 0

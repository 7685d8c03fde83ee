"""YAML that YAML 1.1 (PyYAML) and YAML 1.2 (editors) read differently is refused, located, or
read as both read it: the non-specific tag ``!``, characters 1.1 takes for line breaks (NEL,
U+2028, U+2029), explicitly tagged keys; and too-deep nesting is located."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.load import MAX_NESTING, parse_json, parse_yaml

Run = Callable[..., tuple[int, str, str]]


def _found(text: str) -> list[tuple[str, int | None, int | None, str | None]]:
    loaded = parse_yaml(text, "t.yaml")
    return [(d.code.value, d.line, d.column, d.pointer) for d in loaded.diagnostics]


@pytest.mark.parametrize("scalar", ["true", "12", "null", "1e3", "text", '"quoted"'])
def test_the_non_specific_tag_on_a_value_is_refused(scalar: str) -> None:
    assert _found(f"a: 1\nlaunchable: ! {scalar}\n") == [
        ("YAML_UNSUPPORTED_VALUE", 2, 13, "/launchable")
    ]


def test_the_non_specific_tag_on_a_key_is_refused() -> None:
    assert _found("a: 1\n! true: 1\n! b: 2\n") == [
        ("YAML_UNSUPPORTED_VALUE", 2, 1, ""),
        ("YAML_UNSUPPORTED_VALUE", 3, 1, ""),
    ]


def test_the_non_specific_tag_in_a_table_is_a_located_cli_error(
    project: Path, run_cli: Run
) -> None:
    table = project / "schema/tools.yaml"
    text = table.read_text()
    assert "    launchable: true\n" in text
    table.write_text(text.replace("    launchable: true\n", "    launchable: ! true\n", 1))
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "YAML_UNSUPPORTED_VALUE" in err and "non-specific tag" in err
    assert "(at /tools/0/launchable)" in err


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('a: "x\x85y"\n', 1, 6),
        ("a: 'x\u2028y'\n", 1, 6),
        ('a: "x\u2029y"\n', 1, 6),
        ("b: 1\na: x\u2028y\n", 2, 5),
        ("b: 1\n# comment\u2028evil: 1\n", 2, 10),
        ("b: 1\n\u2028x\x85: 1\n", 2, 1),
    ],
)
def test_yaml_1_1_line_breaks_are_refused_where_they_are(text: str, line: int, column: int) -> None:
    loaded = parse_yaml(text, "t.yaml")
    assert loaded.value is None
    assert next((d.code.value, d.line, d.column) for d in loaded.diagnostics) == (
        "YAML_UNSUPPORTED_VALUE",
        line,
        column,
    )
    assert all("\\u" in d.message for d in loaded.diagnostics)


def test_their_escapes_are_fine() -> None:
    loaded = parse_yaml('a: "x\\Ny\\Lz\\P"\n', "t.yaml")
    assert loaded.diagnostics == () and loaded.value == {"a": "x\x85y\u2028z\u2029"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("!!str true: 1\n", {"true": 1}),
        ("!!str 123: 1\n", {"123": 1}),
        ("? !!str 1e3\n: 1\n", {"1e3": 1}),
        ("!!str null: 1\n", {"null": 1}),
    ],
)
def test_explicitly_tagged_string_keys_are_accepted(text: str, value: object) -> None:
    loaded = parse_yaml(text, "t.yaml")
    assert loaded.diagnostics == () and loaded.value == value


def test_plain_ambiguous_keys_are_still_refused() -> None:
    assert _found("1e3: 1\n") == [("YAML_UNSUPPORTED_VALUE", 1, 1, "/1e3")]


def test_too_deep_yaml_is_located() -> None:
    deep = "".join("  " * i + f"k{i}:\n" for i in range(MAX_NESTING + 5)) + "  " * 70 + "x: 1\n"
    assert _found(deep) == [("YAML_SYNTAX", MAX_NESTING + 1, 2 * MAX_NESTING + 1, None)]
    flow = "a: " + "[" * (MAX_NESTING + 10) + "]" * (MAX_NESTING + 10) + "\n"
    assert _found(flow) == [("YAML_SYNTAX", 1, 3 + MAX_NESTING, None)]
    assert _found("a: " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1) + "\n") == []


def test_too_deep_json_is_located() -> None:
    text = '{\n "a": ' + "[" * 100 + "]" * 100 + ', "s": "[[[["\n}'
    loaded = parse_json(text, "s.json")
    assert [(d.code.value, d.line, d.column) for d in loaded.diagnostics] == [
        ("JSON_SYNTAX", 2, 6 + MAX_NESTING)
    ]
    shallow = '{"s": "' + "[" * 200 + '", "a": ' + "[" * 10 + "]" * 10 + "}"
    assert parse_json(shallow, "s.json").diagnostics == ()

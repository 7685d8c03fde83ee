"""Every YAML value is judged and every problem of a run is reported at once: YAML 1.1/1.2
disagreements, numbers JSON cannot carry, each occurrence at its own place, and a count line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import Code, Diagnostic, Severity, render_count
from generator.load import MAX_SAFE_INTEGER, parse_json, parse_yaml

from .conftest import run_toolgen
from .test_validation import diagnose, row, table

Run = Callable[..., tuple[int, str, str]]

# (plain scalar, refused?) across the whole class: booleans, integers, floats, specials, tags.
YAML_1_1_VS_1_2 = [
    # booleans: YAML 1.1 only
    ("yes", True),
    ("No", True),
    ("on", True),
    ("OFF", True),
    ("true", False),
    ("False", False),
    ("TRUE", False),
    ("y", False),  # a string to both
    # integers
    ("42", False),
    ("-7", False),
    ("+1", False),
    ("0", False),
    ("00", False),  # zero to both
    ("0x1F", False),
    ("0777", True),  # octal 511 to YAML 1.1, 777 to YAML 1.2
    ("010", True),
    ("08", True),  # a string to YAML 1.1, 8 to YAML 1.2
    ("0o17", True),  # YAML 1.2 octal, a string to YAML 1.1
    ("0b101", True),
    ("1_000", True),
    ("0x_1F", True),
    ("1:30", True),  # sexagesimal
    ("60:30", True),
    # floats
    (".5", False),
    ("1.5", False),
    ("-0.5", False),
    ("1.", False),
    ("1.0e+3", False),
    ("1.5E-3", False),
    ("1e3", True),  # a string to YAML 1.1 (no dot, no sign), 1000.0 to YAML 1.2
    ("1E3", True),
    ("1.0e3", True),
    ("1e+3", True),
    ("-.5", True),
    ("+.5", True),
    ("1_000.5", True),
    ("1:30.5", True),
    # specials: no JSON equivalent in either reading
    (".inf", True),
    ("-.Inf", True),
    (".NaN", True),
    ("=", True),
    ("2024-01-01", True),
    # null
    ("~", False),
    ("null", False),
    # quoting and explicit tags
    ("'yes'", False),
    ('"0777"', False),
    ('"1e3"', False),
    ("!!str yes", False),
    ("!!str 1e3", False),
    ("!!float 1", False),
    ("!!int 0777", True),
    ("!!bool yes", True),
    ("!!int 1_000", True),
    ("!!float 1e3", False),  # a float to both
]


@pytest.mark.parametrize(("text", "refused"), YAML_1_1_VS_1_2, ids=[t for t, _ in YAML_1_1_VS_1_2])
def test_every_scalar_yaml_1_1_and_1_2_read_differently_is_refused(
    text: str, refused: bool
) -> None:
    loaded = parse_yaml(f"a: {text}\nb: [x, {text}]\n", "t.yaml")
    found = [(d.code, d.line, d.column, d.pointer) for d in loaded.diagnostics]
    if refused:
        assert found == [
            (Code.YAML_UNSUPPORTED_VALUE, 1, 4, "/a"),
            (Code.YAML_UNSUPPORTED_VALUE, 2, 8, "/b/1"),
        ]
        assert all(d.hint and "quote it" in d.hint for d in loaded.diagnostics)
    else:
        assert found == []


@pytest.mark.parametrize(("key", "refused"), [("1e3", True), ("0o17", True), ('"1e3"', False)])
def test_keys_yaml_1_2_reads_as_numbers_are_refused(key: str, refused: bool) -> None:
    loaded = parse_yaml(f"{key}: x\n", "t.yaml")
    codes = [(d.code, d.line, d.column) for d in loaded.diagnostics]
    assert codes == ([(Code.YAML_UNSUPPORTED_VALUE, 1, 1)] if refused else [])


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        (str(MAX_SAFE_INTEGER), False),
        (str(-MAX_SAFE_INTEGER), False),
        (str(MAX_SAFE_INTEGER + 1), True),
        ("1" + "0" * 5000, True),  # beyond Python's int-string conversion limit
        ("-" + "9" * 5000, True),
        ("0x" + "f" * 5000, True),
        ("1.0e+400", True),  # overflows to infinity
        ("-1.5e+999", True),
        ("1.0e-400", False),  # underflows to 0.0: representable, if imprecise
    ],
    ids=lambda value: value[:20] if isinstance(value, str) else str(value),
)
def test_numbers_json_cannot_carry_are_located(text: str, refused: bool) -> None:
    loaded = parse_yaml(f"settings:\n  n: {text}\n", "t.yaml")
    found = [(d.code, d.line, d.column, d.pointer) for d in loaded.diagnostics]
    assert found == ([(Code.NUMBER_OUT_OF_RANGE, 2, 6, "/settings/n")] if refused else [])


def test_a_5000_digit_integer_in_tools_yaml_is_a_located_finding(project: Path) -> None:
    path = project / "schema/tools.yaml"
    text = path.read_text()
    path.write_text(text.replace("manifestMaxBytes: 65536", "manifestMaxBytes: 1" + "0" * 5000))
    line = text[: text.index("manifestMaxBytes")].count("\n") + 1
    for environment in ({}, {"PYTHONINTMAXSTRDIGITS": "0"}, {"PYTHONINTMAXSTRDIGITS": "640"}):
        result = run_toolgen("check", "--project", str(project), env=environment)
        assert result.returncode == 1, result.stderr
        assert "internal error" not in result.stderr
        assert f"schema/tools.yaml:{line}:21: NUMBER_OUT_OF_RANGE error" in result.stderr


@pytest.mark.parametrize("number", ["1" + "0" * 5000, "1e400", "-2.5E+999"], ids=len)
def test_numbers_a_json_schema_file_cannot_carry_are_located(number: str) -> None:
    text = '{\n  "a": 1,\n  "maximum": ' + number + ',\n  "b": [1, ' + number + "]\n}\n"
    loaded = parse_json(text, "s.json")
    assert loaded.value is None
    assert [(d.code, d.line, d.column, d.pointer) for d in loaded.diagnostics] == [
        (Code.NUMBER_OUT_OF_RANGE, 3, 14, "/maximum"),
        (Code.NUMBER_OUT_OF_RANGE, 4, 12, "/b/1"),
    ]


def test_a_huge_number_in_the_manifest_schema_is_a_finding_not_a_crash(project: Path) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = path.read_text()
    path.write_text(schema.replace('"$schema"', '"x-big": 1' + "0" * 5000 + ',\n  "$schema"', 1))
    result = run_toolgen("check", "--project", str(project))
    assert result.returncode == 1
    assert "internal error" not in result.stderr
    assert "schema/tool-manifest.schema.json:2:" in result.stderr
    assert "NUMBER_OUT_OF_RANGE" in result.stderr


def test_every_repeated_key_of_a_json_file_is_reported() -> None:
    loaded = parse_json('{"a": 1,\n "a": 2,\n "b": {"c": 1, "c": 2}}', "s.json")
    assert [(d.code, d.line, d.pointer) for d in loaded.diagnostics] == [
        (Code.DUPLICATE_KEY, 2, "/a"),
        (Code.DUPLICATE_KEY, 3, "/b/c"),
    ]


def test_a_refused_value_does_not_hide_schema_violations_in_other_rows() -> None:
    found = diagnose(
        table(row(displayName="yes"), row("beta", hookCapable="nope"), row("beta", name="Beta"))
    )
    assert [(d.code.value, d.line, d.pointer) for d in found] == [
        ("YAML_UNSUPPORTED_VALUE", 12, "/tools/0/displayName"),
        ("SCHEMA_VIOLATION", 20, "/tools/1/hookCapable"),
        ("DUPLICATE_ID", 23, "/tools/2/id"),
    ]


def test_a_value_repeated_on_seven_rows_is_reported_at_each() -> None:
    rows = [row(f"tool{index}", hookCapable="on") for index in range(7)]
    found = diagnose(table(*rows))
    assert [(d.code.value, d.pointer) for d in found] == [
        ("YAML_UNSUPPORTED_VALUE", f"/tools/{index}/hookCapable") for index in range(7)
    ]
    assert [d.line for d in found] == [14 + 6 * index for index in range(7)]
    assert all(d.column == 18 for d in found)


def test_every_alias_and_duplicate_key_is_reported_with_the_rest() -> None:
    text = table(
        row(), row("beta", name="*a") + "    launchable: false\n", row("gamma", name="1e3")
    )
    found = diagnose(text)
    assert [(d.code.value, d.line) for d in found] == [
        ("YAML_ALIAS", 18),
        ("DUPLICATE_KEY", 23),
        ("YAML_UNSUPPORTED_VALUE", 25),
    ]


def test_a_refused_placeholder_never_trips_the_cross_row_rules() -> None:
    # The table itself, its rows and its sections refused: checks skip what they cannot read.
    for text in (
        "!!set {a, b}\n",
        table(row(identifier="*x"), row(identifier="*y")),
        table(row()).replace("settings:", "settings: !!omap\n  - x: 1\nignored:", 1),
        table(row()).replace("cohorts:", "cohorts: *c\nunused:", 1),
    ):
        found = diagnose(text)
        assert found and all(isinstance(d, Diagnostic) for d in found)


@pytest.mark.parametrize(
    ("diagnostics", "line"),
    [
        ([], None),
        ([("a.yaml", Severity.ERROR)], "1 error in a.yaml"),
        ([("a.yaml", Severity.ERROR)] * 3, "3 errors in a.yaml"),
        ([("a.yaml", Severity.WARNING)], "1 warning in a.yaml"),
        (
            [("a.yaml", Severity.ERROR)] * 3 + [("a.yaml", Severity.WARNING)],
            "3 errors, 1 warning in a.yaml",
        ),
        (
            [("a.yaml", Severity.ERROR), ("b.json", Severity.WARNING)] * 2,
            "2 errors, 2 warnings in 2 files",
        ),
        ([("", Severity.ERROR)], "1 error"),
        ([("a\x1b[2J.yaml", Severity.ERROR)], "1 error in a\\u001b[2J.yaml"),
    ],
)
def test_the_count_line(diagnostics: list[tuple[str, Severity]], line: str | None) -> None:
    records = [
        Diagnostic(Code.SCHEMA_VIOLATION, "m", source, severity=severity)
        for source, severity in diagnostics
    ]
    assert render_count(records) == line


def test_text_output_ends_with_the_count_line(project: Path, run_cli: Run) -> None:
    path = project / "schema/tools.yaml"
    text = path.read_text()
    # One row only: the table may hold several (README: a maintainer's addition keeps the tests
    # green), and the count line of one error is what this checks.
    path.write_text(text.replace("hookCapable: false", "hookCapable: off", 1))
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == "toolgen: 1 error in schema/tools.yaml"
    path.write_text(text.replace("hookCapable: true", "hookCapable: yes"))
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    count = err.count("YAML_UNSUPPORTED_VALUE")
    assert count > 1 and err.splitlines()[-1] == f"toolgen: {count} errors in schema/tools.yaml"


def test_several_files_are_counted(project: Path, run_cli: Run) -> None:
    for name in ("index.ts", "tools.ts"):
        (project / "generated/typescript" / name).write_text("// edited\n")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert err.splitlines()[-1] == "toolgen: 2 errors in 2 files"
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0 and re.fullmatch(r"toolgen: \d+ files, 2 changed", err.splitlines()[-1])


def test_json_carries_a_summary_and_github_nothing_extra(project: Path, run_cli: Run) -> None:
    path = project / "schema/tools.yaml"
    path.write_text(path.read_text().replace("hookCapable: false", "hookCapable: off", 1))
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    assert json.loads(out)["summary"] == {
        "errors": 1,
        "warnings": 0,
        "notes": 0,
        "files": ["schema/tools.yaml"],
    }
    code, out, err = run_cli("check", "--project", str(project), "--format", "github")
    assert code == 1 and err == ""
    assert [line.split(" ", 1)[0] for line in out.splitlines()] == ["::error"]

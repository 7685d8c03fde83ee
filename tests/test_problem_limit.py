"""A source file reports at most ``MAX_DIAGNOSTICS_PER_FILE`` problems, and checking it stops at
the next one while the file is read: a hostile table of a million aliases or bad rows (the
generator reads inputs up to 64 MiB) costs a thousand records, not a million (it took 150 MB and
200,003 lines of output for 1.4 MB of aliases). Each reader is checked: libyaml's events,
PyYAML's composer (a tab sends a file there), the builder's refusals, the table's validation and
a JSON schema file's repeated keys, numbers and lone surrogates."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.diagnostics import MAX_DIAGNOSTICS_PER_FILE, Code, Diagnostic
from generator.load import parse_json, parse_yaml

from .conftest import REPO
from .test_validation import diagnose, row, table

LIMIT = MAX_DIAGNOSTICS_PER_FILE


def _aliases(count: int, *, tab: bool = False, tail: str = "") -> str:
    # A tab inside a quoted scalar is allowed YAML, but sends the file to PyYAML's composer.
    first = '  - "a\tb"\n' if tab else ""
    return "extra:\n" + first + "".join("  - *x\n" for _ in range(count)) + tail


def _check_limited(found: tuple[Diagnostic, ...] | list[Diagnostic], code: Code) -> Diagnostic:
    """The records are the limit's worth of ``code``, then the one saying checking stopped."""
    assert len(found) == LIMIT + 1
    assert {d.code for d in found[:-1]} == {code}
    last = found[-1]
    assert last.code is Code.TOO_MANY_DIAGNOSTICS
    assert f"more than {LIMIT} problems" in last.message
    return last


def test_aliases_past_the_limit_stop_the_event_reader_where_the_next_one_is() -> None:
    # The syntax error at the end is never reached: reading stopped, it did not read on.
    loaded = parse_yaml(_aliases(3 * LIMIT, tail="broken: [\n"), "t.yaml")
    assert loaded.value is None
    last = _check_limited(loaded.diagnostics, Code.YAML_ALIAS)
    # Line 1 is "extra:", aliases start on line 2: the first one past the limit stands there.
    assert (last.source, last.line, last.column) == ("t.yaml", LIMIT + 2, 5)
    assert not any(d.code is Code.YAML_SYNTAX for d in loaded.diagnostics)


def test_aliases_past_the_limit_stop_the_composer_too() -> None:
    loaded = parse_yaml(_aliases(3 * LIMIT, tab=True, tail="broken: [\n"), "t.yaml")
    last = _check_limited(loaded.diagnostics, Code.YAML_ALIAS)
    assert (last.line, last.column) == (LIMIT + 3, 5)  # after the tabbed line


def test_up_to_the_limit_every_problem_is_reported_and_no_stop_record() -> None:
    for tab in (False, True):
        loaded = parse_yaml(_aliases(LIMIT, tab=tab), "t.yaml")
        assert [d.code for d in loaded.diagnostics] == [Code.YAML_ALIAS] * LIMIT
        assert loaded.value is not None


def test_refused_scalars_count_toward_the_same_limit_as_aliases() -> None:
    # The builder's refusals (YAML 1.1/1.2 ambiguities) and the loader's aliases share one list.
    half = LIMIT // 2 + 1
    text = "a:\n" + "".join("  - *x\n" for _ in range(half))
    text += "b:\n" + "".join("  - yes\n" for _ in range(half))
    found = parse_yaml(text, "t.yaml").diagnostics
    assert len(found) == LIMIT + 1
    assert found[-1].code is Code.TOO_MANY_DIAGNOSTICS
    assert {d.code for d in found[:-1]} == {Code.YAML_ALIAS, Code.YAML_UNSUPPORTED_VALUE}


def test_a_table_of_bad_rows_stops_validating_at_the_limit() -> None:
    rows = [row(f"bad id {n}", f"Bad {n}") for n in range(LIMIT + 200)]
    found = diagnose(table(*rows))
    last = _check_limited(found, Code.SCHEMA_VIOLATION)
    assert last.source == "tools.yaml"
    assert last.line is not None  # located at the row it stopped at


def test_a_json_schema_file_reports_at_most_the_limit_of_each_kind() -> None:
    repeated = "{" + ", ".join(f'"k{n}": {{"a": 1, "a": 2}}' for n in range(2 * LIMIT)) + "}"
    last = _check_limited(parse_json(repeated, "s.json").diagnostics, Code.DUPLICATE_KEY)
    assert last.line == 1  # every object is on the one line

    numbers = json.dumps({f"k{n}": 0 for n in range(2 * LIMIT)}).replace("0", "1e400")
    _check_limited(parse_json(numbers, "s.json").diagnostics, Code.NUMBER_OUT_OF_RANGE)

    lone = json.dumps({f"k{n}": "\ud800" for n in range(2 * LIMIT)})
    _check_limited(parse_json(lone, "s.json").diagnostics, Code.LONE_SURROGATE)


def test_check_prints_the_limit_and_the_stop_record_for_an_alias_flood(tmp_path: Path) -> None:
    # Through the command line, as a maintainer (or CI) meets it: exit 1, bounded output.
    project = tmp_path
    for name in ("schema/tool-manifest.schema.json", "schema/tools-table.schema.json"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes((REPO / name).read_bytes())
    text = (REPO / "schema/tools.yaml").read_text(encoding="utf-8")
    (project / "schema/tools.yaml").write_text(text + _aliases(20 * LIMIT), encoding="utf-8")
    (project / "pyproject.toml").write_bytes((REPO / "pyproject.toml").read_bytes())
    result = subprocess.run(
        [sys.executable, "-m", "generator", "check", "--project", str(project)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines() + result.stderr.splitlines()
    assert sum("YAML_ALIAS" in line for line in lines) == LIMIT
    assert sum("TOO_MANY_DIAGNOSTICS" in line for line in lines) == 1
    assert len(lines) < LIMIT + 10


def test_yaml_1_1_line_breaks_are_located_once_each_up_to_the_limit() -> None:
    # Located by one scan (a count from the text's start per character was quadratic: a line
    # of a million U+2028 took hours), and no more than the limit.
    text = "a: 1\nb: x\u2028y\u2029\n  c\x85" + "\u2028" * (5 * LIMIT) + "\n"
    found = parse_yaml(text, "t.yaml").diagnostics
    assert [(d.line, d.column) for d in found[:3]] == [(2, 5), (2, 7), (3, 4)]
    last = _check_limited(found, Code.YAML_UNSUPPORTED_VALUE)
    assert (last.line, last.column) == (3, LIMIT + 2)  # the run starts at column 5
    long_line = "x: " + "\u2028" * 200_000
    assert len(parse_yaml(long_line, "t.yaml").diagnostics) == LIMIT + 1


def _schema_with_bad_patterns(count: int) -> str:
    schema = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
    schema["$defs"].update(
        {f"Bad{n}": {"type": "string", "pattern": "(?<=x"} for n in range(count)}
    )
    return json.dumps(schema, indent=1)


def test_a_schema_file_of_bad_patterns_reports_the_limit_and_the_stop_record() -> None:
    from generator.validate import check_manifest_schema

    loaded = parse_json(_schema_with_bad_patterns(LIMIT + 500), "s.json")
    found = check_manifest_schema(loaded)
    last = _check_limited(found, Code.SCHEMA_INVALID)
    assert last.source == "s.json"
    assert last.line is not None


def test_a_schema_file_of_metaschema_errors_stops_at_the_limit() -> None:
    from generator.validate import check_schema_document

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "x",
        "$defs": {f"D{n}": {"type": 5} for n in range(LIMIT + 500)},
    }
    found = check_schema_document(parse_json(json.dumps(schema, indent=1), "s.json"))
    _check_limited(found, Code.SCHEMA_INVALID)


def test_a_json_file_is_still_located_past_a_thousand_yaml_only_problems() -> None:
    # JSON is located through a YAML reading of it, which refuses numbers like 1e3 (YAML 1.1
    # reads a string): that reading must not stop at the limit, or nothing after it is located.
    from generator.validate import check_schema_document

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "x",
        "examples": [1000] * (2 * LIMIT),
        "properties": {"late": {"type": 5}},
    }
    text = json.dumps(schema, indent=1).replace("1000", "1e3")
    found = check_schema_document(parse_json(text, "s.json"))
    assert [(d.code, d.pointer) for d in found] == [(Code.SCHEMA_INVALID, "/properties/late/type")]
    assert found[0].line == text.splitlines().index('   "type": 5') + 1


def test_cross_row_rules_stop_at_the_limit_without_running_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every row repeats one id: the duplicate-id rule alone passes the limit, so the rules after
    # it are never asked (a list of every rule's findings was built before: not bounded).
    from generator import validate

    def never_asked(table: object) -> Iterator[Diagnostic]:
        raise AssertionError("a rule past the limit ran")
        yield  # pragma: no cover - a generator, as the real rule is

    monkeypatch.setattr(validate, "_builtin_flags", never_asked)
    found = diagnose(table(*[row("alpha") for _ in range(LIMIT + 300)]))
    last = _check_limited(found, Code.DUPLICATE_ID)
    assert last.line is not None

"""Hostile schema shapes end in located diagnostics, never ``internal error: RecursionError``:
nesting beyond ``load.MAX_NESTING`` is refused where it starts, and a ``$ref`` cycle that never
descends into the value (which every validator would follow forever) is refused at its ``$ref``.
Deep schemas within the limit and recursive schemas that descend still generate."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, str, str]]


def _nested(levels: int, keyword: str = "allOf") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": ["cli-agent", "desktop-app"]}
    for _ in range(levels):
        schema = {keyword: [schema]}
    return schema


def _with(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    change(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n")


def _check(run_cli: Run, project: Path) -> tuple[int, str]:
    code, _, err = run_cli("check", "--project", str(project), "--full")
    assert "internal error" not in err and "Traceback" not in err
    return code, err


@pytest.mark.parametrize("keyword", ["allOf", "anyOf", "oneOf"])
def test_a_deeply_nested_schema_is_a_located_error(
    project: Path, run_cli: Run, keyword: str
) -> None:
    _with(project, lambda s: s["properties"].__setitem__("category", _nested(81, keyword)))
    code, err = _check(run_cli, project)
    assert code == 1
    assert "schema/tool-manifest.schema.json:" in err and "JSON_SYNTAX" in err
    assert "nesting is too deep (more than 64 levels)" in err
    line = err.splitlines()[0]
    assert line.split(":")[1].isdigit() and line.split(":")[2].isdigit(), line


def test_a_deep_schema_within_the_limit_generates(project: Path, run_cli: Run) -> None:
    _with(project, lambda s: s["properties"].__setitem__("category", _nested(28)))
    assert run_cli("generate", "--project", str(project))[0] == 0
    assert _check(run_cli, project)[0] == 0


def _cycle(schema: dict[str, Any]) -> None:
    schema["$defs"]["A"] = {"allOf": [{"$ref": "#/$defs/B"}]}
    schema["$defs"]["B"] = {"anyOf": [{"not": {"$ref": "#/$defs/A"}}]}
    schema["properties"]["category"] = {"$ref": "#/$defs/A"}


def _self(schema: dict[str, Any]) -> None:
    schema["$defs"]["Loop"] = {"$ref": "#/$defs/Loop"}


@pytest.mark.parametrize(
    ("change", "pointer"), [(_cycle, "/$defs/A/allOf/0/$ref"), (_self, "/$defs/Loop/$ref")]
)
def test_an_in_place_ref_cycle_is_refused_at_its_ref(
    project: Path, run_cli: Run, change: Callable[[dict[str, Any]], None], pointer: str
) -> None:
    _with(project, change)
    code, err = _check(run_cli, project)
    assert code == 1
    [diagnostic] = [line for line in err.splitlines() if "SCHEMA_INVALID" in line]
    assert diagnostic.startswith("schema/tool-manifest.schema.json:")
    assert f"(at {pointer})" in diagnostic and "$ref cycle" in diagnostic


def test_a_recursive_schema_that_descends_still_generates(project: Path, run_cli: Run) -> None:
    def tree(schema: dict[str, Any]) -> None:
        schema["$defs"]["Tree"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "child": {"$ref": "#/$defs/Tree"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
            },
        }
        schema["properties"]["extra"] = {"$ref": "#/$defs/Tree"}

    _with(project, tree)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err


# The token pattern the schema's nesting scan used before: every quote of an unterminated string
# was a new try, each reading to the end of the text (quadratic in a file of ``\"``).
_RETRIED_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]|\n')


def _too_deep_retrying_each_quote(text: str) -> tuple[int, int] | None:
    from generator.load import MAX_NESTING

    depth, line, line_start = 0, 1, 0
    for token in _RETRIED_TOKENS.finditer(text):
        kind = token.group()[0]
        if kind == "\n":
            line, line_start = line + 1, token.end()
        elif kind in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return (line, token.start() - line_start + 1)
        elif kind in "]}":
            depth -= 1
    return None


def test_an_unterminated_string_is_scanned_once_not_once_per_quote() -> None:
    """The nesting scan of a JSON schema file skips strings. An unterminated one whose quotes
    are all escaped (``"\\"\\"…``, the 65 brackets after it) was tried again from each of its
    quotes, every try reading to the end: 64 KiB took about 14 seconds, a file at the 64 MiB
    read limit days. Every quote in such a run fails where the first did, so the run is read
    once now (its brackets and line breaks still counted), with the same verdict and place."""
    from generator.load import _JSON_TOKENS, MAX_NESTING, _json_too_deep

    run = '"' + '\\"' * 1000
    assert [match.span() for match in _JSON_TOKENS.finditer(run)] == [(0, len(run))]
    pieces = ["[", "{", "]", "}", '"', "\\", "\n", "a", '"["', '\\"', "\\\n"]
    generator = random.Random(5)
    for _ in range(3000):
        text = "".join(generator.choices(pieces, k=generator.randint(0, 200)))
        if generator.random() < 0.5:
            text = "[" * (MAX_NESTING - 3) + text
        assert _json_too_deep(text) == _too_deep_retrying_each_quote(text), text
    hostile = '"' + '\\"' * 40_000 + "\n" + "[" * (MAX_NESTING + 1)
    assert _json_too_deep(hostile) == (2, MAX_NESTING + 1)

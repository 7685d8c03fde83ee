"""Hostile review, generator side: schemas whose patterns, limits, ``$ref``s and text push the
generator's bounds, each refused with a located diagnostic (never a traceback or a hang) or
located correctly."""

from __future__ import annotations

import json

import pytest

from generator.load import parse_json, parse_yaml
from generator.pipeline import validate_sources

from .conftest import REPO
from .test_validation import TABLE_SCHEMA_TEXT, TABLE_TEXT

# Characters a JSON string may hold as they are but YAML (which locates JSON's nodes) reads as
# a line break or refuses.
YAML_UNSAFE_IN_JSON = ["\x7f", "\x80", "\x85", "\x9f", "\u2028", "\u2029", "\ufffe", "\uffff"]


@pytest.mark.parametrize("char", YAML_UNSAFE_IN_JSON)
def test_json_positions_survive_characters_yaml_reads_otherwise(char: str) -> None:
    text = (
        "{\n"
        f'  "a": "x{char}y",\r\n'
        f'  "k{char}": {{"c": "q{char}{char}", "d": [1, 2]}},\n'
        f'  "b": {{"e": 1, "e": 2}}\n'
        "}"
    )
    loaded = parse_json(text.replace('"e": 1, ', ""), "x.json")
    assert loaded.position_of(f"/k{char}") == (3, 9)
    assert loaded.position_of(f"/k{char}/d/1") == (3, 31)
    assert loaded.key_position_of(f"/k{char}/d") == (3, 22)
    assert loaded.position_of("/b/e") == (4, 14)
    # A repeated key is located through the same reading.
    [repeated] = parse_json(text, "x.json").diagnostics
    assert (repeated.line, repeated.column) == (4, 17)
    assert json.loads(text.replace('"e": 1, ', ""))[f"k{char}"]["d"] == [1, 2]


def test_a_schema_error_after_a_line_separator_is_reported_on_its_own_line() -> None:
    text = (REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8")
    text = text.replace('"Stable ASCII', '"Stable\u2028\u0085ASCII\u007f', 1)
    broken = text.replace('"type": "boolean"', '"type": "bool"', 1)
    found = validate_sources(
        parse_json(broken, "schema.json"),
        parse_json(TABLE_SCHEMA_TEXT, "t.json"),
        parse_yaml(TABLE_TEXT, "tools.yaml"),
    )
    [first] = [d for d in found if d.pointer == "/properties/launchable/type"]
    line = broken.split("\n").index('      "type": "bool"') + 1
    assert (first.line, first.column) == (line, 15)

"""The TypeScript type emitter: operator precedence and member names (pure, no tsc needed)."""

from __future__ import annotations

import pytest

from generator.ts_types import TsTypeError, type_expression

ROOT = {"title": "Root", "$defs": {"A": {"type": "string"}, "B": {"type": "integer"}}}


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "array", "items": {"type": "string"}}, "readonly string[]"),
        ({"type": "array", "items": {"enum": ["a", "b"]}}, 'readonly ("a" | "b")[]'),
        (
            {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "readonly (readonly string[])[]",
        ),
        (
            {
                "type": "array",
                "items": {
                    "oneOf": [
                        {"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
                        {"$ref": "#"},
                    ]
                },
            },
            "readonly ((A & B) | Root)[]",
        ),
        ({"enum": ["a|b", 'c"&"d\\\\']}, '"a|b" | "c\\"&\\"d\\\\\\\\"'),
        ({"type": "array", "items": {"enum": ['x\\\\"|']}}, 'readonly "x\\\\\\\\\\"|"[]'),
        (
            {
                "type": "object",
                "properties": {"odd-key": {"type": "boolean"}},
                "required": ["odd-key"],
            },
            '{\n  readonly "odd-key": boolean;\n}',
        ),
    ],
)
def test_type_expressions(schema: dict[str, object], expected: str) -> None:
    assert type_expression(schema, ROOT) == expected


def test_loose_schemas_are_refused() -> None:
    with pytest.raises(TsTypeError):
        type_expression({"description": "anything"}, ROOT)
    with pytest.raises(TsTypeError):
        type_expression({"$ref": "other.json#/x"}, ROOT)

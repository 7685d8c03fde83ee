"""TypeScript declarations for the manifest schema (pure).

Each ``$defs`` entry becomes an exported type and the root becomes ``interface <title>``. Objects
are interfaces with ``readonly`` members (optional ones marked ``?``), arrays ``readonly T[]``,
``enum``/``const`` literal unions, ``oneOf``/``anyOf`` unions and ``allOf`` intersections. A shape
outside that list raises ``TsTypeError`` rather than degrading to ``unknown``.

A ``description`` becomes the JSDoc of its type or member (a member without one takes the
description of the type it refers to), always through ``literals.ts_doc_comment``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.literals import identifier, ts_doc_comment, ts_property_name, ts_scalar
from generator.schemas import description

_PRIMITIVES = {
    "string": "string",
    "boolean": "boolean",
    "integer": "number",
    "number": "number",
    "null": "null",
}


class TsTypeError(Exception):
    """The schema has a shape this emitter does not translate."""


def _ref_name(root: Mapping[str, Any], ref: str) -> str:
    if ref == "#":
        return identifier(str(root["title"]))
    if ref.startswith("#/$defs/") and ref.count("/") == 2:
        return identifier(ref.rsplit("/", 1)[-1])
    raise TsTypeError(f"unsupported $ref {ref!r}")


def type_expression(schema: Mapping[str, Any], root: Mapping[str, Any], indent: int = 0) -> str:
    """The TypeScript type of values valid under ``schema``."""
    parts: list[str] = []
    if "$ref" in schema:
        parts.append(_ref_name(root, schema["$ref"]))
    if "allOf" in schema:
        parts.extend(type_expression(sub, root, indent) for sub in schema["allOf"])
    for union in ("oneOf", "anyOf"):
        if union in schema:
            members = (_wrapped(type_expression(s, root, indent)) for s in schema[union])
            parts.append(" | ".join(members))
    if "const" in schema:
        parts.append(_literal_type(schema["const"], "const"))
    elif "enum" in schema:
        parts.append(" | ".join(_literal_type(v, "enum") for v in schema["enum"]))
    elif "properties" in schema or schema.get("type") == "object":
        parts.append(_object_type(schema, root, indent))
    elif schema.get("type") == "array":
        parts.append(
            f"readonly {_wrapped(type_expression(schema.get('items', {}), root, indent))}[]"
        )
    elif isinstance(schema.get("type"), str):
        if schema["type"] not in _PRIMITIVES:
            raise TsTypeError(f"unsupported type {schema['type']!r}")
        parts.append(_PRIMITIVES[schema["type"]])
    if not parts:
        raise TsTypeError("schema too loose to type (no type, $ref, const, enum or combinator)")
    return " & ".join(_wrapped(p) for p in parts) if len(parts) > 1 else parts[0]


def _literal_type(value: Any, keyword: str) -> str:
    """The literal type of a ``const`` or ``enum`` value: a JSON scalar only (an object or
    array has no literal type; it is refused rather than typed ``unknown``)."""
    if isinstance(value, Mapping | list):
        kind = "an object" if isinstance(value, Mapping) else "an array"
        raise TsTypeError(f"{keyword} holds {kind}, which has no TypeScript literal type")
    return ts_scalar(value)


def _wrapped(expression: str) -> str:
    """``expression`` in parentheses unless it is already one operand (so ``T[]`` and ``A & B``
    bind as meant)."""
    return expression if _is_operand(expression) else f"({expression})"


def _is_operand(expression: str) -> bool:
    # An operand has no `|`, `&` or leading `readonly` outside brackets and string literals.
    if expression.startswith("readonly "):
        return False
    depth = 0
    in_string = escaped = False
    for char in expression:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        elif char in "|&" and depth == 0:
            return False
    return True


def _object_type(schema: Mapping[str, Any], root: Mapping[str, Any], indent: int) -> str:
    required = set(schema.get("required", []))
    pad = "  " * (indent + 1)
    members = [
        _documented(sub, root, len(pad))
        + f"{pad}readonly {ts_property_name(name)}{'' if name in required else '?'}: "
        f"{type_expression(sub, root, indent + 1)};"
        for name, sub in schema.get("properties", {}).items()
    ]
    if not members:
        return "{}"
    return "{\n" + "\n".join(members) + "\n" + "  " * indent + "}"


def _documented(schema: Any, root: Mapping[str, Any], indent: int) -> str:
    """The JSDoc block for ``schema``'s description, or nothing."""
    text = description(schema, root)
    return ts_doc_comment(text, indent) if text else ""


def declarations(root: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(name, declaration)`` pairs: the root interface first, then ``$defs`` in schema order,
    each preceded by its JSDoc when its schema has a description."""
    title = identifier(str(root["title"]))
    body = {k: v for k, v in root.items() if k not in ("$defs", "$schema", "$id", "title")}
    doc = _documented(root, root, 0)
    result = [(title, f"{doc}export interface {title} {_object_type(body, root, 0)}")]
    for name, sub in root.get("$defs", {}).items():
        identifier(name)
        expression = type_expression(sub, root, 0)
        doc = _documented(sub, root, 0) if isinstance(sub, Mapping) and "$ref" not in sub else ""
        if expression.startswith("{"):
            result.append((name, f"{doc}export interface {name} {expression}"))
        else:
            result.append((name, f"{doc}export type {name} = {expression};"))
    return result

"""TypeScript declarations for the manifest schema, emitted from its resolved ``shapes`` (pure).

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

from generator.literals import identifier, ts_doc_comment, ts_property_name, ts_scalar, ts_str
from generator.shapes import Shape, Shapes, resolve_subschema

_PRIMITIVES = {
    "string": "string",
    "boolean": "boolean",
    "integer": "number",
    "number": "number",
    "null": "null",
}


class TsTypeError(Exception):
    """The schema has a shape this emitter does not translate; ``pointer`` locates it in the
    schema when known."""

    def __init__(self, message: str, pointer: str | None = None) -> None:
        super().__init__(message)
        self.pointer = pointer


def _ref_name(shape: Shape) -> str:
    if shape.ref_name is None:
        raise TsTypeError(f"unsupported $ref {shape.ref!r}", shape.pointer)
    return identifier(shape.ref_name)


def type_expression(schema: Mapping[str, Any], root: Mapping[str, Any], indent: int = 0) -> str:
    """The TypeScript type of values valid under ``schema`` (a subschema of ``root``)."""
    return shape_type(resolve_subschema(schema, root), indent)


def shape_type(shape: Shape, indent: int = 0) -> str:
    """The TypeScript type of values of ``shape``."""
    parts: list[str] = []
    if shape.ref is not None:
        parts.append(_ref_name(shape))
    parts.extend(shape_type(part, indent) for part in shape.all_of)
    for union in (shape.one_of, shape.any_of):
        if union is not None:
            parts.append(" | ".join(_wrapped(shape_type(member, indent)) for member in union))
    if shape.literals is not None:
        keyword = shape.literals.keyword
        parts.append(
            " | ".join(_literal_type(v, keyword, shape.pointer) for v in shape.literals.values)
        )
    elif shape.is_object:
        parts.append(_object_type(shape, indent))
    elif shape.items is not None:
        parts.append(f"readonly {_wrapped(shape_type(shape.items, indent))}[]")
    elif shape.primitive is not None:
        if shape.primitive not in _PRIMITIVES:
            raise TsTypeError(f"unsupported type {shape.primitive!r}", shape.pointer)
        parts.append(_PRIMITIVES[shape.primitive])
    if not parts:
        raise TsTypeError(
            "schema too loose to type (no type, $ref, const, enum or combinator)", shape.pointer
        )
    return " & ".join(_wrapped(p) for p in parts) if len(parts) > 1 else parts[0]


def _literal_type(value: Any, keyword: str, pointer: str | None) -> str:
    """The literal type of a ``const`` or ``enum`` value: a JSON scalar only (an object or
    array has no literal type; it is refused rather than typed ``unknown``)."""
    if isinstance(value, Mapping | list):
        kind = "an object" if isinstance(value, Mapping) else "an array"
        raise TsTypeError(f"{keyword} holds {kind}, which has no TypeScript literal type", pointer)
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


# Members every JavaScript object inherits (the ``__x__`` ones cannot be schema properties: they
# are no Python field names). An object without an optional property of such a name still has
# the inherited member, so the member's type must admit it: ``toString?: string`` would not hold
# for a parsed document, and an object literal leaving it out would not compile (TS2322).
OBJECT_PROTOTYPE_MEMBERS = frozenset(
    {
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
    }
)


def _member_type(shape: Shape, key: str, indent: int) -> str:
    expression = shape_type(shape, indent)
    if key in OBJECT_PROTOTYPE_MEMBERS:
        # Read from the value Object: a $defs entry named Object is a type, not a value.
        return f"{_wrapped(expression)} | (typeof Object.prototype)[{ts_str(key)}]"
    return expression


def _object_type(shape: Shape, indent: int) -> str:
    pad = "  " * (indent + 1)
    members = [
        _documented(prop.shape, len(pad))
        + f"{pad}readonly {ts_property_name(prop.key)}"
        + (
            f": {shape_type(prop.shape, indent + 1)};"
            if prop.key in shape.required
            else f"?: {_member_type(prop.shape, prop.key, indent + 1)};"
        )
        for prop in shape.properties
    ]
    if not members:
        return "{}"
    return "{\n" + "\n".join(members) + "\n" + "  " * indent + "}"


def _documented(shape: Shape, indent: int) -> str:
    """The JSDoc block for ``shape``'s description, or nothing."""
    return ts_doc_comment(shape.description, indent) if shape.description else ""


def declarations(shapes: Shapes) -> list[tuple[str, str]]:
    """``(name, declaration)`` pairs: the root interface first, then ``$defs`` in schema order,
    each preceded by its JSDoc when its schema has a description."""
    title = identifier(shapes.title)
    doc = _documented(shapes.root, 0)
    result = [(title, f"{doc}export interface {title} {_object_type(shapes.root, 0)}")]
    for name, shape in shapes.definitions.items():
        identifier(name)
        expression = shape_type(shape, 0)
        doc = _documented(shape, 0) if shape.ref is None else ""
        if expression.startswith("{"):
            result.append((name, f"{doc}export interface {name} {expression}"))
        else:
            result.append((name, f"{doc}export type {name} = {expression};"))
    return result

"""The JSON Schema subset the validator backends compile, and the reads of a schema they share.

One place answers what a schema may hold and how a pointer, a ``$ref`` or a numeric limit is read:
``plan.build_plan`` (which every language's emitter consumes) and the compilers' entry points
read the schema through these, so a refusal (``CompileError``: message, schema pointer, keyword)
is the same whichever backend meets it first.

Contract:
- ``check_keywords`` raises for the first keyword outside ``SUPPORTED_KEYWORDS``/``ANNOTATIONS``
  (parents before children) and for an applicator that does not hold schemas.
- Pointers are JSON pointers as the compilers write them (``escape_token``), never URI fragments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.schemas import (
    SUBSCHEMA_KEYWORDS,
    SUBSCHEMA_LIST_KEYWORDS,
    SUBSCHEMA_MAP_KEYWORDS,
    iter_subschemas,
    local_ref_target,
    unescape_token,
)

SUPPORTED_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "$ref",
        "$defs",
    }
)


ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "$comment",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)


ROOT_ONLY = frozenset({"$schema", "$id"})


DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


JSON_TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


# The largest integer an IEEE double (a TypeScript number) holds exactly.
MAX_SAFE_INTEGER = 2**53 - 1

# The keyword a lone-surrogate violation carries (the runtime's ``SURROGATE_KEYWORD``).
SURROGATE_KEYWORD = "i-json"


class CompileError(Exception):
    """A schema the compiler refuses; ``pointer`` locates it in the schema document."""

    def __init__(self, message: str, pointer: str, keyword: str | None = None) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.keyword = keyword


def escape_token(key: str) -> str:
    """``key`` as one JSON-pointer token (``~`` and ``/`` escaped)."""
    return key.replace("~", "~0").replace("/", "~1")


def resolve_ref(schema: Mapping[str, Any], ref: str, at: str) -> tuple[str, Any]:
    """The pointer and subschema a same-document ``$ref`` names."""
    found = local_ref_target(schema, ref)
    if found is None:
        raise CompileError(
            f"$ref {ref!r} names no subschema of this document (other documents and anchors"
            " are not supported)",
            at,
            "$ref",
        )
    if not isinstance(found[1], Mapping | bool):
        raise CompileError(f"$ref {ref!r} does not name a schema", at, "$ref")
    return found


def _is_schema(value: Any) -> bool:
    return isinstance(value, Mapping | bool)


def _check_shape(schema: Mapping[str, Any], pointer: str) -> None:
    """Applicator keywords hold what the compiler will walk: schemas, non-empty lists of them,
    or objects of them (the walk in ``schemas.iter_subschemas`` skips anything else)."""
    for keyword in SUBSCHEMA_KEYWORDS:
        if keyword in schema and not _is_schema(schema[keyword]):
            raise CompileError(f"{keyword} must be a schema", f"{pointer}/{keyword}", keyword)
    for keyword in SUBSCHEMA_LIST_KEYWORDS:
        subs = schema.get(keyword, [True])
        if not isinstance(subs, list) or not subs or not all(map(_is_schema, subs)):
            raise CompileError(
                f"{keyword} must be a non-empty array of schemas", f"{pointer}/{keyword}", keyword
            )
    for keyword in SUBSCHEMA_MAP_KEYWORDS:
        subs = schema.get(keyword, {})
        if not isinstance(subs, Mapping) or not all(map(_is_schema, subs.values())):
            raise CompileError(
                f"{keyword} must be an object of schemas", f"{pointer}/{keyword}", keyword
            )


def schema_limit(schema: Mapping[str, Any], at: str, keyword: str) -> int:
    """The non-negative integer a length or count keyword holds (``2.0`` counts as ``2``)."""
    limit = schema[keyword]
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise CompileError(f"{keyword} must be a non-negative integer", f"{at}/{keyword}")
    if limit > MAX_SAFE_INTEGER:
        # TypeScript's numbers hold no larger integer exactly, and the model generator refuses
        # one beyond 64 bits; no string or array comes near it.
        raise CompileError(
            f"{keyword} is larger than {MAX_SAFE_INTEGER} (2**53 - 1), the largest integer"
            " TypeScript holds exactly",
            f"{at}/{keyword}",
            keyword,
        )
    return limit


def schema_number(schema: Mapping[str, Any], at: str, keyword: str) -> int | float:
    """The number a ``minimum``/``maximum`` keyword holds."""
    limit = schema[keyword]
    if not isinstance(limit, int | float) or isinstance(limit, bool):
        raise CompileError(f"{keyword} must be a number", f"{at}/{keyword}", keyword)
    if isinstance(limit, float) and limit.is_integer() and abs(limit) <= MAX_SAFE_INTEGER:
        return int(limit)  # JSON Schema's 1.0 is the integer 1 (reported as `1`)
    return limit


def check_keywords(schema: Any) -> None:
    """Raise ``CompileError`` for the first keyword outside the supported subset (parents
    before children, so an unsupported applicator is named before anything under it)."""
    if isinstance(schema, bool):
        return
    if not isinstance(schema, Mapping):
        raise CompileError("a schema must be an object or a boolean", "")
    if schema.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
        raise CompileError("only draft 2020-12 schemas are compiled", "/$schema", "$schema")
    for pointer, subschema in iter_subschemas(schema):
        for keyword in subschema:
            allowed = keyword in SUPPORTED_KEYWORDS or keyword in ANNOTATIONS
            if not allowed and not (pointer == "" and keyword in ROOT_ONLY):
                raise CompileError(
                    f"keyword {keyword!r} is not supported by the validator compiler",
                    f"{pointer}/{escape_token(keyword)}",
                    keyword,
                )
        _check_shape(subschema, pointer)


def subschema_at(schema: Mapping[str, Any], pointer: str) -> Any:
    """The subschema at ``pointer``, a JSON pointer as the compiler writes them (tokens escaped
    by ``escape_token``; not a URI fragment: no percent-decoding, so a property named ``a%41`` is
    found as itself)."""
    node: Any = schema
    for part in pointer.split("/")[1:] if pointer else ():
        token = unescape_token(part)
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise CompileError(f"{pointer!r} names no subschema of this document", pointer)
    if not _is_schema(node):
        raise CompileError(f"{pointer!r} does not name a schema", pointer)
    return node

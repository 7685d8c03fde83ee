"""The draft-07 schema editors use to complete and check ``tools.yaml`` (pure).

YAML language servers validate draft-07, not 2020-12, so the table schema and the manifest schema
it references are bundled into one draft-07 document: ``$defs`` become ``definitions``, references
are rewritten, and a ``$ref`` with sibling keywords is wrapped in ``allOf`` (draft-07 ignores
siblings of ``$ref``). A 2020-12 keyword with no draft-07 spelling raises ``EditorSchemaError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.diagnostics import pointer_of

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_NO_DRAFT_07_EQUIVALENT = frozenset(
    {
        "prefixItems",
        "unevaluatedItems",
        "unevaluatedProperties",
        "dependentSchemas",
        "dependentRequired",
        "$dynamicRef",
        "$dynamicAnchor",
        "$anchor",
        "minContains",
        "maxContains",
    }
)
_DROPPED = frozenset({"$schema", "$id", "$comment", "deprecated", "$defs"})


class EditorSchemaError(Exception):
    """A keyword that draft-07 cannot express; ``pointer`` locates it in the manifest schema
    (``None``: in the table schema)."""

    def __init__(self, message: str, pointer: str | None = None) -> None:
        super().__init__(message)
        self.pointer = pointer


def _convert(node: Any, rewrite_ref: Any, pointer: str | None = None) -> Any:
    """``node`` in draft-07 terms; ``pointer`` is where it sits in the manifest schema."""

    def at(*tokens: str | int) -> str | None:
        return None if pointer is None else pointer + pointer_of(tokens)

    if isinstance(node, list):
        return [_convert(item, rewrite_ref, at(index)) for index, item in enumerate(node)]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _NO_DRAFT_07_EQUIVALENT:
            raise EditorSchemaError(f"{key} has no draft-07 equivalent", at(key))
        if key in _DROPPED:
            continue
        if key == "$ref":
            out[key] = rewrite_ref(value)
        elif key in ("properties", "patternProperties"):
            out[key] = {
                name: _convert(sub, rewrite_ref, at(key, name)) for name, sub in value.items()
            }
        elif key in ("enum", "const", "examples", "default", "required"):
            out[key] = value
        else:
            out[key] = _convert(value, rewrite_ref, at(key))
    if "$ref" in out and len(out) > 1:
        out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
    return out


def bundle_draft07(
    table_schema: Mapping[str, Any], manifest_schema: Mapping[str, Any]
) -> dict[str, Any]:
    """One self-contained draft-07 schema: the table's, with the manifest schema inlined."""
    manifest_title = str(manifest_schema["title"])
    manifest_id = manifest_schema.get("$id")

    def manifest_ref(ref: str) -> str:
        if ref == "#":
            return f"#/definitions/{manifest_title}"
        if ref.startswith("#/$defs/"):
            return "#/definitions/" + ref[len("#/$defs/") :]
        raise EditorSchemaError(f"unsupported $ref {ref!r} in the manifest schema")

    def table_ref(ref: str) -> str:
        if ref == manifest_id:
            return f"#/definitions/{manifest_title}"
        if ref.startswith("#/$defs/"):
            return "#/definitions/" + ref[len("#/$defs/") :]
        raise EditorSchemaError(f"unsupported $ref {ref!r} in the table schema")

    definitions: dict[str, Any] = {}
    for name, sub in table_schema.get("$defs", {}).items():
        definitions[name] = _convert(sub, table_ref)
    definitions[manifest_title] = _convert(manifest_schema, manifest_ref, "")
    for name, sub in manifest_schema.get("$defs", {}).items():
        at = f"/$defs{pointer_of((name,))}"
        if name in definitions:
            raise EditorSchemaError(f"definition {name!r} appears in both schemas", at)
        definitions[name] = _convert(sub, manifest_ref, at)
    bundled = {"$schema": DRAFT_07, **_convert(table_schema, table_ref)}
    bundled["definitions"] = definitions
    return bundled

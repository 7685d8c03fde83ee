"""The draft-07 schema editors use to complete and check ``tools.yaml`` (pure).

YAML language servers validate draft-07, not 2020-12, so the table schema and the manifest schema
it references are bundled into one draft-07 document: ``$defs`` become ``definitions``, references
are rewritten, and a ``$ref`` with sibling keywords is wrapped in ``allOf`` (draft-07 ignores
siblings of ``$ref``). A 2020-12 keyword with no draft-07 spelling raises ``EditorSchemaError``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

from generator.diagnostics import describe, pointer_of
from generator.schemas import local_ref_target, unescape_token

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
    """A keyword or ``$ref`` that draft-07 cannot express; ``pointer`` locates it in the manifest
    schema, or in the table schema when ``in_table`` (``None``: no node to name)."""

    def __init__(self, message: str, pointer: str | None = None, *, in_table: bool = False) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.in_table = in_table


# What a ``$ref`` names, as the bundle spells it: a draft-07 ``#/definitions/...`` pointer.
RefRewriter = Callable[[str, str], str]


def _convert(node: Any, rewrite_ref: RefRewriter, pointer: str, in_table: bool) -> Any:
    """``node`` in draft-07 terms; ``pointer`` is where it sits in its own schema (the table's
    when ``in_table``, else the manifest's)."""

    def at(*tokens: str | int) -> str:
        return pointer + pointer_of(tokens)

    if isinstance(node, list):
        return [_convert(item, rewrite_ref, at(index), in_table) for index, item in enumerate(node)]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _NO_DRAFT_07_EQUIVALENT:
            raise EditorSchemaError(f"{key} has no draft-07 equivalent", at(key), in_table=in_table)
        if key in _DROPPED:
            continue
        if key == "$ref":
            out[key] = rewrite_ref(value, at(key))
        elif key in ("properties", "patternProperties"):
            out[key] = {
                name: _convert(sub, rewrite_ref, at(key, name), in_table)
                for name, sub in value.items()
            }
        elif key in ("enum", "const", "examples", "default", "required"):
            out[key] = value
        else:
            out[key] = _convert(value, rewrite_ref, at(key), in_table)
    if "$ref" in out and len(out) > 1:
        out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
    return out


# Characters a URI fragment holds as they are (RFC 3986 ``pchar``, ``/`` and ``?``); every other
# one of a pointer token is percent-encoded in the bundle's ``$ref``s.
_FRAGMENT_SAFE = "!$&'()*+,;=:@/?-._~"


def _fragment(tokens: list[str]) -> str:
    """``#`` and the JSON pointer of ``tokens``, as a URI fragment."""
    return "#" + urllib.parse.quote(pointer_of(tokens), safe=_FRAGMENT_SAFE)


# Keywords whose value holds schemas by name or by index (the next pointer token is one), and
# those the bundle drops or copies as a plain value (a ``$ref`` into one names nothing there).
_NAMED_OR_LISTED = frozenset(
    {"properties", "patternProperties", "$defs", "allOf", "anyOf", "oneOf", "prefixItems"}
)
_NOT_KEPT = _DROPPED | {"$ref", "enum", "const", "examples", "default", "required"}


def _kept(tokens: list[str]) -> bool:
    """Whether the node these pointer tokens name in a schema (its root's ``$defs`` aside)
    stands in the bundle where its schema's conversion puts it: no keyword on the way is one
    the conversion drops (a nested ``$defs``) or copies as a value."""
    keyword = True
    if tokens[:1] == ["$defs"]:  # the root's own: its entries become definitions
        tokens, keyword = tokens[1:], False
    for token in tokens:
        if not keyword:  # a property name, a $defs name or an index
            keyword = True
            continue
        if token in _NOT_KEPT:
            return False
        keyword = token not in _NAMED_OR_LISTED
    return True


def _rewriter(
    root: Mapping[str, Any],
    root_name: str | None,
    in_table: bool,
    outside: Mapping[str, Callable[[str, str], str]],
) -> RefRewriter:
    """How one schema's ``$ref``s are spelled in the bundle: its ``$defs`` are ``definitions``,
    and its root is ``#/definitions/<root_name>`` (``None``: the bundle's own root). A ``$ref``
    naming another document by its ``$id`` goes to ``outside``'s rewriter for it."""

    def rewrite(ref: Any, at: str) -> str:
        def refuse(why: str) -> EditorSchemaError:
            return EditorSchemaError(
                f"$ref {describe(ref)} {why}, which the draft-07 editor schema cannot express",
                at,
                in_table=in_table,
            )

        if not isinstance(ref, str):
            raise refuse("is not a string")
        base, _, fragment = ref.partition("#")
        if base:
            other = outside.get(base)
            if other is None:
                raise refuse("names another document")
            return other("#" + fragment, at)
        found = local_ref_target(root, ref)
        if found is None:
            raise refuse("names nothing in its schema (or an anchor)")
        tokens = [unescape_token(token) for token in found[0].split("/")[1:]]
        if not _kept(tokens):
            raise refuse("names a node the bundle leaves out or copies as a value")
        if len(tokens) >= 2 and tokens[0] == "$defs":
            return _fragment(["definitions", *tokens[1:]])
        if root_name is not None:
            return _fragment(["definitions", root_name, *tokens])
        if tokens and tokens[0] == "definitions":
            raise refuse("names the table schema's own definitions, which the bundle replaces")
        return _fragment(tokens)

    return rewrite


def bundle_draft07(
    table_schema: Mapping[str, Any], manifest_schema: Mapping[str, Any]
) -> dict[str, Any]:
    """One self-contained draft-07 schema: the table's, with the manifest schema inlined."""
    manifest_title = str(manifest_schema["title"])
    manifest_id = manifest_schema.get("$id")
    manifest_ref = _rewriter(manifest_schema, manifest_title, False, {})
    outside = {manifest_id: manifest_ref} if isinstance(manifest_id, str) else {}
    table_ref = _rewriter(table_schema, None, True, outside)

    definitions: dict[str, Any] = {}
    for name, sub in table_schema.get("$defs", {}).items():
        definitions[name] = _convert(sub, table_ref, f"/$defs{pointer_of((name,))}", True)
    if manifest_title in definitions:
        raise EditorSchemaError(
            f"definition {describe(manifest_title)} (the manifest schema's title) appears in"
            " the table schema too",
            f"/$defs{pointer_of((manifest_title,))}",
            in_table=True,
        )
    definitions[manifest_title] = _convert(manifest_schema, manifest_ref, "", False)
    for name, sub in manifest_schema.get("$defs", {}).items():
        at = f"/$defs{pointer_of((name,))}"
        if name in definitions:
            raise EditorSchemaError(f"definition {name!r} appears in both schemas", at)
        definitions[name] = _convert(sub, manifest_ref, at, False)
    bundled = {"$schema": DRAFT_07, **_convert(table_schema, table_ref, "", True)}
    bundled["definitions"] = definitions
    return bundled

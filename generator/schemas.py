"""Pure helpers for reading JSON Schema documents: local ``$ref`` resolution and tree walks.

Only same-document references (``#`` and ``#/$defs/...``) are resolved here; the generator's own
schemas use nothing else, and ``validate`` refuses anything it cannot follow.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.diagnostics import pointer_of

Schema = Mapping[str, Any]
SUBSCHEMA_KEYWORDS = (
    "not",
    "if",
    "then",
    "else",
    "items",
    "contains",
    "additionalProperties",
)
SUBSCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA_MAP_KEYWORDS = (
    "properties",
    "$defs",
    "patternProperties",
    "dependentSchemas",
)


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def local_ref_target(root: Schema, ref: str) -> tuple[str, Any] | None:
    """For a same-document JSON-pointer ``$ref`` (``#`` or ``#/...``, percent-decoded as a URI
    fragment): its pointer and the node it names; ``None`` when it names nothing (or is not such
    a reference: another document, or an anchor)."""
    if not ref.startswith("#"):
        return None
    fragment = urllib.parse.unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return None
    node: Any = root
    for token in (unescape_token(t) for t in fragment.split("/")[1:]):
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return fragment, node


def resolve_local_ref(root: Schema, ref: str) -> Schema | None:
    """The subschema object a same-document ``$ref`` names, or ``None`` when it names nothing."""
    found = local_ref_target(root, ref)
    return found[1] if found is not None and isinstance(found[1], Mapping) else None


def iter_subschemas(schema: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str, Schema]]:
    """Every schema object in the document with its JSON pointer, parents before children."""
    if not isinstance(schema, Mapping):
        return
    yield pointer_of(path), schema
    for keyword in SUBSCHEMA_KEYWORDS:
        if keyword in schema:
            yield from iter_subschemas(schema[keyword], (*path, keyword))
    for keyword in SUBSCHEMA_LIST_KEYWORDS:
        if isinstance(schema.get(keyword), list):
            for index, sub in enumerate(schema[keyword]):
                yield from iter_subschemas(sub, (*path, keyword, index))
    for keyword in SUBSCHEMA_MAP_KEYWORDS:
        if isinstance(schema.get(keyword), Mapping):
            for name, sub in schema[keyword].items():
                yield from iter_subschemas(sub, (*path, keyword, name))


def branches(schema: Schema, root: Schema) -> Iterator[Schema]:
    """The schema itself plus everything it pulls in through ``$ref`` and combinators."""
    seen: set[int] = set()
    pending = [schema]
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        ref = current.get("$ref")
        if isinstance(ref, str):
            target = resolve_local_ref(root, ref)
            if target is not None:
                pending.append(target)
        for keyword in ("allOf", "anyOf", "oneOf"):
            pending.extend(sub for sub in current.get(keyword, []) if isinstance(sub, Mapping))


def property_order(schema: Schema, root: Schema) -> list[str]:
    """Property names an object under ``schema`` may have, in the order the schema declares them."""
    order: list[str] = []
    for branch in branches(schema, root):
        for name in branch.get("properties", {}):
            if name not in order:
                order.append(name)
    return order


def description(schema: Any, root: Schema) -> str:
    """A schema's own ``description``, else that of the ``$ref`` target it names ("" when
    neither has one): what the generated docstrings and JSDoc say about a type or a field."""
    if not isinstance(schema, Mapping):
        return ""
    own = schema.get("description")
    if isinstance(own, str) and own.strip():
        return own
    ref = schema.get("$ref")
    target = resolve_local_ref(root, ref) if isinstance(ref, str) else None
    described = target.get("description") if isinstance(target, Mapping) else None
    return described if isinstance(described, str) else ""


def property_schema(schema: Schema, root: Schema, name: str) -> Schema | None:
    """The first declared subschema for property ``name`` under ``schema``."""
    for branch in branches(schema, root):
        sub = branch.get("properties", {}).get(name)
        if isinstance(sub, Mapping):
            return sub
    return None


def canonical_order(value: Any, schema: Schema, root: Schema) -> Any:
    """A copy of ``value`` whose object keys follow the schema's property order, recursively.

    This is what makes the output independent of key order in the YAML: only row order counts.
    """
    return _CanonicalOrder(root).copy(value, schema)


# How many distinct key sequences ``_CanonicalOrder`` remembers the order of.
_MAX_ORDERS = 4096


class _CanonicalOrder:
    """``canonical_order`` with what each subschema says (its property ranks, each property's
    subschema, its items) worked out once per subschema rather than once per value: a table of
    many rows walks the same few subschemas again and again."""

    def __init__(self, root: Schema) -> None:
        self._root = root
        # id(schema) -> (schema, rank of each property, properties' subschemas, items); the
        # schema itself is kept so that its id is not reused while this object lives.
        self._plans: dict[int, tuple[Schema, dict[str, int], dict[str, Any], Any]] = {}
        # (id(schema), keys as given) -> keys in canonical order; ids stay valid as every schema
        # met is kept alive by its plan.
        self._orders: dict[tuple[int, tuple[str, ...]], list[str]] = {}

    def _plan(self, schema: Schema) -> tuple[Schema, dict[str, int], dict[str, Any], Any]:
        plan = self._plans.get(id(schema))
        if plan is None:
            order = property_order(schema, self._root)
            items = next(
                (
                    b["items"]
                    for b in branches(schema, self._root)
                    if isinstance(b.get("items"), Mapping)
                ),
                None,
            )
            plan = (schema, {name: rank for rank, name in enumerate(order)}, {}, items)
            self._plans[id(schema)] = plan
        return plan

    def _sorted(self, schema: Schema, ranks: dict[str, int], value: Mapping[str, Any]) -> list[str]:
        """``value``'s keys in canonical order; the rows of a table mostly share their keys (in
        the same order), so an order is worked out once per key sequence (a bounded number)."""
        keys = tuple(value)
        known = self._orders.get((id(schema), keys))
        if known is None:
            unranked = len(ranks)
            known = sorted(keys, key=lambda key: (ranks.get(key, unranked), key))
            if len(self._orders) < _MAX_ORDERS:
                self._orders[id(schema), keys] = known
        return known

    def copy(self, value: Any, schema: Schema) -> Any:
        if isinstance(value, str):  # most values; the Mapping test below is a slow one
            return value
        if isinstance(value, Mapping):
            _, ranks, subschemas, _ = self._plan(schema)
            result: dict[str, Any] = {}
            for key in self._sorted(schema, ranks, value):
                if key not in subschemas:
                    subschemas[key] = property_schema(schema, self._root, key)
                sub = subschemas[key]
                item = value[key]
                result[key] = item if sub is None or isinstance(item, str) else self.copy(item, sub)
            return result
        if isinstance(value, list):
            items = self._plan(schema)[3]
            return [self.copy(item, items) if items is not None else item for item in value]
        return value


# The most ``$ref``s one chain may follow (``A`` refers to ``B``, which refers to ``C``, ...);
# validation refuses a longer chain: every stage that expands the schema recurses once per
# definition on the way, and a chain of thousands exhausted the stack (an internal
# RecursionError) after minutes of work.
MAX_REF_CHAIN = 64
# How deep ``$ref`` and ``allOf`` merges go: past this a part is left out. Deeper than what
# validation admits (a chain of up to ``MAX_REF_CHAIN`` ``$ref``s, each target perhaps merged
# through an ``allOf``, and inline ``allOf`` nesting within the 64 levels of JSON): at 32, a
# chain of 20 ``allOf: [{$ref: …}]`` definitions merged nothing of the last, and ``breaking``
# silently missed a change there.
_MAX_REF_DEPTH = 2 * MAX_REF_CHAIN + 32
# Keywords beside a ``$ref`` that do not constrain: such a node is located at what it names.
_REF_COMPANIONS = {"$ref", "description", "title", "$comment", "deprecated", "examples", "default"}


@dataclass
class EffectiveSchema:
    """A subschema with its ``$ref`` and ``allOf`` merged in; ``pointer`` locates it."""

    keywords: dict[str, Any]
    properties: dict[str, tuple[Any, str]]  # name -> (subschema, its pointer)
    required: set[str]
    pointer: str


def effective_schema(
    schema: Any, root: Mapping[str, Any], pointer: str, depth: int = 0
) -> EffectiveSchema:
    """``schema`` with its same-document ``$ref`` and ``allOf`` members merged in (their
    properties and ``required`` united, the node's own keywords winning): what an instance at
    this place must look like, as far as comparing and documenting need."""
    return _effective(schema, root, pointer, depth, {})


# (id of a subschema, its pointer, depth) -> what it merges to, within one ``effective_schema``
# call: a part reached by several routes (``A<n>: allOf [$ref A<n-1>, $ref A<n-1>]``) is merged
# once per depth, not once per route (2**n). Parts are only read, never changed.
_Merged = dict[tuple[int, str, int], "EffectiveSchema"]


def _effective(
    schema: Any, root: Mapping[str, Any], pointer: str, depth: int, merged: _Merged
) -> EffectiveSchema:
    node = EffectiveSchema({}, {}, set(), pointer)
    if not isinstance(schema, Mapping) or depth > _MAX_REF_DEPTH:
        return node
    parts: list[EffectiveSchema] = []
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = resolve_local_ref(root, ref)
        if target is not None:
            parts.append(_part(target, root, ref[1:], depth + 1, merged))
    for index, member in enumerate(schema.get("allOf", ())):
        parts.append(_part(member, root, f"{pointer}/allOf/{index}", depth + 1, merged))
    for part in parts:
        node.keywords.update(part.keywords)
        node.properties.update(part.properties)
        node.required |= part.required
    if isinstance(ref, str) and parts and set(schema) <= _REF_COMPANIONS:
        node.pointer = parts[0].pointer  # a bare reference: locate what it names
    for key, value in schema.items():
        if key == "properties" and isinstance(value, Mapping):
            for name, sub in value.items():
                node.properties[name] = (sub, f"{pointer}/properties{pointer_of((name,))}")
        elif key == "required" and isinstance(value, list):
            node.required |= {str(name) for name in value}
        elif key not in ("$ref", "allOf", "$defs", "$schema", "$id"):
            node.keywords[key] = value
    return node


def _part(
    schema: Any, root: Mapping[str, Any], pointer: str, depth: int, merged: _Merged
) -> EffectiveSchema:
    key = (id(schema), pointer, depth)
    if key not in merged:
        merged[key] = _effective(schema, root, pointer, depth, merged)
    return merged[key]

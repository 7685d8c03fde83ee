"""The manifest schema's value shapes, resolved once into typed facts (pure).

``resolve(root)`` reads a JSON Schema document once and returns ``Shapes``: the root and every
``$defs`` entry as a ``Shape`` saying what its values look like, in the terms a typed language
needs: a reference to a named type (the root title for ``#``, the ``$defs`` key for
``#/$defs/X``), ``allOf`` parts, ``oneOf``/``anyOf`` unions, ``const``/``enum`` literals, an
object's own properties in schema order with their required flags, an array's items, a primitive
``type``, and the description a type or member is documented with.

The result holds no raw schema object, so the emitters that read it (``model_builder`` for the
loader's builders, ``ts_types`` for ``types.ts``) cannot decide a type fact on their own. It never
refuses a schema either: what a language cannot express (an untyped node, a ``$ref`` naming no
type, a literal object) is recorded as found and refused by that language's emitter, with its
own error.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.diagnostics import pointer_of
from generator.schemas import description, resolve_local_ref

_DEFS_PREFIX = "#/$defs/"


@dataclass(frozen=True)
class Literals:
    """The values a ``const`` (one value) or an ``enum`` admits, as the schema lists them."""

    keyword: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Property:
    """One property an object declares: its key as written and the shape of its value."""

    key: str
    shape: Shape


@dataclass(eq=False)
class Shape:
    """What one schema node admits. Built once by ``resolve`` (shapes of the same schema object
    are the same ``Shape``, so a recursive schema is a cyclic graph); read-only afterwards."""

    # A boolean schema (``true``/``false``), which says nothing a type could be made of.
    boolean: bool = False
    # ``$ref`` as written; the named type it refers to (``None``: not ``#`` or ``#/$defs/X``);
    # the shape it names (``None``: it names no schema object).
    ref: str | None = None
    ref_name: str | None = None
    ref_target: Shape | None = None
    all_of: tuple[Shape, ...] = ()
    # ``None`` when the keyword is absent (an empty list is a union of nothing).
    one_of: tuple[Shape, ...] | None = None
    any_of: tuple[Shape, ...] | None = None
    literals: Literals | None = None
    # ``type: object`` or ``properties``: an object, with its own properties and ``required``.
    is_object: bool = False
    properties: tuple[Property, ...] = ()
    required: tuple[str, ...] = ()
    # ``type: array``: the shape of its items (an untyped shape when ``items`` is absent).
    items: Shape | None = None
    # ``type`` when a single name other than ``object`` and ``array``.
    primitive: str | None = None
    # The node's own description, else that of what its ``$ref`` names ("" when neither).
    description: str = ""
    # Where the schema object sits (the first route that reached it; ``None``: not known), so an
    # emitter's refusal can be located in the schema.
    pointer: str | None = None


@dataclass(frozen=True)
class Shapes:
    """A schema's shapes: the root (named by its title) and the ``$defs`` entries in order."""

    title: str
    root: Shape
    definitions: Mapping[str, Shape]


def resolve(root: Mapping[str, Any]) -> Shapes:
    """The shapes of ``root``'s values; each schema object is resolved once."""
    resolver = _Resolver(root)
    defs = root.get("$defs", {})
    definitions = {
        name: resolver.shape(sub, f"/$defs{pointer_of((name,))}") for name, sub in defs.items()
    }
    return Shapes(str(root["title"]), resolver.shape(root, ""), definitions)


def resolve_subschema(schema: Any, root: Mapping[str, Any]) -> Shape:
    """The shape of one subschema, its references resolved against ``root``."""
    return _Resolver(root).shape(schema)


def branches(shape: Shape) -> Iterator[Shape]:
    """``shape`` and every shape it pulls in through ``$ref``, ``allOf``, ``anyOf`` and
    ``oneOf``, breadth first, each once (boolean shapes skipped): where an instance's
    properties may be declared."""
    seen: set[int] = set()
    pending = [shape]
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if current.ref_target is not None:
            pending.append(current.ref_target)
        for members in (current.all_of, current.any_of or (), current.one_of or ()):
            pending.extend(member for member in members if not member.boolean)


def declared_properties(shape: Shape) -> list[tuple[str, Shape | None]]:
    """Every property key an instance of ``shape`` may have, across its branches in the order
    they declare them, with the first schema object declared for it (``None``: only boolean
    schemas)."""
    first: dict[str, Shape | None] = {}
    for branch in branches(shape):
        for prop in branch.properties:
            if first.get(prop.key) is None:
                first[prop.key] = None if prop.shape.boolean else prop.shape
    return list(first.items())


class _Resolver:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.title = str(root.get("title"))
        # id(schema object) -> (the object, kept so its id stays unique; its shape)
        self.known: dict[int, tuple[Any, Shape]] = {}

    def ref_name(self, ref: str) -> str | None:
        if ref == "#":
            return self.title
        if ref.startswith(_DEFS_PREFIX) and ref.count("/") == 2:
            return ref.removeprefix(_DEFS_PREFIX)
        return None

    def shape(self, schema: Any, pointer: str | None = None) -> Shape:
        if not isinstance(schema, Mapping):
            return Shape(boolean=True, pointer=pointer)
        if id(schema) in self.known:
            return self.known[id(schema)][1]
        shape = Shape(pointer=pointer)
        self.known[id(schema)] = (schema, shape)  # first: a recursive reference finds it

        def at(*tokens: str | int) -> str | None:
            return None if pointer is None else pointer + pointer_of(tokens)

        ref = schema.get("$ref")
        if isinstance(ref, str):
            target = resolve_local_ref(self.root, ref)
            shape.ref = ref
            shape.ref_name = self.ref_name(ref)
            target_at = ref[1:] if ref.startswith("#") else None
            shape.ref_target = None if target is None else self.shape(target, target_at)
        shape.all_of = tuple(
            self.shape(sub, at("allOf", i)) for i, sub in enumerate(schema.get("allOf", ()))
        )
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                members = tuple(
                    self.shape(sub, at(keyword, i)) for i, sub in enumerate(schema[keyword])
                )
                if keyword == "oneOf":
                    shape.one_of = members
                else:
                    shape.any_of = members
        if "const" in schema:
            shape.literals = Literals("const", (schema["const"],))
        elif "enum" in schema:
            shape.literals = Literals("enum", tuple(schema["enum"]))
        kind = schema.get("type")
        shape.is_object = kind == "object" or "properties" in schema
        shape.properties = tuple(
            Property(key, self.shape(sub, at("properties", key)))
            for key, sub in schema.get("properties", {}).items()
        )
        shape.required = tuple(schema.get("required", ()))
        if kind == "array":
            shape.items = self.shape(schema.get("items", {}), at("items"))
        if isinstance(kind, str) and kind not in ("object", "array"):
            shape.primitive = kind
        shape.description = description(schema, self.root)
        return shape

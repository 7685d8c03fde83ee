"""Generate the function that turns a validated third-party manifest (JSON) into model objects.

The loader must hand out the same frozen dataclasses as the built-ins. Instead of reflecting on
the classes at run time, this module walks the schema once and emits straight-line Python:
objects become constructor calls of the class their ``$defs`` entry (or the root title) names,
arrays become tuples, optional properties default to ``None``. Only the input is trusted to be
valid against the schema (the loader validates first); names pass ``literals.identifier``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.literals import identifier, py_str, python_keyword_argument
from generator.python_models import ModelError
from generator.schemas import property_order, property_schema, resolve_local_ref


class _Builder:
    def __init__(self, root: Mapping[str, Any], known_classes: set[str]) -> None:
        self.root = root
        self.known = known_classes
        self.functions: dict[str, list[str]] = {}

    def named(self, schema: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any]]:
        """Follow ``$ref`` chains: the class name the target defines (if any) and the target."""
        name: str | None = None
        while isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            target = resolve_local_ref(self.root, ref)
            if target is None:
                raise ModelError(f"unresolvable $ref {ref!r}")
            name = str(self.root["title"]) if ref == "#" else ref.rsplit("/", 1)[-1]
            schema = target
        return name, schema

    def expression(self, schema: Mapping[str, Any], value: str) -> str:
        """Python converting the JSON value in ``value`` to what the model field holds."""
        name, target = self.named(schema)
        if any(key in target for key in ("oneOf", "anyOf")):
            raise ModelError("a union cannot be rebuilt without its discriminator")
        if target.get("type") == "object" or "properties" in target:
            if name is None or name not in self.known:
                raise ModelError("an object schema must be a named $defs entry to become a class")
            return f"{self.function(name, target)}({value})"
        if target.get("type") == "array":
            items = target.get("items", {})
            item = self.expression(items, "item") if isinstance(items, Mapping) else "item"
            return f"tuple({value})" if item == "item" else f"tuple({item} for item in {value})"
        return value

    def function(self, name: str, schema: Mapping[str, Any]) -> str:
        """The builder function for class ``name`` over ``schema`` (written once)."""
        function_name = f"_build_{identifier(name)}"
        if function_name in self.functions:
            return function_name
        self.functions[function_name] = []  # claimed first: a recursive schema reuses the name
        required = set(schema.get("required", []))
        arguments: list[str] = []
        for key in property_order(schema, self.root):
            sub = property_schema(schema, self.root, key)
            if sub is None:
                continue
            argument = python_keyword_argument(key)
            if key in required:
                arguments.append(f"{argument}={self.expression(sub, f'value[{py_str(key)}]')},")
            else:
                item = self.expression(sub, "item")
                arguments.append(
                    f"{argument}=None if (item := value.get({py_str(key)})) is None else {item},"
                    if item != "item"
                    else f"{argument}=value.get({py_str(key)}),"
                )
        self.functions[function_name] = [
            f"def {function_name}(value: dict[str, Any]) -> {identifier(name)}:",
            f"    return {identifier(name)}(",
            *(f"        {argument}" for argument in arguments),
            "    )",
        ]
        return function_name


def builder_source(
    root: Mapping[str, Any], entry: Mapping[str, Any], known_classes: set[str]
) -> tuple[str, str, list[str]]:
    """``(function name, source, classes used)`` for rebuilding a document valid against
    ``entry`` (a subschema of ``root``) as an instance of the root's class."""
    builder = _Builder(root, known_classes)
    name = str(root["title"])
    merged = _merged(entry, root)
    entry_function = builder.function(name, merged)
    source = "\n\n\n".join("\n".join(lines) for lines in builder.functions.values())
    used = sorted(fn.removeprefix("_build_") for fn in builder.functions)
    return entry_function, source + "\n", used


def _merged(entry: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """``entry`` with the ``required`` lists of its ``allOf`` branches folded in."""
    required = list(entry.get("required", []))
    for branch in entry.get("allOf", []):
        target = resolve_local_ref(root, branch["$ref"]) if "$ref" in branch else branch
        required += [name for name in (target or {}).get("required", []) if name not in required]
    return {**entry, "required": required}

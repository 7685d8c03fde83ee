"""Generate the function that turns a validated third-party manifest (JSON) into model objects.

The loader must hand out the same frozen dataclasses as the built-ins. Instead of reflecting on
the classes at run time, this module reads the schema's resolved ``shapes`` and emits
straight-line Python: objects become instances of the class their ``$defs`` entry (or the root
title) names, arrays become tuples, optional properties default to ``None``.

An instance is made without its ``__init__``: the builder writes each field into the new
instance's own attribute dict, one item at a time, in the order ``dataclasses.fields`` gives
(read from the generated models: ``python_models.dataclass_fields``; a field a subclass's schema
makes required, such as ``detect``, keeps its base class's place). A frozen dataclass's
``__init__`` makes one ``object.__setattr__`` call per field, three times the cost; item writes
keep the class's shared-key storage (a whole dict assigned at once would not, and costs 2.7
times the memory). The result equals the constructor's in every observable way (fields,
attribute order, equality, hash, repr, pickle, frozenness); ``tests/test_speed_invariants.py``
checks it. The properties a builder writes must be exactly the class's fields: a property the
class lacks (one only a subclass declares) would be a hidden attribute, a field no property
fills would be missing, so either is a ``ModelError``. Generated models define no
``__post_init__`` for ``__init__`` to run. Only the input
is trusted to be valid against the schema (the loader validates first); names pass
``literals.identifier``. A shape no class can rebuild (a union, an unnamed object, a ``$ref``
naming nothing) raises ``ModelError``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from generator.literals import identifier, py_str, python_keyword_argument
from generator.python_models import ModelError
from generator.shapes import Shape, Shapes, declared_properties


class _Builder:
    def __init__(self, classes: Mapping[str, Sequence[str]]) -> None:
        self.known = classes  # class name -> its dataclass fields, in order
        self.functions: dict[str, list[str]] = {}

    def named(self, shape: Shape) -> tuple[str | None, Shape]:
        """Follow ``$ref`` chains: the class name the target defines (if any) and the target."""
        name: str | None = None
        while shape.ref is not None:
            if shape.ref_target is None:
                raise ModelError(f"unresolvable $ref {shape.ref!r}", shape.pointer)
            name, shape = shape.ref_name, shape.ref_target
        return name, shape

    def expression(self, shape: Shape, value: str) -> str:
        """Python converting the JSON value in ``value`` to what the model field holds."""
        name, target = self.named(shape)
        if target.one_of is not None or target.any_of is not None:
            raise ModelError("a union cannot be rebuilt without its discriminator", target.pointer)
        if target.is_object:
            if name is None:
                raise ModelError(
                    "an object schema must be a named $defs entry to become a class",
                    target.pointer,
                )
            if name not in self.known:
                raise ModelError(
                    f"the models have no class {name}: datamodel-code-generator gave the name"
                    " to another type (such as the items of an array property: promptArgTemplate"
                    " makes PromptArgTemplateItem) and renamed this one; rename the $defs entry",
                    target.pointer,
                )
            return f"{self.function(name, target, target.required)}({value})"
        if target.items is not None:
            items = target.items
            item = "item" if items.boolean else self.expression(items, "item")
            return f"tuple({value})" if item == "item" else f"tuple({item} for item in {value})"
        return value

    def function(self, name: str, shape: Shape, required: Collection[str]) -> str:
        """The builder function for class ``name`` over ``shape`` (written once)."""
        function_name = f"_build_{identifier(name)}"
        if function_name in self.functions:
            return function_name
        self.functions[function_name] = []  # claimed first: a recursive schema reuses the name
        written: dict[str, str] = {}
        for key, sub in declared_properties(shape):
            if sub is None:
                continue
            name_of_field = python_keyword_argument(key)
            field = f"attributes[{py_str(name_of_field)}]"
            if key in required:
                written[name_of_field] = (
                    f"{field} = {self.expression(sub, f'value[{py_str(key)}]')}"
                )
            else:
                item = self.expression(sub, "item")
                written[name_of_field] = (
                    f"{field} = None if (item := value.get({py_str(key)})) is None else {item}"
                    if item != "item"
                    else f"{field} = value.get({py_str(key)})"
                )
        order = self.known.get(name, ())
        if set(written) != set(order):
            extra = sorted(set(written) - set(order))
            missing = sorted(set(order) - set(written))
            raise ModelError(
                f"class {name} cannot be built from its schema without its constructor:"
                f" properties that are no field of it {extra}, fields no property fills"
                f" {missing}",
                shape.pointer,
            )
        # One statement per field, on purpose (see the module's docstring): past ruff's limit
        # (PLR0915, 50 statements as ruff counts them: the fields and two) the function says so,
        # and only then (an unused noqa is RUF100).
        waiver = "  # noqa: PLR0915 - one statement per field" if len(order) + 2 > 50 else ""
        self.functions[function_name] = [
            f"def {function_name}(value: dict[str, Any]) -> {identifier(name)}:{waiver}",
            f"    model = _new_instance({identifier(name)})",
            "    attributes = model.__dict__",
            *(f"    {written[field_name]}" for field_name in order),
            "    return model",
        ]
        return function_name


def builder_source(
    shapes: Shapes, entry: str, classes: Mapping[str, Sequence[str]]
) -> tuple[str, str, list[str]]:
    """``(function name, source, classes used)`` for rebuilding a document valid against the
    ``$defs`` entry ``entry`` as an instance of the root's class. ``classes``: each class the
    models module defines -> its dataclass fields in order (``python_models.dataclass_fields``)."""
    builder = _Builder(classes)
    shape = shapes.definitions[entry]
    entry_function = builder.function(shapes.title, shape, _merged_required(shape))
    source = "\n\n\n".join("\n".join(lines) for lines in builder.functions.values())
    used = sorted(fn.removeprefix("_build_") for fn in builder.functions)
    return entry_function, source + "\n", used


def _merged_required(shape: Shape) -> list[str]:
    """``shape``'s required keys with those of its ``allOf`` parts folded in (a part that is a
    ``$ref`` contributes what it names)."""
    required = list(shape.required)
    for part in shape.all_of:
        source = part.ref_target if part.ref is not None else part
        required += [key for key in (source.required if source else ()) if key not in required]
    return required

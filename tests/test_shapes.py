"""The schema is resolved into shapes once, and both type emitters (the loader's model builders
and ``types.ts``) are written from that one resolution, never from the raw schema."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from generator import model_builder, python_models, shapes, ts_types, views
from generator.config import load_config
from generator.pipeline import build_outputs
from generator.validate import THIRD_PARTY_DEF

from .conftest import REPO

SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
# Each model class -> its dataclass fields, as the committed models module defines them.
KNOWN = python_models.dataclass_fields(
    (REPO / "generated/python/tool_registry/models.py").read_text(encoding="utf-8")
)


def test_one_resolution_per_generation_feeds_both_emitters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    resolved: list[shapes.Shapes] = []
    read_by: dict[str, list[object]] = {"loader": [], "types.ts": []}
    real_resolve = shapes.resolve
    real_builder = model_builder.builder_source
    real_declarations = ts_types.declarations

    def counting_resolve(root: Any) -> shapes.Shapes:
        resolved.append(real_resolve(root))
        return resolved[-1]

    def builder(given: Any, *rest: Any) -> tuple[str, str, list[str]]:
        read_by["loader"].append(given)
        return real_builder(given, *rest)

    def declarations(given: Any) -> list[tuple[str, str]]:
        read_by["types.ts"].append(given)
        return real_declarations(given)

    monkeypatch.setattr(shapes, "resolve", counting_resolve)
    monkeypatch.setattr(model_builder, "builder_source", builder)
    monkeypatch.setattr(ts_types, "declarations", declarations)
    views.clear_caches()
    try:
        result = build_outputs(load_config(REPO))
    finally:
        views.clear_caches()  # later tests must not see the counting resolution
    assert not result.diagnostics
    assert len(resolved) == 1
    # The loader is rendered for each language's field tables, always from the same object.
    assert read_by["types.ts"] == resolved
    assert read_by["loader"] and all(given is resolved[0] for given in read_by["loader"])


def _emitted(resolution: shapes.Shapes) -> tuple[object, ...]:
    return (
        model_builder.builder_source(resolution, THIRD_PARTY_DEF, KNOWN),
        ts_types.declarations(resolution),
    )


def _wipe(node: Any) -> None:
    if isinstance(node, dict):
        for value in node.values():
            _wipe(value)
        node.clear()
    elif isinstance(node, list):
        for value in node:
            _wipe(value)
        node.clear()


def test_emitters_need_nothing_but_the_resolution() -> None:
    """A resolution outlives its schema: emptying every object and list of the schema it was
    resolved from changes nothing either emitter writes."""
    expected = _emitted(shapes.resolve(SCHEMA))
    schema = copy.deepcopy(SCHEMA)
    resolution = shapes.resolve(schema)
    _wipe(schema)
    assert schema == {}
    assert _emitted(resolution) == expected


def test_references_name_the_root_title_or_a_defs_entry() -> None:
    root = {
        "title": "Root",
        "properties": {
            "self": {"$ref": "#"},
            "a": {"$ref": "#/$defs/A"},
            "inner": {"$ref": "#/$defs/A/properties/x"},
            "missing": {"$ref": "#/$defs/Missing"},
        },
        "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}},
    }
    resolution = shapes.resolve(root)
    members = {prop.key: prop.shape for prop in resolution.root.properties}
    assert (members["self"].ref_name, members["self"].ref_target) == ("Root", resolution.root)
    assert members["a"].ref_name == "A"
    assert members["a"].ref_target is resolution.definitions["A"]
    assert members["inner"].ref_name is None
    assert members["inner"].ref_target is resolution.definitions["A"].properties[0].shape
    assert (members["missing"].ref_name, members["missing"].ref_target) == ("Missing", None)


def test_declared_properties_follow_branches_and_skip_boolean_schemas() -> None:
    root = {
        "title": "Root",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "$defs": {
            "Entry": {
                "allOf": [{"$ref": "#"}],
                "properties": {"c": {"type": "boolean"}, "a": False, "b": {"const": 1}},
            }
        },
    }
    resolution = shapes.resolve(root)
    entry = resolution.definitions["Entry"]
    found = shapes.declared_properties(entry)
    assert [key for key, _ in found] == ["c", "a", "b"]
    shapes_by_key = dict(found)
    assert shapes_by_key["a"] is resolution.root.properties[0].shape  # `false` declares no type
    assert shapes_by_key["b"] is entry.properties[2].shape  # the entry's own declaration first


def test_a_recursive_schema_is_one_cyclic_shape() -> None:
    root = {
        "title": "Tree",
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
    }
    resolution = shapes.resolve(root)
    items = resolution.root.properties[0].shape.items
    assert items is not None and items.ref_target is resolution.root


def test_a_builder_writes_the_fields_in_the_classes_order_a_subclass_keeps() -> None:
    """A subclass that redeclares a field (``detect``, made required by the adapter entry) keeps
    the place its base gave it: the builder writes that field there, not first, so an instance
    built without ``__init__`` has the constructor's attribute order (and pickles to the same
    bytes)."""
    schema = copy.deepcopy(SCHEMA)
    schema["$defs"][THIRD_PARTY_DEF]["required"] = ["detect"]
    _, source, _ = model_builder.builder_source(shapes.resolve(schema), THIRD_PARTY_DEF, KNOWN)
    body = source.split("\n\n\n")[0]
    written = [line.split('"')[1] for line in body.splitlines() if "attributes[" in line]
    assert written == list(KNOWN["ToolManifest"])


def test_a_property_the_built_class_lacks_is_refused() -> None:
    """A property only the adapter entry declares is no field of the class the loader builds:
    written into the instance's attribute dict it would be a hidden attribute equality and repr
    ignore (the constructor would have refused it), so generation stops with a located error."""
    schema = copy.deepcopy(SCHEMA)
    schema["$defs"][THIRD_PARTY_DEF]["properties"]["adapterOnly"] = {"type": "string"}
    with pytest.raises(python_models.ModelError, match="adapterOnly") as raised:
        model_builder.builder_source(shapes.resolve(schema), THIRD_PARTY_DEF, KNOWN)
    assert raised.value.pointer == f"/$defs/{THIRD_PARTY_DEF}"


def test_a_field_no_property_fills_is_refused() -> None:
    known = {**KNOWN, "PathDetect": (*KNOWN["PathDetect"], "unfilled")}
    with pytest.raises(python_models.ModelError, match="unfilled"):
        model_builder.builder_source(shapes.resolve(SCHEMA), THIRD_PARTY_DEF, known)


def test_dataclass_fields_follow_the_mro_and_keep_a_redeclared_fields_place() -> None:
    source = """
from dataclasses import dataclass
from typing import ClassVar

@dataclass
class A:
    a: int
    b: int
    shared: ClassVar[int] = 0

@dataclass
class B:
    x: int

@dataclass(kw_only=True)
class C(A, B):
    b: int
    c: int
"""
    import dataclasses

    namespace: dict[str, Any] = {}
    code = compile(source, "<models>", "exec", dont_inherit=True)
    exec(code, namespace)  # noqa: S102 - the test's own source: dataclasses decide
    found = python_models.dataclass_fields(source)
    for name in ("A", "B", "C"):
        assert found[name] == tuple(f.name for f in dataclasses.fields(namespace[name]))

"""Hostile review O: ``toolgen breaking`` and the rest of the maintainer flow.

``breaking`` walked ``$ref``, ``allOf``, ``items``, ``oneOf``/``anyOf`` and ``if``/``then``/
``else``, but not ``not`` nor an ``additionalProperties`` given as a schema, both of which the
validator compiler supports: adding either to the adapter schema refused adapters that were valid
before, and ``breaking`` said "0 breaking" (exit 0)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .conftest import copy_project

Run = Callable[..., tuple[int, str, str]]
SCHEMA = "schema/tool-manifest.schema.json"


def _edit_schema(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / SCHEMA
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _breaking(run_cli: Run, project: Path, against: Path) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = run_cli(
        "breaking", "--against", str(against), "--project", str(project), "--format", "json"
    )
    found: list[dict[str, Any]] = json.loads(out)["diagnostics"]
    return code, found


def _no_desktop_adapters(schema: dict[str, Any]) -> None:
    schema["$defs"]["ThirdPartyToolManifest"]["not"] = {
        "properties": {"category": {"const": "desktop-app"}},
        "required": ["category"],
    }


def _capabilities_extra(kind: str | list[str]) -> Callable[[dict[str, Any]], None]:
    def change(schema: dict[str, Any]) -> None:
        schema["$defs"]["Capabilities"]["additionalProperties"] = {"type": kind}

    return change


def _open_capabilities(schema: dict[str, Any]) -> None:
    del schema["$defs"]["Capabilities"]["additionalProperties"]


def test_an_added_not_is_breaking_and_located(tmp_path: Path, run_cli: Run) -> None:
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")
    _edit_schema(new, _no_desktop_adapters)
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    (record,) = found
    assert record["code"] == "BREAKING_SCHEMA_TYPE_CHANGED"
    assert record["subject"] == "/"
    assert record["pointer"] == "/$defs/ThirdPartyToolManifest/not"
    assert "not condition added" in record["message"]


def test_a_changed_not_is_breaking_and_the_same_or_a_removed_one_is_not(
    tmp_path: Path, run_cli: Run
) -> None:
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")
    _edit_schema(old, _no_desktop_adapters)
    _edit_schema(new, _no_desktop_adapters)
    assert _breaking(run_cli, new, old) == (0, [])

    def wider(schema: dict[str, Any]) -> None:
        schema["$defs"]["ThirdPartyToolManifest"]["not"]["properties"]["category"] = {
            "enum": ["desktop-app", "mcp-server"]
        }

    _edit_schema(new, wider)
    code, found = _breaking(run_cli, new, old)
    assert code == 1
    assert [(d["code"], d["subject"]) for d in found] == [("BREAKING_SCHEMA_TYPE_CHANGED", "/")]
    assert "not condition changed" in found[0]["message"]

    removed = copy_project(tmp_path / "removed")
    assert _breaking(run_cli, removed, old) == (0, [])


def test_an_additional_properties_schema_is_compared(tmp_path: Path, run_cli: Run) -> None:
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")
    _edit_schema(old, _open_capabilities)  # any other property was accepted
    _edit_schema(new, _capabilities_extra("boolean"))
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    (record,) = found
    assert record["code"] == "BREAKING_SCHEMA_TYPE_CHANGED"
    assert record["subject"] == "/capabilities/*"
    assert record["pointer"] == "/$defs/Capabilities/additionalProperties/type"

    # Narrowed from one schema to another: walked as any subschema is.
    _edit_schema(old, _capabilities_extra(["boolean", "string"]))
    code, found = _breaking(run_cli, new, old)
    assert code == 1
    assert [(d["code"], d["subject"]) for d in found] == [
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/*")
    ]
    assert "string" in found[0]["message"]

    # Widened: nothing valid before is refused.
    assert _breaking(run_cli, old, new)[0] == 0


def test_a_property_dropped_beside_an_additional_properties_schema_is_held_to_it(
    tmp_path: Path, run_cli: Run
) -> None:
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")

    def with_notes(schema: dict[str, Any]) -> None:
        capabilities = schema["$defs"]["Capabilities"]
        capabilities["additionalProperties"] = {"type": "array"}
        capabilities["properties"]["notes"] = {"type": "array", "items": {"type": "string"}}

    _edit_schema(old, with_notes)
    _edit_schema(new, _capabilities_extra("string"))
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    subjects = {(d["code"], d.get("subject")) for d in found}
    # ``notes`` (an array before) must now be a string, as must any other property.
    assert subjects == {
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/notes"),
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/*"),
    }

    # A closed baseline admitted no other property, but ``notes`` was named there: dropping it
    # beside an ``additionalProperties`` schema holds it to that schema too.
    def closed_with_notes(schema: dict[str, Any]) -> None:
        with_notes(schema)
        schema["$defs"]["Capabilities"]["additionalProperties"] = False

    _edit_schema(old, closed_with_notes)
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    assert [(d["code"], d.get("subject")) for d in found] == [
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/notes")
    ]


def test_a_property_added_to_an_open_object_is_compared_with_what_it_accepted(
    tmp_path: Path, run_cli: Run
) -> None:
    """An optional property added to an object that was open was a ``SAFE_ADDITION``, yet an
    adapter holding ``"notes": 5`` there was valid before and is refused now."""
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")
    _edit_schema(old, _open_capabilities)

    def with_notes(schema: dict[str, Any]) -> None:
        _open_capabilities(schema)
        schema["$defs"]["Capabilities"]["properties"]["notes"] = {"type": "string"}

    _edit_schema(new, with_notes)
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    assert [(d["code"], d.get("subject")) for d in found] == [
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/notes")
    ]

    # Beside an additionalProperties schema that already held other properties to strings,
    # nothing valid before is refused: an addition.
    _edit_schema(old, _capabilities_extra("string"))
    code, found = _breaking(run_cli, new, old)
    assert code == 0, found
    assert ("SAFE_ADDITION", "/capabilities/notes") in {
        (d["code"], d.get("subject")) for d in found
    }

    # And where the baseline's object was closed, no adapter held it: an addition.
    closed = copy_project(tmp_path / "closed")
    _edit_schema(
        new, lambda schema: schema["$defs"]["Capabilities"].update(additionalProperties=False)
    )
    code, found = _breaking(run_cli, new, closed)
    assert code == 0, found
    assert [(d["code"], d.get("subject")) for d in found] == [
        ("SAFE_ADDITION", "/capabilities/notes")
    ]


def test_a_recursive_definition_new_where_anything_was_accepted_is_compared_once(
    tmp_path: Path, run_cli: Run
) -> None:
    """A recursive definition given to ``items`` where the baseline had none was compared with
    "any value" once per level, under a pointer one step longer each time: 94 breaking records
    of one change, down to the depth limit, then ``SCHEMA_UNSUPPORTED``."""
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")

    def with_list(schema: dict[str, Any]) -> None:
        schema["$defs"]["Capabilities"]["properties"]["list"] = {"type": "array"}

    def with_nested_lists(schema: dict[str, Any]) -> None:
        with_list(schema)
        schema["$defs"]["Capabilities"]["properties"]["list"]["items"] = {"$ref": "#/$defs/Nested"}
        schema["$defs"]["Nested"] = {"type": "array", "items": {"$ref": "#/$defs/Nested"}}

    _edit_schema(old, with_list)
    _edit_schema(new, with_nested_lists)
    code, found = _breaking(run_cli, new, old)
    assert code == 1
    assert [(d["code"], d.get("subject")) for d in found if d["severity"] == "error"] == [
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/list/*")
    ]

    # The same through a property added to an open object.
    def open_with_tree(schema: dict[str, Any]) -> None:
        _open_capabilities(schema)
        schema["$defs"]["Capabilities"]["properties"]["tree"] = {"$ref": "#/$defs/Tree"}
        schema["$defs"]["Tree"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {"child": {"$ref": "#/$defs/Tree"}},
        }

    old = copy_project(tmp_path / "old-open")
    new = copy_project(tmp_path / "new-tree")
    _edit_schema(old, _open_capabilities)
    _edit_schema(new, open_with_tree)
    code, found = _breaking(run_cli, new, old)
    assert code == 1
    assert sorted((d["code"], d.get("subject")) for d in found if d["severity"] == "error") == [
        ("BREAKING_SCHEMA_CLOSED", "/capabilities/tree"),
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/capabilities/tree"),
    ]


def test_a_branch_constraining_a_property_it_did_not_name_is_breaking(
    tmp_path: Path, run_cli: Run
) -> None:
    """``else: {properties: {launchable: {const: true}}}`` refuses every adapter that is not an
    MCP server and says ``launchable: false``; the property was new to the branch, so it was
    a ``SAFE_ADDITION`` ("new property"), exit 0."""
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")

    def launchable_unless_mcp(schema: dict[str, Any]) -> None:
        schema["else"]["properties"]["launchable"] = {"const": True}

    _edit_schema(new, launchable_unless_mcp)
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    assert [(d["code"], d.get("subject"), d["pointer"]) for d in found] == [
        ("BREAKING_SCHEMA_ENUM_NARROWED", "/launchable", "/else/properties/launchable/const")
    ]


def test_a_branch_constraining_a_property_new_to_a_closed_object_is_an_addition(
    tmp_path: Path, run_cli: Run
) -> None:
    """A branch describes the object its node does: a property new to both (the object closed
    at the baseline, so no adapter held it) is an addition, not a type change against "any
    value"; one the object declared is compared with that declaration."""
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")

    def homepage(schema: dict[str, Any]) -> None:
        schema["properties"]["homepage"] = {"type": "string", "maxLength": 200, "pattern": "^h"}
        schema["else"]["properties"]["homepage"] = {"type": "string", "maxLength": 100}

    _edit_schema(new, homepage)
    code, found = _breaking(run_cli, new, old)
    assert code == 0, found
    assert {(d["code"], d.get("subject")) for d in found} == {("SAFE_ADDITION", "/homepage")}

    # Declared by the object at the baseline: the branch's limit narrows that declaration.
    _edit_schema(
        old,
        lambda schema: schema["properties"].update(
            homepage={"type": "string", "maxLength": 200, "pattern": "^h"}
        ),
    )
    code, found = _breaking(run_cli, new, old)
    assert code == 1, found
    assert [(d["code"], d.get("subject"), d["pointer"]) for d in found] == [
        ("BREAKING_SCHEMA_LIMIT_TIGHTENED", "/homepage", "/else/properties/homepage/maxLength")
    ]

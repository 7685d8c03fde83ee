"""The generated validator against references: jsonschema-rs (Draft 2020-12, ECMA-262 regexes) on
Hypothesis documents (valid ones from hypothesis-jsonschema, filtered through the reference, and
mutations of them); and the compiler's refusals of keywords it does not support."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from tool_registry import validate_third_party_manifest, validate_tool_manifest

from generator.schema_subset import CompileError
from generator.validator_compiler import compile_validators

from .conftest import REPO, copy_project, run_toolgen

SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
REFERENCE_TOOL = jsonschema_rs.Draft202012Validator(SCHEMA)
REFERENCE_THIRD_PARTY = jsonschema_rs.validator_for(
    {"$schema": SCHEMA["$schema"], "$ref": SCHEMA["$id"] + "#/$defs/ThirdPartyToolManifest"},
    registry=jsonschema_rs.Registry([(SCHEMA["$id"], SCHEMA)]),
)
# hypothesis-jsonschema resolves neither the URN $id nor the third-party root's "#" reference;
# it generates from the root alone (the references it needs all point into $defs).
GENERATION_SCHEMA = {
    **{k: v for k, v in SCHEMA.items() if k != "$id"},
    "$defs": {k: v for k, v in SCHEMA["$defs"].items() if k != "ThirdPartyToolManifest"},
}

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
TRICKY_STRINGS = st.sampled_from(
    ["aider\n", "a;b", "../x", "/abs", "\u0663", "Ai\u202eder", "", "x" * 300, "codex", "path"]
)


def _mutate(document: Any, data: st.DataObject) -> Any:
    """One random edit somewhere in the document: replace, delete or add a value."""
    mutated = copy.deepcopy(document)
    node = mutated
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        if not isinstance(node[key], dict | list) or not node[key]:
            break
        node = node[key]
    replacement = data.draw(JSON_VALUES | TRICKY_STRINGS)
    if isinstance(node, dict):
        keys = list(node)
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if keys and action != "add":
            key = data.draw(st.sampled_from(keys))
            if action == "delete":
                del node[key]
            else:
                node[key] = replacement
        else:
            node[data.draw(st.text(max_size=6) | st.sampled_from(["id", "kind"]))] = replacement
    elif isinstance(node, list):
        if node:
            node[data.draw(st.integers(0, len(node) - 1))] = replacement
        else:
            node.append(replacement)
    else:
        return replacement
    return mutated


def _agree(document: Any) -> None:
    assert (not validate_tool_manifest(document)) == REFERENCE_TOOL.is_valid(document), document
    assert (not validate_third_party_manifest(document)) == REFERENCE_THIRD_PARTY.is_valid(
        document
    ), document


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=from_schema(GENERATION_SCHEMA), data=st.data())
def test_generated_documents_get_the_reference_verdict(document: Any, data: st.DataObject) -> None:
    # hypothesis-jsonschema does not honour every 2020-12 rule (nor ECMA regexes): keep only the
    # documents the reference accepts, so this half of the test is about valid documents.
    assume(REFERENCE_TOOL.is_valid(document))
    assert validate_tool_manifest(document) == ()
    _agree(document)
    _agree(_mutate(document, data))
    _agree(_mutate(_mutate(document, data), data))


@settings(max_examples=300, deadline=None)
@given(document=JSON_VALUES)
def test_arbitrary_values_get_the_reference_verdict(document: Any) -> None:
    _agree(document)


@pytest.mark.parametrize(
    ("schema", "pointer", "keyword"),
    [
        ({"format": "email"}, "/format", "format"),
        (
            {"properties": {"a": {"patternProperties": {}}}},
            "/properties/a/patternProperties",
            "patternProperties",
        ),
        (
            {"$defs": {"x": {"unevaluatedProperties": False}}},
            "/$defs/x/unevaluatedProperties",
            "unevaluatedProperties",
        ),
        ({"items": {"$ref": "https://example.com/s"}}, "/items/$ref", "$ref"),
        ({"anyOf": [{"multipleOf": 2}]}, "/anyOf/0/multipleOf", "multipleOf"),
        ({"pattern": "\\p{L}"}, "/pattern", "pattern"),
        ({"pattern": "(?i)x"}, "/pattern", "pattern"),
        ({"allOf": {"a": {}}}, "/allOf", "allOf"),
        ({"properties": {"a": {"items": 5}}}, "/properties/a/items", "items"),
        ({"items": {"$ref": "#anchor"}}, "/items/$ref", "$ref"),
    ],
)
def test_unsupported_keywords_are_generation_errors(
    schema: dict[str, Any], pointer: str, keyword: str
) -> None:
    with pytest.raises(CompileError) as caught:
        compile_validators(schema, {"validate": ""})
    assert (caught.value.pointer, caught.value.keyword) == (pointer, keyword)


def test_generate_refuses_a_schema_with_an_unsupported_keyword(tmp_path: Any) -> None:
    project = copy_project(tmp_path / "project")
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["properties"]["id"]["format"] = "hostname"
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    before = (project / "generated/python/tool_registry/validator.py").read_bytes()
    completed = run_toolgen("generate", "--project", str(project), "--format", "json")
    assert completed.returncode == 1
    (diagnostic,) = json.loads(completed.stdout)["diagnostics"]
    assert diagnostic["code"] == "SCHEMA_UNSUPPORTED"
    assert diagnostic["pointer"] == "/properties/id/format"
    assert diagnostic["line"] is not None
    assert (project / "generated/python/tool_registry/validator.py").read_bytes() == before


TAGGED_UNION = {
    "oneOf": [
        {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"const": "a"}, "x": {"type": "string"}},
        },
        {"$ref": "#/$defs/B"},
    ],
    "$defs": {
        "B": {"type": "object", "required": ["kind", "y"], "properties": {"kind": {"const": "b"}}}
    },
}


@pytest.mark.parametrize(
    "document",
    [
        {"kind": "a"},
        {"kind": "a", "x": 1},
        {"kind": "b"},
        {"kind": "b", "y": 0},
        {"kind": "c"},
        {"kind": 1},
        {},
        [],
        "a",
        {"kind": "a", "y": 0},
    ],
)
def test_a_tagged_union_is_decided_by_its_tag_with_the_reference_verdict(document: Any) -> None:
    source = compile_validators(TAGGED_UNION, {"validate": ""}, package="tool_registry")
    assert "if isinstance(v, dict) else None" in source, "the discriminator fast path is used"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own output
    expected = jsonschema_rs.validator_for(TAGGED_UNION).is_valid(document)
    assert (not namespace["validate"](document)) == expected


@pytest.mark.parametrize(
    ("detect", "expected"),
    [
        ({"kind": "path"}, [("/detect", "required")]),
        (
            {"kind": "candidates", "paths": {"linux": [""]}},
            [("/detect/paths/linux/0", "minLength"), ("/detect/paths/linux/0", "pattern")],
        ),
        # No alternative is named: the closest one (fewest violations) is reported.
        ({"kind": "teleport"}, [("/detect/kind", "const")]),
        ("path", [("/detect", "oneOf")]),
    ],
)
def test_a_tagged_union_reports_the_alternative_its_tag_names(
    detect: Any, expected: list[tuple[str, str]]
) -> None:
    document = {
        "id": "x",
        "displayName": "X",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".x/p.json",
        "detect": detect,
    }
    assert [(d.pointer, d.keyword) for d in validate_tool_manifest(document)] == expected

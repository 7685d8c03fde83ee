"""Hostile review, generator side: schemas whose patterns, limits, ``$ref``s and text push the
generator's bounds, each refused with a located diagnostic (never a traceback or a hang) or
located correctly."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator

from generator import plan, regex_facts, schemas, validate
from generator.diagnostics import Diagnostic
from generator.ecma_to_re import translate
from generator.editor_schema import EditorSchemaError, bundle_draft07
from generator.load import parse_json, parse_yaml
from generator.pipeline import validate_sources

from .conftest import REPO
from .test_validation import MANIFEST_SCHEMA, TABLE_SCHEMA_TEXT, TABLE_TEXT

TABLE_SCHEMA = json.loads(TABLE_SCHEMA_TEXT)


def _diagnose(
    manifest: dict[str, Any] | None = None, table_schema: dict[str, Any] | None = None
) -> list[tuple[str, str | None, int | None]]:
    """The codes, pointers and lines of the diagnostics for the schemas as given (the real
    ones by default) and the real table."""
    found: list[Diagnostic] = validate_sources(
        parse_json(json.dumps(manifest or MANIFEST_SCHEMA, indent=2), "manifest.json"),
        parse_json(json.dumps(table_schema or TABLE_SCHEMA, indent=2), "table.json"),
        parse_yaml(TABLE_TEXT, "tools.yaml"),
    )
    return [(d.code.value, d.pointer, d.line) for d in found]


def _with_property(sub: dict[str, Any], name: str = "zz") -> dict[str, Any]:
    """The manifest schema with one more optional property (none of its examples holds it)."""
    schema: dict[str, Any] = copy.deepcopy(MANIFEST_SCHEMA)
    schema["properties"][name] = sub
    return schema


# Characters a JSON string may hold as they are but YAML (which locates JSON's nodes) reads as
# a line break or refuses.
YAML_UNSAFE_IN_JSON = ["\x7f", "\x80", "\x85", "\x9f", "\u2028", "\u2029", "\ufffe", "\uffff"]


@pytest.mark.parametrize("char", YAML_UNSAFE_IN_JSON)
def test_json_positions_survive_characters_yaml_reads_otherwise(char: str) -> None:
    text = (
        "{\n"
        f'  "a": "x{char}y",\r\n'
        f'  "k{char}": {{"c": "q{char}{char}", "d": [1, 2]}},\n'
        f'  "b": {{"e": 1, "e": 2}}\n'
        "}"
    )
    loaded = parse_json(text.replace('"e": 1, ', ""), "x.json")
    assert loaded.position_of(f"/k{char}") == (3, 9)
    assert loaded.position_of(f"/k{char}/d/1") == (3, 31)
    assert loaded.key_position_of(f"/k{char}/d") == (3, 22)
    assert loaded.position_of("/b/e") == (4, 14)
    # A repeated key is located through the same reading.
    [repeated] = parse_json(text, "x.json").diagnostics
    assert (repeated.line, repeated.column) == (4, 17)
    assert json.loads(text.replace('"e": 1, ', ""))[f"k{char}"]["d"] == [1, 2]


def test_a_schema_error_after_a_line_separator_is_reported_on_its_own_line() -> None:
    text = (REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8")
    text = text.replace('"Stable ASCII', '"Stable\u2028\u0085ASCII\u007f', 1)
    broken = text.replace('"type": "boolean"', '"type": "bool"', 1)
    found = validate_sources(
        parse_json(broken, "schema.json"),
        parse_json(TABLE_SCHEMA_TEXT, "t.json"),
        parse_yaml(TABLE_TEXT, "tools.yaml"),
    )
    [first] = [d for d in found if d.pointer == "/properties/launchable/type"]
    line = broken.split("\n").index('      "type": "bool"') + 1
    assert (first.line, first.column) == (line, 15)


@pytest.mark.parametrize(
    "pattern",
    [
        "^a{1000000000}$",
        "a{1000000000}",  # unanchored: node spent 2.7 s on 30,000 characters
        "^(a{1000}){1000}$",  # nested counts multiply
        "^(?:x(?:[a-z]{100}){11})?$",
        "(?=b{1001})",
        "a{4294967296}",  # beyond what Python's re compiles
    ],
)
def test_a_huge_repeat_count_is_refused_at_its_pattern(pattern: str) -> None:
    found = _diagnose(_with_property({"type": "string", "maxLength": 64, "pattern": pattern}))
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/properties/zz/pattern")
    ]
    assert found[0][2] is not None


def test_a_repeat_count_within_the_bound_is_accepted() -> None:
    sub = {"type": "string", "maxLength": 64, "pattern": "^(?:a{10}){100}$|^b{1000}$"}
    assert _diagnose(_with_property(sub)) == []


@pytest.mark.parametrize(
    ("sub", "keyword"),
    [
        ({"type": "string", "maxLength": 10**400, "pattern": "^.*,.*$"}, "maxLength"),
        ({"type": "string", "maxLength": 10**400}, "maxLength"),
        ({"type": "string", "maxLength": 1e308}, "maxLength"),
        ({"type": "string", "minLength": 10**400}, "minLength"),
        ({"type": "array", "items": {"type": "string"}, "maxItems": 10**400}, "maxItems"),
        ({"type": "array", "items": {"type": "string"}, "maxItems": 1e308}, "maxItems"),
        ({"type": "string", "maxLength": 2**53}, "maxLength"),
    ],
)
def test_a_huge_length_or_count_is_refused_at_its_keyword(
    sub: dict[str, Any], keyword: str
) -> None:
    # 10**400 with a polynomial pattern was an OverflowError traceback (the message printed it
    # as a float); 1e308 reached datamodel-code-generator, which failed on it.
    found = _diagnose(_with_property(sub))
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", f"/properties/zz/{keyword}")
    ]


def test_the_largest_exact_limit_is_accepted() -> None:
    assert _diagnose(_with_property({"type": "string", "maxLength": 2**53 - 1})) == []


def test_a_pattern_longer_than_the_bound_is_refused_before_analysis() -> None:
    longest = "^" + "a" * (plan.MAX_PATTERN_LENGTH - 2) + "$"
    assert _diagnose(_with_property({"type": "string", "pattern": longest})) == []
    too_long = "^" + "(?:ab|cd)" * 200 + "$"
    found = _diagnose(_with_property({"type": "string", "pattern": too_long}))
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/properties/zz/pattern")
    ]
    # ... in the table schema as well.
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    table_schema["$defs"]["ConstantName"]["pattern"] = too_long
    found = _diagnose(table_schema=table_schema)
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/$defs/ConstantName/pattern")
    ]


def test_a_pattern_repeated_in_many_properties_is_analysed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 500 copies of the prompt-argument pattern took 37 s to check, each analysed again.
    pattern = MANIFEST_SCHEMA["properties"]["promptArgTemplate"]["items"]["pattern"] + "|^zz$"
    schema = copy.deepcopy(MANIFEST_SCHEMA)
    for index in range(50):
        schema["properties"][f"p{index}"] = {"type": "string", "maxLength": 9, "pattern": pattern}
    analysed: list[str] = []
    original = regex_facts.ambiguous_repeat

    def counted(source: str) -> str | None:
        analysed.append(source)
        return original(source)

    monkeypatch.setattr(plan, "ambiguous_repeat", counted)
    plan.analysed_pattern.cache_clear()
    validate.clear_caches()
    try:
        validate.validator_source(schema)
        validate.ts_validator_source(schema)
    finally:
        plan.analysed_pattern.cache_clear()
        validate.clear_caches()
    assert analysed.count(translate(pattern)) == 1


@pytest.mark.parametrize(
    ("pattern", "max_length"),
    [
        ("^(?:[A-Z]+)+$", 64),  # exponential, whatever the bound
        ("^[A-Z]*_?[A-Z]*_?[A-Z]*$", None),  # cubic, no maxLength
        ("^[A-Z]*_?[A-Z]*_?[A-Z]*$", 10**6),  # ... nor one keeping it in budget
        ("^A{1000000}$", 64),
    ],
)
def test_the_table_schema_patterns_get_the_manifest_schema_checks(
    pattern: str, max_length: int | None
) -> None:
    # The table is validated with its schema's patterns, but only the manifest schema's were
    # checked for backtracking (ReDoS).
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    table_schema["$defs"]["ConstantName"]["pattern"] = pattern
    del table_schema["$defs"]["ConstantName"]["maxLength"]
    if max_length is not None:
        table_schema["$defs"]["ConstantName"]["maxLength"] = max_length
    found = _diagnose(table_schema=table_schema)
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/$defs/ConstantName/pattern")
    ]
    assert found[0][2] is not None


def test_a_table_schema_pattern_property_name_gets_the_checks_too() -> None:
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    table_schema["$defs"]["Acknowledgement"]["patternProperties"] = {"^(a|ab)*$": {}}
    found = _diagnose(table_schema=table_schema)
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/$defs/Acknowledgement/patternProperties/^(a|ab)*$")
    ]


def test_integral_float_limits_are_the_integers_json_schema_reads(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # JSON Schema reads 5.0 as the integer 5: the reference said "at most 5.0 characters" and
    # the validators reported "at least 1.0".
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["properties"]["zz"] = {"type": "string", "minLength": 1.0, "maxLength": 5.0}
    schema["properties"]["zn"] = {"type": "integer", "minimum": 1.0, "maximum": 7.0}
    schema["properties"]["zf"] = {"type": "number", "minimum": 0.5}
    schema["properties"]["za"] = {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 1.0,
        "maxItems": 3.0,
    }
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    reference = (project / "generated/docs/reference.md").read_text(encoding="utf-8")
    assert "| `zz` | string | no | at least 1 characters; at most 5 characters |" in reference
    assert "| `zn` | integer | no | ≥ 1; ≤ 7 |" in reference
    assert "| `zf` | number | no | ≥ 0.5 |" in reference
    assert "| `za` | array of string | no | at least 1 items; at most 3 items |" in reference
    for name in ("python/tool_registry/validator.py", "typescript/validator.ts"):
        source = (project / "generated" / name).read_text(encoding="utf-8")
        assert '"at least 1"' in source and '"at most 7"' in source
        assert ".0" not in "".join(re.findall(r'"at (?:least|most) [^"]*"', source))
    models = (project / "generated/python/tool_registry/models.py").read_text(encoding="utf-8")
    assert "zz:" in models and "zn:" in models


@pytest.mark.parametrize(
    ("sub", "pointer"),
    [
        ({"type": "integer", "enum": [1, 2**53]}, "/enum/1"),
        ({"type": "integer", "enum": [-(2**53) - 1]}, "/enum/0"),
        ({"const": 2**70}, "/const"),
        ({"const": {"a~": [0, 10**30]}}, "/const/a~0/1"),
        ({"enum": [[1], {"n": 9007199254740993}]}, "/enum/1/n"),
    ],
)
def test_an_integer_typescript_cannot_hold_exactly_is_refused_in_enum_and_const(
    sub: dict[str, Any], pointer: str
) -> None:
    found = _diagnose(_with_property(sub))
    assert [(code, at) for code, at, _ in found] == [
        ("SCHEMA_UNSUPPORTED", f"/properties/zz{pointer}")
    ]


def test_the_largest_exact_integer_is_accepted_in_enum_and_const() -> None:
    sub = {"type": "integer", "enum": [2**53 - 1, -(2**53 - 1)]}
    assert _diagnose(_with_property(sub)) == []
    assert _diagnose(_with_property({"const": 2**53 - 1, "type": "integer"})) == []


@pytest.mark.parametrize(
    "ref",
    ["#/%24defs/ToolDetectSpec", "#/$defs/%54oolDetectSpec", "#/$defs/ToolDetect%53pec"],
)
def test_a_needlessly_percent_encoded_ref_is_refused_at_it(ref: str) -> None:
    # The validators decoded it, but types.ts named the type "%54oolDetectSpec" (an unlocated
    # UnsafeIdentifierError) and the editor schema copied it as written.
    schema = copy.deepcopy(MANIFEST_SCHEMA)
    schema["properties"]["detect"]["$ref"] = ref
    found = _diagnose(schema)
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/properties/detect/$ref")
    ]
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    table_schema["$defs"]["LookupMap"]["properties"]["name"]["$ref"] = "#/$defs/%43onstantName"
    found = _diagnose(table_schema=table_schema)
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/$defs/LookupMap/properties/name/$ref")
    ]


def test_a_needed_percent_escape_is_not_taken_for_a_needless_one() -> None:
    schema = _with_property({"$ref": "#/$defs/A%25B"})
    assert [(code, pointer) for code, pointer, _ in _diagnose(schema)] == [
        ("SCHEMA_INVALID", "/properties/zz/$ref")  # names nothing: no "A%B" entry
    ]


def _bundle(manifest: dict[str, Any], table_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return bundle_draft07(table_schema or copy.deepcopy(TABLE_SCHEMA), manifest)


def test_the_editor_schema_follows_a_ref_into_a_property() -> None:
    # Only "#" and "#/$defs/..." were rewritten; any other $ref was an unlocated error.
    bundled = _bundle(_with_property({"$ref": "#/properties/id"}))
    manifest = bundled["definitions"]["ToolManifest"]
    assert manifest["properties"]["zz"] == {"$ref": "#/definitions/ToolManifest/properties/id"}
    validator = Draft7Validator(bundled)
    table = yaml.safe_load(TABLE_TEXT)
    table["tools"][0]["zz"] = "Not An Id"
    assert [list(e.absolute_path) for e in validator.iter_errors(table)] == [["tools", 0, "zz"]]
    table["tools"][0]["zz"] = "an-id"
    assert list(validator.iter_errors(table)) == []


def test_the_editor_schema_follows_a_table_ref_into_the_manifest_by_its_id() -> None:
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    detect = "urn:toolgen:schema:tool-manifest#/$defs/ToolDetectSpec"
    table_schema["$defs"]["Settings"]["properties"]["probe"] = {"$ref": detect}
    bundled = _bundle(copy.deepcopy(MANIFEST_SCHEMA), table_schema)
    probe = bundled["definitions"]["Settings"]["properties"]["probe"]
    assert probe == {"$ref": "#/definitions/ToolDetectSpec"}


@pytest.mark.parametrize(
    ("sub", "defs", "pointer"),
    [
        # A nested $defs is dropped: the rewritten $ref named nothing (silently wrong).
        ({"$ref": "#/$defs/Inner/$defs/Deep"}, {"Inner": {"$defs": {"Deep": {}}}}, "zz/$ref"),
        # ... and so is a value the conversion copies as it is.
        ({"$ref": "#/$defs/Inner/default"}, {"Inner": {"default": {"type": "string"}}}, "zz/$ref"),
        (
            {"allOf": [{"$ref": "#/$defs/Inner/examples/0"}]},
            {"Inner": {"examples": [{}]}},
            "zz/allOf/0/$ref",
        ),
    ],
)
def test_a_ref_the_editor_schema_cannot_express_is_located_at_it(
    sub: dict[str, Any], defs: dict[str, Any], pointer: str
) -> None:
    manifest = _with_property(sub)
    manifest["$defs"].update(defs)
    with pytest.raises(EditorSchemaError) as raised:
        _bundle(manifest)
    assert (raised.value.pointer, raised.value.in_table) == (f"/properties/{pointer}", False)


def test_a_table_definition_named_like_the_manifest_is_located_in_the_table_schema() -> None:
    # The manifest schema, bundled under its title, silently replaced the table's definition.
    table_schema = copy.deepcopy(TABLE_SCHEMA)
    table_schema["$defs"]["ToolManifest"] = {"type": "string"}
    with pytest.raises(EditorSchemaError) as raised:
        _bundle(copy.deepcopy(MANIFEST_SCHEMA), table_schema)
    assert (raised.value.pointer, raised.value.in_table) == ("/$defs/ToolManifest", True)


def test_the_editor_schema_refusal_is_reported_at_the_schema_node(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    path = project / "schema/tools-table.schema.json"
    table_schema = json.loads(path.read_text(encoding="utf-8"))
    table_schema["$defs"]["ToolManifest"] = {"type": "string"}
    text = json.dumps(table_schema, indent=2)
    path.write_text(text, encoding="utf-8")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 1
    line = text.split("\n").index('    "ToolManifest": {') + 1
    assert f"schema/tools-table.schema.json:{line}:21: GENERATION_FAILED" in err
    assert err.splitlines()[0].endswith("(at /$defs/ToolManifest)")
    assert "Traceback" not in err


def _ref_chain(length: int, kind: str) -> dict[str, Any]:
    """The manifest schema with a property at the head of a chain of ``length`` definitions,
    each referring to the next (directly, through ``allOf`` or through a property)."""
    schema = _with_property({"$ref": "#/$defs/D0"})
    for index in range(length):
        ref = {"$ref": f"#/$defs/D{index + 1}"}
        schema["$defs"][f"D{index}"] = {
            "plain": ref,
            "allOf": {"allOf": [ref]},
            "property": {"type": "object", "properties": {"x": ref}},
        }[kind]
    schema["$defs"][f"D{length}"] = {"type": "string"}
    return schema


@pytest.mark.parametrize(("length", "kind"), [(5000, "plain"), (300, "allOf"), (300, "property")])
def test_a_long_ref_chain_is_refused_where_it_begins(length: int, kind: str) -> None:
    # 5,000 definitions each referring to the next: RecursionError in the validator compiler
    # (a traceback from validate_sources; `generate` said only "too deeply", after 74 s).
    found = _diagnose(_ref_chain(length, kind))
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("SCHEMA_UNSUPPORTED", "/properties/zz/$ref")
    ]
    assert found[0][2] is not None


def test_a_ref_chain_within_the_bound_and_recursion_are_accepted() -> None:
    assert _diagnose(_ref_chain(schemas.MAX_REF_CHAIN - 1, "plain")) == []
    tree = _with_property({"$ref": "#/$defs/D0"})
    tree["$defs"]["D0"] = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/D0"}}},
    }
    assert list(validate._long_ref_chains(parse_json(json.dumps(tree), "s.json"))) == []

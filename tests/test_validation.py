"""Diagnostics cases: bad tables and schemas give the expected codes, locations and pointers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.config import load_config
from generator.diagnostics import Code, Diagnostic
from generator.ecma import EcmaDraft202012Validator, ecma_validator, ecma_validator_for_def
from generator.load import parse_json, parse_yaml
from generator.pipeline import build_outputs, validate_sources

from .conftest import REPO

MANIFEST_SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
TABLE_SCHEMA_TEXT = (REPO / "schema/tools-table.schema.json").read_text()
TABLE_TEXT = (REPO / "schema/tools.yaml").read_text()

HEADER = """settings:
  defaultAdaptersDir: "~/.waggle/adapters"
  adaptersDirEnvVar: WAGGLE_ADAPTERS_DIR
  hookPackagePrefix: "@waggle/hive-mind-hooks-"
  manifestMaxBytes: 65536
cohorts:
  - {name: LAUNCH_COHORT, field: launchable}
maps:
  - {name: TOOL_DISPLAY_NAMES, field: displayName}
tools:
"""
ROW = """  - id: {id}
    displayName: {name}
    launchable: true
    hookCapable: true
    hookPointer: .alpha/hive-mind-install.json
    detect: {{kind: path, binaryName: alpha}}
"""


def table(*rows: str, header: str = HEADER) -> str:
    return header + "".join(rows)


def row(identifier: str = "alpha", name: str = "Alpha", **overrides: str) -> str:
    text = ROW.format(id=identifier, name=name)
    for key, value in overrides.items():
        replacement = f"{key}: {value}"
        text = re.sub(
            rf"(?m)^(    |  - ){key}: .*$",
            lambda match, new=replacement: match.group(1) + new,  # type: ignore[misc]
            text,
        )
    return text


def diagnose(text: str) -> list[Diagnostic]:
    manifest = parse_json(json.dumps(MANIFEST_SCHEMA), "schema/tool-manifest.schema.json")
    table_schema = parse_json(TABLE_SCHEMA_TEXT, "schema/tools-table.schema.json")
    return validate_sources(manifest, table_schema, parse_yaml(text, "tools.yaml"))


def codes(found: list[Diagnostic]) -> list[tuple[str, str | None]]:
    return [(d.code.value, d.pointer) for d in found]


def test_the_real_table_is_valid() -> None:
    assert diagnose(TABLE_TEXT) == []
    assert diagnose(table(row())) == []


def test_id_with_a_trailing_newline_is_refused_as_in_ecmascript() -> None:
    # Python's re lets `$` match before a final newline; ECMA-262 does not.
    pattern = MANIFEST_SCHEMA["properties"]["id"]["pattern"]
    assert re.search(pattern, "codex\n") is not None, "premise: Python's re would accept it"
    found = diagnose(table(row(id='"codex\\n"')))
    assert codes(found) == [("SCHEMA_VIOLATION", "/tools/0/id")]
    assert (found[0].line, found[0].column) == (11, 9)
    assert "\\u000a" in found[0].message and "\n" not in found[0].message


def test_ecmascript_digit_class_is_ascii_only() -> None:
    schema = {"type": "string", "pattern": "^\\d+$"}
    assert EcmaDraft202012Validator(schema).is_valid("123")
    assert not EcmaDraft202012Validator(schema).is_valid("\u0663")  # Arabic-Indic three
    assert re.search("^\\d+$", "\u0663"), "premise: Python's re accepts it"


@pytest.mark.parametrize(
    ("field", "value", "pointer"),
    [
        ("id", "Upper", "/tools/0/id"),
        ("id", "-lead", "/tools/0/id"),
        ("id", "a" * 65, "/tools/0/id"),
        ("displayName", '""', "/tools/0/displayName"),
        ("displayName", '"x' + "y" * 80 + '"', "/tools/0/displayName"),
        ("displayName", '"bidi \\u202e trick"', "/tools/0/displayName"),
        ("displayName", '"bell \\x07"', "/tools/0/displayName"),
        ("hookPointer", "/etc/passwd", "/tools/0/hookPointer"),
        ("hookPointer", ".x/../../etc", "/tools/0/hookPointer"),
        ("hookPointer", "..", "/tools/0/hookPointer"),
        ("hookPointer", '"a b"', "/tools/0/hookPointer"),
        ("launchable", '"yes"', "/tools/0/launchable"),
        ("detect", "{kind: path, binaryName: -rf}", "/tools/0/detect/binaryName"),
        ("detect", "{kind: path, binaryName: ..}", "/tools/0/detect/binaryName"),
        ("detect", "{kind: path, binaryName: a/b}", "/tools/0/detect/binaryName"),
        ("detect", "{kind: path}", "/tools/0/detect"),
        ("detect", "{kind: elsewhere}", "/tools/0/detect"),
    ],
)
def test_field_rules(field: str, value: str, pointer: str) -> None:
    found = diagnose(table(row(**{field: value})))
    assert [d.pointer for d in found] == [pointer]
    assert found[0].code in (Code.SCHEMA_VIOLATION, Code.UNKNOWN_FIELD)
    assert found[0].line is not None and found[0].source == "tools.yaml"


@pytest.mark.parametrize(
    ("extra", "pointer"),
    [
        (
            "    promptArgTemplate: ['--print', '{prompt}; rm -rf ~']\n",
            "/tools/0/promptArgTemplate/1",
        ),
        ("    promptArgTemplate: ['$(whoami)']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['a`b`']\n", "/tools/0/promptArgTemplate/0"),
        ('    promptArgTemplate: ["it\'s"]\n', "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: [" + ", ".join(["x"] * 21) + "]\n", "/tools/0/promptArgTemplate"),
        ("    promptArgTemplate: ['--x', '../{prompt}']\n", "/tools/0/promptArgTemplate/1"),
        ("    promptArgTemplate: ['a/..']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['/etc/{prompt}']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['//host/x']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['C:{prompt}']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['-{prompt}']\n", "/tools/0/promptArgTemplate/0"),
        ("    promptArgTemplate: ['--', '--{prompt}']\n", "/tools/0/promptArgTemplate/1"),
        (
            "    capabilities: {provides: [resumable, resumable]}\n",
            "/tools/0/capabilities/provides",
        ),
        ("    capabilities: {provides: [telepathy]}\n", "/tools/0/capabilities/provides/0"),
        ("    category: web-app\n", "/tools/0/category"),
        ("    hookPackage: 'Not A Package'\n", "/tools/0/hookPackage"),
    ],
)
def test_optional_field_rules(extra: str, pointer: str) -> None:
    found = diagnose(table(row() + extra))
    assert codes(found) == [("SCHEMA_VIOLATION", pointer)]


def test_missing_required_fields_are_each_reported_at_the_row() -> None:
    text = table("  - id: alpha\n    displayName: Alpha\n")
    found = diagnose(text)
    missing = sorted(d.message for d in found)
    assert all(d.pointer == "/tools/0" and (d.line, d.column) == (11, 5) for d in found)
    assert len(missing) == 4 and all("missing required property" in m for m in missing)


def test_unknown_field_is_located_at_its_key_with_a_suggestion() -> None:
    found = diagnose(table(row() + "    hookCapabel: true\n"))
    assert codes(found) == [("UNKNOWN_FIELD", "/tools/0/hookCapabel")]
    assert (found[0].line, found[0].column) == (17, 5)
    assert found[0].hint is not None and "hookCapable" in found[0].hint


def test_candidates_with_a_binary_name_is_an_unknown_field() -> None:
    found = diagnose(table(row(detect="{kind: candidates, binaryName: x}")))
    assert codes(found) == [("UNKNOWN_FIELD", "/tools/0/detect/binaryName")]


def test_duplicate_ids() -> None:
    found = diagnose(table(row("alpha"), row("beta"), row("alpha", "Alpha Two")))
    assert codes(found) == [("DUPLICATE_ID", "/tools/2/id")]
    assert found[0].line == 23 and "line 11" in found[0].message


def test_a_row_cannot_claim_not_to_be_builtin() -> None:
    assert codes(diagnose(table(row() + "    builtin: false\n"))) == [
        ("BUILTIN_CONFLICT", "/tools/0/builtin")
    ]
    assert diagnose(table(row() + "    builtin: true\n")) == []


def test_cohort_and_map_declarations_must_name_fitting_fields() -> None:
    header = HEADER.replace("field: launchable", "field: launchabel").replace(
        "field: displayName", "field: launchable"
    )
    found = diagnose(table(row(), header=header))
    assert codes(found) == [
        ("UNKNOWN_DECLARED_FIELD", "/cohorts/0/field"),
        ("DECLARED_FIELD_TYPE", "/maps/0/field"),
    ]
    assert found[0].hint is not None and "launchable" in found[0].hint
    optional = HEADER.replace("field: launchable", "field: builtin")
    assert codes(diagnose(table(row(), header=optional))) == [
        ("DECLARED_FIELD_TYPE", "/cohorts/0/field")
    ]


def test_constant_names_must_be_unique_and_not_reserved() -> None:
    header = HEADER.replace("name: TOOL_DISPLAY_NAMES", "name: LAUNCH_COHORT")
    assert codes(diagnose(table(row(), header=header))) == [("DUPLICATE_CONSTANT", "/maps/0/name")]
    header = HEADER.replace("name: LAUNCH_COHORT", "name: SUPPORTED_TOOLS")
    assert codes(diagnose(table(row(), header=header))) == [
        ("DUPLICATE_CONSTANT", "/cohorts/0/name")
    ]
    header = HEADER.replace("name: LAUNCH_COHORT", "name: BUILTIN_TOOL_MANIFESTS_BY_ID")
    assert codes(diagnose(table(row(), header=header))) == [
        ("DUPLICATE_CONSTANT", "/cohorts/0/name")
    ]
    header = HEADER.replace("name: LAUNCH_COHORT", "name: MANIFEST_MAX_BYTES")
    assert codes(diagnose(table(row(), header=header))) == [
        ("DUPLICATE_CONSTANT", "/cohorts/0/name")
    ]


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        (
            HEADER.replace("maps:", "cohorts:\n  - {name: X, field: launchable}\nmaps:") + row(),
            "DUPLICATE_KEY",
            8,
        ),
        (table(row() + "    category: &c cli-agent\n"), "YAML_ALIAS", 17),
        (table(row(), row("beta", name="*a")), "YAML_ALIAS", 18),
        (table(row(name="!!python/object/apply:os.system [ls]")), "YAML_UNSAFE_TAG", 12),
        (table(row(name="2024-01-01")), "YAML_UNSUPPORTED_VALUE", 12),
        (table(row()) + "  - [unclosed\n", "YAML_SYNTAX", 18),
        (table(row() + "    [1, 2]: x\n"), "NON_STRING_KEY", 17),
    ],
)
def test_unsafe_or_malformed_yaml(text: str, code: str, line: int) -> None:
    found = diagnose(text)
    assert [d.code.value for d in found] == [code]
    assert found[0].line == line


def test_values_yaml_versions_read_differently_are_refused() -> None:
    # YAML 1.1 (PyYAML) reads these as booleans or integers, YAML 1.2 (editors) as strings.
    for value in ("yes", "No", "on", "OFF", "0777", "1_000", "1:30", "0b101"):
        found = diagnose(table(row(displayName=value)))
        assert [(d.code.value, d.pointer) for d in found] == [
            ("YAML_UNSUPPORTED_VALUE", "/tools/0/displayName")
        ], value
        assert found[0].line == 12
    for value in ("true", "False", "42", "-7", "0", "'yes'", '"0777"'):
        assert all(
            d.code.value != "YAML_UNSUPPORTED_VALUE"
            for d in diagnose(table(row(displayName=value)))
        )


def test_alias_bomb_fails_at_once() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(20)
    )
    # Nothing is expanded: each anchor and each alias is reported once, at its own place.
    found = parse_yaml(bomb, "bomb.yaml").diagnostics
    assert [d.code.value for d in found] == ["YAML_ALIAS"] * (21 + 20 * 3)
    assert len({(d.line, d.column) for d in found}) == len(found)


def test_same_data_in_another_yaml_style_validates_the_same() -> None:
    flow = table(
        "  - {detect: {binaryName: alpha, kind: path}, id: alpha, hookPointer: .alpha/p.json,"
        " launchable: true, hookCapable: false, displayName: Alpha}\n"
    )
    assert diagnose(flow) == []


def _schema_with(change: dict[str, Any]) -> str:
    schema = json.loads(json.dumps(MANIFEST_SCHEMA))
    schema.update(change)
    return json.dumps(schema)


@pytest.mark.parametrize(
    ("text", "code", "pointer"),
    [
        ('{"a": 1, "a": 2}', "DUPLICATE_KEY", None),
        ("{", "JSON_SYNTAX", None),
        ('{"x": NaN}', "JSON_SYNTAX", None),
        (_schema_with({"type": "objekt"}), "SCHEMA_INVALID", "/type"),
        (
            _schema_with({"$schema": "http://json-schema.org/draft-07/schema#"}),
            "SCHEMA_INVALID",
            "/$schema",
        ),
        (_schema_with({"title": "not an identifier"}), "SCHEMA_INVALID", "/title"),
        (_schema_with({"$defs": {}}), "SCHEMA_INVALID", None),
        (
            _schema_with({"properties": {"id": {"type": "string", "pattern": "(?<name"}}}),
            "SCHEMA_INVALID",
            "/properties/id/pattern",
        ),
    ],
)
def test_bad_manifest_schemas(text: str, code: str, pointer: str | None) -> None:
    manifest = parse_json(text, "schema.json")
    table_schema = parse_json(TABLE_SCHEMA_TEXT, "table-schema.json")
    found = validate_sources(manifest, table_schema, parse_yaml(TABLE_TEXT, "tools.yaml"))
    assert found and found[0].code.value == code
    if pointer is not None:
        assert pointer in [d.pointer for d in found]


def test_schema_file_errors_are_located_by_line_and_column() -> None:
    text = (REPO / "schema/tool-manifest.schema.json").read_text()
    broken = text.replace('"type": "boolean"', '"type": "bool"', 1)
    manifest = parse_json(broken, "schema.json")
    found = validate_sources(
        manifest, parse_json(TABLE_SCHEMA_TEXT, "t.json"), parse_yaml(TABLE_TEXT, "y")
    )
    [first] = [d for d in found if d.pointer == "/properties/launchable/type"]
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if '"type": "bool"' in text)
    assert (first.code, first.line) == (Code.SCHEMA_INVALID, line)
    duplicate = parse_json('{\n  "a": 1,\n  "a": 2\n}', "dup.json")
    assert [(d.code, d.line, d.column) for d in duplicate.diagnostics] == [
        (Code.DUPLICATE_KEY, 3, 3)
    ]


def test_third_party_root_allows_only_path_detection() -> None:
    third_party = ecma_validator_for_def(MANIFEST_SCHEMA, "ThirdPartyToolManifest")
    manifest = {
        "id": "aider",
        "displayName": "Aider",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".aider/p.json",
        "detect": {"kind": "path", "binaryName": "aider"},
    }
    assert third_party.is_valid(manifest)
    assert not third_party.is_valid({**manifest, "detect": {"kind": "candidates"}})
    assert not third_party.is_valid({**manifest, "id": "aider\n"})
    assert not third_party.is_valid({**manifest, "surprise": 1})
    builtin = ecma_validator(MANIFEST_SCHEMA)
    assert builtin.is_valid({**manifest, "detect": {"kind": "candidates"}})


def test_invalid_input_through_the_whole_pipeline_gives_no_outputs(project: Path) -> None:
    table_path = project / "schema/tools.yaml"
    text = table_path.read_text()
    rows = yaml.safe_load(text)["tools"]
    row = next(i for i, r in enumerate(rows) if r["detect"].get("binaryName") == "codex")
    table_path.write_text(text.replace("binaryName: codex", "binaryName: 'codex;rm'"))
    result = build_outputs(load_config(project))
    assert not result.ok and result.outputs == {}
    assert [(d.code, d.source, d.pointer) for d in result.diagnostics] == [
        (Code.SCHEMA_VIOLATION, "schema/tools.yaml", f"/tools/{row}/detect/binaryName")
    ]


def test_a_schema_name_unfit_for_code_is_refused_at_its_key(project: Path) -> None:
    from .conftest import run_toolgen

    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["Bad-Name"] = {"type": "string"}
    path.write_text(json.dumps(schema))
    before = (project / "generated/typescript/types.ts").read_bytes()
    result = run_toolgen("generate", "--project", str(project))
    assert result.returncode == 1
    assert "SCHEMA_UNSUPPORTED" in result.stderr and "Traceback" not in result.stderr
    assert "(at /$defs/Bad-Name)" in result.stderr
    assert (project / "generated/typescript/types.ts").read_bytes() == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_value_or_diagnostics_never_an_exception(text: str) -> None:
    loaded = parse_yaml(text, "fuzz.yaml")
    # Only a document that does not parse has no value; any other problem is reported at its
    # node and leaves a value (with placeholders) for the later checks.
    unparsed = any(d.code.value == "YAML_SYNTAX" for d in loaded.diagnostics)
    if unparsed:
        assert loaded.value is None and len(loaded.diagnostics) == 1
    elif loaded.value is None and loaded.diagnostics:
        # A null document, or the whole document is a refused node.
        assert loaded.refused in (frozenset(), frozenset({""}))
    if loaded.diagnostics:
        assert all(
            d.source == "fuzz.yaml"
            and d.code.value.startswith(("YAML_", "DUPLICATE_KEY", "NON_STRING", "NUMBER_"))
            for d in loaded.diagnostics
        )


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "settings": json_values,
            "cohorts": json_values,
            "maps": json_values,
            "tools": json_values,
        },
    )
)
def test_any_table_shape_gives_diagnostics_never_an_exception(value: dict[str, Any]) -> None:
    text = json.dumps(value)
    found = diagnose(text)
    assert all(isinstance(d, Diagnostic) and d.source == "tools.yaml" for d in found)


@pytest.mark.parametrize(
    "ref",
    [
        "./tool-manifest.schema.json",
        "urn:toolgen:schema:other",
        "https://example.com/x.json",
        "urn:toolgen:schema:tool-manifest#/$defs/Nope",
        "urn:toolgen:schema:tools-table#/$defs/Nope",
    ],
)
def test_a_table_schema_ref_naming_nothing_is_located_not_an_internal_error(
    tmp_path: Path, ref: str
) -> None:
    # The table schema may name the manifest schema by its $id; any other document was an
    # internal error (referencing's Unresolvable) while the table was validated.
    table_schema = json.loads(TABLE_SCHEMA_TEXT)
    table_schema["properties"]["tools"]["items"] = {"$ref": ref}
    text = json.dumps(table_schema, indent=2)
    found = validate_sources(
        parse_json(json.dumps(MANIFEST_SCHEMA), "schema/tool-manifest.schema.json"),
        parse_json(text, "schema/tools-table.schema.json"),
        parse_yaml(TABLE_TEXT, "schema/tools.yaml"),
    )
    assert [(d.code, d.source, d.pointer) for d in found] == [
        (Code.SCHEMA_INVALID, "schema/tools-table.schema.json", "/properties/tools/items/$ref")
    ], found
    assert found[0].line is not None and "names nothing" in found[0].message


def test_a_table_schema_ref_into_the_manifest_by_its_id_still_works() -> None:
    table_schema = json.loads(TABLE_SCHEMA_TEXT)
    table_schema["properties"]["tools"]["items"] = {
        "$ref": "urn:toolgen:schema:tool-manifest#/$defs/ThirdPartyToolManifest"
    }
    found = validate_sources(
        parse_json(json.dumps(MANIFEST_SCHEMA), "schema/tool-manifest.schema.json"),
        parse_json(json.dumps(table_schema), "schema/tools-table.schema.json"),
        parse_yaml(TABLE_TEXT, "schema/tools.yaml"),
    )
    assert Code.SCHEMA_INVALID not in {d.code for d in found}  # rows checked as adapters

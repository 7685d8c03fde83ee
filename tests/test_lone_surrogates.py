"""Lone UTF-16 surrogates (``"\\ud800"`` in JSON text) have no UTF-8 encoding: the boundary
refuses them wherever a string can hide (values, array items, keys, unconstrained positions),
as I-JSON (RFC 7493) does, and every record it prints about them encodes cleanly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    DiagnosticCode,
    load_third_party_manifests,
    schema_runtime,
    validate_third_party_manifest,
    validate_tool_manifest,
)

from generator import load, schema_subset, validator_compiler
from generator.diagnostics import Code as BuildCode
from generator.diagnostics import render_text

from .conftest import run_toolgen
from .test_runtime_bounds import manifest

Code = DiagnosticCode
LONE = "\ud800"


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        ({"displayName": f"Aider{LONE}"}, "/displayName"),
        ({"displayName": "\udfff"}, "/displayName"),
        ({"promptArgTemplate": ["--message", f"{LONE}{{prompt}}"]}, "/promptArgTemplate/1"),
        ({"hookPackage": f"x{LONE}"}, "/hookPackage"),
        ({"detect": {"kind": "path", "binaryName": f"a{LONE}"}}, "/detect/binaryName"),
    ],
)
def test_the_validator_refuses_a_lone_surrogate(changes: dict[str, Any], pointer: str) -> None:
    for validate in (validate_tool_manifest, validate_third_party_manifest):
        found = validate(manifest(**changes))
        assert (Code.LONE_SURROGATE, pointer) in {(d.code, d.pointer) for d in found}
        for diagnostic in found:
            diagnostic.message.encode("utf-8")  # escaped: never raises
            json.dumps(diagnostic.as_json(), ensure_ascii=False).encode("utf-8")


def test_a_surrogate_pair_is_an_ordinary_character() -> None:
    # JSON's escaped pair decodes to one astral character; two surrogates in a Python str do not.
    assert validate_third_party_manifest(manifest(displayName="Aider \U0001f600")) == ()
    two = validate_third_party_manifest(manifest(displayName="Aider \ud83d\ude00"))
    assert Code.LONE_SURROGATE in {d.code for d in two}
    text = json.dumps(manifest(displayName="Aider \U0001f600"))  # ensure_ascii: a \ud83d\ude00 pair
    assert "\\ud83d\\ude00" in text
    assert validate_third_party_manifest(json.loads(text)) == ()


def test_the_loader_refuses_the_file_and_keeps_its_neighbours(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"id": "x", "displayName": "A\\ud800"}', "utf-8")
    (tmp_path / "b.json").write_text(json.dumps(manifest()), "utf-8")
    (tmp_path / "c.json").write_text(
        json.dumps(manifest(id="other", displayName="Other")).replace('"Other"', '"Other\\udc00"'),
        "utf-8",
    )
    result = load_third_party_manifests(tmp_path)
    assert [m.id for m in result.manifests] == ["aider"]
    by_file = {report.source: report for report in result.files}
    assert not by_file["a.json"].accepted and not by_file["c.json"].accepted
    assert Code.LONE_SURROGATE in {d.code for d in by_file["c.json"].diagnostics}
    for diagnostic in result.diagnostics:
        diagnostic.message.encode("utf-8")


def test_a_surrogate_in_a_key_is_shown_escaped(tmp_path: Path) -> None:
    (tmp_path / "k.json").write_text(
        json.dumps(manifest(detect={"kind": "path", "binaryName": "a", "x\udbff": 1})), "utf-8"
    )
    (report,) = load_third_party_manifests(tmp_path).files
    assert not report.accepted
    assert [(d.code, d.pointer) for d in report.diagnostics] == [
        (Code.LONE_SURROGATE, "/detect/x\\udbff")
    ]
    for diagnostic in report.diagnostics:
        diagnostic.render().encode("utf-8")


def _compiled(schema: dict[str, Any]) -> dict[str, Any]:
    source = validator_compiler.compile_validators(
        schema, {"validate": ""}, package="tool_registry"
    )
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    return namespace


@pytest.mark.parametrize(
    ("schema", "document", "pointer"),
    [
        ({}, {"a": [1, {"b": LONE}]}, "/a/1/b"),
        ({"type": "object"}, {f"k{LONE}": 1}, "/k\\ud800"),
        ({"type": "array"}, ["ok", LONE], "/1"),
        ({"type": "array", "items": True}, [LONE], "/0"),
        ({"properties": {"a": {"type": "integer"}}}, {"a": 1, "b": LONE}, "/b"),
        ({"not": {"type": "number"}}, LONE, ""),
        ({"type": "string"}, LONE, ""),
    ],
)
def test_schemas_leaving_positions_open_still_refuse_surrogates(
    schema: dict[str, Any], document: Any, pointer: str
) -> None:
    validate = _compiled(schema)["validate"]
    found = validate(document)
    assert [(d.code, d.pointer) for d in found] == [(Code.LONE_SURROGATE, pointer)]
    assert validate(json.loads(json.dumps(document).replace("\\ud800", "x"))) == ()


def test_the_compiler_and_the_runtime_agree_on_the_marker_keyword() -> None:
    assert schema_subset.SURROGATE_KEYWORD == schema_runtime.SURROGATE_KEYWORD


# Build time: the table and the schema files are refused the same way, each occurrence located.


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('settings:\n  a: "x\\ud800"\n', (2, 6, "/settings/a")),
        ('settings:\n  list: [ok, "\\udfff"]\n', (2, 14, "/settings/list/1")),
        ('settings:\n  "k\\udc00": 1\n', (2, 3, "/settings")),
        ('settings:\n  pair: "\\ud83d\\ude00"\n', (2, 9, "/settings/pair")),
    ],
)
def test_yaml_escapes_making_a_lone_surrogate_are_located(
    text: str, where: tuple[int, int, str]
) -> None:
    loaded = load.parse_yaml(text, "t.yaml")
    found = [(d.code, d.line, d.column, d.pointer) for d in loaded.diagnostics]
    assert found == [(BuildCode.LONE_SURROGATE, *where)]
    for diagnostic in loaded.diagnostics:
        render_text(diagnostic).encode("utf-8")


def test_an_astral_character_in_yaml_is_fine() -> None:
    loaded = load.parse_yaml('settings:\n  a: "\\U0001F600 \U0001f600"\n', "t.yaml")
    assert loaded.diagnostics == ()


def test_json_sources_refuse_every_lone_surrogate_with_its_place() -> None:
    text = '{\n  "a": "\\ud800",\n  "b": ["\\ud83d\\ude00", "\\udc00x"],\n  "c\\udbff": 1\n}\n'
    loaded = load.parse_json(text, "s.json")
    assert loaded.value is None
    found = {(d.code, d.line, d.pointer) for d in loaded.diagnostics}
    assert found == {
        (BuildCode.LONE_SURROGATE, 2, "/a"),
        (BuildCode.LONE_SURROGATE, 3, "/b/1"),
        (BuildCode.LONE_SURROGATE, 1, "/c\\udbff"),  # a refused key: its object's place
    }
    for diagnostic in loaded.diagnostics:
        render_text(diagnostic).encode("utf-8")
    assert load.parse_json('{"a": "\\ud83d\\ude00"}', "s.json").diagnostics == ()


def test_generate_refuses_a_table_with_a_lone_surrogate(project: Path) -> None:
    path = project / "schema/tools.yaml"
    text = path.read_text()
    first_name = re.search(r"displayName: (.*)", text)
    assert first_name is not None
    path.write_text(text.replace(first_name.group(0), 'displayName: "Claude\\ud800"', 1))
    before = {p: p.read_bytes() for p in (project / "generated").rglob("*") if p.is_file()}
    result = run_toolgen("generate", "--project", str(project), env={"PYTHONIOENCODING": "utf-8"})
    assert result.returncode == 1
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    line = text[: first_name.start()].count("\n") + 1
    assert f"schema/tools.yaml:{line}:" in result.stderr
    assert "LONE_SURROGATE" in result.stderr
    after = {p: p.read_bytes() for p in (project / "generated").rglob("*") if p.is_file()}
    assert after == before, "nothing is written when an input is refused"


@pytest.mark.parametrize(
    "text",
    [
        '{"id": "aider", "\\ud800": 1}',
        '{"id": "aider", "unknown": "\\ud800"}',
        '{"id": "aider", "unknown": {"deep": ["x", "\\udfff"]}}',
    ],
)
def test_a_lone_surrogate_in_a_dropped_field_still_refuses_the_file(
    tmp_path: Path, text: str
) -> None:
    document = json.loads(text)
    document.update({k: v for k, v in manifest().items() if k != "id"})
    (tmp_path / "x.json").write_text(json.dumps(document), encoding="utf-8")
    (report,) = load_third_party_manifests(tmp_path).files
    assert not report.accepted
    assert [d.code for d in report.diagnostics] == [Code.LONE_SURROGATE]
    report.diagnostics[0].render().encode("utf-8")

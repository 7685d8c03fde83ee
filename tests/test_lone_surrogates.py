"""Lone UTF-16 surrogates (``"\\ud800"`` in JSON text) have no UTF-8 encoding: the boundary
refuses them wherever a string can hide (values, array items, keys, unconstrained positions),
as I-JSON (RFC 7493) does, and every record it prints about them encodes cleanly."""

from __future__ import annotations

import json
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

from generator import validator_compiler

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
    assert [d.code for d in two] == [Code.LONE_SURROGATE]
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
    pointers = [d.pointer for d in report.diagnostics]
    assert "/detect/x\\udbff" in pointers
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
        ({"type": "object"}, {f"k{LONE}": 1}, ""),
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
    assert validator_compiler.SURROGATE_KEYWORD == schema_runtime.SURROGATE_KEYWORD

"""A boolean subschema in the manifest schema (``true`` admits anything, ``false`` nothing) is
judged like any other: found by fuzzing the schema, a ``false`` branch of a ``oneOf`` and a
property schema ``true`` were internal errors (jsonschema's error for a ``false`` branch has no
branch index to sort by; the Python model renderer called ``.get`` on ``true``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., tuple[int, str, str]]

MANIFEST = "schema/tool-manifest.schema.json"


def _edit(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / MANIFEST
    schema = json.loads(path.read_text())
    change(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n")


def _check(project: Path, run_cli: Run) -> list[dict[str, Any]]:
    code, out, err = run_cli("check", "--full", "--project", str(project), "--format", "json")
    document = json.loads(out)
    assert "error" not in document, document["error"]
    assert code == 1, err
    findings: list[dict[str, Any]] = document["diagnostics"]
    return findings


def test_a_false_branch_of_a_union(project: Path, run_cli: Run) -> None:
    def change(schema: dict[str, Any]) -> None:
        branches = schema["$defs"]["ToolDetectSpec"]["oneOf"]
        branches[1] = False  # the `candidates` shape: no row of that kind is valid now

    _edit(project, change)
    findings = _check(project, run_cli)
    assert findings
    assert {f["code"] for f in findings} == {"SCHEMA_VIOLATION"}
    assert all(f["source"] == "schema/tools.yaml" and f["line"] for f in findings)
    assert all(f["pointer"].endswith("/detect") for f in findings)


def test_a_false_branch_still_admits_the_others(project: Path, run_cli: Run) -> None:
    def change(schema: dict[str, Any]) -> None:
        schema["$defs"]["ToolDetectSpec"]["oneOf"].append(False)

    _edit(project, change)
    code, _, err = run_cli("check", "--full", "--project", str(project))
    assert "internal error" not in err
    assert code in (0, 1), err


def test_a_true_property_schema(project: Path, run_cli: Run) -> None:
    def change(schema: dict[str, Any]) -> None:
        schema["properties"]["category"] = True

    _edit(project, change)
    for finding in _check(project, run_cli):
        assert finding["code"] in {"GENERATION_FAILED", "SCHEMA_UNSUPPORTED", "SCHEMA_INVALID"}
        assert finding["source"] == MANIFEST


def test_a_boolean_adapter_root(project: Path, run_cli: Run) -> None:
    # Every subschema position of the shipped schema was set to `true` and to `false` in turn:
    # only the adapter root, read as an object by the reference and the type emitters, failed.
    for value in (True, False):

        def change(schema: dict[str, Any], value: bool = value) -> None:
            schema["$defs"]["ThirdPartyToolManifest"] = value

        _edit(project, change)
        [finding] = _check(project, run_cli)
        assert finding["code"] == "SCHEMA_UNSUPPORTED"
        assert finding["pointer"] == "/$defs/ThirdPartyToolManifest"
        assert finding["line"]

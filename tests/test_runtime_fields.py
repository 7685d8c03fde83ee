"""The generated runtime reads some manifest fields by name (the id, the display name, the launch
flag, the hook pointer, the hook package, the built-in flag, the capabilities) and the capability
vocabulary (``$defs/Capability``, a string enum: ``CAPABILITIES``, ``CAP_*``, ``Capability``): a
manifest schema that leaves one out, makes a required one optional or gives it another type is
refused at generation (``SCHEMA_UNSUPPORTED``, located), before anything is written.

It used to be an internal error (``KeyError: 'id'``) for the id, the display name and the launch
flag, and for the others a successful ``generate`` that wrote a package mypy --strict or tsc
refused (``"ToolManifest" has no attribute "hookPointer"``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

Run = Callable[..., tuple[int, str, str]]
SCHEMA = "schema/tool-manifest.schema.json"
TABLE = "schema/tools.yaml"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _edit(project: Path, change: Callable[[dict[str, Any]], None], field: str) -> None:
    path = project / SCHEMA
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    if field not in schema["properties"]:  # nor do the adapter examples (they are checked)
        for example in schema["$defs"]["ThirdPartyToolManifest"].get("examples", []):
            example.pop(field, None)
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    table = yaml.safe_load((project / TABLE).read_text(encoding="utf-8"))
    if field not in schema["properties"]:  # the rows follow the schema: no such field
        for row in table["tools"]:
            row.pop(field, None)
        for section in ("cohorts", "maps"):
            table[section] = [entry for entry in table[section] if entry["field"] != field]
    (project / TABLE).write_text(yaml.safe_dump(table, sort_keys=False), encoding="utf-8")


def _removed(field: str) -> Callable[[dict[str, Any]], None]:
    def change(schema: dict[str, Any]) -> None:
        del schema["properties"][field]
        schema["required"] = [name for name in schema["required"] if name != field]

    return change


def _optional(field: str) -> Callable[[dict[str, Any]], None]:
    def change(schema: dict[str, Any]) -> None:
        schema["required"] = [name for name in schema["required"] if name != field]

    return change


def _retyped(field: str, kind: str) -> Callable[[dict[str, Any]], None]:
    def change(schema: dict[str, Any]) -> None:
        schema["properties"][field] = {"type": kind}

    return change


def _renamed_capability(schema: dict[str, Any]) -> None:
    # The capability vocabulary (CAPABILITIES, CAP_*, the Capability type) is $defs/Capability.
    text = json.dumps(schema).replace('"#/$defs/Capability"', '"#/$defs/Skill"')
    schema.clear()
    schema.update(json.loads(text))
    schema["$defs"]["Skill"] = schema["$defs"].pop("Capability")


def _capability_without_enum(schema: dict[str, Any]) -> None:
    schema["$defs"]["Capability"] = {"type": "string", "pattern": "^[a-z-]+$"}


CASES = {
    **{
        f"{field} removed": (field, _removed(field), "/properties")
        for field in (
            "id",
            "displayName",
            "launchable",
            "hookPointer",
            "hookPackage",
            "builtin",
            "capabilities",
        )
    },
    **{
        f"{field} optional": (field, _optional(field), "/required")
        for field in ("id", "displayName", "launchable", "hookPointer")
    },
    "hookPackage a number": ("hookPackage", _retyped("hookPackage", "number"), None),
    "Capability renamed": ("Capability", _renamed_capability, "/$defs"),
    "Capability no enum": ("Capability", _capability_without_enum, "/$defs/Capability"),
    "builtin a string": ("builtin", _retyped("builtin", "string"), None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_schema_without_a_field_the_runtime_reads_is_refused(
    project: Path, run_cli: Run, case: str
) -> None:
    field, change, pointer = CASES[case]
    _edit(project, change, field)
    before = _snapshot(project / "generated")
    code, out, err = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1, (out, err)
    assert "internal error" not in out + err
    diagnostics = json.loads(out)["diagnostics"]
    assert [d["code"] for d in diagnostics] == ["SCHEMA_UNSUPPORTED"], diagnostics
    (diagnostic,) = diagnostics
    assert diagnostic["source"] == SCHEMA and diagnostic["line"] is not None
    assert diagnostic["pointer"] == (pointer or f"/properties/{field}")
    assert field in diagnostic["message"]
    assert _snapshot(project / "generated") == before


def test_fields_the_runtime_does_not_read_may_go(project: Path, run_cli: Run) -> None:
    for field in ("library", "category", "mcpServer", "promptArgTemplate"):
        _edit(project, _removed(field), field)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err

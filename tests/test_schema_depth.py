"""Hostile schema shapes end in located diagnostics, never ``internal error: RecursionError``:
nesting beyond ``load.MAX_NESTING`` is refused where it starts, and a ``$ref`` cycle that never
descends into the value (which every validator would follow forever) is refused at its ``$ref``.
Deep schemas within the limit and recursive schemas that descend still generate."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, str, str]]


def _nested(levels: int, keyword: str = "allOf") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": ["cli-agent", "desktop-app"]}
    for _ in range(levels):
        schema = {keyword: [schema]}
    return schema


def _with(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    change(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n")


def _check(run_cli: Run, project: Path) -> tuple[int, str]:
    code, _, err = run_cli("check", "--project", str(project), "--full")
    assert "internal error" not in err and "Traceback" not in err
    return code, err


@pytest.mark.parametrize("keyword", ["allOf", "anyOf", "oneOf"])
def test_a_deeply_nested_schema_is_a_located_error(
    project: Path, run_cli: Run, keyword: str
) -> None:
    _with(project, lambda s: s["properties"].__setitem__("category", _nested(81, keyword)))
    code, err = _check(run_cli, project)
    assert code == 1
    assert "schema/tool-manifest.schema.json:" in err and "JSON_SYNTAX" in err
    assert "nesting is too deep (more than 64 levels)" in err
    line = err.splitlines()[0]
    assert line.split(":")[1].isdigit() and line.split(":")[2].isdigit(), line


def test_a_deep_schema_within_the_limit_generates(project: Path, run_cli: Run) -> None:
    _with(project, lambda s: s["properties"].__setitem__("category", _nested(28)))
    assert run_cli("generate", "--project", str(project))[0] == 0
    assert _check(run_cli, project)[0] == 0


def _cycle(schema: dict[str, Any]) -> None:
    schema["$defs"]["A"] = {"allOf": [{"$ref": "#/$defs/B"}]}
    schema["$defs"]["B"] = {"anyOf": [{"not": {"$ref": "#/$defs/A"}}]}
    schema["properties"]["category"] = {"$ref": "#/$defs/A"}


def _self(schema: dict[str, Any]) -> None:
    schema["$defs"]["Loop"] = {"$ref": "#/$defs/Loop"}


@pytest.mark.parametrize(
    ("change", "pointer"), [(_cycle, "/$defs/A/allOf/0/$ref"), (_self, "/$defs/Loop/$ref")]
)
def test_an_in_place_ref_cycle_is_refused_at_its_ref(
    project: Path, run_cli: Run, change: Callable[[dict[str, Any]], None], pointer: str
) -> None:
    _with(project, change)
    code, err = _check(run_cli, project)
    assert code == 1
    [diagnostic] = [line for line in err.splitlines() if "SCHEMA_INVALID" in line]
    assert diagnostic.startswith("schema/tool-manifest.schema.json:")
    assert f"(at {pointer})" in diagnostic and "$ref cycle" in diagnostic


def test_a_recursive_schema_that_descends_still_generates(project: Path, run_cli: Run) -> None:
    def tree(schema: dict[str, Any]) -> None:
        schema["$defs"]["Tree"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "child": {"$ref": "#/$defs/Tree"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
            },
        }
        schema["properties"]["extra"] = {"$ref": "#/$defs/Tree"}

    _with(project, tree)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err

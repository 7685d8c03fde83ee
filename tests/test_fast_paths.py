"""The scale work's fast paths change no result: compiled verdicts only ever say "valid" (what
they reject is judged by jsonschema as before), the collector is paused only while valid sources
become outputs, and ruff runs beside the rendering of the other files."""

from __future__ import annotations

import copy
import gc
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import pipeline, python_models, render, validate, verdicts
from generator.config import load_config
from generator.diagnostics import Code, Diagnostic
from generator.load import Loaded, parse_yaml
from generator.targets import TARGETS

from .conftest import REPO
from .test_validation import HEADER, TABLE_TEXT, diagnose, row, table
from .test_validator_differential import _mutate

MANIFEST_SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
TABLE_SCHEMA = json.loads((REPO / "schema/tools-table.schema.json").read_text())
REAL_TABLE = parse_yaml(TABLE_TEXT, "schema/tools.yaml").value
FAILING_ROW = row("Bad_Id", "Beta", detect="{kind: pathx, binaryName: beta}")


def _slow() -> Any:
    """jsonschema alone, as before the fast path: no compiled verdict for the rows."""
    return mock.patch.object(verdicts, "manifest_verdict", return_value=None)


def _table_findings(value: Any) -> list[Diagnostic]:
    return validate.validate_table(Loaded("tools.yaml", value), MANIFEST_SCHEMA, TABLE_SCHEMA)


def test_a_failing_row_among_valid_ones_gets_exactly_the_jsonschema_diagnostics() -> None:
    text = table(row("alpha"), FAILING_ROW, row("gamma", "Gamma"))
    with _slow():
        reference = diagnose(text)
    asked: list[tuple[str, bool]] = []
    real = verdicts.manifest_verdict

    def recording(schema: Any) -> verdicts.Verdict | None:
        verdict = real(schema)
        assert verdict is not None

        def answer(value: Any) -> bool:
            asked.append((value["id"], verdict(value)))
            return asked[-1][1]

        return answer

    with mock.patch.object(verdicts, "manifest_verdict", recording):
        found = diagnose(text)
    # Each row was asked about; only the failing one went on to jsonschema.
    assert asked == [("alpha", True), ("Bad_Id", False), ("gamma", True)]
    assert found == reference
    assert [(d.code, d.pointer, d.line, d.message) for d in found] == [
        (
            Code.SCHEMA_VIOLATION,
            "/tools/1/id",
            17,
            '"Bad_Id" does not match the pattern "^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$"',
        ),
        (Code.SCHEMA_VIOLATION, "/tools/1/detect", 22, "matches none of the allowed shapes"),
    ]


def test_jsonschema_does_not_walk_a_row_the_verdict_accepts() -> None:
    # A verdict that accepted everything would hide the failing row's schema errors (which is
    # why it may only accept what the schema accepts); the cross-row rules still run on it.
    text = table(row("alpha"), FAILING_ROW, row("alpha", "Alpha again"))
    with mock.patch.object(verdicts, "manifest_verdict", return_value=lambda value: True):
        found = diagnose(text)
    assert [(d.code, d.pointer) for d in found] == [(Code.DUPLICATE_ID, "/tools/2/id")]


def test_the_table_level_rules_are_still_checked_by_jsonschema() -> None:
    text = table(row("alpha"), header=HEADER.replace("manifestMaxBytes: 65536", "bogus: 1"))
    with _slow():
        reference = diagnose(text)
    assert diagnose(text) == reference
    assert {(d.code, d.pointer) for d in reference} == {
        (Code.UNKNOWN_FIELD, "/settings/bogus"),
        (Code.SCHEMA_VIOLATION, "/settings"),
    }


def _rows(data: st.DataObject) -> list[Any]:
    rows: list[Any] = copy.deepcopy(REAL_TABLE["tools"])
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(rows) - 1))
        rows[index] = _mutate(rows[index], data)
    return rows


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_rows_get_the_same_findings_with_and_without_the_fast_path(
    data: st.DataObject,
) -> None:
    value = {**REAL_TABLE, "tools": _rows(data)}
    with _slow():
        reference = _table_findings(value)
    assert _table_findings(value) == reference


def _without_patterns(*pointers: tuple[str, ...]) -> dict[str, Any]:
    schema: dict[str, Any] = copy.deepcopy(MANIFEST_SCHEMA)
    for path in pointers:
        node = schema
        for key in path:
            node = node[key]
        del node["pattern"]
    return schema


def test_a_row_only_the_compiled_validator_refuses_is_judged_by_jsonschema() -> None:
    # The compiled validators refuse lone surrogates (the loader never lets one through); in a
    # string no pattern constrains, jsonschema accepts one. The verdict then says "not known
    # valid", and jsonschema's judgement (valid) stands.
    schema = _without_patterns(("properties", "displayName"))
    value = copy.deepcopy(REAL_TABLE)
    value["tools"][0]["displayName"] = "Claude \ud800"
    verdict = verdicts.manifest_verdict(schema)
    assert verdict is not None and verdict(value["tools"][0]) is False
    found = validate.validate_table(Loaded("tools.yaml", value), schema, TABLE_SCHEMA)
    assert found == []


def test_no_verdict_when_the_table_schema_declares_the_manifest_id() -> None:
    claimed = {
        **TABLE_SCHEMA,
        "$defs": {**TABLE_SCHEMA["$defs"], "X": {"$id": MANIFEST_SCHEMA["$id"]}},
    }
    relative = {**MANIFEST_SCHEMA, "$id": "tool-manifest.json"}
    with mock.patch.object(verdicts, "manifest_verdict", side_effect=AssertionError("asked")):
        assert validate._manifest_verdict(MANIFEST_SCHEMA, claimed) is None
        assert validate._manifest_verdict(relative, TABLE_SCHEMA) is None
    assert validate._manifest_verdict(MANIFEST_SCHEMA, TABLE_SCHEMA) is not None


def test_no_verdict_for_a_schema_the_compiler_refuses() -> None:
    schema = copy.deepcopy(MANIFEST_SCHEMA)
    schema["properties"]["id"]["format"] = "hostname"
    assert verdicts.manifest_verdict(schema) is None
    assert verdicts.branch_verdicts(schema, ("/$defs/ToolDetectSpec/oneOf/0",)) is None
    value = copy.deepcopy(REAL_TABLE)
    value["tools"][0]["id"] = "Bad Id"
    found = validate.validate_table(Loaded("tools.yaml", value), schema, TABLE_SCHEMA)
    assert [(d.code, d.pointer) for d in found] == [(Code.SCHEMA_VIOLATION, "/tools/0/id")]


# Candidate paths without their pattern: a lone surrogate in one is then valid to jsonschema
# only, so the compiled verdict says "not known valid" and jsonschema picks the branch.
RENDER_SCHEMA = _without_patterns(("$defs", "CandidatePathList", "items"))


def _rendered(manifests: list[Any]) -> list[str]:
    known = python_models.defined_classes(python_models.generate_models(RENDER_SCHEMA))
    renderer = python_models.PythonValueRenderer(RENDER_SCHEMA, known)
    return [renderer.render(manifest) for manifest in manifests]


@pytest.fixture(scope="module")
def manifests() -> list[Any]:
    candidates = [
        {"kind": "candidates"},
        {"kind": "candidates", "paths": {"linux": ["/usr/bin/x"]}},
        {"kind": "candidates", "paths": {"darwin": ["/A\ud800"]}},
    ]
    base = REAL_TABLE["tools"][0]
    return [*REAL_TABLE["tools"], *({**base, "detect": detect} for detect in candidates)]


def test_union_branches_are_picked_as_jsonschema_picks_them(manifests: list[Any]) -> None:
    with mock.patch.object(verdicts, "branch_verdicts", return_value=None):
        reference = _rendered(manifests)
    assert _rendered(manifests) == reference
    assert "PathDetect(" in reference[0]
    assert "CandidatesDetect(" in reference[-1] and "\\ud800" in reference[-1]


def test_jsonschema_is_not_asked_about_a_branch_the_compiled_verdict_accepts() -> None:
    known = python_models.defined_classes(python_models.generate_models(MANIFEST_SCHEMA))
    renderer = python_models.PythonValueRenderer(MANIFEST_SCHEMA, known)
    path_rows = [m for m in REAL_TABLE["tools"] if m.get("detect", {}).get("kind") == "path"]
    assert path_rows
    for manifest in path_rows:
        assert "PathDetect(" in renderer.render(manifest)
    assert renderer._branch_validators == {}  # no jsonschema validator was made for a branch


def test_union_branches_have_compiled_verdicts() -> None:
    found = verdicts.branch_verdicts(
        MANIFEST_SCHEMA, ("/$defs/ToolDetectSpec/oneOf/0", "/$defs/ToolDetectSpec/oneOf/1")
    )
    assert found is not None
    path, candidates = (found[f"/$defs/ToolDetectSpec/oneOf/{i}"] for i in (0, 1))
    assert path({"kind": "path", "binaryName": "x"}) and not candidates({"kind": "path"})
    assert candidates({"kind": "candidates"}) and not path({"kind": "candidates"})


@pytest.fixture
def gc_states(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[bool]]]:
    states: dict[str, list[bool]] = {"validate": [], "render": []}
    validate_sources, render_target = pipeline.validate_sources, render.render_target

    def validating(*arguments: Any) -> Any:
        states["validate"].append(gc.isenabled())
        return validate_sources(*arguments)

    def rendering(*arguments: Any) -> Any:
        states["render"].append(gc.isenabled())
        return render_target(*arguments)

    monkeypatch.setattr(pipeline, "validate_sources", validating)
    monkeypatch.setattr(render, "render_target", rendering)
    was = gc.isenabled()
    yield states
    gc.enable() if was else gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_only_while_rendering_and_restored(
    project: Path, gc_states: dict[str, list[bool]], enabled: bool
) -> None:
    gc.enable() if enabled else gc.disable()
    result = pipeline.build_outputs(load_config(project))
    assert result.ok
    assert gc_states["validate"] == [enabled]
    assert gc_states["render"] == [False] * len(TARGETS)
    assert gc.isenabled() is enabled


def test_render_failures_are_reported_in_target_order_while_ruff_is_under_way(
    project: Path, tmp_path: Path
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(render.TEMPLATES_DIR, templates)
    # One broken Python template (rendered first) and one broken TypeScript template (rendered
    # after formatting has started): both are reported, in the table's order, and nothing else.
    for name in ("python/registry.py.jinja", "typescript/tools.ts.jinja"):
        (templates / name).write_text("{{ undefined_name }}\n", encoding="utf-8")
    environment = render.make_environment(templates)
    result = pipeline.build_outputs(load_config(project), environment=environment)
    failed = [d.source for d in result.diagnostics if d.code is Code.GENERATION_FAILED]
    assert failed == ["generated/python/tool_registry/registry.py", "generated/typescript/tools.ts"]
    # Only the TypeScript one: ruff ran meanwhile, and its outcome is dropped.
    (templates / "python/registry.py.jinja").write_text(
        (render.TEMPLATES_DIR / "python/registry.py.jinja").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    result = pipeline.build_outputs(
        load_config(project), environment=render.make_environment(templates)
    )
    assert [d.source for d in result.diagnostics] == ["generated/typescript/tools.ts"]
    assert result.outputs == {}


def test_a_compiled_module_python_refuses_leaves_the_outcome_as_it_was(
    project: Path, run_cli: Any
) -> None:
    # Arrays nested 25 deep compile to loops nested beyond CPython's static block limit: no
    # verdicts then, and generate reports validator.py from the format stage, as before.
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(25):
        deep = {"type": "array", "items": deep}
    schema = copy.deepcopy(MANIFEST_SCHEMA)
    schema["properties"]["deep"] = deep
    assert verdicts.manifest_verdict(schema) is None
    (project / "schema/tool-manifest.schema.json").write_text(json.dumps(schema), "utf-8")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 1 and "internal error" not in err
    assert err.splitlines()[0] == (
        "generated/python/tool_registry/validator.py: GENERATION_FAILED error: formatting failed:"
        " FormatError: not valid Python after formatting: too many statically nested blocks"
    )

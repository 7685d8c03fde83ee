"""Hostile review of the problem limit's report order, the pattern shortcuts and the ``$ref``
inline bounds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from tool_registry import validate_third_party_manifest, validate_tool_manifest

from generator import emitted_module
from generator import plan as plan_module
from generator.diagnostics import MAX_DIAGNOSTICS_PER_FILE, Code, sort_key
from generator.plan import Plan, build_plan
from generator.ts_validator import typescript_validators
from generator.validate import VALIDATOR_ENTRY_POINTS, ts_validator_source
from generator.validator_compiler import python_validators

from .conftest import REPO
from .manifest_corpus import corpus
from .test_validation import diagnose, row, table
from .ts_runner import TsValidators, python_record

SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
PYTHON_ENTRIES = {"tool": validate_tool_manifest, "thirdParty": validate_third_party_manifest}
_PYTHON_NAMES = {"tool": "validate_tool_manifest", "thirdParty": "validate_third_party_manifest"}

LIMIT = MAX_DIAGNOSTICS_PER_FILE


def test_the_stop_record_is_its_files_last_even_when_an_earlier_pass_reported_further_down() -> (
    None
):
    # The table's schema validation reports the last row's wrong type first; the cross-row
    # rules then stop at the limit on a duplicate id far above it. Sorted by line alone (as
    # every output format is), the record saying "the rest of the file is not checked" stood
    # above a record from further down the file.
    rows = [row("alpha", f"Alpha {n}") for n in range(LIMIT + 50)]
    rows.append(row("omega", "Omega", launchable="7"))
    ordered = sorted(diagnose(table(*rows)), key=sort_key)
    assert len(ordered) == LIMIT + 1
    codes = [d.code for d in ordered]
    assert Code.SCHEMA_VIOLATION in codes  # the last row's type error, found first
    assert codes.count(Code.TOO_MANY_DIAGNOSTICS) == 1
    assert codes[-1] is Code.TOO_MANY_DIAGNOSTICS
    violation = ordered[codes.index(Code.SCHEMA_VIOLATION)]
    assert violation.line is not None
    assert ordered[-1].line is not None
    assert ordered[-1].line < violation.line  # where the limit stopped the later pass
    # Every other record stays in file order.
    located = [(d.line or 0, d.column or 0) for d in ordered[:-1]]
    assert located == sorted(located)


def _called_everywhere(monkeypatch: pytest.MonkeyPatch) -> Plan:
    """The manifest schema's plan, with the inline bounds at one node: every ``$ref`` a call."""
    for module in (plan_module, emitted_module):
        monkeypatch.setattr(module, "MAX_INLINED_TARGET", 1)
        monkeypatch.setattr(module, "MAX_INLINED_NODES", 1)
    return build_plan(SCHEMA, VALIDATOR_ENTRY_POINTS)


def test_validators_calling_every_target_report_what_the_inlined_ones_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The bounds only choose between expanding a target and calling its function: both must
    # give the same records in either language, and the calling TypeScript must still pass the
    # strict tsc (the size test alone never compiled nor ran what the bounds produce).
    # The generator's own sources first: its cache then never holds the patched ones.
    inlined_python = python_validators(
        build_plan(SCHEMA, VALIDATOR_ENTRY_POINTS), package="tool_registry"
    )
    inlined_typescript = ts_validator_source(SCHEMA)
    plan = _called_everywhere(monkeypatch)
    python = python_validators(plan, package="tool_registry")
    typescript = typescript_validators(plan)
    assert python != inlined_python  # the bounds did change the code
    assert typescript != inlined_typescript
    namespace: dict[str, Any] = {}
    exec(compile(python, "<called>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    staged = tmp_path / "ts"
    shutil.copytree(REPO / "generated/typescript", staged)
    validator = staged / "validator.ts"
    text = validator.read_text(encoding="utf-8")
    assert inlined_typescript in text
    validator.write_text(text.replace(inlined_typescript, typescript), encoding="utf-8")
    runner = TsValidators(tmp_path / "build", staged)
    documents = corpus(400, seed=5)
    cases = [{"entry": entry, "document": d} for d in documents for entry in PYTHON_ENTRIES]
    results = runner.run(cases)
    invalid = 0
    for case, result in zip(cases, results, strict=True):
        document = json.loads(json.dumps(case["document"]))
        expected = [python_record(d) for d in PYTHON_ENTRIES[case["entry"]](document)]
        called = namespace[_PYTHON_NAMES[case["entry"]]](document)
        assert [python_record(d) for d in called] == expected, case
        assert result["diagnostics"] == expected, case
        assert result["guard"] is (not expected), case
        invalid += bool(expected)
    assert 0 < invalid < len(cases)

"""The TypeScript validator (``validator.ts``) against the Python one, record for record.

Both are emitted from one plan of checks (``generator/plan.py``); these tests hold them to the
same output on thousands of documents: seeded mutations of valid manifests (every keyword of the
schema's subset, hostile keys such as ``__proto__``, astral characters against length limits,
bidi and format controls, lone surrogates), every limit from 0 to past the number of violations,
and the type guards' verdicts. A difference in any field of any record fails.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from tool_registry import validate_third_party_manifest, validate_tool_manifest

from generator.plan import build_plan
from generator.schema_subset import CompileError
from generator.ts_validator import emit_validators
from generator.validate import VALIDATOR_ENTRY_POINTS

from .conftest import REPO, build_typescript, run_node
from .manifest_corpus import base_manifest, corpus, mutate
from .ts_runner import TsValidators, python_record

PYTHON_ENTRIES = {"tool": validate_tool_manifest, "thirdParty": validate_third_party_manifest}
SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ts_validators(tmp_path_factory: pytest.TempPathFactory) -> TsValidators:
    return TsValidators(tmp_path_factory.mktemp("ts-validator"), REPO / "generated/typescript")


def _compare(ts_validators: TsValidators, cases: list[dict[str, Any]]) -> int:
    """Run ``cases`` in both languages; assert identical records. Returns how many failed."""
    results = ts_validators.run(cases)
    invalid = 0
    for case, result in zip(cases, results, strict=True):
        validate = PYTHON_ENTRIES[case["entry"]]
        limit = case.get("limit")
        # The document as JSON text gives it to both (escaped surrogate pairs join into one
        # code point in either parser, as they would in a real file).
        document = json.loads(json.dumps(case["document"]))
        expected = validate(document) if limit is None else validate(document, limit)
        records = [python_record(d) for d in expected]
        assert result["diagnostics"] == records, (case, result["diagnostics"], records)
        if limit is None:
            assert result["guard"] is (not expected), case
        assert result["frozen"], case
        invalid += bool(expected)
    return invalid


def test_both_languages_report_the_same_records(ts_validators: TsValidators) -> None:
    documents = corpus(1500, seed=11)
    cases = [{"entry": entry, "document": d} for d in documents for entry in PYTHON_ENTRIES]
    invalid = _compare(ts_validators, cases)
    # The corpus is a real mix, so both paths (answer only; answer then collect) are exercised.
    assert 0.2 * len(cases) < invalid < 0.9 * len(cases)


def test_the_limit_bounds_both_languages_alike(ts_validators: TsValidators) -> None:
    documents = [d for d in corpus(300, seed=5) if validate_tool_manifest(d, 100)]
    many: list[Any] = []
    for document in documents[:60]:
        mutated = document
        for _ in range(6):
            mutated = mutate(mutated, random.Random(len(many)))
        many.append(mutated)
    cases = [
        {"entry": entry, "document": d, "limit": limit}
        for d in many
        for entry in PYTHON_ENTRIES
        for limit in (0, 1, 2, 3, 10)
    ]
    _compare(ts_validators, cases)
    truncated = [c for c in ts_validators.run(cases) if c["diagnostics"]]
    codes = {d["code"] for c in truncated for d in c["diagnostics"]}
    assert "TOO_MANY_DIAGNOSTICS" in codes


def test_hostile_keys_are_ordinary_names(ts_validators: TsValidators) -> None:
    """``__proto__``/``constructor`` members are data: not inherited, not a prototype."""
    base = base_manifest(1)
    cases = []
    for key in ("__proto__", "constructor", "toString", "hasOwnProperty"):
        cases.append({"entry": "tool", "document": {**base, key: {"id": "x"}}})
        without = {k: v for k, v in base.items() if k != "id"}
        cases.append({"entry": "tool", "document": {**without, key: 1}})
    _compare(ts_validators, cases)
    results = ts_validators.run(cases)
    assert all(r["diagnostics"] for r in results)
    missing = [d for r in results[1::2] for d in r["diagnostics"] if d["keyword"] == "required"]
    assert len(missing) == 4


def test_astral_characters_count_once_against_length_limits(ts_validators: TsValidators) -> None:
    name_at_limit = "\U0001f600" * 80  # 80 code points, 160 UTF-16 units
    cases = [
        {"entry": "tool", "document": {**base_manifest(2), "displayName": name_at_limit}},
        {"entry": "tool", "document": {**base_manifest(2), "displayName": name_at_limit + "x"}},
    ]
    _compare(ts_validators, cases)
    accepted, refused = ts_validators.run(cases)
    assert accepted["diagnostics"] == []
    assert [d["keyword"] for d in refused["diagnostics"]] == ["maxLength"]


def test_a_pattern_meaning_two_things_is_refused_naming_it() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "pattern": "(?<=(a)\\1)b"}},
    }
    with pytest.raises(CompileError) as raised:
        emit_validators(schema, {"validate": ""}, guards=False)
    assert raised.value.pointer == "/properties/name/pattern"
    assert "backreference \\1" in str(raised.value)


def test_generate_reports_a_pattern_only_typescript_would_read_differently(
    tmp_path: Path,
) -> None:
    from .conftest import copy_project, run_toolgen

    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["hookPointer"]["pattern"] = "^(?:(x)(?<=\\1))?[a-z./-]+$"
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    code, err = completed.returncode, completed.stderr
    assert code == 1, err
    assert "SCHEMA_UNSUPPORTED" in err and "backreference" in err
    assert "/properties/hookPointer/pattern" in err


def test_one_plan_serves_both_entry_points() -> None:
    plan = build_plan(SCHEMA, VALIDATOR_ENTRY_POINTS)
    assert [e.pointer for e in plan.entry_points] == list(VALIDATOR_ENTRY_POINTS.values())
    assert set(VALIDATOR_ENTRY_POINTS.values()) <= set(plan.nodes)


def test_the_readme_typescript_example_compiles_and_runs(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### One plan of checks, two validators") :]
    example = section[section.index("```ts\n") + 6 : section.index("```\n", section.index("```ts"))]
    # A consumer imports the installed package by its name (the configured one), not a path of
    # this repository.
    name = json.loads((REPO / "generated/typescript/package.json").read_text())["name"]
    assert f'}} from "{name}";' in example
    example = example.replace(f'from "{name}"', 'from "./index.js"')
    runner = (
        'import { adapterFrom } from "./example.js";\n'
        'const good = adapterFrom({ id: "acme", displayName: "Acme", launchable: true,'
        ' hookCapable: false, hookPointer: ".acme/hook.json",'
        ' detect: { kind: "path", binaryName: "acme" } });\n'
        'const bad = adapterFrom({ id: "Bad Id" });\n'
        "console.log(JSON.stringify([good === null ? null : good.id, bad]));\n"
    )
    out = build_typescript(
        tmp_path, REPO / "generated/typescript", {"example.ts": example, "run.ts": runner}
    )
    completed = run_node(out / "run.js")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == ["acme", None]
    assert "SCHEMA_VIOLATION /id" in completed.stderr
    assert "SCHEMA_VIOLATION  " in completed.stderr  # the missing members, at the document


def test_a_value_proven_against_a_target_is_not_checked_again() -> None:
    """Third-party ``detect`` is a PathDetect and, through the root, a ToolDetectSpec whose tag
    names PathDetect again: the third-party answering function requires ``binaryName`` once."""
    source = emit_validators(SCHEMA, VALIDATOR_ENTRY_POINTS)
    guard = source[source.index("export function isThirdPartyToolManifest") :]
    name = re.search(r"return (valid\d+)\(value\)", guard)
    assert name is not None
    body = source[source.index(f"function {name.group(1)}(") :]
    body = body[: body.index("\n}\n")]
    assert body.count("!Object.hasOwn(") and body.count('"binaryName")') == 1, body


def test_a_guard_for_a_root_without_a_title_is_a_located_compile_error() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    with pytest.raises(CompileError) as raised:
        emit_validators(schema, {"validate": ""})  # guards on: they need a type to narrow to
    assert (raised.value.pointer, raised.value.keyword) == ("", "title")
    assert "isValidate" not in emit_validators(schema, {"validate": ""}, guards=False)


def test_one_plan_per_generation_feeds_both_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema is resolved once: generating every output plans it one time, and both the
    Python and the TypeScript validator are emitted from that one plan object."""
    from generator import ts_validator, validate, validator_compiler, views
    from generator.config import load_config
    from generator.pipeline import build_outputs

    from .conftest import REPO

    planned: list[object] = []
    read_by: dict[str, list[object]] = {"python": [], "typescript": []}
    # The real functions from the modules that define them (``validate`` only imports them).
    real_plan = build_plan
    real_python = validator_compiler.python_validators
    real_typescript = ts_validator.typescript_validators

    def counting_plan(schema: Any, entry_points: Any) -> Any:
        planned.append(real_plan(schema, entry_points))
        return planned[-1]

    def python(plan: Any, **options: Any) -> str:
        read_by["python"].append(plan)
        return real_python(plan, **options)

    def typescript(plan: Any, **options: Any) -> str:
        read_by["typescript"].append(plan)
        return real_typescript(plan, **options)

    monkeypatch.setattr(validate, "build_plan", counting_plan)
    monkeypatch.setattr(validate, "python_validators", python)
    monkeypatch.setattr(validate, "typescript_validators", typescript)
    views.clear_caches()
    try:
        result = build_outputs(load_config(REPO))
    finally:
        views.clear_caches()  # later tests must not see the counting functions' results
    assert not result.diagnostics
    assert len(planned) == 1
    assert read_by == {"python": planned, "typescript": planned}


def test_a_member_that_can_report_much_is_answered_before_it_is_collected() -> None:
    """Collecting, a member whose checks can report many violations (a nested object, a call of
    a collecting function) asks its answering function first: a valid member of an invalid
    document builds no pointer text and calls no collecting function. A member with a few
    checks is collected directly."""
    schema = {
        "type": "object",
        "properties": {
            "nested": {
                "type": "object",
                "required": ["k", "l"],
                "properties": {"k": {"type": "string"}, "l": {"type": "string", "maxLength": 3}},
                "additionalProperties": False,
            },
            "flag": {"type": "boolean"},
        },
    }
    source = emit_validators(schema, {"validate": ""}, guards=False)
    collecting = source[source.index("function check0(") :]
    collecting = collecting[: collecting.index("\n}\n")]
    nested = collecting[collecting.index('"nested")') : collecting.index('"flag")')]
    assert re.search(r"if \(!valid\d+\(v\d+\)\) \{", nested), nested
    flag = collecting[collecting.index('"flag")') :]
    assert "valid" not in flag, flag
    generated = (REPO / "generated/typescript/validator.ts").read_text(encoding="utf-8")
    root = generated[generated.index("function check0(") :]
    root = root[: root.index("\n}\n")]
    for member in ("detect", "capabilities", "mcpServer", "promptArgTemplate"):
        section = root[root.index(f'Object.hasOwn(v, "{member}")') :]
        assert re.match(r"[^\n]*\n[^\n]*\n\s*if \(!valid\d+\(v\d+\)\) \{", section), member

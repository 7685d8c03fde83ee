"""Conformance: the official JSON-Schema-Test-Suite (draft 2020-12) through the validator compiler.

Every group whose schema uses only the supported keywords is compiled and every one of its tests
must get the suite's verdict; every other group must be refused at compile time, and the refusal
must be the genuine one (an independent walk of the schema finds the unsupported keyword, remote
reference or regex construct). The totals are printed at the end of the run.

The suite is not in the repository: ``tests/conformance_location.py`` says where it is looked for
(``TOOLGEN_CONFORMANCE_DIR``, ``TOOLGEN_SHARED``, else ``../shared`` beside the repository); without
it this module is skipped with one reason.
"""

from __future__ import annotations

import json
import os
import types
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from generator.schema_subset import ANNOTATIONS, SUPPORTED_KEYWORDS, CompileError
from generator.validator_compiler import compile_validators

from .conformance_location import REGEX_FILE, locate_suite
from .conftest import REPO

LOCATION = locate_suite(os.environ, REPO)
if not LOCATION.present:
    # One module-level skip with one reason, not hundreds of skipped parameters.
    pytest.skip(LOCATION.skip_reason(), allow_module_level=True)
SUITE = LOCATION.draft_dir
FILES = [*sorted(SUITE.glob("*.json")), SUITE / REGEX_FILE]
SUMMARY: Counter[str] = Counter()
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Regex constructs the translation refuses on purpose (none appear in our schemas).
REFUSED_REGEX_CONSTRUCTS = ("\\p{", "\\P{")
# The largest integer both backends hold exactly: a const or enum beyond it is refused on purpose
# (TypeScript's numbers would compare its neighbours equal to it).
EXACT_INTEGER = 2**53 - 1


def _inexact_integer(value: Any) -> bool:
    """Whether ``value`` holds, at any depth, an integer TypeScript cannot hold exactly."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > EXACT_INTEGER
    if isinstance(value, Mapping):
        return any(_inexact_integer(item) for item in value.values())
    if isinstance(value, list):
        return any(_inexact_integer(item) for item in value)
    return False


def _groups() -> Iterator[Any]:
    for path in FILES:
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            name = f"{path.relative_to(SUITE)}:{index}"
            yield pytest.param(group, id=name)


def _unsupported(schema: Any, is_root: bool = True) -> list[str]:
    """The keywords for which the compiler must refuse ``schema``, found independently of it."""
    if not isinstance(schema, Mapping):
        return []
    reasons: list[str] = []
    allowed = SUPPORTED_KEYWORDS | ANNOTATIONS | ({"$schema", "$id"} if is_root else set())
    reasons += [key for key in schema if key not in allowed]
    if is_root and schema.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
        reasons.append("$schema")
    ref = schema.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#/") and ref != "#":
        reasons.append("$ref")
    reasons += [key for key in ("const", "enum") if key in schema and _inexact_integer(schema[key])]
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and any(c in pattern for c in REFUSED_REGEX_CONSTRUCTS):
        reasons.append("pattern")
    for key in ("additionalProperties", "items", "not", "if", "then", "else"):
        reasons += _unsupported(schema.get(key), False)
    for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for sub in schema.get(key, []) if isinstance(schema.get(key), list) else []:
            reasons += _unsupported(sub, False)
    for key in ("properties", "$defs"):
        if isinstance(schema.get(key), Mapping):
            for sub in schema[key].values():
                reasons += _unsupported(sub, False)
    return reasons


def _compile(schema: Any) -> types.ModuleType:
    source = compile_validators(
        schema if isinstance(schema, Mapping) else {"allOf": [schema]},
        {"validate": ""},
        package="tool_registry",
    )
    module = types.ModuleType("compiled_validator")
    exec(compile(source, "<compiled>", "exec"), module.__dict__)  # noqa: S102 - our own output
    return module


@pytest.mark.parametrize("group", list(_groups()))
def test_suite_group(group: Mapping[str, Any]) -> None:
    schema = group["schema"]
    reasons = _unsupported(schema)
    try:
        module = _compile(schema)
    except CompileError as error:
        assert reasons, f"refused a schema with only supported keywords: {error}"
        assert error.keyword in reasons, (error.keyword, reasons)
        assert error.pointer.endswith("/" + str(error.keyword)), error.pointer
        SUMMARY["refused groups"] += 1
        SUMMARY["refused tests"] += len(group["tests"])
        return
    assert not reasons, f"compiled a schema the compiler should refuse: {reasons}"
    for case in group["tests"]:
        diagnostics = module.validate(case["data"])
        assert (not diagnostics) == case["valid"], case["description"]
        if not case["valid"]:
            assert all(d.code == "SCHEMA_VIOLATION" and d.keyword for d in diagnostics)
    SUMMARY["passed groups"] += 1
    SUMMARY["passed tests"] += len(group["tests"])


def test_the_suite_is_the_whole_draft() -> None:
    groups = sum(len(json.loads(p.read_text(encoding="utf-8"))) for p in FILES)
    assert groups > 300


def summary_lines() -> list[str]:
    if not SUMMARY:
        return []
    return [
        "JSON-Schema-Test-Suite draft 2020-12 through the validator compiler: "
        f"{SUMMARY['passed tests']} tests passed in {SUMMARY['passed groups']} compiled groups; "
        f"{SUMMARY['refused groups']} groups ({SUMMARY['refused tests']} tests) refused at "
        "compile time for unsupported keywords",
        f"... and through the TypeScript backend under node: {SUMMARY['typescript tests']} tests"
        f" in {SUMMARY['typescript groups']} groups",
    ]


# The TypeScript backend over the same plan: every group the Python compiler compiles is emitted
# as one TypeScript module, all compiled in one strict tsc run, and every test case is decided
# under node (the validator's answer and its type guard must both give the suite's verdict).
TS_RUNNER = """\
import { readFileSync, writeFileSync } from "node:fs";
const groups = JSON.parse(readFileSync(process.argv[2], "utf8"));
const verdicts = [];
for (const [index, cases] of groups.entries()) {
  const module = await import(`./group${index}.js`);
  verdicts.push(cases.map((data) => {
    const diagnostics = module.validate(data);
    const kinds = diagnostics.every((d) => d.code === "SCHEMA_VIOLATION" && d.keyword !== "");
    return [diagnostics.length === 0, kinds];
  }));
}
writeFileSync(process.argv[3], JSON.stringify(verdicts));
"""


def test_suite_through_the_typescript_backend(tmp_path: Any) -> None:
    import subprocess

    from generator.ts_validator import emit_validators

    from .conftest import compile_typescript, node_executable

    source = tmp_path / "src"
    source.mkdir()
    for name in ("diagnostics.ts", "schema-runtime.ts"):
        (source / name).write_text((REPO / "generated/typescript" / name).read_text("utf-8"))
    compiled: list[Any] = []
    for param in _groups():
        group = param.values[0]
        schema = group["schema"]
        try:
            _compile(schema)
        except CompileError:
            continue
        body = emit_validators(
            schema if isinstance(schema, Mapping) else {"allOf": [schema]},
            {"validate": ""},
            guards=False,
        )
        (source / f"group{len(compiled)}.ts").write_text(body, encoding="utf-8")
        compiled.append(group)
    result = compile_typescript(tmp_path, sorted(source.glob("*.ts")), tmp_path / "out")
    assert result.returncode == 0, result.stdout[-3000:]
    (tmp_path / "out" / "run.mjs").write_text(TS_RUNNER, encoding="utf-8")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([[c["data"] for c in g["tests"]] for g in compiled]), "utf-8")
    verdicts_file = tmp_path / "verdicts.json"
    completed = subprocess.run(
        [node_executable(), str(tmp_path / "out" / "run.mjs"), str(cases), str(verdicts_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    verdicts = json.loads(verdicts_file.read_text("utf-8"))
    wrong = [
        (group["description"], case["description"])
        for group, results in zip(compiled, verdicts, strict=True)
        for case, (valid, kinds) in zip(group["tests"], results, strict=True)
        if valid != case["valid"] or not kinds
    ]
    assert not wrong, wrong[:20]
    assert len(compiled) > 150
    SUMMARY["typescript groups"] += len(compiled)
    SUMMARY["typescript tests"] += sum(len(g["tests"]) for g in compiled)

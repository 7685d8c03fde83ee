"""Shared validator vectors (``tests/vectors/validator/*.json``) in both languages.

Each file names a schema (``"manifest"``: the project's own, through the generated validators;
or a schema object, compiled here by both backends) and cases: a document and the records
expected, in order, as code, pointer and keyword. One test runs them against the Python
validators, one compiles the TypeScript and runs them under node; both must give exactly the
expected records (and the two languages the same messages).
"""

from __future__ import annotations

import json
import subprocess
import types
from pathlib import Path
from typing import Any

import pytest
from tool_registry import validate_third_party_manifest, validate_tool_manifest

from generator.ts_validator import emit_validators
from generator.validator_compiler import compile_validators

from .conftest import REPO, build_typescript, node_executable
from .ts_runner import python_record

VECTORS = sorted((REPO / "tests/vectors/validator").glob("*.json"))
MANIFEST_ENTRIES = {"tool": validate_tool_manifest, "thirdParty": validate_third_party_manifest}


def _load(path: Path) -> dict[str, Any]:
    vectors: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return vectors


def _python_validate(vectors: dict[str, Any]) -> Any:
    if vectors["schema"] == "manifest":
        return lambda entry, document: MANIFEST_ENTRIES[entry](document)
    source = compile_validators(vectors["schema"], {"validate": ""}, package="tool_registry")
    module = types.ModuleType("vector_validator")
    exec(compile(source, "<vectors>", "exec"), module.__dict__)  # noqa: S102 - our own output
    return lambda _entry, document: module.validate(document)


def _shape(records: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [{k: r[k] for k in ("code", "pointer", "keyword")} for r in records]


def test_vectors_cover_every_keyword_and_every_validator_code() -> None:
    keywords: set[str] = set()
    codes: set[str] = set()
    for path in VECTORS:
        for case in _load(path)["cases"]:
            keywords |= {e["keyword"] for e in case["expect"]} - {""}
            codes |= {e["code"] for e in case["expect"]}
    subset = {
        "type", "enum", "const", "required", "additionalProperties", "minItems", "maxItems",
        "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "anyOf",
        "oneOf", "not", "false",
    }  # fmt: skip
    assert subset <= keywords, subset - keywords
    assert codes == {"SCHEMA_VIOLATION", "LONE_SURROGATE", "TOO_MANY_DIAGNOSTICS"}


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_python_gives_the_expected_records(path: Path) -> None:
    vectors = _load(path)
    validate = _python_validate(vectors)
    for case in vectors["cases"]:
        found = [python_record(d) for d in validate(case["entry"], case["document"])]
        assert _shape(found) == case["expect"], case["name"]


TS_RUNNER = """\
import { readFileSync, writeFileSync } from "node:fs";
import * as manifest from "./validator.js";

const entries = {
  tool: manifest.validateToolManifest,
  thirdParty: manifest.validateThirdPartyManifest,
};
const files = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = [];
for (const [index, vectors] of files.entries()) {
  const own = vectors.schema === "manifest" ? null : await import(`./vectors${index}.js`);
  results.push(vectors.cases.map(({ entry, document }) =>
    (own === null ? entries[entry](document) : own.validate(document)).map((d) => ({
      code: d.code, severity: d.severity, pointer: d.pointer, keyword: d.keyword,
      expected: d.expected, found: d.found, omitted: d.omitted, message: d.message,
    }))));
}
writeFileSync(process.argv[3], JSON.stringify(results));
"""


def test_typescript_gives_the_expected_records(tmp_path: Path) -> None:
    files = [_load(path) for path in VECTORS]
    extra = {
        f"vectors{index}.ts": emit_validators(vectors["schema"], {"validate": ""}, guards=False)
        for index, vectors in enumerate(files)
        if vectors["schema"] != "manifest"
    }
    out = build_typescript(tmp_path, REPO / "generated/typescript", extra)
    (out / "run-vectors.mjs").write_text(TS_RUNNER, encoding="utf-8")
    cases_file, results_file = tmp_path / "vectors.json", tmp_path / "results.json"
    cases_file.write_text(json.dumps(files, ensure_ascii=True), encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(out / "run-vectors.mjs"), str(cases_file), str(results_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads(results_file.read_text(encoding="utf-8"))
    for vectors, found in zip(files, results, strict=True):
        validate = _python_validate(vectors)
        for case, records in zip(vectors["cases"], found, strict=True):
            assert _shape(records) == case["expect"], case["name"]
            python = [python_record(d) for d in validate(case["entry"], case["document"])]
            assert records == python, case["name"]

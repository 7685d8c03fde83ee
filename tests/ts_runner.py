"""Run the generated TypeScript validators under node on a batch of documents.

``TsValidators`` compiles the generated ``generated/typescript`` (or another folder) once with the
pinned tsc under the strict options, then answers batches: each case names an entry point
(``tool`` or ``thirdParty``), a document and an optional limit, and comes back as the list of
diagnostic records (every field) and the type guard's verdict. Documents travel as JSON written
with ``ensure_ascii`` (so a lone surrogate reaches node as the ``\\udXXX`` escape JSON.parse
turns back into one) and results come back the same way.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from .conftest import build_typescript, node_executable

# Plain JavaScript beside the compiled output: reads the cases, writes the results.
RUNNER = """\
import { readFileSync, writeFileSync } from "node:fs";
import * as validator from "./validator.js";

const entries = {
  tool: [validator.validateToolManifest, validator.isToolManifest],
  thirdParty: [validator.validateThirdPartyManifest, validator.isThirdPartyToolManifest],
};
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = cases.map(({ entry, document, limit }) => {
  const [validate, guard] = entries[entry];
  const diagnostics = limit === undefined ? validate(document) : validate(document, limit);
  return {
    guard: guard(document),
    frozen: Object.isFrozen(diagnostics) && diagnostics.every((d) => Object.isFrozen(d)),
    diagnostics: diagnostics.map((d) => ({
      code: d.code, severity: d.severity, pointer: d.pointer, keyword: d.keyword,
      expected: d.expected, found: d.found, omitted: d.omitted, message: d.message,
    })),
  };
});
writeFileSync(process.argv[3], JSON.stringify(results));
"""


def python_record(diagnostic: Any) -> dict[str, Any]:
    """A Python ``Diagnostic`` as the fields the runner reports for a TypeScript one."""
    return {
        "code": str(diagnostic.code),
        "severity": str(diagnostic.severity),
        "pointer": diagnostic.pointer,
        "keyword": diagnostic.keyword,
        "expected": diagnostic.expected,
        "found": diagnostic.found,
        "omitted": diagnostic.omitted,
        "message": diagnostic.message,
    }


class TsValidators:
    def __init__(self, work_dir: Path, generated_ts: Path) -> None:
        self.out = build_typescript(work_dir, generated_ts)
        self.runner = self.out / "run-cases.mjs"
        self.runner.write_text(RUNNER, encoding="utf-8")
        self.work_dir = work_dir

    def run(self, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        source = self.work_dir / "cases.json"
        target = self.work_dir / "results.json"
        source.write_text(json.dumps(cases, ensure_ascii=True), encoding="utf-8")
        completed = subprocess.run(
            [node_executable(), str(self.runner), str(source), str(target)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert completed.returncode == 0, completed.stderr
        results: list[dict[str, Any]] = json.loads(target.read_text(encoding="utf-8"))
        return results

"""The TypeScript validator against ajv (draft 2020-12, strict, ``allErrors``), verdict for verdict.

ajv is the validator a TypeScript user would otherwise pick; it is pinned in ``package.json``.
Both judge the same generated documents (``manifest_corpus``) for both entry points, in one node
process; any verdict disagreement fails. Documents holding a lone surrogate are judged by the
I-JSON rule only toolgen applies (ajv accepts such strings), so they are compared separately:
there toolgen must refuse, whatever ajv says.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, build_typescript, node_executable
from .manifest_corpus import corpus

RUNNER = """\
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as ours from "./validator.js";

const require = createRequire(process.argv[2]);
const Ajv2020 = require("ajv/dist/2020").default;
const schema = JSON.parse(readFileSync(process.argv[3], "utf8"));
// Strict (unknown keywords, formats, numbers and tuples are errors) but for two lints about
// where a schema states things, which the canonical schema does its own way: `required` in an
// `if`/`then` names members the top level declares, and `properties` in a subschema applied to
// an object already typed by its parent.
const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors: true });
ajv.addSchema(schema);
const tool = ajv.getSchema(schema.$id);
const thirdParty = ajv.compile({ $ref: schema.$id + "#/$defs/ThirdPartyToolManifest" });
const documents = JSON.parse(readFileSync(process.argv[4], "utf8"));
const verdicts = documents.map((d) => [
  tool(d), ours.isToolManifest(d), ours.validateToolManifest(d).length === 0,
  thirdParty(d), ours.isThirdPartyToolManifest(d), ours.validateThirdPartyManifest(d).length === 0,
]);
writeFileSync(process.argv[5], JSON.stringify(verdicts));
"""


def _has_lone_surrogate(value: Any) -> bool:
    """Whether the document, as a parser reads its JSON text, holds a lone surrogate."""
    # Written with escapes and read back, an escaped pair joins into one code point.
    text = json.dumps(json.loads(json.dumps(value)), ensure_ascii=False)
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _verdicts(tmp_path: Path, documents: list[Any]) -> list[list[bool]]:
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "ajv-differential.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    cases = tmp_path / "documents.json"
    cases.write_text(json.dumps(documents, ensure_ascii=True), encoding="utf-8")
    results = tmp_path / "verdicts.json"
    completed = subprocess.run(
        [
            node_executable(),
            str(runner),
            str(REPO / "package.json"),
            str(REPO / "schema/tool-manifest.schema.json"),
            str(cases),
            str(results),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    verdicts: list[list[bool]] = json.loads(results.read_text(encoding="utf-8"))
    return verdicts


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Any], list[list[bool]]]:
    documents = corpus(3000, seed=23)
    return documents, _verdicts(tmp_path_factory.mktemp("ajv"), documents)


def test_no_verdict_disagreement_with_ajv(judged: tuple[list[Any], list[list[bool]]]) -> None:
    documents, verdicts = judged
    compared = 0
    disagreements = []
    for document, verdict in zip(documents, verdicts, strict=True):
        if _has_lone_surrogate(document):
            continue
        ajv_tool, guard_tool, ours_tool, ajv_third, guard_third, ours_third = verdict
        assert guard_tool == ours_tool and guard_third == ours_third, document
        if (ajv_tool, ajv_third) != (ours_tool, ours_third):
            disagreements.append((document, verdict))
        compared += 1
    assert not disagreements, disagreements[:5]
    valid = sum(1 for v in verdicts if v[0])
    assert compared > 2500 and 0.2 * compared < valid < 0.9 * compared


def test_lone_surrogates_are_refused_where_ajv_has_no_rule(
    judged: tuple[list[Any], list[list[bool]]],
) -> None:
    documents, verdicts = judged
    holding = [v for d, v in zip(documents, verdicts, strict=True) if _has_lone_surrogate(d)]
    assert holding, "the corpus must hold lone surrogates"
    assert not any(v[1] or v[2] or v[4] or v[5] for v in holding)

"""apply_prompt_arg_template (Python) and applyPromptArgTemplate (TypeScript, run under node) over
one shared table of vectors, tests/prompt_arg_vectors.json, so the two cannot disagree; and the
manifest schema refuses exactly the template entries the functions refuse."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, build_typescript, run_node

sys.path.insert(0, str(REPO / "generated/python"))

from tool_registry import PromptArgError, apply_prompt_arg_template, validate_tool_manifest
from tool_registry.prompt_args import CODES

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "prompt_arg_vectors.json").read_text()
)["vectors"]


def expected(vector: dict[str, Any]) -> dict[str, Any]:
    if "args" in vector:
        return {"args": vector["args"]}
    return {"error": vector["error"], "index": vector["index"]}


def python_outcome(template: list[str], prompt: str) -> dict[str, Any]:
    try:
        return {"args": apply_prompt_arg_template(template, prompt)}
    except PromptArgError as error:
        return {"error": error.code, "index": error.index}


def test_the_table_covers_every_code_and_both_outcomes() -> None:
    assert {v["error"] for v in VECTORS if "error" in v} == set(CODES)
    assert any("args" in v for v in VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["why"] for v in VECTORS])
def test_python(vector: dict[str, Any]) -> None:
    assert python_outcome(vector["template"], vector["prompt"]) == expected(vector)


TS_RUNNER = """\
import { PROMPT_ARG_ERROR_CODES, PromptArgError, applyPromptArgTemplate } from "./index.js";

interface Vector {
  readonly template: readonly string[];
  readonly prompt: string;
}
const VECTORS: readonly Vector[] = %s;
const outcomes = VECTORS.map((vector) => {
  try {
    return { args: applyPromptArgTemplate(vector.template, vector.prompt) };
  } catch (error) {
    if (error instanceof PromptArgError) {
      return { error: error.code, index: error.index, isError: error instanceof Error };
    }
    return { crashed: String(error) };
  }
});
console.log(JSON.stringify({ codes: PROMPT_ARG_ERROR_CODES, outcomes }));
"""


def test_typescript_under_node_agrees_with_the_table(tmp_path: Path) -> None:
    inputs = [{"template": v["template"], "prompt": v["prompt"]} for v in VECTORS]
    runner = TS_RUNNER % json.dumps(inputs, ensure_ascii=True)
    out = build_typescript(tmp_path, REPO / "generated/typescript", {"vectors.ts": runner})
    result = run_node(out / "vectors.js")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    assert facts["codes"] == list(CODES)
    for vector, outcome in zip(VECTORS, facts["outcomes"], strict=True):
        if "error" in outcome:
            assert outcome.pop("isError") is True
        assert outcome == expected(vector), vector["why"]


def template_pointers(template: list[str]) -> set[str]:
    """Pointers of the schema's complaints about the entries of ``template`` in a valid manifest."""
    manifest = {
        "id": "aider",
        "displayName": "Aider",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".aider/p.json",
        "detect": {"kind": "path", "binaryName": "aider"},
        "promptArgTemplate": template,
    }
    return {d.pointer for d in validate_tool_manifest(manifest)}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["why"] for v in VECTORS])
def test_the_schema_refuses_the_entries_the_function_refuses(vector: dict[str, Any]) -> None:
    # A template the function refuses for an entry is refused by the schema at that entry; any
    # other template (accepted, or refused only for its prompt) is valid under the schema.
    refused_entry = vector.get("error", "").startswith("TEMPLATE_")
    wanted = {f"/promptArgTemplate/{vector['index']}"} if refused_entry else set()
    assert template_pointers(vector["template"]) == wanted


# Templates whose elements answer differently at each read: a getter, a Proxy, an array
# subclass with its own forEach, and a hole. Each element must be read once, and that copy both
# checked and applied (as Python copies a list's entries).
CHANGING_TEMPLATES = """\
import { PromptArgError, applyPromptArgTemplate } from "./index.js";

function outcome(template: unknown, prompt: string): unknown {
  try {
    return { args: applyPromptArgTemplate(template as readonly string[], prompt) };
  } catch (error) {
    if (error instanceof PromptArgError) return { error: error.code, index: error.index };
    return { type: (error as Error).name, message: (error as Error).message };
  }
}

let getterReads = 0;
const withGetter: string[] = ["x"];
Object.defineProperty(withGetter, 0, {
  enumerable: true,
  get(): string {
    getterReads += 1;
    return getterReads === 1 ? "safe" : "/etc/passwd";
  },
});

let proxyReads = 0;
const proxied = new Proxy(["--", "{prompt}"], {
  get(target: string[], key: string | symbol, receiver: unknown): unknown {
    if (key === "0") {
      proxyReads += 1;
      return proxyReads === 1 ? "-o" : "--";
    }
    return Reflect.get(target, key, receiver) as unknown;
  },
});

class OwnForEach extends Array<string> {
  override forEach(): void {}
}
const subclass = OwnForEach.from(["--{prompt}"]);

console.log(JSON.stringify({
  getter: outcome(withGetter, "p"),
  getterReads,
  proxy: outcome(proxied, "-rf"),
  proxyReads,
  subclass: outcome(subclass, "rf"),
  // eslint-disable-next-line no-sparse-arrays
  hole: outcome(["a", , "{prompt}"], "p"),
}));
"""


def test_typescript_reads_each_template_entry_once(tmp_path: Path) -> None:
    out = build_typescript(
        tmp_path, REPO / "generated/typescript", {"changing.ts": CHANGING_TEMPLATES}
    )
    result = run_node(out / "changing.js")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    # What was checked is what is applied: the first read, never a later one.
    assert facts["getter"] == {"args": ["safe"]}
    assert facts["getterReads"] == 1
    # "-o" then "--": the "--" may be -o's value, so the prompt "-rf" is refused.
    assert facts["proxy"] == {"error": "PROMPT_AS_OPTION", "index": 1}
    assert facts["proxyReads"] == 1
    # The subclass's forEach never runs: its entry is checked.
    assert facts["subclass"] == {"error": "TEMPLATE_OPTION_NAME", "index": 0}
    assert facts["hole"] == {
        "type": "TypeError",
        "message": "template[1] must be a string, not undefined",
    }

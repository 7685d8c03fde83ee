"""Errors raised for a caller's bad argument show that argument escaped, in both languages.

A cohort name, capability or tool id may come from anywhere (a config file, a web request); the
message of the error it causes is printed and logged, so a bidi override or a terminal escape in
it must come out escaped, never raw.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tool_registry import (
    UnknownCapabilityError,
    UnknownCohortError,
    UnknownToolError,
    get_tool_registry,
    hook_package_for,
)

from .conftest import REPO, build_typescript, run_node

HOSTILE = "x\u202e\x1b[31m\u2028\u0000"
RAW = ("\u202e", "\x1b", "\u2028", "\u0000")


def _raw_free(message: str) -> bool:
    return not any(char in message for char in RAW)


def test_python_messages_escape_the_value(tmp_path: Path) -> None:
    registry = get_tool_registry(str(tmp_path / "none"))
    with pytest.raises(UnknownCohortError) as cohort:
        registry.cohort(HOSTILE)  # type: ignore[arg-type]
    with pytest.raises(UnknownCapabilityError) as capability:
        registry.providers_of(HOSTILE)  # type: ignore[arg-type]
    with pytest.raises(UnknownToolError) as tool:
        hook_package_for(HOSTILE)  # type: ignore[arg-type]
    for raised in (cohort, capability, tool):
        message = str(raised.value)
        assert _raw_free(message), message
        assert "x" in message


RUNNER = """\
import { getToolRegistry, hookPackageFor } from "./index.js";
const hostile = HOSTILE;
const registry = getToolRegistry("/nonexistent-toolgen-folder");
const messages = [];
for (const attempt of [() => registry.cohort(hostile), () => registry.providersOf(hostile), () => hookPackageFor(hostile)]) {
  try { attempt(); messages.push(null); } catch (error) { messages.push([error.name, error.message]); }
}
console.log(JSON.stringify(messages));
"""


def test_typescript_messages_escape_the_value(tmp_path: Path) -> None:
    out = build_typescript(tmp_path, REPO / "generated/typescript")
    (out / "errors.mjs").write_text(RUNNER.replace("HOSTILE", json.dumps(HOSTILE)))
    completed = run_node(out / "errors.mjs")
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout)
    names = [entry[0] for entry in found]
    assert names == ["UnknownCohortError", "UnknownCapabilityError", "UnknownToolError"]
    for _, message in found:
        assert _raw_free(message), message


# Ids that are no text, each of which fails the run if any of its methods runs.
OBJECT_IDS = """\
import { hookPackageFor } from "./index.js";
const ran = [];
const loud = {
  toString() { ran.push("toString"); return "claude-code"; },
  valueOf() { ran.push("valueOf"); return "claude-code"; },
  [Symbol.toPrimitive]() { ran.push("toPrimitive"); return "claude-code"; },
};
const trap = new Proxy({}, { get(_target, key) { ran.push(String(key)); return undefined; } });
const bare = Object.create(null);
const messages = [loud, trap, bare, 5, null, undefined, Symbol("s")].map((id) => {
  try { hookPackageFor(id); return null; } catch (error) { return [error.name, error.message]; }
});
console.log(JSON.stringify({ ran, messages }));
"""


def test_typescript_hook_package_for_runs_no_method_of_the_id(tmp_path: Path) -> None:
    out = build_typescript(tmp_path, REPO / "generated/typescript")
    (out / "ids.mjs").write_text(OBJECT_IDS)
    completed = run_node(out / "ids.mjs")
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout)
    assert found["ran"] == []
    assert [message for _, message in found["messages"]] == [
        "unknown tool id: <object>",
        "unknown tool id: <object>",
        "unknown tool id: <object>",
        "unknown tool id: 5",
        "unknown tool id: null",
        "unknown tool id: undefined",
        "unknown tool id: Symbol(s)",
    ]
    assert {name for name, _ in found["messages"]} == {"UnknownToolError"}

"""Fourth hostile review: bounds that must limit work and memory while input is read (not trim
the result afterwards), and guards that must hold in every reader of the same data."""

from __future__ import annotations

import functools
import json
import subprocess
import tracemalloc
from pathlib import Path

import pytest

from .conftest import copy_project, run_js
from .git_repo import git as _git

TABLE = "schema/tools.yaml"


# -- the generator: a baseline at a git revision is read under the folder reader's size cap ---


def test_a_baseline_file_at_a_revision_is_refused_past_the_cap_while_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``git show`` output was captured whole (capture_output) and parsed whatever its size, where
    # the same file in a baseline folder is refused past ``MAX_FILE_BYTES`` (read_file): a huge
    # blob at a revision cost its whole size in memory, then a parse.
    from generator import files
    from generator.baseline import read_baseline
    from generator.config import load_config

    limit = 1 << 20
    monkeypatch.setattr(files, "MAX_FILE_BYTES", limit)
    repo = copy_project(tmp_path / "repo")
    original = (repo / TABLE).read_bytes()
    (repo / TABLE).write_bytes(original + b"#" + b"x" * (8 * limit) + b"\n")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--no-verify", "-m", "big")
    _git(repo, "tag", "big")
    (repo / TABLE).write_bytes(original)
    config = load_config(repo)
    tracemalloc.start()
    try:
        baseline = read_baseline(config, "big")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert baseline.table.value is None
    messages = [(d.code.value, d.source, d.message) for d in baseline.table.diagnostics]
    refusal = f'cannot read file: "larger than {limit} bytes"'
    assert messages == [("UNREADABLE", f"big:{TABLE}", refusal)], messages
    assert peak < 4 * limit, peak  # at most the cap was read, not the blob's 8 MiB
    # The same file in a baseline folder: the same refusal, from the folder reader.
    _git(repo, "checkout", "-q", "big", "--", TABLE)
    folder = read_baseline(config, str(repo))
    assert [(d.code.value, d.message) for d in folder.table.diagnostics] == [
        ("UNREADABLE", refusal)
    ]


# -- TypeScript: a long text is measured before it is searched -------------------------------

GENERATED_TS = Path(__file__).resolve().parent.parent / "generated" / "typescript"

LONG_TEXT_SCANS = """
import { parseThirdPartyManifest } from "./loader.js";
import { shown } from "./diagnostics.js";
// Every regular-expression search and substring test records how long a text it searched.
let longest = 0;
const exec = RegExp.prototype.exec;
RegExp.prototype.exec = function (text) {
  longest = Math.max(longest, String(text).length);
  return exec.call(this, text);
};
const includes = String.prototype.includes;
String.prototype.includes = function (...args) {
  longest = Math.max(longest, this.length);
  return includes.apply(this, args);
};
const huge = "x".repeat(20_000_000);
const results = {};
for (const [name, run] of [
  ["parse", () => parseThirdPartyManifest(huge, "src").diagnostics.map((d) => d.code)],
  ["parseSurrogate", () => parseThirdPartyManifest(huge + "\\ud800", "src").diagnostics.map((d) => d.code)],
  ["shown", () => shown(huge)],
]) {
  longest = 0;
  const value = run();
  results[name] = { value, longest };
}
process.stdout.write(JSON.stringify(results));
"""


@pytest.fixture(scope="module")
def ts_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from .conftest import build_typescript

    return build_typescript(tmp_path_factory.mktemp("ts-hostile-4"), GENERATED_TS)


def test_an_over_long_text_is_refused_before_it_is_searched(ts_out: Path) -> None:
    # ``parseThirdPartyManifest`` searched the whole text for a lone surrogate before refusing it
    # as too large, and ``shown`` searched a long text for a backslash and a hidden character
    # before clipping it: work in the text's length where Python measures first (its value
    # walk counts characters; its ``shown`` tests the length before any search).
    from tool_registry.constants import MANIFEST_MAX_BYTES
    from tool_registry.diagnostics import shown

    results = run_js(ts_out, LONG_TEXT_SCANS, name="long-text.mjs")
    assert results["parse"]["value"] == ["FILE_TOO_LARGE"]
    assert results["parseSurrogate"]["value"] == ["FILE_TOO_LARGE"]
    assert results["shown"]["value"] == shown("x" * 20_000_000)
    for name, found in results.items():
        assert found["longest"] <= MANIFEST_MAX_BYTES + 1, (name, found["longest"])


# -- an unknown cohort or capability: the caller's value is clipped before it is escaped --------

ARGUMENT_TEXTS = [
    "",
    "plain",
    "x" * 79,
    "x" * 80,
    "x" * 81,
    "x" * 200,
    "it's" * 40,
    'say "it\'s" ' * 20,
    '"' * 100,
    "'" * 100,
    "x" * 150 + "'",
    "x" * 150 + "'\"",
    "\x00\n\t\\" * 50,
    "\U0001f600" * 100,
    "\ud800" * 100,
    "\u202e" + "y" * 100,
]


class _Text(str):
    def __contains__(self, item: object) -> bool:
        raise AssertionError("a method of the value ran")


@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=range(len(ARGUMENT_TEXTS)))
def test_a_caller_s_text_is_shown_as_its_escaped_repr_clipped(text: str) -> None:
    from tool_registry.diagnostics import shown, shown_argument

    assert shown_argument(text) == shown(repr(text))
    assert shown_argument(_Text(text)) == shown(repr(text))


def test_a_huge_unknown_capability_is_clipped_before_it_is_escaped() -> None:
    # ``shown_argument`` built the whole ``repr`` of the caller's text, then clipped it to 80
    # characters: a 20-million-character text of NULs made an 80-million-character repr.
    from tool_registry import get_tool_registry
    from tool_registry.registry import UnknownCapabilityError, UnknownCohortError

    registry = get_tool_registry(Path(__file__).parent / "no-such-adapters-folder")
    huge = "\x00" * 20_000_000
    tracemalloc.start()
    try:
        with pytest.raises(UnknownCapabilityError) as capability:
            registry.providers_of(huge)  # type: ignore[arg-type]
        capability_message = str(capability.value)
        with pytest.raises(UnknownCohortError) as cohort:
            registry.cohort(huge)  # type: ignore[arg-type]
        cohort_message = str(cohort.value)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert capability_message.startswith("unknown capability '\\\\x00")
    assert "..." in cohort_message
    assert peak < 2_000_000, peak


COHORT_MESSAGES = """
import { UnknownCohortError, UnknownCapabilityError } from "./registry.js";
import { shown } from "./diagnostics.js";
import { COHORT_NAMES } from "./tools.js";
const texts = %s;
const mismatches = texts.filter(
  (text) =>
    new UnknownCohortError(text).message !==
    `unknown cohort ${shown(JSON.stringify(text))}; the cohorts are ${COHORT_NAMES.join(", ")}`,
);
let longest = 0;
const stringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (typeof value === "string") longest = Math.max(longest, value.length);
  return stringify.call(this, value, ...rest);
};
const exec = RegExp.prototype.exec;
RegExp.prototype.exec = function (text) {
  longest = Math.max(longest, String(text).length);
  return exec.call(this, text);
};
const huge = "\\u0000".repeat(20_000_000);
const messages = [new UnknownCohortError(huge).message, new UnknownCapabilityError(huge).message];
JSON.stringify = stringify;
process.stdout.write(stringify({ mismatches, longest, messages }));
"""


def test_a_huge_unknown_cohort_is_clipped_before_it_is_escaped_in_typescript(ts_out: Path) -> None:
    # ``UnknownCohortError`` escaped the caller's whole text (``JSON.stringify``: six characters
    # per control character) before clipping it to 80.
    found = run_js(ts_out, COHORT_MESSAGES % json.dumps(ARGUMENT_TEXTS), name="cohort.mjs")
    assert found["mismatches"] == []
    assert found["longest"] <= 1000, found["longest"]
    assert all("..." in message for message in found["messages"])


# -- detection: the pointer cap holds for what any reader returns ------------------------------

POINTER_CAP = """
import { detectAll } from "./detection.js";
import { BUILTIN_TOOL_MANIFESTS } from "./tools.js";
const [home, text] = process.argv.slice(2);
const tool = { ...BUILTIN_TOOL_MANIFESTS[0], id: "fixture-tool", hookPointer: ".fixture/pointer.json",
  detect: { kind: "path", binaryName: "fixture-tool" }, builtin: true };
const registry = { tools: [tool], resolverFor: () => undefined };
const verdicts = [];
for (const size of [65536 - text.length, 65536 - text.length + 1, 10_000_000]) {
  const pointer = text + " ".repeat(Math.max(size, 0));
  const [result] = await detectAll(registry, {
    which: () => null, home: () => home, readText: () => pointer, isFile: () => true,
  });
  verdicts.push([result.hooksInstalled, result.diagnostic === null ? null : result.diagnostic.message]);
}
process.stdout.write(JSON.stringify(verdicts));
"""


def _constant(text: str, path: str) -> str:
    return text


def test_an_injected_pointer_reader_s_text_is_held_to_the_cap(ts_out: Path, tmp_path: Path) -> None:
    # Only the default reader refused a pointer past MAX_POINTER_BYTES; the text an injected
    # ``read_text`` returned was encoded and parsed whatever its size (the loader, by contrast,
    # refuses what any reader returns past its cap).
    import dataclasses

    from tool_registry import BUILTIN_TOOL_MANIFESTS, DetectionDeps, detect_all
    from tool_registry.detection import MAX_POINTER_BYTES
    from tool_registry.models import PathDetect
    from tool_registry.registry import ToolRegistry

    tool = dataclasses.replace(
        BUILTIN_TOOL_MANIFESTS[0],
        id="fixture-tool",
        hookPointer=".fixture/pointer.json",
        detect=PathDetect(kind="path", binaryName="fixture-tool"),
        builtin=True,
    )
    text = json.dumps({"backup": "backup"})
    python = []
    for size in (MAX_POINTER_BYTES - len(text), MAX_POINTER_BYTES - len(text) + 1, 10_000_000):
        deps = DetectionDeps(
            which=lambda name: None,
            home=lambda: str(tmp_path),
            read_text=functools.partial(_constant, text + " " * size),
            is_file=lambda path: True,
        )
        (result,) = detect_all(ToolRegistry(tools=(tool,)), deps)
        message = None if result.diagnostic is None else result.diagnostic.message
        python.append([result.hooks_installed, message])
    refused = [
        False,
        f"detection failed: hook pointer: PointerTooLargeError: larger than {MAX_POINTER_BYTES}"
        " bytes",
    ]
    assert python == [[True, None], refused, refused]
    from .conftest import node_executable

    script = ts_out / "pointer-cap.mjs"
    script.write_text(POINTER_CAP, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), str(tmp_path), text],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    typescript = json.loads(completed.stdout)
    assert typescript[0] == [True, None]
    assert [verdict[0] for verdict in typescript[1:]] == [False, False]
    assert all("PointerTooLargeError" in verdict[1] for verdict in typescript[1:])


# -- unknown arguments: no method of the caller's value runs while the message is built ---------

UNKNOWN_ARGUMENTS = """
import { getToolRegistry } from "./registry.js";
const registry = getToolRegistry("/nonexistent-toolgen-folder");
let ran = 0;
const noisy = { toString() { ran++; return "x"; }, valueOf() { ran++; return 1; },
  [Symbol.toPrimitive]() { ran++; return "x"; } };
const trap = new Proxy({}, { get() { ran++; throw new Error("trap"); },
  getPrototypeOf() { ran++; throw new Error("trap"); }, ownKeys() { ran++; throw new Error("trap"); } });
const revocable = Proxy.revocable({}, {});
revocable.revoke();
const values = [noisy, trap, revocable.proxy, () => 1, Symbol("s"), 10n ** 50n, 2n ** 300n,
  undefined, null, NaN, 1.5, true, ["a"]];
const messages = [];
for (const value of values) {
  for (const call of [(v) => registry.providersOf(v), (v) => registry.cohort(v)]) {
    try { call(value); messages.push(null); }
    catch (error) { messages.push([error.name, error.message.split(";")[0]]); }
  }
}
process.stdout.write(JSON.stringify({ ran, messages }));
"""


def test_an_unknown_argument_runs_none_of_its_methods_in_typescript(ts_out: Path) -> None:
    # The errors called String(value): the caller's toString, Symbol.toPrimitive or a Proxy's
    # trap ran (Python's shown_argument runs none of the value's methods).
    found = run_js(ts_out, UNKNOWN_ARGUMENTS, name="unknown-arguments.mjs")
    assert found["ran"] == 0
    shown = [entry[1] for entry in found["messages"]]
    assert shown[0:6] == ["unknown capability <object>", "unknown cohort <object>"] * 3
    assert shown[6:8] == ["unknown capability <function>", "unknown cohort <function>"]
    assert shown[8] == "unknown capability Symbol(s)"
    assert shown[10] == "unknown capability " + str(10**50)
    assert shown[12] == "unknown capability an integer of 301 bits"
    assert shown[14:20:2] == [
        "unknown capability undefined",
        "unknown capability null",
        "unknown capability nan",
    ]
    assert shown[24] == "unknown capability <object>"
    names = {entry[0] for entry in found["messages"]}
    assert names == {"UnknownCapabilityError", "UnknownCohortError"}

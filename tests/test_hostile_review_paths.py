"""A hostile review of what adapter data and a host's injected dependencies meet after (or beside)
loading: detection's probes, the registry's options, prompt arguments and the launch guard, in
both languages. Each finding is held to the other language's verdict on the same input, or to
the README's promise."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    DetectionDeps,
    detect_all,
    detect_tool,
    ensure_launchable,
    get_tool_registry,
)
from tool_registry.launch import NotLaunchableError

from .conftest import REPO, build_typescript, run_js

GENERATED_TS = REPO / "generated" / "typescript"
NO_FOLDER = str(REPO / "tests" / "no-such-adapters-folder")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review-paths"), GENERATED_TS)


# -- detection: a host's probe answers no truth value, only a boolean -------------------------

# Answers ``is_file`` may give that are no boolean; JSON cannot spell NaN, so the script makes it.
ODD_FILE_ANSWERS: list[Any] = [[], {}, "", 0, "no", 1, ["x"], None, math.nan]


def _python_rows(deps: DetectionDeps) -> list[list[Any]]:
    registry = get_tool_registry(NO_FOLDER, resolvers={"cursor": lambda _deps: ["/opt/cursor"]})
    rows = []
    for result in detect_all(registry, deps):
        if result.id in ("claude-code", "cursor"):
            found = None if result.diagnostic is None else result.diagnostic.found.split(":")[0]
            rows.append([result.id, result.installed, result.path, result.hooks_installed, found])
    return rows


ODD_ANSWERS_SCRIPT = """
import { getToolRegistry, detectAll } from "./index.js";
const registry = getToolRegistry(%s, { resolvers: { cursor: () => ["/opt/cursor"] } });
const answers = %s.map((answer) => (answer === "NaN" ? NaN : answer));
const rows = [];
for (const answer of answers) {
  const deps = {
    which: () => %s,
    isFile: () => answer,
    home: () => "/home/u",
    platform: () => "linux",
    runVersion: async () => "1.0",
    readText: () => '{"backup": "b"}',
  };
  const results = await detectAll(registry, deps);
  rows.push(results.filter((r) => r.id === "claude-code" || r.id === "cursor").map((r) =>
    [r.id, r.installed, r.path, r.hooksInstalled, r.diagnostic === null ? null : r.diagnostic.found.split(":")[0]]));
}
process.stdout.write(JSON.stringify(rows));
"""


def test_an_is_file_answer_that_is_no_boolean_is_a_failing_probe_in_both_languages(
    out: Path,
) -> None:
    """``is_file`` answering ``[]``, ``{}`` or NaN found a candidate in one language and not the
    other (JavaScript's truth values are not Python's), and every odd answer was reported as
    ``hooks_installed`` itself (``"no"``, ``[]``) and could find a tool installed. Now anything
    but a boolean fails that probe, alike: the tool is not installed, no hooks, and the
    diagnostic names the step."""
    spelled = [("NaN" if isinstance(a, float) else a) for a in ODD_FILE_ANSWERS]
    found = run_js(out, ODD_ANSWERS_SCRIPT % (json.dumps(NO_FOLDER), json.dumps(spelled), "null"))
    for answer, ts_rows in zip(ODD_FILE_ANSWERS, found, strict=True):

        def is_file(_path: str, answer: Any = answer) -> Any:
            return answer

        deps = DetectionDeps(
            which=lambda _name: None,
            is_file=is_file,
            home=lambda: "/home/u",
            platform=lambda: "linux",
            run_version=lambda _path, _timeout: "1.0",
            read_text=lambda _path: '{"backup": "b"}',
        )
        python_rows = _python_rows(deps)
        assert python_rows == ts_rows, answer
        assert python_rows == [
            ["claude-code", False, None, False, "hook pointer"],
            ["cursor", False, None, False, "probe"],
        ], answer


@pytest.mark.parametrize("answer", [True, False])
def test_a_boolean_is_file_answer_still_decides(answer: bool) -> None:
    deps = DetectionDeps(
        which=lambda _name: None,
        is_file=lambda _path: answer,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        run_version=lambda _path, _timeout: "1.0",
        read_text=lambda _path: '{"backup": "b"}',
    )
    rows = _python_rows(deps)
    assert rows == [
        ["claude-code", False, None, answer, None],
        ["cursor", answer, "/opt/cursor" if answer else None, answer, None],
    ]


@pytest.mark.parametrize("answer", ["undefined", "false", "0", "[]", "({})"])
def test_a_which_answer_that_is_no_text_finds_nothing_installed_in_typescript(
    out: Path, answer: str
) -> None:
    """A JavaScript ``which`` answering ``undefined`` (a lookup table's answer for a name it
    does not hold) found every path-detected tool installed, and written as JSON its result said
    ``installed: true, path: null``; ``false`` or ``0`` for "not found" did the same, in both
    languages. Anything but text or null is now a failing probe."""
    found = run_js(out, ODD_ANSWERS_SCRIPT % (json.dumps(NO_FOLDER), "[false]", answer))
    assert found == [
        [["claude-code", False, None, False, "probe"], ["cursor", False, None, False, None]]
    ]


@pytest.mark.parametrize("answer", [False, 0, [], b"/usr/bin/claude"])
def test_a_which_answer_that_is_no_text_finds_nothing_installed_in_python(answer: object) -> None:
    deps = DetectionDeps(
        which=lambda _name: answer,  # type: ignore[arg-type,return-value]
        is_file=lambda _path: False,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        run_version=lambda _path, _timeout: "1.0",
        read_text=lambda _path: None,
    )
    assert _python_rows(deps)[0] == ["claude-code", False, None, False, "probe"]
    # The launch guard, detecting through the same dependencies, does not approve it either.
    with pytest.raises(NotLaunchableError) as refused:
        ensure_launchable(get_tool_registry(NO_FOLDER), "claude-code", deps=deps)
    assert refused.value.code == "NOT_INSTALLED"


class _LoudText(str):
    """A ``str`` whose own ``strip`` would report another version."""

    def strip(self, chars: str | None = None) -> str:
        return "9.9.9 \x1b[2J"


def test_a_run_version_answer_is_read_as_plain_text_or_refused() -> None:
    """A ``str`` subclass answered by a host's ``run_version`` had its own ``strip`` run (the
    README promises that no method of a ``str`` subclass runs inside the runtime), and a
    ``bytes`` answer failed on ``shown``'s own check, not as the answer it is."""
    registry = get_tool_registry(NO_FOLDER)

    def claude(answer: object) -> tuple[object, object]:
        deps = DetectionDeps(
            which=lambda name: "/usr/bin/" + name,
            is_file=lambda _path: False,
            home=lambda: "/home/u",
            platform=lambda: "linux",
            run_version=lambda _path, _timeout: answer,  # type: ignore[arg-type,return-value]
            read_text=lambda _path: None,
        )
        result = detect_all(registry, deps)[0]
        found = None if result.diagnostic is None else result.diagnostic.found
        return result.version, found

    assert claude(_LoudText(" 2.0 ")) == ("2.0", None)
    assert claude(b"1.0") == (
        None,
        "version: TypeError: run_version must return text or None, not bytes",
    )


RUN_VERSION_SCRIPT = """
import { getToolRegistry, detectAll } from "./index.js";
const registry = getToolRegistry(%s);
const rows = [];
for (const answer of [undefined, Buffer.from("1.0"), 5, " 2.0 ", null]) {
  const results = await detectAll(registry, {
    which: (name) => "/usr/bin/" + name,
    isFile: () => false,
    home: () => "/home/u",
    platform: () => "linux",
    runVersion: async () => answer,
    readText: () => null,
  });
  const r = results[0];
  rows.push([r.version, r.diagnostic === null ? null : r.diagnostic.found]);
}
process.stdout.write(JSON.stringify(rows));
"""


def test_a_run_version_answer_that_is_no_text_is_named_in_typescript(out: Path) -> None:
    """TypeScript failed inside its own strip for ``undefined`` or a ``Buffer`` (a message about
    ``charCodeAt``); it now names the answer, as Python does."""
    assert run_js(out, RUN_VERSION_SCRIPT % json.dumps(NO_FOLDER)) == [
        [None, "version: TypeError: runVersion must resolve to text or null, not undefined"],
        [None, "version: TypeError: runVersion must resolve to text or null, not object"],
        [None, "version: TypeError: runVersion must resolve to text or null, not number"],
        ["2.0", None],
        [None, None],
    ]


# -- detect_tool checks its arguments as detect_all does --------------------------------------


def test_detect_tool_refuses_deps_and_a_probe_flag_of_the_wrong_type() -> None:
    """``detect_tool`` (public, beside ``detect_all``) took ``deps=None`` as a tool failing every
    probe (``AttributeError`` in its diagnostic) and ``probe_version="no"`` as a truth value: the
    version probe ran a program. Both are now ``TypeError``s before anything is probed, as
    ``detect_all``'s arguments are; ``None`` is the real system, as there."""
    registry = get_tool_registry(NO_FOLDER)
    ran: list[str] = []
    deps = DetectionDeps(
        which=lambda name: "/usr/bin/" + name,
        is_file=lambda _path: False,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        run_version=lambda path, _timeout: ran.append(path) or "1.0",  # type: ignore[func-returns-value]
        read_text=lambda _path: None,
    )
    tool = registry.tools[0]
    with pytest.raises(TypeError, match="probe_version must be True, False or None"):
        detect_tool(tool, registry, deps, probe_version="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="deps must be a DetectionDeps"):
        detect_tool(tool, registry, {"which": None})  # type: ignore[arg-type]
    assert ran == []
    assert detect_tool(tool, registry, deps, probe_version=False).version is None
    assert detect_tool(tool, registry, deps).version == "1.0"
    assert ran == ["/usr/bin/claude"]


# Detection deps for a script: every program found in /usr/bin, every version probe recorded
# in ``ran`` and answered "1.0", no file present.
RECORDING_DETECTION_DEPS_JS = """
const ran = [];
const deps = {
  which: (name) => "/usr/bin/" + name,
  isFile: () => false,
  home: () => "/home/u",
  platform: () => "linux",
  runVersion: async (path) => { ran.push(path); return "1.0"; },
  readText: () => null,
};
"""

DETECT_TOOL_SCRIPT = (
    """
import { getToolRegistry, detectTool } from "./index.js";
const registry = getToolRegistry(%s);
"""
    + RECORDING_DETECTION_DEPS_JS
    + """const tool = registry.tools[0];
const refused = async (attempt) => { try { await attempt(); return null; } catch (error) { return error.name; } };
const out = [
  await refused(() => detectTool(tool, registry, deps, { probeVersion: false })),
  await refused(() => detectTool(tool, registry, deps, "no")),
  await refused(() => detectTool(tool, registry, 5)),
  [...ran],
  (await detectTool(tool, registry, deps, false)).version,
  (await detectTool(tool, registry, deps)).version,
  ran,
];
process.stdout.write(JSON.stringify(out));
"""
)


def test_typescript_detect_tool_refuses_an_options_object_for_its_probe_flag(out: Path) -> None:
    """``detectTool(tool, registry, deps, { probeVersion: false })`` (``detectAll``'s spelling,
    which a test of this repository used) ran the version probe: the object is truthy."""
    assert run_js(out, DETECT_TOOL_SCRIPT % json.dumps(NO_FOLDER)) == [
        "TypeError",
        "TypeError",
        "TypeError",
        [],
        None,
        "1.0",
        ["/usr/bin/claude"],
    ]


# -- grants: an array is no mapping of ids -----------------------------------------------------

ZERO_ADAPTER = {
    "id": "0",
    "displayName": "Zero",
    "category": "cli-agent",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".zero/x.json",
    "detect": {"kind": "path", "binaryName": "zero"},
    "capabilities": {"provides": ["headless-task"]},
}

ARRAY_GRANTS_SCRIPT = """
import { getToolRegistry } from "./index.js";
const rows = [];
for (const grants of [[["headless-task"]], new Proxy([["headless-task"]], {}), { 0: ["headless-task"] }]) {
  const registry = getToolRegistry(%s, { grants });
  rows.push([registry.providersOf("headless-task").includes("0"), registry.diagnostics.map((d) => d.code)]);
}
process.stdout.write(JSON.stringify(rows));
"""


def test_grants_given_as_an_array_grant_nothing_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    """TypeScript read an array of grants by its indexes: ``[["headless-task"]]`` granted the
    adapter whose id is ``"0"`` (a valid id) that capability, routing it, where Python's list
    (no mapping) grants nothing. An array now grants nothing, as in Python; an object keyed
    ``"0"`` still grants."""
    (tmp_path / "zero.json").write_text(json.dumps(ZERO_ADAPTER), encoding="utf-8")
    folder = str(tmp_path)
    not_granted = ["CAPABILITY_NOT_GRANTED"]
    assert run_js(out, ARRAY_GRANTS_SCRIPT % json.dumps(folder)) == [
        [False, not_granted],
        [False, not_granted],
        [True, []],
    ]
    for grants in ([["headless-task"]], {"0": ["headless-task"]}):
        registry = get_tool_registry(folder, grants=grants)  # type: ignore[arg-type]
        granted = "0" in registry.providers_of("headless-task")
        assert granted is isinstance(grants, dict)
        codes = [d.code.value for d in registry.diagnostics]
        assert codes == ([] if granted else not_granted)


NO_MANIFEST_SCRIPT = """
import { getToolRegistry, detectTool } from "./index.js";
const registry = getToolRegistry(%s);
const out = [];
for (const value of ["claude-code", 5, null, ["claude-code"]]) {
  try { await detectTool(value, registry); out.push(null); } catch (error) { out.push(error.message); }
}
process.stdout.write(JSON.stringify(out));
"""


def test_detect_tool_refuses_what_is_no_manifest_in_both_languages(out: Path) -> None:
    """``detectTool("claude-code", registry)`` answered a result whose ``id`` was undefined (a
    string has no own ``detect``: an inert entry), where Python raised ``AttributeError``."""
    registry = get_tool_registry(NO_FOLDER)
    for value in ("claude-code", 5, None, ["claude-code"]):
        with pytest.raises(TypeError, match="tool must be a ToolManifest"):
            detect_tool(value, registry)  # type: ignore[arg-type]
    assert run_js(out, NO_MANIFEST_SCRIPT % json.dumps(NO_FOLDER)) == [
        "tool must be a ToolManifest object, not string",
        "tool must be a ToolManifest object, not number",
        "tool must be a ToolManifest object, not null",
        "tool must be a ToolManifest object, not array",
    ]


class _TwoFacedPointer(str):
    """A pointer text whose own ``encode`` names another backup than its characters do."""

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        return b'{"backup": "/elsewhere"}'

    def __len__(self) -> int:
        return 0


def test_a_read_text_answer_is_read_as_plain_text() -> None:
    """A ``str`` subclass answered by a host's ``read_text`` had its own ``__len__`` (the size
    cap) and ``encode`` (the bytes parsed) run: the backup asked about was one its characters do
    not name, and a huge text passed the cap. It is now read as the exact ``str`` it holds, as
    TypeScript reads its string."""
    registry = get_tool_registry(NO_FOLDER)
    asked: list[str] = []

    def hooks(text: str) -> tuple[bool, object]:
        asked.clear()
        deps = DetectionDeps(
            which=lambda _name: None,
            is_file=lambda path: asked.append(path) or True,  # type: ignore[func-returns-value]
            home=lambda: "/home/u",
            platform=lambda: "linux",
            run_version=lambda _path, _timeout: None,
            read_text=lambda _path: text,
        )
        result = detect_tool(registry.tools[0], registry, deps, probe_version=False)
        return (
            result.hooks_installed,
            None if result.diagnostic is None else result.diagnostic.found,
        )

    assert hooks(_TwoFacedPointer('{"backup": "/b"}')) == (True, None)
    assert asked == ["/b"]
    huge = _TwoFacedPointer('{"backup": "/b", "pad": "' + "x" * 70_000 + '"}')
    assert hooks(huge) == (False, "hook pointer: PointerTooLargeError: larger than 65536 bytes")
    assert asked == []


class _OddHome(str):
    """A home folder whose own methods would join it to the pointer another way."""

    def endswith(self, *_args: object) -> bool:
        return True

    def __add__(self, other: str) -> str:
        return "/elsewhere/" + other


class _OddPlatform(str):
    """A platform whose own ``__eq__`` says it is every platform."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def test_home_and_platform_answers_are_read_as_plain_text() -> None:
    """A ``str`` subclass answered by a host's ``home`` or ``platform`` had its own methods run
    by the join and the comparisons (the README promises that no method of a ``str`` subclass
    runs inside the runtime): the hook pointer read was ``/elsewhere/...``, and a platform equal
    to everything probed Windows' batch-file rule on Linux."""
    registry = get_tool_registry(NO_FOLDER)
    read: list[str] = []
    deps = DetectionDeps(
        which=lambda name: "/usr/bin/" + name + ".cmd",
        is_file=lambda _path: False,
        home=lambda: _OddHome("/home/u"),
        platform=lambda: _OddPlatform("linux"),
        run_version=lambda _path, _timeout: "1.0",
        read_text=lambda path: read.append(path) or None,  # type: ignore[func-returns-value]
    )
    result = detect_tool(registry.tools[0], registry, deps)
    assert read == ["/home/u/.claude/hive-mind-install.json"]
    assert result.pointer_path == read[0]
    assert (result.version, result.diagnostic) == ("1.0", None)


# -- deps given as a class: its methods were never called, and the real system ran -----------


def test_a_detection_deps_subclass_method_hidden_by_its_member_is_refused() -> None:
    """``class Fake(DetectionDeps): def which(self, name): ...`` is a ``DetectionDeps``, but
    the instance's ``which`` member (the real PATH lookup, by default) hides the method, so the
    host's fakes were silently the real system, programs' ``--version`` included."""

    class Fake(DetectionDeps):
        def which(self, name: str) -> str | None:
            return "/fake/" + name

    registry = get_tool_registry(NO_FOLDER)
    with pytest.raises(TypeError, match="defines which, which its DetectionDeps member hides"):
        detect_all(registry, Fake())
    with pytest.raises(TypeError, match="defines which"):
        ensure_launchable(registry, "claude-code", deps=Fake())

    # A dataclass subclass giving a member another default is read as it says.
    @dataclass(frozen=True)
    class Defaults(DetectionDeps):
        which: Callable[[str], str | None] = lambda name: "/fake/" + name

    defaults = Defaults(
        is_file=lambda _path: False,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        run_version=lambda _path, _timeout: None,
        read_text=lambda _path: None,
    )
    result = detect_tool(registry.tools[0], registry, defaults, probe_version=False)
    assert result.path == "/fake/claude"


CLASS_DEPS_SCRIPT = """
import { getToolRegistry, detectAll } from "./index.js";
class FakeDeps {
  which(name) { return "/fake/" + name; }
  isFile() { return false; }
  home() { return "/home/u"; }
  platform() { return "linux"; }
  async runVersion() { return "1.0"; }
  readText() { return null; }
}
const registry = getToolRegistry(%s);
let refused = null;
try { await detectAll(registry, new FakeDeps()); } catch (error) { refused = error.name; }
const plain = await detectAll(registry, Object.fromEntries(
  ["which", "isFile", "home", "platform", "runVersion", "readText"].map((name) => [name, FakeDeps.prototype[name]])));
const bare = await detectAll(registry, Object.assign(Object.create(null), { which: () => null, runVersion: async () => null }));
process.stdout.write(JSON.stringify([refused, plain[0].path, bare[0].path]));
"""


def test_typescript_refuses_a_class_instance_as_deps(out: Path) -> None:
    """``detectAll(registry, new FakeDeps())`` read only the instance's own members (none), so
    every fake was replaced by the real system: the real PATH lookup and version probe ran."""
    assert run_js(out, CLASS_DEPS_SCRIPT % json.dumps(NO_FOLDER)) == [
        "TypeError",
        "/fake/claude",
        None,
    ]

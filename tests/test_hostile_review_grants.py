"""A hostile review of grants, categories, hook packages, the launch guard and prompt arguments,
in both languages: each finding is held to the other language's verdict on the same input, or to
the README's promise."""

from __future__ import annotations

import functools
import json
import tracemalloc
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    UnknownCapabilityError,
    UnknownCohortError,
    UnknownToolError,
    get_tool_registry,
    hook_package_for,
)

from .conftest import REPO, build_typescript, run_js

GENERATED_TS = REPO / "generated" / "typescript"
NO_FOLDER = str(REPO / "tests" / "no-such-adapters-folder")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review-grants"), GENERATED_TS)


# -- unknown names: the caller's text is clipped alike in both languages -----------------------

# Texts with no quote, backslash or hidden character: Python's repr and TypeScript's JSON text
# differ only in the quote.
PLAIN_TEXTS = ["", "plain", "x" * 79, "x" * 80, "x" * 81, "y" * 5000, "\u00e9t\u00e9 " * 40]

UNKNOWN_NAMES = """
import { getToolRegistry, hookPackageFor } from "./index.js";
const registry = getToolRegistry(%s);
const texts = %s;
const message = (attempt) => { try { attempt(); return null; } catch (error) { return error.message; } };
process.stdout.write(JSON.stringify(texts.map((text) => [
  message(() => registry.cohort(text)),
  message(() => registry.providersOf(text)),
  message(() => hookPackageFor(text)),
])));
"""


def _python_messages(text: str) -> list[str]:
    registry = get_tool_registry(NO_FOLDER)
    messages = []
    for attempt, error in (
        (registry.cohort, UnknownCohortError),
        (registry.providers_of, UnknownCapabilityError),
        (hook_package_for, UnknownToolError),
    ):
        with pytest.raises(error) as raised:
            attempt(text)  # type: ignore[arg-type]
        messages.append(str(raised.value))
    return messages


def test_an_unknown_name_is_shown_clipped_alike_in_both_languages(out: Path) -> None:
    """Python's ``hook_package_for`` showed the whole ``ascii()`` of the caller's id (a 5,000
    character id made a 5,000 character message) where TypeScript clipped it to 80; TypeScript's
    ``UnknownCapabilityError`` ended ``one of ...`` where Python's (and its own cohort error) say
    ``the capabilities are ...``, and quoted the text after clipping it (a closing quote after
    ``...`` that the cohort and tool id messages do not have)."""
    found = run_js(out, UNKNOWN_NAMES % (json.dumps(NO_FOLDER), json.dumps(PLAIN_TEXTS)))
    for text, ts_messages in zip(PLAIN_TEXTS, found, strict=True):
        python = [message.replace("'", '"') for message in _python_messages(text)]
        assert ts_messages == python, text
        assert all(len(message) < 200 for message in python), text


def test_python_clips_a_huge_unknown_tool_id_before_it_is_escaped() -> None:
    """``ascii()`` of a 20-million-character id of NULs built an 80-million-character message."""
    huge = "\x00" * 20_000_000
    tracemalloc.start()
    try:
        with pytest.raises(UnknownToolError) as raised:
            hook_package_for(huge)  # type: ignore[arg-type]
        message = str(raised.value)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message.startswith("unknown tool id: '\\\\x00") and message.endswith("...")
    assert len(message) < 120
    assert peak < 2_000_000, peak


HUGE_TOOL_ID = """
import { hookPackageFor } from "./index.js";
let longest = 0;
const stringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (typeof value === "string") longest = Math.max(longest, value.length);
  return stringify.call(this, value, ...rest);
};
let message = null;
try { hookPackageFor("\\u0000".repeat(20_000_000)); } catch (error) { message = error.message; }
JSON.stringify = stringify;
process.stdout.write(stringify({ longest, message }));
"""


def test_typescript_clips_a_huge_unknown_tool_id_before_it_is_escaped(out: Path) -> None:
    """``hookPackageFor`` escaped the caller's whole id (``JSON.stringify``: six characters per
    NUL) before ``shown`` clipped it to 80."""
    found = run_js(out, HUGE_TOOL_ID)
    assert found["longest"] <= 1000, found["longest"]
    assert found["message"].endswith("...") and len(found["message"]) < 120


# -- grants and categories: endless or huge collections cost bounded work ----------------------


class _Counted:
    """An endless iterable of ``value`` that counts what was read and stops the test (rather than
    hanging it) far past any bound the runtime may keep."""

    def __init__(self, value: object) -> None:
        self.value = value
        self.read = 0

    def __iter__(self) -> Any:
        while True:
            self.read += 1
            if self.read > 100_000:
                raise AssertionError("read past any bound")  # grants: swallowed, categories: raised
            yield self.value


def test_python_reads_endless_grants_and_categories_within_a_bound() -> None:
    """``_texts`` built a frozenset of every value: an endless generator of capabilities (or of
    categories) was read without end."""
    capabilities = _Counted("headless-task")
    registry = get_tool_registry(NO_FOLDER, grants={"aider": capabilities, "bolt": ["resumable"]})
    assert capabilities.read == 1001
    # Past the bound that id is granted nothing (fail closed); the other ids keep theirs.
    assert dict(registry.grants) == {"bolt": frozenset({"resumable"})}
    categories = _Counted("cli-agent")
    with pytest.raises(ValueError, match="at most 1000 values"):
        get_tool_registry(NO_FOLDER, categories=categories)
    assert categories.read == 1001
    many_ids = {f"tool-{n}": ["headless-task"] for n in range(1001)}
    assert dict(get_tool_registry(NO_FOLDER, grants=many_ids).grants) == {}
    exactly = ["headless-task"] * 1000
    assert get_tool_registry(NO_FOLDER, grants={"aider": exactly}).grants == {
        "aider": frozenset({"headless-task"})
    }


ENDLESS_OPTIONS = """
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getToolRegistry } from "./registry.js";
const folder = mkdtempSync(join(tmpdir(), "endless-"));
writeFileSync(join(folder, "aider.json"), %s);
const counted = (value) => {
  const box = { read: 0 };
  box.iterable = { *[Symbol.iterator]() {
    for (;;) { box.read += 1; if (box.read > 100000) throw new Error("read past any bound"); yield value; }
  } };
  return box;
};
const capabilities = counted("headless-task");
const granted = getToolRegistry(folder, { grants: { aider: capabilities.iterable } });
const categories = counted("cli-agent");
let refused = null;
try { getToolRegistry(folder, { categories: categories.iterable }); } catch (error) { refused = [error.name, error.message]; }
const many = Object.fromEntries(Array.from({ length: 1001 }, (_, n) => ["aider" + (n ? n : ""), ["headless-task"]]));
process.stdout.write(JSON.stringify({
  read: capabilities.read,
  headless: granted.providersOf("headless-task"),
  categoriesRead: categories.read,
  refused,
  manyIds: getToolRegistry(folder, { grants: many }).providersOf("headless-task"),
  exactly: getToolRegistry(folder, { grants: { aider: Array(1000).fill("headless-task") } }).providersOf("headless-task"),
}));
"""

AIDER = {
    "id": "aider",
    "displayName": "Aider",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/x.json",
    "detect": {"kind": "path", "binaryName": "aider"},
    "capabilities": {"provides": ["headless-task"]},
}


def test_typescript_reads_endless_grants_and_categories_within_a_bound(
    out: Path, tmp_path: Path
) -> None:
    """``[...capabilities]`` and ``[...categories]`` spread an endless iterable without end;
    TypeScript now keeps Python's bound and verdicts."""
    found = run_js(out, ENDLESS_OPTIONS % json.dumps(json.dumps(AIDER)))
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "aider.json").write_text(json.dumps(AIDER))
    python_headless = get_tool_registry(
        folder, grants={"aider": _Counted("headless-task")}
    ).providers_of("headless-task")
    assert found["read"] == 1001
    assert found["headless"] == list(python_headless)
    assert "aider" not in found["headless"]
    assert found["categoriesRead"] == 1001
    assert found["refused"] == ["RangeError", "categories must hold at most 1000 values"]
    assert "aider" not in found["manyIds"]
    assert "aider" in found["exactly"]


# -- the launch guard: a wrong type is refused whatever the id ---------------------------------

WRONG_INSTALLED = """
import { ensureLaunchable } from "./index.js";
const outcome = (id, installed) => {
  try { ensureLaunchable(id, installed); return "approved"; }
  catch (error) { return error.name === "NotLaunchableError" ? error.code : error.name; }
};
const ids = %s;
const values = [5, "no", 0, { installed: false }];
process.stdout.write(JSON.stringify(ids.map((id) => values.map((value) => outcome(id, value)))));
"""


def test_the_launch_guard_refuses_a_wrong_type_before_the_id_in_both_languages(
    out: Path,
) -> None:
    """Python checked the ``detection`` argument only at detection's turn: for an unknown id it
    answered ``UNKNOWN_TOOL`` where TypeScript's guard (checking ``installed`` first, as the
    README promises: a wrong type is refused before anything is read) throws a ``TypeError``."""
    from tool_registry import DetectionResult, ensure_launchable
    from tool_registry.launch import NotLaunchableError

    ids = ["no-such-tool", "claude-code"]
    found = run_js(out, WRONG_INSTALLED % json.dumps(ids))
    registry = get_tool_registry(NO_FOLDER)

    def python_outcome(tool_id: str, installed: object) -> str:
        # The result a detection gave, holding ``installed``; and a value that is no result and
        # cannot be iterated, given as the detection itself.
        result = DetectionResult(tool_id, "x", installed, None, None, False, "")  # type: ignore[arg-type]
        outcomes = set()
        for detection in (result, 5, 0.5):
            try:
                ensure_launchable(registry, tool_id, detection=detection)  # type: ignore[arg-type]
                outcomes.add("approved")
            except NotLaunchableError as error:
                outcomes.add(str(error.code))
            except TypeError:
                outcomes.add("TypeError")
        assert len(outcomes) == 1, outcomes
        return outcomes.pop()

    wrong: list[object] = [5, "no", 0, {}]
    python = [[python_outcome(tool_id, value) for value in wrong] for tool_id in ids]
    assert python == found == [["TypeError"] * 4] * 2
    with pytest.raises(TypeError, match="deps must be"):
        ensure_launchable(registry, "no-such-tool", deps="x")  # type: ignore[arg-type]


# -- hook packages: a str subclass's methods never make the package name -----------------------


class _Impostor(str):
    """Text whose own methods name a built-in's hook package."""

    def __radd__(self, other: object) -> str:
        return hook_package_for("claude-code")

    def __add__(self, other: object) -> str:
        return hook_package_for("claude-code")


def test_hook_package_of_copies_a_str_subclass_before_use() -> None:
    """``HOOK_PACKAGE_PREFIX + tool_id`` ran a ``str`` subclass's ``__radd__`` (Python tries the
    right operand's reflected method first when it is a subclass): an adapter-like manifest
    ``mytool`` was given the built-in ``claude-code``'s hook package, and a ``hookPackage`` that
    is a subclass was handed back as it was. TypeScript's strings have no methods to run."""
    from types import SimpleNamespace

    from tool_registry import HOOK_PACKAGE_PREFIX, hook_package_of

    plain = hook_package_of(SimpleNamespace(id=_Impostor("mytool"), hookPackage=None))  # type: ignore[arg-type]
    assert plain == HOOK_PACKAGE_PREFIX + "mytool"
    named = hook_package_of(SimpleNamespace(id="mytool", hookPackage=_Impostor("pkg")))  # type: ignore[arg-type]
    assert type(named) is str and named == "pkg"


# -- prompt arguments: the arguments' size is bounded before they are built --------------------


def test_python_refuses_huge_arguments_before_building_them() -> None:
    """Twenty entries of 32 placeholders pass the schema: with a prompt of a megabyte the
    arguments were built whole (640 MB) before anything could refuse them."""
    from tool_registry import PromptArgError, apply_prompt_arg_template

    prompt = "x" * 1_000_000
    tracemalloc.start()
    try:
        with pytest.raises(PromptArgError) as raised:
            apply_prompt_arg_template(["{prompt}" * 100], prompt)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (raised.value.code, raised.value.index) == ("ARGUMENTS_TOO_LONG", 0)
    assert peak < 1_000_000, peak
    limit = "x" * (131_072 - 4)
    assert apply_prompt_arg_template(["a", "{prompt}", "b"], limit)[1] == limit
    with pytest.raises(PromptArgError):
        apply_prompt_arg_template(["abc", "{prompt}", "cd"], limit)


HUGE_ARGUMENTS = """
import { PromptArgError, applyPromptArgTemplate } from "./index.js";
let longest = 0;
const join = Array.prototype.join;
Array.prototype.join = function (...rest) {
  const joined = join.apply(this, rest);
  longest = Math.max(longest, joined.length);
  return joined;
};
const outcome = (template, prompt) => {
  try { return ["args", applyPromptArgTemplate(template, prompt).map((a) => a.length)]; }
  catch (error) { return error instanceof PromptArgError ? [error.code, error.index] : [error.name]; }
};
const huge = outcome(["{prompt}".repeat(100)], "x".repeat(1000000));
const built = longest;
const limit = "\\u{1F600}".repeat(131072 - 4);  // code points, as Python counts them
Array.prototype.join = join;
process.stdout.write(JSON.stringify({
  huge, built,
  atLimit: outcome(["a", "{prompt}", "b"], limit),
  pastLimit: outcome(["abc", "{prompt}", "cd"], limit),
}));
"""


def test_typescript_refuses_huge_arguments_before_building_them(out: Path) -> None:
    found = run_js(out, HUGE_ARGUMENTS)
    assert found["huge"] == ["ARGUMENTS_TOO_LONG", 0]
    assert found["built"] < 1_000_000, found["built"]
    assert found["atLimit"] == ["args", [1, 2 * (131_072 - 4), 1]]
    assert found["pastLimit"] == ["ARGUMENTS_TOO_LONG", 2]


# -- Windows: a batch file is never run -----------------------------------------------------------

BATCH_PATHS = [
    "C:\\tools\\claude.cmd",
    "C:\\tools\\claude.BAT",
    "C:\\tools\\claude.Cmd. .",
    "C:\\tools\\claude.exe",
    "C:\\tools\\claude.cmdx",
]

BATCH_FILES = """
import { getToolRegistry } from "./registry.js";
import { detectAll } from "./detection.js";
const registry = getToolRegistry("/nonexistent-adapters");
const outcomes = [];
for (const [path, platform] of %s) {
  const ran = [];
  const detected = await detectAll(registry, {
    which: (name) => (name === "claude" ? path : null),
    home: () => (platform === "win32" ? "C:\\\\Users\\\\u" : "/home/u"), platform: () => platform,
    readText: () => null,
    runVersion: async (program) => { ran.push(program); return "1.0"; },
  });
  const result = detected.find((r) => r.id === "claude-code");
  outcomes.push([ran, result.installed, result.version, result.diagnostic?.found ?? null]);
}
process.stdout.write(JSON.stringify(outcomes));
"""


def test_a_batch_file_is_not_run_for_its_version_on_windows_in_either_language(
    out: Path,
) -> None:
    """On Windows, Python's ``subprocess`` ran ``claude.cmd --version`` through ``cmd.exe`` (which
    parses the command line again: ``%``, ``^``, ``&``, ``|``), where node refuses to spawn a
    batch file without a shell (``EINVAL``): the two languages answered differently, and the
    README's "never a shell" did not hold for Python. Both now report the probe as failed
    without running anything; the tool is still installed."""
    from tool_registry import DetectionDeps, detect_all

    cases = [[path, "win32"] for path in BATCH_PATHS] + [[BATCH_PATHS[0], "linux"]]
    python = []
    for path, platform in cases:
        ran: list[str] = []
        home = "C:\\Users\\u" if platform == "win32" else "/home/u"

        def run_version(program: str, _timeout: float, ran: list[str] = ran) -> str:
            ran.append(program)
            return "1.0"

        def which(name: str, path: str = path) -> str | None:
            return path if name == "claude" else None

        deps = DetectionDeps(
            which=which,
            home=functools.partial(str, home),
            platform=functools.partial(str, platform),
            read_text=lambda _path: None,
            run_version=run_version,
        )
        registry = get_tool_registry(NO_FOLDER)
        result = next(r for r in detect_all(registry, deps) if r.id == "claude-code")
        found = None if result.diagnostic is None else result.diagnostic.found
        python.append([ran, result.installed, result.version, found])
    assert run_js(out, BATCH_FILES % json.dumps(cases)) == python
    refused = [True, None, "version: not run: a batch file (.bat, .cmd) runs through cmd.exe"]
    assert [outcome[1:] for outcome in python[:3]] == [refused] * 3
    assert all(outcome[0] == [] for outcome in python[:3])
    assert python[3][:3] == [[BATCH_PATHS[3]], True, "1.0"]  # an .exe is run
    assert python[5] == [[BATCH_PATHS[0]], True, "1.0", None]  # not Windows: no cmd.exe


REFUSED_IDS = """
import { ensureLaunchable } from "./index.js";
const ids = %s;
process.stdout.write(JSON.stringify(ids.map((id) => {
  try { ensureLaunchable(id); return null; } catch (error) { return [error.toolId, error.message]; }
})));
"""


def test_a_refused_id_is_shown_alike_in_both_languages(out: Path) -> None:
    """TypeScript's ``NotLaunchableError`` kept the caller's raw id in ``toolId`` (an ANSI escape
    or bidi override printed as it was, a huge id kept whole) and its message named no id, where
    Python's ``tool_id`` and message show it escaped and clipped."""
    from tool_registry import ensure_launchable
    from tool_registry.launch import NotLaunchableError

    ids = ["no-such-tool", "\x1b[31mred\u202e", "z" * 500, "a\\b"]
    registry = get_tool_registry(NO_FOLDER)
    python = []
    for tool_id in ids:
        with pytest.raises(NotLaunchableError) as raised:
            ensure_launchable(registry, tool_id)
        python.append([raised.value.tool_id, str(raised.value)])
    assert run_js(out, REFUSED_IDS % json.dumps(ids)) == python
    assert python[1][0] == "\\u001b[31mred\\u202e"
    assert len(python[2][1]) < 120


class _Elsewhere(str):
    """A path whose own encoding names another program (``subprocess`` encodes with it)."""

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        return b"./evil"


def test_a_which_answer_is_probed_and_reported_as_a_plain_copy() -> None:
    """A resolver's candidates were copied as exact ``str`` before being run, but ``which``'s
    answer was not: ``run_version`` and the result's ``path`` got the subclass, whose ``encode``
    (what ``subprocess`` calls) could run ``./evil`` while ``/usr/bin/claude`` was reported."""
    from tool_registry import DetectionDeps, detect_all

    ran: list[object] = []

    def run_version(program: str, _timeout: float) -> str:
        ran.append(program)
        return "1.0"

    deps = DetectionDeps(
        which=lambda name: _Elsewhere("/usr/bin/claude") if name == "claude" else None,
        home=functools.partial(str, "/home/u"),
        platform=functools.partial(str, "linux"),
        read_text=lambda _path: None,
        run_version=run_version,
    )
    result = next(
        r for r in detect_all(get_tool_registry(NO_FOLDER), deps) if r.id == "claude-code"
    )
    assert [type(program) for program in ran] == [str]
    assert type(result.path) is str and result.path == "/usr/bin/claude"


ENDLESS_RESOLVER = """
import { getToolRegistry } from "./registry.js";
import { detectAll } from "./detection.js";
let read = 0;
const endless = function* () {
  for (;;) { read += 1; if (read > 100000) throw new Error("read past any bound"); yield "/opt/nothing-" + read; }
};
const registry = getToolRegistry("/nonexistent-adapters", { resolvers: { "claude-desktop": endless } });
const detected = await detectAll(registry, {
  which: () => null, isFile: (path) => path === "/opt/nothing-1000", home: () => "/home/u",
  platform: () => "linux", readText: () => null, runVersion: async () => "1.0",
});
const result = detected.find((r) => r.id === "claude-desktop");
process.stdout.write(JSON.stringify([read, result.installed, result.path]));
"""


def test_an_endless_resolver_is_read_within_a_bound_in_both_languages(out: Path) -> None:
    """``[... for path in resolver(deps)]`` (TypeScript: ``[...resolver(deps)]``) read a
    resolver's endless generator without end; at most 1,000 candidates are read now."""
    from tool_registry import DetectionDeps, detect_all

    read = 0

    def endless(_deps: object) -> Any:
        nonlocal read
        while True:
            read += 1
            if read > 100_000:
                raise AssertionError("read past any bound")
            yield f"/opt/nothing-{read}"

    registry = get_tool_registry(NO_FOLDER, resolvers={"claude-desktop": endless})
    deps = DetectionDeps(
        which=lambda _name: None,
        is_file=lambda path: path == "/opt/nothing-1000",
        home=functools.partial(str, "/home/u"),
        platform=functools.partial(str, "linux"),
        read_text=lambda _path: None,
        run_version=lambda _program, _timeout: "1.0",
    )
    result = next(r for r in detect_all(registry, deps) if r.id == "claude-desktop")
    python = [read, result.installed, result.path]
    assert python == [1000, True, "/opt/nothing-1000"]
    assert run_js(out, ENDLESS_RESOLVER) == python


class _Masked:
    """Capabilities whose ``__class__`` property runs code (``isinstance`` reads it)."""

    reads = 0

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        _Masked.reads += 1
        raise AssertionError("the runtime read __class__ of a host's value")

    def __iter__(self) -> Any:
        return iter(["headless-task"])


def test_grants_read_no_class_property_of_a_hosts_value() -> None:
    """``isinstance(capabilities, Iterable)`` read a ``__class__`` property of the host's value:
    one that raised dropped every id's grants (the whole grant table is discarded on an error)."""
    registry = get_tool_registry(NO_FOLDER, grants={"aider": _Masked(), "bolt": ["resumable"]})
    assert _Masked.reads == 0
    assert dict(registry.grants) == {
        "aider": frozenset({"headless-task"}),
        "bolt": frozenset({"resumable"}),
    }


LONG_TEMPLATES = """
import { PromptArgError, applyPromptArgTemplate } from "./index.js";
let reads = 0;
const fake = new Proxy([], {
  get(target, key) {
    if (key === "length") return 4294967295;
    if (typeof key === "string" && /^[0-9]+$/.test(key)) { reads += 1; if (reads > 200000) throw new Error("read past any bound"); return ""; }
    return Reflect.get(target, key);
  },
});
const outcome = (template) => {
  try { return ["args", applyPromptArgTemplate(template, "p").length]; }
  catch (error) { return error instanceof PromptArgError ? [error.code, error.index] : [error.name, error.message]; }
};
process.stdout.write(JSON.stringify({
  fake: outcome(fake), reads,
  over: outcome(Array(131073).fill("")),
  atLimit: outcome(Array(131072).fill("")),
}));
"""


def test_a_template_of_more_entries_than_the_limit_is_refused_before_it_is_read(
    out: Path,
) -> None:
    """``applyPromptArgTemplate`` read every element a ``Proxy`` answered for a faked ``length``
    of 4,294,967,295 (empty entries add no characters, so the length bound never came): the
    template is refused before any element is read, as Python refuses a longer list."""
    from tool_registry import PromptArgError, apply_prompt_arg_template

    found = run_js(out, LONG_TEMPLATES)
    assert found["fake"] == ["ARGUMENTS_TOO_LONG", 131_072] and found["reads"] == 0
    with pytest.raises(PromptArgError) as raised:
        apply_prompt_arg_template([""] * 131_073, "p")
    assert [raised.value.code, raised.value.index] == found["over"]
    assert ["args", len(apply_prompt_arg_template([""] * 131_072, "p"))] == found["atLimit"]


class _EndlessResolvers(Mapping[str, Any]):
    """A mapping of resolvers without end (its iteration never stops by itself)."""

    def __init__(self) -> None:
        self.read = 0

    def __getitem__(self, key: str) -> Any:
        return len

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Iterator[str]:
        while True:
            self.read += 1
            if self.read > 100_000:
                raise AssertionError("read past any bound")
            yield f"tool-{self.read}"


MANY_RESOLVERS = """
import { getToolRegistry } from "./registry.js";
const table = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => ["tool-" + i, () => []]));
const outcome = (resolvers) => {
  try { return ["ids", getToolRegistry("/nonexistent-adapters", { resolvers }).ids.length > 0]; }
  catch (error) { return [error.name, error.message]; }
};
process.stdout.write(JSON.stringify([outcome(table(1001)), outcome(table(1000))]));
"""


def test_resolvers_are_read_within_a_bound_in_both_languages(out: Path) -> None:
    """Python read a resolver mapping's items without end (a comprehension over ``items()``);
    at most 1,000 entries are read now, and more is refused in both languages."""
    endless = _EndlessResolvers()
    with pytest.raises(ValueError, match="at most 1000 entries") as raised:
        get_tool_registry(NO_FOLDER, resolvers=endless)
    assert endless.read == 1001
    found = run_js(out, MANY_RESOLVERS)
    assert found[0] == ["RangeError", str(raised.value)]
    assert found[1] == ["ids", True]
    fine: dict[str, Any] = {f"tool-{n}": len for n in range(1000)}
    assert get_tool_registry(NO_FOLDER, resolvers=fine).ids

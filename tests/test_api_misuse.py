"""The public functions of both generated surfaces called as a careless or hostile host program
would: wrong types where an argument has one. Each is a clear ``TypeError``/``ValueError`` (or
the documented error class) naming the argument, never a silent wrong answer, and the two
languages agree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tool_registry
from tool_registry import (
    NotLaunchableError,
    ensure_launchable,
    get_tool_registry,
    hook_package_of,
    lookalike_keys,
    parse_third_party_manifest,
    read_regular_file,
)

from .conftest import REPO, build_typescript, run_js
from .test_loader import manifest

GENERATED_TS = REPO / "generated" / "typescript"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-misuse"), GENERATED_TS)


# Each call in TypeScript, reported as [error class name, message] or ["ok", result].
OUTCOMES = """
import * as tr from "./index.js";
function outcome(f) {
  try { return ["ok", f()]; } catch (e) { return [e.constructor.name, String(e.message)]; }
}
"""


# --- the launch guard's installed state ---------------------------------------------------------

NOT_AN_INSTALLED_STATE = ["{installed: false}", '"false"', "0", "1", "NaN", "[]"]


def test_an_installed_state_that_is_not_a_boolean_or_null_is_a_type_error(out: Path) -> None:
    """A host passing the whole detection result (``{installed: false, ...}``) or a string where
    the boolean goes was let through as installed: the launch guard said yes."""
    calls = ", ".join(
        f'outcome(() => tr.ensureLaunchable("codex", {value}))' for value in NOT_AN_INSTALLED_STATE
    )
    reasons = ", ".join(
        f'outcome(() => tr.notLaunchableReason("codex", {value}))'
        for value in NOT_AN_INSTALLED_STATE
    )
    guards = ", ".join(
        f'outcome(() => tr.isLaunchable("codex", {value}))' for value in NOT_AN_INSTALLED_STATE
    )
    results = run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}, {reasons}, {guards}]));"
    )
    for kind, message in results:
        assert kind == "TypeError", (kind, message)
        assert "installed" in message
    # What the documented states still mean.
    states = run_js(
        out,
        OUTCOMES
        + "process.stdout.write(JSON.stringify(["
        + 'tr.notLaunchableReason("codex"), tr.notLaunchableReason("codex", true),'
        + 'tr.notLaunchableReason("codex", false), tr.notLaunchableReason("codex", null),'
        + 'tr.notLaunchableReason("codex", undefined)]));',
    )
    assert states == [None, None, "NOT_INSTALLED", "INSTALL_UNKNOWN", None]


# --- the launch guard's message for an id that is not text -------------------------------------


class Loud:
    def __str__(self) -> str:
        raise AssertionError("a method of the caller's value ran")

    __repr__ = __str__


@pytest.mark.parametrize(
    ("tool_id", "shown_as"),
    [
        (10**5000, "an integer of 16610 bits"),
        (Loud(), "<Loud object>"),
        (b"codex", "<bytes object>"),
    ],
    ids=["huge-int", "loud-object", "bytes"],
)
def test_an_unknown_id_that_is_not_text_is_refused_without_running_its_methods(
    tool_id: object, shown_as: str, tmp_path: Path
) -> None:
    """``ensure_launchable`` printed the id with ``str()``: a huge integer raised ``ValueError``
    (Python's digit limit) instead of ``NotLaunchableError``, and any object's ``__str__`` ran."""
    registry = get_tool_registry(str(tmp_path))
    with pytest.raises(NotLaunchableError) as caught:
        ensure_launchable(registry, tool_id)  # type: ignore[arg-type]
    assert str(caught.value.code) == "UNKNOWN_TOOL"
    assert caught.value.tool_id == shown_as
    assert shown_as in str(caught.value)


# --- text arguments given something else -------------------------------------------------------

NOT_TEXT_JS = [
    "5",
    "NaN",
    "null",
    "undefined",
    "{}",
    '["codex"]',
    'new TextEncoder().encode("codex")',
]
NOT_TEXT_PY: list[object] = [5, float("nan"), None, {}, ["codex"], b"codex", Path("codex")]


def test_lookalike_keys_of_a_value_that_is_not_text_is_a_type_error(out: Path) -> None:
    """``lookalikeKeys(5)`` answered ``{""}``: every number looked alike every other one."""
    calls = ", ".join(f"outcome(() => [...tr.lookalikeKeys({value})])" for value in NOT_TEXT_JS)
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("name must be a string"), message
    for value in NOT_TEXT_PY:
        with pytest.raises(TypeError, match=r"^name must be a string"):
            lookalike_keys(value)  # type: ignore[arg-type]


HOOK_MANIFESTS_JS = ["5", "NaN", '"codex"', "{}", "{ id: 5 }", '{ id: "x", hookPackage: 7 }']


def test_hook_package_of_something_that_is_not_a_manifest_is_a_type_error(out: Path) -> None:
    """``hookPackageOf(5)`` answered ``"@waggle/hive-mind-hooks-undefined"``."""
    calls = ", ".join(f"outcome(() => tr.hookPackageOf({value}))" for value in HOOK_MANIFESTS_JS)
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("manifest"), message
    for value in [5, "codex", {}, {"id": "x"}]:
        with pytest.raises(TypeError, match=r"^manifest"):
            hook_package_of(value)  # type: ignore[arg-type]


def test_a_source_that_is_not_text_is_a_type_error(out: Path) -> None:
    """``parseThirdPartyManifest("{}", buffer)`` put the buffer itself into every record's
    ``source``; Python raised an ``AttributeError``/``TypeError`` about ``len`` or ``isascii``."""
    calls = ", ".join(
        f'outcome(() => tr.parseThirdPartyManifest("{{}}", {value}))'
        for value in NOT_TEXT_JS
        if value != "undefined"
    )
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("source must be a string"), message
    for value in NOT_TEXT_PY:
        with pytest.raises(TypeError, match=r"^source must be a string"):
            parse_third_party_manifest({}, source=value)  # type: ignore[arg-type]

    # A str subclass is text: its characters are used, none of its methods.
    class Named(str):
        def __str__(self) -> str:
            raise AssertionError("ran")

    parsed = parse_third_party_manifest({}, source=Named("adapter.json"))
    assert {d.source for d in parsed.diagnostics} == {"adapter.json"}
    assert all(type(d.source) is str for d in parsed.diagnostics)


# --- read_regular_file's path and limit ---------------------------------------------------------


def test_a_read_limit_that_is_not_a_non_negative_integer_is_refused(
    out: Path, tmp_path: Path
) -> None:
    """``readRegularFile(path, null)`` read one byte and a negative limit read none, in
    Python too: a wrong silent answer where the caller meant a bound."""
    target = tmp_path / "a.json"
    target.write_bytes(b"0123456789")
    limits = ["null", "-1", "1.5", "NaN", '"3"', "Infinity", "3n"]
    calls = ", ".join(
        f"outcome(() => tr.readRegularFile({json.dumps(str(target))}, {limit}).length)"
        for limit in limits
    )
    results = run_js(out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));")
    for limit, (kind, message) in zip(limits, results, strict=True):
        assert kind == ("RangeError" if limit == "-1" else "TypeError"), (limit, kind, message)
        assert message.startswith("limit must be a non-negative integer"), message
    assert (
        run_js(
            out,
            OUTCOMES
            + f"process.stdout.write(JSON.stringify(tr.readRegularFile({json.dumps(str(target))}, 0).length));",
        )
        == 1
    )
    for bad, error in [(None, TypeError), (-1, ValueError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(error, match=r"^limit must be a non-negative integer"):
            read_regular_file(str(target), bad)  # type: ignore[arg-type]
    assert read_regular_file(str(target), 0) == b"0"
    assert read_regular_file(target, 3) == b"0123"  # type: ignore[arg-type]  # a PathLike is a path


@pytest.mark.parametrize("path", [0, 1, True, None, 1.5], ids=repr)
def test_a_path_that_is_a_number_is_no_file_descriptor(path: object) -> None:
    """``read_regular_file(1)`` stat-ed file descriptor 1 and raised ``NotARegularFileError: 1``
    (stdout is no regular file); TypeScript refuses a number as node does."""
    with pytest.raises(TypeError, match=r"^path must be"):
        read_regular_file(path, 10)  # type: ignore[arg-type]


# --- the validators' limit ----------------------------------------------------------------------


def test_a_validator_limit_that_is_not_a_number_is_a_type_error_in_both_languages(
    out: Path,
) -> None:
    """TypeScript took ``null`` or ``"5"`` as a limit (``null`` kept no record, said nothing but
    ``TOO_MANY_DIAGNOSTICS``), where Python raised a ``TypeError`` about ``>``. Both refuse it
    now, for a valid document too; numbers keep their documented meaning."""
    entries = ["validateToolManifest", "validateThirdPartyManifest"]
    limits = ["null", '"5"', "true", "{}", "5n"]
    calls = ", ".join(
        f"outcome(() => tr.{entry}({document}, {limit}).length)"
        for entry in entries
        for document in ("{}", "tr.BUILTIN_TOOL_MANIFESTS[0]")
        for limit in limits
    )
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("limit must be a number"), message
    valid = manifest(promptArgTemplate=None, capabilities=None)
    for validate in (
        tool_registry.validate_tool_manifest,
        tool_registry.validate_third_party_manifest,
    ):
        assert validate(valid) == ()
        for document in ({}, valid):
            bad: tuple[object, ...] = (None, "5", True, {})
            for limit in bad:
                with pytest.raises(TypeError, match=r"^limit must be a number"):
                    validate(document, limit)  # type: ignore[arg-type]
        # A fraction or NaN keeps its documented meaning (typed ``int``, taken as any number).
        assert len(validate({}, 1.5)) == 3  # type: ignore[arg-type]  # two, then TOO_MANY_...
        nan = validate({}, float("nan"))  # type: ignore[arg-type]
        assert [str(d.code) for d in nan] == ["TOO_MANY_DIAGNOSTICS"]


# --- max_files ----------------------------------------------------------------------------------


def test_a_file_limit_beyond_a_float_reads_every_file(tmp_path: Path) -> None:
    """``max_files=10**400`` raised ``OverflowError`` (``math.isnan`` of an integer no float
    holds); it bounds nothing, as TypeScript's ``maxFiles: Infinity`` (the nearest double)."""
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    result = tool_registry.load_third_party_manifests(str(tmp_path), max_files=10**400)
    assert [report.source for report in result.files] == ["a.json"]
    assert tool_registry.load_third_party_manifests(str(tmp_path), max_files=-(10**400)).files == ()


# --- prompt argument templates ------------------------------------------------------------------


def test_a_template_that_is_not_a_list_of_strings_is_a_type_error(out: Path) -> None:
    """Python took a string template as its characters (``"--m {prompt}"`` gave one argument per
    character) and a generator as nothing (the check consumed it: ``[]``, the prompt dropped);
    TypeScript took a buffer prompt as its text. Both refuse them, naming the argument."""

    def entries() -> Any:
        yield "--message"
        yield "{prompt}"

    templates_py: list[Any] = ["--m {prompt}", entries(), {"--m": 1}, b"--m", ["--m", 5], None]
    for template in templates_py:
        with pytest.raises(TypeError, match=r"^template"):
            tool_registry.apply_prompt_arg_template(template, "hi")
    for prompt in [None, b"hi", 5, ["hi"]]:
        with pytest.raises(TypeError, match=r"^prompt must be a string"):
            tool_registry.apply_prompt_arg_template(["--m", "{prompt}"], prompt)  # type: ignore[arg-type]
    assert tool_registry.apply_prompt_arg_template(("--m", "{prompt}"), "hi") == ["--m", "hi"]
    templates = ['"--m {prompt}"', "null", '["--m", 5]', 'new Set(["--m"])', "{length: 1, 0: '-'}"]
    prompts = ["null", 'new TextEncoder().encode("hi")', "5", '["hi"]']
    calls = [f'outcome(() => tr.applyPromptArgTemplate({t}, "hi"))' for t in templates]
    calls += [f"outcome(() => tr.checkPromptArgTemplate({t}))" for t in templates]
    calls += [
        f'outcome(() => tr.applyPromptArgTemplate(["--m", "{{prompt}}"], {p}))' for p in prompts
    ]
    results = run_js(out, OUTCOMES + f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));")
    for call, (kind, message) in zip(calls, results, strict=True):
        assert kind == "TypeError", (call, message)
        assert message.startswith(("template", "prompt must be a string")), (call, message)


# --- the loaders' folder and pairs --------------------------------------------------------------

NOT_A_FOLDER_JS = ["5", "{}", '["adapters", "x"]', "true", "NaN", 'Buffer.from(".")']


def test_a_folder_that_is_not_a_string_is_a_type_error_naming_it(out: Path) -> None:
    """``loadThirdPartyManifests(5)`` threw ``text.includes is not a function`` (from escaping
    the folder for an ``UNREADABLE`` record); an array was read as its ``toString`` and reported
    unreadable; a buffer naming a real folder threw ``folder.endsWith is not a function``."""
    calls = [f"outcome(() => tr.loadThirdPartyManifests({v}))" for v in NOT_A_FOLDER_JS]
    calls += [f"outcome(() => tr.getToolRegistry({v}))" for v in NOT_A_FOLDER_JS]
    results = run_js(out, OUTCOMES + f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));")
    for call, (kind, message) in zip(calls, results, strict=True):
        assert kind == "TypeError", (call, message)
        assert message.startswith("adaptersDir must be a string"), (call, message)
    for value in [5, {}, ["adapters"], True, 1.5]:
        with pytest.raises(TypeError, match=r"^adapters_dir must be"):
            tool_registry.load_third_party_manifests(value)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^adapters_dir must be"):
            tool_registry.get_tool_registry(value)  # type: ignore[arg-type]


def test_a_pair_that_is_not_a_source_and_a_path_is_a_type_error(out: Path, tmp_path: Path) -> None:
    """``load_manifest_files(["ab"])`` read the path ``"b"`` under the name ``"a"`` in both
    languages; a string of pairs was taken as its characters."""
    target = tmp_path / "a.json"
    target.write_text("{}", encoding="utf-8")
    pairs_js = ['["ab"]', '"ab"', '[["s"]]', '[["s", "p", "x"]]', "[[5, 'p']]", "[null]"]
    calls = [f"outcome(() => tr.loadManifestFiles({p}))" for p in pairs_js]
    results = run_js(out, OUTCOMES + f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));")
    for call, (kind, message) in zip(calls, results, strict=True):
        assert kind == "TypeError", (call, message)
        assert message.startswith("paths"), (call, message)
    pairs_py: list[Any] = [["ab"], "ab", [("s",)], [("s", "p", "x")], [(5, "p")], [None]]
    for pairs in pairs_py:
        with pytest.raises(TypeError, match=r"^paths"):
            tool_registry.load_manifest_files(pairs)
    # Pairs as lists or tuples, paths as text or PathLike: read as before.
    given: list[Any] = [["a.json", str(target)], ("b.json", target)]
    result = tool_registry.load_manifest_files(given)
    assert [report.source for report in result.files] == ["a.json", "b.json"]
    js = run_js(
        out,
        OUTCOMES
        + "process.stdout.write(JSON.stringify(tr.loadManifestFiles("
        + f'[["a.json", {json.dumps(str(target))}]]).files.map((f) => f.source)));',
    )
    assert js == ["a.json"]


# --- detection's deps and the probe flag --------------------------------------------------------

AIDER = {
    "id": "aider",
    "displayName": "Aider",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/x.json",
    "detect": {"kind": "path", "binaryName": "aider"},
}


def test_a_probe_flag_that_is_not_a_boolean_runs_nothing(out: Path, tmp_path: Path) -> None:
    """``probe_third_party_versions="no"`` (or ``"false"``, ``1``) ran the adapter's executable
    in Python, which read the flag as truthy, while TypeScript read only ``true``: running a
    program is an authority the host grants, so a flag that is not a boolean is a TypeError in
    both, before anything is probed."""
    (tmp_path / "aider.json").write_text(json.dumps(AIDER), encoding="utf-8")
    registry = get_tool_registry(str(tmp_path))
    ran: list[object] = []

    def run_version(path: str, timeout: float) -> str:
        ran.append(path)
        return "1.0"

    deps = tool_registry.DetectionDeps(
        which=lambda name: f"/bin/{name}",
        is_file=lambda path: False,
        run_version=run_version,
        read_text=lambda path: None,
    )
    for flag in ["no", "false", 1, None]:
        with pytest.raises(TypeError, match=r"^probe_third_party_versions must be"):
            tool_registry.detect_all(registry, deps, probe_third_party_versions=flag)  # type: ignore[arg-type]
    assert ran == []
    folder = json.dumps(str(tmp_path))
    body = (
        OUTCOMES
        + f"const registry = tr.getToolRegistry({folder});\n"
        + "const ran = [];\n"
        + "const deps = { which: (n) => `/bin/${n}`, isFile: () => false, readText: () => null,"
        + " runVersion: async (p) => { ran.push(p); return '1.0'; } };\n"
        + "const outcomes = [];\n"
        + 'for (const flag of ["no", "false", 1, null]) {\n'
        + "  try { await tr.detectAll(registry, deps, { probeThirdPartyVersions: flag });"
        + ' outcomes.push(["ok", ""]); }\n'
        + "  catch (e) { outcomes.push([e.constructor.name, e.message]); }\n"
        + "}\n"
        + "process.stdout.write(JSON.stringify({ outcomes, ran }));"
    )
    result = run_js(out, body)
    assert result["ran"] == []
    for kind, message in result["outcomes"]:
        assert kind == "TypeError", message
        assert message.startswith("probeThirdPartyVersions must be"), message


def test_deps_that_are_not_detection_deps_are_a_type_error(out: Path, tmp_path: Path) -> None:
    """Python took ``deps={}`` (falsy) as the real system and any other non-``DetectionDeps`` as
    a probe failing for every tool (``installed: False``); TypeScript spread a number or a
    string into the defaults (the real system)."""
    registry = get_tool_registry(str(tmp_path))
    for deps in [{}, {"which": lambda name: None}, 5, "deps"]:
        with pytest.raises(TypeError, match=r"^deps must be"):
            tool_registry.detect_all(registry, deps)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^deps must be"):
            ensure_launchable(registry, "codex", deps=deps)  # type: ignore[arg-type]
    folder = json.dumps(str(tmp_path))
    body = (
        OUTCOMES
        + f"const registry = tr.getToolRegistry({folder});\n"
        + "const outcomes = [];\n"
        + 'for (const deps of [5, "deps", true, [() => null]]) {\n'
        + "  try { await tr.detectAll(registry, deps); outcomes.push(['ok', '']); }\n"
        + "  catch (e) { outcomes.push([e.constructor.name, e.message]); }\n"
        + "}\n"
        + "process.stdout.write(JSON.stringify(outcomes));"
    )
    for kind, message in run_js(out, body):
        assert kind == "TypeError", message
        assert message.startswith("deps must be"), message


# --- resolvers ----------------------------------------------------------------------------------


def test_resolvers_keep_only_callables_and_must_be_a_mapping(out: Path, tmp_path: Path) -> None:
    """Python kept ``resolvers={"codex": 5}`` (``resolver_for`` answered 5; detection then failed
    calling it) where TypeScript drops what is not a function; ``resolvers=5`` raised
    ``AttributeError`` in Python and was ignored in TypeScript. Both keep only callables of
    built-in ids and refuse a value that is not a mapping (an object in TypeScript)."""

    def resolver() -> list[str]:
        return []

    given: dict[str, Any] = {"codex": 5, "cursor": resolver}
    registry = get_tool_registry(str(tmp_path), resolvers=given)
    assert registry.resolver_for("codex") is None
    assert registry.resolver_for("cursor") is resolver
    for resolvers in [5, "codex", [("codex", len)]]:
        with pytest.raises(TypeError, match=r"^resolvers must be"):
            get_tool_registry(str(tmp_path), resolvers=resolvers)  # type: ignore[arg-type]
    folder = json.dumps(str(tmp_path))
    calls = [
        f"outcome(() => tr.getToolRegistry({folder}, {{ resolvers: {value} }}).tools.length)"
        for value in ["5", '"codex"', "true"]
    ]
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("resolvers must be"), message
    kept = run_js(
        out,
        OUTCOMES
        + f"const r = tr.getToolRegistry({folder}, {{ resolvers: {{ codex: 5, cursor: () => null }} }});\n"
        + 'process.stdout.write(JSON.stringify([r.resolverFor("codex") === undefined || r.resolverFor("codex") === null, typeof r.resolverFor("cursor")]));',
    )
    assert kept == [True, "function"]


def test_resolvers_given_as_a_map_resolve(out: Path, tmp_path: Path) -> None:
    """TypeScript read ``resolvers`` by ``Object.entries``, which is empty for a ``Map``: a host
    passing its resolvers as a Map (as it may its grants, and as Python takes any mapping) got
    no resolver and no error. A Map's entries are read, bounded as an object's are."""
    from tool_registry.registry import MAX_OPTION_VALUES

    folder = json.dumps(str(tmp_path))
    found = run_js(
        out,
        OUTCOMES
        + "const cursor = () => null;\n"
        + "const given = new Map([['cursor', cursor], ['codex', 5], [7, cursor], ['nope', cursor]]);\n"
        + f"const r = tr.getToolRegistry({folder}, {{ resolvers: given }});\n"
        + f"const many = new Map(Array.from({{ length: {MAX_OPTION_VALUES + 1} }},"
        + " (_, i) => [`t${i}`, cursor]));\n"
        + f"const big = outcome(() => tr.getToolRegistry({folder}, {{ resolvers: many }}));\n"
        + "process.stdout.write(JSON.stringify([r.resolverFor('cursor') === cursor,"
        + " r.resolverFor('codex') ?? null, r.resolverFor('nope') ?? null, big[0]]));",
    )
    assert found == [True, None, None, "RangeError"]


def test_resolvers_and_categories_of_the_wrong_type_are_refused_before_the_folder_is_read(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python read the whole adapters folder, then refused ``resolvers=5`` or a mapping of
    categories (the README: refused "before anything is read"); ``categories=5`` was Python's
    ``'int' object is not iterable`` and TypeScript's spread error, naming no argument. Both
    refuse either argument up front, with a ``TypeError`` naming it."""
    from tool_registry import registry as registry_module

    read: list[object] = []
    monkeypatch.setattr(
        registry_module, "load_third_party_manifests", lambda *a, **k: read.append(a)
    )
    cases: list[tuple[dict[str, Any], str]] = [
        ({"resolvers": 5}, "resolvers"),
        ({"categories": {"cli-agent": 1}}, "categories"),
        ({"categories": 5}, "categories"),
        ({"categories": None, "resolvers": [("codex", len)]}, "resolvers"),
    ]
    for options, argument in cases:
        with pytest.raises(TypeError, match=rf"^{argument} must be"):
            get_tool_registry(str(tmp_path), **options)
    assert read == []
    folder = json.dumps(str(tmp_path))
    calls = [
        f"outcome(() => tr.getToolRegistry({folder}, {{ categories: {value} }}).tools.length)"
        for value in ["5", "true", '{ "cli-agent": 1 }']
    ]
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{', '.join(calls)}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("categories must be"), message


# --- README: "given an object whose getter or Proxy trap throws, they pass that error on" -------


def test_a_throwing_getter_or_proxy_trap_reaches_the_caller_of_a_validator(out: Path) -> None:
    """A getter throwing a ``RangeError`` was taken for the engine's stack overflow: the
    validator answered ``/: nesting expects less deeply nested data`` and the guard ``false``,
    instead of passing the host's error on as the README says."""
    body = (
        OUTCOMES
        + """
const fields = { displayName: "x", launchable: true, hookCapable: true, hookPointer: "a/b.json",
  detect: { kind: "path", binaryName: "x" } };
const getter = Object.defineProperty({ ...fields }, "id", {
  enumerable: true, get() { throw new RangeError("getter threw"); } });
const trap = () => { throw new SyntaxError("trap threw"); };
const proxy = new Proxy({}, { ownKeys: trap, getOwnPropertyDescriptor: trap, get: trap, has: trap });
const results = [];
for (const value of [getter, proxy]) {
  for (const f of [tr.validateToolManifest, tr.validateThirdPartyManifest,
                   tr.isToolManifest, tr.isThirdPartyToolManifest]) {
    results.push(outcome(() => f(value)));
  }
}
// The engine's own stack overflow (here one a getter runs into; this schema has no recursive
// position for data to reach one) is still a nesting record, and a false guard.
const endless = (n) => endless(n + 1) + 1;
const nested = Object.defineProperty({ ...fields }, "id", { enumerable: true, get: () => endless(0) });
results.push(outcome(() => tr.validateThirdPartyManifest(nested).map((d) => d.keyword)));
results.push(outcome(() => tr.isThirdPartyToolManifest(nested)));
process.stdout.write(JSON.stringify(results));
"""
    )
    results = run_js(out, body)
    assert results[:8] == [["RangeError", "getter threw"]] * 4 + [["SyntaxError", "trap threw"]] * 4
    kind, keywords = results[8]
    assert kind == "ok" and "nesting" in keywords, results[8]
    assert results[9] == ["ok", False]


# --- shown --------------------------------------------------------------------------------------


def test_shown_of_something_that_is_not_text_is_a_type_error(out: Path) -> None:
    """``shown`` promises text safe to print: TypeScript handed an array or a buffer of
    printable characters back unchanged (not a string at all) and failed with
    ``text.includes is not a function`` for a number; Python raised ``AttributeError`` or
    ``TypeError`` about ``len``."""
    values = ['["a", "b"]', 'Buffer.from("codex")', "5", "null", "{}"]
    calls = ", ".join(f"outcome(() => tr.shown({value}))" for value in values)
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("text must be a string"), message
    for value in [["a"], b"codex", 5, None, {}]:
        with pytest.raises(TypeError, match=r"^text must be a string"):
            tool_registry.shown(value)  # type: ignore[arg-type]

    class Loud(str):
        def __str__(self) -> str:
            raise AssertionError("ran")

    assert tool_registry.shown(Loud("a\x1bb")) == "a\\u001bb"


def test_a_bytes_folder_is_refused_up_front_not_a_crash_of_the_load(tmp_path: Path) -> None:
    """``load_third_party_manifests(b"folder")`` of an existing folder raised a ``TypeError``
    from deep inside the listing (``endswith first arg must be bytes``), then another while
    reporting it: a load that "never raises" did. A folder is text (as TypeScript's string), so
    bytes, or a PathLike whose path is bytes, are refused naming the argument."""
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")

    class BytesPath:
        def __fspath__(self) -> bytes:
            return bytes(tmp_path)

    for folder in [bytes(tmp_path), BytesPath()]:
        with pytest.raises(TypeError, match=r"^adapters_dir must be"):
            tool_registry.load_third_party_manifests(folder)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^adapters_dir must be"):
            tool_registry.get_tool_registry(folder)  # type: ignore[arg-type]
    assert [f.source for f in tool_registry.load_third_party_manifests(tmp_path).files] == [
        "a.json"
    ]


# --- options objects with a member that names no option -----------------------------------------


def test_an_options_member_that_names_no_option_is_a_type_error(out: Path, tmp_path: Path) -> None:
    """A typo in a TypeScript options object was ignored: ``detectAll(registry, { whcih })``
    ran the real PATH lookup, ``{ probeThirdPartyVersion: true }`` probed nothing,
    ``{ maxfiles: 1 }`` read every file, ``{ grant: ... }`` granted nothing. Python refuses an
    unknown keyword (``DetectionDeps(whcih=...)`` too); TypeScript now refuses an own member
    that names no option, naming it. Members a polluted prototype lends are still ignored."""
    folder = json.dumps(str(tmp_path))
    body = (
        OUTCOMES
        + f"const registry = tr.getToolRegistry({folder});\n"
        + "const results = [];\n"
        + "const calls = [\n"
        + "  () => tr.detectAll(registry, { whcih: () => null }),\n"
        + "  () => tr.detectAll(registry, {}, { probeThirdPartyVersion: true }),\n"
        + f"  async () => tr.loadThirdPartyManifests({folder}, {{ maxfiles: 1 }}),\n"
        + "  async () => tr.loadManifestFiles([], { readfile: () => null }),\n"
        + f"  async () => tr.getToolRegistry({folder}, {{ grant: {{}} }}),\n"
        + f"  async () => tr.getToolRegistry({folder}, {{ loader: {{ maxfiles: 1 }} }}),\n"
        + "];\n"
        + "for (const call of calls) {\n"
        + "  try { await call(); results.push(['ok', '']); }\n"
        + "  catch (e) { results.push([e.constructor.name, e.message]); }\n"
        + "}\n"
        + "Object.prototype.polluted = 1;\n"
        + "try {\n"
        + f"  tr.getToolRegistry({folder}, {{ grants: {{}} }});\n"
        + "  await tr.detectAll(registry, { which: () => null, isFile: () => false,"
        + " readText: () => null }, {});\n"
        + "  results.push(['ok', 'polluted']);\n"
        + "} catch (e) { results.push([e.constructor.name, e.message]); }\n"
        + "delete Object.prototype.polluted;\n"
        + "process.stdout.write(JSON.stringify(results));"
    )
    results = run_js(out, body)
    names = ["whcih", "probeThirdPartyVersion", "maxfiles", "readfile", "grant", "maxfiles"]
    for (kind, message), name in zip(results[:-1], names, strict=True):
        assert kind == "TypeError", message
        assert f'no member "{name}"' in message, message
    assert results[-1] == ["ok", "polluted"]
    with pytest.raises(TypeError):
        tool_registry.DetectionDeps(whcih=lambda name: None)  # type: ignore[call-arg]


def test_typescript_text_that_is_neither_a_string_nor_bytes_is_a_type_error(out: Path) -> None:
    """``parseThirdPartyManifest(123)`` said ``INVALID_ENCODING``, as if bytes had been read
    (Python's ``parse_third_party_manifest`` takes any value, and reads it as JSON data)."""
    values = ["123", "null", "{}", '["{}"]', "new ArrayBuffer(2)", "true"]
    calls = ", ".join(f"outcome(() => tr.parseThirdPartyManifest({value}))" for value in values)
    for kind, message in run_js(
        out, OUTCOMES + f"process.stdout.write(JSON.stringify([{calls}]));"
    ):
        assert kind == "TypeError", message
        assert message.startswith("text must be a string or a Uint8Array"), message
    accepted = ", ".join(
        f"tr.parseThirdPartyManifest({value}).diagnostics.map((d) => d.code)"
        for value in ['"{}"', 'new TextEncoder().encode("{}")', 'Buffer.from("[]")']
    )
    found = run_js(out, OUTCOMES + f"process.stdout.write(JSON.stringify([{accepted}]));")
    assert [codes[:1] for codes in found] == [["SCHEMA_VIOLATION"]] * 2 + [["NOT_AN_OBJECT"]]

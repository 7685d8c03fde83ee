"""A further hostile review of the generated TypeScript runtime: each finding is held to the
Python runtime's verdict on the same input (or to the runtime's own promise)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    DetectionDeps,
    detect_all,
    get_tool_registry,
    hook_package_for,
    load_third_party_manifests,
)
from tool_registry.loader import load_manifest_files

from .conftest import REPO, build_typescript, run_js

GENERATED_TS = REPO / "generated" / "typescript"
ADAPTER: dict[str, Any] = {
    "id": "mytool",
    "displayName": "My Tool",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".my/x.json",
    "detect": {"kind": "path", "binaryName": "mytool"},
}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review-2"), GENERATED_TS)


def python_verdict(text: str) -> list[Any]:
    """Whether the Python loader accepts ``text`` as one file, and its records' codes."""
    data = text.encode("utf-8")
    result = load_manifest_files([("mytool.json", "p")], read_file=lambda _path, _limit: data)
    return [result.files[0].accepted, [str(d.code) for d in result.files[0].diagnostics]]


POLLUTED_HOOK_PACKAGE = """
import {{ mkdtempSync, writeFileSync }} from "node:fs";
import {{ tmpdir }} from "node:os";
import {{ join }} from "node:path";
import {{ loadThirdPartyManifests, parseThirdPartyManifest }} from "./loader.js";
const text = {text};
const folder = mkdtempSync(join(tmpdir(), "hook-package-"));
writeFileSync(join(folder, "mytool.json"), text);
Object.prototype.hookPackage = {package};
const parsed = parseThirdPartyManifest(text, "mytool.json");
const loaded = loadThirdPartyManifests(folder);
delete Object.prototype.hookPackage;
process.stdout.write(JSON.stringify([
  [parsed.manifest !== null, parsed.diagnostics.map((d) => d.code)],
  [loaded.files[0].accepted, loaded.files[0].diagnostics.map((d) => d.code)],
]));
"""


def test_a_polluted_prototype_lends_an_adapter_no_hook_package(out: Path) -> None:
    """The loader's hook-package collision check read ``manifest["hookPackage"]`` through the
    prototype chain: with ``Object.prototype.hookPackage`` set to a built-in's hook package
    (data a JSON merge can write), an adapter naming none was refused as
    ``HOOK_PACKAGE_COLLISION`` where Python accepts it."""
    texts = [
        json.dumps(ADAPTER),
        # Past the JSON.parse fast path (a colon in a string), through the strict parser.
        json.dumps({**ADAPTER, "displayName": "My: Tool"}),
    ]
    for text in texts:
        body = POLLUTED_HOOK_PACKAGE.format(
            text=json.dumps(text), package=json.dumps(hook_package_for("claude-code"))
        )
        expected = python_verdict(text)
        assert expected == [True, []]
        assert run_js(out, body) == [expected, expected], text


MAPPING_CATEGORIES = """
import { getToolRegistry } from "./registry.js";
const outcome = (categories) => {
  try {
    return ["ids", getToolRegistry("/nonexistent-adapters", { categories }).ids.length];
  } catch (error) {
    return [error.name];
  }
};
process.stdout.write(JSON.stringify([
  outcome(new Map([["cli-agent", 1]])),
  outcome({ "cli-agent": 1 }),
  outcome(new Set(["cli-agent"])),
]));
"""


def test_categories_given_as_a_mapping_are_a_type_error_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    """A mapping is no list of categories: Python refuses one (a ``dict``, a ``Counter``) with a
    ``TypeError``, as TypeScript refuses a plain object; a ``Map`` was spread into its
    ``[key, value]`` entries, none a string, so the registry silently held no tool at all, not
    even the built-ins."""
    in_python: list[list[Any]] = []
    odd: tuple[Any, ...] = ({"cli-agent": 1}, {"cli-agent"})
    for categories in odd:
        try:
            registry = get_tool_registry(tmp_path / "none", categories=categories)
        except TypeError:
            in_python.append(["TypeError"])
        else:
            in_python.append(["ids", len(registry.ids)])
    in_node = run_js(out, MAPPING_CATEGORIES)
    assert in_node[1:] == in_python
    assert in_node[0] == in_python[0] == ["TypeError"]


POLLUTED_ERROR_CODE = """
import {{ getToolRegistry }} from "./registry.js";
import {{ detectAll }} from "./detection.js";
import {{ loadThirdPartyManifests }} from "./loader.js";
const home = {home};
async function observe() {{
  const registry = getToolRegistry("/nonexistent-adapters");
  const detected = await detectAll(registry, {{
    which: () => null, home: () => home, platform: () => "linux", runVersion: async () => null,
  }});
  const claude = detected.find((result) => result.id === "claude-code");
  const loaded = loadThirdPartyManifests({folder});
  return [
    [claude.hooksInstalled, claude.diagnostic === null ? null : claude.diagnostic.found.split(":")[0]],
    loaded.diagnostics.map((d) => [d.code, d.found]),
  ];
}}
const clean = await observe();
Object.prototype.code = "ENOENT";
const polluted = await observe();
delete Object.prototype.code;
process.stdout.write(JSON.stringify([clean, polluted]));
"""


def test_a_polluted_prototype_lends_no_error_code(out: Path, tmp_path: Path) -> None:
    """An error's ``code`` was read through the prototype chain (``"code" in error``): with
    ``Object.prototype.code = "ENOENT"`` (data a JSON merge can write), an error carrying no code
    of its own read as a missing file. A hook pointer that is a folder was then no pointer at all
    (no ``DETECTION_FAILED``), and an adapters folder named by text no bytes stand for gave an
    empty load where Python reports it ``UNREADABLE``."""
    home = tmp_path / "home"
    (home / ".claude" / "hive-mind-install.json").mkdir(parents=True)
    folder = str(tmp_path / "adapters\ud800")
    registry = get_tool_registry(tmp_path / "none")
    deps = DetectionDeps(
        which=lambda _name: None,
        home=lambda: str(home),
        platform=lambda: "linux",
        run_version=lambda _path, _timeout: None,
    )
    (claude,) = [r for r in detect_all(registry, deps) if r.id == "claude-code"]
    assert claude.diagnostic is not None
    loaded = load_third_party_manifests(folder)
    python = [
        [claude.hooks_installed, claude.diagnostic.found.split(":")[0]],
        [[str(d.code), d.found] for d in loaded.diagnostics],
    ]
    assert python == [[False, "hook pointer"], [["UNREADABLE", "UnicodeEncodeError"]]]
    body = POLLUTED_ERROR_CODE.format(home=json.dumps(str(home)), folder=json.dumps(folder))
    clean, polluted = run_js(out, body)
    assert clean == python
    assert polluted == python


VERSION_TEXTS = """
import {{ getToolRegistry }} from "./registry.js";
import {{ detectAll }} from "./detection.js";
const texts = {texts};
const registry = getToolRegistry("/nonexistent-adapters");
const versions = [];
for (const text of texts) {{
  const detected = await detectAll(registry, {{
    which: (name) => (name === "claude" ? "/opt/claude" : null),
    home: () => "/home/u", platform: () => "linux", readText: () => null,
    runVersion: async () => text,
  }});
  versions.push(detected.find((result) => result.id === "claude-code").version);
}}
process.stdout.write(JSON.stringify(versions));
"""


def test_a_version_text_is_stripped_as_python_strips_it_in_linear_work(out: Path) -> None:
    """The version a probe answers is stripped of Python's white space, as ``str.strip`` does:
    TypeScript did it with ``/^\\s+|\\s+$/g``-style alternatives, whose trailing one retries
    every position of a run of white space inside the text (quadratic: 40,000 spaces between
    two letters took seconds, a million would take hours), where Python's strip is linear. The
    long case must simply finish (the child process's timeout is only a guard against a hang)."""
    spaces = (
        "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
    )
    texts = [
        "",
        " ",
        spaces,
        spaces + "1.2.3" + spaces,
        "\ufeff 1.0 \ufeff",  # no white space to Python, though JavaScript's trim strips it
        "\u200b1.0\u200b",
        "v1" + spaces + "v2",
        "a" + " " * 1_000_000 + "b",
        " " * 1_000_000 + "tail",
    ]
    registry = get_tool_registry("/nonexistent-adapters")
    deps = DetectionDeps(
        which=lambda name: "/opt/claude" if name == "claude" else None,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        read_text=lambda _path: None,
    )
    python = []
    for text in texts:

        def answer(_path: str, _timeout: float, text: str = text) -> str:
            return text

        deps = dataclasses.replace(deps, run_version=answer)
        (claude,) = [r for r in detect_all(registry, deps) if r.id == "claude-code"]
        python.append(claude.version)
    assert python[3] == "1.2.3"
    body = VERSION_TEXTS.format(texts=json.dumps(texts))
    assert run_js(out, body) == python


SLASHED_HOME = """
import {{ getToolRegistry }} from "./registry.js";
import {{ detectAll }} from "./detection.js";
const home = {home};
const asked = [];
const registry = getToolRegistry("/nonexistent-adapters");
const detected = await detectAll(registry, {{
  which: () => null, home: () => home, platform: () => "linux", runVersion: async () => null,
  readText: () => JSON.stringify({{ backup: "backup.json" }}),
  isFile: (path) => {{ asked.push(path.length); return true; }},
}});
const claude = detected.find((result) => result.id === "claude-code");
process.stdout.write(JSON.stringify([claude.hooksInstalled, asked]));
"""


def test_a_home_with_a_long_run_of_slashes_is_read_in_linear_work(out: Path) -> None:
    """A pointer path's folder (for a relative backup) was cut with ``/\\/+$/``, which retries
    every position of a run of slashes that is not at the end: quadratic in the length of the
    home folder ``deps.home()`` gives, where Python's ``os.path.dirname`` is linear. It must
    simply finish, with Python's answers (the lengths of the paths the file probe is asked
    about are compared too)."""
    home = "/h" + "/" * 1_000_000 + "u/"
    registry = get_tool_registry("/nonexistent-adapters")
    asked: list[str] = []

    def is_file(path: str) -> bool:
        asked.append(path)
        return True

    deps = DetectionDeps(
        which=lambda _name: None,
        home=lambda: home,
        platform=lambda: "linux",
        run_version=lambda _path, _timeout: None,
        read_text=lambda _path: json.dumps({"backup": "backup.json"}),
        is_file=is_file,
    )
    (claude,) = [r for r in detect_all(registry, deps) if r.id == "claude-code"]
    python = [claude.hooks_installed, [len(path) for path in asked]]
    assert python[0] is True
    body = SLASHED_HOME.format(home=json.dumps(home))
    assert run_js(out, body) == python


POLLUTED_RECORDS = """
import {{ loadManifestFiles }} from "./loader.js";
import {{ diagnosticAsJson }} from "./diagnostics.js";
const texts = {texts};
const observe = () => {{
  try {{
    const loaded = loadManifestFiles(texts.map((_, index) => [`f${{index}}.json`, String(index)]), {{
      readFile: (path) => new TextEncoder().encode(texts[Number(path)]),
    }});
    return loaded.files.map((file) => [file.accepted, file.diagnostics.map((d) => diagnosticAsJson(d))]);
  }} catch (error) {{
    return `threw ${{error.name}}: ${{error.message}}`;
  }}
}};
const clean = observe();
const polluted = {{}};
for (const [name, value] of Object.entries({gadgets})) {{
  Object.prototype[name] = value;
  try {{ polluted[name] = observe(); }} finally {{ delete Object.prototype[name]; }}
}}
process.stdout.write(JSON.stringify({{ clean, polluted }}));
"""


def _load_records_polluted(out: Path, gadgets: dict[str, Any]) -> None:
    """A few files loaded by TypeScript clean and with each of ``gadgets`` written into
    ``Object.prototype``: every outcome must be Python's."""
    texts = [
        json.dumps(ADAPTER),
        json.dumps({**ADAPTER, "displayName": "My: Tool"}),  # through the strict parser
        json.dumps({**ADAPTER, "extra": 1, "launchable": "yes"}),
        '{"a": 1, "a": 2}',
        "[1]",
    ]
    data = [text.encode("utf-8") for text in texts]
    python = load_manifest_files(
        [(f"f{index}.json", str(index)) for index in range(len(texts))],
        read_file=lambda path, _limit: data[int(path)],
    )
    expected = [[f.accepted, [d.as_json() for d in f.diagnostics]] for f in python.files]
    body = POLLUTED_RECORDS.format(texts=json.dumps(texts), gadgets=json.dumps(gadgets))
    result = run_js(out, body)
    assert result["clean"] == expected
    for name, observed in result["polluted"].items():
        assert observed == expected, name


def test_a_polluted_prototype_breaks_no_parse(out: Path) -> None:
    """The strict parser defined each member with the descriptor ``{ value, ... }``, which
    inherits what a JSON merge writes into ``Object.prototype``: with ``get`` or ``set`` there
    it was an accessor and a value at once, ``defineProperty`` threw, and every file the strict
    parser read (a colon in a string, an integer-like key, a duplicate key) was ``UNREADABLE``
    ``TypeError`` where Python accepts it or names its fault."""
    _load_records_polluted(out, {"get": "x", "set": 1})


def test_a_polluted_prototype_changes_no_record(out: Path) -> None:
    """A record's optional fields were read from the fields object through the prototype
    chain: with ``hint``, ``keyword``, ``omitted``, ``pointer`` or ``others`` written into
    ``Object.prototype`` (data a JSON merge can write), every record the loader made carried
    it, and with ``code`` there the loader threw a ``TypeError`` (it rebuilds each record it
    keeps), which it promises never to do for what files hold."""
    gadgets = {
        "code": "NOT_A_FILE",
        "hint": "polluted",
        "keyword": "polluted",
        "omitted": 7,
        "pointer": "/polluted",
        "others": ["polluted"],
        "found": "polluted",
        "source": "polluted",
        "expected": "polluted",
    }
    _load_records_polluted(out, gadgets)


NODE_OPTIONS_GADGETS = """
import {{ getToolRegistry }} from "./registry.js";
import {{ detectAll }} from "./detection.js";
import {{ diagnosticAsJson }} from "./diagnostics.js";
const [folder, program] = [{folder}, {program}];
async function observe() {{
  try {{
    const registry = getToolRegistry(folder);
    const detected = await detectAll(registry, {{
      which: (name) => (name === "claude" ? program : null), home: () => "/nonexistent-home",
      platform: () => "linux", readText: () => null,
    }});
    const claude = detected.find((result) => result.id === "claude-code");
    return [registry.ids, registry.diagnostics.map((d) => diagnosticAsJson(d)), claude.version];
  }} catch (error) {{
    return `threw ${{error.name}}: ${{error.message}}`;
  }}
}}
const clean = await observe();
const polluted = {{}};
for (const [name, value] of Object.entries({gadgets})) {{
  Object.prototype[name] = value;
  try {{ polluted[name] = await observe(); }} finally {{ delete Object.prototype[name]; }}
}}
process.stdout.write(JSON.stringify({{ clean, polluted }}));
"""


def test_a_polluted_prototype_reaches_no_option_node_reads(out: Path, tmp_path: Path) -> None:
    """The runtime handed node option objects (``opendirSync``'s ``{ encoding }``, ``statSync``'s,
    ``TextDecoder``'s ``{ ignoreBOM }``) that node reads through the prototype chain: with
    ``recursive`` or ``bufferSize`` written into ``Object.prototype`` every load was one
    ``UNREADABLE`` folder, and with ``fatal`` a version text that is not UTF-8 threw out of the
    child's exit handler (the host process died) where Python decodes it with U+FFFD."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "mytool.json").write_text(json.dumps(ADAPTER), encoding="utf-8")
    program = tmp_path / "claude"
    program.write_bytes(b"#!/bin/sh\nprintf 'claude \\377 1.0\\n'\n")
    program.chmod(0o755)
    registry = get_tool_registry(folder)
    deps = DetectionDeps(
        which=lambda name: str(program) if name == "claude" else None,
        home=lambda: "/nonexistent-home",
        platform=lambda: "linux",
        read_text=lambda _path: None,
    )
    (claude,) = [r for r in detect_all(registry, deps) if r.id == "claude-code"]
    python: list[Any] = [list(registry.ids), [d.as_json() for d in registry.diagnostics]]
    python.append(claude.version)
    assert "mytool" in python[0]
    assert python[2] == "claude \ufffd 1.0"
    # (``signal`` or ``errno`` there break node's own streams and file calls, beyond the runtime.)
    gadgets = {"recursive": True, "bufferSize": "x", "fatal": True, "bigint": False}
    body = NODE_OPTIONS_GADGETS.format(
        folder=json.dumps(str(folder)),
        program=json.dumps(str(program)),
        gadgets=json.dumps(gadgets),
    )
    result = run_js(out, body)
    assert result["clean"] == python
    for name, observed in result["polluted"].items():
        assert observed == python, name

"""The generated TypeScript runtime under a hostile host and hostile input: findings of an attack
on what landed, each held to the Python runtime's verdict (or to the runtime's own promise: no
exception escapes the loader, bounded work, no blocking).

A host may have enumerable properties on ``Object.prototype`` (prototype pollution, or an old
library's extension): the runtime reads only a value's own members, so verdicts do not move.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_registry import get_tool_registry
from tool_registry.loader import load_manifest_files

from .conftest import REPO, build_typescript, node_executable, run_js

GENERATED_TS = REPO / "generated" / "typescript"
BASE: dict[str, Any] = {
    "id": "mytool",
    "displayName": "My Tool",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".my/x.json",
    "detect": {"kind": "path", "binaryName": "mytool"},
    "promptArgTemplate": ["--message", "{prompt}"],
    "capabilities": {"provides": ["headless-task"]},
}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-hostile"), GENERATED_TS)


def python_file_records(data: bytes) -> dict[str, Any]:
    """What the Python loader makes of one file's bytes (as the probe reports a TS result)."""
    result = load_manifest_files([("src", "p")], read_file=lambda _path, limit: data[: limit + 1])
    return {
        "accepted": result.files[0].accepted,
        "diagnostics": [
            [str(d.code), str(d.severity), d.pointer, d.keyword, d.message]
            for d in result.files[0].diagnostics
        ],
    }


PARSE_TEXTS = """
import {{ parseThirdPartyManifest }} from "./loader.js";
{pollution}
const texts = {texts};
const results = texts.map((text) => {{
  const result = parseThirdPartyManifest(new TextEncoder().encode(text), "src");
  return {{
    accepted: result.manifest !== null,
    diagnostics: result.diagnostics.map((d) => [d.code, d.severity, d.pointer, d.keyword, d.message]),
  }};
}});
process.stdout.write(JSON.stringify(results));
"""

# Enumerable members on Object.prototype, as a polluted host has them; one holds an object
# (whose own members then include the polluted one, all the way down).
POLLUTION = """
Object.prototype.polluted = 1;
Object.prototype.detect = { kind: "path", binaryName: "x" };
"""


def test_an_enumerable_prototype_member_hides_no_duplicate_key(out: Path) -> None:
    """The JSON.parse fast path counts members against colons; counted through the prototype
    chain (``for ... in``), a polluted member made up for the one a duplicate key removed (two
    colons inside a string balance the count), so a file Python refuses was accepted, and an
    object-valued polluted member recursed without end (every file UNREADABLE)."""
    spliced = json.dumps(BASE).replace('"--message"', '"--m::"')
    duplicate = spliced.replace('"id": "mytool",', '"id": "mytool", "id": "evil",')
    texts = [json.dumps(BASE), duplicate, '{"a": {"b": 1, "b": "x:y"}}', '{"a": 1}']
    body = PARSE_TEXTS.format(pollution=POLLUTION, texts=json.dumps(texts))
    results = run_js(out, body)
    for text, result in zip(texts, results, strict=True):
        assert result == python_file_records(text.encode()), text


def test_a_polluted_prototype_makes_no_escape_valid(out: Path) -> None:
    """The strict parser looked escapes up in an object literal: with
    ``Object.prototype["0"]`` (or ``.x``) set, ``\\0`` and ``\\x`` became escapes, so a file
    Python refuses as invalid JSON parsed (the polluted value spliced into the string)."""
    spliced = json.dumps(BASE).replace("My Tool", "My\\0Tool\\x")
    # A colon in a string sends the text past the JSON.parse fast path, to the strict parser.
    texts = [
        spliced,
        spliced.replace('"--message"', '"--m:"'),
        '{"a": "\\0", "b": "x:y"}',
        '{"a": "\\x", "b": "x:y"}',
    ]
    pollution = 'Object.prototype["0"] = "zero"; Object.prototype.x = "ex";'
    body = PARSE_TEXTS.format(pollution=pollution, texts=json.dumps(texts))
    results = run_js(out, body)
    for text, result in zip(texts, results, strict=True):
        assert result == python_file_records(text.encode()), text


OPTION_GADGETS = """
import {{ mkdirSync, mkdtempSync, writeFileSync }} from "node:fs";
import {{ tmpdir }} from "node:os";
import {{ join }} from "node:path";
import {{ loadThirdPartyManifests }} from "./loader.js";
import {{ getToolRegistry }} from "./registry.js";
import {{ detectAll }} from "./detection.js";

const folder = mkdtempSync(join(tmpdir(), "gadget-"));
writeFileSync(join(folder, "mytool.json"), JSON.stringify({base}));
async function observe() {{
  const loaded = loadThirdPartyManifests(folder);
  const registry = getToolRegistry(folder);
  const probed = [];
  const deps = {{
    which: (name) => (name === "mytool" ? "/bin/mytool" : null),
    isFile: () => true,
    runVersion: async (path) => {{ probed.push(path); return "1.0"; }},
    readText: () => null,
    home: () => folder,
    platform: () => "linux",
  }};
  await detectAll(registry, deps);
  return {{
    loaded: loaded.manifests.map((m) => m.id),
    diagnostics: loaded.diagnostics.map((d) => d.code),
    tools: registry.tools.map((t) => t.id),
    headless: registry.providersOf("headless-task"),
    probed,
  }};
}}
const clean = await observe();
// What a JSON merge can write into Object.prototype: data only, no functions. One at a time,
// so no gadget masks another.
const gadgets = {{
  maxFiles: 0,
  grants: {{ mytool: ["headless-task"] }},
  categories: "no-such-category",
  probeThirdPartyVersions: true,
  loader: {{ maxFiles: 0 }},
}};
const polluted = {{}};
for (const [name, value] of Object.entries(gadgets)) {{
  Object.prototype[name] = value;
  polluted[name] = await observe();
  delete Object.prototype[name];
}}
process.stdout.write(JSON.stringify({{ clean, polluted }}));
"""


def test_options_read_no_member_a_polluted_prototype_lends(out: Path) -> None:
    """Options and deps objects (often the default ``{}``) were read with inherited members:
    data written into ``Object.prototype`` granted an adapter capabilities the host never
    granted, ran a third-party adapter's executable for its version, hid every tool by
    category, or loaded no file at all."""
    result = run_js(out, OPTION_GADGETS.format(base=json.dumps(BASE)))
    assert result["clean"]["loaded"] == ["mytool"]
    assert "mytool" in result["clean"]["tools"]
    assert "mytool" not in result["clean"]["headless"]
    assert "/bin/mytool" not in result["clean"]["probed"]
    for name, observed in result["polluted"].items():
        assert observed == result["clean"], name


LIMITS = """
import {{ validateToolManifest }} from "./validator.js";
const document = {document};
const limits = [Infinity, 1.5, 2.5, 0.5, NaN, -Infinity, -1, 0, 3, 1e300];
process.stdout.write(JSON.stringify(limits.map((limit) =>
  validateToolManifest(document, limit).map((d) => [d.code, d.pointer, d.keyword, d.message]))));
"""


def test_a_limit_that_is_not_a_whole_number_bounds_as_in_python(out: Path) -> None:
    """``limit`` is a number: Python keeps violations while fewer than ``limit`` are held, so
    infinity means no bound and 1.5 keeps two. The TypeScript runtime read every non-integer
    as 0: ``validateToolManifest(doc, Infinity)`` (asking for every violation) gave only a
    TOO_MANY_DIAGNOSTICS record."""
    from tool_registry import validate_tool_manifest

    document = {"id": 1, "displayName": 2, "launchable": "x", "detect": [], "extra": 1}
    results = run_js(out, LIMITS.format(document=json.dumps(document)))
    limits = [math.inf, 1.5, 2.5, 0.5, math.nan, -math.inf, -1, 0, 3, 1e300]
    for limit, result in zip(limits, results, strict=True):
        expected = [
            [str(d.code), d.pointer, d.keyword, d.message]
            for d in validate_tool_manifest(document, limit)  # type: ignore[arg-type]
        ]
        assert result == expected, limit


# A string keyword beside a string `const` or `enum` in one subschema.
PINNED_SCHEMAS = [
    {"type": "string", "pattern": "^a", "enum": ["a", "ab", "b"]},
    {"type": "string", "minLength": 2, "const": "a"},
    {"type": "string", "maxLength": 1, "pattern": "^x$", "const": "xy"},
]
PINNED_VALUES: list[Any] = ["a", "ab", "b", "", "xy", "x", 1, None, ["a"], "\ud800"]

PINNED_RUNNER = r"""
import * as validators from "./pinned.js";
const values = JSON.parse(process.argv[2]);
// In the order of their numbers (validate0, validate1, ..., validate10: not the names' order).
const names = Object.keys(validators)
  .filter((name) => /^validate\d+$/.test(name))
  .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
process.stdout.write(JSON.stringify(names.map((name) => values.map((value) =>
  validators[name](value).map((d) => [d.code, d.pointer, d.keyword, d.expected, d.found])))));
"""


def test_a_string_keyword_beside_a_string_const_or_enum_compiles_in_both_languages(
    tmp_path: Path,
) -> None:
    """The Python emitter indented a string's own checks (pattern, lengths) twice when the
    same subschema pinned the string with ``const`` or an all-string ``enum``: ``generate``
    failed (GENERATION_FAILED, not valid Python) on a plain schema such as
    ``{"type": "string", "pattern": "^a", "enum": ["a", "b"]}``."""
    compared = _records_in_both_languages(tmp_path, PINNED_SCHEMAS, PINNED_VALUES)
    assert [c for c in compared if c[2] != c[3]] == []
    verdicts = {(json.dumps(s), json.dumps(v)): p == [] for s, v, p, _ in compared}
    assert verdicts[json.dumps(PINNED_SCHEMAS[0]), '"ab"'] is True
    assert verdicts[json.dumps(PINNED_SCHEMAS[0]), '"b"'] is False


@pytest.mark.parametrize("pinned", [{"enum": [{"a": 1}, 2]}, {"const": [1]}])
def test_an_object_or_array_in_const_or_enum_is_a_clean_refusal(
    tmp_path: Path, pinned: dict[str, Any]
) -> None:
    """A copied project's schema with an object or array in ``const``/``enum`` crashed
    ``generate`` with an internal TypeError (the TypeScript types have no literal for it); it
    is now a GENERATION_FAILED diagnostic naming what has no literal type."""
    from .conftest import copy_project, run_toolgen

    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["extra"] = pinned
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    assert "internal error" not in completed.stderr
    assert "GENERATION_FAILED" in completed.stderr and "no TypeScript literal" in completed.stderr


LOAD_FOLDER = """
import {{ loadThirdPartyManifests }} from "./loader.js";
const results = {limits}.map((maxFiles) => {{
  const loaded = loadThirdPartyManifests({folder}, {{ maxFiles }});
  return loaded.diagnostics.map((d) => [d.code, d.omitted, d.message]);
}});
process.stdout.write(JSON.stringify(results));
"""


def test_a_limit_of_no_files_still_counts_the_files_left_unread(out: Path, tmp_path: Path) -> None:
    """``max_files=0`` (or below) read no name at all in Python (``heapq.nsmallest(0, ...)``
    never pulls from the listing), so the folder's files went unreported; TypeScript said
    TOO_MANY_FILES. Both now count them."""
    from tool_registry.loader import load_third_party_manifests

    for index in range(3):
        (tmp_path / f"a{index}.json").write_text(json.dumps({**BASE, "id": f"a{index}"}))
    # Fractions, NaN and infinity too: read the same way in both (JSON's NaN and Infinity are
    # JavaScript literals in the generated script).
    limits = [0, -1, 1, 5, 1.5, -0.5, float("nan"), float("inf")]
    body = LOAD_FOLDER.format(limits=json.dumps(limits), folder=json.dumps(str(tmp_path)))
    results = run_js(out, body)
    for limit, records in zip(limits, results, strict=True):
        loaded = load_third_party_manifests(tmp_path, max_files=limit)
        expected = [[str(d.code), d.omitted, d.message] for d in loaded.diagnostics]
        assert records == expected, limit
    assert results[0] == [["TOO_MANY_FILES", 3, "3 files beyond the limit of 0 were not read"]]
    assert results[4] == [["TOO_MANY_FILES", 2, "2 files beyond the limit of 1 were not read"]]
    assert results[6] == results[0] and results[7] == []


# Whitespace Python's str.strip removes and JavaScript's trim keeps (U+001C..U+001F, U+0085),
# and the one JavaScript trims and Python keeps (U+FEFF).
VERSION_OUTPUTS = ["\x1c1.2.3\x1f\n", "\ufeff1.2.3\n", "\x851.2.3\x85\nx", " 4.5 \u3000\n"]

RUN_VERSION = """
import {{ runVersion }} from "./detection.js";
const scripts = {scripts};
const results = [];
for (const script of scripts) results.push(await runVersion(script, 20000));
process.stdout.write(JSON.stringify(results));
"""


@pytest.mark.skipif(sys.platform == "win32", reason="a script run by its #! line")
def test_a_version_line_is_trimmed_as_python_strips_it(out: Path, tmp_path: Path) -> None:
    """A tool's ``--version`` output is the tool's to choose: trimmed with JavaScript's
    ``trim`` (which keeps U+001C..U+001F and U+0085 and removes U+FEFF), a hostile or odd
    first line came out different from Python's ``strip`` (and node's decoder dropped a leading
    byte-order mark Python keeps)."""
    from tool_registry.detection import _run_version

    scripts = []
    for index, output in enumerate(VERSION_OUTPUTS):
        script = tmp_path / f"tool{index}"
        body = f"process.stdout.write({json.dumps(output)});"
        script.write_text(f"#!{node_executable()}\n{body}\n", encoding="utf-8")
        script.chmod(0o755)
        scripts.append(str(script))
    results = run_js(out, RUN_VERSION.format(scripts=json.dumps(scripts)))
    expected = [_run_version(script, 20) for script in scripts]
    assert expected[0] == "1.2.3"
    assert results == expected


@pytest.mark.parametrize(
    ("pollution", "member"),
    [
        ('Object.prototype.detect = { kind: "candidates" };', None),
        ('Object.prototype.kind = "candidates";', {"binaryName": "mytool"}),
    ],
)
def test_a_polluted_prototype_lends_no_candidates_detection(
    out: Path, pollution: str, member: dict[str, Any] | None
) -> None:
    """The loader's candidates rule read ``detect`` and its ``kind`` with inherited members:
    with ``Object.prototype.detect = {kind: "candidates"}`` (data a JSON merge can write) a
    file without ``detect`` got CANDIDATES_NOT_ALLOWED beside Python's one SCHEMA_VIOLATION;
    with ``Object.prototype.kind`` set, a ``detect`` missing its ``kind`` got
    CANDIDATES_NOT_ALLOWED in place of Python's SCHEMA_VIOLATION (which it hid)."""
    document = {key: value for key, value in BASE.items() if key != "detect"}
    if member is not None:
        document["detect"] = member
    texts = [json.dumps(document), json.dumps(document).replace('"--message"', '"--m:"')]
    results = run_js(out, PARSE_TEXTS.format(pollution=pollution, texts=json.dumps(texts)))
    for text, result in zip(texts, results, strict=True):
        assert result == python_file_records(text.encode()), text
    assert all(
        record[0] != "CANDIDATES_NOT_ALLOWED" for r in results for record in r["diagnostics"]
    )


RETAINED = """
import {{ parseThirdPartyManifest }} from "./loader.js";
import {{ validateToolManifest }} from "./validator.js";
const base = {base};
const kept = [];
globalThis.gc();
const before = process.memoryUsage().heapUsed;
for (let index = 0; index < 200; index++) {{
  // A colon in a string sends the text to the strict parser; the padding makes it long.
  const good = {{ ...base, displayName: "Tool number " + index + " of many", promptArgTemplate: ["--m:", "{{prompt}}"] }};
  const bad = {{ ...good, id: "not an id: number " + index }};
  for (const document of [good, bad]) {{
    const text = JSON.stringify(document).slice(0, -1) + " ".repeat(60000) + "}}";
    const result = parseThirdPartyManifest(text, "s");
    kept.push(result.manifest, ...result.diagnostics);
  }}
  // A caller's own value: a short slice of a long text.
  const long = "an id: " + index + " ".repeat(60000);
  kept.push(...validateToolManifest({{ ...base, id: long.slice(0, 40) }}));
}}
globalThis.gc();
const grown = process.memoryUsage().heapUsed - before;
process.stdout.write(JSON.stringify({{
  grown,
  accepted: kept.filter((item) => item !== null && "id" in item && !("code" in item)).length,
  found: kept.filter((item) => item !== null && "code" in item).map((d) => d.found).slice(0, 2),
}}));
"""


def test_a_kept_short_string_does_not_keep_its_whole_text_alive(out: Path) -> None:
    """V8 cuts a slice of 13 or more code units as a view into its source: the strict parser's
    strings were slices of the file's decoded text, so an accepted manifest's display name, or
    a schema violation's record keeping its value to show later, kept the whole file (up to the
    size limit) alive; a record likewise kept a caller's long text a short value was cut from.
    Four hundred 60 kB files and two hundred 60 kB caller texts held about 36 MB after
    collection; now what is kept is copied (memory is measured, not time)."""
    result = run_js(
        out,
        RETAINED.format(base=json.dumps(BASE)),
        name="retained.mjs",
        node_flags=("--expose-gc",),
    )
    assert result["accepted"] == 200
    assert result["found"] == ['"not an id: number 0"', '"an id: 0' + " " * 32 + '"']
    # The texts total 36 MB; what is kept (manifests and records) is well under 1 MB of it.
    assert result["grown"] < 6_000_000, result["grown"]


REUSED_LISTING = """
import {{ loadThirdPartyManifests }} from "./loader.js";
const base = {base};
// A listing that reuses one buffer for every name (as a streaming reader may).
function* readDir() {{
  const shared = new Uint8Array(7);
  for (const name of ["aa.json", "bb.json"]) {{
    shared.set(new TextEncoder().encode(name));
    yield shared;
  }}
}}
const read = [];
const readFile = (path, limit) => {{
  const name = Buffer.from(path).toString("utf8").split("/").pop();
  read.push(name);
  return new TextEncoder().encode(JSON.stringify({{ ...base, id: name.slice(0, 2) }}));
}};
const loaded = loadThirdPartyManifests("adapters", {{ readDir, readFile }});
process.stdout.write(JSON.stringify({{ read, files: loaded.files.map((f) => [f.source, f.id]) }}));
"""


def test_a_listing_that_reuses_its_buffer_opens_each_name(out: Path) -> None:
    """A listed name's bytes were kept as a view of what the listing yielded and opened later:
    an injected ``readDir`` reusing one buffer for every name had every file read under the
    last name (``aa.json`` reported ``bb.json``'s content, and both were refused as
    DUPLICATE_ID), where Python's names are immutable bytes."""
    result = run_js(out, REUSED_LISTING.format(base=json.dumps(BASE)))
    assert result == {
        "read": ["aa.json", "bb.json"],
        "files": [["aa.json", "aa"], ["bb.json", "bb"]],
    }


DATA_GADGETS = """
import {{ mkdtempSync, writeFileSync }} from "node:fs";
import {{ tmpdir }} from "node:os";
import {{ join }} from "node:path";
import {{ getToolRegistry, claimedCapabilities }} from "./registry.js";
import {{ detectTool }} from "./detection.js";
import {{ hookPackageFor }} from "./hook-packages.js";
import {{ notLaunchableReason }} from "./launch.js";

const folder = mkdtempSync(join(tmpdir(), "data-gadget-"));
// An adapter declaring no capabilities, which the host grants one anyway.
writeFileSync(join(folder, "mytool.json"), JSON.stringify({base}));
// A built-in tool found by candidate paths, none listed for this platform.
const unlisted = {{
  id: "cursor", displayName: "Cursor", launchable: true, hookCapable: true,
  hookPointer: ".cursor/x.json", detect: {{ kind: "candidates" }}, builtin: true,
}};
async function observe() {{
  const registry = getToolRegistry(folder, {{ grants: {{ mytool: ["headless-task"] }} }});
  const probed = [];
  const deps = {{
    which: () => null,
    isFile: (path) => {{ probed.push(path); return true; }},
    runVersion: async () => "1.0",
    readText: () => null,
    home: () => folder,
    platform: () => "linux",
  }};
  const detected = await detectTool(unlisted, registry, deps, false);
  return {{
    claimed: registry.tools.map((tool) => [tool.id, claimedCapabilities(tool)]),
    headless: registry.providersOf("headless-task"),
    hookPackage: hookPackageFor("claude-code"),
    launch: notLaunchableReason("claude-code", true),
    detected: [detected.installed, detected.path, detected.diagnostic?.code ?? null],
    probed,
  }};
}}
const clean = await observe();
// Data a JSON merge can write into Object.prototype, one member at a time.
const gadgets = {{
  capabilities: {{ provides: ["headless-task", "interactive-launch"] }},
  hookPackage: "attacker-package",
  category: "mcp-server",
  paths: {{ linux: ["/tmp/attacker"] }},
  linux: ["/tmp/attacker"],
}};
const polluted = {{}};
for (const [name, value] of Object.entries(gadgets)) {{
  Object.prototype[name] = value;
  try {{ polluted[name] = await observe(); }} finally {{ delete Object.prototype[name]; }}
}}
process.stdout.write(JSON.stringify({{ clean, polluted }}));
"""


def test_manifest_members_a_polluted_prototype_lends_are_not_read(out: Path) -> None:
    """Optional manifest members were read through the prototype chain: data written into
    ``Object.prototype`` gave a built-in tool an attacker's hook package name, made an adapter
    that declares no capability claim some (and be routed once granted), made a built-in inert,
    and had detection probe (and report as the tool) a path no manifest lists."""
    base = {key: value for key, value in BASE.items() if key != "capabilities"}
    result = run_js(out, DATA_GADGETS.format(base=json.dumps(base)))
    clean = result["clean"]
    assert clean["hookPackage"].endswith("claude-code")
    assert ["mytool", []] in clean["claimed"]
    assert "mytool" not in clean["headless"]
    assert clean["launch"] is None
    assert clean["detected"] == [None, None, "NOT_DETECTABLE"]
    assert clean["probed"] == []
    for name, observed in result["polluted"].items():
        assert observed == clean, name


ODD_GRANTS = """
import {{ mkdtempSync, writeFileSync }} from "node:fs";
import {{ tmpdir }} from "node:os";
import {{ join }} from "node:path";
import {{ getToolRegistry }} from "./registry.js";

const folder = mkdtempSync(join(tmpdir(), "odd-grants-"));
writeFileSync(join(folder, "mytool.json"), JSON.stringify({mytool}));
writeFileSync(join(folder, "other.json"), JSON.stringify({other}));
const granted = (grants) => {{
  const registry = getToolRegistry(folder, {{ grants }});
  return [registry.providersOf("headless-task").includes("mytool"),
          registry.providersOf("headless-task").includes("other")];
}};
console.log(JSON.stringify([
  granted({{ mytool: {{ "headless-task": true }}, other: ["headless-task"] }}),
  granted({{ mytool: new Map([["headless-task", true]]), other: new Set(["headless-task"]) }}),
]));
"""


def test_an_id_whose_grant_is_a_mapping_is_granted_nothing_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    """A mapping is no list of capabilities: that id is granted nothing, and the other ids keep
    their grants (TypeScript dropped every grant when one was a plain object; Python granted the
    mapping's keys)."""
    mytool = dict(BASE)
    other = {**BASE, "id": "other", "displayName": "Other"}
    other["detect"] = {"kind": "path", "binaryName": "other"}
    in_node = run_js(out, ODD_GRANTS.format(mytool=json.dumps(mytool), other=json.dumps(other)))
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "mytool.json").write_text(json.dumps(mytool), encoding="utf-8")
    (folder / "other.json").write_text(json.dumps(other), encoding="utf-8")
    in_python = []
    odd: tuple[Any, ...] = (
        {"mytool": {"headless-task": True}, "other": ["headless-task"]},
        {"mytool": {"headless-task": True}.items(), "other": {"headless-task"}},
    )
    for grants in odd:
        providers = get_tool_registry(folder, grants=grants).providers_of("headless-task")
        in_python.append(["mytool" in providers, "other" in providers])
    assert in_node == in_python == [[False, True], [False, True]]


MAP_GRANTS = """
import {{ mkdtempSync, writeFileSync }} from "node:fs";
import {{ tmpdir }} from "node:os";
import {{ join }} from "node:path";
import {{ getToolRegistry }} from "./registry.js";

const folder = mkdtempSync(join(tmpdir(), "map-grants-"));
writeFileSync(join(folder, "mytool.json"), JSON.stringify({mytool}));
writeFileSync(join(folder, "other.json"), JSON.stringify({other}));
const granted = (grants) => {{
  const headless = getToolRegistry(folder, {{ grants }}).providersOf("headless-task");
  return [headless.includes("mytool"), headless.includes("other")];
}};
class Lying extends Map {{
  get size() {{ return 0; }}
  entries() {{ return [["other", ["headless-task"]]][Symbol.iterator](); }}
}}
const flood = new Map([["mytool", ["headless-task"]]]);
for (let index = 0; index < 1000; index += 1) flood.set(`x${{index}}`, []);
const lying = new Lying(flood);
console.log(JSON.stringify([
  granted(new Map([["mytool", ["headless-task"]], [7, ["headless-task"]]])),
  granted(new Map([["other", new Set(["headless-task"])]])),
  granted(flood),
  granted(lying),
]));
"""


def test_grants_given_as_a_map_grant_what_they_name_within_the_bound(
    out: Path, tmp_path: Path
) -> None:
    """A host's grants as a ``Map`` (Python: any mapping) grant what they name: ``Object.keys`` of
    a Map is empty, so such grants granted nothing. A non-string key names no adapter; more than
    1,000 ids grant nothing at all (1,001 here), counted by ``Map``'s own ``size``, so a subclass
    lying about its size or entries changes nothing."""
    mytool = dict(BASE)
    other = {**BASE, "id": "other", "displayName": "Other"}
    other["detect"] = {"kind": "path", "binaryName": "other"}
    in_node = run_js(out, MAP_GRANTS.format(mytool=json.dumps(mytool), other=json.dumps(other)))
    assert in_node == [[True, False], [False, True], [False, False], [False, False]]
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "mytool.json").write_text(json.dumps(mytool), encoding="utf-8")
    flood: dict[str, list[str]] = {"mytool": ["headless-task"]}
    flood.update({f"x{index}": [] for index in range(1000)})
    providers = get_tool_registry(folder, grants=flood).providers_of("headless-task")
    assert "mytool" not in providers  # Python's bound, alike


def _records_in_both_languages(
    tmp_path: Path, schemas: list[Any], values: list[Any]
) -> list[tuple[Any, Any, list[Any], list[Any]]]:
    """(schema, value, Python's records, TypeScript's records) for every schema (compiled by
    both backends) and value; the records as ``[code, pointer, keyword, expected, found]``."""
    import types

    from generator.ts_validator import emit_validators
    from generator.validator_compiler import compile_validators

    from .conftest import compile_typescript

    entries = {f"validate{index}": f"/$defs/s{index}" for index in range(len(schemas))}
    schema = {"$defs": {f"s{index}": s for index, s in enumerate(schemas)}}
    module = types.ModuleType("pinned")
    source = compile_validators(schema, entries, package="tool_registry")
    exec(compile(source, "<pinned>", "exec"), module.__dict__)  # noqa: S102 - our own output
    src = tmp_path / "src"
    src.mkdir()
    for name in ("diagnostics.ts", "schema-runtime.ts"):
        (src / name).write_text((GENERATED_TS / name).read_text("utf-8"), encoding="utf-8")
    (src / "pinned.ts").write_text(emit_validators(schema, entries, guards=False), "utf-8")
    built = compile_typescript(tmp_path, sorted(src.glob("*.ts")), tmp_path / "out")
    assert built.returncode == 0, built.stdout[-3000:]
    runner = tmp_path / "out" / "run.mjs"
    runner.write_text(PINNED_RUNNER, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(runner), json.dumps(values)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    compared = []
    for index, per_value in enumerate(json.loads(completed.stdout)):
        validate = getattr(module, f"validate{index}")
        for value, records in zip(values, per_value, strict=True):
            python = [
                [str(d.code), d.pointer, d.keyword, d.expected, d.found] for d in validate(value)
            ]
            compared.append((schemas[index], value, python, records))
    return compared


def test_a_proto_member_of_a_const_or_enum_object_is_a_member(tmp_path: Path) -> None:
    """An object in ``const``/``enum`` was emitted as a TypeScript literal with a plain
    ``"__proto__"`` key, which sets the literal's prototype instead of adding a member: ``{}``
    equalled ``{"__proto__": "x"}`` in TypeScript (valid) and not in Python (a violation)."""
    schemas = [
        {"const": {"__proto__": "x"}},
        {"enum": [{"__proto__": {"a": 1}}, 2]},
        {"const": [{"__proto__": None, "b": 1}]},
        {"uniqueItems": True, "items": {"enum": [{"__proto__": 1}, {}]}},
    ]
    values: list[Any] = [{}, {"__proto__": "x"}, {"__proto__": {"a": 1}}, [{"b": 1}], [{}, {}]]
    values += [[{"__proto__": None, "b": 1}], [{"__proto__": 1}, {}], {"a": 1}]
    compared = _records_in_both_languages(tmp_path, schemas, values)
    assert [c for c in compared if c[2] != c[3]] == []
    verdicts = {(json.dumps(s), json.dumps(v)): p == [] for s, v, p, _ in compared}
    assert verdicts[json.dumps(schemas[0]), "{}"] is False
    assert verdicts[json.dumps(schemas[0]), '{"__proto__": "x"}'] is True
    assert verdicts[json.dumps(schemas[1]), "{}"] is False


def test_an_unanchored_pattern_never_matches_inside_an_astral_character(tmp_path: Path) -> None:
    """V8's search in Unicode mode also tried the position between the two halves of a
    surrogate pair: ``\\B`` matched in ``"k\\U0001f600s"`` for TypeScript, where Python (and the
    specification) find no position between two non-word characters or a word and a non-word
    one. Such a pattern is now searched from code point to code point in TypeScript too."""
    schemas: list[Any] = [
        {"type": "string", "pattern": "\\B"},
        {"type": "string", "pattern": "(?<![a-z])(?![a-z])"},
        {"type": "string", "pattern": "(?<!\\w)(?!\\w)"},
        {"type": "string", "pattern": "^a|\\B"},  # an alternation is not anchored
        {"type": "string", "pattern": "^\\B"},  # anchored: one start, as before
    ]
    values: list[Any] = ["k\U0001f600s", "a\U0001f600b", "\U0001f600", "aa", "a b", ""]
    compared = _records_in_both_languages(tmp_path, schemas, values)
    assert [c for c in compared if c[2] != c[3]] == []
    verdicts = {(s["pattern"], v): p == [] for s, v, p, _ in compared}
    assert verdicts["\\B", "k\U0001f600s"] is False
    assert verdicts["\\B", "aa"] is True
    assert verdicts["(?<!\\w)(?!\\w)", "a\U0001f600b"] is False
    assert verdicts["^a|\\B", "a\U0001f600b"] is True
    assert verdicts["^a|\\B", "k\U0001f600s"] is False


def test_a_check_for_a_type_already_narrowed_away_still_compiles(tmp_path: Path) -> None:
    """An answering function narrows the value to the type its node implies; a ``const`` of
    another type, or an ``if`` branch's or a ``oneOf`` alternative's checks for another type,
    were emitted against that narrowed value, and strict tsc refused the module ("no overlap",
    "``length`` does not exist on type ``never``"): a valid schema gave a validator.ts that did
    not compile. The branches keep the known type now, and such a ``const`` compares as
    ``unknown``; both languages still give the same records."""
    schemas: list[Any] = [
        {"type": "array", "const": "a"},
        {"type": "number", "const": True},
        {"type": "object", "const": None},
        {"type": "array", "allOf": [{"const": "a"}, {"type": "null"}]},
        {"type": "null", "if": {"minimum": 5}, "then": {"maxItems": 1}},
        {"type": "null", "if": {"minimum": 5}, "else": {"maxLength": 0}},
        {"type": "object", "if": {"minimum": 5}, "then": {"const": "a"}},
        {
            "type": "object",
            "oneOf": [
                {"properties": {"k": {"const": "x"}}, "required": ["k"], "maxLength": 1},
                {"properties": {"k": {"const": "y"}}, "required": ["k"], "minItems": 2},
            ],
        },
    ]
    values: list[Any] = [None, "a", True, 3, [], ["a", "b"], {}, {"k": "x"}, {"k": "y"}]
    compared = _records_in_both_languages(tmp_path, schemas, values)
    assert [c for c in compared if c[2] != c[3]] == []
    verdicts = {(json.dumps(s), json.dumps(v)): p == [] for s, v, p, _ in compared}
    assert verdicts[json.dumps(schemas[0]), '"a"'] is False  # an array that is "a": none
    assert verdicts[json.dumps(schemas[4]), "null"] is True
    assert verdicts[json.dumps(schemas[7]), '{"k": "y"}'] is True


def test_a_string_enum_of_a_value_narrowed_to_another_type_still_compiles(
    tmp_path: Path,
) -> None:
    """The ``enum`` sibling of the ``const`` case above: a string enum was tested as
    ``typeof v === "string" && ENUM.has(v)``, which narrowed a value already known to be an
    array (or a number) to ``never`` past the test, and the array's own checks after it
    (``v.length``) did not compile under strict tsc. Such an enum holds for nothing, in both
    languages."""
    schemas: list[Any] = [
        {"type": "array", "enum": ["a"], "minItems": 1},
        {"type": "array", "enum": ["a", "b"], "items": {"type": "string"}},
        {"type": "integer", "enum": ["a"], "minimum": 1},
        {"type": "object", "if": {"minimum": 5}, "then": {"enum": ["a"], "required": ["k"]}},
    ]
    values: list[Any] = [None, "a", 4, [], ["a"], {}, {"k": 1}]
    compared = _records_in_both_languages(tmp_path, schemas, values)
    assert [c for c in compared if c[2] != c[3]] == []
    verdicts = {(json.dumps(s), json.dumps(v)): p == [] for s, v, p, _ in compared}
    assert verdicts[json.dumps(schemas[0]), '["a"]'] is False
    assert verdicts[json.dumps(schemas[2]), "4"] is False
    assert verdicts[json.dumps(schemas[3]), '{"k": 1}'] is False  # if holds: no number


def test_the_two_language_harness_pairs_more_than_ten_schemas(tmp_path: Path) -> None:
    """The runner listed ``validate10`` before ``validate2`` (names sorted as text), so with
    more than ten schemas each TypeScript result was compared with another schema's Python
    one. Twelve schemas, each holding one constant, pair up by number now."""
    schemas: list[Any] = [{"const": index} for index in range(12)]
    compared = _records_in_both_languages(tmp_path, schemas, list(range(12)))
    assert [c for c in compared if c[2] != c[3]] == []
    assert [(s["const"], v) for s, v, python, _ in compared if python == []] == [
        (index, index) for index in range(12)
    ]

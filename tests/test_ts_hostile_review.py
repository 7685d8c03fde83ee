"""Another hostile review of the generated TypeScript runtime, each finding held to the Python
runtime's verdict: what a registry hands out cannot change what it routes, launches or reloads.
"""

from __future__ import annotations

import functools
import getpass
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    DetectionDeps,
    NotLaunchableError,
    detect_all,
    ensure_launchable,
    get_tool_registry,
    load_third_party_manifests,
    read_regular_file,
)
from tool_registry.loader import LoadResult, load_manifest_files

from .conftest import (
    REPO,
    build_typescript,
    compile_typescript,
    node_executable,
    run_js,
    stage_typescript,
)

GENERATED_TS = REPO / "generated" / "typescript"
ADAPTER: dict[str, Any] = {
    "id": "aider",
    "displayName": "Aider",
    "category": "cli-agent",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/x.json",
    "detect": {"kind": "path", "binaryName": "aider"},
    "capabilities": {"provides": ["headless-task", "resumable"]},
}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review"), GENERATED_TS)


@pytest.fixture
def adapters(tmp_path: Path) -> Path:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "aider.json").write_text(json.dumps(ADAPTER), encoding="utf-8")
    return folder


REGISTRY_TABLES = """\
import { getToolRegistry } from "./index.js";
const fresh = () => getToolRegistry(FOLDER, { grants: { aider: ["headless-task"] }, categories: ["cli-agent"] });
const tool = (catalog) => catalog.categories.flatMap((c) => c.libraries).flatMap((l) => l.tools)
  .find((t) => t.id === "aider");
// What a registry answers after `change` was tried on it (by its methods, or past them: the
// built-in ones called on what it hands out).
const after = (change) => {
  const registry = fresh();
  let refused = false;
  try { change(registry); } catch (error) { refused = error instanceof TypeError; }
  const refreshed = registry.refresh();
  return {
    refused,
    resumable: registry.providersOf("resumable"),
    headless: registry.providersOf("headless-task"),
    catalog: tool(registry.catalog()) ?? null,
    refreshedIds: refreshed.ids,
    refreshedResumable: refreshed.providersOf("resumable"),
  };
};
const grantResumable = new Set(["resumable"]);
const changes = {
  grantedSet: (r) => r.granted.set("aider", grantResumable),
  grantedDelete: (r) => r.granted.delete("aider"),
  grantedClear: (r) => r.granted.clear(),
  grantedInnerAdd: (r) => r.granted.get("aider").add("resumable"),
  grantedInnerClear: (r) => r.granted.get("aider").clear(),
  sourcesSet: (r) => r.sources.set("aider", "evil.json"),
  categoriesAdd: (r) => r.categories.add("mcp-server"),
  categoriesDelete: (r) => r.categories.delete("cli-agent"),
};
const bypasses = {
  grantedSet: (r) => Map.prototype.set.call(r.granted, "aider", grantResumable),
  grantedInnerAdd: (r) => Set.prototype.add.call(r.granted.get("aider"), "resumable"),
  categoriesDelete: (r) => Set.prototype.delete.call(r.categories, "cli-agent"),
};
const registry = fresh();
console.log(JSON.stringify({
  untouched: after(() => {}),
  changed: Object.fromEntries(Object.entries(changes).map(([name, change]) => [name, after(change)])),
  bypassed: Object.fromEntries(Object.entries(bypasses).map(([name, change]) => [name, after(change)])),
  types: [registry.granted instanceof Map, registry.sources instanceof Map, registry.categories instanceof Set],
}));
"""


def test_a_registry_s_tables_cannot_be_changed_by_its_caller(out: Path, adapters: Path) -> None:
    """``registry.granted``, ``sources`` and ``categories`` were the registry's own Map and Sets:
    ``registry.granted.set("aider", new Set(["resumable"]))`` made ``providersOf`` route a
    capability the host never granted, and ``registry.categories.add("mcp-server")`` changed what
    every ``refresh()`` kept (Python's ``categories`` is a frozenset). They are read-only copies
    now: a mutator throws a ``TypeError``, and even the built-in methods called on the copies
    change nothing the registry answers."""
    result = run_js(out, REGISTRY_TABLES.replace("FOLDER", json.dumps(str(adapters))))
    untouched = result["untouched"]
    python = get_tool_registry(
        str(adapters), grants={"aider": ["headless-task"]}, categories=["cli-agent"]
    )
    assert untouched["refreshedIds"] == list(python.ids)
    assert untouched["resumable"] == list(python.providers_of("resumable"))
    assert untouched["headless"] == list(python.providers_of("headless-task"))
    assert untouched["catalog"]["granted"] == ["headless-task"]
    assert untouched["catalog"]["source"] == "aider.json"
    assert len(result["changed"]) == 8
    for name, answer in result["changed"].items():
        assert answer == {**untouched, "refused": True}, name
    for name, answer in result["bypassed"].items():
        assert answer == untouched, name
    assert result["types"] == [True, True, True]  # still a Map and Sets to read


def test_a_python_registry_s_tables_are_read_only_too(adapters: Path) -> None:
    """Python's ``granted``, ``sources``, ``grants`` and ``resolvers`` were plain dicts:
    ``registry.grants["aider"] = ...`` let ``ensure_launchable`` approve an adapter the host had
    granted nothing, and ``registry.granted[...]`` made ``providers_of`` route it."""
    registry = get_tool_registry(str(adapters), grants={"aider": ["headless-task"]})
    for table in (registry.granted, registry.sources, registry.grants, registry.resolvers):
        with pytest.raises(TypeError):
            table["aider"] = frozenset({"resumable"})  # type: ignore[index]
    ungranted = get_tool_registry(str(adapters))
    with pytest.raises(TypeError):
        ungranted.grants["aider"] = frozenset({"headless-task"})  # type: ignore[index]
    with pytest.raises(NotLaunchableError) as refused:
        ensure_launchable(ungranted, "aider", detection=None)
    assert refused.value.code == "NOT_GRANTED"
    assert "aider" not in registry.providers_of("resumable")
    assert registry == registry.refresh()
    assert dict(registry.granted)["aider"] == frozenset({"headless-task"})


RESOLVER_REWRITES_DEPS = """\
import { detectAll, getToolRegistry } from "./index.js";
const registry = getToolRegistry(FOLDER, { resolvers: { "claude-desktop": (deps) => {
  deps.which = () => "/bin/evil";
  deps.runVersion = async () => "evil 6.6.6";
  return [];
} } });
const looked = [];
const results = await detectAll(registry, {
  which: (name) => { looked.push(name); return null; },
  isFile: () => true,
  readText: () => null,
  home: () => "/h",
  platform: () => "linux",
  runVersion: async () => "1.0",
});
console.log(JSON.stringify({
  results: results.map((r) => [r.id, r.installed, r.path, r.version, r.diagnostic?.code ?? null]),
  looked,
}));
"""


def test_a_resolver_cannot_rewrite_the_deps_every_later_tool_is_probed_with(
    out: Path, tmp_path: Path
) -> None:
    """A resolver is handed the detection dependencies. Python's ``DetectionDeps`` is frozen (the
    resolver's assignment fails, a DETECTION_FAILED for its own tool); TypeScript handed over a
    plain object, so a resolver that set ``deps.which`` and ``deps.runVersion`` made every tool
    after it "installed" at its program, with its version. They are frozen too now."""
    result = run_js(
        out, RESOLVER_REWRITES_DEPS.replace("FOLDER", json.dumps(str(tmp_path / "none")))
    )
    looked: list[str] = []

    def which(name: str) -> str | None:
        looked.append(name)
        return None

    def resolver(deps: DetectionDeps) -> list[str]:
        deps.which = lambda _name: "/bin/evil"  # type: ignore[misc]
        return []

    registry = get_tool_registry(str(tmp_path / "none"), resolvers={"claude-desktop": resolver})
    python = detect_all(
        registry,
        DetectionDeps(
            which=which,
            is_file=lambda _path: True,
            read_text=lambda _path: None,
            home=lambda: "/h",
            platform=lambda: "linux",
            run_version=lambda _path, _timeout: "1.0",
        ),
    )
    expected = [
        [
            r.id,
            r.installed,
            r.path,
            r.version,
            None if r.diagnostic is None else r.diagnostic.code.value,
        ]
        for r in python
    ]
    assert result["results"] == expected
    assert result["looked"] == looked
    assert "/bin/evil" not in json.dumps(expected)
    assert ["claude-desktop", False, None, None, "DETECTION_FAILED"] in expected


@pytest.mark.parametrize(
    "configured",
    list(
        dict.fromkeys(
            [
                "~root/adapters",
                f"~{getpass.getuser()}/adapters",
                "~root",
                "~no-such-user/a",
                "~",
                "~/adapters",
                "a/~/b",
            ]
        )
    ),
)
def test_the_default_folder_is_the_same_folder_in_both_languages(
    out: Path, tmp_path: Path, configured: str
) -> None:
    """``WAGGLE_ADAPTERS_DIR=~root/adapters``: Python's ``expanduser`` read another user's home
    ("/root/adapters"), TypeScript the relative name; both read the name as written now (only
    ``~`` and ``~/`` are the home folder)."""
    env = {**os.environ, "HOME": str(tmp_path / "home"), "WAGGLE_ADAPTERS_DIR": configured}
    script = out / "default-folder.mjs"
    script.write_text(
        'import { defaultAdaptersDir } from "./index.js";\n'
        "console.log(JSON.stringify(defaultAdaptersDir()));\n",
        encoding="utf-8",
    )
    typescript = subprocess.run(
        [node_executable(), str(script)], capture_output=True, text=True, check=True, env=env
    )
    python = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys; sys.path.insert(0, sys.argv[1]);"
            " from tool_registry import default_adapters_dir;"
            " print(json.dumps(default_adapters_dir()))",
            str(REPO / "generated" / "python"),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert json.loads(typescript.stdout) == json.loads(python.stdout)
    if configured.startswith("~/") or configured == "~":
        assert json.loads(python.stdout).startswith(str(tmp_path / "home"))
    else:
        assert json.loads(python.stdout) == configured


SHARED_CONSTANTS = """\
const modules = MODULES;
const thawed = [];
const seen = new Set();
const walk = (value, where) => {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  if (value instanceof Map || value instanceof Set) return; // a Map or Set cannot be frozen
  if (!Object.isFrozen(value)) thawed.push(where);
  for (const key of Reflect.ownKeys(value)) {
    const member = Object.getOwnPropertyDescriptor(value, key);
    if ("value" in member) walk(member.value, `${where}.${String(key)}`);
  }
};
for (const name of modules) {
  for (const [key, value] of Object.entries(await import(`./${name}.js`))) walk(value, `${name}.${key}`);
}
const { LOADER_OPTIONS, loadThirdPartyManifests } = await import("./loader.js");
try { LOADER_OPTIONS.push("whcih"); } catch {}
let refused = false;
try { loadThirdPartyManifests(FOLDER, { whcih: () => null }); } catch (error) { refused = error instanceof TypeError; }
console.log(JSON.stringify({ thawed, refused }));
"""


def test_every_shared_constant_is_frozen(out: Path, tmp_path: Path) -> None:
    """``PROMPT_ARG_ERROR_CODES`` (Python's ``CODES`` is a tuple) and ``LOADER_OPTIONS`` were
    plain arrays: a caller could empty the one, and push a name onto the other so that the
    loader took a typo (``{ whcih }``) for an option without a word."""
    modules = sorted(path.stem for path in GENERATED_TS.glob("*.ts") if path.stem != "types")
    body = SHARED_CONSTANTS.replace("MODULES", json.dumps(modules)).replace(
        "FOLDER", json.dumps(str(tmp_path))
    )
    result = run_js(out, body)
    assert "prompt-args" in modules
    assert result == {"thawed": [], "refused": True}


UNUSABLE_PATHS = """\
import { loadManifestFiles, loadThirdPartyManifests } from "./index.js";
const records = (result) => result.diagnostics.map((d) => [d.code, d.source, d.found]);
console.log(JSON.stringify({
  files: records(loadManifestFiles([["nul.json", "NUL_PATH"], ["number.json", 7], ["none.json", null]])),
  folder: records(loadThirdPartyManifests("NUL_PATH")),
}));
"""


def _records(loaded: LoadResult) -> list[list[object]]:
    return [[d.code.value, d.source, d.found] for d in loaded.diagnostics]


def test_a_path_node_refuses_outright_is_reported_as_python_reports_it(
    out: Path, tmp_path: Path
) -> None:
    """A path holding a NUL, or no path at all, never reaches the file system in either language:
    Python's ``os`` raises ``ValueError`` (``TypeError``) and the loader says so, where the
    TypeScript loader said node's ``ERR_INVALID_ARG_VALUE`` (``ERR_INVALID_ARG_TYPE``)."""
    nul_path = str(tmp_path / "a\x00b.json")
    result = run_js(out, UNUSABLE_PATHS.replace('"NUL_PATH"', json.dumps(nul_path)))
    files = load_manifest_files([("nul.json", nul_path), ("number.json", 7), ("none.json", None)])  # type: ignore[list-item]
    folder = load_third_party_manifests(nul_path)
    assert result == {"files": _records(files), "folder": _records(folder)}
    assert [found for _, _, found in result["files"]] == ["ValueError", "TypeError", "TypeError"]


SURROGATE_FOLDERS = """\
import { loadManifestFiles, loadThirdPartyManifests, readRegularFile } from "./index.js";
const base = BASE;
const outcome = (result) => [result.manifests.map((m) => m.id), result.diagnostics.map((d) => [d.code, d.found])];
const named = base + "/\\udcff";
const unencodable = base + "/\\ud800";
const first = loadThirdPartyManifests(named);
console.log(JSON.stringify({
  named: outcome(first),
  refreshed: loadThirdPartyManifests(named, { previous: first }).states.map((s) => s.state),
  listedByHost: outcome(loadThirdPartyManifests(named, { readDir: () => ["aider.json"] })),
  unencodable: outcome(loadThirdPartyManifests(unencodable)),
  unencodableListedByHost: outcome(loadThirdPartyManifests(unencodable, { readDir: () => ["aider.json"] })),
  pairs: outcome(loadManifestFiles([["a", named + "/aider.json"], ["b", unencodable + "/aider.json"]])),
  bytes: (() => { try { return readRegularFile(named + "/aider.json", 1 << 20).length; } catch (error) { return String(error.code); } })(),
}));
"""


def test_a_folder_named_with_a_lone_surrogate_is_the_folder_python_reads(
    out: Path, tmp_path: Path
) -> None:
    """A name that is not UTF-8 reaches a Python caller with its bytes as U+DC80..U+DCFF
    (surrogateescape), and Python's loader reads the folder those bytes name. Node writes U+FFFD
    for a lone surrogate, so TypeScript listed another folder: here the one named U+FFFD, holding
    a decoy adapter. Both read the same folder now; a lone surrogate no byte stands for is
    UNREADABLE (``UnicodeEncodeError``) in both."""
    base = tmp_path / "base"
    adapter = json.dumps(ADAPTER).encode()
    real = os.fsencode(base) + b"/\xff"
    os.makedirs(real)
    Path(os.fsdecode(real + b"/aider.json")).write_bytes(adapter)
    decoy = base / "\ufffd"
    decoy.mkdir()
    (decoy / "decoy.json").write_text(json.dumps({**ADAPTER, "id": "decoy"}), encoding="utf-8")
    result = run_js(out, SURROGATE_FOLDERS.replace("BASE", json.dumps(str(base))))

    def outcome(loaded: LoadResult) -> list[object]:
        return [
            [m.id for m in loaded.manifests],
            [[d.code.value, d.found] for d in loaded.diagnostics],
        ]

    named = str(base / "\udcff")
    unencodable = str(base / "\ud800")
    first = load_third_party_manifests(named)
    assert result == {
        "named": outcome(first),
        "refreshed": [s.state for s in load_third_party_manifests(named, previous=first).states],
        "listedByHost": outcome(
            load_third_party_manifests(named, read_dir=lambda _folder: ["aider.json"])
        ),
        "unencodable": outcome(load_third_party_manifests(unencodable)),
        "unencodableListedByHost": outcome(
            load_third_party_manifests(unencodable, read_dir=lambda _folder: ["aider.json"])
        ),
        "pairs": outcome(
            load_manifest_files([("a", named + "/aider.json"), ("b", unencodable + "/aider.json")])
        ),
        "bytes": len(read_regular_file(named + "/aider.json", 1 << 20)),
    }
    assert result["named"] == [["aider"], []]
    assert result["refreshed"] == ["reused"]
    assert result["unencodable"] == [[], [["UNREADABLE", "UnicodeEncodeError"]]]


POINTER_TEXTS: dict[str, bytes] = {
    "not-utf8-elsewhere": b'{"backup": "b", "note": "\xff"}',
    "not-utf8-backup": b'{"backup": "b\xff"}',
    "overlong": b'{"backup": "b", "note": "\xc0\xaf"}',
    "encoded-surrogate": b'{"backup": "b", "note": "\xed\xa0\x80"}',
    "bom": b'\xef\xbb\xbf{"backup": "b"}',
    "plain": b'{"backup": "b"}',
}

POINTERS = """\
import { detectAll, getToolRegistry, parseThirdPartyManifest } from "./index.js";
const registry = getToolRegistry(FOLDER);
const homes = HOMES;
const hooks = {};
for (const [name, home] of Object.entries(homes)) {
  const results = await detectAll(registry, { which: () => null, home: () => home, runVersion: async () => null });
  hooks[name] = results.find((r) => r.id === "claude-code").hooksInstalled;
}
console.log(JSON.stringify(hooks));
"""


def test_a_hook_pointer_that_is_not_utf8_names_no_backup(out: Path, tmp_path: Path) -> None:
    """ "A pointer the loader would refuse names no backup": a pointer file holding bytes that are
    not UTF-8 is refused by the loader (INVALID_ENCODING), yet both detections decoded it with
    U+FFFD in their place, read its ``backup`` and counted the hooks as installed. The bytes are
    kept as lone surrogates now (surrogateescape), which the strict reading refuses."""
    homes: dict[str, str] = {}
    for name, data in POINTER_TEXTS.items():
        home = tmp_path / name
        (home / ".claude").mkdir(parents=True)
        (home / ".claude" / "hive-mind-install.json").write_bytes(data)
        (home / ".claude" / "b").write_text("", encoding="utf-8")
        (home / ".claude" / "b\ufffd").write_text("", encoding="utf-8")
        homes[name] = str(home)
    body = POINTERS.replace("FOLDER", json.dumps(str(tmp_path / "none"))).replace(
        "HOMES", json.dumps(homes)
    )
    typescript = run_js(out, body)
    registry = get_tool_registry(str(tmp_path / "none"))
    python = {}
    for name, home_folder in homes.items():
        deps = DetectionDeps(
            which=lambda _name: None,
            home=functools.partial(str, home_folder),
            run_version=lambda _path, _timeout: None,
        )
        (result,) = [r for r in detect_all(registry, deps) if r.id == "claude-code"]
        python[name] = result.hooks_installed
    loaded = load_manifest_files(
        [(name, name) for name in POINTER_TEXTS],
        read_file=lambda path, _limit: POINTER_TEXTS[path],
    )
    loader = {
        name: [d.code.value for d in loaded.diagnostics if d.source == name]
        for name in POINTER_TEXTS
    }
    assert typescript == python
    assert python == {
        "not-utf8-elsewhere": False,
        "not-utf8-backup": False,
        "overlong": False,
        "encoded-surrogate": False,
        "bom": True,
        "plain": True,
    }
    for name, installed in python.items():
        assert installed == ("INVALID_ENCODING" not in loader[name]), name


LAUNCH_GUARD_CONSUMER = """\
import { ensureLaunchable, hookPackageFor, isLaunchable, type ToolId } from "./index.js";

export function refused(id: ToolId): number {
  if (isLaunchable(id, false)) return hookPackageFor(id).length;
  // @ts-expect-error a refused ToolId is still a ToolId, not a number (was: never, so this compiled)
  const wrong: number = id;
  return wrong;
}

export function narrowed(id: "codex" | "not-a-tool"): string {
  if (isLaunchable(id)) return id;
  // @ts-expect-error "codex" is refused when not launchable or not installed: it is still here
  const left: "not-a-tool" = id;
  return left;
}

export function approved(id: string): ToolId {
  if (isLaunchable(id, true)) {
    hookPackageFor(id); // an approved id is a ToolId
    return ensureLaunchable(id, true);
  }
  return "codex";
}
"""


@pytest.mark.parametrize("compiler", ["typescript", "typescript-7"])
def test_a_refused_launch_narrows_nothing_away(tmp_path: Path, compiler: str) -> None:
    """``isLaunchable(id, installed): id is ToolId`` told the compiler that a ``false`` answer
    means "not a ToolId", but a built-in that is not installed (or not launchable) is refused
    too: a refused ``ToolId`` became ``never``, and any use of it compiled (``const n: number =
    id``). Python's ``is_launchable`` is a plain ``bool``. An approved id is now a branded
    ``ToolId`` (``LaunchableToolId``), so a refusal narrows nothing away; checked by a consumer
    compiled with the strict options under both pinned compilers."""
    files = stage_typescript(tmp_path, GENERATED_TS, {"consumer.ts": LAUNCH_GUARD_CONSUMER})
    compile_typescript(tmp_path, files)  # writes the strict tsconfig
    compiled = subprocess.run(
        [
            node_executable(),
            str(REPO / "node_modules" / compiler / "bin" / "tsc"),
            "-p",
            str(tmp_path / "tsconfig.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_a_python_load_s_kept_outcomes_are_read_only(adapters: Path, tmp_path: Path) -> None:
    """Python kept each file's outcome for the next refresh in ``LoadResult.cache``, a plain dict
    (``registry.load_result.cache`` too): a caller writing an outcome there under a file's name,
    with that file's identity, made the next refresh reuse it, a manifest that file never held
    accepted. TypeScript keeps its outcomes private; Python's are read-only now, an empty
    folder's too."""
    first = load_third_party_manifests(str(adapters))
    registry = get_tool_registry(str(adapters))
    empty = load_third_party_manifests(str(tmp_path / "missing"))
    for cache in (first.cache, empty.cache, registry.load_result.cache):  # type: ignore[union-attr]
        with pytest.raises(TypeError):
            cache["forged.json"] = first.cache["aider.json"]  # type: ignore[index]
    refreshed = load_third_party_manifests(str(adapters), previous=first)
    assert [s.state for s in refreshed.states] == ["reused"]
    assert refreshed == first


SURROGATE_CANDIDATE = """\
import { detectAll, getToolRegistry } from "./index.js";
const candidate = BASE + "/\\udcff/claude";
const registry = getToolRegistry(BASE + "/none", { resolvers: { "claude-desktop": () => [candidate] } });
const results = await detectAll(registry, { which: () => null, readText: () => null, home: () => BASE });
const result = results.find((r) => r.id === "claude-desktop");
console.log(JSON.stringify([result.installed, result.path, result.version, result.diagnostic?.code ?? null]));
"""


def test_a_candidate_path_with_a_lone_surrogate_is_the_program_python_looks_at(
    out: Path, tmp_path: Path
) -> None:
    """A resolver's candidate "<base>/\\udcff/claude" is, for Python, the program in the folder
    whose name is the byte 0xFF. Node stat-ed and spawned the U+FFFD name instead, so TypeScript
    found and ran a decoy program there. It now looks at the path Python looks at, and refuses to
    spawn a path it can only write lossily (DETECTION_FAILED): it never runs the decoy."""
    base = tmp_path / "base"
    script = "#!/bin/sh\necho '{} 1.0'\n"
    for folder, said in (
        (os.fsencode(base) + b"/\xff", "real"),
        (os.fsencode(base / "\ufffd"), "decoy"),
    ):
        os.makedirs(folder)
        program = Path(os.fsdecode(folder + b"/claude"))
        program.write_text(script.format(said), encoding="utf-8")
        program.chmod(0o755)
    result = run_js(out, SURROGATE_CANDIDATE.replace("BASE", json.dumps(str(base))))
    candidate = str(base) + "/\udcff/claude"
    registry = get_tool_registry(
        str(base / "none"), resolvers={"claude-desktop": lambda _deps: [candidate]}
    )
    deps = DetectionDeps(
        which=lambda _name: None, read_text=lambda _path: None, home=functools.partial(str, base)
    )
    (python,) = [r for r in detect_all(registry, deps) if r.id == "claude-desktop"]
    assert [python.installed, python.path, python.version] == [True, candidate, "real 1.0"]
    assert result[:2] == [True, candidate]  # the same program found
    assert result[2:] == [None, "DETECTION_FAILED"]  # not run by another name: not the decoy

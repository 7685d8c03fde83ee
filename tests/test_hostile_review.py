"""Defects a hostile adapter file, folder or caller could trigger at run time, found by a hostile
review comparing the Python and TypeScript runtimes; each test pins the fixed behaviour."""

from __future__ import annotations

import functools
import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import DetectionDeps, detect_all, get_tool_registry, load_third_party_manifests
from tool_registry import loader as loader_module

from .conftest import REPO, build_typescript, node_executable
from .test_loader import manifest

GENERATED_TS = REPO / "generated" / "typescript"
PROBE = "toolgen-hostile-probe"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-hostile-review"), GENERATED_TS)


def test_a_refresh_never_reports_a_present_long_name_as_removed(tmp_path: Path) -> None:
    # A name longer than the 80 characters a value is clipped to (but within the 300 a source
    # is shown with) was listed as both ``reused`` and ``removed`` by every refresh.
    folder = tmp_path / "adapters"
    folder.mkdir()
    long_name = "a" * 100 + ".json"
    (folder / long_name).write_text(json.dumps(manifest()), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(manifest(id="bee", displayName="Bee")))
    registry = get_tool_registry(folder)
    (folder / "b.json").unlink()
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [
        (long_name, "reused"),
        ("b.json", "removed"),
    ]
    again = refreshed.refresh()
    assert [(s.source, s.state) for s in again.refreshed] == [(long_name, "reused")]


def _planted(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A working folder holding an executable named as an adapter's binary (it leaves a mark
    when run), a folder on PATH holding nothing, and an adapters folder naming that binary."""
    work = tmp_path / "work"
    work.mkdir()
    program = work / PROBE
    program.write_text(f"#!/bin/sh\necho ran >> '{work}/ran'\necho probe 1.0\n")
    program.chmod(0o755)
    empty = tmp_path / "bin"
    empty.mkdir()
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    document = manifest(
        id="probe", displayName="Probe", detect={"kind": "path", "binaryName": PROBE}
    )
    (adapters / "probe.json").write_text(json.dumps(document), encoding="utf-8")
    return work, empty, adapters


def _python_detection(adapters: Path) -> dict[str, Any]:
    (result,) = [
        r
        for r in detect_all(get_tool_registry(adapters), probe_third_party_versions=True)
        if r.id == "probe"
    ]
    return {"installed": result.installed, "path": result.path, "version": result.version}


def _typescript_detection(
    node: str, out: Path, adapters: Path, work: Path, path: str
) -> dict[str, Any]:
    script = out / "hostile-review-detect.mjs"
    script.write_text(
        'import { detectAll, getToolRegistry } from "./index.js";\n'
        "const results = await detectAll(getToolRegistry(process.argv[2]), {},"
        " { probeThirdPartyVersions: true });\n"
        'const r = results.find((x) => x.id === "probe");\n'
        "console.log(JSON.stringify({ installed: r.installed, path: r.path, version: r.version }));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [node, str(script), str(adapters)],
        cwd=work,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


@pytest.mark.skipif(os.name != "posix", reason="POSIX PATH semantics")
@pytest.mark.parametrize("where", ["leading", "middle", "trailing"])
def test_an_empty_path_entry_never_finds_or_runs_a_program_of_the_working_folder(
    where: str, out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # POSIX reads an empty PATH entry (a stray ":") as the working folder: Python's
    # ``shutil.which`` found ``./toolgen-hostile-probe`` there and detection ran it, so a
    # checkout holding a program named like a tool's binary ran when detection ran inside it;
    # TypeScript skipped the entry. Neither looks there now.
    node = node_executable()  # found before PATH changes
    work, empty, adapters = _planted(tmp_path)
    path = {"leading": f":{empty}", "middle": f"{empty}::{empty}", "trailing": f"{empty}:"}[where]
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", path)
    expected = {"installed": False, "path": None, "version": None}
    assert _python_detection(adapters) == expected
    assert _typescript_detection(node, out, adapters, work, path) == expected
    assert not (work / "ran").exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX PATH semantics")
@pytest.mark.parametrize("entry", [".", "./", "sub/..", "../work"])
def test_a_relative_path_entry_never_finds_or_runs_a_program_of_the_working_folder(
    entry: str, out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A relative PATH entry names a folder of the working folder as surely as an empty one does:
    # both languages searched "." (the README said never), found the planted program and ran
    # its --version. Only absolute entries are searched now.
    node = node_executable()  # found before PATH changes
    work, empty, adapters = _planted(tmp_path)
    (work / "sub").mkdir()
    path = f"{empty}:{entry}"
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", path)
    expected = {"installed": False, "path": None, "version": None}
    assert _python_detection(adapters) == expected
    assert _typescript_detection(node, out, adapters, work, path) == expected
    assert not (work / "ran").exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX PATH semantics")
def test_an_absolute_path_entry_still_finds_the_program(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = node_executable()  # found before PATH changes
    work, empty, adapters = _planted(tmp_path)
    path = f"{empty}:{work}"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", path)
    expected = {"installed": True, "path": str(work / PROBE), "version": "probe 1.0"}
    assert _python_detection(adapters) == expected
    assert _typescript_detection(node, out, adapters, work, path) == expected


POINTERS = {
    "plain": '{"backup": "backup.txt"}',
    "NaN literal": '{"backup": "backup.txt", "n": NaN}',
    "Infinity literal": '{"n": -Infinity, "backup": "backup.txt"}',
    "integer of 5000 digits": '{"backup": "backup.txt", "n": ' + "1" * 5000 + "}",
    "nested 40 deep": '{"backup": "backup.txt", "n": ' + "[" * 40 + "]" * 40 + "}",
    "duplicate key": '{"backup": "missing.txt", "backup": "backup.txt"}',
    "lone surrogate": '{"backup": "backup.txt\\ud800"}',
    "byte-order mark": '\ufeff{"backup": "backup.txt"}',
    "no backup": '{"other": 1}',
}


def _found_nowhere(_name: str) -> str | None:
    return None


def _pointer_verdicts(out: Path, tmp_path: Path, polluted: bool) -> dict[str, dict[str, bool]]:
    """Whether hooks count as installed for each pointer text, in Python and in TypeScript."""
    verdicts: dict[str, dict[str, bool]] = {"python": {}, "typescript": {}}
    homes: dict[str, str] = {}
    for index, (name, text) in enumerate(POINTERS.items()):
        home = tmp_path / f"home-{index}"
        (home / ".probe").mkdir(parents=True)
        (home / ".probe" / "pointer.json").write_text(text, encoding="utf-8")
        (home / ".probe" / "backup.txt").write_text("kept", encoding="utf-8")
        homes[name] = str(home)
    adapters = tmp_path / "adapters"
    adapters.mkdir(exist_ok=True)
    document = manifest(
        id="probe",
        displayName="Probe",
        hookPointer=".probe/pointer.json",
        detect={"kind": "path", "binaryName": PROBE},
    )
    (adapters / "probe.json").write_text(json.dumps(document), encoding="utf-8")
    registry = get_tool_registry(adapters)
    for name, folder in homes.items():
        deps = DetectionDeps(which=_found_nowhere, home=functools.partial(str, folder))
        (found,) = [r for r in detect_all(registry, deps) if r.id == "probe"]
        verdicts["python"][name] = found.hooks_installed
    script = out / "hostile-review-pointers.mjs"
    script.write_text(
        'import { detectAll, getToolRegistry } from "./index.js";\n'
        "const [adapters, homes, polluted] = process.argv.slice(2);\n"
        "const registry = getToolRegistry(adapters);\n"
        'if (polluted === "1") Object.prototype.backup = "backup.txt";\n'
        "const verdicts = {};\n"
        "for (const [name, home] of Object.entries(JSON.parse(homes))) {\n"
        "  const results = await detectAll(registry, { which: () => null, home: () => home });\n"
        '  verdicts[name] = results.find((r) => r.id === "probe").hooksInstalled;\n'
        "}\n"
        "console.log(JSON.stringify(verdicts));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            node_executable(),
            str(script),
            str(adapters),
            json.dumps(homes),
            "1" if polluted else "0",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    verdicts["typescript"] = json.loads(result.stdout)
    return verdicts


def test_a_hook_pointer_is_read_by_the_loader_s_strict_json_rules_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    # Python read a pointer with ``json.loads`` (NaN and Infinity accepted, an integer past
    # 4300 digits refused), TypeScript with ``JSON.parse`` (the reverse): the same file gave
    # "hooks installed" in one language only. Both now read it as the loader reads an adapter
    # file: strict JSON, no duplicate key, no lone surrogate, at most 32 levels deep.
    verdicts = _pointer_verdicts(out, tmp_path, polluted=False)
    expected = {name: name in {"plain", "byte-order mark"} for name in POINTERS}
    assert verdicts == {"python": expected, "typescript": expected}


def test_a_polluted_prototype_lends_no_backup_to_a_hook_pointer(out: Path, tmp_path: Path) -> None:
    # ``pointer["backup"]`` read a member ``Object.prototype`` lends every object: a pointer
    # with no ``backup`` counted as installed once something had written one there.
    verdicts = _pointer_verdicts(out, tmp_path, polluted=True)
    assert verdicts["typescript"]["no backup"] is False


NAMES_SHOWN_ESCAPED = [b"a.json", b"\xff.json", b"Z.json", b"\xc3\xa9.json", b"b\\c.json"]


def _typescript_states(out: Path, folder: Path) -> list[list[list[str]]]:
    script = out / "hostile-review-removed.mjs"
    script.write_text(
        'import { readdirSync, unlinkSync } from "node:fs";\n'
        'import { getToolRegistry } from "./index.js";\n'
        "const folder = process.argv[2];\n"
        "const registry = getToolRegistry(folder);\n"
        "const states = (r) => r.refreshed.map((s) => [s.source, s.state]);\n"
        "const first = states(registry);\n"
        'for (const name of readdirSync(folder, { encoding: "buffer" })) {\n'
        '  unlinkSync(Buffer.concat([Buffer.from(folder + "/"), name]));\n'
        "}\n"
        "console.log(JSON.stringify([first, states(registry.refresh())]));\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [node_executable(), str(script), str(folder)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    found: list[list[list[str]]] = json.loads(result.stdout)
    return found


def _populate(folder: Path) -> None:
    folder.mkdir()
    for index, name in enumerate(NAMES_SHOWN_ESCAPED):
        document = manifest(id=f"t{index}", displayName=f"T{index}")
        with open(os.path.join(os.fsencode(folder), name), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(document))


@pytest.mark.skipif(os.name != "posix", reason="names that are not UTF-8")
def test_removed_names_keep_the_byte_order_of_the_names_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    # Python sorted removed names by the bytes of their *shown* form, where a name that is not
    # UTF-8 or holds a backslash starts with "\": a refresh listed them in another order than
    # the load had, and than TypeScript (which keeps the load's byte order of the names).
    folder = tmp_path / "python"
    _populate(folder)
    registry = get_tool_registry(folder)
    loaded = [s.source for s in registry.refreshed]
    for name in os.listdir(os.fsencode(folder)):
        os.unlink(os.path.join(os.fsencode(folder), name))
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [
        (source, "removed") for source in loaded
    ]
    typescript = tmp_path / "typescript"
    _populate(typescript)
    first, second = _typescript_states(out, typescript)
    assert first == [[source, "loaded"] for source in loaded]
    assert second == [[source, "removed"] for source in loaded]


SWAP_AFTER_LISTING_JS = """\
import { createRequire, syncBuiltinESMExports } from "node:module";
const require = createRequire(import.meta.url);
const fs = require("node:fs");
const [folder, target] = process.argv.slice(2);
const openDir = fs.opendirSync;
fs.opendirSync = (...args) => {
  const directory = openDir(...args);
  const readSync = directory.readSync.bind(directory);
  directory.readSync = () => {
    const entry = readSync();
    if (entry === null) {
      fs.unlinkSync(folder + "/a.json");
      fs.symlinkSync(target, folder + "/a.json");
    }
    return entry;
  };
  return directory;
};
const openSync = fs.openSync;
const opened = [];
fs.openSync = (...args) => {
  const descriptor = openSync(...args);
  if (!fs.fstatSync(descriptor).isFile()) opened.push(String(args[0]));
  return descriptor;
};
syncBuiltinESMExports();
const { loadThirdPartyManifests } = await import("./index.js");
const result = loadThirdPartyManifests(folder);
console.log(JSON.stringify({ opened, found: result.diagnostics.map((d) => [d.code, d.found]) }));
"""


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no O_NOFOLLOW")
def test_a_link_swapped_in_after_the_listing_is_never_followed_into_an_open(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A name the listing typed as a regular file was opened with no look before: the listing is
    # finished before the first file is opened, so whoever may drop adapter files had all that
    # time to put a link to a device (or a FIFO) in its place, and the loader opened the target
    # (opening some devices acts: a tape rewinds, a watchdog arms). The open no longer follows
    # a link for such a name; a link found there gets the full check, as a listed link does.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for language in ("python", "typescript"):
        folder = tmp_path / language
        folder.mkdir()
        (folder / "a.json").write_text(json.dumps(manifest()), encoding="utf-8")
    expected = [["NOT_A_FILE", "a FIFO"]]

    real_listed = loader_module._listed
    folder = tmp_path / "python"

    def listed_then_swapped(where: str) -> Any:
        yield from real_listed(where)
        (folder / "a.json").unlink()
        (folder / "a.json").symlink_to(fifo)

    real_open = os.open
    opened: list[str] = []

    def recording_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        descriptor = real_open(path, flags, *args, **kwargs)
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            opened.append(os.fsdecode(path))
        return descriptor

    with monkeypatch.context() as patched:
        patched.setattr(loader_module, "_listed", listed_then_swapped)
        patched.setattr(os, "open", recording_open)
        result = load_third_party_manifests(folder)
    assert opened == []
    assert [[d.code.value, d.found] for d in result.diagnostics] == expected

    script = out / "hostile-review-swap.mjs"
    script.write_text(SWAP_AFTER_LISTING_JS, encoding="utf-8")
    ran = subprocess.run(
        [node_executable(), str(script), str(tmp_path / "typescript"), str(fifo)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"opened": [], "found": expected}


def _run_module(node: str, out: Path, name: str, code: str, env: dict[str, str]) -> Any:
    script = out / name
    script.write_text(code, encoding="utf-8")
    result = subprocess.run(
        [node, str(script)], capture_output=True, text=True, check=False, env=env, cwd=out
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("home", ["/srv/home/", "/srv/home//", "/", "/srv/home"])
@pytest.mark.parametrize("configured", ["~", "~/adapters", "~/adapters/"])
def test_the_default_folder_expands_home_as_python_does(
    out: Path, home: str, configured: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # HOME with a trailing slash gave "/srv/home//adapters" in TypeScript ("/srv/home/adapters"
    # in Python); HOME "/" and "~" gave "" instead of "/".
    env = {**os.environ, "HOME": home, "WAGGLE_ADAPTERS_DIR": configured}
    shown = _run_module(
        node_executable(),
        out,
        "hostile-review-home.mjs",
        'import { defaultAdaptersDir } from "./index.js";\n'
        "console.log(JSON.stringify(defaultAdaptersDir()));\n",
        env,
    )
    monkeypatch.setenv("HOME", home)
    expected = os.path.expanduser(configured)
    assert shown == expected


def test_null_categories_mean_no_filter_in_both_languages(out: Path, tmp_path: Path) -> None:
    # Python's categories=None is no filter; TypeScript threw a TypeError spreading null.
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps(manifest()), encoding="utf-8")
    python_ids = sorted(get_tool_registry(folder, categories=None).ids)
    shown = _run_module(
        node_executable(),
        out,
        "hostile-review-categories.mjs",
        'import { getToolRegistry } from "./index.js";\n'
        f"const registry = getToolRegistry({json.dumps(str(folder))}, {{ categories: null }});\n"
        "console.log(JSON.stringify([...registry.ids].sort()));\n",
        dict(os.environ),
    )
    assert shown == python_ids
    assert manifest()["id"] in shown

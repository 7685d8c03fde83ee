"""Hostile review of the generated Python runtime (and, where the verdict is shared, its
TypeScript twin): findings an earlier review missed, each pinned by the input that broke it."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tool_registry
from tool_registry import (
    ADAPTERS_DIR_ENV_VAR,
    BUILTIN_TOOL_MANIFESTS,
    DEFAULT_ADAPTERS_DIR,
    DetectionDeps,
    detect_all,
    detection,
    get_tool_registry,
    load_third_party_manifests,
    loader,
    parse_third_party_manifest,
)
from tool_registry.detection import _is_regular_file, _read_pointer
from tool_registry.loader import read_regular_file
from tool_registry.models import CandidatePaths, CandidatesDetect, PathDetect, ToolManifest
from tool_registry.registry import ToolRegistry

from .conftest import REPO, build_typescript, node_executable

GENERATED_TS = REPO / "generated" / "typescript"


@pytest.fixture(scope="module")
def ts_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("hostile-runtime-py"), GENERATED_TS)


# -- detection: a home folder that is no absolute path is no home folder ------------------------

CANDIDATE = "~/bin/fixture-tool"
POINTER = ".fixture/pointer.json"


def _candidates_tool() -> ToolManifest:
    """A built-in-shaped tool found by a candidate path under the home folder."""
    return dataclasses.replace(
        BUILTIN_TOOL_MANIFESTS[0],
        id="fixture-tool",
        displayName="Fixture Tool",
        hookPointer=POINTER,
        detect=CandidatesDetect(kind="candidates", paths=CandidatePaths(linux=[CANDIDATE])),
        builtin=True,
    )


def _plant(folder: Path) -> None:
    """What a hostile working folder holds under ``rel/``: a program at the candidate path and a
    hook pointer whose backup exists."""
    program = folder / "rel" / "bin" / "fixture-tool"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\necho planted\n", encoding="utf-8")
    program.chmod(0o755)
    pointer = folder / "rel" / POINTER
    pointer.parent.mkdir(parents=True)
    pointer.write_text(json.dumps({"backup": "backup"}), encoding="utf-8")
    (pointer.parent / "backup").write_text("", encoding="utf-8")


def _detect_python(home: str) -> tuple[dict[str, Any], list[str]]:
    ran: list[str] = []

    def run_version(path: str, timeout: float) -> str:
        ran.append(path)
        return "1.0"

    deps = DetectionDeps(
        which=lambda name: None,
        is_file=_is_regular_file,
        read_text=_read_pointer,
        run_version=run_version,
        home=lambda: home,
        platform=lambda: "linux",
    )
    (result,) = detect_all(ToolRegistry(tools=(_candidates_tool(),)), deps)
    return result.as_json(), ran


DETECT_TS = """
import { detectAll } from "./detection.js";
import { BUILTIN_TOOL_MANIFESTS } from "./tools.js";
const [folder, home, candidate, pointer] = process.argv.slice(2);
process.chdir(folder);
const tool = { ...BUILTIN_TOOL_MANIFESTS[0], id: "fixture-tool", displayName: "Fixture Tool",
  hookPointer: pointer, detect: { kind: "candidates", paths: { linux: [candidate] } },
  builtin: true };
const registry = { tools: [tool], resolverFor: () => undefined };
const ran = [];
const [result] = await detectAll(registry, {
  which: () => null,
  runVersion: async (path) => { ran.push(path); return "1.0"; },
  home: () => home,
  platform: () => "linux",
});
process.stdout.write(JSON.stringify({ result, ran }));
"""


def _detect_typescript(ts_out: Path, folder: Path, home: str) -> tuple[dict[str, Any], list[str]]:
    script = ts_out / "hostile-runtime-home.mjs"
    script.write_text(DETECT_TS, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), str(folder), home, CANDIDATE, POINTER],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    found: dict[str, Any] = json.loads(completed.stdout)
    return found["result"], found["ran"]


@pytest.mark.parametrize("home", ["rel", "rel/", "", "~"])
def test_a_relative_home_finds_and_runs_nothing_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path, home: str
) -> None:
    # HOME=rel (or empty, or "~" when HOME is unset and the account has no entry) joined the
    # candidate "~/bin/fixture-tool" to a relative path: a program planted there in the working
    # folder was found and its --version run, and a pointer planted there counted as this
    # account's hooks. Now neither is looked at, and the result says why.
    _plant(tmp_path)
    if home == "~":
        (tmp_path / "rel").rename(tmp_path / "~")
    monkeypatch.chdir(tmp_path)
    python, python_ran = _detect_python(home)
    typescript, typescript_ran = _detect_typescript(ts_out, tmp_path, home)
    for result, ran in ((python, python_ran), (typescript, typescript_ran)):
        assert ran == []
        assert result["installed"] is False
        assert result["path"] is None
        assert result["hooksInstalled"] is False
        assert result["diagnostic"]["code"] == "DETECTION_FAILED"
        assert "HomeNotAbsoluteError" in result["diagnostic"]["message"]
    assert python["diagnostic"]["message"] == typescript["diagnostic"]["message"]


def test_an_absolute_home_still_finds_what_lies_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path
) -> None:
    # The same plant under an absolute home is found in both languages: the relative case above
    # fails for the home's sake, not the fixture's.
    _plant(tmp_path)
    monkeypatch.chdir(os.path.dirname(tmp_path))
    home = str(tmp_path / "rel")
    for result, ran in (_detect_python(home), _detect_typescript(ts_out, tmp_path, home)):
        assert ran == [str(tmp_path / "rel" / "bin" / "fixture-tool")]
        assert result["installed"] is True
        assert result["hooksInstalled"] is True
        assert result["diagnostic"] is None


# -- read_regular_file: a large limit costs a small file nothing --------------------------------


@pytest.mark.parametrize("limit", [2**62, sys.maxsize, 10**30])
def test_a_huge_limit_reads_a_small_file(tmp_path: Path, limit: int) -> None:
    # ``os.read(descriptor, limit + 1)`` allocates its whole count first: a limit of 2**62 was a
    # MemoryError and one of sys.maxsize an OverflowError, for a file of three bytes (TypeScript
    # sizes its buffer by the file and read it).
    small = tmp_path / "small.json"
    small.write_bytes(b"{}\n")
    assert read_regular_file(str(small), limit) == b"{}\n"


def test_no_read_asks_for_more_than_the_file_says_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = tmp_path / "small.json"
    small.write_bytes(b"{}\n")
    asked: list[int] = []
    real_read = os.read

    def counting_read(descriptor: int, count: int) -> bytes:
        asked.append(count)
        return real_read(descriptor, count)

    monkeypatch.setattr(os, "read", counting_read)
    assert read_regular_file(str(small), 10**9) == b"{}\n"
    assert asked and max(asked) <= len(b"{}\n") + 1, asked


@pytest.mark.parametrize(("limit", "kept"), [(100_000, 100_001), (10**9, 150_000), (0, 1)])
def test_a_file_longer_than_its_status_said_is_read_to_the_limit(
    tmp_path: Path, limit: int, kept: int
) -> None:
    # A file growing since its status was taken (or a special file reporting size 0) holds more
    # than ``st_size``: reading goes on, in chunks, until the end or one byte past the limit.
    grown = tmp_path / "grown.json"
    grown.write_bytes(b"x" * 150_000)
    descriptor = os.open(grown, os.O_RDONLY)
    try:
        assert len(loader._read_open(descriptor, 3, limit)) == kept
    finally:
        os.close(descriptor)


@pytest.mark.parametrize(("stated", "limit"), [(10, 100), (10, 10), (10, 4)])
def test_a_file_shorter_than_its_status_said_is_read_to_its_end(
    tmp_path: Path, stated: int, limit: int
) -> None:
    # A file cut since its status was taken holds less than ``st_size``: the one read of the
    # stated size comes back short, and reading stops at the end (or one byte past the limit).
    cut = tmp_path / "cut.json"
    cut.write_bytes(b"12345")
    descriptor = os.open(cut, os.O_RDONLY)
    try:
        assert loader._read_open(descriptor, stated, limit) == b"12345"[: limit + 1]
    finally:
        os.close(descriptor)


# -- the version probe waits, it does not spin --------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="a POSIX shell script as the child")
def test_a_child_that_closes_its_output_and_lingers_is_waited_for_not_spun_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Once the reader thread had seen the end of the output, ``reader.join(0.005)`` returned at
    # once, so the probe looked at a lingering child hundreds of thousands of times a second
    # (one CPU busy until the child exited or the 5-second timeout). Each look now waits the
    # poll interval: about a hundred looks for half a second, however fast the machine.
    lingering = tmp_path / "lingering"
    lingering.write_text("#!/bin/sh\nexec 1>&-\nsleep 0.5\n", encoding="utf-8")
    lingering.chmod(0o755)
    looks = 0
    has_exited = detection._has_exited

    def counting(process: subprocess.Popen[bytes]) -> bool:
        nonlocal looks
        looks += 1
        return has_exited(process)

    monkeypatch.setattr(detection, "_has_exited", counting)
    assert detection._run_version(str(lingering), 60.0) is None
    assert 0 < looks < 2000, looks


# -- numbers: one verdict per file, whatever the process's settings -----------------------------

MANIFEST: dict[str, Any] = {
    "id": "mytool",
    "displayName": "My Tool",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".my/x.json",
    "detect": {"kind": "path", "binaryName": "mytool"},
}


def _with_number(literal: str, field: str = "x") -> str:
    """The manifest's text with ``field`` set to the number ``literal`` as written."""
    return json.dumps(MANIFEST)[:-1] + f', "{field}": {literal}' + "}"


def _file_verdict(text: str) -> tuple[bool, list[tuple[str, str]]]:
    data = text.encode()
    result = loader.load_manifest_files([("src", "p")], read_file=lambda _p, limit: data)
    return bool(result.manifests), [(str(d.code), d.found) for d in result.diagnostics]


OVERFLOWING = ["1e400", "-1E+999", "1" * 400 + ".5", "0.1e310"]
REPRESENTABLE = ["1e-400", "1e308", "-0.0", "1" * 300 + ".0"]

PARSE_BYTES_TS = """
import { parseThirdPartyManifest } from "./loader.js";
const texts = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(texts.map((text) => {
  const result = parseThirdPartyManifest(new TextEncoder().encode(text), "src");
  return [result.manifest !== null, result.diagnostics.map((d) => [d.code, d.found])];
})));
"""


def test_a_number_beyond_a_double_is_no_json_value_in_either_language(ts_out: Path) -> None:
    # ``1e400`` was read as infinity: the loader (both languages) accepted the file, while
    # ``parse_third_party_manifest`` refused the infinity ``json.loads`` makes of the same text
    # (INVALID_JSON), so the two readers of one adapter disagreed. TypeScript's JSON.parse fast
    # path read it as Infinity too.
    cases = [(_with_number(n), True) for n in OVERFLOWING]
    cases += [(_with_number(n), False) for n in REPRESENTABLE]
    in_a_known_field = _with_number("1e400", "launchable").replace('"launchable": true, ', "")
    cases.append((in_a_known_field, True))
    texts = [text for text, _ in cases]
    python = [_file_verdict(text) for text in texts]
    for (text, overflowing), (accepted, found) in zip(cases, python, strict=True):
        if overflowing:
            assert not accepted
            assert found == [("INVALID_JSON", "a number beyond the range of a double")]
        else:
            assert accepted, found
        assert parse_third_party_manifest(json.loads(text)).accepted == accepted
    script = ts_out / "hostile-runtime-numbers.mjs"
    script.write_text(PARSE_BYTES_TS, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), json.dumps(texts)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    typescript = [
        (accepted, [tuple(pair) for pair in found])
        for accepted, found in json.loads(completed.stdout)
    ]
    assert typescript == python


_VERDICT_IN_CHILD = """
import json, sys
from tool_registry.loader import load_manifest_files
verdicts = []
for text in json.loads(sys.argv[1]):
    data = text.encode()
    result = load_manifest_files([("src", "p")], read_file=lambda _p, limit: data)
    verdicts.append([bool(result.manifests), [[str(d.code), d.found] for d in result.diagnostics]])
print(json.dumps(verdicts))
"""


@pytest.mark.parametrize("setting", ["640", "0", "100000"])
def test_the_integer_digit_limit_is_the_loader_s_not_the_process_s(setting: str) -> None:
    # The loader parsed integers with the process's conversion limit: under
    # PYTHONINTMAXSTRDIGITS=640 a 1000-digit integer made a file INVALID_JSON, and under 0 (no
    # limit) a 5000-digit one was accepted, where TypeScript, parse_third_party_manifest and the
    # documentation hold 4300 digits.
    long = "1" * 1000
    texts = [_with_number(long), _with_number("-" + "9" * 4300), _with_number("1" * 4301)]
    # A surrogate escape sends the document through an encoding of every value, integers too.
    texts.append(_with_number(long)[:-1] + ', "y": "\\ud83d\\ude00"}')
    texts.append(_with_number(long)[:-1] + ', "y": "\\ud83d"}')
    verdicts = _run_in_child(_VERDICT_IN_CHILD, json.dumps(texts), setting)
    assert verdicts == [
        [accepted, [list(pair) for pair in found]] for accepted, found in map(_file_verdict, texts)
    ]
    assert [accepted for accepted, _ in verdicts] == [True, True, False, True, False]
    assert "(4300 digits)" in verdicts[2][1][0][1]
    assert verdicts[4][1][0][0] == "LONE_SURROGATE"


def _run_in_child(script: str, argument: str, digits: str) -> Any:
    """What ``script`` prints (JSON) when run with ``argument`` in a child process converting
    integers of at most ``digits`` digits (``PYTHONINTMAXSTRDIGITS``)."""
    environment = {
        **os.environ,
        "PYTHONPATH": str(REPO / "generated" / "python"),
        "PYTHONINTMAXSTRDIGITS": digits,
    }
    completed = subprocess.run(
        [sys.executable, "-c", script, argument],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=environment,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


_CONST_IN_CHILD = """
import json, sys
from tool_registry import parse_third_party_manifest
from tool_registry.loader import load_manifest_files
document = json.loads(sys.argv[1])
document["launchable"] = 10**1000
parsed = parse_third_party_manifest(document)
text = sys.argv[1].replace('"launchable": false', '"launchable": 1' + "0" * 1000).encode()
loaded = load_manifest_files([("src", "p")], read_file=lambda _p, limit: text)
print(json.dumps([[[str(d.code), d.pointer, d.keyword] for d in found]
                  for found in (parsed.diagnostics, loaded.diagnostics)]))
"""


def test_a_const_check_of_a_long_integer_needs_no_decimal_text() -> None:
    # JSON equality keyed numbers by their decimal text: under PYTHONINTMAXSTRDIGITS=640 the
    # ``const: false`` an MCP server's ``launchable`` must hold raised ValueError for a
    # 1000-digit integer, out of parse_third_party_manifest (which never raises) and as
    # UNREADABLE from the loader.
    mcp = {
        **MANIFEST,
        "launchable": False,
        "category": "mcp-server",
        "mcpServer": {"transport": "stdio", "command": "server"},
    }
    del mcp["detect"]
    parsed, loaded = _run_in_child(_CONST_IN_CHILD, json.dumps(mcp), "640")
    assert ["SCHEMA_VIOLATION", "/launchable", "const"] in parsed
    assert parsed == loaded


# -- the default adapters folder needs a home folder that is an absolute path -------------------

NO_HOME_TS = """
import { getToolRegistry, loadThirdPartyManifests } from "./index.js";
process.chdir(process.argv[2]);
const loaded = loadThirdPartyManifests();
const registry = getToolRegistry();
process.stdout.write(JSON.stringify({
  loaded: [loaded.manifests.map((m) => m.id), loaded.diagnostics.map((d) => [d.code, d.source, d.found])],
  tools: registry.tools.map((t) => t.id),
  refreshed: registry.refresh().tools.map((t) => t.id),
}));
"""


def test_the_default_folder_under_a_relative_home_is_not_the_working_folder_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path
) -> None:
    # HOME=rel made the default folder "rel/.waggle/adapters" (HOME unset with no account entry:
    # "~/.waggle/adapters", "~" left as it is): Python loaded the adapters a working folder held
    # there, while TypeScript threw from getToolRegistry (os.homedir() throws with no home).
    # Both now report the folder UNREADABLE and load nothing.
    assert DEFAULT_ADAPTERS_DIR.startswith("~/")
    planted = tmp_path / "rel" / DEFAULT_ADAPTERS_DIR[2:]
    planted.mkdir(parents=True)
    (planted / "planted.json").write_text(
        json.dumps({**MANIFEST, "id": "planted"}), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", "rel")
    monkeypatch.delenv(ADAPTERS_DIR_ENV_VAR, raising=False)
    loaded = load_third_party_manifests()
    python: dict[str, Any] = {
        "loaded": [
            [m.id for m in loaded.manifests],
            [[str(d.code), d.source, d.found] for d in loaded.diagnostics],
        ],
        "tools": list(get_tool_registry().ids),
        "refreshed": list(get_tool_registry().refresh().ids),
    }
    assert python["loaded"] == [
        [],
        [["UNREADABLE", DEFAULT_ADAPTERS_DIR, "no home folder that is an absolute path"]],
    ]
    assert "planted" not in python["tools"]
    assert python["refreshed"] == python["tools"]
    script = ts_out / "hostile-runtime-no-home.mjs"
    script.write_text(NO_HOME_TS, encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != ADAPTERS_DIR_ENV_VAR}
    completed = subprocess.run(
        [node_executable(), str(script), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**environment, "HOME": "rel"},
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == python
    # With an absolute home the same folder is the default one, and its adapter loads.
    monkeypatch.setenv("HOME", str(tmp_path / "rel"))
    assert [m.id for m in load_third_party_manifests().manifests] == ["planted"]


EMPTY_HOME_TS = """
import { defaultAdaptersDir, detectAll, getToolRegistry, loadThirdPartyManifests } from "./index.js";
let folder;
try { folder = defaultAdaptersDir(); } catch (error) { folder = error.name; }
const loaded = loadThirdPartyManifests();
const deps = { which: () => null, runVersion: async () => null };
const results = await detectAll(getToolRegistry(process.argv[2]), deps);
process.stdout.write(JSON.stringify({
  folder,
  loaded: loaded.diagnostics.map((d) => [d.code, d.found]),
  pointers: results.map((r) => [r.pointerPath, r.diagnostic && r.diagnostic.message]),
}));
"""


@pytest.mark.skipif(os.name == "nt", reason="HOME is POSIX's home folder")
def test_an_empty_home_is_no_home_folder_in_either_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ts_out: Path
) -> None:
    # HOME="" names no absolute path (README: "an empty one"), but Python's expanduser makes it
    # the root: detection read hook pointers such as "/.claude/..." and looked for "~/"
    # candidates under "/", where TypeScript's os.homedir() gave "" (HomeNotAbsoluteError); and
    # both loaders read "/.waggle/adapters" as the default folder. Now an empty HOME is no home
    # folder in both: nothing under "/" is read or probed on its account.
    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv(ADAPTERS_DIR_ENV_VAR, raising=False)
    with pytest.raises(loader.NoHomeFolderError):
        loader.default_adapters_dir()
    loaded = load_third_party_manifests()
    python: dict[str, Any] = {
        "folder": "NoHomeFolderError",
        "loaded": [[str(d.code), d.found] for d in loaded.diagnostics],
        "pointers": [
            [result.pointer_path, result.diagnostic and result.diagnostic.message]
            for result in detect_all(
                get_tool_registry(str(tmp_path)), DetectionDeps(which=lambda name: None)
            )
        ],
    }
    assert python["loaded"] == [["UNREADABLE", loader.NO_HOME_FOLDER]]
    for pointer, message in python["pointers"]:
        assert not os.path.isabs(pointer), pointer
        # (a candidates tool with no paths for this platform says that first)
        assert "HomeNotAbsoluteError" in message or "no paths" in message, message
    script = ts_out / "hostile-runtime-empty-home.mjs"
    script.write_text(EMPTY_HOME_TS, encoding="utf-8")
    environment = {key: value for key, value in os.environ.items() if key != ADAPTERS_DIR_ENV_VAR}
    completed = subprocess.run(
        [node_executable(), str(script), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**environment, "HOME": ""},
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == python


NO_ACCOUNT_TS = """
import os from "node:os";
import { syncBuiltinESMExports } from "node:module";
// No HOME and no account entry: node's homedir throws (uv_os_homedir ENOENT).
os.homedir = () => { throw Object.assign(new Error("uv_os_homedir returned ENOENT"), { code: "ERR_SYSTEM_ERROR" }); };
syncBuiltinESMExports();
const { detectAll } = await import("./detection.js");
const { BUILTIN_TOOL_MANIFESTS } = await import("./tools.js");
const tool = { ...BUILTIN_TOOL_MANIFESTS[0], id: "fixture-tool", hookPointer: ".fixture/pointer.json",
  detect: { kind: "path", binaryName: "fixture-tool" }, builtin: true };
const registry = { tools: [tool], resolverFor: () => undefined };
const [result] = await detectAll(registry, {
  which: (name) => (name === "fixture-tool" ? "/opt/fixture-tool" : null),
  runVersion: async () => "1.0",
});
process.stdout.write(JSON.stringify(result));
"""


def test_no_home_at_all_still_looks_programs_up_on_path(
    monkeypatch: pytest.MonkeyPatch, ts_out: Path
) -> None:
    # With no HOME and no account entry Python's home is "~" (expanduser leaves it), so PATH
    # lookup went on and only the hook pointer failed; TypeScript's default home threw, which
    # failed every tool's probe before its PATH lookup (installed false for an installed tool).
    tool = dataclasses.replace(
        BUILTIN_TOOL_MANIFESTS[0],
        id="fixture-tool",
        hookPointer=".fixture/pointer.json",
        detect=PathDetect(kind="path", binaryName="fixture-tool"),
        builtin=True,
    )
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # no home folder to expand
    deps = DetectionDeps(
        which=lambda name: "/opt/fixture-tool" if name == "fixture-tool" else None,
        run_version=lambda path, timeout: "1.0",
    )
    (python,) = detect_all(ToolRegistry(tools=(tool,)), deps)
    script = ts_out / "hostile-runtime-no-account.mjs"
    script.write_text(NO_ACCOUNT_TS, encoding="utf-8")
    # No HOME (the home folder is HOME when it is set, as Python's expanduser reads it).
    no_home = {key: value for key, value in os.environ.items() if key != "HOME"}
    completed = subprocess.run(
        [node_executable(), str(script)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=no_home,
    )
    assert completed.returncode == 0, completed.stderr
    typescript = json.loads(completed.stdout)
    for result in (python.as_json(), typescript):
        assert result["installed"] is True
        assert result["path"] == "/opt/fixture-tool"
        assert result["version"] == "1.0"
        assert result["hooksInstalled"] is False
        assert result["pointerPath"] == "~/.fixture/pointer.json"
    assert python.diagnostic is not None
    assert typescript["diagnostic"]["message"] == python.diagnostic.message


# -- numeric arguments: a subclass is read as its value ----------------------------------------


class _RaisingInt(int):
    def __gt__(self, other: object) -> bool:
        raise RuntimeError("the caller's __gt__ ran")

    def __le__(self, other: object) -> bool:
        return False  # a bound compared through it would never be reached


class _RaisingFloat(float):
    def __gt__(self, other: object) -> bool:
        raise RuntimeError("the caller's __gt__ ran")

    def __floor__(self) -> int:
        raise RuntimeError("the caller's __floor__ ran")


def test_a_validator_limit_subclass_runs_none_of_its_methods() -> None:
    # The limit was kept as given and compared (``limit > 0``): an int subclass's __gt__ raised
    # out of the validator, and a lying __le__ would have lifted the bound.
    # Typed ``int``, any number is taken (documented): the checker is told through Any.
    validate: Any = tool_registry.validate_third_party_manifest
    assert validate({}, _RaisingInt(2)) == validate({}, 2)
    assert validate({}, _RaisingFloat(1.5)) == validate({}, 1.5)
    assert validate({}, _RaisingFloat("nan")) == validate({}, float("nan"))


def test_a_file_limit_float_subclass_runs_none_of_its_methods() -> None:
    # ``math.floor`` called the subclass's __floor__ and ``> 0`` its __gt__ (raised out of
    # load_third_party_manifests, or read any count it returned).
    assert loader.file_limit(_RaisingFloat(2.5)) == 2
    assert loader.file_limit(_RaisingFloat("inf")) == sys.maxsize
    assert loader.file_limit(_RaisingFloat("-inf")) == 0

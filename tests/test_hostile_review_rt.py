"""A hostile review of the runtime in both languages: detection's version probe, the home folder,
PATH and the adapters folder setting, injected readers and listings, and loader options. Each
finding is held to the other language's verdict on the same input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest
from tool_registry import DetectionDeps, detect_all, detection, get_tool_registry
from tool_registry.loader import load_manifest_files, load_third_party_manifests

from .conftest import REPO, build_typescript, node_executable, run_js

GENERATED_TS = REPO / "generated" / "typescript"
NO_FOLDER = str(REPO / "tests" / "no-such-adapters-folder")
POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="scripts run by their #! line")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review-rt"), GENERATED_TS)


# -- the version probe runs only a full path to a program ------------------------------------------


def _executable(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    path.chmod(0o755)
    return str(path)


def _probe_files(folder: Path) -> dict[str, str]:
    """Files the probe must not run (each one, run by a shell, writes ``ran-<name>``), and one it
    runs. A foreign ELF has this machine's own header but another machine: the system cannot
    run it (``ENOEXEC``), and node's spawn then hands it to ``/bin/sh``."""
    marker = folder / "ran"

    def payload(name: str) -> bytes:
        return f"\necho ran > '{marker}-{name}'\necho 'evil 6.6.6'\n".encode()

    own = bytearray(Path(os.path.realpath(sys.executable)).read_bytes()[:64])
    own[18] ^= 0xFF  # another machine
    plain = _executable(folder / "plain", b"echo hi" + payload("plain"))
    return {
        "plain": plain,
        "empty-bang": _executable(folder / "empty-bang", b"#!" + payload("empty-bang")),
        "blank-bang": _executable(folder / "blank-bang", b"#!   " + payload("blank-bang")),
        "text-interpreter": _executable(
            folder / "text-interpreter", f"#!{plain}".encode() + payload("text-interpreter")
        ),
        "relative-interpreter": _executable(
            folder / "relative-interpreter", b"#!sh" + payload("relative-interpreter")
        ),
        "foreign-elf": _executable(folder / "foreign-elf", bytes(own) + payload("foreign-elf")),
        "bare-name": "sh",
        "relative": "bin/tool",
        "good": _executable(folder / "good", b"#!/bin/sh\necho 'tool 1.0'\n"),
    }


def _python_probe(path: str) -> list[Any]:
    try:
        return ["ok", detection._run_version(path, 20.0)]
    except Exception as error:
        return ["error", type(error).__name__, str(error)]


RUN_VERSIONS = """
import { runVersion } from "./detection.js";
const paths = %s;
const results = {};
for (const [name, path] of Object.entries(paths)) {
  try {
    results[name] = ["ok", await runVersion(path, 20000)];
  } catch (error) {
    results[name] = ["error", error.name, error.message];
  }
}
process.stdout.write(JSON.stringify(results));
"""


@POSIX_ONLY
def test_the_version_probe_runs_no_file_without_a_program_header(out: Path, tmp_path: Path) -> None:
    """TypeScript spawned a file with no ``#!``, ELF or Mach-O header, and node (``execvp``)
    handed it to ``/bin/sh`` on ``ENOEXEC``: a text file found on PATH or among the candidates
    ran as a shell script. Neither language runs it now (nor a ``#!`` line naming no program, a
    program of another machine, a bare name PATH would resolve, or a relative path); each says
    why, alike."""
    paths = _probe_files(tmp_path)
    found = run_js(out, RUN_VERSIONS % json.dumps(paths))
    expected = {name: _python_probe(path) for name, path in paths.items()}
    assert found == expected
    assert expected["good"] == ["ok", "tool 1.0"]
    not_run = {name: result for name, result in expected.items() if name != "good"}
    assert all(result[:2] == ["error", "NotRunError"] for result in not_run.values()), not_run
    assert expected["plain"][2] == detection.NO_PROGRAM_HEADER
    assert expected["foreign-elf"][2] == detection.NO_PROGRAM_HEADER
    assert expected["empty-bang"][2] == detection.NO_SCRIPT_INTERPRETER
    assert expected["bare-name"][2] == detection.NOT_A_FULL_PATH
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("ran")) == []


DETECT_ALL = """
import { detectAll } from "./detection.js";
import { getToolRegistry } from "./registry.js";
const results = await detectAll(getToolRegistry(%s), {
  which: () => %s, home: () => %s, readText: () => null, platform: () => "linux",
});
process.stdout.write(JSON.stringify(results.map((r) => [r.id, r.version, r.diagnostic && r.diagnostic.found])));
"""


@POSIX_ONLY
@pytest.mark.parametrize("name", ["plain", "bare-name", "good"])
def test_detection_reports_a_file_it_does_not_run_alike(
    out: Path, tmp_path: Path, name: str
) -> None:
    """The refusal reaches the result as a DETECTION_FAILED diagnostic, the same text in both
    languages (a found program's version as before)."""
    path = _probe_files(tmp_path)[name]
    home = tmp_path / "home"
    home.mkdir()
    found = run_js(
        out, DETECT_ALL % (json.dumps(NO_FOLDER), json.dumps(path), json.dumps(str(home)))
    )
    deps = DetectionDeps(
        which=lambda _name: path,
        home=lambda: str(home),
        read_text=lambda _path: None,
        platform=lambda: "linux",
    )
    expected = [
        [r.id, r.version, r.diagnostic and r.diagnostic.found]
        for r in detect_all(get_tool_registry(NO_FOLDER), deps)
    ]
    assert found == expected
    versions = {entry[1] for entry in expected if entry[1] is not None}
    assert versions == ({"tool 1.0"} if name == "good" else set())
    if name != "good":
        assert any(entry[2] and "NotRunError: not run:" in entry[2] for entry in expected)
    assert not any(path.name.startswith("ran") for path in tmp_path.iterdir())


# -- HOME, PATH and the adapters folder setting holding bytes that are not UTF-8 -----------------

ENVIRONMENT_PY = """
import json
from tool_registry import detection, load_third_party_manifests
from tool_registry.loader import home_folder
loaded = load_third_party_manifests()
print(json.dumps({
    "which": detection._which("mytool"),
    "home": home_folder(),
    "load": [[str(d.code), d.source, d.found] for d in loaded.diagnostics],
}))
"""

ENVIRONMENT_TS = """
import { which, DEFAULT_DETECTION_DEPS } from "./detection.js";
import { loadThirdPartyManifests } from "./loader.js";
const loaded = loadThirdPartyManifests();
process.stdout.write(JSON.stringify({
  which: which("mytool"),
  home: DEFAULT_DETECTION_DEPS.home(),
  load: loaded.diagnostics.map((d) => [d.code, d.source, d.found]),
}));
"""


def _in_environment(out: Path, environment: dict[bytes, bytes]) -> tuple[Any, Any]:
    """What each language makes of ``environment`` (bytes, as a POSIX host may hold them)."""
    base = {key.encode(): value.encode() for key, value in os.environ.items()}
    base[b"PYTHONPATH"] = str(REPO / "generated" / "python").encode()
    base.update(environment)
    (out / "environment.mjs").write_text(ENVIRONMENT_TS, encoding="utf-8")
    found = []
    for command in (
        [sys.executable, "-c", ENVIRONMENT_PY],
        [node_executable(), str(out / "environment.mjs")],
    ):
        completed = subprocess.run(
            command, capture_output=True, env=base, check=False, timeout=120, cwd=out
        )
        assert completed.returncode == 0, completed.stderr.decode(errors="replace")
        found.append(json.loads(completed.stdout))
    return found[0], found[1]


def _folder_with_tool(folder: Path) -> bytes:
    folder.mkdir(parents=True)
    _executable(folder / "mytool", b"#!/bin/sh\necho 'mytool 1.0'\n")
    return bytes(folder)


@POSIX_ONLY
def test_a_path_entry_that_is_not_utf8_names_no_folder(out: Path, tmp_path: Path) -> None:
    """Python looked in the folder a ``PATH`` entry's bytes name; node sees U+FFFD in their
    place, so TypeScript looked in another folder (one named with U+FFFD, which anyone may
    make): the two found different programs, each of which was run. Such an entry is skipped."""
    root = tmp_path / "bin"
    _folder_with_tool(Path(os.fsdecode(bytes(root) + b"/\xff")))
    _folder_with_tool(root / "\ufffd")
    python, typescript = _in_environment(
        out, {b"PATH": bytes(root) + b"/\xff:" + (bytes(root) + "/\ufffd".encode())}
    )
    assert python["which"] is None
    assert typescript["which"] is None
    # An entry that is UTF-8 still finds it, in both.
    _folder_with_tool(root / "ok")
    python, typescript = _in_environment(out, {b"PATH": b"/nowhere:" + bytes(root / "ok")})
    assert python["which"] == typescript["which"] == str(root / "ok" / "mytool")


@POSIX_ONLY
def test_a_home_that_is_not_utf8_is_no_home_folder(out: Path, tmp_path: Path) -> None:
    """A ``HOME`` whose bytes are not UTF-8 named one folder in Python and another (U+FFFD) in
    TypeScript: pointers, ``~/`` candidates and the default adapters folder were looked for in
    different places. It is no home folder in either: the default folder is reported as the
    documented ``UNREADABLE`` record, alike."""
    home = bytes(tmp_path) + b"/h\xffme"
    python, typescript = _in_environment(out, {b"HOME": home, b"WAGGLE_ADAPTERS_DIR": b""})
    assert python["home"] == typescript["home"] == ""
    assert python["load"] == typescript["load"]
    assert python["load"] == [
        ["UNREADABLE", "~/.waggle/adapters", "no home folder that is an absolute path"]
    ]


@POSIX_ONLY
def test_an_adapters_setting_that_is_not_utf8_names_no_folder(out: Path, tmp_path: Path) -> None:
    """The adapters folder setting holding bytes that are not UTF-8 was listed in Python and, as
    U+FFFD, another folder in TypeScript: different adapters loaded. It names no folder: an
    ``UNREADABLE`` record naming the variable, with the reason, alike."""
    folder = bytes(tmp_path) + b"/ad\xffpters"
    python, typescript = _in_environment(out, {b"WAGGLE_ADAPTERS_DIR": folder})
    assert python["load"] == typescript["load"]
    assert python["load"] == [
        ["UNREADABLE", "WAGGLE_ADAPTERS_DIR", "the setting is not UTF-8 text: it names no folder"]
    ]


# -- injected readers and listings, and the file limit ------------------------------------------

READER_ANSWERS_TS = """
import { loadManifestFiles, loadThirdPartyManifests } from "./loader.js";
const answers = ["{}", 5, null, [123, 125], new DataView(new ArrayBuffer(2)), new Uint16Array([123, 125]),
  true, new TextEncoder().encode("{}")];
const files = answers.map((answer) => {
  const result = loadManifestFiles([["src", "p"]], { readFile: () => answer });
  return result.diagnostics.map((d) => [d.code, d.found]);
});
const names = [Buffer.from("b.json"), Buffer.from([0xff, 0x2e, 0x6a, 0x73, 0x6f, 0x6e]), "a.json",
  new Uint8Array(Buffer.from("c.json")), Buffer.from("x/y.json"), 7];
const listed = loadThirdPartyManifests("/nowhere", { readDir: () => names, readFile: () => Buffer.from("{}") });
const limits = [null, undefined, 1];
const limited = limits.map((maxFiles) => loadThirdPartyManifests("/nowhere", {
  readDir: () => ["a.json", "b.json"], readFile: () => Buffer.from("{}"), maxFiles,
}).files.length);
process.stdout.write(JSON.stringify({ files, sources: listed.files.map((f) => f.source), limited }));
"""


def test_an_injected_reader_or_listing_is_read_alike(out: Path) -> None:
    """A reader's answer that is no bytes was read as bytes by TypeScript (text, a number or an
    array: ``INVALID_ENCODING``; a ``Uint16Array``: parsed) and failed in Python as an
    ``AttributeError`` (a list, a ``memoryview``): it is a reader failing, ``UNREADABLE``
    ``TypeError``, in both. A listing's bytes names were read by TypeScript and dropped by
    Python: both read them, as ``os.fsdecode`` does. ``maxFiles: null`` read every file in
    TypeScript where Python's ``None`` reads none."""
    found = run_js(out, READER_ANSWERS_TS)
    answers: list[object] = ["{}", 5, None, [123, 125], memoryview(b"{}"), [123, 125], True, b"{}"]
    files = [
        [
            [str(d.code), d.found]
            for d in load_manifest_files(
                [("src", "p")], read_file=cast(Any, lambda _p, _l, a=answer: a)
            ).diagnostics
        ]
        for answer in answers
    ]
    assert found["files"] == files
    assert files[:7] == [[["UNREADABLE", "TypeError"]]] * 7
    names: list[object] = [b"b.json", b"\xff.json", "a.json", bytearray(b"c.json"), b"x/y.json", 7]
    listed = load_third_party_manifests(
        "/nowhere", read_dir=cast(Any, lambda _folder: names), read_file=lambda _p, _l: b"{}"
    )
    sources = [file.source for file in listed.files]
    assert found["sources"] == sources
    assert sources == ["a.json", "b.json", "c.json", "\\udcff.json"]
    limited = [
        len(
            load_third_party_manifests(
                "/nowhere",
                read_dir=lambda _folder: ["a.json", "b.json"],
                read_file=lambda _p, _l: b"{}",
                max_files=cast(Any, limit),
            ).files
        )
        for limit in (None, 1000, 1)
    ]
    assert found["limited"] == limited == [0, 2, 1]


INJECTED_TEXT_NAMES_TS = """
import { loadThirdPartyManifests } from "./loader.js";
const names = JSON.parse(%s);
const result = loadThirdPartyManifests("/nowhere", {
  readDir: () => names, readFile: () => Buffer.from("{}"),
});
process.stdout.write(JSON.stringify(result.files.map((f) => f.source)));
"""


def test_injected_text_names_holding_lone_surrogates_are_ordered_alike(out: Path) -> None:
    """An injected listing's text names are ordered and told apart by the bytes Python gives
    them (``os.fsencode``, else ``surrogatepass``). TypeScript encoded every lone surrogate as
    U+FFFD: ``\\ud800.json`` and ``\\ufffd.json`` were one name, and ``\\udcff.json`` (the byte
    0xFF) sorted among the U+FFFD names instead of after them."""
    names = ["\udcff.json", "\ufffd.json", "\ud800.json", "b.json", "\udc80\ud800.json"]
    listed = load_third_party_manifests(
        "/nowhere", read_dir=lambda _folder: names, read_file=lambda _p, _l: b"{}"
    )
    sources = [file.source for file in listed.files]
    # b < ED A0 80 (surrogatepass) < ED B2 80 ED A0 80 < EF BF BD (U+FFFD) < FF (surrogateescape)
    assert sources == [
        "b.json",
        "\\ud800.json",
        "\\udc80\\ud800.json",
        "\ufffd.json",
        "\\udcff.json",
    ]
    found = run_js(out, INJECTED_TEXT_NAMES_TS % json.dumps(json.dumps(names)))
    assert found == sources


def test_a_listing_of_bytes_names_is_typed_as_it_is_read() -> None:
    """``ReadDir`` said a listing holds text names only, though bytes names are read (as
    ``os.fsdecode`` reads them) and the README documents them: a typed host listing bytes was
    a ``mypy --strict`` error. This function is checked by ``make lint`` without a cast."""

    def listing(_folder: str) -> list[str | bytes | bytearray]:
        return [b"b.json", "a.json", bytearray(b"c.json")]

    result = load_third_party_manifests(
        "/nowhere", read_dir=listing, read_file=lambda _p, _l: b"{}"
    )
    assert [file.source for file in result.files] == ["a.json", "b.json", "c.json"]

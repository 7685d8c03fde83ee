"""A hostile review of the runtime paths (the Python loader and the TypeScript runtime): each
test here failed before the fix it names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_registry.diagnostics import shown as shown_text

from .conftest import REPO, build_typescript, node_executable, run_js
from .test_loader import manifest


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("runtime-g"), REPO / "generated" / "typescript")


# A listing of many regular files (most not `*.json`, the rest past `maxFiles`), served by a
# stand-in `opendirSync`; the heap is measured after a collection at the listing's end.
HUGE_LISTING_JS = """
import { createRequire, syncBuiltinESMExports } from "node:module";
const require = createRequire(import.meta.url);
const fs = require("node:fs");
const COUNT = 100000;
let during = -1;
fs.opendirSync = () => {
  let index = 0;
  return {
    readSync() {
      if (index === COUNT) {
        globalThis.gc();
        const usage = process.memoryUsage();
        during = usage.heapUsed + usage.arrayBuffers;
        return null;
      }
      index += 1;
      const name = Buffer.alloc(200, 0x61);
      name.write(String(index));
      if (index % 2 === 0) name.write(".json", 195);
      return { name, isFile: () => true };
    },
    closeSync() {},
  };
};
syncBuiltinESMExports();
const { loadThirdPartyManifests } = await import("./loader.js");
globalThis.gc();
const usage = process.memoryUsage();
const before = usage.heapUsed + usage.arrayBuffers;
const result = loadThirdPartyManifests("/nonexistent-adapters", { maxFiles: 10 });
process.stdout.write(JSON.stringify({
  grown: during - before,
  records: result.diagnostics.map((d) => [d.code, d.omitted]),
}));
"""


def test_the_typescript_listing_holds_only_the_names_it_keeps(out: Path) -> None:
    """The folder listing put every name its entries typed as a regular file into a ``Set``
    (to open those without a look), ``*.json`` or not and past ``maxFiles`` or not: a folder of
    100,000 such names held about 40 MB until the listing ended, where Python holds O(maxFiles).
    The set is weak now: what the loader drops is collected while the listing goes on."""
    result = run_js(out, HUGE_LISTING_JS, name="huge-listing.mjs", node_flags=("--expose-gc",))
    # Ten names kept (each read: the stand-in folder does not exist), the rest counted.
    assert result["records"] == [["NOT_A_FILE", 0]] * 10 + [["TOO_MANY_FILES", 49990]]
    assert 0 < result["grown"] < 8_000_000, result["grown"]


SPECIAL_FILE_JS = """
import * as fs from "node:fs";
import { loadThirdPartyManifests, readRegularFile } from "./loader.js";
const [folder, special, limit] = process.argv.slice(2);
const whole = fs.readFileSync(special).length;
process.stdout.write(JSON.stringify({
  size: fs.statSync(special).size,
  whole,
  read: readRegularFile(special, Number(limit)).length,
  records: loadThirdPartyManifests(folder).diagnostics.map((d) => [d.source, d.code]),
}));
"""

# A special file that reports a size of 0 and answers a record per read, several pages in all.
SMAPS = Path("/proc/self/smaps")


@pytest.mark.skipif(not SMAPS.is_file(), reason="no /proc/self/smaps")
def test_a_file_reporting_size_zero_is_read_to_the_limit_in_both_languages(
    out: Path, tmp_path: Path
) -> None:
    """TypeScript's reader stopped at the first short read once it had the size the file
    reported: a ``/proc`` file (size 0, a page or a record per read) was cut at a few kB, so a
    ``*.json`` link to one was judged on its first records (``INVALID_JSON``) where Python,
    which reads on up to the limit, found it ``FILE_TOO_LARGE``; ``readRegularFile`` gave 8 kB
    of an 80 kB file with a 64 kB limit."""
    from tool_registry.constants import MANIFEST_MAX_BYTES
    from tool_registry.loader import load_third_party_manifests, read_regular_file

    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "a.json").symlink_to(SMAPS)
    python = load_third_party_manifests(folder)
    if len(SMAPS.read_bytes()) <= MANIFEST_MAX_BYTES:
        pytest.skip("this process's /proc/self/smaps is within the limit")
    assert len(read_regular_file(str(SMAPS), MANIFEST_MAX_BYTES)) == MANIFEST_MAX_BYTES + 1
    assert [(d.source, d.code.value) for d in python.diagnostics] == [("a.json", "FILE_TOO_LARGE")]
    result = run_js(
        out, SPECIAL_FILE_JS, str(folder), str(SMAPS), str(MANIFEST_MAX_BYTES), name="special.mjs"
    )
    assert result["size"] == 0
    if result["whole"] <= MANIFEST_MAX_BYTES:
        pytest.skip("node's /proc/self/smaps is within the limit")
    assert result["read"] == MANIFEST_MAX_BYTES + 1
    assert result["records"] == [["a.json", "FILE_TOO_LARGE"]]


# Names that are not ASCII, not UTF-8, or hold control and bidi characters; two claim one id.
ODD_NAMES = [
    b"z.json",
    b"\xc3\xa9.json",
    b"e\xcc\x81.json",
    b"\xff.json",
    b"\xed\xa0\x80.json",
    b"\xe2\x80\xaeb.json",
    b"a\x1b[31m.json",
    b"\xc3\xa9-twin.json",
]

LOAD_PY = """
import json, os, sys
from tool_registry.loader import load_third_party_manifests

def outline(result):
    return {
        "files": [
            [f.source, f.accepted, f.id, [[d.code.value, d.found, list(d.others)] for d in f.diagnostics]]
            for f in result.files
        ],
        "states": [[s.source, s.state] for s in result.states],
        "ids": [m.id for m in result.manifests],
    }

folder = sys.argv[1]
first = load_third_party_manifests(folder)
again = load_third_party_manifests(folder, previous=first)
listed = sorted(os.listdir(os.fsencode(folder)))
injected = load_third_party_manifests(folder, read_dir=lambda _: listed)
print(json.dumps([outline(first), outline(again), outline(injected)]))
"""

LOAD_JS = """
import * as fs from "node:fs";
import { loadThirdPartyManifests } from "./loader.js";
const outline = (result) => ({
  files: result.files.map((f) => [
    f.source, f.accepted, f.id, f.diagnostics.map((d) => [d.code, d.found, [...d.others]]),
  ]),
  states: result.states.map((s) => [s.source, s.state]),
  ids: result.manifests.map((m) => m.id),
});
const folder = process.argv[2];
const first = loadThirdPartyManifests(folder);
const again = loadThirdPartyManifests(folder, { previous: first });
const listed = fs.readdirSync(folder, { encoding: "buffer" });
const injected = loadThirdPartyManifests(folder, { readDir: () => listed });
process.stdout.write(JSON.stringify([outline(first), outline(again), outline(injected)]));
"""


# A UTF-8 locale, and an ASCII one (``C`` with no UTF-8 mode and no coercion to ``C.UTF-8``).
LOCALES = (
    {b"LC_ALL": b"C.UTF-8"},
    {b"LC_ALL": b"C", b"PYTHONUTF8": b"0", b"PYTHONCOERCECLOCALE": b"0"},
)


def in_each_locale_then_node(
    out: Path,
    python: str,
    javascript: str,
    environment: dict[bytes, bytes],
    *arguments: bytes,
    name: str = "locale-probe.mjs",
) -> list[Any]:
    """The JSON document ``python`` prints under each of ``LOCALES``, then the one
    ``javascript`` (an ES module written as ``name`` beside the compiled runtime in ``out``)
    prints under node, all run with ``environment`` (bytes: values that are not UTF-8 stay as
    they are) and ``arguments``. A failing run fails the test with its stderr."""
    environment = {**environment, b"PYTHONPATH": os.fsencode(REPO / "generated" / "python")}
    runs = [[sys.executable, "-c", python] for _ in LOCALES]
    environments = [{**environment, **locale} for locale in LOCALES]
    script = out / name
    script.write_text(javascript, encoding="utf-8")
    runs.append([node_executable(), str(script)])
    environments.append(environment)
    answers = []
    for command, run_environment in zip(runs, environments, strict=True):
        completed = subprocess.run(
            [*command, *arguments],
            env=run_environment,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert completed.returncode == 0, completed.stderr
        answers.append(json.loads(completed.stdout))
    return answers


def environment_without_locale() -> dict[bytes, bytes]:
    """This process's environment without any setting that chooses a locale or UTF-8 mode."""
    chooses_locale = (b"LC_", b"LANG", b"PYTHONUTF8", b"PYTHONCOERCECLOCALE")
    return {key: value for key, value in os.environb.items() if not key.startswith(chooses_locale)}


@pytest.mark.skipif(sys.platform != "linux", reason="names that are not UTF-8, a C locale")
def test_listed_names_are_shown_and_ordered_alike_whatever_the_locale(
    out: Path, tmp_path: Path
) -> None:
    """Python listed a folder with the file-system encoding, which is the locale's: under
    ``LC_ALL=C PYTHONUTF8=0`` (ASCII) ``é.json`` was ``\\udcc3\\udca9.json`` in every record,
    state and ``others`` list (and a ``read_dir`` name given as bytes was read so too), where
    a UTF-8 locale and TypeScript show ``é.json``. A name is now its bytes read as UTF-8 in
    any locale, ordered by those bytes, and still opened by its own bytes."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    for index, name in enumerate(ODD_NAMES):
        tool = "twin" if name.endswith(b"twin.json") or name == b"\xc3\xa9.json" else f"t{index}"
        document = manifest(id=f"adapter-{tool}", displayName=f"Adapter {tool}")
        (Path(os.fsdecode(folder)) / os.fsdecode(name)).write_text(json.dumps(document))
    utf8, ascii_locale, typescript = in_each_locale_then_node(
        out,
        LOAD_PY,
        LOAD_JS,
        environment_without_locale(),
        os.fsencode(folder),
        name="odd-names.mjs",
    )
    # Every file was opened and read (six accepted, the two twins refused as one id's claimants).
    assert len(utf8[0]["ids"]) == len(ODD_NAMES) - 2
    assert "é.json" in [f[0] for f in utf8[0]["files"]]
    assert ascii_locale == utf8
    assert typescript == utf8
    shown = [f[0] for f in utf8[0]["files"]]
    # The order is the names' bytes, not their shown forms' (an escaped name starts with "\").
    assert shown == [shown_text(n.decode("utf-8", "surrogateescape")) for n in sorted(ODD_NAMES)]
    assert shown == [f[0] for f in utf8[2]["files"]]
    assert [s for s, _ in utf8[1]["states"]] == shown


ENVIRONMENT_PY = """
import json, os
from tool_registry.detection import DetectionDeps
from tool_registry.loader import load_third_party_manifests
found = DetectionDeps().which("probe-tool")
print(json.dumps({
    "load": [[d.code.value, d.found] for d in load_third_party_manifests().diagnostics],
    "which": None if found is None else os.fsencode(found).decode("utf-8", "surrogateescape"),
}))
"""

ENVIRONMENT_JS = """
import { loadThirdPartyManifests } from "./loader.js";
import { which } from "./detection.js";
process.stdout.write(JSON.stringify({
  load: loadThirdPartyManifests().diagnostics.map((d) => [d.code, d.found]),
  which: which("probe-tool"),
}));
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a C locale, bytes in the environment")
def test_environment_folders_are_judged_by_their_bytes_whatever_the_locale(
    out: Path, tmp_path: Path
) -> None:
    """``HOME``, a ``PATH`` entry and the adapters folder setting whose bytes are not UTF-8 name
    no folder in either language, which Python told by a lone surrogate in the value as the
    locale read it: under ``LC_ALL=C PYTHONUTF8=0`` (ASCII) every byte beyond ASCII reads so,
    so ``HOME=/…/hé`` was no home folder (the load ``UNREADABLE``) and ``PATH=/…/é/bin`` was
    skipped, where a UTF-8 locale and TypeScript use both. Bytes that are not UTF-8 are still
    refused in every locale."""
    root = os.fsencode(tmp_path)
    good_home = root + b"/h\xc3\xa9"
    bad_home = root + b"/h\xff"
    for home in (good_home, bad_home):
        os.makedirs(home + b"/.waggle/adapters")
    good_bin, bad_bin = root + b"/\xc3\xa9/bin", root + b"/\xff/bin"
    for folder in (good_bin, bad_bin):
        os.makedirs(folder)
        program = folder + b"/probe-tool"
        with open(program, "wb") as handle:
            handle.write(b"#!/bin/sh\necho 1\n")
        os.chmod(program, 0o700)
    for home, path, accepted in ((good_home, good_bin, True), (bad_home, bad_bin, False)):
        environment = {b"HOME": home, b"PATH": path + b":/usr/bin:/bin"}
        answers = in_each_locale_then_node(
            out, ENVIRONMENT_PY, ENVIRONMENT_JS, environment, name="environment.mjs"
        )
        expected: dict[str, Any]
        if accepted:
            expected = {"load": [], "which": (path + b"/probe-tool").decode("utf-8")}
        else:
            expected = {
                "load": [["UNREADABLE", "no home folder that is an absolute path"]],
                "which": None,
            }
        assert answers == [expected] * 3, home


FOLDER_RECORDS_PY = """
import json, sys
from tool_registry.loader import load_third_party_manifests
records = lambda result: [[d.code.value, d.source] for d in result.diagnostics if not d.source.endswith(".json")]
print(json.dumps([records(load_third_party_manifests(sys.argv[1], max_files=1)), records(load_third_party_manifests())]))
"""

FOLDER_RECORDS_JS = """
import { loadThirdPartyManifests } from "./loader.js";
const records = (result) => result.diagnostics.filter((d) => !d.source.endsWith(".json")).map((d) => [d.code, d.source]);
process.stdout.write(JSON.stringify([records(loadThirdPartyManifests(process.argv[2], { maxFiles: 1 })), records(loadThirdPartyManifests())]));
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a C locale, bytes in the environment")
def test_a_folder_is_shown_as_its_utf8_reading_whatever_the_locale(
    out: Path, tmp_path: Path
) -> None:
    """A folder-level record (``TOO_MANY_FILES``, an ``UNREADABLE`` folder) showed the folder
    as the locale read it: under ``LC_ALL=C PYTHONUTF8=0`` a folder ``…/é`` given on the command
    line or in ``WAGGLE_ADAPTERS_DIR`` was ``…/\\udcc3\\udca9`` where TypeScript and a UTF-8
    locale show ``…/é``."""
    folder = os.fsencode(tmp_path) + b"/\xc3\xa9-adapters"
    os.mkdir(folder)
    for name in (b"/a.json", b"/b.json"):
        with open(folder + name, "wb") as handle:
            handle.write(b"{}")
    not_a_folder = folder + b"/notes"
    with open(not_a_folder, "wb") as handle:
        handle.write(b"not a folder")
    environment = {
        b"PATH": b"/usr/bin:/bin",
        b"HOME": os.fsencode(tmp_path),
        b"WAGGLE_ADAPTERS_DIR": not_a_folder,
    }
    answers = in_each_locale_then_node(
        out, FOLDER_RECORDS_PY, FOLDER_RECORDS_JS, environment, folder, name="folder-records.mjs"
    )
    expected = [
        [["TOO_MANY_FILES", shown_text(folder.decode("utf-8"))]],
        [["UNREADABLE", shown_text(not_a_folder.decode("utf-8"))]],
    ]
    assert answers == [expected] * 3


POLLUTED_ENVIRONMENT_JS = """
import { loadThirdPartyManifests } from "./loader.js";
import { which } from "./detection.js";
const [adapters, bin] = process.argv.slice(2);
// What a polluting merge of JSON data can write: plain text members of Object.prototype.
Object.prototype.WAGGLE_ADAPTERS_DIR = adapters;
Object.prototype.PATH = bin;
const result = loadThirdPartyManifests();
process.stdout.write(JSON.stringify({
  ids: result.manifests.map((m) => m.id),
  records: result.diagnostics.map((d) => d.code),
  which: which("probe-tool"),
}));
"""


def test_a_polluted_prototype_names_no_environment_variable(out: Path, tmp_path: Path) -> None:
    """``process.env`` of a variable that is not set reads ``Object.prototype``: with
    ``Object.prototype.WAGGLE_ADAPTERS_DIR`` written by a polluting merge, a load with the
    variable unset read that folder's adapters (Python reads the default folder), and with
    ``PATH`` unset an ``Object.prototype.PATH`` was searched, so detection found (and would run
    for its version) a program there where Python finds none. The README holds that what a
    polluted prototype lends changes no verdict or probe."""
    adapters = tmp_path / "planted"
    adapters.mkdir()
    (adapters / "planted.json").write_text(json.dumps(manifest(id="planted")))
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    program = bin_folder / "probe-tool"
    program.write_text("#!/bin/sh\necho 1\n")
    program.chmod(0o700)
    home = tmp_path / "home"
    home.mkdir()
    script = out / "polluted-environment.mjs"
    script.write_text(POLLUTED_ENVIRONMENT_JS, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), str(adapters), str(bin_folder)],
        env={"HOME": str(home)},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {"ids": [], "records": [], "which": None}
    # Python, in the same environment, reads the default folder and searches no PATH.
    python = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from tool_registry.loader import load_third_party_manifests as load;"
            " from tool_registry.detection import DetectionDeps as D;"
            " r = load(); print(json.dumps([len(r.manifests), D().which('probe-tool')]))",
        ],
        env={"HOME": str(home), "PYTHONPATH": str(REPO / "generated" / "python")},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert python.returncode == 0, python.stderr
    assert json.loads(python.stdout) == [0, None]

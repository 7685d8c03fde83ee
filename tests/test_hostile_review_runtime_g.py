"""A hostile review of the runtime paths (the Python loader and the TypeScript runtime): each
test here failed before the fix it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import REPO, build_typescript, run_js


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

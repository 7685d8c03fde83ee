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

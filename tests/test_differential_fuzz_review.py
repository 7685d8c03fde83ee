"""Disagreements between the Python and TypeScript runtimes found by differential fuzzing
(hostile adapter files, folders, injected listings and options run through both languages), each
pinned as a fixed case both runtimes must answer alike, as the README's rules say.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import load_third_party_manifests

from .conftest import REPO, build_typescript, node_executable

GENERATED_TS = REPO / "generated" / "typescript"
ADAPTER: dict[str, Any] = {
    "id": "aider",
    "displayName": "Aider",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/x.json",
    "detect": {"kind": "path", "binaryName": "aider"},
}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("fuzz-review"), GENERATED_TS)


def run_js(out: Path, body: str, *arguments: str) -> Any:
    """Run ``body`` (an ES module beside the compiled runtime) with ``arguments``; it prints one
    JSON document."""
    script = out / "fuzz-review-probe.mjs"
    script.write_text(body, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


# Injected listings' text names, as JSON escapes (a lone surrogate survives JSON.parse as one).
LISTED_NAMES = ["\ud800.json", "a\udbff.json", "\udc80.json", "ok.json"]

LOAD_LISTED = """\
import { loadThirdPartyManifests } from "./index.js";
const names = JSON.parse(process.argv[3]);
const result = loadThirdPartyManifests(process.argv[2], { readDir: () => names });
console.log(JSON.stringify(result.files.map((f) => ({
  source: f.source, accepted: f.accepted, id: f.id,
  diagnostics: f.diagnostics.map((d) => [d.code, d.found]),
}))));
"""


def test_an_injected_text_name_no_byte_stands_for_is_unreadable_in_both(
    out: Path, tmp_path: Path
) -> None:
    """An injected listing (``read_dir`` / ``readDir``) naming a file by text that holds a lone
    surrogate outside U+DC80..U+DCFF, read by the loader's own reader: Python's ``os.fsencode``
    has no bytes for it, so the file is ``UNREADABLE`` (``UnicodeEncodeError``), as the README
    says of any path given as text holding such a surrogate. TypeScript read the file named by
    the name's ``surrogatepass`` bytes (``ED A0 80``, the bytes it only orders names by) and
    accepted the adapter there. A U+DC80..U+DCFF surrogate still names the byte it stands for."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    text = json.dumps(ADAPTER).encode("utf-8")
    # The files the surrogatepass bytes of those names spell, and the one U+DC80 stands for.
    for name in (b"\xed\xa0\x80.json", b"a\xed\xaf\xbf.json", b"\x80.json", b"ok.json"):
        with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
            handle.write(text.replace(b'"aider"', b'"' + name[:2].hex().encode() + b'"', 1))
    python = [
        {
            "source": f.source,
            "accepted": f.accepted,
            "id": f.id,
            "diagnostics": [[d.code.value, d.found] for d in f.diagnostics],
        }
        for f in load_third_party_manifests(folder, read_dir=lambda _f: LISTED_NAMES).files
    ]
    typescript = run_js(out, LOAD_LISTED, str(folder), json.dumps(LISTED_NAMES))
    assert typescript == python
    # In the byte order of the names (os.fsencode, else surrogatepass): a.., ok, 0x80, 0xED...
    assert [f["diagnostics"] for f in python] == [
        [["UNREADABLE", "UnicodeEncodeError"]],
        [],
        [],
        [["UNREADABLE", "UnicodeEncodeError"]],
    ]
    assert [f["id"] for f in python] == [None, "6f6b", "802e", None]

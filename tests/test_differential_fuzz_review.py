"""Disagreements between the Python and TypeScript runtimes found by differential fuzzing
(hostile adapter files, folders, injected listings and options run through both languages), each
pinned as a fixed case both runtimes must answer alike, as the README's rules say.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

import pytest
from tool_registry import load_third_party_manifests
from tool_registry.loader import LoadResult

from .conftest import REPO, build_typescript, run_js

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


REFRESH_LISTED = """\
import { loadThirdPartyManifests } from "./index.js";
const folder = process.argv[2];
const named = (entry) => (typeof entry === "string" ? entry : Uint8Array.from(entry.bytes));
const load = (listing, previous) => loadThirdPartyManifests(folder, {
  readDir: () => listing.map(named), ...(previous === undefined ? {} : { previous }),
});
const first = load(JSON.parse(process.argv[3]));
const second = load(JSON.parse(process.argv[4]), first);
const third = load([], second);
console.log(JSON.stringify([second, third].map((result) => ({
  files: result.files.map((f) => [f.source, f.accepted, f.diagnostics.map((d) => d.code)]),
  states: result.states.map((s) => [s.source, s.state]),
}))));
"""


def _listing_of(names: list[str | bytes]) -> Callable[[str], Iterable[str]]:
    """An injected listing answering ``names`` (bytes names too, as the loader reads them)."""
    return lambda _folder: cast("Iterable[str]", names)


def test_a_refresh_keeps_names_apart_as_python_does(out: Path, tmp_path: Path) -> None:
    """A refresh reuses an earlier outcome by name, and names are Python's: a listing's bytes
    read by ``os.fsdecode``, a text name as it is. TypeScript keyed them by the bytes it orders
    names by, where a text name's lone surrogate is its ``surrogatepass`` bytes: the text name
    ``"\\ud800.json"`` and the bytes name ``ED A0 80 .json`` (Python's
    ``"\\udced\\udca0\\udc80.json"``) were one name. A refresh listing the text name after a load
    of the bytes name reused the accepted file (``reused``, under the bytes name) where Python
    reads the text name (``UNREADABLE``: no bytes stand for it) and reports the bytes name
    ``removed``; and a load listing both remembered one, so the next refresh reported one name
    removed where Python reports two."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"\xed\xa0\x80.json"), "wb") as handle:
        handle.write(json.dumps(ADAPTER).encode("utf-8"))
    as_bytes = b"\xed\xa0\x80.json"
    listings: list[list[str | bytes]] = [[as_bytes], ["\ud800.json", as_bytes]]
    python = []
    result: LoadResult | None = None
    for listing in [*listings, []]:
        result = load_third_party_manifests(folder, read_dir=_listing_of(listing), previous=result)
        python.append(
            {
                "files": [
                    [f.source, f.accepted, [d.code.value for d in f.diagnostics]]
                    for f in result.files
                ],
                "states": [[s.source, s.state] for s in result.states],
            }
        )
    spelled = [
        json.dumps([n if isinstance(n, str) else {"bytes": list(n)} for n in listing])
        for listing in listings
    ]
    typescript = run_js(out, REFRESH_LISTED, str(folder), *spelled)
    assert typescript == python[1:]
    assert python[1]["states"] == [
        ["\\ud800.json", "loaded"],
        ["\\udced\\udca0\\udc80.json", "reused"],
    ]
    assert python[2]["states"] == [
        ["\\ud800.json", "removed"],
        ["\\udced\\udca0\\udc80.json", "removed"],
    ]


LOAD_CAPPED = """\
import { loadThirdPartyManifests } from "./index.js";
const names = JSON.parse(process.argv[3]).map((n) => (typeof n === "string" ? n : Uint8Array.from(n.bytes)));
const result = loadThirdPartyManifests(process.argv[2], { readDir: () => names, maxFiles: 2 });
console.log(JSON.stringify({
  ids: result.manifests.map((m) => m.id),
  files: result.files.map((f) => [f.source, f.accepted, f.diagnostics.map((d) => d.code)]),
  diagnostics: result.diagnostics.map((d) => [d.code, d.omitted]),
}));
"""


def test_names_that_order_alike_are_kept_in_listing_order_past_the_file_limit(
    out: Path, tmp_path: Path
) -> None:
    """Past ``max_files``, the loader keeps the first names in byte order, and of names whose
    bytes order alike (the bytes name ``ED A0 80 .json`` and the text name ``"\\ud800.json"``,
    ordered by its ``surrogatepass`` bytes) the ones listed first, as Python's stable sort does.
    TypeScript's bounded heap kept whichever of the tied names its heap held at the root: with
    two files allowed it read the unreadable text name instead of the bytes name listed before
    it, and accepted no adapter where Python accepts the file."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"\xed\xa0\x80.json"), "wb") as handle:
        handle.write(json.dumps(ADAPTER).encode("utf-8"))
    listing: list[str | bytes] = [b"\xed\xa0\x80.json", "\ud800.json", "z.json"]
    result = load_third_party_manifests(folder, read_dir=_listing_of(listing), max_files=2)
    files = [[f.source, f.accepted, [d.code.value for d in f.diagnostics]] for f in result.files]
    python: dict[str, Any] = {
        "ids": [m.id for m in result.manifests],
        "files": files,
        "diagnostics": [[d.code.value, d.omitted] for d in result.diagnostics],
    }
    spelled = json.dumps([n if isinstance(n, str) else {"bytes": list(n)} for n in listing])
    assert run_js(out, LOAD_CAPPED, str(folder), spelled) == python
    assert python["ids"] == ["aider"]
    assert [f[0] for f in files] == ["z.json", "\\udced\\udca0\\udc80.json"]

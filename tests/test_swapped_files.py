"""A folder that changes under the loader, in both languages: the same manifests, diagnostics
and states whatever is swapped in between a load and a refresh, or between the listing and the
open of one file.

- A file whose read fails after it was opened (here a link to ``/proc/self/mem``, whose read at
  offset 0 fails with EIO) is not kept for the next refresh: it is read again (``loaded``), in
  both languages (TypeScript kept the failed outcome and called it ``reused``).
- A socket put in a name's place after the listing typed it as a regular file is ``NOT_A_FILE``
  (a socket), as a socket in the listing is (its open failed with ENXIO: ``UNREADABLE``).
- A name that is gone is reported ``removed`` even when another name is shown alike (escaped and
  clipped to the same text): names were compared by their shown form, so the removal was lost.
- Python's ``load_manifest_files`` reports a ``loaded`` state per pair, as TypeScript does.
- Python's refresh opens a name the listing typed as a regular file without following a link,
  as its first load and TypeScript do.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tool_registry import load_third_party_manifests

from .conftest import REPO, build_typescript, node_executable
from .test_ts_refresh import _manifest


def _summary(result: Any) -> dict[str, Any]:
    return {
        "manifests": [m.id for m in result.manifests],
        "diagnostics": [d.as_json() for d in result.diagnostics],
        "states": [[s.source, s.state] for s in result.states],
    }


RUNNER = """\
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { loadThirdPartyManifests } from "./index.js";
import { diagnosticAsJson } from "./diagnostics.js";
const [folder, mode, spare] = process.argv.slice(2);
const open = fs.openSync;
let swapped = false;
// "swap": the first open of a.json finds the prepared socket in its place (after the listing).
fs.openSync = (path, ...rest) => {
  if (mode === "swap" && !swapped && String(path).endsWith("/a.json")) {
    swapped = true;
    fs.renameSync(spare, String(path));
  }
  return open(path, ...rest);
};
syncBuiltinESMExports();
const summary = (r) => ({
  manifests: r.manifests.map((m) => m.id),
  diagnostics: r.diagnostics.map(diagnosticAsJson),
  states: r.states.map((s) => [s.source, s.state]),
});
const first = loadThirdPartyManifests(folder);
const results = [summary(first)];
if (mode === "remove") fs.unlinkSync(spare);
if (mode === "refresh" || mode === "remove") {
  results.push(summary(loadThirdPartyManifests(folder, { previous: first })));
}
console.log(JSON.stringify(results));
"""


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = build_typescript(tmp_path_factory.mktemp("build"), REPO / "generated/typescript")
    script = out / "swapped.mjs"
    script.write_text(RUNNER, encoding="utf-8")
    return script


def _node(runner: Path, *args: str) -> list[dict[str, Any]]:
    completed = subprocess.run(
        [node_executable(), str(runner), *args], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    result: list[dict[str, Any]] = json.loads(completed.stdout)
    return result


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "adapters"
    folder.mkdir()
    for name, tool in (("a.json", "alpha"), ("b.json", "beta")):
        (folder / name).write_text(json.dumps(_manifest(tool, tool.title())), encoding="utf-8")
    return folder


def _fails_to_read(path: str) -> bool:
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        os.read(descriptor, 1)
    except OSError:
        return True
    finally:
        os.close(descriptor)
    return False


def test_a_file_whose_read_failed_is_read_again_by_a_refresh(tmp_path: Path, runner: Path) -> None:
    if not _fails_to_read("/proc/self/mem"):
        pytest.skip("needs a regular file whose read fails (Linux /proc/self/mem)")
    folder = _folder(tmp_path)
    (folder / "a.json").unlink()
    (folder / "a.json").symlink_to("/proc/self/mem")
    first = load_third_party_manifests(folder)
    python = [_summary(first), _summary(load_third_party_manifests(folder, previous=first))]
    assert python[1]["states"] == [["a.json", "loaded"], ["b.json", "reused"]]
    assert [d["code"] for d in python[1]["diagnostics"]] == ["UNREADABLE"]
    assert _node(runner, str(folder), "refresh") == python


@pytest.fixture
def spare_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "spare.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
    except OSError:
        server.close()
        pytest.skip("no Unix sockets here")
    try:
        yield path
    finally:
        server.close()


def test_a_socket_swapped_in_after_the_listing_is_not_a_file(
    tmp_path: Path, runner: Path, spare_socket: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    real_open = os.open
    swapped: list[str] = []

    def swapping_open(path: Any, flags: int, *args: Any) -> int:
        if not swapped and os.fspath(path).endswith("/a.json"):
            swapped.append(os.fspath(path))
            os.replace(spare_socket, path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", swapping_open)
    python = _summary(load_third_party_manifests(folder))
    monkeypatch.undo()
    assert swapped, "the loader opened a.json"
    assert python["diagnostics"][0]["code"] == "NOT_A_FILE"
    assert "socket" in python["diagnostics"][0]["message"]
    assert python["manifests"] == ["beta"]
    # The same swap under node, on a fresh copy of the folder.
    (folder / "a.json").unlink()
    (folder / "a.json").write_text(json.dumps(_manifest("alpha", "Alpha")), encoding="utf-8")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(spare_socket))
    try:
        assert _node(runner, str(folder), "swap", str(spare_socket)) == [python]
    finally:
        server.close()


def test_a_python_refresh_opens_a_listed_file_without_following_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not getattr(os, "O_NOFOLLOW", 0):
        pytest.skip("no O_NOFOLLOW here")
    folder = _folder(tmp_path)
    first = load_third_party_manifests(folder)
    (folder / "a.json").write_text(json.dumps(_manifest("alpha", "Alpha Two")), encoding="utf-8")
    os.utime(folder / "a.json", ns=(10**18, 10**18))
    real_open = os.open
    flags_seen: list[int] = []

    def recording_open(path: Any, flags: int, *args: Any) -> int:
        if os.fspath(path).endswith("/a.json"):
            flags_seen.append(flags)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", recording_open)
    refreshed = load_third_party_manifests(folder, previous=first)
    assert [(s.source, s.state) for s in refreshed.states] == [
        ("a.json", "loaded"),
        ("b.json", "reused"),
    ]
    assert flags_seen and all(flags & os.O_NOFOLLOW for flags in flags_seen)


def test_a_removed_name_shown_like_a_present_one_is_still_removed(
    tmp_path: Path, runner: Path
) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    stem = "\x01" * 200  # shown as 200 escapes, clipped: both names are shown alike
    for suffix, tool in (("1", "alpha"), ("2", "beta")):
        path = folder / f"{stem}{suffix}.json"
        path.write_text(json.dumps(_manifest(tool, tool.title())), encoding="utf-8")
    gone = folder / f"{stem}2.json"
    first = load_third_party_manifests(folder)
    assert first.states[0].source == first.states[1].source
    python = [_summary(first)]
    gone.unlink()
    python.append(_summary(load_third_party_manifests(folder, previous=first)))
    shown_as = first.states[0].source
    assert python[1]["states"] == [[shown_as, "reused"], [shown_as, "removed"]]
    assert python[1]["manifests"] == ["alpha"]
    gone.write_text(json.dumps(_manifest("beta", "Beta")), encoding="utf-8")
    assert _node(runner, str(folder), "remove", str(gone)) == python


LOAD_FILES = """\
import { loadManifestFiles } from "./index.js";
const pairs = JSON.parse(process.argv[2]);
console.log(JSON.stringify(loadManifestFiles(pairs).states.map((s) => [s.source, s.state])));
"""


def test_load_manifest_files_reports_the_same_states_in_both_languages(
    tmp_path: Path, runner: Path
) -> None:
    """Python's ``load_manifest_files`` gave no states where TypeScript's calls each pair
    ``loaded``."""
    from tool_registry import load_manifest_files

    folder = _folder(tmp_path)
    pairs = [("b.json", str(folder / "b.json")), ("a.json", str(folder / "a.json"))]
    python = [[s.source, s.state] for s in load_manifest_files(pairs).states]
    assert python == [["b.json", "loaded"], ["a.json", "loaded"]]
    script = runner.parent / "load-files.mjs"
    script.write_text(LOAD_FILES, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(script), json.dumps(pairs)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == python

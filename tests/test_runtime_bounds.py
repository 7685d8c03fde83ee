"""The per-file diagnostic limit bounds work and memory *while* a document is checked: the
validator stops at the limit, the loader holds at most the limit, and the worst folder we can
build at the file-count and size limits stays under a memory bound (measured in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tool_registry import (
    MANIFEST_MAX_BYTES,
    DiagnosticCode,
    load_third_party_manifests,
    validate_third_party_manifest,
    validate_tool_manifest,
)
from tool_registry.diagnostics import MAX_DIAGNOSTICS_PER_FILE
from tool_registry.loader import MAX_ADAPTER_FILES

from .conftest import REPO

Code = DiagnosticCode


class CountingList(list[Any]):
    """A JSON array that counts how many of its items were looked at by index."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        CountingList.reads += 1
        return super().__getitem__(index)


def manifest(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "id": "aider",
        "displayName": "Aider",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".aider/hive-mind-install.json",
        "detect": {"kind": "path", "binaryName": "aider"},
    }
    document.update(changes)
    return document


def test_the_validator_stops_collecting_at_the_limit() -> None:
    items = CountingList([1] * 20_000)  # every item breaks "type: string"
    CountingList.reads = 0
    found = validate_third_party_manifest(manifest(promptArgTemplate=items))
    # maxItems fails first, then one item after another until the limit is full.
    assert len(found) == MAX_DIAGNOSTICS_PER_FILE + 1
    assert found[-1].code is Code.TOO_MANY_DIAGNOSTICS
    assert "at least" in found[-1].message
    assert CountingList.reads <= MAX_DIAGNOSTICS_PER_FILE + 1  # not 20,000


def test_a_limit_argument_bounds_both_entry_points() -> None:
    bad = manifest(id="BAD ID", displayName="", hookPointer="/abs", launchable="yes")
    for validate in (validate_tool_manifest, validate_third_party_manifest):
        everything = validate(bad, 100)
        assert len(everything) >= 4
        assert Code.TOO_MANY_DIAGNOSTICS not in {d.code for d in everything}
        two = validate(bad, 2)
        assert two[:2] == everything[:2]
        assert [d.code for d in two[2:]] == [Code.TOO_MANY_DIAGNOSTICS]


def test_each_one_of_alternative_is_bounded_too() -> None:
    # detect matches no alternative, with thousands of unknown keys: both alternatives collect,
    # each within the limit, and the report stays bounded.
    detect = {"kind": "nope", **{f"k{i}": i for i in range(5000)}}
    found = validate_tool_manifest(manifest(detect=detect))
    assert len(found) <= MAX_DIAGNOSTICS_PER_FILE + 1


def test_the_loader_reports_at_most_the_limit_per_file(tmp_path: Path) -> None:
    (tmp_path / "flood.json").write_text(json.dumps(manifest(promptArgTemplate=[1] * 20_000)))
    result = load_third_party_manifests(tmp_path)
    (report,) = result.files
    assert len(report.diagnostics) == MAX_DIAGNOSTICS_PER_FILE + 1
    summary = report.diagnostics[-1]
    assert summary.code is Code.TOO_MANY_DIAGNOSTICS
    assert summary.message.startswith("at least ")


_WORST_CASE = textwrap.dedent(
    """
    import json, os, resource, sys
    sys.path.insert(0, sys.argv[1])
    from tool_registry import load_third_party_manifests
    from tool_registry.diagnostics import MAX_DIAGNOSTICS_PER_FILE
    folder = sys.argv[2]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = load_third_party_manifests(folder)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    worst = max(len(report.diagnostics) for report in result.files)
    print(json.dumps({"files": len(result.files), "worst": worst,
                      "growth_kib": after - before, "accepted": len(result.manifests)}))
    """
)


def _worst_documents(limit: int) -> list[bytes]:
    """Documents just under the size limit, each maximising violations per byte a different
    way: wrong array items, unknown keys, failing oneOf alternatives, non-unique items."""

    def fill(make: Callable[[int], bytes]) -> bytes:
        low, high = 0, limit
        while low < high:  # the largest count that still fits the limit
            middle = (low + high + 1) // 2
            if len(make(middle)) <= limit:
                low = middle
            else:
                high = middle - 1
        return make(low)

    def encoded(document: Any) -> bytes:
        return json.dumps(document, separators=(",", ":")).encode()

    return [
        fill(lambda n: encoded(manifest(promptArgTemplate=[0] * n))),
        fill(lambda n: encoded(manifest(**{f"{i:x}": 0 for i in range(n)}))),
        fill(lambda n: encoded(manifest(detect={"kind": 0, **{f"{i:x}": 0 for i in range(n)}}))),
        fill(lambda n: encoded(manifest(capabilities={"provides": ["resumable"] * n}))),
        fill(lambda n: encoded([[0] * 3] * n)),
    ]


def test_the_worst_folder_at_the_limits_stays_within_a_memory_bound(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    documents = _worst_documents(MANIFEST_MAX_BYTES)
    assert all(len(d) > MANIFEST_MAX_BYTES - 64 for d in documents)
    for index in range(MAX_ADAPTER_FILES):
        (folder / f"{index:04d}.json").write_bytes(documents[index % len(documents)])
    probe = subprocess.run(
        [sys.executable, "-c", _WORST_CASE, str(REPO / "generated/python"), str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    figures = json.loads(probe.stdout)
    assert figures["files"] == MAX_ADAPTER_FILES
    assert figures["accepted"] == 0
    assert figures["worst"] <= MAX_DIAGNOSTICS_PER_FILE + 1
    # 1,000 files of 64 KiB are 64 MiB on disk; holding every violation took about 10 GiB.
    # What may grow is one parsed document plus bounded reports: far below 64 MiB.
    assert figures["growth_kib"] < 48 * 1024, figures

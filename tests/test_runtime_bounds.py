"""The per-file diagnostic limit bounds work and memory *while* a document is checked: the
validator stops at the limit, the loader holds at most the limit, and the worst folder we can
build at the file-count and size limits stays under a memory bound (measured in a subprocess)."""

from __future__ import annotations

import array
import itertools
import json
import random
import re
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
from .test_loader import manifest as loader_manifest

Code = DiagnosticCode


class CountingList(list[Any]):
    """A JSON array that counts how many of its items were looked at by index."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        CountingList.reads += 1
        return super().__getitem__(index)


def manifest(**changes: Any) -> dict[str, Any]:
    """The loader tests' valid manifest with only its required fields (optional ones added by
    ``changes``), so each bound test sees just the violations it plants."""
    return loader_manifest(**{"promptArgTemplate": None, "capabilities": None, **changes})


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


def test_unique_items_keys_numbers_so_that_they_cannot_be_made_to_collide() -> None:
    from tool_registry.schema_runtime import _key

    # Integers congruent modulo 2**61 - 1 share one Python hash: keyed by value, a set of them
    # degrades to a quadratic scan.
    colliding = [k * (2**61 - 1) for k in range(200)]
    assert len({hash(n) for n in colliding}) == 1
    assert len({hash(_key(n)) for n in colliding}) > 150
    assert _key(1) == _key(1.0) and _key(True) != _key(1)


class CountingIterList(list[Any]):
    """A JSON array that counts the items handed out by iteration."""

    handed_out = 0

    def __iter__(self) -> Any:
        for item in super().__iter__():
            CountingIterList.handed_out += 1
            yield item


def test_wrong_items_stop_the_check_before_the_uniqueness_test_keys_them_all() -> None:
    provides = CountingIterList([[0]] * 20_000)
    CountingIterList.handed_out = 0
    CountingList.reads = 0
    found = validate_third_party_manifest(manifest(capabilities={"provides": provides}))
    assert found[-1].code is Code.TOO_MANY_DIAGNOSTICS
    assert CountingIterList.handed_out < 100  # not 20,000 (twice)


def test_a_thousand_claimants_of_one_id_name_a_few_others_each(tmp_path: Path) -> None:
    from tool_registry.loader import MAX_OTHERS

    for index in range(60):
        (tmp_path / f"{index:03d}.json").write_text(json.dumps(manifest()))
    result = load_third_party_manifests(tmp_path)
    assert result.manifests == ()
    records = [d for d in result.diagnostics if d.code is Code.DUPLICATE_ID]
    assert len(records) == 60
    for record in records:
        assert len(record.others) == MAX_OTHERS
        assert record.omitted == 59 - MAX_OTHERS
        assert record.message.endswith(f"and {59 - MAX_OTHERS} more")
        assert record.source not in record.others


def test_a_huge_listing_is_streamed_not_held(tmp_path: Path) -> None:
    import tracemalloc

    def names(folder: str) -> Any:
        for index in range(200_000):
            yield f"{index:08d}{'x' * 240}.json"

    def read_file(path: str, limit: int) -> bytes:
        return json.dumps(manifest(id=f"t{Path(path).name[:8]}")).encode()

    tracemalloc.start()
    try:
        result = load_third_party_manifests(tmp_path, read_dir=names, read_file=read_file)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.files) == MAX_ADAPTER_FILES
    assert result.files[0].source.startswith("00000000")
    (too_many,) = [d for d in result.diagnostics if d.code is Code.TOO_MANY_FILES]
    assert too_many.omitted == 200_000 - MAX_ADAPTER_FILES
    # Holding the 200,000 names would take over 50 MB; the 1,000 kept take about 0.3 MB.
    assert peak < 20 * 1024 * 1024, peak


def test_nesting_is_limited_before_parsing(tmp_path: Path) -> None:
    from tool_registry.loader import MAX_NESTING

    def nested(depth: int) -> str:  # the manifest object is level 1
        inner = "[" * (depth - 1) + "]" * (depth - 1)
        return json.dumps(manifest())[:-1] + f', "x": {inner}}}'

    (tmp_path / "ok.json").write_text(nested(MAX_NESTING))
    (tmp_path / "deep.json").write_text(nested(MAX_NESTING + 1))
    (tmp_path / "strings.json").write_text(
        json.dumps(manifest(displayName="Brackets", id="brackets", x="[" * 5000))
    )
    by_file = {r.source: r for r in load_third_party_manifests(tmp_path).files}
    assert by_file["ok.json"].accepted and by_file["strings.json"].accepted
    assert [d.code for d in by_file["deep.json"].diagnostics] == [Code.INVALID_JSON]


_RAISED_LIMIT = """
import json, sys
sys.setrecursionlimit(100_000)
sys.path.insert(0, sys.argv[1])
from tool_registry import load_third_party_manifests
result = load_third_party_manifests(sys.argv[2])
print(json.dumps([[d.code.value for d in f.diagnostics] for f in result.files]))
"""


def test_a_host_with_a_raised_recursion_limit_gets_the_same_verdict(tmp_path: Path) -> None:
    deep = "[" * 21_000 + "]" * 21_000
    text = json.dumps(manifest(capabilities={"provides": ["resumable"]}))
    (tmp_path / "deep.json").write_text(text.replace('["resumable"]', f"[{deep}, 0]"))
    probe = subprocess.run(
        [sys.executable, "-c", _RAISED_LIMIT, str(REPO / "generated/python"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr  # a crash would be -11
    assert json.loads(probe.stdout) == [["INVALID_JSON"]]


def test_escapes_that_make_no_surrogate_cost_no_walk(tmp_path: Path, monkeypatch: Any) -> None:
    from tool_registry import loader as loader_module

    def walk(value: Any) -> Any:
        raise AssertionError("walked a document that cannot hold a lone surrogate")

    monkeypatch.setattr(loader_module, "surrogate_at", walk)
    text = json.dumps(manifest())[:-1] + ', "y": "\\u0061\\ud83d\\ude00", "x": [[], [], []]}'
    (tmp_path / "a.json").write_text(text)
    (report,) = load_third_party_manifests(tmp_path).files
    assert report.accepted


def test_uniqueness_is_not_computed_over_items_already_refused() -> None:
    inner = CountingIterList([0] * 30_000)
    CountingIterList.handed_out = 0
    found = validate_third_party_manifest(manifest(capabilities={"provides": [inner, [0]]}))
    assert {d.keyword for d in found} <= {"type", "enum"}
    assert CountingIterList.handed_out == 0


def test_an_over_long_string_is_measured_not_searched() -> None:
    found = validate_third_party_manifest(manifest(hookPointer="a/" * 30_000))
    assert [(d.pointer, d.keyword) for d in found] == [("/hookPointer", "maxLength")]


def test_the_names_kept_are_the_first_in_byte_order_wherever_they_are_listed() -> None:
    """The listing is cut back to the first ``limit`` names each time it holds twice as many:
    the names kept must be those a full byte-order sort would keep, whatever order the folder
    lists them in, and with ASCII names sorted as text only while every name held is ASCII
    (``"\\u00e9"`` is two bytes above ``"z"``; a surrogate-escaped byte sorts as that byte)."""
    import os
    import random

    from tool_registry.loader import _first_in_byte_order

    pieces = ["a", "b", "z", "A", "0", "\u00e9", "\u20ac", "\U0001f600", "\udce9", "\udc80", "-"]
    generator = random.Random(11)
    for _ in range(300):
        names = list(
            {
                "".join(generator.choices(pieces, k=generator.randint(1, 4))) + ".json"
                for _ in range(generator.randint(0, 300))
            }
        )
        generator.shuffle(names)
        if generator.random() < 0.5:  # non-ASCII names arriving only after a first cut
            names.sort(key=lambda name: not name.isascii())
        limit = generator.choice([0, 1, 3, 31, 32, 33, 100, 1000])
        listing = [(name, index % 2 == 0) for index, name in enumerate(names)]
        kept, found = _first_in_byte_order(iter(listing), limit)
        expected = sorted(listing, key=lambda entry: os.fsencode(entry[0]))[:limit]
        assert found == len(names)
        assert kept == expected, (names, limit)


def test_a_long_listing_taken_in_runs_keeps_the_first_in_byte_order() -> None:
    """The listing is taken in runs of at most ``_LISTING_RUN`` entries: a listing of several
    runs, with a non-ASCII name arriving only in a late run and a limit whose cut falls inside a
    run, keeps what a full byte-order sort keeps; a limit of every file (``sys.maxsize``, what
    ``max_files=math.inf`` reads as) too."""
    import os
    import sys

    from tool_registry.loader import _LISTING_RUN, _first_in_byte_order

    count = 3 * _LISTING_RUN + 17
    names = [f"adapter-{(index * 7919) % count:06d}.json" for index in range(count)]
    names[-5] = "\u00e9t\u00e9.json"  # sorts as bytes above every ASCII name
    names[-3] = "Z.json"
    listing = [(name, True) for name in names]
    for limit in (0, 1, _LISTING_RUN - 1, _LISTING_RUN + 3, count - 1, count, sys.maxsize):
        kept, found = _first_in_byte_order(iter(listing), limit)
        expected = sorted(listing, key=lambda entry: os.fsencode(entry[0]))[:limit]
        assert found == count
        assert kept == expected, limit


# The string pattern the nesting scan used before: every quote of an unterminated string was a new
# try, each reading to the end of the text (a file of escaped quotes cost quadratic time).
_RETRIED_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _depth_retrying_each_quote(data: bytes) -> int:
    """The nesting depth by the scan's documented reading, one try per quote (small texts only)."""
    from tool_registry.loader import _BRACKET_SIGNS, _NOT_BRACKETS

    signs = _RETRIED_STRING.sub(b"", data).translate(_BRACKET_SIGNS, _NOT_BRACKETS)
    return max(itertools.accumulate(array.array("b", signs)), default=0)


def test_an_unterminated_string_is_scanned_once_not_once_per_quote(tmp_path: Path) -> None:
    """The nesting scan removes strings before counting brackets. An unterminated string whose
    quotes are all escaped (``"\\"\\"\\"…``) was tried again from each of its quotes, every try
    reading to the end: a 64 KiB adapter file (or hook pointer) of them with 33 brackets took
    the loader about ten seconds, a folder of such files hours. Every later quote of such a run
    fails where the first did, so the run is one match now, left in place (its brackets
    counted, as the tries from each quote left them), and the depth is the same."""
    from tool_registry.loader import _JSON_STRING, MAX_NESTING, _nesting_depth

    run = b'"' + b'\\"' * 1000
    assert [match.span() for match in _JSON_STRING.finditer(run)] == [(0, len(run))]
    assert [match.span() for match in _JSON_STRING.finditer(run + b"\\\n")] == [(0, len(run))]
    pieces = [b"[", b"{", b"]", b"}", b'"', b"\\", b"\n", b"a", b'"["', b'\\"', b"\\\n"]
    generator = random.Random(7)
    for _ in range(3000):
        text = b"".join(generator.choices(pieces, k=generator.randint(0, 120)))
        assert _nesting_depth(text) == _depth_retrying_each_quote(text), text
    hostile = b"[" * (MAX_NESTING + 1) + b'"' + b'\\"' * (MANIFEST_MAX_BYTES // 2 - 40)
    assert _nesting_depth(hostile) == MAX_NESTING + 1
    (tmp_path / "quotes.json").write_bytes(hostile)
    (report,) = load_third_party_manifests(tmp_path).files
    assert [d.code for d in report.diagnostics] == [Code.INVALID_JSON]


def test_typescript_scans_unterminated_strings_as_python_does(tmp_path: Path) -> None:
    """TypeScript's ``nestingDepth`` made the same per-quote tries (quadratic too); it now skips
    the run an unterminated string covers as Python's pattern does, with the same depths."""
    from tool_registry.loader import MAX_NESTING, _nesting_depth

    from .conftest import build_typescript, node_executable

    out = build_typescript(tmp_path, REPO / "generated" / "typescript")
    pieces = [b"[", b"{", b"]", b"}", b'"', b"\\", b"\n", b"a", b'"["', b'\\"', b"\\\n"]
    generator = random.Random(8)
    texts = [b"[" * (MAX_NESTING + 1) + b'"' + b'\\"' * (MANIFEST_MAX_BYTES // 2 - 40)]
    texts += [
        b"[" * (MAX_NESTING + 1) + b"".join(generator.choices(pieces, k=generator.randint(0, 80)))
        for _ in range(2000)
    ]
    (out / "texts.json").write_text(json.dumps([text.decode("latin-1") for text in texts]))
    script = out / "depths.mjs"
    script.write_text(
        'import { readFileSync } from "node:fs";\n'
        'import { nestingDepth } from "./json-text.js";\n'
        'const texts = JSON.parse(readFileSync(new URL("./texts.json", import.meta.url), "utf8"));\n'
        "const depths = texts.map((t) => nestingDepth(Uint8Array.from(t, (c) => c.charCodeAt(0))));\n"
        "process.stdout.write(JSON.stringify(depths));\n",
        encoding="utf-8",
    )
    completed = subprocess.run(
        [node_executable(), str(script)], capture_output=True, text=True, check=False, timeout=600
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [_nesting_depth(text) for text in texts]

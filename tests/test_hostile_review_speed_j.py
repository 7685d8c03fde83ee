"""Hostile review (helper j) of the runtime-speed work's surfaces: each test fails without its fix."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_registry import (
    LoadResult,
    get_tool_registry,
    load_manifest_files,
    load_third_party_manifests,
    parse_third_party_manifest,
    validate_third_party_manifest,
    validate_tool_manifest,
)
from tool_registry.loader import strict_json_object

from .conftest import REPO
from .test_bench_smoke import bench_process
from .test_loader import manifest


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "broken.json").write_text("{", encoding="utf-8")
    (folder / "wrong.json").write_text('{"id": "x", "displayName": 1}', encoding="utf-8")
    return folder


def test_a_load_result_and_a_registry_copy_deep_copy_and_pickle(tmp_path: Path) -> None:
    """``LoadResult.cache`` and the registry's ``granted``, ``grants``, ``resolvers`` and
    ``sources`` were ``types.MappingProxyType`` views, which neither ``copy.deepcopy`` nor
    ``pickle`` (nor ``dataclasses.asdict``, which deep-copies them) can take: each raised
    ``TypeError: cannot pickle 'mappingproxy' object``; and the per-file reports the cache holds
    (slots, no ``__getstate__``) refused pickle protocols 0 and 1. The views stay read-only."""
    folder = _folder(tmp_path)
    first = load_third_party_manifests(folder)
    refreshed = load_third_party_manifests(folder, previous=first)
    registry = get_tool_registry(adapters_dir=folder)
    for result in (first, refreshed, registry.load_result, registry):
        assert result is not None
        assert copy.deepcopy(result) == result
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(result, protocol)) == result  # noqa: S301
        assert dataclasses.asdict(result)
    copied = copy.deepcopy(first)
    assert dict(copied.cache).keys() == dict(first.cache).keys()
    # A copy still serves a refresh: the unchanged files are reused, not read again.
    again = load_third_party_manifests(folder, previous=copied)
    assert again == first
    assert {state.state for state in again.states} == {"reused"}
    for view in (first.cache, registry.granted, registry.grants, registry.sources):
        with pytest.raises(TypeError):
            view["forged"] = None  # type: ignore[index]


def test_a_load_result_unpickles_in_a_fresh_process(tmp_path: Path) -> None:
    """The pickled result loads where ``tool_registry`` was never imported (its lazy names are
    resolved by pickle's own import), and equals the original."""
    result = load_third_party_manifests(_folder(tmp_path))
    code = (
        "import pickle, sys\n"
        "result = pickle.loads(sys.stdin.buffer.read())\n"
        "print(len(result.files), len(result.cache), type(result).__module__)\n"
    )
    finished = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(result),
        capture_output=True,
        check=False,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO / "generated" / "python")},
    )
    assert finished.returncode == 0, finished.stderr.decode()[-2000:]
    assert finished.stdout.decode().split() == ["2", "2", "tool_registry.loader"]


@pytest.mark.parametrize(
    "arguments",
    [
        ("bench/runtime_bench.py", "--size", "0", "--only", "validator"),
        ("bench/runtime_bench.py", "--rounds", "0", "--only", "loader"),
        ("bench/runtime_bench.py", "--import-rounds", "0", "--only", "import"),
        ("bench/import_bench.py", "--rounds", "0"),
        ("bench/import_bench.py", "--rounds", "-3"),
        ("bench/ts_bench.py", "--rounds", "0"),
        ("bench/scale_bench.py", "--rounds", "0"),
        ("bench/check_bench.py", "--rounds", "0"),
        ("bench/generate_bench.py", "--repeat", "0"),
    ],
    ids=" ".join,
)
def test_a_benchmark_refuses_a_count_it_cannot_measure_with(arguments: tuple[str, ...]) -> None:
    """A count of 0 rounds, repeats or documents left every figure a median of nothing or a
    mean over no document: each benchmark ran, then died with a traceback
    (``StatisticsError: no median for empty data``, ``ZeroDivisionError``). It is a usage
    error, said before anything runs."""
    finished = bench_process(*arguments)
    assert finished.returncode == 2, finished.stderr[-2000:]
    assert "Traceback" not in finished.stderr
    assert "must be at least 1" in finished.stderr


@pytest.mark.parametrize(
    "cache",
    [{"broken.json": 1}, {"gone.json": "x"}, {1: 2}, {"broken.json": ("a", "b", "c", "d")}],
    ids=["outcome-not-one", "removed-name", "key-not-text", "a-plain-tuple"],
)
def test_a_refresh_from_a_hand_built_result_is_a_fresh_load(
    tmp_path: Path, cache: dict[object, object]
) -> None:
    """``LoadResult`` is public and its ``cache`` a constructor field: a result built by hand
    whose cache holds anything but a load's outcomes made the refresh raise ``AttributeError``
    (``'int' object has no attribute 'identity'``), where a load never raises for a ``previous``
    it cannot use. It is read as no previous load, as TypeScript refreshes only from a result
    a load returned."""
    folder = _folder(tmp_path)
    fresh = load_third_party_manifests(folder)
    forged = LoadResult((), (), (), cache=cache)  # type: ignore[arg-type]
    refreshed = load_third_party_manifests(folder, previous=forged)
    assert refreshed == fresh
    assert [(state.source, state.state) for state in refreshed.states] == [
        ("broken.json", "loaded"),
        ("wrong.json", "loaded"),
    ]


class _HostileKey(str):
    """A key whose own methods raise: the validators must read it by ``str``'s."""

    def replace(self, *arguments: object) -> str:
        raise AssertionError("a key's own method ran")


@pytest.mark.parametrize(
    ("key", "token"),
    [
        (1, "1"),
        (None, "None"),
        (True, "True"),
        (b"id", "<bytes object>"),
        ((1, 2), "<tuple object>"),
        (_HostileKey("a/~b"), "a~1~0b"),
    ],
    ids=["int", "None", "bool", "bytes", "tuple", "str-subclass"],
)
def test_the_validators_locate_a_member_whose_key_is_no_string(key: object, token: str) -> None:
    """Every value that is no JSON value (a set, bytes, an object) is reported as a type
    violation, but a ``dict`` key that is no string made both validators raise from inside the
    pointer builder (``AttributeError: 'int' object has no attribute 'replace'``, ``TypeError``
    for bytes), and a ``str`` subclass key had its own ``replace`` run. The member is an unknown
    one, located like any other (jsonschema's verdict: ``additionalProperties``)."""
    document: dict[object, object] = dict(manifest().items())
    nested = {**document, "detect": {"kind": "path", "binaryName": "aider", key: 7}}
    for value, pointer in (({**document, key: 7}, "/" + token), (nested, "/detect/" + token)):
        for validate in (validate_tool_manifest, validate_third_party_manifest):
            records = validate(value)
            assert [(r.keyword, r.pointer, r.found) for r in records] == [
                ("additionalProperties", pointer, "7")
            ]


def _lowest_limit_running(call: Callable[[], object]) -> int:
    """The lowest recursion limit under which ``call`` runs from here without
    ``RecursionError`` (the limit is restored after each try)."""
    before = sys.getrecursionlimit()
    lowest = len(inspect.stack(0))
    while True:
        try:
            sys.setrecursionlimit(lowest)  # (refused below the depth this test runs at)
            call()
            return lowest
        except RecursionError:
            lowest += 1
        finally:
            sys.setrecursionlimit(before)


def test_a_low_recursion_limit_never_makes_the_surrogate_check_raise() -> None:
    """``_parse`` decides the depth before parsing so that no recursion escapes, whatever limit
    the host set; but the check for a lone surrogate (``json.dumps`` of the parsed value) takes
    more of the stack per level than the parser: under a limit a few frames above what the
    parse needed, a text nested 31 deep holding a ``\\uD8xx`` escape raised ``RecursionError``
    out of ``strict_json_object`` and out of the loader, which never raises for what a file
    holds. Every limit the host may set now gives an answer."""
    text = (
        b'{"id": "x-tool", "displayName": "X", "launchable": true, "hookCapable": false,'
        b' "hookPointer": ".x/y.json", "detect": {"kind": "path", "binaryName": "x"}, "z": '
        + b"[" * 31
        + b'"\\ud83d\\ude00"'
        + b"]" * 31
        + b"}"
    )
    outcomes: set[tuple[bool, tuple[str, ...]]] = set()
    before = sys.getrecursionlimit()

    def both(data: bytes) -> tuple[bool, tuple[str, ...]]:
        parsed = strict_json_object(data)
        loaded = load_manifest_files([("a.json", "a.json")], read_file=lambda path, size: data)
        return parsed is not None, tuple(d.found for d in loaded.diagnostics)

    # From the lowest limit leaving the loader's own calls room (the same text without the
    # escape loads, or is refused as nested too deeply) to one leaving the whole text room.
    # (Once under the usual limit first: what a first call compiles and caches is done.)
    plain = text.replace(b'"\\ud83d\\ude00"', b"1")
    assert plain != text
    both(text)
    lowest = _lowest_limit_running(lambda: both(plain))
    for limit in range(lowest, lowest + 100):
        sys.setrecursionlimit(limit)
        try:
            outcomes.add(both(text))
        finally:
            sys.setrecursionlimit(before)
    # Read whole under a limit with room, refused as nested too deeply under a tighter one.
    assert (True, ("",)) in outcomes  # the unknown member "z" (a warning; the id is taken)
    assert (False, ("nested too deeply",)) in outcomes


def test_a_low_recursion_limit_never_makes_parse_third_party_manifest_raise() -> None:
    """``parse_third_party_manifest`` copies its value without recursion (so any nesting is
    bounded under any limit), but then looked for a lone surrogate by a recursive walk: under a
    low limit a value nested 30 deep raised ``RecursionError`` (it never raises for any value).
    The walk keeps its own stack, and finds the same first surrogate at the same pointer."""
    inner: object = "\ud800"
    for level in range(30):
        inner = [inner] if level % 2 else {"k/~": inner}
    value = {
        "id": "x-tool",
        "displayName": "X",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".x/y.json",
        "detect": {"kind": "path", "binaryName": "x"},
        "z": inner,
    }
    pointer = "/z" + "/0/k~1~0" * 15
    before = sys.getrecursionlimit()
    parse_third_party_manifest(value)  # (what a first call compiles and caches is done)
    # (The same calls, nested once.)
    lowest = _lowest_limit_running(lambda: parse_third_party_manifest({"z": ["\ud800"]}))
    for limit in range(lowest, lowest + 100):
        sys.setrecursionlimit(limit)
        try:
            parsed = parse_third_party_manifest(value)
        finally:
            sys.setrecursionlimit(before)
        assert [(d.code.value, d.pointer) for d in parsed.diagnostics] == [
            ("LONE_SURROGATE", pointer)
        ]

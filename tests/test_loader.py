"""The generated loader against a hostile corpus the tests build: every code, the bounds, the
sanitising, neighbours that still load, and nothing that raises or hangs."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    MANIFEST_MAX_BYTES,
    SUPPORTED_TOOLS,
    DiagnosticCode,
    LoadResult,
    Severity,
    load_third_party_manifests,
)
from tool_registry import loader as loader_module
from tool_registry.diagnostics import shown

Code = DiagnosticCode


def manifest(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "id": "aider",
        "displayName": "Aider",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".aider/hive-mind-install.json",
        "detect": {"kind": "path", "binaryName": "aider"},
        "promptArgTemplate": ["--message", "{prompt}"],
        "capabilities": {"provides": ["headless-task"]},
    }
    document.update(changes)
    return {k: v for k, v in document.items() if v is not None}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "adapters"
    path.mkdir()
    return path


def put(folder: Path, name: str, content: Any) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def codes_of(result: LoadResult, source: str) -> list[str]:
    return [d.code.value for d in result.diagnostics if d.source == source]


def only(result: LoadResult, source: str) -> Any:
    found = [d for d in result.diagnostics if d.source == source]
    assert len(found) == 1, found
    return found[0]


def test_a_valid_adapter_loads_stamped_third_party(folder: Path) -> None:
    put(folder, "aider.json", manifest(builtin=True))
    result = load_third_party_manifests(folder)
    assert result.diagnostics == ()
    (loaded,) = result.manifests
    assert loaded.id == "aider"
    assert loaded.builtin is False
    assert loaded.detect is not None
    assert loaded.detect.kind == "path"
    assert loaded.promptArgTemplate == ("--message", "{prompt}")
    assert loaded.capabilities is not None
    assert loaded.capabilities.provides == ("headless-task",)


def test_missing_folder_is_empty_and_silent(tmp_path: Path) -> None:
    assert load_third_party_manifests(tmp_path / "absent") == LoadResult((), (), ())


def test_default_folder_comes_from_the_environment(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(folder, "aider.json", manifest())
    monkeypatch.setenv("WAGGLE_ADAPTERS_DIR", str(folder))
    assert [m.id for m in load_third_party_manifests().manifests] == ["aider"]
    monkeypatch.delenv("WAGGLE_ADAPTERS_DIR")
    monkeypatch.setenv("HOME", str(folder.parent))
    assert loader_module.default_adapters_dir() == str(folder.parent / ".waggle/adapters")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"", "INVALID_JSON"),
        (b'{"id": "a"', "INVALID_JSON"),
        (b'{"id": NaN}', "INVALID_JSON"),
        (b'{"id": Infinity}', "INVALID_JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "FILE_TOO_LARGE"),
        (b"[" * 30_000 + b"]" * 30_000, "INVALID_JSON"),
        (b"1" * 5000, "INVALID_JSON"),
        (b'{"id": "a", "id": "b"}', "DUPLICATE_KEY"),
        (b'{"detect": {"kind": "path", "kind": "x"}}', "DUPLICATE_KEY"),
        (b"[]", "NOT_AN_OBJECT"),
        (b'"text"', "NOT_AN_OBJECT"),
        (b"\xff\xfe{}", "INVALID_ENCODING"),
        ("{}".encode("utf-16"), "INVALID_ENCODING"),
        (b" " * (MANIFEST_MAX_BYTES + 1), "FILE_TOO_LARGE"),
    ],
)
def test_unreadable_documents_get_their_code(folder: Path, content: bytes, code: str) -> None:
    put(folder, "bad.json", content)
    put(folder, "good.json", manifest())
    result = load_third_party_manifests(folder)
    assert codes_of(result, "bad.json") == [code]
    assert [m.id for m in result.manifests] == ["aider"], "a valid neighbour still loads"


def test_a_leading_byte_order_mark_is_tolerated(folder: Path) -> None:
    put(folder, "bom.json", b"\xef\xbb\xbf" + json.dumps(manifest()).encode())
    assert [m.id for m in load_third_party_manifests(folder).manifests] == ["aider"]


def test_exactly_the_size_limit_is_read(folder: Path) -> None:
    text = json.dumps(manifest())
    put(folder, "big.json", text + " " * (MANIFEST_MAX_BYTES - len(text)))
    assert [m.id for m in load_third_party_manifests(folder).manifests] == ["aider"]


def test_a_huge_file_is_not_read_whole(folder: Path) -> None:
    put(folder, "huge.json", b"{" + b" " * (50 * MANIFEST_MAX_BYTES))
    asked: list[int] = []

    def read_file(path: str, limit: int) -> bytes:
        asked.append(limit)
        return loader_module.read_regular_file(path, limit)

    result = load_third_party_manifests(folder, read_file=read_file)
    assert codes_of(result, "huge.json") == ["FILE_TOO_LARGE"]
    assert asked == [MANIFEST_MAX_BYTES]


def test_special_files_are_reported_and_never_block(folder: Path) -> None:
    os.mkfifo(folder / "fifo.json")
    (folder / "dir.json").mkdir()
    (folder / "dangling.json").symlink_to(folder / "nowhere")
    (folder / "null.json").symlink_to("/dev/null")
    (folder / "zero.json").symlink_to("/dev/zero")
    listener = socket.socket(socket.AF_UNIX)
    try:
        listener.bind(str(folder / "sock.json"))
        outside = put(folder.parent, "outside.json", manifest())
        (folder / "link.json").symlink_to(outside)
        result = load_third_party_manifests(folder)
    finally:
        listener.close()
    for name in ("fifo.json", "dir.json", "dangling.json", "null.json", "zero.json", "sock.json"):
        assert codes_of(result, name) == ["NOT_A_FILE"], name
    assert codes_of(result, "link.json") == [], "a link to a regular file is read"
    assert [m.id for m in result.manifests] == ["aider"]


def test_an_unreadable_file_is_reported(folder: Path) -> None:
    put(folder, "locked.json", manifest())
    put(folder, "open.json", manifest(id="other"))

    def read_file(path: str, limit: int) -> bytes:
        if path.endswith("locked.json"):
            raise PermissionError(13, "Permission denied", path)
        return loader_module.read_regular_file(path, limit)

    result = load_third_party_manifests(folder, read_file=read_file)
    assert codes_of(result, "locked.json") == ["UNREADABLE"]
    assert [m.id for m in result.manifests] == ["other"]


def test_only_json_names_in_byte_order(folder: Path) -> None:
    for name in ("b.json", "B.json", "a.json", "\u00e9.json", "z.txt", "c.JSON", "d.json.bak"):
        put(folder, name, manifest(id=f"t-{len(name)}-{ord(name[0])}"))
    result = load_third_party_manifests(folder)
    assert [f.source for f in result.files] == ["B.json", "a.json", "b.json", "\u00e9.json"]


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        ({"id": "aider;rm -rf ~"}, "/id"),
        ({"id": "$(touch x)"}, "/id"),
        ({"id": "aider\n"}, "/id"),
        ({"detect": {"kind": "path", "binaryName": "../bin/sh"}}, "/detect/binaryName"),
        ({"detect": {"kind": "path", "binaryName": "/bin/sh"}}, "/detect/binaryName"),
        ({"hookPointer": "../../.ssh/config"}, "/hookPointer"),
        ({"hookPointer": "/etc/passwd"}, "/hookPointer"),
        ({"promptArgTemplate": ["--x", "{prompt}; rm"]}, "/promptArgTemplate/1"),
        ({"promptArgTemplate": ["`id`"]}, "/promptArgTemplate/0"),
        ({"promptArgTemplate": ["--x", "../{prompt}"]}, "/promptArgTemplate/1"),
        ({"promptArgTemplate": ["--out=a/../b"]}, "/promptArgTemplate/0"),
        ({"promptArgTemplate": ["/etc/{prompt}"]}, "/promptArgTemplate/0"),
        ({"promptArgTemplate": ["C:{prompt}"]}, "/promptArgTemplate/0"),
        ({"promptArgTemplate": ["\\\\server\\share"]}, "/promptArgTemplate/0"),
    ],
)
def test_unsafe_strings(folder: Path, changes: dict[str, Any], pointer: str) -> None:
    put(folder, "evil.json", manifest(**changes))
    result = load_third_party_manifests(folder)
    diagnostic = only(result, "evil.json")
    assert (diagnostic.code, diagnostic.pointer) == (Code.UNSAFE_STRING, pointer)
    assert result.manifests == ()


@pytest.mark.parametrize(
    ("changes", "pointer", "keyword"),
    [
        ({"id": "Aider"}, "/id", "pattern"),
        ({"launchable": "yes"}, "/launchable", "type"),
        ({"displayName": ""}, "/displayName", "minLength"),
        ({"displayName": "x" * 81}, "/displayName", "maxLength"),
        ({"displayName": "Ai\u202eder"}, "/displayName", "pattern"),
        ({"detect": None}, "", "required"),
        ({"capabilities": {"provides": ["teleport"]}}, "/capabilities/provides/0", "enum"),
        (
            {"capabilities": {"provides": ["resumable", "resumable"]}},
            "/capabilities/provides",
            "uniqueItems",
        ),
        ({"promptArgTemplate": ["a"] * 21}, "/promptArgTemplate", "maxItems"),
        ({"promptArgTemplate": ["--", "-{prompt}"]}, "/promptArgTemplate/1", "pattern"),
        ({"category": "robot"}, "/category", "enum"),
    ],
)
def test_schema_violations(
    folder: Path, changes: dict[str, Any], pointer: str, keyword: str
) -> None:
    put(folder, "bad.json", manifest(**changes))
    diagnostic = only(load_third_party_manifests(folder), "bad.json")
    assert (diagnostic.code, diagnostic.pointer, diagnostic.keyword) == (
        Code.SCHEMA_VIOLATION,
        pointer,
        keyword,
    )


def test_lengths_count_code_points(folder: Path) -> None:
    put(folder, "astral.json", manifest(displayName="\U0001f600" * 80))
    put(folder, "over.json", manifest(id="other", displayName="\U0001f600" * 81))
    result = load_third_party_manifests(folder)
    assert [m.id for m in result.manifests] == ["aider"]
    assert only(result, "over.json").keyword == "maxLength"


def test_every_violation_is_reported(folder: Path) -> None:
    put(folder, "bad.json", manifest(id="Bad", launchable=1, hookCapable="no", category=3))
    found = {(d.pointer, d.keyword) for d in load_third_party_manifests(folder).diagnostics}
    assert found == {
        ("/id", "pattern"),
        ("/launchable", "type"),
        ("/hookCapable", "type"),
        ("/category", "type"),
        ("/category", "enum"),
    }


def test_candidates_detection_is_refused(folder: Path) -> None:
    put(folder, "desk.json", manifest(detect={"kind": "candidates", "paths": {"linux": ["/x"]}}))
    diagnostic = only(load_third_party_manifests(folder), "desk.json")
    assert (diagnostic.code, diagnostic.pointer) == (Code.CANDIDATES_NOT_ALLOWED, "/detect/kind")


def test_unknown_fields_warn_and_the_manifest_loads(folder: Path) -> None:
    put(folder, "newer.json", manifest(futureField={"x": 1}))
    result = load_third_party_manifests(folder)
    diagnostic = only(result, "newer.json")
    assert (diagnostic.code, diagnostic.pointer) == (Code.UNKNOWN_FIELD, "/futureField")
    assert diagnostic.severity is Severity.WARNING
    assert [m.id for m in result.manifests] == ["aider"]
    assert not hasattr(result.manifests[0], "futureField")


def test_thousands_of_unknown_keys_are_bounded(folder: Path) -> None:
    put(folder, "flood.json", manifest(**{f"k{i}": i for i in range(3000)}))
    result = load_third_party_manifests(folder)
    diagnostics = [d for d in result.diagnostics if d.source == "flood.json"]
    assert len(diagnostics) == 11
    assert [d.code for d in diagnostics[:10]] == [Code.UNKNOWN_FIELD] * 10
    assert diagnostics[10].code is Code.TOO_MANY_DIAGNOSTICS
    assert diagnostics[10].omitted == 2990
    assert [m.id for m in result.manifests] == ["aider"]


def test_errors_survive_the_bound(folder: Path) -> None:
    put(folder, "mixed.json", manifest(id="Bad", **{f"k{i}": i for i in range(20)}))
    diagnostics = load_third_party_manifests(folder).diagnostics
    assert len(diagnostics) == 11
    assert Code.SCHEMA_VIOLATION in {d.code for d in diagnostics}
    assert diagnostics[-1].omitted == 11


def test_builtin_ids_and_lookalike_names_are_refused(folder: Path) -> None:
    put(folder, "hijack.json", manifest(id="cursor", displayName="Not Cursor"))
    put(folder, "upper.json", manifest(id="c1", displayName="CLAUDE CODE"))
    put(folder, "wide.json", manifest(id="c2", displayName="\uff23\uff55\uff52\uff53\uff4f\uff52"))
    put(folder, "ligature.json", manifest(id="c3", displayName="\u210cermes Agent"))
    result = load_third_party_manifests(folder)
    assert codes_of(result, "hijack.json") == ["BUILTIN_COLLISION"]
    assert codes_of(result, "upper.json") == ["DISPLAY_NAME_COLLISION"]
    assert codes_of(result, "wide.json") == ["DISPLAY_NAME_COLLISION"]
    assert codes_of(result, "ligature.json") == ["DISPLAY_NAME_COLLISION"]
    assert result.manifests == ()
    assert tuple(m.id for m in BUILTIN_TOOL_MANIFESTS) == SUPPORTED_TOOLS


def test_every_claimant_of_a_duplicate_id_is_rejected(folder: Path) -> None:
    for name in ("one.json", "two.json", "three.json"):
        put(folder, name, manifest(displayName=name))
    put(folder, "other.json", manifest(id="other"))
    result = load_third_party_manifests(folder)
    assert [m.id for m in result.manifests] == ["other"]
    for name in ("one.json", "two.json", "three.json"):
        diagnostic = only(result, name)
        assert diagnostic.code is Code.DUPLICATE_ID
        assert set(diagnostic.others) == {"one.json", "two.json", "three.json"} - {name}


def test_deprecated_fields_warn_with_the_schema_hint(
    monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    monkeypatch.setattr(loader_module, "DEPRECATED_FIELDS", {"category": "use capabilities"})
    put(folder, "old.json", manifest(category="cli-agent"))
    result = load_third_party_manifests(folder)
    diagnostic = only(result, "old.json")
    assert (diagnostic.code, diagnostic.hint) == (Code.DEPRECATED_FIELD, "use capabilities")
    assert [m.id for m in result.manifests] == ["aider"]


def test_file_count_is_bounded(folder: Path) -> None:
    for index in range(5):
        put(folder, f"t{index}.json", manifest(id=f"t{index}", displayName=f"T{index}"))
    result = load_third_party_manifests(folder, max_files=3)
    assert [m.id for m in result.manifests] == ["t0", "t1", "t2"]
    (diagnostic,) = result.diagnostics
    assert (diagnostic.code, diagnostic.omitted) == (Code.TOO_MANY_FILES, 2)


def test_input_text_is_escaped_and_clipped(folder: Path) -> None:
    evil_key = "\x1b[31mred\u202e" + "k" * 200
    put(folder, "\x1b]0;title\x07.json", manifest(**{evil_key: 1}))
    put(folder, "value.json", manifest(id="\x1b[2J" + "x" * 300))
    result = load_third_party_manifests(folder)
    for diagnostic in result.diagnostics:
        for text in (diagnostic.source, diagnostic.pointer, diagnostic.found, diagnostic.message):
            assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c == "\u202e" for c in text)
        assert len(diagnostic.found) <= 80 + 5
        assert all(len(token) <= 83 for token in diagnostic.pointer.split("/"))
    sources = {d.source for d in result.diagnostics}
    assert "\\u001b]0;title\\u0007.json" in sources
    assert shown("\x1b") == "\\u001b"


def test_injected_file_system_and_failing_readers(tmp_path: Path) -> None:
    files = {"/a/ok.json": json.dumps(manifest()).encode(), "/a/boom.json": b""}

    def read_file(path: str, limit: int) -> bytes:
        if path.endswith("boom.json"):
            raise RuntimeError("disk on fire")
        return files[path]

    def read_dir(path: str) -> list[str]:
        assert path == "/a"
        return ["boom.json", "ok.json"]

    result = load_third_party_manifests("/a", read_dir=read_dir, read_file=read_file)
    assert [m.id for m in result.manifests] == ["aider"]
    assert codes_of(result, "boom.json") == ["UNREADABLE"]


def test_an_unlistable_folder_is_reported(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    result = load_third_party_manifests(not_a_folder)
    assert [d.code for d in result.diagnostics] == [Code.UNREADABLE]


def test_loading_is_deterministic_and_idempotent(folder: Path) -> None:
    for index in range(30):
        put(
            folder,
            f"{(index * 7) % 30:02d}.json",
            manifest(id=f"t{index}", displayName=f"T{index}"),
        )
    put(folder, "bad.json", b"{")
    first, second = load_third_party_manifests(folder), load_third_party_manifests(folder)
    assert first == second
    assert [m.id for m in first.manifests] == sorted(f"t{i}" for i in range(30))


def test_nothing_raises_on_random_bytes(folder: Path) -> None:
    import random

    generator = random.Random(1234)
    for index in range(200):
        size = generator.randrange(0, 300)
        put(folder, f"r{index:03d}.json", bytes(generator.randrange(256) for _ in range(size)))
    result = load_third_party_manifests(folder)
    assert len(result.files) == 200
    assert all(not report.accepted for report in result.files)


def test_the_runtime_hides_exactly_what_the_generator_hides() -> None:
    from generator.diagnostics import sanitize

    points = [*range(0, 0x3100), *range(0xD7F0, 0x10000), *range(0xE0000, 0xE0100)]
    for point in points:
        char = chr(point)
        if char == "\\":
            continue  # the runtime also doubles a backslash, so its escapes cannot be forged
        assert (shown(char) != char) == (sanitize(char) != char), hex(point)
    assert shown("\u202e") == "\\u202e" and shown("\U000e0041") == "\\U000e0041"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"x": {"k": 1, "k": 1}}',
        '{"x": [1, {"k": "a:b", "k": "c"}]}',
        '{"u": "https://x", "a": 1, "a": 1}',  # a colon inside a string: the strict parse decides
        '{"\\u0061": 1, "a": 2}',  # the same key spelled two ways
        '[{"a": 1}, {"b": 1, "b": 2}]',
    ],
)
def test_the_plain_parse_never_hides_a_duplicate_key(text: str) -> None:
    with pytest.raises(loader_module._DuplicateKeyError):
        loader_module._decode(text)


@pytest.mark.parametrize(
    "text", ['{"a": 1, "b": {"c": [1, {"d": null}]}}', '{"u": "https://x:1", "a": "::"}', "[]"]
)
def test_the_plain_parse_keeps_what_the_strict_parse_keeps(text: str) -> None:
    assert loader_module._decode(text) == loader_module._DECODER.decode(text)


def _decoded(decode: Callable[[str], Any], text: str) -> tuple[str, Any]:
    """What ``decode`` makes of ``text``: its value, or its error's type, message and place."""
    try:
        return "value", decode(text)
    except json.JSONDecodeError as error:
        return "syntax", (error.msg, error.pos, error.lineno, error.colno)
    except ValueError as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        ' {"a": 1}',  # white space first: the direct scan cannot start there
        '{"a": 1}\n\t \r',  # white space after the value: still the value
        '{"a": 1} x',  # extra data after the value
        '{"a": 1}{"b": 2}',
        '{"a": 1}\u00a0',  # white space JSON does not know is extra data
        '{"a": }',  # a value missing inside (the scanner's StopIteration)
        '{"a": [1, ]}',
        "",
        "   ",
        "{",
        '{"a": 1, "a": 2}',
        '{"a": NaN}',
        '{"a": 1e400}',
        '"text"',
        "[1, 2] ",
        "7",
    ],
)
def test_the_direct_scan_reads_as_decode_does(text: str) -> None:
    # The loader reads most texts with the C scanner directly: every text, read or refused,
    # must come out as ``JSONDecoder.decode`` makes it (the same value, the same error word for
    # word, at the same place).
    assert _decoded(loader_module._decode, text) == _decoded(loader_module._DECODER.decode, text)


def test_loading_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    import gc

    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            load_third_party_manifests(tmp_path)
            loader_module.load_manifest_files([("a.json", str(tmp_path / "a.json"))])
            assert gc.isenabled() is enabled
    finally:
        gc.enable()

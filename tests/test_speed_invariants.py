"""Invariants the issue-11 speed work relies on (no timings are asserted)."""

from __future__ import annotations

import gc
import json
import os
import random
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_registry import DiagnosticCode, load_third_party_manifests
from tool_registry import diagnostics as diagnostics_module
from tool_registry import loader as loader_module
from tool_registry.diagnostics import shown

from generator.ecma_to_re import translate

from .test_loader import manifest

# The promptArgTemplate items pattern's path lookahead, before and after the alternation
# ``(?:.|[\u2028\u2029])`` was merged into one character class.
_BEFORE = (
    r"^(?!(?:(?:.|[\u2028\u2029])*/)?(?:\{prompt\})*\.(?:\{prompt\})*\.(?:\{prompt\})*(?:/|$))"
)
_AFTER = r"^(?!(?:[^\n\r]*/)?(?:\{prompt\})*\.(?:\{prompt\})*\.(?:\{prompt\})*(?:/|$))"


def test_merged_character_class_matches_like_the_alternation() -> None:
    before = re.compile(translate(_BEFORE), re.ASCII)
    after = re.compile(translate(_AFTER), re.ASCII)
    pieces = ["a", "/", ".", "..", "{prompt}", "\n", "\r", "\u2028", "\u2029", "\x85", "\ud800"]
    generator = random.Random(11)
    probes = ["".join(generator.choices(pieces, k=generator.randint(0, 8))) for _ in range(5000)]
    for probe in probes:
        assert bool(before.search(probe)) == bool(after.search(probe)), repr(probe)


def test_cached_reports_are_not_changed_by_the_folder_rules(tmp_path: Path) -> None:
    """The refresh cache shares each file's report with the load (no copy): the duplicate-id
    rule must add to a copy, so a later refresh starts from the file's own outcome."""
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(
            json.dumps(manifest(id="twin", displayName="Twin")), encoding="utf-8"
        )
    first = load_third_party_manifests(str(tmp_path))
    assert [d.code for d in first.diagnostics] == [DiagnosticCode.DUPLICATE_ID] * 2
    for checked in first.cache.values():
        assert isinstance(checked, loader_module._Checked)
        assert not checked.report.errors  # the cached per-file outcome holds no DUPLICATE_ID
    (tmp_path / "b.json").unlink()
    second = load_third_party_manifests(str(tmp_path), previous=first)
    assert second.diagnostics == ()
    assert [m.id for m in second.manifests] == ["twin"]
    assert {s.state for s in second.states} == {"reused", "removed"}


def _count_calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """``os.stat``, ``os.open`` and ``os.fstat`` calls made from now on (file names; a
    descriptor for ``fstat``)."""
    calls: dict[str, list[str]] = {"stat": [], "open": [], "fstat": []}
    real_stat, real_open, real_fstat = os.stat, os.open, os.fstat

    def counted_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        calls["stat"].append(os.path.basename(os.fspath(path)))
        return real_stat(path, *args, **kwargs)

    def counted_open(path: Any, *args: Any, **kwargs: Any) -> int:
        calls["open"].append(os.path.basename(os.fspath(path)))
        return real_open(path, *args, **kwargs)

    def counted_fstat(descriptor: int) -> os.stat_result:
        calls["fstat"].append(str(descriptor))
        return real_fstat(descriptor)

    monkeypatch.setattr(os, "stat", counted_stat)
    monkeypatch.setattr(os, "open", counted_open)
    monkeypatch.setattr(os, "fstat", counted_fstat)
    return calls


def test_a_file_costs_one_open_and_one_fstat_and_a_refresh_one_stat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(manifest(id=name[0])), encoding="utf-8")
    (tmp_path / "link.json").symlink_to(tmp_path / "a.json")
    with monkeypatch.context() as patch:
        calls = _count_calls(patch)
        first = load_third_party_manifests(str(tmp_path))
        # The listing's entry type answers the pre-open check for a regular file; a link is
        # looked up (it may name anything) before it is opened. The identity is the fstat's.
        assert calls["stat"] == ["link.json"]
        assert calls["open"] == ["a.json", "b.json", "link.json"]
        assert len(calls["fstat"]) == 3
        for name in ("a.json", "b.json", "link.json"):
            status = os.stat(tmp_path / name)
            identity = (
                status.st_dev,
                status.st_ino,
                status.st_size,
                status.st_mtime_ns,
                status.st_ctime_ns,
            )
            assert first.cache[name].identity == identity
        for kind in calls.values():
            kind.clear()
        (tmp_path / "b.json").write_text(json.dumps(manifest(id="bb")), encoding="utf-8")
        os.utime(tmp_path / "b.json", ns=(1, 1))
        second = load_third_party_manifests(str(tmp_path), previous=first)
        # A refresh: one stat per name for its identity; only the changed file is opened, with
        # no second stat before opening it.
        assert sorted(calls["stat"]) == ["a.json", "b.json", "link.json"]
        assert calls["open"] == ["b.json"]
        assert len(calls["fstat"]) == 1
    assert [(s.source, s.state) for s in second.states] == [
        ("a.json", "reused"),
        ("b.json", "loaded"),
        ("link.json", "reused"),
    ]
    assert {m.id for m in second.manifests} == {"bb"}  # a and its link claim one id


def test_a_name_listed_as_a_file_but_swapped_for_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    # The listing said "regular file", so no stat precedes the open: the FIFO is opened
    # non-blocking (no writer: a blocking open would hang) and refused by the fstat.
    fifo = tmp_path / "swapped.json"
    os.mkfifo(fifo)
    with pytest.raises(loader_module.NotARegularFileError) as refused:
        loader_module._read_regular(str(fifo), 100, stat.S_IFREG)
    assert refused.value.kind == "a FIFO"


def test_a_load_hands_its_objects_to_the_oldest_generation(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(manifest()), encoding="utf-8")
    gc.collect()
    try:
        result = load_third_party_manifests(str(tmp_path))
        assert gc.isenabled() and gc.get_freeze_count() == 0
        oldest = gc.get_objects(generation=2)
        assert any(item is result.files for item in oldest)
        # A host that froze objects (say, before forking) keeps them frozen: the load then
        # restores the collector as it is, and its objects take the usual way.
        gc.freeze()
        frozen = gc.get_freeze_count()
        again = load_third_party_manifests(str(tmp_path))
        assert gc.get_freeze_count() == frozen
        assert not any(item is again.files for item in gc.get_objects(generation=2))
    finally:
        gc.unfreeze()
        gc.enable()


def _shown_by_the_loop(text: str, limit: int) -> str:
    """``shown`` as one loop over the characters (what its C-level passes must equal)."""
    pieces: list[str] = []
    length = 0
    for char in text:
        point = ord(char)
        if char == "\\":
            piece = "\\\\"
        elif diagnostics_module._HIDDEN.match(char) is None:
            piece = char
        else:
            piece = f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}"
        if length + len(piece) > limit:
            return "".join(pieces) + "..."
        pieces.append(piece)
        length += len(piece)
    return "".join(pieces)


def test_shown_escapes_like_the_character_loop() -> None:
    pieces = ["a", "\\", "\n", "\u202e", "\U000e0041", "\ud800", "\u00e9", "~", " ", "\x7f"]
    generator = random.Random(5)
    for _ in range(4000):
        text = "".join(generator.choices(pieces, k=generator.randint(0, 40)))
        limit = generator.choice([1, 5, 12, 40, 80])
        assert shown(text, limit) == _shown_by_the_loop(text, limit), (text, limit)


def _fields_of(model: object) -> dict[str, Any]:
    import dataclasses

    assert dataclasses.is_dataclass(model)
    return {f.name: getattr(model, f.name) for f in dataclasses.fields(model)}


def test_models_built_without_init_equal_the_constructors(tmp_path: Path) -> None:
    """The loader's generated builders make instances without ``__init__`` (fields written into
    the attribute dict): they must equal the constructor's in every observable way (frozen, no
    field missing or extra, the same field order)."""
    import dataclasses

    from tool_registry import PathDetect, ToolManifest
    from tool_registry.models import Capabilities

    (tmp_path / "full.json").write_text(
        json.dumps(
            manifest(
                id="full",
                displayName="Full",
                hookPackage="@acme/full-hook",
                promptArgTemplate=["--print", "{prompt}"],
                capabilities={"provides": ["headless-task", "resumable"]},
                category="cli-agent",
                library="acme",
            )
        ),
        encoding="utf-8",
    )
    (tmp_path / "bare.json").write_text(
        json.dumps(manifest(id="bare", displayName="Bare")), encoding="utf-8"
    )
    result = load_third_party_manifests(str(tmp_path))
    assert [m.id for m in result.manifests] == ["bare", "full"]
    for built in result.manifests:
        fields = _fields_of(built)
        detect = fields["detect"]
        expected = ToolManifest(
            **{
                **fields,
                "detect": PathDetect(kind=detect.kind, binaryName=detect.binaryName),
                "capabilities": None
                if fields["capabilities"] is None
                else Capabilities(provides=fields["capabilities"].provides),
            }
        )
        assert built == expected
        assert hash(built) == hash(expected)
        assert repr(built) == repr(expected)
        assert vars(built) == vars(expected)  # no field missing, none extra
        assert list(vars(built)) == list(vars(expected))  # in the constructor's order
        assert vars(built.detect) == vars(expected.detect)
        assert list(vars(built.detect)) == list(vars(expected.detect))
        assert built.builtin is False
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.id = "changed"  # type: ignore[misc]
    full = result.manifests[1]
    assert full.promptArgTemplate == ("--print", "{prompt}")
    assert full.capabilities == Capabilities(provides=("headless-task", "resumable"))


def test_models_built_without_init_keep_the_shared_key_storage() -> None:
    """Each field is written into the new instance's attribute dict as one item: the dict stays
    the class's shared-key (split) storage. A whole dict written at once (``__dict__ = ...`` or
    ``__dict__.update(...)``) would cost about 2.7 times the memory per model, which the loader's
    peak-memory target cannot afford. Allocation sizes are deterministic: no timing here."""
    import tracemalloc

    from tool_registry import ToolManifest
    from tool_registry.loader import _build_ToolManifest

    # Scalar fields only: the builder makes a new tuple or model for a list or an object.
    fields = manifest(
        id="shared",
        displayName="Shared",
        category="cli-agent",
        builtin=False,
        detect=None,
        promptArgTemplate=None,
        capabilities=None,
    )

    def allocated(build: Callable[[], object]) -> int:
        gc.collect()
        tracemalloc.start()
        kept = [build() for _ in range(2000)]
        size = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del kept
        return size

    by_constructor = allocated(lambda: ToolManifest(**fields))
    by_builder = allocated(lambda: _build_ToolManifest(fields))
    assert by_builder < 1.5 * by_constructor, (by_builder, by_constructor)


ORDER_READS = """
import {{ validateToolManifest }} from "./validator.js";
import {{ inDocumentOrder }} from "./schema-runtime.js";

// A stand-in for the parser's key-order map that counts the lookups collecting makes.
let reads = 0;
const order = {{ get(value) {{ reads += 1; return value.zzz === undefined ? undefined : ["zzz", "7"]; }} }};
const count = (document) => {{
  reads = 0;
  const records = inDocumentOrder(order, () => validateToolManifest(document));
  return [reads, records.map((record) => record.pointer)];
}};
const base = {base};
console.log(JSON.stringify([
  count({{ ...base, id: "Bad Id" }}),
  count({{ ...base, id: "Bad Id", zzz: 1, 7: 2 }}),
]));
"""


def test_collecting_builds_the_member_order_only_for_an_object_with_other_members(
    tmp_path: Path,
) -> None:
    """An invalid document whose objects hold only known members never asks for their key
    order (no key array per object on the collecting path); one with other members reports them
    in the order the parser recorded ("zzz" before "7", where JavaScript lists "7" first)."""
    from .conftest import REPO, build_typescript, run_js
    from .test_ts_hostile import BASE

    out = build_typescript(tmp_path / "ts", REPO / "generated" / "typescript")
    plain, extra = run_js(out, ORDER_READS.format(base=json.dumps(BASE)))
    assert plain == [0, ["/id"]]
    reads, pointers = extra
    assert reads >= 1
    assert pointers == ["/id", "/zzz", "/7"]


def test_a_report_and_a_state_per_file_hold_no_attribute_dict() -> None:
    """One ``FileReport`` and one ``FileState`` are kept per file: slotted, each is about half
    the size of an instance with an attribute dict (the loader's peak memory is held to a bare
    reading loop's)."""
    from tool_registry.loader import FileReport, FileState

    assert not hasattr(FileReport("a.json", True, "a", ()), "__dict__")
    assert not hasattr(FileState("a.json", "loaded"), "__dict__")


def test_reports_and_states_made_without_init_equal_the_constructors() -> None:
    """The folder loader writes each ``FileReport``'s and ``FileState``'s slots directly (no
    ``__init__``): the result must equal the constructor's in every observable way."""
    import dataclasses
    import pickle

    from tool_registry import Diagnostic
    from tool_registry.loader import FileReport, FileState, _file_report, _file_state

    records = (Diagnostic(DiagnosticCode.DUPLICATE_ID, source="a.json", pointer="/id"),)
    pairs: list[tuple[Any, Any]] = [
        (_file_report("a.json", False, None, records), FileReport("a.json", False, None, records)),
        (_file_report("b.json", True, "b", ()), FileReport("b.json", True, "b", ())),
        (_file_state("a.json", "loaded"), FileState("a.json", "loaded")),
        (_file_state("b.json", "reused"), FileState("b.json", "reused")),
    ]
    for made, constructed in pairs:
        assert type(made) is type(constructed)
        assert made == constructed
        assert hash(made) == hash(constructed)
        assert repr(made) == repr(constructed)
        assert pickle.dumps(made) == pickle.dumps(constructed)
        assert dataclasses.astuple(made) == dataclasses.astuple(constructed)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.source = "changed"


_SAME_AS_CONSTRUCTED = """
import dataclasses, json, pickle
from tool_registry import loader

def constructed(model):
    if not dataclasses.is_dataclass(model):
        return model
    values = {f.name: constructed(getattr(model, f.name)) for f in dataclasses.fields(model)}
    return type(model)(**values)

document = {
    "id": "a", "displayName": "A", "launchable": True, "hookCapable": False,
    "hookPointer": "x/y", "detect": {"kind": "path", "binaryName": "a"},
    "capabilities": {"provides": ["resumable"]}, "builtin": False,
}
built = loader._build_ToolManifest(document)
expected = constructed(built)
print(json.dumps([
    built == expected,
    list(vars(built)) == list(vars(expected)),
    pickle.dumps(built) == pickle.dumps(expected),
]))
"""


@pytest.mark.parametrize(
    "package_parent",
    [
        Path("generated/python"),
        *sorted(Path("tests/golden").glob("*/generated/python")),
    ],
    ids=str,
)
def test_every_generated_builder_gives_the_constructors_attribute_order(
    package_parent: Path,
) -> None:
    """In the special_keys case the adapter entry makes ``detect`` required: the builder wrote
    it first, so such a model's attribute dict (``vars``, iteration, pickle bytes) differed from
    the constructor's though it compared equal."""
    from .conftest import REPO, probe_python

    assert probe_python(REPO / package_parent, _SAME_AS_CONSTRUCTED) == [True, True, True]


# Edits that break a manifest in the ways the loader's records must say (each alone or with
# others): a pattern (with and without an unsafe character), a type, a missing member, an
# unknown member, a tag that names the candidates alternative, an item of a closed enum.
_BREAKS: list[dict[str, Any]] = [
    {"id": "Bad Id"},
    {"id": "aider\n"},
    {"hookPointer": "../../etc/passwd"},
    {"launchable": "yes"},
    {"displayName": ""},
    {"detect": {"kind": "candidates"}},
    {"detect": None},
    {"capabilities": {"provides": ["teleport", 3]}},
    {"promptArgTemplate": ["--x", "$(rm -rf ~)"]},
    {"extra": True},
]


def broken_manifests() -> list[dict[str, Any]]:
    """A valid manifest, then 300 broken by one to four of ``_BREAKS`` (a fixed sequence)."""
    generator = random.Random(5)
    documents = [manifest()]
    for _ in range(300):
        edits: dict[str, Any] = {}
        for edit in generator.sample(_BREAKS, generator.randint(1, 4)):
            edits.update(edit)
        documents.append(manifest(**edits))
    return documents


def _at_pointer(document: Any, pointer: str) -> Any:
    """The value a plain pointer (no escaped token) locates in ``document``."""
    for part in pointer.split("/")[1:]:
        document = document[int(part)] if isinstance(document, list) else document[part]
    return document


def test_the_loader_names_its_file_in_the_validators_records(tmp_path: Path) -> None:
    """A file's schema records are the validator's, each naming the file, with the loader's
    sharper code for a pattern whose text holds an unsafe character (decided from the raw
    violation's text, not by looking the pointer up again)."""
    from tool_registry import validate_third_party_manifest

    for index, document in enumerate(broken_manifests()):
        if isinstance(document.get("detect"), dict) and document["detect"]["kind"] == "candidates":
            continue  # the loader's own record replaces the alternative's (tested elsewhere)
        (tmp_path / "a.json").write_text(json.dumps(document), encoding="utf-8")
        loaded = load_third_party_manifests(str(tmp_path)).diagnostics
        known = {k: v for k, v in document.items() if k != "extra"}
        expected = [
            record._replace(source="a.json") for record in validate_third_party_manifest(known)
        ]
        for position, record in enumerate(expected):
            reason = None
            if record.keyword == "pattern":
                reason = loader_module._unsafe_reason(_at_pointer(known, record.pointer))
            if reason is not None:
                expected[position] = record._replace(
                    code=DiagnosticCode.UNSAFE_STRING, expected=reason
                )
        schema_records = [d for d in loaded if d.code is not DiagnosticCode.UNKNOWN_FIELD]
        assert schema_records == expected, index

"""The Python package as a consumer meets it: arguments typed by their vocabularies and checked at
run time (a typo raises a clear error, never returns nothing), type guards for untrusted values,
``parse_third_party_manifest`` for one untrusted value under exactly the loader's rules, an
``__all__`` holding every name the docstrings and README tell a consumer to use, and a ``help()``
free of ``str``'s documentation."""

from __future__ import annotations

import collections
import copy
import dataclasses
import json
import pydoc
import re
from pathlib import Path
from typing import Any

import pytest
import tool_registry
from tool_registry import (
    CAPABILITIES,
    COHORT_NAMES,
    MANIFEST_MAX_BYTES,
    SUPPORTED_TOOLS,
    DiagnosticCode,
    ParsedManifest,
    ThirdPartyToolManifest,
    UnknownCapabilityError,
    UnknownCohortError,
    get_tool_registry,
    is_capability,
    is_cohort_name,
    is_tool_id,
    load_manifest_files,
    parse_third_party_manifest,
)

from .conftest import REPO
from .test_loader import manifest

PACKAGE = REPO / "generated/python/tool_registry"
NOT_VALUES: list[object] = ["", "Cursor", "cursor ", "no-such", None, 3, b"cursor", ["cursor"], {}]


# --- type guards and typed arguments -------------------------------------------------------------


@pytest.mark.parametrize(
    ("guard", "members"),
    [(is_tool_id, SUPPORTED_TOOLS), (is_capability, CAPABILITIES), (is_cohort_name, COHORT_NAMES)],
)
def test_guards_accept_their_vocabulary_and_nothing_else(guard: Any, members: Any) -> None:
    assert members and all(guard(member) is True for member in members)
    assert not any(guard(value) for value in NOT_VALUES)
    assert not any(guard(member.upper() + "x") for member in members)


def test_a_cohort_typo_is_an_error_naming_the_cohorts(tmp_path: Path) -> None:
    registry = get_tool_registry(tmp_path)
    for name in COHORT_NAMES:
        assert registry.cohort(name) == getattr(tool_registry, name)
    for wrong in ("LAUNCH_COHORTS", "launch_cohort", "", None, ["LAUNCH_COHORT"], "\u001b[2J"):
        with pytest.raises(UnknownCohortError) as raised:
            registry.cohort(wrong)  # type: ignore[arg-type]
        message = str(raised.value)
        assert message.startswith("unknown cohort ") and all(n in message for n in COHORT_NAMES)
        assert "\u001b" not in message and raised.value.name == wrong
    assert isinstance(UnknownCohortError("x"), KeyError)  # as before: `except KeyError` holds


def test_a_capability_typo_is_an_error_not_an_empty_route(tmp_path: Path) -> None:
    registry = get_tool_registry(tmp_path)
    for capability in CAPABILITIES:
        assert registry.providers_of(capability) == tool_registry.CAPABILITY_PROVIDERS[capability]
    for wrong in ("headless", "Headless-Task", "", None, 7, ["resumable"], "x\u202ey"):
        with pytest.raises(UnknownCapabilityError) as raised:
            registry.providers_of(wrong)  # type: ignore[arg-type]
        message = str(raised.value)
        assert message.startswith("unknown capability ") and all(c in message for c in CAPABILITIES)
        assert "\u202e" not in message and raised.value.capability == wrong


# --- the exported names -------------------------------------------------------------------------


def _public_definitions() -> dict[str, str]:
    """Public classes, functions and type aliases each module of the package defines -> that
    module (limits such as ``MAX_NESTING`` are documented for reading, not called)."""
    pattern = re.compile(r"^(?:class|def) ([A-Za-z]\w*)|^([A-Za-z]\w*): TypeAlias\b", re.M)
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for match in pattern.finditer(path.read_text()):
            found.setdefault(match.group(1) or match.group(2), path.stem)
    return found


# Modules whose docstrings describe their own internals (the compiled validator's helpers, the
# look-alike table), not what a consumer calls.
INTERNAL_MODULES = {"schema_runtime", "validator", "lookalikes"}


def test_every_name_the_docs_tell_a_consumer_to_use_is_exported() -> None:
    defined = _public_definitions()
    documents = [
        path.read_text() for path in PACKAGE.glob("*.py") if path.stem not in INTERNAL_MODULES
    ]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    runtime = readme.split("## The runtime: validator, loader, registry, detection", 1)[1]
    named = {
        name for text in documents for name in re.findall(r"``([A-Za-z]\w*)(?:\(\))?``", text)
    } | set(re.findall(r"`([A-Za-z]\w*)(?:\([^`]*\))?`", runtime))
    wanted = {name for name in named if defined.get(name) not in (None, *INTERNAL_MODULES)}
    wanted |= {"NotARegularFileError", "UnknownCohortError", "parse_third_party_manifest"}
    assert wanted - set(tool_registry.__all__) == set()


def test_no_exported_name_is_only_a_builtin_type() -> None:
    builtins = (str, int, float, bool, bytes, object)
    assert [n for n in tool_registry.__all__ if getattr(tool_registry, n) in builtins] == []
    # Such aliases stay importable where they are defined.
    from tool_registry.models import Arg

    assert Arg is str


def test_help_shows_no_str_documentation() -> None:
    text = pydoc.render_doc(tool_registry, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    assert "= class str(" not in text
    # str's own methods are documented once per StrEnum class at most (Severity, the codes, …).
    enum_classes = sum(
        1
        for n in tool_registry.__all__
        if isinstance(getattr(tool_registry, n), type)
        and issubclass(getattr(tool_registry, n), str)
    )
    assert text.count("Return a copy of the string converted to lowercase.") <= enum_classes


# --- parse_third_party_manifest ------------------------------------------------------------------


def _readme_adapters() -> list[dict[str, Any]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- example-adapter: [^>]+ -->\n```json\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    return [json.loads(block) for block in blocks]


def _as_file(value: Any, folder: Path, text: str | None = None) -> tuple[Any, ...]:
    path = folder / "x.json"
    path.write_text(json.dumps(value) if text is None else text, encoding="utf-8")
    result = load_manifest_files([("x.json", str(path))])
    return result.manifests, tuple(d._replace(source="") for d in result.diagnostics)


@pytest.mark.parametrize("index", [0, 1])
def test_the_readme_adapters_parse_to_typed_manifests(index: int, tmp_path: Path) -> None:
    value = _readme_adapters()[index]
    before = copy.deepcopy(value)
    parsed = parse_third_party_manifest(value, source="adapter.json")
    assert isinstance(parsed, ParsedManifest) and parsed.accepted
    assert type(parsed.manifest) is ThirdPartyToolManifest
    assert parsed.manifest.builtin is False and parsed.diagnostics == ()
    (loaded,), _ = _as_file(value, tmp_path)
    assert dataclasses.asdict(parsed.manifest) == dataclasses.asdict(loaded)
    assert value == before  # never changed
    # The source may be given in place, as the README writes it and TypeScript takes it.
    assert parse_third_party_manifest(value, "adapter.json") == parsed


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


CASES: dict[str, Any] = {
    "unknown field": manifest(extra=1, other={"x": [1]}),
    "candidates": manifest(detect={"kind": "candidates"}),
    "built-in id": manifest(id=SUPPORTED_TOOLS[0]),
    "look-alike name": manifest(displayName="C\u0443rsor"),
    "violations": manifest(id="Bad Id", launchable="yes", hookPointer="/etc/passwd"),
    "unsafe": manifest(promptArgTemplate=["$(rm -rf ~)", "../x"]),
    "many problems": {f"k{i}": i for i in range(50)},
    "not an object": [manifest()],
    "a string": "aider",
    "null": None,
    "lone surrogate": manifest(displayName="x\ud800"),
    "deep": {"a": _nested(40)},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_value_gets_what_a_file_of_it_gets(case: str, tmp_path: Path) -> None:
    """The same diagnostics, in the same order, as the loader gives the file `json.dumps` makes
    of the value (a file's name aside), and the same acceptance."""
    value = CASES[case]
    parsed = parse_third_party_manifest(value)
    loaded, diagnostics = _as_file(value, tmp_path)
    if case == "deep":  # the file is refused before parsing, as a whole; the value where it nests
        assert [d.code for d in parsed.diagnostics] == [d.code for d in diagnostics]
    else:
        assert parsed.diagnostics == diagnostics
    assert parsed.accepted == bool(loaded)


def _cyclic_dict() -> dict[str, Any]:
    value: dict[str, Any] = manifest()
    value["capabilities"] = {"provides": value}
    return value


def _cyclic_list() -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


def _shared(depth: int, width: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value] * width  # width**depth leaves, only `depth` lists
    return value


class _Exploding(dict[str, Any]):
    def items(self) -> Any:
        raise RuntimeError("a method of the value ran")

    def __iter__(self) -> Any:
        raise RuntimeError("a method of the value ran")


class _Text(str):
    __hash__ = str.__hash__  # a dict key must hash; every other method of its own fails

    def __len__(self) -> int:
        raise RuntimeError("a method of the value ran")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("a method of the value ran")

    def __str__(self) -> str:
        raise RuntimeError("a method of the value ran")


HOSTILE: dict[str, tuple[Any, DiagnosticCode]] = {
    "cyclic object": (_cyclic_dict(), DiagnosticCode.INVALID_JSON),
    "cyclic array": ({"id": _cyclic_list()}, DiagnosticCode.INVALID_JSON),
    "shared, exponential": ({"id": _shared(30, 30)}, DiagnosticCode.VALUE_TOO_LARGE),
    "a million items": ({"id": [0] * 1_000_000}, DiagnosticCode.VALUE_TOO_LARGE),
    "a million keys": ({str(i): 0 for i in range(1_000_000)}, DiagnosticCode.VALUE_TOO_LARGE),
    "a long string": (
        manifest(displayName="x" * (MANIFEST_MAX_BYTES + 1)),
        DiagnosticCode.VALUE_TOO_LARGE,
    ),
    "many strings": ({"id": ["x" * 1000] * 100}, DiagnosticCode.VALUE_TOO_LARGE),
    "nested 100000 deep": ({"id": _shared(100_000, 1)}, DiagnosticCode.INVALID_JSON),
    "a set": (manifest(capabilities={"provides": {"resumable"}}), DiagnosticCode.INVALID_JSON),
    "a tuple": (manifest(promptArgTemplate=("x",)), DiagnosticCode.INVALID_JSON),
    "bytes": (manifest(id=b"aider"), DiagnosticCode.INVALID_JSON),
    "NaN": (manifest(id=float("nan")), DiagnosticCode.INVALID_JSON),
    "infinity": (manifest(id=float("-inf")), DiagnosticCode.INVALID_JSON),
    "a huge integer": (manifest(id=10**5000), DiagnosticCode.INVALID_JSON),
    "a non-string key": ({**manifest(), 1: "x"}, DiagnosticCode.INVALID_JSON),
    "a dict subclass": (_Exploding(manifest()), DiagnosticCode.INVALID_JSON),
    "an OrderedDict": (collections.OrderedDict(manifest()), DiagnosticCode.INVALID_JSON),
    "a str subclass": (manifest(id=_Text("aider")), DiagnosticCode.INVALID_JSON),
    "a str subclass key": ({**manifest(), _Text("x"): 1}, DiagnosticCode.INVALID_JSON),
    "a function": (manifest(id=print), DiagnosticCode.INVALID_JSON),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_values_are_refused_with_bounded_work(case: str) -> None:
    value, code = HOSTILE[case]
    parsed = parse_third_party_manifest(value, source="host:\u001b[31m")
    assert not parsed.accepted and parsed.manifest is None
    assert [d.code for d in parsed.diagnostics] == [code]
    (diagnostic,) = parsed.diagnostics
    assert diagnostic.source == "host:\\u001b[31m"  # the name is shown escaped too
    assert "\u001b" not in diagnostic.message


def test_the_refusal_says_where_and_what() -> None:
    parsed = parse_third_party_manifest(manifest(capabilities={"provides": ["x", {1, 2}]}))
    (diagnostic,) = parsed.diagnostics
    assert diagnostic.pointer == "/capabilities/provides/1"
    assert diagnostic.message.endswith("a set, which is not a JSON value")
    (size,) = parse_third_party_manifest({"a": {"b": [0] * MANIFEST_MAX_BYTES}}).diagnostics
    assert size.pointer == "/a/b" and str(MANIFEST_MAX_BYTES // 2) in size.message

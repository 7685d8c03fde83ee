"""Hostile values given to the Python runtime's entry points: ``parse_third_party_manifest``
bounds work and memory by what a file of the size limit could hold, and runs no code of the
value (not even of its type)."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    CAPABILITIES,
    COHORT_NAMES,
    MANIFEST_MAX_BYTES,
    SUPPORTED_TOOLS,
    DiagnosticCode,
    UnknownCapabilityError,
    UnknownCohortError,
    UnknownToolError,
    get_tool_registry,
    hook_package_for,
    is_capability,
    is_cohort_name,
    is_tool_id,
    parse_third_party_manifest,
)
from tool_registry.loader import MAX_VALUE_NODES

Code = DiagnosticCode
# O(the limit): a few hundred bytes per value a file of the size limit could hold.
BOUND = MAX_VALUE_NODES * 384


def peak_bytes(value: object) -> int:
    tracemalloc.start()
    try:
        parse_third_party_manifest(value)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_key_over_many_members_costs_no_pointer_per_member() -> None:
    # Each pending member used to hold its own copy of the parent's pointer: a key of 16,000
    # characters over 3,000 items held 48 MB (at the limits: gigabytes).
    value = {"x" * (MANIFEST_MAX_BYTES // 4): [None] * 3000}
    assert peak_bytes(value) < BOUND


def test_every_value_counts_against_the_limit() -> None:
    # Scalars after the last container were never counted: 40,000 values were accepted as an
    # unknown field although no file of the size limit can hold them.
    half = MAX_VALUE_NODES * 2 // 3
    value: dict[str, Any] = {"id": "x", "extra": [[None] * half, *([None] * half)]}
    parsed = parse_third_party_manifest(value)
    assert not parsed.accepted
    assert [d.code for d in parsed.diagnostics] == [Code.VALUE_TOO_LARGE]
    assert len(json.dumps(value, separators=(",", ":"))) > MANIFEST_MAX_BYTES


def test_wide_shared_levels_stay_bounded() -> None:
    level: list[Any] = [None] * 4
    for _ in range(30):
        level = [level] * (MAX_VALUE_NODES // 4)
    parsed = parse_third_party_manifest({"k": level})
    assert [d.code for d in parsed.diagnostics] == [Code.VALUE_TOO_LARGE]
    assert peak_bytes({"k": level}) < BOUND


RAN: list[str] = []


class NamedByCode(type):
    @property
    def __name__(cls) -> str:  # type: ignore[override]
        RAN.append("__name__")
        raise RuntimeError("the value's type ran")


class Hostile(metaclass=NamedByCode):
    pass


def test_no_code_of_the_value_s_type_runs() -> None:
    for value in ({"id": Hostile()}, {Hostile(): 1}, Hostile(), [Hostile()]):
        parsed = parse_third_party_manifest(value)
        assert [d.code for d in parsed.diagnostics] == [Code.INVALID_JSON]
        assert "Hostile" in parsed.diagnostics[0].found
    assert RAN == []


def test_a_refusal_is_located_at_the_deep_member() -> None:
    value = {"a/b": [0, {"~k": float("nan")}]}
    (found,) = parse_third_party_manifest(value).diagnostics
    assert found.code is Code.INVALID_JSON
    assert found.pointer == "/a~1b/1/~0k"


class RunsOnCompare(str):
    """Text whose hash and comparisons are code of the caller's value."""

    def __hash__(self) -> int:
        RAN.append("__hash__")
        raise RuntimeError("the value's __hash__ ran")

    def __eq__(self, other: object) -> bool:
        RAN.append("__eq__")
        raise RuntimeError("the value's __eq__ ran")


class PosesAsText:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        RAN.append("__class__")
        return str

    def __repr__(self) -> str:
        RAN.append("__repr__")
        raise RuntimeError("the value's __repr__ ran")


def test_typed_lookups_run_no_code_of_the_argument() -> None:
    registry = get_tool_registry(str(Path(__file__).parent / "no-such-folder"))
    text: Callable[[str], Any] = RunsOnCompare
    cohort = COHORT_NAMES[0]
    capability = CAPABILITIES[0]
    RAN.clear()
    assert is_cohort_name(text(cohort))
    assert is_capability(text(capability))
    assert is_tool_id(text(SUPPORTED_TOOLS[0]))
    assert registry.cohort(text(cohort)) == registry.cohort(cohort)
    assert registry.providers_of(text(capability)) == registry.providers_of(capability)
    assert registry.get(text(SUPPORTED_TOOLS[0])) == registry.get(SUPPORTED_TOOLS[0])
    assert hook_package_for(text(SUPPORTED_TOOLS[0])) == hook_package_for(SUPPORTED_TOOLS[0])
    values: list[Any] = [PosesAsText(), Hostile(), [cohort], {}, text("\u202enope")]
    for value in values:
        assert not (is_cohort_name(value) or is_capability(value) or is_tool_id(value))
        calls: tuple[tuple[Callable[[Any], object], type[Exception]], ...] = (
            (registry.cohort, UnknownCohortError),
            (registry.providers_of, UnknownCapabilityError),
            (hook_package_for, UnknownToolError),
        )
        for call, error in calls:
            with pytest.raises(error) as raised:
                call(value)
            message = str(raised.value)
            assert message.isascii() and message.isprintable()
    assert RAN == []

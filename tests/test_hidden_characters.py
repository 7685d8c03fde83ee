"""The characters never shown raw, in the generator's messages and the generated runtime's
alike, are exactly Unicode's invisible classes: the literal table is checked against Unicode's
property tables here, so it can neither drift nor miss a member of a class."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tool_registry.diagnostics import shown

from generator import lookalikes
from generator.diagnostics import HIDDEN_RANGES, sanitize


def test_the_table_is_every_control_format_separator_ignorable_and_blank() -> None:
    expected = lookalikes.merged(
        lookalikes.property_ranges("Cc"),
        lookalikes.property_ranges("Cf"),
        lookalikes.property_ranges("Zl"),
        lookalikes.property_ranges("Zp"),
        lookalikes.invisible_ranges(),
        ((0xD800, 0xDFFF),),
    )
    assert expected == HIDDEN_RANGES


def test_every_hidden_character_is_escaped_by_both_renderers() -> None:
    hidden = [chr(c) for first, last in HIDDEN_RANGES for c in range(first, last + 1)]
    for char in hidden:
        for rendered in (shown(f"a{char}b"), sanitize(f"a{char}b")):
            assert char not in rendered, (hex(ord(char)), rendered)
            rendered.encode("utf-8")  # never raises: a surrogate is escaped too


def test_ordinary_text_is_shown_as_it_is() -> None:
    for text in ("Claude Code", "caf\u00e9", "\u65e5\u672c\u8a9e", "\U0001f600 ok", "a\u00a0b"):
        assert shown(text) == text


def test_escapes_cannot_be_forged_with_literal_backslashes() -> None:
    real = shown("a\u202egnp.json")
    forged = shown("a\\u202egnp.json")
    assert real != forged
    assert forged == "a\\\\u202egnp.json"


def test_a_huge_integer_is_described_not_printed() -> None:
    """Numbers are spelled as TypeScript's doubles are (one text for one number in both
    languages); an integer past the largest double is ``inf``, with no decimal text built."""
    from tool_registry.diagnostics import shown_value

    assert shown_value(10**4000) == "inf"
    assert shown_value(-(10**400)) == "-inf"
    assert shown_value(12345) == "12345"
    assert shown_value(2**53 + 1) == "9007199254740992"  # the double JSON.parse makes of it
    assert shown_value(12345678901234567890) == "12345678901234567000"
    assert shown_value(1.0) == "1"
    assert shown_value(-0.0) == "0"
    assert shown_value(1e16) == "10000000000000000"
    assert shown_value(1e21) == "1e+21"
    assert shown_value(1e-7) == "1e-7"
    assert shown_value(0.000001) == "0.000001"
    assert shown_value(1.5e300) == "1.5e+300"


def test_counts_read_in_the_singular_for_one() -> None:
    from tool_registry import validate_tool_manifest
    from tool_registry.diagnostics import shown_value

    assert shown_value({"a": 1}) == "an object with 1 key"
    assert shown_value({}) == "an object with 0 keys"
    assert shown_value([1]) == "an array of 1 item"
    assert shown_value([1, 2]) == "an array of 2 items"
    # The validator's own (inline) spelling of a found object agrees.
    found = {record.found for record in validate_tool_manifest({"id": "x"})}
    assert "an object with 1 key" in found


def test_long_file_names_stay_distinguishable(tmp_path: Path) -> None:
    from tool_registry import load_third_party_manifests

    stem = "x" * 150
    for suffix in ("a", "b"):
        (tmp_path / f"{stem}{suffix}.json").write_text("[]")
    sources = [report.source for report in load_third_party_manifests(tmp_path).files]
    assert len(set(sources)) == 2


def test_display_names_refuse_every_hidden_character() -> None:
    """The schema's displayName pattern names the same set (lone surrogates aside: no regex
    engine can name them portably, and every string refuses them anyway)."""
    from tool_registry import validate_tool_manifest
    from tool_registry.constants import BUILTIN_TOOL_MANIFESTS

    plain = json.loads(json.dumps(dataclasses.asdict(BUILTIN_TOOL_MANIFESTS[0])))
    base = {key: value for key, value in plain.items() if value is not None}
    for first, last in HIDDEN_RANGES:
        for point in {first, last}:
            document = {**base, "displayName": f"Tool{chr(point)}Name"}
            assert validate_tool_manifest(document), hex(point)
    assert validate_tool_manifest({**base, "displayName": "Tool\u00a0Name \u00e9"}) == ()

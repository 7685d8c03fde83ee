"""The characters never shown raw, in the generator's messages and the generated runtime's
alike, are exactly Unicode's invisible classes: the literal table is checked against Unicode's
property tables here, so it can neither drift nor miss a member of a class."""

from __future__ import annotations

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

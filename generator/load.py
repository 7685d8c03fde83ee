"""Load stage: the only module that reads input files.

``load_yaml`` and ``load_json`` turn a file into plain JSON-compatible Python values and, for YAML,
a map from JSON pointer to the ``(line, column)`` where each node starts. They never raise for bad
input: they return a ``Loaded`` whose ``value`` is ``None`` and whose diagnostics say why.

YAML is read in a deliberately small subset: anchors and aliases are refused (no alias bombs, no
shared nodes), explicit tags other than YAML's own core types are refused (no object construction),
duplicate keys are errors (PyYAML would silently keep the last), keys must be strings, and only
JSON's value types are produced (timestamps, binary, sets, NaN and infinities are refused).

A file reports at most ``MAX_DIAGNOSTICS_PER_FILE`` problems: the next one stops its reading there
(``TOO_MANY_DIAGNOSTICS``, no value), so a hostile file costs a bounded number of records.
"""

from __future__ import annotations

import bisect
import codecs
import dataclasses
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml

from generator.diagnostics import (
    MAX_DIAGNOSTICS_PER_FILE,
    Code,
    Diagnostic,
    describe,
    has_errors,
    limited,
    pointer_of,
    sort_key,
    too_many_problems,
)
from generator.files import read_file

Position = tuple[int, int]
_PositionMaps = tuple[Mapping[str, Position], Mapping[str, Position]]

_YAML_TAG = "tag:yaml.org,2002:"
_MAP_TAG = _YAML_TAG + "map"
_SEQ_TAG = _YAML_TAG + "seq"
_SCALAR_TAGS = {_YAML_TAG + name for name in ("str", "int", "float", "bool", "null")}
# YAML's own types that are harmless but have no JSON equivalent; any other tag is unsafe.
# ("value" is PyYAML's reading of a plain `=`, "merge" of a `<<` that is not a key.)
_NON_JSON_TAGS = {
    _YAML_TAG + name for name in ("timestamp", "binary", "set", "omap", "pairs", "value", "merge")
}


@dataclass(frozen=True)
class Loaded:
    """A parsed document: ``value`` is ``None`` when it could not be read or parsed at all.

    A YAML document that parses but holds refused values (an alias, a YAML 1.1/1.2 ambiguity, a
    number JSON cannot carry, ...) keeps a ``value``: each refused node is replaced by a
    placeholder (its text, or ``None``) and its pointer is listed in ``refused``, so later checks
    still run on everything else and skip what stands on a placeholder. A JSON document with a
    refused number or a repeated key has no ``value``; all its such problems are reported (up to
    the per-file limit, then one record saying checking stopped).

    Node positions come from ``locate``, called at most once and only when a diagnostic needs a
    location (for JSON that means a second, slower reading of the text).
    """

    source: str
    value: Any
    diagnostics: tuple[Diagnostic, ...] = ()
    locate: Callable[[], _PositionMaps] | None = field(default=None, repr=False, compare=False)
    _located: list[_PositionMaps] = field(default_factory=list, repr=False, compare=False)
    refused: frozenset[str] = frozenset()

    def _maps(self) -> _PositionMaps:
        if not self._located:
            self._located.append(self.locate() if self.locate else ({}, {}))
        return self._located[0]

    def position_of(self, pointer: str) -> Position | None:
        """Start of the node at ``pointer``, or of its nearest located ancestor."""
        positions = self._maps()[0]
        while True:
            if pointer in positions:
                return positions[pointer]
            if not pointer:
                return None
            pointer = pointer.rsplit("/", 1)[0]

    def key_position_of(self, pointer: str) -> Position | None:
        """Start of the mapping key whose value is at ``pointer``."""
        return self._maps()[1].get(pointer)

    def stands_on_refused(self, pointer: str | None) -> bool:
        """Whether ``pointer`` is a refused node or lies inside one (its finding would be about
        the placeholder, not the input)."""
        if pointer is None or not self.refused:
            return False
        while True:
            if pointer in self.refused:
                return True
            if not pointer:
                return False
            pointer = pointer.rsplit("/", 1)[0]


class _Refusal(Exception):
    """Internal: a located reason to reject the whole document (never escapes this module)."""

    def __init__(self, code: Code, message: str, mark: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark


class _TooManyProblems(Exception):
    """Internal: a file's problems reached ``MAX_DIAGNOSTICS_PER_FILE``; reading stops at the
    next one (``line``, ``column``)."""

    def __init__(self, line: int | None, column: int | None) -> None:
        super().__init__(line, column)
        self.line = line
        self.column = column


class _Problems(list[Diagnostic]):
    """One file's problems, at most ``MAX_DIAGNOSTICS_PER_FILE``: appending one more raises
    ``_TooManyProblems`` at its position, so reading stops while the file is read (a file of a
    million aliases holds a thousand records, not a million). The YAML readers' loader and
    builder share one.

    With ``only`` (the reading of a JSON file for its node positions, which must read to the
    end), records of that code alone are kept, one past the limit at most (enough to say there
    are more), and reading never stops."""

    def __init__(self, only: Code | None = None) -> None:
        super().__init__()
        self.only = only

    def append(self, diagnostic: Diagnostic) -> None:
        if self.only is not None:
            if diagnostic.code is self.only and len(self) <= MAX_DIAGNOSTICS_PER_FILE:
                super().append(diagnostic)
            return
        if len(self) >= MAX_DIAGNOSTICS_PER_FILE:
            raise _TooManyProblems(diagnostic.line, diagnostic.column)
        super().append(diagnostic)


def _stopped(source: str, problems: list[Diagnostic], stop: _TooManyProblems) -> Loaded:
    """A file whose reading stopped at the problem limit: its problems (in file order), then
    the record saying where reading stopped; no value (nothing later reads a half-read file)."""
    kept = sorted((dataclasses.replace(p, source=source) for p in problems), key=sort_key)
    return Loaded(source, None, (*kept, too_many_problems(stop.line, stop.column, source)))


# The tag of a placeholder node standing where the composer refused an alias.
_REFUSED_TAG = "!toolgen-refused"


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader whose composer never follows an alias or records an anchor: each is reported
    (``problems``) and composing goes on, an alias becoming a placeholder node."""

    def __init__(self, stream: str, problems: _Problems) -> None:
        super().__init__(stream)
        self.problems: list[Diagnostic] = problems
        # Scalars written with an explicit tag (`!!str 1e3`): a node alone cannot tell.
        self.explicitly_tagged: set[int] = set()
        # Scalars written with the non-specific tag `!` (`! true`): PyYAML resolves them like a
        # plain scalar (a boolean), YAML 1.2 makes them strings; refused (see ``_build_scalar``).
        self.non_specific: set[int] = set()
        self._depth = 0

    def compose_scalar_node(self, anchor: dict[Any, yaml.Node]) -> yaml.ScalarNode:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        node: yaml.ScalarNode = super().compose_scalar_node(anchor)
        if event.tag not in (None, "!"):
            self.explicitly_tagged.add(id(node))
        elif event.tag == "!":
            self.non_specific.add(id(node))
        return node

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            # Bounded before anything recurses (the composer, the builder, every later stage
            # walking the value): reported where the first too-deep collection starts.
            self._depth += 1
            if self._depth > MAX_NESTING:
                raise _Refusal(
                    Code.YAML_SYNTAX,
                    f"nesting is too deep (more than {MAX_NESTING} levels)",
                    event.start_mark,
                )
            try:
                return self._compose_unbounded(event, parent, index)
            finally:
                self._depth -= 1
        return self._compose_unbounded(event, parent, index)

    def _compose_unbounded(
        self, event: Any, parent: yaml.Node | None, index: int
    ) -> yaml.Node | None:
        if isinstance(event, yaml.AliasEvent):
            self.get_event()  # type: ignore[no-untyped-call]
            self._problem("aliases (*name) are not allowed", event.start_mark)
            mark = cast(yaml.Mark, event.start_mark)
            return yaml.ScalarNode(_REFUSED_TAG, "", mark, mark)
        if getattr(event, "anchor", None) is not None:
            self._problem("anchors (&name) are not allowed", event.start_mark)
            event.anchor = None  # never registered: no alias can reach it, no clash with another
        return super().compose_node(parent, index)

    def _problem(self, message: str, mark: Any) -> None:
        line, column = _position(mark)
        self.problems.append(Diagnostic(Code.YAML_ALIAS, message, "", line, column))

    def scan_flow_scalar_non_spaces(self, double: bool, start_mark: Any) -> list[str]:
        """PyYAML's own, with an escape naming no character (``"\\U00110000"``, beyond U+10FFFF) a
        located syntax error: PyYAML passes its code to ``chr``, whose ``ValueError`` escaped
        every handler (libyaml refuses it, and its refusals are read again here)."""
        try:
            chunks: list[str] = super().scan_flow_scalar_non_spaces(double, start_mark)
        except (ValueError, OverflowError):  # OverflowError: past a C int (\\UFFFFFFFF)
            raise yaml.scanner.ScannerError(
                "while scanning a double-quoted scalar",
                start_mark,
                "found an escape beyond U+10FFFF, which names no Unicode character",
                self.get_mark(),
            ) from None
        return chunks


def _position(mark: Any) -> Position:
    return (mark.line + 1, mark.column + 1)


def read_bytes(path: Path, source: str) -> tuple[bytes | None, tuple[Diagnostic, ...]]:
    """A source file's bytes; a diagnostic instead of an exception on failure."""
    try:
        return read_file(path), ()
    except FileNotFoundError:
        return None, (Diagnostic(Code.FILE_NOT_FOUND, "file not found", source),)
    except OSError as error:
        return None, (unreadable(error, source),)


def read_text(
    path: Path, source: str, *, keep_bom: bool = False
) -> tuple[str | None, tuple[Diagnostic, ...]]:
    """Read a UTF-8 text file (BOM tolerated); a diagnostic instead of an exception on failure.
    ``keep_bom``: a byte order mark stays at the start of the text (``U+FEFF``), for a caller
    that writes the file back (``add-tool``) and must keep its every byte."""
    data, problems = read_bytes(path, source)
    if data is None:
        return None, problems
    text, problems = decode_text(data, source)
    if keep_bom and text is not None and data.startswith(codecs.BOM_UTF8):
        text = "\ufeff" + text
    return text, problems


def unreadable(error: OSError, source: str) -> Diagnostic:
    """Why the source could not be read (its ``strerror``, else the error's type)."""
    reason = describe(error.strerror or type(error).__name__)
    return Diagnostic(Code.UNREADABLE, f"cannot read file: {reason}", source)


def decode_text(data: bytes, source: str) -> tuple[str | None, tuple[Diagnostic, ...]]:
    """A source file's bytes as text (UTF-8, BOM tolerated), or why they are not."""
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError as error:
        message = f"not valid UTF-8 (byte offset {error.start})"
        # Located as every other finding is, at the first byte that does not decode (the column
        # counts the characters before it on its line, as a parser's column does).
        # (utf-8-sig counts the offset from after a byte order mark, as the runtime loader does.)
        before = data.removeprefix(codecs.BOM_UTF8)[: error.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        return None, (Diagnostic(Code.INVALID_ENCODING, message, source, line, column),)


# YAML 1.2.2's core schema (section 10.3.2), in resolution order; a plain scalar matching none is
# a string. PyYAML implements YAML 1.1, whose resolvers differ (yes/no/on/off, 0777 octal, 1_000,
# 1:30 sexagesimal, 0b1, .5 without a sign only, exponents only with a sign and a dot, no 0o17).
# Every scalar is read both ways and refused when the readings differ: an editor (YAML 1.2) must
# see what toolgen sees.
_CORE_1_2: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("null", re.compile(r"null|Null|NULL|~|")),
    ("bool", re.compile(r"true|True|TRUE|false|False|FALSE")),
    ("int", re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")),
    (
        "float",
        re.compile(
            r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
        ),
    ),
)
_CORE_1_2_BY_KIND = dict(_CORE_1_2)
# Integers JavaScript (so TypeScript and every JSON tool built on it) holds exactly.
MAX_SAFE_INTEGER = 2**53 - 1
# A UTF-16 surrogate code point: a str holding one has no UTF-8 encoding (refused, as I-JSON does).
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


_SURROGATE_HINT = "write the character itself, or an astral one as one \\U escape in YAML"
# The same advice for a JSON file, which has no \U escape: an astral character is a pair.
_JSON_SURROGATE_HINT = (
    "write the character itself, or an astral one as a surrogate pair (\\ud83d\\ude00)"
)


def _escaped(text: str) -> str:
    """``text`` with any lone surrogate as a backslash escape (a pointer must stay printable)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _surrogate_message(text: str) -> str:
    return (
        f"{describe(text)} holds a lone surrogate, which has no UTF-8 encoding (I-JSON, RFC 7493)"
    )


# Python refuses to convert longer decimal integers (its int_max_str_digits default); fixed here
# so the verdict does not depend on PYTHONINTMAXSTRDIGITS.
MAX_INT_DIGITS = 4300


def _kind_in_yaml_1_2(text: str) -> str:
    for kind, pattern in _CORE_1_2:
        if pattern.fullmatch(text):
            return kind
    return "str"


def _value_in_yaml_1_2(kind: str, text: str) -> Any:
    if kind == "null":
        return None
    if kind == "bool":
        return text.lower() == "true"
    if kind == "int":
        if text.startswith(("0o", "0x")):
            return int(text[2:], 8 if text[1] == "o" else 16)
        return int(text)
    lowered = text.lower()
    if lowered.lstrip("+-") == ".inf":
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(text)


_NON_SPECIFIC_MESSAGE = (
    "{what} {text} has the non-specific tag `!`: YAML 1.1 (PyYAML) resolves it like a plain"
    " scalar, YAML 1.2 (editors) reads it as a string"
)
_NON_SPECIFIC_HINT = "drop the `!`, or quote the scalar to make it a string"

# Collections may nest this deep in a YAML or JSON source (the manifest schema needs about a
# dozen levels); deeper input is refused, located, before any stage walks it recursively.
MAX_NESTING = 64

# Line breaks to YAML 1.1 (PyYAML) but ordinary characters to YAML 1.2 (editors): NEL, LINE
# SEPARATOR, PARAGRAPH SEPARATOR. Anywhere in the text they change what is read (a quoted
# scalar is folded, a plain one or a comment is cut in two), so each one is refused.
_YAML_1_1_BREAKS = re.compile("[\x85\u2028\u2029]")


def _yaml_1_1_breaks(text: str, source: str) -> Iterator[Diagnostic]:
    """A located diagnostic for each character YAML 1.1 and 1.2 disagree is a line break, found
    as asked for (``limited`` stops asking past the limit). Lines are counted from the previous
    match on, so the text is scanned once (counting from the start for each match was
    quadratic in a file of such characters)."""
    line, line_start, previous = 1, 0, 0
    for match in _YAML_1_1_BREAKS.finditer(text):
        start = match.start()
        newlines = text.count("\n", previous, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", previous, start) + 1
        previous = start
        yield Diagnostic(
            Code.YAML_UNSUPPORTED_VALUE,
            f"character {describe(match.group())} is a line break to YAML 1.1 (PyYAML) but"
            " not to YAML 1.2 (editors); it is not allowed",
            source,
            line,
            start - line_start + 1,
            hint="in a double-quoted scalar write it as the escape \\N, \\L or \\P",
        )


class _YamlBuilder:
    """Turns a composed node tree into JSON values, recording where each node starts and every
    refused node (a problem plus a placeholder), so one run reports all of them."""

    def __init__(self, loader: _NoAliasLoader | _EventLoader) -> None:
        self._loader = loader
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}
        self.problems = loader.problems  # one bounded list: the file's problems, at most so many
        self.refused: set[str] = set()

    def _refuse(
        self, code: Code, message: str, node: yaml.Node, pointer: str, *, hint: str | None = None
    ) -> None:
        line, column = _position(node.start_mark)
        self.problems.append(Diagnostic(code, message, "", line, column, pointer, hint=hint))
        self.refused.add(pointer)

    def build(self, node: yaml.Node, path: tuple[str | int, ...]) -> Any:
        pointer = pointer_of(path)
        self.positions[pointer] = _position(node.start_mark)
        if isinstance(node, yaml.MappingNode):
            value: Any = self._build_mapping(node, path)
            return value if self._tag_allowed(node, _MAP_TAG, pointer) else None
        if isinstance(node, yaml.SequenceNode):
            value = [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
            return value if self._tag_allowed(node, _SEQ_TAG, pointer) else None
        if not isinstance(node, yaml.ScalarNode):
            raise _Refusal(Code.YAML_SYNTAX, "unexpected node", node.start_mark)
        if node.tag == _REFUSED_TAG:  # an alias: the composer reported it
            self.refused.add(pointer)
            return None
        return self._build_scalar(node, pointer)

    def _build_mapping(self, node: yaml.MappingNode, path: tuple[str | int, ...]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self._build_key(key_node, pointer_of(path))
            if key is None:
                continue
            key_pointer = pointer_of((*path, key))
            if key in result:
                first_line = self.key_positions[key_pointer][0]
                line, column = _position(key_node.start_mark)
                self.problems.append(
                    Diagnostic(
                        Code.DUPLICATE_KEY,
                        f"key {describe(key)} repeats the key on line {first_line}",
                        "",
                        line,
                        column,
                        key_pointer,
                    )
                )
                continue  # the first value stands; the repeat is only reported
            self.key_positions[key_pointer] = _position(key_node.start_mark)
            result[key] = self.build(value_node, (*path, key))
            if self._ambiguous_key(key_node):
                self._refuse(
                    Code.YAML_UNSUPPORTED_VALUE,
                    f"key {describe(key)} is a string to YAML 1.1 but a"
                    f" {_kind_in_yaml_1_2(key)} to YAML 1.2 (and editors)",
                    key_node,
                    key_pointer,
                    hint="quote it",
                )
        return result

    def _ambiguous_key(self, node: yaml.Node) -> bool:
        """A plain key YAML 1.2 would not read as a string. An explicit tag (`!!str 1e3: x`,
        `? !!str true`) stands in both YAML versions, as it does for values."""
        return (
            isinstance(node, yaml.ScalarNode)
            and node.style is None
            and id(node) not in self._loader.explicitly_tagged
            and _kind_in_yaml_1_2(node.value) != "str"
        )

    def _build_key(self, node: yaml.Node, parent: str) -> str | None:
        """The key's text, or ``None`` (reported) when it is not a string: its pair is skipped."""
        line, column = _position(node.start_mark)
        if id(node) in self._loader.non_specific:
            self.problems.append(
                Diagnostic(
                    Code.YAML_UNSUPPORTED_VALUE,
                    _NON_SPECIFIC_MESSAGE.format(what="key", text=describe(node.value)),
                    "",
                    line,
                    column,
                    parent,
                    hint=_NON_SPECIFIC_HINT,
                )
            )
            return None
        if isinstance(node, yaml.ScalarNode) and node.tag == _YAML_TAG + "str":
            if not has_lone_surrogate(str(node.value)):
                return str(node.value)
            message = "key " + _surrogate_message(str(node.value))
            self.problems.append(
                Diagnostic(
                    Code.LONE_SURROGATE, message, "", line, column, parent, hint=_SURROGATE_HINT
                )
            )
            return None
        if isinstance(node, yaml.ScalarNode) and node.tag == _YAML_TAG + "merge":
            problem = Diagnostic(
                Code.YAML_UNSAFE_TAG, "merge keys (<<) are not allowed", "", line, column, parent
            )
        else:
            problem = Diagnostic(
                Code.NON_STRING_KEY, "mapping keys must be strings", "", line, column, parent
            )
        self.problems.append(problem)
        return None

    def _build_scalar(self, node: yaml.ScalarNode, pointer: str) -> Any:
        if id(node) in self._loader.non_specific:
            self._refuse(
                Code.YAML_UNSUPPORTED_VALUE,
                _NON_SPECIFIC_MESSAGE.format(what="value", text=describe(node.value)),
                node,
                pointer,
                hint=_NON_SPECIFIC_HINT,
            )
            return str(node.value)
        if node.tag not in _SCALAR_TAGS:
            if node.tag in _NON_JSON_TAGS:
                self._refuse(
                    Code.YAML_UNSUPPORTED_VALUE,
                    f"value {describe(node.value)} resolves to {describe(node.tag)}, not a JSON"
                    " type",
                    node,
                    pointer,
                    hint="quote it to make it a string",
                )
            else:
                self._refuse(
                    Code.YAML_UNSAFE_TAG, f"tag {describe(node.tag)} is not allowed", node, pointer
                )
            return node.value
        kind = node.tag.rsplit(":", 1)[-1]
        read_by_1_2 = self._kind_for_yaml_1_2(node, kind)
        if read_by_1_2 != kind:
            return self._ambiguous(node, pointer, kind, read_by_1_2)
        try:
            value = self._loader.construct_object(node, deep=True)
        except (ValueError, OverflowError, KeyError, yaml.YAMLError):
            return self._out_of_range(node, pointer)
        if isinstance(value, float) and not math.isfinite(value):
            if node.value.lower().lstrip("+-") not in (".inf", ".nan"):
                return self._out_of_range(node, pointer)  # a finite spelling that overflowed
            self._refuse(
                Code.YAML_UNSUPPORTED_VALUE,
                "NaN and infinities are not JSON numbers",
                node,
                pointer,
                hint="quote it to make it a string",
            )
            return node.value
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE_INTEGER:
            return self._out_of_range(node, pointer)
        if kind != "str" and value != _value_in_yaml_1_2(kind, node.value):
            return self._ambiguous(node, pointer, kind, kind)
        if isinstance(value, str) and has_lone_surrogate(value):
            self._refuse(
                Code.LONE_SURROGATE,
                "value " + _surrogate_message(value),
                node,
                pointer,
                hint=_SURROGATE_HINT,
            )
            return _escaped(value)
        return value

    def _kind_for_yaml_1_2(self, node: yaml.ScalarNode, kind: str) -> str:
        """What YAML 1.2's core schema makes of the node: a plain untagged scalar is resolved by
        its text; a quoted one is a string; an explicit tag stands if the text fits it."""
        if node.style is None and id(node) not in self._loader.explicitly_tagged:
            return _kind_in_yaml_1_2(node.value)
        if kind == "str":
            return "str"
        return kind if _CORE_1_2_BY_KIND[kind].fullmatch(node.value) else "invalid"

    def _ambiguous(self, node: yaml.ScalarNode, pointer: str, by_1_1: str, by_1_2: str) -> str:
        if by_1_1 == by_1_2:
            read = f"as a different {by_1_1} value by YAML 1.1 and YAML 1.2 (and editors)"
        else:
            as_1_2 = "not as a valid value" if by_1_2 == "invalid" else f"as {by_1_2}"
            read = f"as {by_1_1} by YAML 1.1 but {as_1_2} by YAML 1.2 (and editors)"
        self._refuse(
            Code.YAML_UNSUPPORTED_VALUE,
            f"{describe(node.value)} is read {read}",
            node,
            pointer,
            hint="quote it to make it a string, or write the value as YAML 1.2 spells it",
        )
        return str(node.value)

    def _out_of_range(self, node: yaml.ScalarNode, pointer: str) -> str:
        self._refuse(
            Code.NUMBER_OUT_OF_RANGE,
            f"number {describe(node.value)} cannot be represented exactly in JSON (integers up"
            f" to {MAX_SAFE_INTEGER} in magnitude, finite floats)",
            node,
            pointer,
            hint="quote it to make it a string",
        )
        return str(node.value)

    def _tag_allowed(self, node: yaml.Node, expected: str, pointer: str) -> bool:
        if node.tag == expected:
            return True
        self._refuse(
            Code.YAML_UNSAFE_TAG, f"tag {describe(node.tag)} is not allowed", node, pointer
        )
        return False


def parse_yaml(text: str, source: str, *, only: Code | None = None) -> Loaded:
    """Parse YAML text (one document) into JSON values with node positions. A syntax error stops
    the reading; every other problem is reported at its own node and reading goes on, up to
    ``MAX_DIAGNOSTICS_PER_FILE`` of them: the next one stops it with a ``TOO_MANY_DIAGNOSTICS``
    record there, and no value. ``only`` (a code) keeps that code's records alone and never
    stops: the reading of a JSON text for its node positions.

    The text is read from libyaml's event stream (``_read_events``); what that reading leaves to
    PyYAML's own composer (any error libyaml raises, a tab anywhere, an alias or a collection as a
    key, an empty plain scalar in a flow collection, too deep nesting, no document or several)
    is read again by ``_parse_composed``, so every syntax
    diagnostic is PyYAML's."""
    breaks = tuple(limited(_yaml_1_1_breaks(text, source), source)) if not text.isascii() else ()
    if breaks:
        return Loaded(source, None, diagnostics=breaks)
    try:
        if "\t" in text:
            raise _Fallback  # PyYAML refuses tabs in places libyaml accepts them
        return _read_events(text, source, only)
    except (_Fallback, yaml.YAMLError, UnicodeError, RecursionError):
        return _parse_composed(text, source, only)


def _parse_composed(text: str, source: str, only: Code | None = None) -> Loaded:
    """``parse_yaml`` through PyYAML's pure-Python composer: the reference reading."""
    loader: _NoAliasLoader | None = None
    try:
        loader = _NoAliasLoader(text, _Problems(only))
        node = loader.get_single_node()
        if node is None:
            return _failed(source, Code.YAML_SYNTAX, "the document is empty", (1, 1))
        builder = _YamlBuilder(loader)
        value = builder.build(node, ())
        maps = (builder.positions, builder.key_positions)
        problems = tuple(
            dataclasses.replace(problem, source=source)
            for problem in sorted(loader.problems, key=sort_key)
        )
        return Loaded(
            source, value, problems, locate=lambda: maps, refused=frozenset(builder.refused)
        )
    except _TooManyProblems as stop:
        return _stopped(source, loader.problems if loader is not None else [], stop)
    except _Refusal as refusal:
        return _failed(source, refusal.code, refusal.message, _position(refusal.mark))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        return _failed(
            source, Code.YAML_SYNTAX, _yaml_error_message(error), _position(mark) if mark else None
        )
    except yaml.reader.ReaderError as error:
        before = text[: error.position]
        where = (before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
        message = f"character {describe(chr(error.character))} is not allowed in YAML"
        return _failed(source, Code.YAML_SYNTAX, message, where)
    except yaml.YAMLError as error:
        return _failed(source, Code.YAML_SYNTAX, describe(str(error)), None)
    except RecursionError:
        return _failed(source, Code.YAML_SYNTAX, "nesting is too deep", None)
    finally:
        if loader is not None:
            loader.dispose()


# Every text YAML 1.1 (PyYAML's implicit resolvers) or YAML 1.2's core schema might read as
# something other than a string: a plain scalar that does not match is a string to both, with
# nothing more to check (``match``, with ``$`` in each branch, accepts a superset of both).
_MAYBE_TYPED = re.compile(
    "|".join(
        sorted(
            {
                f"(?:{pattern.pattern})"
                for resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.values()
                for _, pattern in resolvers
            }
            | {f"^(?:{pattern.pattern})$" for _, pattern in _CORE_1_2}
        )
    ),
    re.X,
)
# Plain scalars both YAML versions read alike, as these values (no constructor needed).
_PLAIN_LITERALS: dict[str, Any] = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **dict.fromkeys(("null", "Null", "NULL", "~", ""), None),
}


class _Fallback(Exception):
    """Internal: the event reader leaves this document to PyYAML's composer."""


class _EventLoader(yaml.CSafeLoader):
    """libyaml's parser (C) with PyYAML's resolver and safe constructor, keeping the facts the
    builder asks about a node as ``_NoAliasLoader`` keeps them."""

    def __init__(self, stream: str, problems: _Problems) -> None:
        super().__init__(stream)
        self.problems: list[Diagnostic] = problems
        self.explicitly_tagged: set[int] = set()
        self.non_specific: set[int] = set()
        self._kept: list[yaml.Node] = []  # tagged nodes stay alive, so their ids stay theirs

    def problem(self, message: str, mark: Any) -> None:
        line, column = _position(mark)
        self.problems.append(Diagnostic(Code.YAML_ALIAS, message, "", line, column))

    def scalar_node(self, event: Any) -> yaml.ScalarNode:
        """The node PyYAML's composer makes of a scalar event."""
        tag = event.tag
        if tag is None or tag == "!":
            resolved = self.resolve(yaml.ScalarNode, event.value, event.implicit)  # type: ignore[no-untyped-call]
        else:
            resolved = tag
        node = yaml.ScalarNode(
            resolved, event.value, event.start_mark, event.end_mark, style=event.style or None
        )
        if tag is not None:
            (self.non_specific if tag == "!" else self.explicitly_tagged).add(id(node))
            self._kept.append(node)
        return node


# What an open mapping expects next when it is not a key's value.
_AWAITING_KEY = object()
_SKIPPING_VALUE = object()  # the value of a refused or repeated key: read, not built


class _Frame:
    """A collection the event reader is inside. ``container`` is ``None`` in a part read only
    for its aliases, anchors and depth (the value of a refused or repeated key), which the
    builder skips as well."""

    __slots__ = ("container", "flow", "key", "key_node", "key_pointer", "mark", "pointer", "tag")

    def __init__(
        self,
        container: dict[str, Any] | list[Any] | None,
        pointer: str = "",
        tag: str = "",
        event: Any = None,
    ) -> None:
        self.container = container
        self.pointer = pointer
        self.tag = tag
        self.mark = event.start_mark if event is not None else None
        self.flow = bool(event.flow_style) if event is not None else False
        # A mapping's state: _AWAITING_KEY, _SKIPPING_VALUE, or the key whose value comes next.
        self.key: object = _AWAITING_KEY if isinstance(container, dict) else None
        self.key_pointer = ""
        self.key_node: yaml.ScalarNode | None = None  # that key, when YAML 1.2 reads it otherwise


def _read_events(text: str, source: str, only: Code | None = None) -> Loaded:
    """``parse_yaml`` from libyaml's events: the same value, positions, refusals and problems as
    ``_parse_composed`` (``tests/test_yaml_event_reader.py`` holds them equal), or ``_Fallback``."""
    loader = _EventLoader(text, _Problems(only))
    try:
        builder = _YamlBuilder(loader)
        value = _EventReader(loader, builder).read()
    except _TooManyProblems as stop:
        return _stopped(source, loader.problems, stop)
    finally:
        loader.dispose()
    maps = (builder.positions, builder.key_positions)
    problems = tuple(
        dataclasses.replace(problem, source=source)
        for problem in sorted(loader.problems, key=sort_key)
    )
    return Loaded(source, value, problems, locate=lambda: maps, refused=frozenset(builder.refused))


class _EventReader:
    """Builds the document's value straight from libyaml's events with the checks of
    ``_NoAliasLoader`` and ``_YamlBuilder``: a string scalar (quoted, or plain and typed by
    neither YAML version) is taken as it is; any other scalar becomes a node for the builder's
    own checks (``_build_key``, ``_build_scalar``). Collections are tracked on an explicit stack,
    bounded by ``MAX_NESTING``."""

    def __init__(self, loader: _EventLoader, builder: _YamlBuilder) -> None:
        self._loader = loader
        self._builder = builder
        self._stack: list[_Frame] = []
        self._result: Any = None

    def read(self) -> Any:
        get = self._loader.get_event
        if type(get()) is not yaml.StreamStartEvent or type(get()) is not yaml.DocumentStartEvent:
            raise _Fallback  # an empty stream: the composer says so
        while True:
            event = get()
            kind = type(event)
            if kind is yaml.DocumentEndEvent:
                break
            if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                self._close()
            else:
                self._node(event, kind)
        if type(get()) is not yaml.StreamEndEvent:
            raise _Fallback  # another document: the composer refuses it
        return self._result

    def _node(self, event: Any, kind: type) -> None:
        stack = self._stack
        frame = stack[-1] if stack else None
        if frame is None:
            pointer = ""
        elif frame.container is None or frame.key is _SKIPPING_VALUE:
            self._skip(event, kind)
            return
        elif frame.key is _AWAITING_KEY:
            self._key(frame, event, kind)
            return
        elif frame.key is None:
            pointer = f"{frame.pointer}/{len(frame.container)}"
        else:
            pointer = frame.key_pointer
        mark = event.start_mark
        self._builder.positions[pointer] = (mark.line + 1, mark.column + 1)
        if kind is yaml.AliasEvent:
            self._loader.problem("aliases (*name) are not allowed", mark)
            self._builder.refused.add(pointer)
            self._place(None)
            return
        if event.anchor is not None:
            self._loader.problem("anchors (&name) are not allowed", mark)
        if kind is yaml.ScalarEvent:
            if frame is not None and frame.flow and not event.value and not event.style:
                raise _Fallback  # an empty value in a flow collection: located differently
            self._place(self._scalar(event, pointer))
            return
        if len(stack) >= MAX_NESTING:
            raise _Fallback  # the composer refuses it, located
        mapping = kind is yaml.MappingStartEvent
        tag = event.tag
        if tag is None or tag == "!":
            tag = _MAP_TAG if mapping else _SEQ_TAG
        stack.append(_Frame({} if mapping else [], pointer, tag, event))

    def _close(self) -> None:
        frame = self._stack.pop()
        if frame.container is None:
            if self._stack and self._stack[-1].key is _SKIPPING_VALUE:
                self._stack[-1].key = _AWAITING_KEY
            return
        mapping = isinstance(frame.container, dict)
        expected = _MAP_TAG if mapping else _SEQ_TAG
        if frame.tag == expected:
            self._place(frame.container)
            return
        node_type = yaml.MappingNode if mapping else yaml.SequenceNode
        node = node_type(frame.tag, [], frame.mark, frame.mark)
        self._builder._tag_allowed(node, expected, frame.pointer)
        self._place(None)

    def _place(self, value: Any) -> None:
        if not self._stack:
            self._result = value
            return
        parent = self._stack[-1]
        if parent.key is None:
            cast(list[Any], parent.container).append(value)
            return
        cast(dict[str, Any], parent.container)[cast(str, parent.key)] = value
        if parent.key_node is not None:
            self._ambiguous_key(parent)
        parent.key = _AWAITING_KEY

    def _skip(self, event: Any, kind: type) -> None:
        """An event of a part the builder skips: only the composer's checks apply."""
        if kind is yaml.AliasEvent:
            self._loader.problem("aliases (*name) are not allowed", event.start_mark)
            return
        if event.anchor is not None:
            self._loader.problem("anchors (&name) are not allowed", event.start_mark)
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if len(self._stack) >= MAX_NESTING:
                raise _Fallback
            self._stack.append(_Frame(None))
        elif self._stack[-1].key is _SKIPPING_VALUE:  # a scalar value of a skipped key
            self._stack[-1].key = _AWAITING_KEY

    def _key(self, frame: _Frame, event: Any, kind: type) -> None:
        if kind is not yaml.ScalarEvent:
            raise _Fallback  # an alias or a collection as a key: the composer's reading
        mark = event.start_mark
        if event.anchor is not None:
            self._loader.problem("anchors (&name) are not allowed", mark)
        text = event.value
        if frame.flow and not text and not event.style:
            raise _Fallback  # an empty key in a flow collection: located differently
        node = None
        if (
            event.tag is None
            and (event.style or not _MAYBE_TYPED.match(text))
            and (text.isascii() or not has_lone_surrogate(text))
        ):
            key: str | None = text
        else:
            node = self._loader.scalar_node(event)
            key = self._builder._build_key(node, frame.pointer)
            if key is not None and not self._builder._ambiguous_key(node):
                node = None
        if key is None:
            frame.key = _SKIPPING_VALUE
            return
        segment = key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
        key_pointer = f"{frame.pointer}/{segment}"
        key_positions = self._builder.key_positions
        if key in cast(dict[str, Any], frame.container):
            line, column = _position(mark)
            self._builder.problems.append(
                Diagnostic(
                    Code.DUPLICATE_KEY,
                    f"key {describe(key)} repeats the key on line {key_positions[key_pointer][0]}",
                    "",
                    line,
                    column,
                    key_pointer,
                )
            )
            frame.key = _SKIPPING_VALUE
            return
        key_positions[key_pointer] = (mark.line + 1, mark.column + 1)
        frame.key = key
        frame.key_pointer = key_pointer
        frame.key_node = node

    def _ambiguous_key(self, frame: _Frame) -> None:
        node = cast(yaml.ScalarNode, frame.key_node)
        key = cast(str, frame.key)
        self._builder._refuse(
            Code.YAML_UNSUPPORTED_VALUE,
            f"key {describe(key)} is a string to YAML 1.1 but a"
            f" {_kind_in_yaml_1_2(key)} to YAML 1.2 (and editors)",
            node,
            frame.key_pointer,
            hint="quote it",
        )
        frame.key_node = None

    def _scalar(self, event: Any, pointer: str) -> Any:
        text = event.value
        if event.tag is None:
            if event.style or not _MAYBE_TYPED.match(text):
                if text.isascii() or not has_lone_surrogate(text):
                    return text
            elif text in _PLAIN_LITERALS:
                return _PLAIN_LITERALS[text]
        return self._builder._build_scalar(self._loader.scalar_node(event), pointer)


def _yaml_error_message(error: yaml.MarkedYAMLError) -> str:
    """PyYAML's problem, with the context it names: where the construct that failed began (an
    unterminated quoted scalar is found only at the end of the stream, where the error is
    located), and the first half of a two-part sentence (``expected a single document in the
    stream``, ``but found another document``), never a message that begins with ``but``."""
    problem = error.problem or error.context or "invalid YAML"
    context = error.context if error.problem else None
    if not context:
        return problem
    if problem.startswith("but "):
        return f"{context}, {problem}"
    mark = error.context_mark
    if mark is None or (mark.line, mark.column) == (
        getattr(error.problem_mark, "line", None),
        getattr(error.problem_mark, "column", None),
    ):
        return f"{problem} ({context})"
    line, column = _position(mark)
    return f"{problem} ({context} at line {line}, column {column})"


def _failed(source: str, code: Code, message: str, where: Position | None) -> Loaded:
    line, column = where if where else (None, None)
    return Loaded(source, None, diagnostics=(Diagnostic(code, message, source, line, column),))


# Why each source cannot be JSON null (``null``, ``~``, a bare ``---``), by its configuration key.
NULL_DOCUMENT_REFUSALS: dict[str, tuple[Code, str]] = {
    "schema": (Code.SCHEMA_INVALID, "a schema must be a JSON object, not null"),
    "table_schema": (Code.SCHEMA_INVALID, "a schema must be a JSON object, not null"),
    "table": (Code.SCHEMA_VIOLATION, "must be of type object, not null"),
}


def refuse_null_document(loaded: Loaded, key: str) -> Loaded:
    """``loaded``, or, when the document parsed to JSON null, that document refused at its root.
    Every later stage reads ``value is None`` as "could not be read, already reported": a source
    that *is* null would otherwise skip every check silently and reach stages that need an
    object (an internal error in ``generate``, ``check``, ``add-tool`` and ``breaking``)."""
    if loaded.value is not None or has_errors(loaded.diagnostics):
        return loaded
    code, message = NULL_DOCUMENT_REFUSALS[key]
    line, column = loaded.position_of("") or (None, None)
    refusal = Diagnostic(code, message, loaded.source, line, column, pointer="")
    return Loaded(loaded.source, None, diagnostics=(*loaded.diagnostics, refusal))


def load_yaml(path: Path, source: str) -> Loaded:
    return _load(path, source, parse_yaml)


class _BadNumber:
    """Stands in a parsed JSON value where a number could not be represented."""

    def __init__(self, text: str) -> None:
        self.text = text


def _json_int(text: str) -> int | _BadNumber:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return _BadNumber(text)
    try:
        return int(text)
    except ValueError:  # a lower PYTHONINTMAXSTRDIGITS
        return _BadNumber(text)


def _json_float(text: str) -> float | _BadNumber:
    value = float(text)
    return value if math.isfinite(value) else _BadNumber(text)


class _NotJson(_BadNumber):
    """Stands in a parsed JSON value where the text holds ``NaN``, ``Infinity`` or
    ``-Infinity``: no JSON at all (``JSON_SYNTAX``), but reported at its own node, as a number
    out of range is (raising from ``parse_constant`` lost the position)."""


def _refuse_constant(name: str) -> _NotJson:
    return _NotJson(name)


def _bad_numbers(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str, _BadNumber]]:
    """(pointer, stand-in) of every unrepresentable number (or non-JSON constant) in a parsed
    JSON value."""
    if isinstance(value, _BadNumber):
        yield pointer_of(path), value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _bad_numbers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _bad_numbers(item, (*path, index))


def _lone_surrogates(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str, str]]:
    """(pointer, text) of every key or string value holding a lone surrogate."""
    if isinstance(value, str):
        if has_lone_surrogate(value):
            yield pointer_of(path), value
    elif isinstance(value, dict):
        for key, item in value.items():
            if has_lone_surrogate(key):
                yield pointer_of((*path, key)), key
            yield from _lone_surrogates(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _lone_surrogates(item, (*path, index))


def _json_positions(text: str) -> _PositionMaps:
    """Where each node of a JSON document starts, read through the YAML reader (JSON is, in
    practice, YAML's flow style). Best effort: empty maps when that reading fails."""
    return _read_as_yaml(text, "")[1]


# Characters a JSON string may hold as they are but YAML reads otherwise: NEL, U+2028 and
# U+2029 break a line there (so every later line was counted one too far), and DEL, the other
# C1 controls, U+FFFE and U+FFFF are refused (so nothing was located at all). Outside a string
# JSON allows none of them.
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufffe\uffff]")
_ESCAPE_WIDTH = len("\\u0000") - 1  # the columns each escape adds


def _read_as_yaml(text: str, source: str) -> tuple[Loaded, _PositionMaps]:
    """The YAML reading of a JSON document and its node positions, as lines and columns of the
    JSON text (lines end at a line feed, a carriage return or both, as JSON's whitespace has
    them): each character of ``_YAML_UNSAFE`` is read as its ``\\u`` escape, which spells the
    same string, and the columns its escape added are taken off again."""
    moved: dict[int, list[int]] = {}  # line -> the columns of the escaped characters on it
    if _YAML_UNSAFE.search(text):
        line, line_start = 1, 0
        for found in re.finditer("\r\n?|\n|" + _YAML_UNSAFE.pattern, text):
            if found.group()[0] in "\r\n":
                line, line_start = line + 1, found.end()
            else:
                moved.setdefault(line, []).append(found.start() - line_start + 1)
        text = _YAML_UNSAFE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    # Read to the end for the positions, keeping only the repeated keys (at most one past the
    # limit): the reading's other problems are the JSON reading's business, never reported.
    read = parse_yaml(text, source, only=Code.DUPLICATE_KEY)
    maps = read.locate() if read.locate else ({}, {})
    if not moved:
        return read, maps

    # Where each escape starts in the escaped text: increasing along a line, so the escapes
    # before a column are counted by bisection (a scan per position was quadratic: a 200 KB
    # one-line schema of many nodes and line separators took over a minute to locate).
    starts = {
        line: [original + index * _ESCAPE_WIDTH for index, original in enumerate(columns)]
        for line, columns in moved.items()
    }

    def back(position: Position) -> Position:
        line, column = position
        return line, column - _ESCAPE_WIDTH * bisect.bisect_left(starts.get(line, ()), column)

    diagnostics = tuple(
        dataclasses.replace(d, column=back((d.line, d.column))[1])
        if d.line is not None and d.column is not None
        else d
        for d in read.diagnostics
    )
    located = (
        {pointer: back(position) for pointer, position in maps[0].items()},
        {pointer: back(position) for pointer, position in maps[1].items()},
    )
    return dataclasses.replace(read, diagnostics=diagnostics), located


# A string (group 1 is its closing quote, empty when it has none), a bracket or a line break.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*("?)|[\[{]|[\]}]|\n')
_STRUCTURE = re.compile(r"[\[{\]}\n]")


def _json_structure(text: str) -> Iterator[re.Match[str]]:
    """The brackets and line breaks of ``text`` outside its strings, in order. A string that
    never closes (the text ends, or a backslash ends a line) is no string: what follows its
    quote counts. Every quote up to where it stopped is an escaped one, and a string begun there
    stops at the same character, so the run is read once (trying each quote in turn read the
    rest of the text once per quote: quadratic in a file of ``\\"``)."""
    position = 0
    while (token := _JSON_TOKENS.search(text, position)) is not None:
        position = token.end()
        closing = token.group(1)
        if closing is None:
            yield token
        elif not closing:
            yield from _STRUCTURE.finditer(text, token.start() + 1, position)


def _json_too_deep(text: str) -> Position | None:
    """Where the first array or object nested more than ``MAX_NESTING`` levels deep starts, by
    a scan that does not recurse (strings skipped); ``None`` when the text is shallow enough
    (or too broken to tell: ``json`` then reports it)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None
    depth, line, line_start = 0, 1, 0
    for token in _json_structure(text):
        kind = token.group()[0]
        if kind == "\n":
            line, line_start = line + 1, token.end()
        elif kind in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return (line, token.start() - line_start + 1)
        elif kind in "]}":
            depth -= 1
    return None


def parse_json(text: str, source: str) -> Loaded:
    """Strict JSON: repeated keys, NaN, infinities and numbers that cannot be represented (a
    float overflowing to infinity, an integer longer than Python converts) are errors, each
    reported at its own node. Values come from ``json``; node positions, for locating
    diagnostics, from ``_json_positions``."""
    too_deep = _json_too_deep(text)
    if too_deep is not None:
        message = f"nesting is too deep (more than {MAX_NESTING} levels)"
        return _failed(source, Code.JSON_SYNTAX, message, too_deep)
    repeated: list[str] = []

    def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key not in result:
                result[key] = value
            elif len(repeated) <= MAX_DIAGNOSTICS_PER_FILE:  # one past the limit says "more"
                repeated.append(key)
        return result

    try:
        value = json.loads(
            text,
            object_pairs_hook=unique_object,
            parse_constant=_refuse_constant,
            parse_int=_json_int,
            parse_float=_json_float,
        )
    except json.JSONDecodeError as error:
        return _failed(source, Code.JSON_SYNTAX, error.msg, (error.lineno, error.colno))
    except (ValueError, RecursionError) as error:
        return _failed(source, Code.JSON_SYNTAX, describe(str(error)), None)
    # At most one past the limit of each kind is kept: enough to say there are more.
    bad = list(itertools.islice(_bad_numbers(value), MAX_DIAGNOSTICS_PER_FILE + 1))
    # Only a \u escape can make a surrogate (the text itself is valid UTF-8).
    surrogates = _lone_surrogates(value) if "\\u" in text else iter(())
    lone = list(itertools.islice(surrogates, MAX_DIAGNOSTICS_PER_FILE + 1))
    if not repeated and not bad and not lone:
        return Loaded(source, value, locate=lambda: _json_positions(text))
    return Loaded(source, None, diagnostics=_json_problems(text, source, repeated, bad, lone))


def _json_problems(
    text: str,
    source: str,
    repeated: list[str],
    bad: list[tuple[str, _BadNumber]],
    lone: list[tuple[str, str]],
) -> tuple[Diagnostic, ...]:
    """Located diagnostics for repeated keys (found again, with positions, by the YAML reading),
    unrepresentable numbers and lone surrogates."""
    read_as_yaml, positions = _read_as_yaml(text, source)
    found = [d for d in read_as_yaml.diagnostics if d.code is Code.DUPLICATE_KEY]
    if repeated and not found:  # the YAML reading failed: report without a location
        found = [
            Diagnostic(
                Code.DUPLICATE_KEY, f"key {describe(key)} appears twice in one object", source
            )
            for key in repeated
        ]
    for pointer, stand_in in bad:
        line, column = positions[0].get(pointer, (None, None))
        number = stand_in.text
        if isinstance(stand_in, _NotJson):
            message = f"{number} is not valid JSON (JSON has no NaN or infinities)"
            found.append(Diagnostic(Code.JSON_SYNTAX, message, source, line, column, pointer))
            continue
        digits = len(number.lstrip("-"))
        shown = describe(number) if digits <= 40 else f"with {digits} digits"
        found.append(
            Diagnostic(
                Code.NUMBER_OUT_OF_RANGE,
                f"number {shown} cannot be represented (an integer of at most {MAX_INT_DIGITS}"
                " digits, or a finite float)",
                source,
                line,
                column,
                pointer,
            )
        )
    for pointer, string in lone:
        located = pointer
        while located not in positions[0] and located:  # a refused key: its object's position
            located = located.rsplit("/", 1)[0]
        line, column = positions[0].get(located, (None, None))
        found.append(
            Diagnostic(
                Code.LONE_SURROGATE,
                _surrogate_message(string),
                source,
                line,
                column,
                _escaped(pointer),
                hint=_JSON_SURROGATE_HINT,
            )
        )
    return tuple(limited(sorted(found, key=sort_key), source))


def load_json(path: Path, source: str) -> Loaded:
    return _load(path, source, parse_json)


def parse_source(data: bytes, source: str, parse: Callable[[str, str], Loaded]) -> Loaded:
    """A source file's bytes, already read, decoded and parsed by ``parse`` (``parse_json`` or
    ``parse_yaml``): for a caller that must know the very bytes a document came from."""
    text, problems = decode_text(data, source)
    if text is None:
        return Loaded(source, None, diagnostics=problems)
    return parse(text, source)


def _load(path: Path, source: str, parse: Callable[[str, str], Loaded]) -> Loaded:
    text, problems = read_text(path, source)
    if text is None:
        return Loaded(source, None, diagnostics=problems)
    return parse(text, source)

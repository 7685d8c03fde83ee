"""Load stage: the only module that reads input files.

``load_yaml`` and ``load_json`` turn a file into plain JSON-compatible Python values and, for YAML,
a map from JSON pointer to the ``(line, column)`` where each node starts. They never raise for bad
input: they return a ``Loaded`` whose ``value`` is ``None`` and whose diagnostics say why.

YAML is read in a deliberately small subset: anchors and aliases are refused (no alias bombs, no
shared nodes), explicit tags other than YAML's own core types are refused (no object construction),
duplicate keys are errors (PyYAML would silently keep the last), keys must be strings, and only
JSON's value types are produced (timestamps, binary, sets, NaN and infinities are refused).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Code, Diagnostic, describe, pointer_of

Position = tuple[int, int]
_PositionMaps = tuple[Mapping[str, Position], Mapping[str, Position]]

_YAML_TAG = "tag:yaml.org,2002:"
_MAP_TAG = _YAML_TAG + "map"
_SEQ_TAG = _YAML_TAG + "seq"
_SCALAR_TAGS = {_YAML_TAG + name for name in ("str", "int", "float", "bool", "null")}
# YAML's own types that are harmless but have no JSON equivalent; any other tag is unsafe.
_NON_JSON_TAGS = {_YAML_TAG + name for name in ("timestamp", "binary", "set", "omap", "pairs")}


@dataclass(frozen=True)
class Loaded:
    """A parsed document: ``value`` is ``None`` when diagnostics hold an error.

    Node positions come from ``locate``, called at most once and only when a diagnostic needs a
    location (for JSON that means a second, slower reading of the text).
    """

    source: str
    value: Any
    diagnostics: tuple[Diagnostic, ...] = ()
    locate: Callable[[], _PositionMaps] | None = field(default=None, repr=False, compare=False)
    _located: list[_PositionMaps] = field(default_factory=list, repr=False, compare=False)

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


class _Refusal(Exception):
    """Internal: a located reason to reject the document (never escapes this module)."""

    def __init__(self, code: Code, message: str, mark: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark


class _NoAliasLoader(yaml.SafeLoader):
    """SafeLoader whose composer refuses anchors and aliases before any node is built."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise _Refusal(Code.YAML_ALIAS, "aliases (*name) are not allowed", event.start_mark)
        if getattr(event, "anchor", None) is not None:
            raise _Refusal(Code.YAML_ALIAS, "anchors (&name) are not allowed", event.start_mark)
        return super().compose_node(parent, index)


def _position(mark: Any) -> Position:
    return (mark.line + 1, mark.column + 1)


def read_text(path: Path, source: str) -> tuple[str | None, tuple[Diagnostic, ...]]:
    """Read a UTF-8 text file (BOM tolerated); a diagnostic instead of an exception on failure."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, (Diagnostic(Code.FILE_NOT_FOUND, "file not found", source),)
    except OSError as error:
        reason = describe(error.strerror or type(error).__name__)
        return None, (Diagnostic(Code.UNREADABLE, f"cannot read file: {reason}", source),)
    try:
        return data.decode("utf-8-sig"), ()
    except UnicodeDecodeError as error:
        message = f"not valid UTF-8 (byte offset {error.start})"
        return None, (Diagnostic(Code.INVALID_ENCODING, message, source),)


# Plain scalars PyYAML (YAML 1.1) resolves to booleans and integers whose spelling YAML 1.2's core
# schema reads the same way; anything else (yes/no/on/off, 0777, 1_000, 1:30, 0b1) is ambiguous.
_YAML_1_2_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_YAML_1_2_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")


def _same_in_yaml_1_2(node: yaml.ScalarNode) -> bool:
    if node.tag == _YAML_TAG + "bool":
        return _YAML_1_2_BOOL.fullmatch(node.value) is not None
    if node.tag == _YAML_TAG + "int":
        return _YAML_1_2_INT.fullmatch(node.value) is not None and not (
            len(node.value.lstrip("+-")) > 1 and node.value.lstrip("+-").startswith("0")
        )
    return True


class _YamlBuilder:
    """Turns a composed node tree into JSON values, recording where each node starts."""

    def __init__(self, loader: _NoAliasLoader) -> None:
        self._loader = loader
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}

    def build(self, node: yaml.Node, path: tuple[str | int, ...]) -> Any:
        pointer = pointer_of(path)
        self.positions[pointer] = _position(node.start_mark)
        if isinstance(node, yaml.MappingNode):
            self._require_tag(node, _MAP_TAG)
            return self._build_mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            self._require_tag(node, _SEQ_TAG)
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        if not isinstance(node, yaml.ScalarNode):
            raise _Refusal(Code.YAML_SYNTAX, "unexpected node", node.start_mark)
        return self._build_scalar(node)

    def _build_mapping(self, node: yaml.MappingNode, path: tuple[str | int, ...]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self._build_key(key_node)
            key_pointer = pointer_of((*path, key))
            if key in result:
                first_line = self.key_positions[key_pointer][0]
                raise _Refusal(
                    Code.DUPLICATE_KEY,
                    f"key {describe(key)} repeats the key on line {first_line}",
                    key_node.start_mark,
                )
            self.key_positions[key_pointer] = _position(key_node.start_mark)
            result[key] = self.build(value_node, (*path, key))
        return result

    def _build_key(self, node: yaml.Node) -> str:
        if isinstance(node, yaml.ScalarNode) and node.tag == _YAML_TAG + "str":
            return str(node.value)
        if isinstance(node, yaml.ScalarNode) and node.tag == _YAML_TAG + "merge":
            raise _Refusal(Code.YAML_UNSAFE_TAG, "merge keys (<<) are not allowed", node.start_mark)
        raise _Refusal(Code.NON_STRING_KEY, "mapping keys must be strings", node.start_mark)

    def _build_scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag not in _SCALAR_TAGS:
            if node.tag not in _NON_JSON_TAGS:
                raise _Refusal(
                    Code.YAML_UNSAFE_TAG,
                    f"tag {describe(node.tag)} is not allowed",
                    node.start_mark,
                )
            raise _Refusal(
                Code.YAML_UNSUPPORTED_VALUE,
                f"value {describe(node.value)} resolves to {describe(node.tag)}, not a JSON type;"
                " quote it to make it a string",
                node.start_mark,
            )
        if node.style is None and not _same_in_yaml_1_2(node):
            raise _Refusal(
                Code.YAML_UNSUPPORTED_VALUE,
                f"{describe(node.value)} is read as {node.tag.rsplit(':', 1)[-1]} by YAML 1.1 but"
                " as a string by YAML 1.2 (and editors); write it unambiguously or quote it",
                node.start_mark,
            )
        value = self._loader.construct_object(node, deep=True)
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refusal(
                Code.YAML_UNSUPPORTED_VALUE,
                "NaN and infinities are not JSON numbers",
                node.start_mark,
            )
        return value

    @staticmethod
    def _require_tag(node: yaml.Node, expected: str) -> None:
        if node.tag != expected:
            raise _Refusal(
                Code.YAML_UNSAFE_TAG, f"tag {describe(node.tag)} is not allowed", node.start_mark
            )


def parse_yaml(text: str, source: str) -> Loaded:
    """Parse YAML text (one document) into JSON values with node positions."""
    loader: _NoAliasLoader | None = None
    try:
        loader = _NoAliasLoader(text)
        node = loader.get_single_node()
        if node is None:
            return _failed(source, Code.YAML_SYNTAX, "the document is empty", (1, 1))
        builder = _YamlBuilder(loader)
        value = builder.build(node, ())
        maps = (builder.positions, builder.key_positions)
        return Loaded(source, value, locate=lambda: maps)
    except _Refusal as refusal:
        return _failed(source, refusal.code, refusal.message, _position(refusal.mark))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        return _failed(source, Code.YAML_SYNTAX, problem, _position(mark) if mark else None)
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


def _failed(source: str, code: Code, message: str, where: Position | None) -> Loaded:
    line, column = where if where else (None, None)
    return Loaded(source, None, diagnostics=(Diagnostic(code, message, source, line, column),))


def load_yaml(path: Path, source: str) -> Loaded:
    return _load(path, source, parse_yaml)


class _DuplicateJsonKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateJsonKey(key)
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _json_positions(text: str) -> _PositionMaps:
    """Where each node of a JSON document starts, read through the YAML reader (JSON is, in
    practice, YAML's flow style). Best effort: empty maps when that reading fails."""
    read_as_yaml = parse_yaml(text, "")
    return read_as_yaml.locate() if read_as_yaml.locate else ({}, {})


def parse_json(text: str, source: str) -> Loaded:
    """Strict JSON: duplicate keys, NaN and infinities are errors. Values come from ``json``;
    node positions, for locating later diagnostics, from ``_json_positions``."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_object, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        return _failed(source, Code.JSON_SYNTAX, error.msg, (error.lineno, error.colno))
    except _DuplicateJsonKey as error:
        # The YAML reading of the same text knows where the repeated key stands.
        located = parse_yaml(text, source).diagnostics
        where = None
        if located and located[0].line is not None:
            where = (located[0].line, located[0].column or 1)
        message = f"key {describe(error.key)} appears twice in one object"
        return _failed(source, Code.DUPLICATE_KEY, message, where)
    except (ValueError, RecursionError) as error:
        return _failed(source, Code.JSON_SYNTAX, describe(str(error)), None)
    return Loaded(source, value, locate=lambda: _json_positions(text))


def load_json(path: Path, source: str) -> Loaded:
    return _load(path, source, parse_json)


def _load(path: Path, source: str, parse: Callable[[str, str], Loaded]) -> Loaded:
    text, problems = read_text(path, source)
    if text is None:
        return Loaded(source, None, diagnostics=problems)
    return parse(text, source)

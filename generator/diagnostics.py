"""Diagnostics as data: one record type, one frozen code enum, three renderings.

Stages return ``Diagnostic`` records instead of raising or printing; the CLI renders them once.
Any text that came from user input must pass through ``describe`` before it enters a message, so
control characters and bidirectional overrides cannot reach a terminal or CI log unescaped.
"""

from __future__ import annotations

import enum
import itertools
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from generator.workflow_commands import LEGACY_COMMAND, LEGACY_COMMAND_SHOWN

MAX_SHOWN_CHARS = 80
# A source path (from the configuration, or a file name found in an output folder) is input too;
# it is escaped like any other, but clipped later than a quoted value.
MAX_SHOWN_PATH = 300
# The most problems one source file reports: one more stops reading it (or validating the table)
# there, with one ``TOO_MANY_DIAGNOSTICS`` record saying so, so a hostile file (a million
# aliases, a million bad rows) costs bounded memory and output, not a record per line.
MAX_DIAGNOSTICS_PER_FILE = 1000

# Code points never shown raw (first, last): every control (Cc), format (Cf), line and paragraph
# separator (Zl, Zp) and default-ignorable character, lone surrogates, and blank-looking
# symbols (the braille blank): everything that could hide, reorder or fake text on a terminal.
# A literal table, so output does not depend on the running Python's Unicode version;
# tests/test_hidden_characters.py derives the same set from Unicode's property tables.
# The generated runtime renders the same set.
HIDDEN_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F),
    (0x007F, 0x009F),
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xD800, 0xDFFF),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


_HIDDEN = re.compile(
    "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in HIDDEN_RANGES) + "]"
)


class Code(enum.StrEnum):
    """Every diagnostic toolgen can emit. Values are stable: tests and CI filters match on them."""

    # Reading input
    FILE_NOT_FOUND = "FILE_NOT_FOUND"
    UNREADABLE = "UNREADABLE"
    INVALID_ENCODING = "INVALID_ENCODING"
    YAML_SYNTAX = "YAML_SYNTAX"
    YAML_ALIAS = "YAML_ALIAS"
    YAML_UNSAFE_TAG = "YAML_UNSAFE_TAG"
    YAML_UNSUPPORTED_VALUE = "YAML_UNSUPPORTED_VALUE"
    NUMBER_OUT_OF_RANGE = "NUMBER_OUT_OF_RANGE"
    LONE_SURROGATE = "LONE_SURROGATE"
    JSON_SYNTAX = "JSON_SYNTAX"
    DUPLICATE_KEY = "DUPLICATE_KEY"
    NON_STRING_KEY = "NON_STRING_KEY"
    TOO_MANY_DIAGNOSTICS = "TOO_MANY_DIAGNOSTICS"
    # The schema files themselves
    SCHEMA_INVALID = "SCHEMA_INVALID"
    SCHEMA_UNSUPPORTED = "SCHEMA_UNSUPPORTED"
    # The table
    SCHEMA_VIOLATION = "SCHEMA_VIOLATION"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    DUPLICATE_ID = "DUPLICATE_ID"
    BUILTIN_CONFLICT = "BUILTIN_CONFLICT"
    UNKNOWN_DECLARED_FIELD = "UNKNOWN_DECLARED_FIELD"
    DECLARED_FIELD_TYPE = "DECLARED_FIELD_TYPE"
    DUPLICATE_CONSTANT = "DUPLICATE_CONSTANT"
    UNPORTABLE_KEY = "UNPORTABLE_KEY"
    # Generation and drift
    GENERATION_FAILED = "GENERATION_FAILED"
    DRIFT_CHANGED = "DRIFT_CHANGED"
    DRIFT_MISSING = "DRIFT_MISSING"
    DRIFT_ORPHANED = "DRIFT_ORPHANED"
    WRITE_FAILED = "WRITE_FAILED"
    # `toolgen breaking`: what breaks consumers since an older revision
    BREAKING_TOOL_REMOVED = "BREAKING_TOOL_REMOVED"
    BREAKING_COHORT_LEFT = "BREAKING_COHORT_LEFT"
    BREAKING_CATEGORY_CHANGED = "BREAKING_CATEGORY_CHANGED"
    BREAKING_CAPABILITY_LEFT = "BREAKING_CAPABILITY_LEFT"
    BREAKING_CAPABILITY_REMOVED = "BREAKING_CAPABILITY_REMOVED"
    BREAKING_COHORT_REMOVED = "BREAKING_COHORT_REMOVED"
    BREAKING_MAP_REMOVED = "BREAKING_MAP_REMOVED"
    BREAKING_CONSTANT_REMOVED = "BREAKING_CONSTANT_REMOVED"
    BREAKING_CONSTANT_CHANGED = "BREAKING_CONSTANT_CHANGED"
    BREAKING_TYPE_REMOVED = "BREAKING_TYPE_REMOVED"
    BREAKING_RUNTIME_CODE_REMOVED = "BREAKING_RUNTIME_CODE_REMOVED"
    BREAKING_SCHEMA_REQUIRED_ADDED = "BREAKING_SCHEMA_REQUIRED_ADDED"
    BREAKING_SCHEMA_ENUM_NARROWED = "BREAKING_SCHEMA_ENUM_NARROWED"
    BREAKING_SCHEMA_TYPE_CHANGED = "BREAKING_SCHEMA_TYPE_CHANGED"
    BREAKING_SCHEMA_PATTERN_CHANGED = "BREAKING_SCHEMA_PATTERN_CHANGED"
    BREAKING_SCHEMA_LIMIT_TIGHTENED = "BREAKING_SCHEMA_LIMIT_TIGHTENED"
    BREAKING_SCHEMA_CLOSED = "BREAKING_SCHEMA_CLOSED"
    BREAKING_SCHEMA_PROPERTY_REMOVED = "BREAKING_SCHEMA_PROPERTY_REMOVED"
    SAFE_ADDITION = "SAFE_ADDITION"
    ACKNOWLEDGEMENT_UNMATCHED = "ACKNOWLEDGEMENT_UNMATCHED"
    BASELINE_UNREADABLE = "BASELINE_UNREADABLE"


# What each code means: the generated reference (generated/docs/) lists them; a test holds that
# every code has one.
MEANINGS: dict[Code, str] = {
    Code.FILE_NOT_FOUND: "a source file is missing",
    Code.UNREADABLE: "a source file exists but cannot be read",
    Code.INVALID_ENCODING: "a source file is not UTF-8",
    Code.YAML_SYNTAX: "the YAML file does not parse",
    Code.YAML_ALIAS: "anchors and aliases are refused (no alias bombs); each one is reported",
    Code.YAML_UNSAFE_TAG: "an explicit tag other than YAML's core types, or a merge key",
    Code.YAML_UNSUPPORTED_VALUE: "a value with no JSON equivalent (timestamp, binary, NaN), or a"
    " scalar that YAML 1.1 and YAML 1.2 read differently (`yes`, `0777`, `1_000`, `1e3`)",
    Code.NUMBER_OUT_OF_RANGE: "a number JSON cannot carry (an integer beyond JavaScript's exact"
    " range, a float overflowing to infinity)",
    Code.LONE_SURROGATE: "a string holds a lone UTF-16 surrogate, which has no UTF-8 encoding",
    Code.JSON_SYNTAX: "the JSON file does not parse (strict JSON: no NaN or Infinity)",
    Code.DUPLICATE_KEY: "a mapping repeats a key",
    Code.NON_STRING_KEY: "a mapping has a key that is not a string",
    Code.TOO_MANY_DIAGNOSTICS: "a file has more problems than are reported (1,000): checking it"
    " stopped at the next one, which this record locates",
    Code.SCHEMA_INVALID: "a schema file is not a sound draft 2020-12 schema",
    Code.SCHEMA_UNSUPPORTED: "the manifest schema uses a keyword, `$ref` or pattern construct the"
    " validator compiler does not support, a type name the generated code already uses, or leaves"
    " out (or retypes) a root property or the Capability vocabulary the generated runtime reads",
    Code.SCHEMA_VIOLATION: "the table breaks the schema",
    Code.UNKNOWN_FIELD: "a property the schema does not declare",
    Code.DUPLICATE_ID: "two rows share an id",
    Code.BUILTIN_CONFLICT: "a row says `builtin: false`; rows of the table are built-in",
    Code.UNKNOWN_DECLARED_FIELD: "a cohort or map names a field that does not exist",
    Code.DECLARED_FIELD_TYPE: "a cohort or map names a field of the wrong type",
    Code.DUPLICATE_CONSTANT: "two declarations, or a declaration and a generated name, share a"
    " constant name",
    Code.UNPORTABLE_KEY: "an id, capability name or key is an array index (`0`, `42`), which"
    " JavaScript would enumerate out of order",
    Code.GENERATION_FAILED: "a template, formatter or type emitter failed",
    Code.DRIFT_CHANGED: "`check`: a generated file differs from what the sources generate",
    Code.DRIFT_MISSING: "`check`: a generated file is missing",
    Code.DRIFT_ORPHANED: "`check`: a file in an output folder that no target produces",
    Code.WRITE_FAILED: "`generate` could not write or delete a file",
    Code.BREAKING_TOOL_REMOVED: "`breaking`: a built-in id was removed or renamed (every"
    " exhaustive `Record<ToolId, …>` changes)",
    Code.BREAKING_COHORT_LEFT: "`breaking`: a tool left a cohort",
    Code.BREAKING_CATEGORY_CHANGED: "`breaking`: a tool's `category` changed (given, dropped or"
    " moved)",
    Code.BREAKING_CAPABILITY_LEFT: "`breaking`: a tool no longer provides a capability",
    Code.BREAKING_CAPABILITY_REMOVED: "`breaking`: a capability left the vocabulary",
    Code.BREAKING_COHORT_REMOVED: "`breaking`: a cohort constant was removed",
    Code.BREAKING_MAP_REMOVED: "`breaking`: a map constant was removed",
    Code.BREAKING_CONSTANT_REMOVED: "`breaking`: a settings constant was removed",
    Code.BREAKING_CONSTANT_CHANGED: "`breaking`: a settings constant's value changed",
    Code.BREAKING_TYPE_REMOVED: "`breaking`: a type name (the root `title`, a `$defs` key) is gone",
    Code.BREAKING_RUNTIME_CODE_REMOVED: "`breaking`: a runtime diagnostic code was removed",
    Code.BREAKING_SCHEMA_REQUIRED_ADDED: "`breaking`: an adapter property became required",
    Code.BREAKING_SCHEMA_ENUM_NARROWED: "`breaking`: an `enum` or `const` accepts fewer values",
    Code.BREAKING_SCHEMA_TYPE_CHANGED: "`breaking`: a `type` accepts fewer types, or a"
    " construct changed in a way that cannot be compared",
    Code.BREAKING_SCHEMA_PATTERN_CHANGED: "`breaking`: a `pattern` was added or changed",
    Code.BREAKING_SCHEMA_LIMIT_TIGHTENED: "`breaking`: a limit was tightened (`maxLength`,"
    " `maxItems`, `maximum` lowered; `minLength`, `minItems`, `minimum` raised;"
    " `uniqueItems` added)",
    Code.BREAKING_SCHEMA_CLOSED: "`breaking`: an object's `additionalProperties` became false",
    Code.BREAKING_SCHEMA_PROPERTY_REMOVED: "`breaking`: a property was removed from a closed"
    " object",
    Code.SAFE_ADDITION: "`breaking`: an additive change that breaks no consumer (a note)",
    Code.ACKNOWLEDGEMENT_UNMATCHED: "`breaking`: an `acknowledgedBreaking` entry names no change"
    " (an error when new, a warning when inherited from the baseline)",
    Code.BASELINE_UNREADABLE: "`breaking`: the older sources cannot be read or are invalid",
}


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. ``line``/``column`` are 1-based; ``pointer`` is an RFC 6901 JSON pointer."""

    code: Code
    message: str
    source: str = ""
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    severity: Severity = Severity.ERROR
    hint: str | None = None
    # What a ``breaking`` record is about (an id, a constant, an instance path): with ``code``
    # it is what an acknowledgement names. In JSON only when set.
    subject: str | None = None

    def as_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "code": self.code.value,
            "severity": self.severity.value,
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer,
            "message": self.message,
            "hint": self.hint,
        }
        if self.subject is not None:
            document["subject"] = self.subject
        return document


def too_many_problems(line: int | None, column: int | None, source: str) -> Diagnostic:
    """The record ending a file's report once it had more problems than are reported, located
    at the first one left out (where checking stopped)."""
    message = (
        f"more than {MAX_DIAGNOSTICS_PER_FILE} problems in this file: checking stopped at this"
        " one, and what is left is not reported (fix these first)"
    )
    return Diagnostic(Code.TOO_MANY_DIAGNOSTICS, message, source, line, column)


def limited(found: Iterable[Diagnostic], source: str) -> list[Diagnostic]:
    """At most ``MAX_DIAGNOSTICS_PER_FILE`` of one file's ``found`` problems, then the record
    saying checking stopped at the next one. ``found`` is read lazily: a generator is never
    asked for more than one past the limit, so the checks behind it stop there."""
    kept = list(itertools.islice(found, MAX_DIAGNOSTICS_PER_FILE + 1))
    if len(kept) <= MAX_DIAGNOSTICS_PER_FILE:
        return kept
    beyond = kept.pop()
    return [*kept, too_many_problems(beyond.line, beyond.column, beyond.source or source)]


def is_hidden(char: str) -> bool:
    """Whether ``sanitize`` shows the character ``char`` as an escape."""
    return _HIDDEN.match(char) is not None


def sanitize(text: str, limit: int = MAX_SHOWN_CHARS, *, escape_quotes: bool = False) -> str:
    """``text`` with invisible characters shown as ``\\uXXXX`` escapes, clipped to ``limit``."""
    clipped = text[:limit]
    if _HIDDEN.search(clipped) is None and not (
        escape_quotes and ('"' in clipped or "\\" in clipped)
    ):
        return clipped + ("…" if len(text) > limit else "")
    shown: list[str] = []
    for char in clipped:
        point = ord(char)
        if _HIDDEN.match(char):
            shown.append(f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}")
        elif escape_quotes and char in {'"', "\\"}:
            shown.append("\\" + char)
        else:
            shown.append(char)
    return "".join(shown) + ("…" if len(text) > limit else "")


def describe(value: object, limit: int = MAX_SHOWN_CHARS) -> str:
    """Quote untrusted input for a message: sanitized, clipped, in double quotes."""
    raw = value if isinstance(value, str) else repr(value)
    return '"' + sanitize(raw, limit, escape_quotes=True) + '"'


def pointer_of(path: Iterable[str | int]) -> str:
    """RFC 6901 pointer for a path of keys and indexes (``~`` and ``/`` escaped)."""
    parts = (str(part).replace("~", "~0").replace("/", "~1") for part in path)
    return "".join("/" + part for part in parts)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def sort_key(diagnostic: Diagnostic) -> tuple[str, bool, int, int, str, str]:
    """File order within each file, the record saying a file's checking stopped last in its file:
    checks run in passes (a table's schema validation over every row, then the cross-row rules),
    so the limit may stop a later pass at a line before a problem an earlier pass reported, and
    sorted by its line alone that record claimed the rest of the file unchecked above a record
    from further down."""
    return (
        diagnostic.source,
        diagnostic.code is Code.TOO_MANY_DIAGNOSTICS,
        diagnostic.line or 0,
        diagnostic.column or 0,
        diagnostic.pointer or "",
        diagnostic.code.value,
    )


def _shown_whole(text: str) -> str:
    """``text`` with every hidden character escaped and nothing clipped: for the parts of a
    diagnostic that stages already built (a message, a pointer, a hint), which may carry input
    (a YAML key in a pointer) and must never put a control, format or line-break character on a
    terminal or a CI log, whichever stage forgot to quote it."""
    return sanitize(text, len(text))


def _pointer_shown(diagnostic: Diagnostic) -> str:
    """The ``(at /pointer)`` suffix, escaped (a pointer is built from the input's keys)."""
    if diagnostic.pointer is None:
        return ""
    return f" (at {_shown_whole(diagnostic.pointer) or '/'})"


def unforgeable(text: str) -> str:
    """``text`` (already escaped: its only line break is LF) with no line GitHub Actions would
    take for a workflow command. The runner strips a line's leading white space (NBSP and
    U+3000 included, which escaping keeps) and runs what then starts with ``::``; the first
    colon of such a line is shown as ``\\u003a``, whatever stage built the line. It also runs
    a legacy ``##[command]`` found anywhere in a line: the ``[`` of every ``##[`` is shown as
    ``\\u005b`` (the CLI's streams do the same for all they print: ``workflow_commands``)."""
    text = text.replace(LEGACY_COMMAND, LEGACY_COMMAND_SHOWN)
    if "::" not in text:
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("::"):
            at = len(line) - len(stripped)
            lines[index] = line[:at] + "\\u003a" + line[at + 1 :]
    return "\n".join(lines)


def render_text(diagnostic: Diagnostic) -> str:
    """``source:line:col: CODE severity: message (at /pointer)`` with absent parts left out.
    Every part is escaped: the only line break is the one before a hint."""
    location = sanitize(diagnostic.source, MAX_SHOWN_PATH) if diagnostic.source else "<input>"
    if diagnostic.line is not None:
        location += f":{diagnostic.line}"
        if diagnostic.column is not None:
            location += f":{diagnostic.column}"
    message = _shown_whole(diagnostic.message)
    text = f"{location}: {diagnostic.code.value} {diagnostic.severity.value}: {message}"
    text += _pointer_shown(diagnostic)
    if diagnostic.hint:
        text += f"\n  hint: {_shown_whole(diagnostic.hint)}"
    return unforgeable(text)


def github_escape(text: str, *, is_property: bool) -> str:
    """GitHub's workflow-command escaping (``%``, CR, LF; in a property also ``:`` and ``,``),
    after every hidden character is escaped: one diagnostic is always one command line."""
    text = _shown_whole(text)
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if is_property:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(diagnostic: Diagnostic) -> str:
    """A GitHub Actions workflow command: ``::error file=…,line=…,col=…,title=CODE::message``."""
    command = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[
        diagnostic.severity
    ]
    properties: list[str] = []
    if diagnostic.source:
        source = sanitize(diagnostic.source, MAX_SHOWN_PATH)
        properties.append("file=" + github_escape(source, is_property=True))
    if diagnostic.line is not None:
        properties.append(f"line={diagnostic.line}")
        if diagnostic.column is not None:
            properties.append(f"col={diagnostic.column}")
    properties.append("title=" + github_escape(diagnostic.code.value, is_property=True))
    message = _shown_whole(diagnostic.message) + _pointer_shown(diagnostic)
    return f"::{command} {','.join(properties)}::{github_escape(message, is_property=False)}"


def shown_diff(diff: str) -> str:
    """A unified diff for a terminal or a CI log: every hidden character but LF and tab escaped
    (so a CR, a form feed, a NEL or U+2028 in a file cannot end or rewrite a line). Each line
    then starts as difflib starts it (``---``, ``+++``, ``@@``, or `` ``, ``+``, ``-`` before
    the file's text); a context line's `` `` is white space the runner strips, so ``unforgeable``
    escapes a ``::`` after it: no line of a diff can be read as a workflow command."""
    return "\n".join(
        unforgeable("\t".join(_shown_whole(part) for part in line.split("\t")))
        for line in diff.split("\n")
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def summary(diagnostics: Sequence[Diagnostic]) -> dict[str, object]:
    """Counts by severity and the files involved (sorted; diagnostics without a file add none)."""
    return {
        "errors": sum(d.severity is Severity.ERROR for d in diagnostics),
        "warnings": sum(d.severity is Severity.WARNING for d in diagnostics),
        "notes": sum(d.severity is Severity.INFO for d in diagnostics),
        "files": sorted({d.source for d in diagnostics if d.source}),
    }


def render_count(diagnostics: Sequence[Diagnostic]) -> str | None:
    """The closing line of text output: ``3 errors, 1 warning in schema/tools.yaml`` (one file
    is named, several are counted: ``in 2 files``); ``None`` without diagnostics."""
    if not diagnostics:
        return None
    counts = summary(diagnostics)
    errors, warnings = cast(int, counts["errors"]), cast(int, counts["warnings"])
    notes = cast(int, counts["notes"])
    files = cast(list[str], counts["files"])
    parts = [_plural(errors, "error")] if errors or not (warnings or notes) else []
    if warnings:
        parts.append(_plural(warnings, "warning"))
    if notes:
        parts.append(_plural(notes, "note"))
    where = ""
    if len(files) == 1:
        where = f" in {sanitize(files[0], MAX_SHOWN_PATH)}"
    elif files:
        where = f" in {len(files)} files"
    return ", ".join(parts) + where


def render_json(diagnostics: Sequence[Diagnostic], **extra: object) -> str:
    document: dict[str, object] = {
        "diagnostics": [d.as_json() for d in diagnostics],
        "summary": summary(diagnostics),
    }
    document.update(extra)
    return json_text(document)


# A UTF-16 surrogate code point: in a Python string only from a file name that is not UTF-8
# (``os.fsdecode``'s surrogateescape, ``\udcff`` for the byte 0xFF) or a lone ``\ud800``.
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(document: object) -> str:
    """``document`` as the JSON toolgen prints: ASCII, and well-formed Unicode (I-JSON, RFC
    7493, as toolgen asks of its inputs). A surrogate in a string, a key or a value, is written
    as the text ``\\udcff``, as text output shows it: ``json.dumps`` wrote it as the escape
    ``\\udcff`` of a lone surrogate, which strict readers (Rust's serde_json, Go's
    ``encoding/json`` replaces it) refuse or alter, so one file with a name that is not UTF-8
    in an output folder broke the whole document for them."""
    return json.dumps(_well_formed(document), indent=2, ensure_ascii=True, sort_keys=False)


def _well_formed(value: object) -> object:
    if isinstance(value, str):
        return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", value)
    if isinstance(value, dict):
        return {_well_formed(key): _well_formed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_well_formed(item) for item in value]
    return value

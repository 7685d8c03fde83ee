"""The diagnostic codes of the generated runtime (validator, loader, detection): one table.

Each row is a code, its fixed severity, what it means, and the message template the runtime
renders from a diagnostic record. The table feeds the generated ``DiagnosticCode`` enum and the
README's code table (``make generate`` rewrites it; ``toolgen check`` reports drift), and will
feed the TypeScript validator, so the three cannot disagree.

Message templates may use the record's fields: ``{source}``, ``{where}`` (the pointer, ``/`` for
the whole document), ``{keyword}``, ``{expected}``, ``{found}``, ``{omitted}``, ``{others}`` and
``{hint}``. Every field that carries input text is escaped and clipped before it is stored.
"""

from __future__ import annotations

from typing import Literal, NamedTuple


class RuntimeCode(NamedTuple):
    name: str
    severity: Literal["error", "warning"]
    meaning: str
    message: str


RUNTIME_CODES: tuple[RuntimeCode, ...] = (
    RuntimeCode(
        "NOT_A_FILE",
        "error",
        "a `.json` name that is not a regular file (folder, FIFO, device, socket, dangling link);"
        " never opened in a way that could block",
        "not a regular file ({found})",
    ),
    RuntimeCode(
        "UNREADABLE",
        "error",
        "the file (or the adapters folder) exists but cannot be read",
        "cannot be read ({found})",
    ),
    RuntimeCode(
        "FILE_TOO_LARGE",
        "error",
        "larger than the size limit; the rest of the file is never read",
        "larger than {expected} bytes",
    ),
    RuntimeCode(
        "VALUE_TOO_LARGE",
        "error",
        "a value given to `parse_third_party_manifest` holds more values or characters than a"
        " file of the size limit could; the rest of it is never checked",
        "holds more than {expected}",
    ),
    RuntimeCode(
        "INVALID_ENCODING",
        "error",
        "not UTF-8 (a leading byte-order mark is tolerated)",
        "not UTF-8 ({found})",
    ),
    RuntimeCode(
        "INVALID_JSON",
        "error",
        "not strict JSON: syntax error, empty or truncated, NaN/Infinity, a number beyond the"
        " range of a double (`1e400`), an integer of more than 4300 digits, nesting too deep (and,"
        " for a value given to `parse_third_party_manifest`, anything but `dict`, `list`, `str`,"
        " `int`, `float`, `bool` and `None`, or a non-string key)",
        "not valid JSON: {found}",
    ),
    RuntimeCode(
        "DUPLICATE_KEY",
        "error",
        "a key appears twice in one object",
        "the key {found} appears more than once in one object",
    ),
    RuntimeCode(
        "LONE_SURROGATE",
        "error",
        "a string (key or value) holds a lone UTF-16 surrogate, which has no UTF-8 encoding"
        " (refused as I-JSON, RFC 7493, does)",
        "a string at {where} holds a lone surrogate: {found}",
    ),
    RuntimeCode(
        "NOT_AN_OBJECT",
        "error",
        "the top level is not a JSON object",
        "the top level must be an object, found {found}",
    ),
    RuntimeCode(
        "SCHEMA_VIOLATION",
        "error",
        "the manifest breaks a rule of the third-party manifest schema",
        "{where}: {keyword} expects {expected}, found {found}",
    ),
    RuntimeCode(
        "UNSAFE_STRING",
        "error",
        "a shell metacharacter, `..` segment or absolute path where the schema allows none",
        "{where}: unsafe value {found} ({expected})",
    ),
    RuntimeCode(
        "CANDIDATES_NOT_ALLOWED",
        "error",
        "`detect.kind` is `candidates`, which only built-in tools may use",
        '{where}: "candidates" detection is built-in only',
    ),
    RuntimeCode(
        "UNKNOWN_FIELD",
        "warning",
        "a top-level key the schema does not declare; it is dropped and the manifest still loads",
        "{where}: unknown field ignored",
    ),
    RuntimeCode(
        "DEPRECATED_FIELD",
        "warning",
        "a property the schema marks `deprecated`; the message carries the schema's migration hint",
        "{where}: deprecated field: {hint}",
    ),
    RuntimeCode(
        "BUILTIN_COLLISION",
        "error",
        "the id of a built-in tool; the built-in always wins",
        "the id {found} belongs to a built-in tool",
    ),
    RuntimeCode(
        "HOOK_PACKAGE_COLLISION",
        "error",
        "a hook package (its `hookPackage`, else the default prefix and its id) that is a built-in"
        " tool's: hooks installed or removed for the adapter would be the built-in's",
        "hook package {found} belongs to built-in {expected}",
    ),
    RuntimeCode(
        "DISPLAY_NAME_COLLISION",
        "error",
        "a display name that looks like a built-in's: equal once case, compatibility forms,"
        " invisible characters, white space and TR39 confusables are folded",
        "display name {found} imitates {expected}",
    ),
    RuntimeCode(
        "UNASSIGNED_CHARACTER",
        "error",
        "a display name holding a character the runtime's Unicode data leaves unassigned (newer"
        " than that data, or a noncharacter): whether it imitates a built-in's cannot be judged",
        "{found} is unassigned in this runtime's Unicode data",
    ),
    RuntimeCode(
        "DUPLICATE_ID",
        "error",
        "several files claim one id; every claimant is rejected",
        "the id {found} is also claimed by {others}",
    ),
    RuntimeCode(
        "TOO_MANY_DIAGNOSTICS",
        "warning",
        "the per-file diagnostic limit was reached: checking stopped there; the record says how"
        " many more were seen",
        "{found} more diagnostics omitted",
    ),
    RuntimeCode(
        "TOO_MANY_FILES",
        "error",
        "the adapters folder holds more `.json` names than the loader reads; the rest are skipped",
        "{omitted} files beyond the limit of {expected} were not read",
    ),
    RuntimeCode(
        "CAPABILITY_NOT_GRANTED",
        "warning",
        "a third-party adapter claims capabilities the host has not granted (`grants` of"
        " `get_tool_registry`): it is listed, but routes nothing for them; one per adapter",
        "{where}: not granted by the host: {found}",
    ),
    RuntimeCode(
        "NOT_DETECTABLE",
        "warning",
        "detection cannot tell whether the tool is installed: a `candidates` tool with no paths"
        " for this platform and no resolver (`installed` is null, not false)",
        "installed state unknown on {found}: no paths, no resolver",
    ),
    RuntimeCode(
        "DETECTION_FAILED",
        "warning",
        "probing a tool failed (PATH lookup, file probe, version command or hook pointer)",
        "detection failed: {found}",
    ),
)


def readme_table() -> str:
    """The Markdown table of runtime codes that the README carries between its markers."""
    rows = ["| code | severity | meaning |", "|---|---|---|"]
    rows += [f"| `{code.name}` | {code.severity} | {code.meaning} |" for code in RUNTIME_CODES]
    return "\n".join(rows) + "\n"

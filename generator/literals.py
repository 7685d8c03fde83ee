"""Escaping functions: the only way a value from the inputs becomes part of generated code.

Every string is emitted as a language literal in which anything outside printable ASCII is an
escape sequence. That keeps the output byte-identical across Python versions (no dependence on
``str.isprintable``'s Unicode tables), and no quote, backslash, ``*/``, ``${`` or bidi control in a
value can end a literal, open a comment or reorder what a reviewer sees.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Mapping
from typing import Any

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words an identifier may not be in either target language (Python keywords and ECMAScript's
# reserved words, plus TypeScript's strict-mode and type-position ones).
_RESERVED = frozenset(keyword.kwlist) | frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "implements",
        "interface",
        "let",
        "package",
        "private",
        "protected",
        "public",
        "static",
        "yield",
        "await",
        "any",
        "boolean",
        "number",
        "string",
        "symbol",
        "never",
        "unknown",
        "object",
        "bigint",
        "undefined",
    ]
)


class UnsafeIdentifierError(ValueError):
    """A name meant for an identifier position is not a plain identifier in both languages."""


def identifier(name: str) -> str:
    """``name`` unchanged when it is safe as a Python and TypeScript identifier; raises otherwise.

    The validators already constrain every name that reaches an identifier position (constant
    names, field names, schema titles); this is the emitter's own guard, so no name is ever pasted
    into code unchecked.
    """
    if not _IDENTIFIER.fullmatch(name) or name in _RESERVED:
        raise UnsafeIdentifierError(f"{name!r} cannot be used as an identifier")
    return name


def python_keyword_argument(name: str) -> str:
    """``name`` unchanged when it can be a Python keyword argument; raises otherwise."""
    if not _IDENTIFIER.fullmatch(name) or keyword.iskeyword(name):
        raise UnsafeIdentifierError(f"{name!r} cannot be a keyword argument")
    return name


def ts_key(name: str) -> str:
    """An object-literal key: bare when it is an identifier, a string literal otherwise."""
    return name if _IDENTIFIER.fullmatch(name) else ts_str(name)


def _escape(text: str, *, astral: str) -> str:
    out: list[str] = []
    for char in text:
        point = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            out.append('\\"')
        elif 0x20 <= point < 0x7F:
            out.append(char)
        elif point == 0x0A:
            out.append("\\n")
        elif point <= 0xFFFF:
            out.append(f"\\u{point:04x}")
        elif astral == "python":
            out.append(f"\\U{point:08x}")
        else:  # ECMAScript strings are UTF-16: an astral character is a surrogate pair.
            high, low = divmod(point - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return '"' + "".join(out) + '"'


def py_str(text: str) -> str:
    """A Python string literal equal to ``text``."""
    return _escape(text, astral="python")


def ts_str(text: str) -> str:
    """A TypeScript/ECMAScript string literal equal to ``text``."""
    return _escape(text, astral="ecmascript")


def _scalar(value: Any, spelling: tuple[str, str, str], string: Any) -> str:
    true, false, null = spelling
    if isinstance(value, bool):
        return true if value else false
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # JSON Schema counts 2.0 as an integer; repr is the shortest round-trip form in both.
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        return str(string(value))
    if value is None:
        return null
    raise TypeError(f"no literal for a {type(value).__name__}")


def py_scalar(value: Any) -> str:
    """A Python literal for a JSON scalar (string, integer, boolean or null)."""
    return _scalar(value, ("True", "False", "None"), py_str)


def ts_scalar(value: Any) -> str:
    """A TypeScript literal for a JSON scalar (string, integer, boolean or null)."""
    return _scalar(value, ("true", "false", "null"), ts_str)


def ts_value(value: Any, indent: int = 0) -> str:
    """A TypeScript expression for a JSON value, laid out two spaces per level."""
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        body = ",\n".join(
            f"{pad}{ts_key(key)}: {ts_value(item, indent + 1)}" for key, item in value.items()
        )
        return "{\n" + body + ",\n" + end + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        body = ",\n".join(f"{pad}{ts_value(item, indent + 1)}" for item in value)
        return "[\n" + body + ",\n" + end + "]"
    return ts_scalar(value)


def json_text(value: Any) -> str:
    """Canonical JSON for generated data files: 2-space indent, ASCII only, final newline."""
    return json.dumps(value, indent=2, ensure_ascii=True) + "\n"

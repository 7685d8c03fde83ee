"""Markdown escaping for the generated reference (``generated/docs/``): every value from the
sources reaches a table cell through ``md_text`` or ``md_code``, and a fenced block through
``fenced``.

- ``md_text``: prose. Markdown punctuation (``\\ ` * _ [ ] < > | # ! ~``) is backslash-escaped,
  ``&`` becomes ``&amp;`` (so no entity or HTML tag survives), a line break becomes ``<br>`` (a
  table row is one line), and every other invisible character is shown as a ``\\uXXXX`` escape;
  what would open a block at the start of a paragraph (``- ``, ``1. ``, four spaces) is escaped.
- ``md_code``: a code span whose fence is longer than any run of backticks inside, padded when
  the text starts or ends with a backtick; ``|`` is escaped (GitHub's tables split cells on it
  even inside code spans), line breaks and invisible characters are shown as escapes.
- ``md_pattern``: a schema pattern as a code span, invisible characters in ECMAScript's escapes.
- ``md_authored``: Markdown written in this repository (code meanings): kept, but a table row.
- ``fenced``: a fenced block whose fence is longer than any backtick run in the text.
"""

from __future__ import annotations

import re

from generator.diagnostics import is_hidden as hidden
from generator.diagnostics import sanitize

_UNLIMITED = 1 << 30
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|#!~])")


def md_text(value: object) -> str:
    lines = str(value).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    escaped = (
        _PUNCTUATION.sub(r"\\\1", sanitize(line, _UNLIMITED).replace("&", "&amp;"))
        for line in lines
    )
    return _paragraph_safe("<br>".join(escaped))


_LIST_NUMBER = re.compile(r"(\d+)([.)])")


def _paragraph_safe(text: str) -> str:
    """``text`` (one line) kept from opening a block where it starts a paragraph of its own (a
    type's description): a leading ``-``, ``+`` or ``=`` and a leading list number's ``.`` or
    ``)`` are backslash-escaped (no list, thematic break or setext underline), and a leading
    space is ``&#32;`` (four would make an indented code block). Inside a table cell, where no
    block starts, each renders as the character it replaces."""
    if text[:1] == " ":
        return "&#32;" + text[1:]
    if text[:1] in ("-", "+", "="):
        return "\\" + text
    number = _LIST_NUMBER.match(text)
    if number:
        return f"{number.group(1)}\\{number.group(2)}{text[number.end() :]}"
    return text


def md_authored(text: str) -> str:
    """Markdown written in this repository (the code tables' meanings): code spans and emphasis
    are kept; only what would break a table row (``|``, line breaks) and invisible characters
    are escaped."""
    return sanitize(" ".join(text.splitlines()), _UNLIMITED).replace("|", "\\|")


_BACKTICKS = re.compile("`+")


def _longest_backtick_run(text: str) -> int:
    if "`" not in text:  # most values: no search at all
        return 0
    return max(len(run) for run in _BACKTICKS.findall(text))


def md_code(value: object) -> str:
    text = sanitize(str(value), _UNLIMITED).replace("|", "\\|")
    fence = "`" * (_longest_backtick_run(text) + 1)
    if text and (text[0] in "` " or text[-1] in "` "):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def md_pattern(pattern: str) -> str:
    """A schema ``pattern`` (ECMA-262, ``u`` flag) as a code span that still reads as that
    regular expression: each invisible character is written as ECMAScript escapes it (``\\uXXXX``,
    or ``\\u{XXXXX}`` beyond the BMP), never as Python's ``\\U0001XXXX``, which u-mode refuses."""
    shown = "".join(
        (f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\u{{{ord(char):x}}}")
        if hidden(char)
        else char
        for char in pattern
    )
    return md_code(shown)


def fenced(text: str, language: str = "") -> str:
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{fence}{language}\n{body}{fence}"

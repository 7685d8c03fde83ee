"""Translate an ECMA-262 (Unicode mode) regular expression into an equivalent Python ``re`` one.

The generated validators run on the standard library, so a schema ``pattern`` must be evaluated
by ``re`` with JSON Schema's ECMA-262 meaning. The two dialects differ where it matters for
security: Python's ``$`` also matches before a final newline (``"aider\\n"`` would pass
``^[a-z]+$``), its ``\\d``/``\\w``/``\\b`` are Unicode-aware, ``.`` only excludes ``\\n``, and
``\\s`` uses a different whitespace set. The translation compiles with ``re.ASCII`` (so ``\\d``,
``\\w``, ``\\b`` and their negations are exactly ECMA's ASCII classes) and rewrites the rest
(``\\B`` too: Python's never matches in an empty string).

``translate`` raises ``RegexError`` for a pattern that is not valid ECMA-262 (checked with the
``regress`` engine) or that uses a construct this module does not translate (Unicode property
escapes, ``\\S`` inside a class, backreferences), or that ``regress`` accepts but ECMAScript
refuses (a quantified ``\\b`` or ``\\B``); the compiler turns that into a generation
error, so a pattern is never silently evaluated with Python's meaning.
"""

from __future__ import annotations

import re

from generator.ecma import pattern_error

PYTHON_FLAGS = re.ASCII

# ECMA-262 WhiteSpace and LineTerminator code points: what \s means there.
_ECMA_SPACE = (
    "\\t\\n\\x0b\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_ECMA_LINE_TERMINATORS = "\\n\\r\\u2028\\u2029"
# ECMA's \B: both neighbours word characters or neither (``re.ASCII`` makes ``\w`` ECMA's).
_NOT_A_BOUNDARY = "(?:(?<=\\w)(?=\\w)|(?<!\\w)(?!\\w))"
_CONTROL_ESCAPES = {"t": "\\t", "n": "\\n", "r": "\\r", "f": "\\f", "v": "\\x0b"}
# Why a backreference is refused: the two engines give a group different contents.
_BACKREFERENCE_WHY = (
    " ECMAScript and Python's re read it differently (for a group that took no part, or that"
    " a repetition or a negative lookahead reset, ECMAScript matches the empty string where"
    " Python fails)"
)
_SYNTAX_CHARACTERS = set("^$\\.*+?()[]{}|/")


class RegexError(ValueError):
    """The pattern is invalid ECMA-262 or uses a construct the translation does not support."""


def _code_point(value: int) -> str:
    return f"\\u{value:04x}" if value <= 0xFFFF else f"\\U{value:08x}"


def _literal(char: str) -> str:
    """A single character as a Python pattern atom that means exactly that character."""
    if char.isascii() and not char.isalnum():
        return "\\" + char if char.isprintable() or char == " " else _code_point(ord(char))
    return char if char.isprintable() else _code_point(ord(char))


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.position = 0
        self.out: list[str] = []

    def fail(self, what: str) -> RegexError:
        return RegexError(f"{what} at offset {self.position} is not supported")

    def peek(self, offset: int = 0) -> str:
        index = self.position + offset
        return self.pattern[index] if index < len(self.pattern) else ""

    def take(self) -> str:
        char = self.pattern[self.position]
        self.position += 1
        return char

    def hex_digits(self, count: int) -> int:
        digits = self.pattern[self.position : self.position + count]
        self.position += count
        return int(digits, 16)

    def unicode_escape(self) -> int:
        """After ``\\u``: ``HHHH`` (combining a surrogate pair) or ``{H...}``."""
        if self.peek() == "{":
            end = self.pattern.index("}", self.position)
            value = int(self.pattern[self.position + 1 : end], 16)
            self.position = end + 1
            return value
        value = self.hex_digits(4)
        if 0xD800 <= value <= 0xDBFF and self.pattern.startswith("\\u", self.position):
            low = int(self.pattern[self.position + 2 : self.position + 6], 16)
            if 0xDC00 <= low <= 0xDFFF:
                self.position += 6
                return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        return value

    def backreference(self) -> str:
        """The text of the backreference at the current position (``\\1``, ``\\k<name>``)."""
        found = re.match(r"\\(?:[0-9]+|k<[^>]*>)", self.pattern[self.position :])
        return found.group() if found else "\\k"

    def escape(self, *, in_class: bool) -> str:  # noqa: PLR0912 - one branch per escape kind
        """Translate the escape after a backslash."""
        char = self.take()
        if char in "dDwW":
            return "\\" + char
        if char == "s":
            return _ECMA_SPACE if in_class else f"[{_ECMA_SPACE}]"
        if char == "S":
            if in_class:
                raise self.fail("\\S inside a character class")
            return f"[^{_ECMA_SPACE}]"
        if char in "bB":
            if in_class:
                return "\\x08" if char == "b" else "B"
            if self.peek() in ("*", "+", "?", "{"):
                # ECMAScript has no quantifier after an assertion (node refuses the pattern);
                # regress accepts one.
                raise RegexError(
                    f"a quantifier after the assertion \\{char} at offset {self.position - 2}"
                    " is not valid ECMA-262 (quantify a group holding it)"
                )
            # Python's \B never matches in an empty string, where ECMA's does (no boundary).
            return "\\b" if char == "b" else _NOT_A_BOUNDARY
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "0" and not self.peek().isdigit():
            return "\\x00"
        if char.isdigit() or (char == "k" and self.peek() == "<"):
            self.position -= 2
            text = self.backreference()
            raise RegexError(
                f"the backreference {text} at offset {self.position} is not supported:"
                + _BACKREFERENCE_WHY
            )
        if char == "c":
            return _code_point(ord(self.take()) % 32)
        if char == "x":
            return _code_point(self.hex_digits(2))
        if char == "u":
            return _code_point(self.unicode_escape())
        if char in _SYNTAX_CHARACTERS or char == "-":
            return _literal(char)
        raise self.fail(f"the escape \\{char}")

    def character_class(self) -> str:
        """After ``[``: the class up to its closing ``]``."""
        negated = self.peek() == "^"
        if negated:
            self.position += 1
        if self.peek() == "]":
            self.position += 1
            return "(?s:.)" if negated else "(?!)"
        members: list[str] = []
        # A "-" is a range operator only between two single characters (ECMA-262 ClassRanges);
        # anywhere else it is a literal, which Python must see escaped.
        previous_is_single = False
        while self.peek() != "]":
            char = self.take()
            if char == "\\":
                is_class_escape = self.peek() in "dDwWsS"
                members.append(self.escape(in_class=True))
                previous_is_single = not is_class_escape
            elif char == "-" and previous_is_single and self.peek() != "]":
                members.append("-")
                members.append(self.range_end())
                previous_is_single = False
            else:
                members.append(_literal(char))
                previous_is_single = True
        self.position += 1
        return "[" + ("^" if negated else "") + "".join(members) + "]"

    def range_end(self) -> str:
        char = self.take()
        return self.escape(in_class=True) if char == "\\" else _literal(char)

    def group_opening(self) -> str:
        """After ``(``: the group's opening in Python syntax."""
        if self.peek() != "?":
            return "("
        for ecma in ("?:", "?=", "?!", "?<=", "?<!"):
            if self.pattern.startswith(ecma, self.position):
                self.position += len(ecma)
                return "(" + ecma
        if self.pattern.startswith("?<", self.position):
            end = self.pattern.index(">", self.position)
            name = self.pattern[self.position + 2 : end]
            self.position = end + 1
            return f"(?P<{name}>"
        raise self.fail("the group syntax")

    def translate(self) -> str:
        while self.position < len(self.pattern):
            char = self.take()
            if char == "\\":
                self.out.append(self.escape(in_class=False))
            elif char == "[":
                self.out.append(self.character_class())
            elif char == "(":
                self.out.append(self.group_opening())
            elif char == ".":
                self.out.append(f"[^{_ECMA_LINE_TERMINATORS}]")
            elif char == "$":
                self.out.append("\\Z")
            elif char in "^)|*+?":
                self.out.append(char)
            elif char == "{":
                end = self.pattern.index("}", self.position)
                self.out.append(self.pattern[self.position - 1 : end + 1])
                self.position = end + 1
            else:
                self.out.append(_literal(char))
        return "".join(self.out)


def translate(pattern: str) -> str:
    """The Python ``re`` source (for ``re.compile(source, PYTHON_FLAGS)``) equivalent to
    ``pattern`` under ECMA-262 Unicode-mode semantics."""
    problem = pattern_error(pattern)
    if problem is not None:
        raise RegexError(f"invalid ECMA-262 regular expression: {problem}")
    try:
        source = _Translator(pattern).translate()
        re.compile(source, PYTHON_FLAGS)
    except RegexError:
        raise
    except (ValueError, IndexError, OverflowError, re.error) as error:
        # OverflowError: a repeat count Python's re cannot hold (``a{4294967296}``).
        raise RegexError(f"cannot be translated to Python: {error}") from error
    return source

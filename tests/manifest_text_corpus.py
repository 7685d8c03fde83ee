"""A reproducible corpus of hostile adapter-file *texts* for the cross-language parse tests.

``text_corpus(size, seed)`` gives ``size`` byte strings, each a valid manifest (the shared
``tests/vectors/base-manifest.json``, or one of ``manifest_corpus``'s base manifests) edited the
way a hostile third party would edit a file: values replaced (wrong types, bidi and format
controls, confusable and compatibility-form display names, astral characters at length limits,
numbers such as ``1e400``, ``-0``, ``1.0`` and integers of 4300+ digits), members duplicated at any
depth, keys such as ``__proto__`` and escaped surrogates, nesting near and past the limit,
unusual white space and comments between tokens, trailing commas, and then the bytes themselves
cut, flipped, padded near the size limit, prefixed with byte-order marks or given invalid
UTF-8 (overlong forms, encoded surrogates, stray continuation bytes). Same seed, same bytes.

The document is first held as a tree whose objects are lists of pairs (so a key can repeat) and
whose leaves may be raw JSON text (so a number or string can be spelled exactly), then written
out token by token.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .manifest_corpus import VALUES, base_manifest

BASE = json.loads(
    (Path(__file__).parent / "vectors" / "base-manifest.json").read_text(encoding="utf-8")
)
LIMIT = 65536  # MANIFEST_MAX_BYTES; sizes near it are aimed at, the rule itself is the runtimes'
NESTING = 32  # MAX_NESTING


@dataclass
class Raw:
    """JSON text written exactly as given (a number's or string's own spelling, or garbage)."""

    text: str


@dataclass
class Obj:
    pairs: list[tuple[str | Raw, Any]] = field(default_factory=list)


@dataclass
class Arr:
    items: list[Any] = field(default_factory=list)


NUMBERS = [
    "1e400",
    "-1e400",
    "-0",
    "-0.0",
    "1.0",
    "0.5e-400",
    "1E+308",
    "1e309",
    "123456789012345678901234567890",
    "9007199254740993",
    "1" + "0" * 4299,
    "1" + "0" * 4300,
    "-" + "9" * 4300,
    "-" + "9" * 4301,
    "1" + "0" * 4300 + ".0",
    "1e99999999999999999999",
    "01",
    "1.",
    ".5",
    "+1",
    "-",
    "0x10",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e",
    "1e+",
    "2.5E-3",
]
STRINGS = [
    '"\\ud800"',
    '"\\udc00"',
    '"\\ud83d\\ude00"',
    '"\\uDE00\\uD83D"',
    '"\\ud83dx"',
    '"\\ud83d\\u0041"',
    '"\\ud83d\\ud83d\\ude00"',
    '"\\u0000"',
    '"\\u0031"',
    '"a\\/b"',
    '"\\x41"',
    '"\\u12"',
    '"\\u12G4"',
    '"tab\there"',
    '"nul\x00"',
    '"line\nbreak"',
    '"del\x7f"',
    '"\\u2028\\u2029"',
    '"\u2028"',
    '"\\\\"',
    '"\\"',
    '"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
    '"\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["',
    '"\\\\"',
]
DISPLAY_NAMES = [
    "Claude Code",
    "claude code",
    "CLAUDE CODE",
    "ClaudeCode",
    "Claude\u00a0Code",
    "Claude\u200bCode",
    "C\u0142aude Code",
    "\u0421laude Code",  # Cyrillic Es
    "\uff23laude \uff23ode",  # fullwidth
    "Cl\u0430ude Code",
    "Curs\u043er",
    "Cursor\u00ad",
    "\u202eCursor",
    "Cursor\u2066",
    "C\u0301ursor",
    "\u210cermes Agent",
    "Codex CLl",
    "Codex CL1",
    "0penClaw",
    "Open\ufe00Claw",
    "\U0001d402ursor",  # mathematical bold C
    "Cl\u0378ude Code",  # unassigned in every Unicode version so far
    "Cursor\ufdd0",  # a noncharacter
    "\U0001f600" * 80,
    "\U0001f600" * 81,
    "x" * 80,
    "x" * 81,
    "\u00e9" * 80,
    "e\u0301" * 40,
    "e\u0301" * 41,
    "\U000e0041gent",
    "\ufeffAider",
    "",
    " ",
    "Aider\u2028",
    "Ai\u034fder",
]
KEYS = [
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "prototype",
    "0",
    "1",
    "4294967295",
    "-0",
    "01",
    "a/b~c",
    "",
    "id ",
    "ID",
    "\u202eid",
    "unknown",
    "\ud800",  # written with ensure_ascii: an escaped lone surrogate
    "\ud83d\ude00",
    "displayName\u0000",
]
KEY_TOKENS = [
    '"\\u0069d"',  # "id" spelled with an escape
    '"\\u005f_proto__"',
    '"\\u0030"',  # "0" spelled with an escape
    '"\\ud800x"',
    '"\\udfff"',
    '"\\ud83d\\ude00"',
    '"a\\u0000b"',
    '"\x01"',
    "id",  # unquoted
    "'id'",
]
# Between tokens: JSON white space mostly, sometimes something a lenient reader would take.
SPACES = ["", " ", "\n", "\t", "\r\n", "  \n  "]
ODD_SPACES = [
    "\u00a0",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\x0b",
    "\x0c",
    "\u3000",
    "/* c */",
    "// c\n",
    "#c\n",
]
BAD_UTF8 = [
    b"\xc0\xaf",  # overlong '/'
    b"\xc1\xbf",
    b"\xe0\x80\xaf",  # overlong, three bytes
    b"\xf0\x80\x80\xaf",  # overlong, four bytes
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xed\xbf\xbf",
    b"\xed\xa0\xbd\xed\xb8\x80",  # an encoded surrogate pair (CESU-8)
    b"\xf4\x90\x80\x80",  # past U+10FFFF
    b"\xf5\x80\x80\x80",
    b"\xff",
    b"\xfe",
    b"\x80",
    b"\xbf",
    b"\xe2\x82",  # truncated
    b"\xf0\x9f\x98",
    b"\xc3",
    b"\x00",
    b"\xef\xbb\xbf",  # a byte-order mark where none may be
]


def tree(value: Any) -> Any:
    """A plain JSON value as the corpus tree."""
    if isinstance(value, dict):
        return Obj([(key, tree(item)) for key, item in value.items()])
    if isinstance(value, list):
        return Arr([tree(item) for item in value])
    return value


class Writer:
    """Writes a tree as JSON text with per-case choices of spacing and escaping."""

    def __init__(self, chooser: random.Random) -> None:
        self.chooser = chooser
        self.ascii = chooser.random() < 0.5
        self.odd = chooser.random() < 0.05
        self.trailing = chooser.random() < 0.03
        self.spaces = chooser.choice([[""], [" "], SPACES])

    def space(self) -> str:
        if self.odd and self.chooser.random() < 0.1:
            return self.chooser.choice(ODD_SPACES)
        return self.chooser.choice(self.spaces)

    def scalar(self, value: Any) -> str:
        if isinstance(value, Raw):
            return value.text
        if isinstance(value, str) and not self.ascii:
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return json.dumps(value)  # a lone surrogate only has an escaped spelling
        return json.dumps(value, ensure_ascii=self.ascii)

    def write(self, node: Any) -> str:
        s = self.space
        if isinstance(node, Obj):
            members = [
                f"{s()}{self.scalar(key)}{s()}:{s()}{self.write(item)}{s()}"
                for key, item in node.pairs
            ]
            tail = "," if self.trailing and members and self.chooser.random() < 0.5 else ""
            return "{" + ",".join(members) + tail + s() + "}"
        if isinstance(node, Arr):
            items = [f"{s()}{self.write(item)}{s()}" for item in node.items]
            tail = "," if self.trailing and items and self.chooser.random() < 0.5 else ""
            return "[" + ",".join(items) + tail + s() + "]"
        return self.scalar(node)


def _containers(node: Any) -> list[Any]:
    found: list[Any] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Obj):
            found.append(item)
            stack.extend(value for _, value in item.pairs)
        elif isinstance(item, Arr):
            found.append(item)
            stack.extend(item.items)
    return found


def _nested(depth: int, chooser: random.Random, leaf: Any) -> Any:
    node = leaf
    for _ in range(depth):
        node = (
            Obj([(chooser.choice(["a", "b", "__proto__"]), node)])
            if chooser.random() < 0.5
            else Arr([node])
        )
    return node


def _hostile_value(chooser: random.Random) -> Any:
    pick = chooser.random()
    if pick < 0.3:
        return Raw(chooser.choice(NUMBERS))
    if pick < 0.5:
        return Raw(chooser.choice(STRINGS))
    if pick < 0.6:
        return chooser.choice(DISPLAY_NAMES)
    if pick < 0.7:
        return _nested(
            chooser.choice([1, 5, 29, 30, 31, 32, 33, 40]),
            chooser,
            chooser.choice([1, "x", Obj(), Arr()]),
        )
    return tree(chooser.choice(VALUES))


def edit(document: Obj, chooser: random.Random) -> None:
    """One structural or value edit somewhere in ``document``."""
    containers = _containers(document)
    node = chooser.choice(containers)
    action = chooser.random()
    if isinstance(node, Arr):
        if node.items and action < 0.5:
            node.items[chooser.randrange(len(node.items))] = _hostile_value(chooser)
        else:
            node.items.insert(chooser.randint(0, len(node.items)), _hostile_value(chooser))
        return
    if node.pairs and action < 0.25:  # a duplicate key, same or another value
        key, value = chooser.choice(node.pairs)
        twin = value if chooser.random() < 0.5 else _hostile_value(chooser)
        node.pairs.insert(chooser.randint(0, len(node.pairs)), (key, twin))
    elif node.pairs and action < 0.55:
        index = chooser.randrange(len(node.pairs))
        node.pairs[index] = (node.pairs[index][0], _hostile_value(chooser))
    elif node.pairs and action < 0.65:
        del node.pairs[chooser.randrange(len(node.pairs))]
    else:
        # A key written as a string, or as raw text (escapes, unquoted, a control character).
        name: str | Raw = chooser.choice(KEYS) if action < 0.9 else Raw(chooser.choice(KEY_TOKENS))
        node.pairs.insert(chooser.randint(0, len(node.pairs)), (name, _hostile_value(chooser)))


def _display_name_case(chooser: random.Random) -> Obj:
    document = tree({**BASE, "displayName": chooser.choice(DISPLAY_NAMES)})
    assert isinstance(document, Obj)
    return document


def _special_case(chooser: random.Random) -> Obj:
    """A built-in's id, a ``candidates`` detect only built-ins may use, or a flood of members
    (past the per-file diagnostic limit), over the base manifest."""
    document = dict(BASE)
    pick = chooser.random()
    if pick < 0.3:
        document["id"] = chooser.choice(["codex", "cursor", "claude-code", "openclaw", "Codex"])
    elif pick < 0.5:
        document["detect"] = {"kind": "candidates", "paths": {"linux": ["/opt/x"]}}
    elif pick < 0.75:
        for index in range(chooser.randint(8, 30)):
            document[f"extra{index}"] = index
    else:
        capabilities: dict[str, Any] = {"provides": ["headless-task"]}
        for index in range(chooser.randint(8, 30)):
            capabilities[chooser.choice([f"k{index}", str(index)])] = index
        document["capabilities"] = capabilities
    built = tree(document)
    assert isinstance(built, Obj)
    return built


def _padded_to(data: bytes, size: int, chooser: random.Random) -> bytes:
    """``data`` (a JSON object's text) grown to ``size`` bytes by an unknown member or white
    space just before its closing brace (when it ends with one)."""
    if not data.rstrip().endswith(b"}"):
        return data + b" " * max(size - len(data), 0)
    body = data.rstrip()[:-1]
    if chooser.random() < 0.5:
        room = size - len(body) - len(b',"pad":""}')
        filler = chooser.choice(["x", "\u00e9", "\U0001f600", "\\n"])
        unit = len(filler.encode("utf-8"))
        text = filler * max(room // unit, 0)
        text += "y" * max(room - len(text.encode("utf-8")), 0)
        return body + b',"pad":"' + text.encode("utf-8") + b'"}'
    return body + b" " * max(size - len(body) - 1, 0) + b"}"


def _byte_edit(data: bytes, chooser: random.Random) -> bytes:
    action = chooser.random()
    if not data:
        return data
    at = chooser.randrange(len(data) + 1)
    if action < 0.25:  # truncated
        return data[:at]
    if action < 0.45:  # one byte changed
        at = min(at, len(data) - 1)
        return data[:at] + bytes([chooser.randrange(256)]) + data[at + 1 :]
    if action < 0.7:
        return data[:at] + chooser.choice(BAD_UTF8) + data[at:]
    if action < 0.8:
        return (
            chooser.choice([b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xef\xbb", b"\xfe\xff"])
            + data
        )
    if action < 0.9:  # the size limit, just under, at or just past it
        return _padded_to(data, LIMIT + chooser.randint(-3, 3), chooser)
    # a structural byte removed or added
    symbol = chooser.choice([b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\"])
    if chooser.random() < 0.5:
        return data[:at] + symbol + data[at:]
    where = data.find(symbol, at)
    return data if where < 0 else data[:where] + data[where + 1 :]


def _bracket_soup(chooser: random.Random) -> bytes:
    """Brackets around the nesting limit mixed with quotes, backslashes and line breaks: the
    nesting scan skips strings by its own reading, before any parse."""
    pieces = ["[", "{", "]", "}", '"', "\\", "\n", "a", ":", ",", '"["', '"\\""', "1"]
    weights = [6, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]
    text = "".join(chooser.choices(pieces, weights, k=chooser.randint(60, 160)))
    return text.encode("utf-8")


def text_case(index: int, chooser: random.Random) -> bytes:
    """One hostile file."""
    kind = chooser.random()
    if kind < 0.03:
        return _bracket_soup(chooser)
    if kind < 0.15:
        document = _display_name_case(chooser)
    elif kind < 0.25:
        document = _special_case(chooser)
    elif kind < 0.5:
        document = tree(dict(BASE))
    else:
        document = tree(base_manifest(index))
    assert isinstance(document, Obj)
    for _ in range(chooser.choice([0, 1, 1, 2, 3, 5])):
        edit(document, chooser)
    if chooser.random() < 0.04:  # not an object at the top
        top: Any = _hostile_value(chooser)
        text = Writer(chooser).write(top)
    else:
        text = Writer(chooser).write(document)
    data = text.encode("utf-8", "surrogatepass")
    for _ in range(chooser.choice([0, 0, 0, 1, 1, 2])):
        data = _byte_edit(data, chooser)
    return data


def text_corpus(size: int, seed: int) -> list[bytes]:
    """``size`` hostile files, the same for the same seed."""
    chooser = random.Random(seed)
    return [text_case(index, chooser) for index in range(size)]


NAME_STEMS = [
    b"a",
    b"Z",
    b"\xff",  # not UTF-8
    b"caf\xc3\xa9",
    b"cafe\xcc\x81",
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xef\xbb\xbf",
    b"a\nb",
    b" ",
    b"-",
    b"\\",
    b"\x1b[31m",
    b"\xe2\x80\xae",  # a bidi override
    b"x" * 60,
    b"",
]
NAME_SUFFIXES = [b".json", b".json", b".json", b".JSON", b".json.bak", b".json ", b""]


def file_names(count: int, seed: int) -> list[bytes]:
    """``count`` distinct hostile file names (bytes: some are not UTF-8) for a folder."""
    chooser = random.Random(seed)
    names: list[bytes] = []
    while len(names) < count:
        stem = b"".join(chooser.choices(NAME_STEMS, k=chooser.randint(1, 3)))
        name = (
            stem + str(len(names)).encode() * chooser.randint(0, 1) + chooser.choice(NAME_SUFFIXES)
        )
        if name and name not in names and b"/" not in name and b"\0" not in name:
            names.append(name)
    return names

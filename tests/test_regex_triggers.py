"""The fast path past a pattern's leading negative lookaheads (``regex_facts.fast_path``, the plan's
``Pattern.fast``): a string holding none of the dropped lookaheads' literals gets the same answer
from the shorter pattern, so the emitted ``(FAST if ... else FULL)(s)`` answers as ``FULL(s)``."""

from __future__ import annotations

import json
import random
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from generator import plan
from generator.ecma_to_re import translate
from generator.regex_facts import fast_path, spelled_without_lookaheads
from generator.validator_compiler import compile_validators

from .conftest import REPO, run_node

SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))


def _schema_patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        for key, value in node.items():
            if key != "pattern":
                found += _schema_patterns(value)
        return found
    if isinstance(node, list):
        return [pattern for item in node for pattern in _schema_patterns(item)]
    return []


# ECMA-262 patterns built to trip a careless required-literal analysis.
ADVERSARIAL = [
    r"^(?!.*(?:ab|cd))[a-z]+$",  # alternation inside the lookahead: no required literal
    r"^(?!.*(?:\.\.|//))[a-z./]*$",
    r"^(?!.*a(?:b)?c)[a-z]+$",  # an optional literal between two required ones
    r"^(?!.*(?:ab)?c)[a-c]*$",
    r"^(?!.*x(?:yz){1,3}w)[a-z]*$",
    r"^(?!.*q{0,2}r)[a-z]*$",  # {0,n}: the repeated literal is not required
    r"^(?!.*(?:q{0,2})r)[a-z]*$",
    r"^(?!(?:.*/)?(?:ab)+c)[a-z/]*$",
    r"^(?!.*(?:(?:ab)c)d)[a-z]*$",  # nested groups
    r"^(?![^x]*yy)(?!-)[a-z-]*$",
    r"^(?!.*[)\]]\)\.\.)[a-z).\]]*$",  # a class holding ')' and ']' inside the lookahead
    r"^(?!.*\.\.)(?!.*--)[a-z.-]*$",  # two lookaheads dropped
    r"^(?!-)(?!.*\.\.)(?![a-z]*:)[a-z.:-]*$",
    r"^(?!.*\u00e9\u00e9)[^\n]*$",  # a non-ASCII literal
    r"^(?!.*(?:a|b)c)(?!.*(?:[ab]c)+d)[a-d]*$",
    r"^(?!(?:.*/)?\.\.(?:/|$))(?!.*\n)[^\r]*$",
]

SCHEMA_PATTERNS = sorted(set(_schema_patterns(SCHEMA)))
PATTERNS = SCHEMA_PATTERNS + ADVERSARIAL

ASSORTED = [
    "a", "Z", "c", "d", "0", ".", "..", "/", "-", "--", ":", ";", "{prompt}", "{", "}", "prompt",
    " ", "\n", "\r", "\t", "\u2028", "\u2029", "\u00e9", "\u00e9\u00e9", "\u00a0", "\ud800",
    "\udfff", "\U0001f600", ")", "]", "ab", "yz", "x", "w", "q", "r",
]  # fmt: skip


def _pieces(python: str, literals: tuple[tuple[str, ...], ...]) -> list[str]:
    """Literal text from the pattern (unescaped), the trigger literals and assorted characters."""
    found = re.findall(r"(?:\\.|[A-Za-z0-9{}])+", python)
    unescaped = [re.sub(r"\\(.)", r"\1", piece) for piece in found]
    return sorted({*unescaped, *(text for group in literals for text in group), *ASSORTED})


def _inert(text: str, literals: tuple[tuple[str, ...], ...]) -> bool:
    """No dropped lookahead can refuse ``text``: it lacks a literal of each group."""
    return all(any(literal not in text for literal in group) for group in literals)


def _strings(
    python: str, literals: tuple[tuple[str, ...], ...], count: int, seed: int
) -> list[str]:
    pieces = _pieces(python, literals)
    chooser = random.Random(seed)
    return [
        "".join(chooser.choice(pieces) for _ in range(chooser.randrange(0, 9)))
        for _ in range(count)
    ]


@pytest.mark.parametrize("source", PATTERNS)
def test_the_fast_or_full_search_answers_as_the_full_search(source: str) -> None:
    python = translate(source)
    full = re.compile(python, re.ASCII).search
    fact = fast_path(python)
    if fact is None:
        return
    fast_source, literals = fact
    fast = re.compile(fast_source, re.ASCII).search
    assert literals and len(fast_source) < len(python)
    for text in _strings(python, literals, 4000, zlib.crc32(source.encode())):
        chosen = fast if _inert(text, literals) else full
        assert (chosen(text) is None) == (full(text) is None), (source, text)


def _compiled(source: str) -> dict[str, Any]:
    # Bounded as the schema bounds its strings (a slow pattern on unbounded ones is refused).
    string = {"type": "string", "pattern": source, "maxLength": 256}
    schema = {"type": "object", "properties": {"a": string}}
    namespace: dict[str, Any] = {}
    code = compile_validators(schema, {"validate": ""}, package="tool_registry")
    exec(compile(code, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    return namespace


@pytest.mark.parametrize("source", PATTERNS)
def test_the_emitted_tests_answer_as_without_the_fast_path(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_fast = _compiled(source)
    monkeypatch.setattr(plan, "fast_path", lambda python: None)
    without = _compiled(source)
    python = translate(source)
    fact = fast_path(python)
    literals = fact[1] if fact is not None else ()
    valid = [name for name in with_fast if name.startswith("_valid_")]
    for text in _strings(python, literals, 2000, zlib.crc32(source.encode()) + 1):
        document = {"a": text}
        assert with_fast["validate"](document) == without["validate"](document), (source, text)
        for name in valid:
            assert with_fast[name](document) == without[name](document), (source, text)


def test_the_manifest_patterns_with_scanning_lookaheads_take_the_fast_path() -> None:
    taken = [source for source in _schema_patterns(SCHEMA) if fast_path(translate(source))]
    assert any("(?!(?:.*/)?\\.\\.(?:/|$))" in source for source in taken)
    assert any("prompt" in source for source in taken)
    hook = translate(r"^(?!/)(?!(?:.*/)?\.\.(?:/|$))[A-Za-z0-9._/-]+$")
    assert fast_path(hook) == (r"^(?!\/)[A-Za-z0-9\.\_\/\-]+\Z", (("..",),))
    # The prompt argument's cheap lookaheads repeat something: dropped too, each with the
    # literals it needs (either of two for the last).
    (prompt,) = [source for source in SCHEMA_PATTERNS if "prompt" in source]
    fact = fast_path(translate(prompt))
    assert fact is not None
    # The last: a long option's name the placeholder completes (``--o{prompt}``).
    assert fact[1] == (("/",), (":",), (".",), ("{prompt}", "-"), ("{prompt}", "--"))
    assert "(?!" not in fact[0]


@pytest.mark.parametrize(
    ("python", "expected"),
    [
        (r"^(?!.*(?:a|b))x*\Z", None),  # a branch requires no literal
        (r"^(?!.*(?:ab|cd))x*\Z", None),
        (r"^(?!.*(?:ab)?c)[a-c]*\Z", (r"^[a-c]*\Z", (("c",),))),  # only c is required
        (r"^(?!.*a(?:b)?c)[a-c]*\Z", (r"^[a-c]*\Z", (("a", "c"),))),
        (r"^(?!.*b{0,3}c)[a-c]*\Z", (r"^[a-c]*\Z", (("c",),))),
        (r"^(?!.*(?:bc){2,})[a-c]*\Z", (r"^[a-c]*\Z", (("bc",),))),
        (r"^(?!.*[ab])[a-c]*\Z", None),  # a class is no literal
        (r"^(?!.*\d)[a-c]*\Z", None),
        (r"^(?!ab)[a-c]*\Z", None),  # no repeat: one test at the first character, kept
        (r"^(?!(?:ab)*c)[a-c]*\Z", (r"^[a-c]*\Z", (("c",),))),  # a repeat: dropped
        (r"^(?!a+bc)[a-c]*\Z", (r"^[a-c]*\Z", (("bc", "a"),))),  # either literal lacking
        (r"^(?i)(?!.*ab)[a-c]*\Z", None),  # case folding
        (r"^(?!.*(?i:ab))[a-c]*\Z", None),
        (r"(?m)^(?!.*ab)[a-c]*\Z", None),  # '^' after every line break
        (r"^(?!.*(a)\1)[a-c]*\Z", None),  # a capturing group and a back-reference
        (r"^(?!.*(?=ab)ab)[a-c]*\Z", (r"^[a-c]*\Z", (("ab",),))),
        (r"^(?!.*(?!x)ab)[a-c]*\Z", (r"^[a-c]*\Z", (("ab",),))),
        (r"(?!.*ab)[a-c]*\Z", None),  # not anchored
        (r"^[a-c](?!.*ab)[a-c]*\Z", None),  # not leading
        (r"^(?=a)(?!.*ab)[a-c]*\Z", None),  # after a positive lookahead: not leading
        (r"^(?<!.)(?!.*ab)[a-c]*\Z", None),
    ],
)
def test_unsure_cases_are_conservative(
    python: str, expected: tuple[str, tuple[tuple[str, ...], ...]] | None
) -> None:
    assert fast_path(python) == expected


def test_the_ecma_spelling_of_the_fast_path_translates_to_it() -> None:
    """The TypeScript backend tests ``FastPath.ecma``: its translation is the Python fast path
    (the proof both spell one pattern), and every manifest pattern with a fast path has one."""
    spelled = 0
    for source in PATTERNS:
        fact = fast_path(translate(source))
        if fact is None:
            continue
        ecma = spelled_without_lookaheads(source, fact[0], translate)
        if source in SCHEMA_PATTERNS:
            assert ecma is not None, source
        if ecma is not None:
            spelled += 1
            assert translate(ecma) == fact[0]
            assert len(ecma) < len(source)
    assert spelled >= 5


def test_the_ecma_spelling_is_a_removal_of_whole_leading_lookaheads_or_none() -> None:
    source = r"^(?!-)(?!.*\.\.)(?![a-z]*:)[a-z.:-]*$"
    kept_last = spelled_without_lookaheads(source, translate(r"^(?![a-z]*:)[a-z.:-]*$"), translate)
    assert kept_last == r"^(?![a-z]*:)[a-z.:-]*$"
    assert spelled_without_lookaheads(source, translate(r"^[a-z.:-]*$"), translate) == (
        r"^[a-z.:-]*$"
    )
    # No removal of whole lookaheads translates to these: nothing is given.
    assert spelled_without_lookaheads(source, translate(r"^[a-z]*$"), translate) is None
    assert spelled_without_lookaheads(source, translate(r"^(?!.*\.)[a-z.:-]*$"), translate) is None
    assert spelled_without_lookaheads(r"^[a-z]*$", translate(r"^[a-z]*$"), translate) is None


def test_the_typescript_fast_or_full_test_answers_as_the_full_test(tmp_path: Path) -> None:
    """In node, with the ``u`` flag: for strings built from each pattern's pieces, the emitted
    ``(lacks literals ? FAST : FULL).test(s)`` answers as ``FULL.test(s)``."""
    cases = []
    for source in PATTERNS:
        python = translate(source)
        fact = fast_path(python)
        ecma = None if fact is None else spelled_without_lookaheads(source, fact[0], translate)
        if fact is None or ecma is None:
            continue
        strings = _strings(python, fact[1], 3000, zlib.crc32(source.encode()) + 2)
        cases.append({"full": source, "fast": ecma, "literals": fact[1], "strings": strings})
    assert len(cases) >= 5
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    script = tmp_path / "fast.mjs"
    script.write_text(
        'import { readFileSync } from "node:fs";\n'
        'const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));\n'
        "const wrong = [];\n"
        "for (const { full, fast, literals, strings } of cases) {\n"
        '  const [FULL, FAST] = [new RegExp(full, "u"), new RegExp(fast, "u")];\n'
        "  for (const s of strings) {\n"
        "    const lacks = literals.every((group) => group.some((literal) => !s.includes(literal)));\n"
        "    if ((lacks ? FAST : FULL).test(s) !== FULL.test(s)) wrong.push([full, s]);\n"
        "  }\n"
        "}\n"
        "console.log(JSON.stringify({ wrong, checked: cases.length }));\n",
        encoding="utf-8",
    )
    result = run_node(script)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome == {"wrong": [], "checked": len(cases)}


def test_the_typescript_validator_takes_the_fast_path() -> None:
    """The generated validator spells the fast path (and the shorter pattern once)."""
    text = (REPO / "generated/typescript/validator.ts").read_text(encoding="utf-8")
    assert '.includes("..") ? PATTERN_' in text
    assert 'new RegExp("^(?!/)[A-Za-z0-9._/-]+$", "u")' in text


STRING_RULES = [
    {"minLength": 1, "maxLength": 5, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"},
    {"maxLength": 4, "pattern": "^[^\\u0000-\\u001f]+$"},  # the pattern needs a character
    {"minLength": 2},
    {"minLength": 0, "maxLength": 3},
]
PRINTABLE_PIECES = [
    "a",
    "Z",
    " ",
    "~",
    "ab",
    "\n",
    "\x7f",
    "\x85",
    "\u00e9",
    "\ud800",
    "\U0001f600",
]


@pytest.mark.parametrize("rules", STRING_RULES, ids=str)
def test_the_printable_ascii_acceptance_answers_as_the_separate_tests(
    rules: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answering, a printable ASCII string of a fitting length is accepted by one test before
    the surrogate, length and pattern tests: every verdict is the same without that test."""
    schema = {"type": "object", "properties": {"a": {"type": "string", **rules}}}
    source = compile_validators(schema, {"validate": ""}, package="tool_registry")
    assert ".isprintable() and" in source
    with_accept: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), with_accept)  # noqa: S102 - our own output
    from generator import validator_compiler

    monkeypatch.setattr(validator_compiler, "_printable_ascii_accepts", lambda *_: None)
    without: dict[str, Any] = {}
    plain = compile_validators(schema, {"validate": ""}, package="tool_registry")
    assert plain != source
    exec(compile(plain, "<compiled>", "exec"), without)  # noqa: S102 - our own output
    chooser = random.Random(zlib.crc32(repr(rules).encode()))
    answers = [name for name in with_accept if name.startswith("_valid_")]
    assert answers
    for _ in range(3000):
        text = "".join(chooser.choice(PRINTABLE_PIECES) for _ in range(chooser.randrange(0, 8)))
        document = {"a": text}
        for name in answers:
            assert with_accept[name](document) == without[name](document), (rules, text)
        assert with_accept["validate"](document) == without["validate"](document), (rules, text)

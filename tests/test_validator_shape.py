"""The compiled answering code (the valid path) is lean, and the shortcuts it takes are sound.

No timing here (bench/runtime_bench.py measures): these tests pin what makes the valid path cheap
(one type test per value, key-set tests, inlined references, no per-keyword calls) and check
each shortcut against the collecting path, which must still report what the shortcut skips."""

from __future__ import annotations

import inspect
import itertools
import re
from typing import Any

import pytest
from tool_registry import DiagnosticCode, validate_third_party_manifest, validate_tool_manifest
from tool_registry import validator as generated

from generator.ecma_to_re import translate
from generator.regex_facts import (
    anchored_at_start,
    forbidden_characters,
    matches_only_ascii,
    printable_ascii_matches,
)
from generator.validator_compiler import compile_validators

from .test_runtime_bounds import manifest

LONE = "\ud800"


@pytest.mark.parametrize(
    ("pattern", "only_ascii"),
    [
        ("^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$", True),
        ("^(?!/)(?!(?:.*/)?\\.\\.(?:/|$))[A-Za-z0-9._/-]+$", True),  # lookarounds consume nothing
        ("^\\d+\\w*$", True),  # ASCII classes under re.ASCII
        ("^\\s$", False),  # ECMA's \\s holds non-ASCII spaces
        ("^[^;]+$", False),  # a negated class matches non-ASCII characters
        ("^.+$", False),
        ("[a-z]+$", False),  # unanchored: a match need not cover the string
        ("^[a-z]+", False),
        ("^[a-z]+$|x", False),
        ("^caf\u00e9$", False),
        ("^\\D$", False),
    ],
)
def test_patterns_that_can_only_match_ascii(pattern: str, only_ascii: bool) -> None:
    assert matches_only_ascii(translate(pattern)) is only_ascii


def test_back_references_are_not_analysed() -> None:
    # The translation refuses them; the analysis of a Python source stays conservative.
    assert matches_only_ascii("^(a)\\1\\Z") is False


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        ({"id": f"ab{LONE}"}, "/id"),
        ({"hookPointer": f"a/{LONE}"}, "/hookPointer"),
        ({"detect": {"kind": "path", "binaryName": f"a{LONE}"}}, "/detect/binaryName"),
    ],
)
def test_a_surrogate_refused_by_an_ascii_pattern_is_still_reported_as_one(
    changes: dict[str, Any], pointer: str
) -> None:
    # The answering pass skips the surrogate test where an ASCII-only pattern runs; the document
    # is refused by the pattern, and the collecting pass reports the surrogate as well.
    for validate in (validate_tool_manifest, validate_third_party_manifest):
        found = {(d.code, d.pointer, d.keyword) for d in validate(manifest(**changes))}
        assert (DiagnosticCode.LONE_SURROGATE, pointer, "") in found
        assert (DiagnosticCode.SCHEMA_VIOLATION, pointer, "pattern") in found


def _answering(entry: str) -> str:
    """The source of the answering function behind a generated entry point."""
    name = next(
        line.split("(")[0].split()[-1]
        for line in inspect.getsource(getattr(generated, entry)).splitlines()
        if "_valid_" in line
    )
    return inspect.getsource(getattr(generated, name))


@pytest.mark.parametrize("entry", ["validate_tool_manifest", "validate_third_party_manifest"])
def test_the_valid_path_makes_no_call_per_keyword(entry: str) -> None:
    source = _answering(entry)
    assert "MISSING" not in source  # properties read by subscript after one `in` test
    assert "json_equal" not in source  # constants compared inline
    assert "all_unique" not in source  # strings: one set
    assert "_valid_" not in source.split("\n", 1)[1]  # references and alternatives inlined
    assert source.count("isinstance(v, dict)") == 1  # the root's type tested once
    # A closed object requiring each of its few properties: its size, then one ``in`` a name.
    assert re.search(r'len\(v\d+\) != 1 or "provides" not in v\d+', source)


def test_the_third_party_entry_checks_detect_once() -> None:
    # properties/detect ($defs/PathDetect) and the root's oneOf (ToolDetectSpec) both reach the
    # same value: the second sees it proven and only dispatches on the tag.
    source = _answering("validate_third_party_manifest")
    binary_name_pattern = next(
        name
        for name in dir(generated)
        if name.startswith("_MATCH") and "(?!\\.\\.?\\Z)" in _src(name)  # binaryName's
    )
    assert source.count(binary_name_pattern + "(") == 1


def _src(name: str) -> str:
    return str(getattr(generated, name).__self__.pattern)


@pytest.mark.parametrize(
    ("schema", "valid", "invalid"),
    [
        # `if` decided inline: a property pinned by a constant, required or not.
        (
            {
                "type": "object",
                "if": {"properties": {"t": {"const": "a"}}},
                "then": {"required": ["x"]},
                "else": {"required": ["y"]},
            },
            [{"x": 1}, {"t": "a", "x": 1}, {"t": "b", "y": 1}, {"t": None, "y": 1}],
            [{}, {"t": "a", "y": 1}, {"t": "b", "x": 1}],
        ),
        (
            {"if": {"required": ["t"], "properties": {"t": {"const": False}}}, "then": False},
            [{"t": 0}, {"t": True}, {}],
            [{"t": False}, "text", 3],  # `if` holds for a non-object: then (false) applies
        ),
        # A closed object whose properties are all required: one key-set test.
        (
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["a", "b"],
                "properties": {"a": {"const": 1}, "b": {"enum": ["x", "y"]}},
            },
            [{"a": 1, "b": "x"}, {"a": 1.0, "b": "y"}],
            [{"a": 1}, {"a": 1, "b": "x", "c": 0}, {"a": True, "b": "x"}, {"a": 1, "b": ["x"]}],
        ),
        # A closed object requiring more properties than are tested one by one: one key-set test.
        (
            {
                "type": "object",
                "additionalProperties": False,
                "required": [f"k{n}" for n in range(9)],
                "properties": {f"k{n}": {} for n in range(9)},
            },
            [{f"k{n}": n for n in range(9)}],
            [{f"k{n}": n for n in range(8)}, {**{f"k{n}": n for n in range(9)}, "x": 0}],
        ),
        # Required names: a few tested one ``in`` at a time, many by one key-set comparison.
        (
            {"type": "object", "required": ["a", "b", "c"]},
            [{"a": 0, "b": 0, "c": 0}, {"a": 0, "b": 0, "c": 0, "d": 0}],
            [{}, {"a": 0, "b": 0}, {"b": 0, "c": 0}, {"a": 0, "c": 0, "d": 0}],
        ),
        (
            {"type": "object", "required": [f"k{n}" for n in range(9)]},
            [{f"k{n}": n for n in range(9)}, {f"k{n}": n for n in range(10)}],
            [{}, {f"k{n}": n for n in range(8)}, {f"k{n}": n for n in range(1, 10)}],
        ),
        # Unique strings: one set, only once every item is known to be a string.
        (
            {"type": "array", "uniqueItems": True, "items": {"type": "string"}},
            [[], ["a", "b"]],
            [["a", "a"], ["a", 1], ["a", ["b"]]],
        ),
    ],
)
def test_shortcuts_agree_with_the_collecting_pass(
    schema: dict[str, Any], valid: list[Any], invalid: list[Any]
) -> None:
    namespace: dict[str, Any] = {}
    source = compile_validators(schema, {"validate": ""}, package="tool_registry")
    if "required" in schema:
        # A few names: ``in`` tests; more than eight: one key-set comparison.
        many = len(schema["required"]) > 8
        closed = "additionalProperties" in schema
        assert (f".keys() {'!=' if closed else '>='}" in source) is many
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    for document in valid:
        assert namespace["validate"](document) == (), document
        assert namespace["_valid_1"](document) is True, document
    for document in invalid:
        assert namespace["validate"](document), document
        assert namespace["_valid_1"](document) is False, document


def test_the_printable_ascii_shortcut_hides_what_the_full_test_hides() -> None:
    from tool_registry.diagnostics import shown, shown_pointer

    for point in range(128):
        char = chr(point)
        hidden = point < 0x20 or point == 0x7F
        assert (char in shown("a" + char)) is (not hidden), point
        assert (char in shown_pointer("/a" + char)) is (not hidden), point


def test_records_built_by_the_report_are_ordinary_diagnostics() -> None:
    from tool_registry import Diagnostic

    (record, *_) = validate_third_party_manifest(manifest(id="Bad Id"))
    assert type(record) is Diagnostic
    assert record == Diagnostic(
        DiagnosticCode.SCHEMA_VIOLATION,
        pointer="/id",
        keyword="pattern",
        expected=record.expected,
        found='"Bad Id"',
    )
    assert record.omitted == 0
    assert record.others == ()


@pytest.mark.parametrize(
    ("pattern", "least"),
    [
        ("^[^\\u0000-\\u001f\\u007f-\\u009f\\u200b]*$", 0),  # the display name's shape
        ("^[^\\u0000-\\u001f\\u007f-\\u009f]+$", 1),
        ("^[ -~]*$", 0),
        ("^[^;]*$", None),  # ";" is printable ASCII and refused
        ("^[a-z]*$", None),
        ("^[^\\u0000-\\u001f]{0,5}$", None),  # bounded: a longer string fails
        ("^[^\\u0000-\\u001f]*", None),  # unanchored end
        ("^(?!-)[^\\u0000-\\u001f]*$", None),  # a lookahead: not one class
        ("^.*$", 0),  # ECMA's dot: a class of everything but line ends
        ("^(?:ab)*$", None),
    ],
)
def test_the_printable_ascii_shortcut_is_taken_only_for_one_whole_class(
    pattern: str, least: int | None
) -> None:
    source = translate(pattern)
    assert printable_ascii_matches(source) == least
    if least is not None:
        # Sound: every printable ASCII string long enough matches the pattern itself.
        compiled = re.compile(source, re.ASCII)
        probes = ["".join(map(chr, range(32, 127))), " ", "~~", "a\\b", '"', "x" * 500]
        for probe in probes + ([""] if least == 0 else []):
            assert compiled.search(probe) is not None, probe


def test_display_names_take_the_shortcut_with_the_records_unchanged() -> None:
    assert ".isprintable()" in _answering("validate_tool_manifest")
    cases: list[tuple[Any, list[tuple[DiagnosticCode, str]]]] = [
        ("", [(DiagnosticCode.SCHEMA_VIOLATION, "minLength")]),
        ("x" * 81, [(DiagnosticCode.SCHEMA_VIOLATION, "maxLength")]),
        ("a\u202e", [(DiagnosticCode.SCHEMA_VIOLATION, "pattern")]),
        ("a\x7f", [(DiagnosticCode.SCHEMA_VIOLATION, "pattern")]),
        ("ok\ud800", [(DiagnosticCode.LONE_SURROGATE, "")]),
        (5, [(DiagnosticCode.SCHEMA_VIOLATION, "type")]),
        ("Caf\u00e9", []),
        ("a\\b ~", []),
    ]
    for validate in (validate_tool_manifest, validate_third_party_manifest):
        for name, expected in cases:
            found = [(d.code, d.keyword) for d in validate(manifest(displayName=name))]
            assert found == expected, name


def _collecting(entry: str) -> str:
    """The source of the collecting function behind a generated entry point."""
    name = next(
        line.split("collect(")[1].split(",")[0]
        for line in inspect.getsource(getattr(generated, entry)).splitlines()
        if "collect(" in line
    )
    return inspect.getsource(getattr(generated, name))


def test_the_third_party_collecting_pass_checks_detect_once() -> None:
    # properties/detect and the root's tagged oneOf reach $defs/PathDetect at one pointer: the
    # second route reports nothing new, so it is not emitted again.
    # The tool entry reaches PathDetect by one route (its oneOf): as many binaryName records.
    one_route = _collecting("validate_tool_manifest").count('"/binaryName"')
    assert one_route > 0
    assert _collecting("validate_third_party_manifest").count('"/binaryName"') == one_route
    document = manifest(detect={"kind": "path", "binaryName": "-x", "extra": 1})
    found = [(d.pointer, d.keyword) for d in validate_third_party_manifest(document)]
    assert found == [
        ("/detect/binaryName", "pattern"),
        ("/detect/extra", "additionalProperties"),
    ]


ROUTES = {
    "$defs": {"S": {"type": "string", "minLength": 2}},
    "allOf": [
        {"prefixItems": [{"$ref": "#/$defs/S"}]},
        {"properties": {"0": {"$ref": "#/$defs/S"}}},
        {"properties": {"0": {"$ref": "#/$defs/S"}}},
    ],
}


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ([1], [("/0", "type")]),
        ({"0": 1}, [("/0", "type")]),
        (["a"], [("/0", "minLength")]),
        ({"0": "a"}, [("/0", "minLength")]),
        ({"0": "ab"}, []),
    ],
)
def test_one_subschema_reached_by_two_routes_is_reported_once_under_either(
    document: Any, expected: list[tuple[str, str]]
) -> None:
    # A prefixItems position and a property named "0" share a pointer but not their guards:
    # the check skipped as already made must be the one made on the same kind of value.
    source = compile_validators(ROUTES, {"validate": ""}, package="tool_registry")
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    assert [(d.pointer, d.keyword) for d in namespace["validate"](document)] == expected


def test_a_tagged_union_of_objects_takes_one_type_test_and_no_second_tag_test() -> None:
    from generator.plan import build_plan, implied_type

    unions = {
        "objects": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "object"}]},
        "mixed": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/S"}]},
        "open": {"oneOf": [{"$ref": "#/$defs/A"}, {}]},
    }
    root = {"$defs": {"A": {"type": "object"}, "S": {"type": "string"}, **unions}}
    plan = build_plan(root, {name: f"/$defs/{name}" for name in unions})

    def implied(name: str) -> str | None:
        return implied_type(plan, plan.nodes[f"/$defs/{name}"], alternatives=True)

    assert implied("objects") == "object"
    assert implied("mixed") is None
    assert implied("open") is None
    source = _answering("validate_tool_manifest")
    # detect (ToolDetectSpec, a oneOf of two object schemas): no string test for a lone
    # surrogate, one dict test, and the tag's value is not compared again inside its branch.
    detect = source.split('if "detect" in v:')[1].split('if "hookPackage" in v:')[0]
    assert "isinstance(" in detect
    assert ", str)" not in detect.split("binaryName")[0]
    assert '!= "path"' not in detect and '!= "candidates"' not in detect
    assert detect.count(", dict)") == 2  # detect itself, and candidates' paths


def test_a_property_name_with_a_percent_escape_is_compiled_as_itself() -> None:
    # Subschemas are found by the JSON pointers the compiler writes, never percent-decoded as
    # URI fragments: "a%41" is not "aA" (the answering function decides its anyOf and its
    # object, and the collecting pass asks it first).
    schema = {
        "type": "object",
        "properties": {
            "a%41": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "o%2F": {
                "type": "object",
                "required": ["k", "l"],
                "properties": {"k": {"type": "string"}, "l": {"type": "string"}},
                "additionalProperties": False,
            },
        },
        "additionalProperties": False,
    }
    source = compile_validators(schema, {"validate": ""}, package="tool_registry")
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    validate = namespace["validate"]
    assert validate({"a%41": 1}) == ()
    assert [(d.pointer, d.keyword) for d in validate({"a%41": "x"})] == [("/a%41", "anyOf")]
    assert "if not _valid_" in source  # the nested object is answered first
    assert validate({"o%2F": {"k": "a", "l": "b"}}) == ()
    found = validate({"o%2F": {"k": 1, "l": "x", "m": 0}})
    assert [(d.pointer, d.keyword) for d in found] == [
        ("/o%2F/k", "type"),
        ("/o%2F/m", "additionalProperties"),
    ]


def test_unique_strings_are_decided_alike_for_every_short_length() -> None:
    """Answering, a string array's ``uniqueItems`` compares two items directly and hashes
    longer lists: every list of up to five strings gets the verdict a set gives."""
    schema = {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
    source = compile_validators(schema, {"validate": ""}, package="tool_registry")
    assert "== 2 else len(set(" in source
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    answers = [namespace[name] for name in namespace if name.startswith("_valid_")]
    assert answers
    checked = 0
    for size in range(6):
        for items in itertools.product(["a", "b", "", "a\u0301"], repeat=size):
            expected = len(set(items)) == len(items)
            document = list(items)
            for answer in answers:
                assert answer(document) is expected, items
            assert (namespace["validate"](document) == ()) is expected, items
            checked += 1
    assert checked == sum(4**size for size in range(6))


# Strings that probe a character class: its edges, what lies beside them, escapes, non-ASCII
# letters and spaces, a lone surrogate, and characters beyond the BMP.
_CLASS_PROBES = [
    "",
    "a",
    "abc-1",
    " ",
    "\t",
    "\n",
    "\x00",
    "\x1f",
    "\x20",
    "\x7e",
    "\x7f",
    "\x9f",
    "\xa0",
    "\\",
    "]",
    "^",
    "-",
    "caf\u00e9",
    "\u2028",
    "\ufeff",
    "\ud800",
    "\U0001f600",
    "\U000e0001",
    "ok;rm",
    "a$b",
    "x" * 300,
]


@pytest.mark.parametrize(
    ("pattern", "least"),
    [
        ("^[^;|&$`\\\\()<>'\"\\u0000-\\u001f\\u007f-\\u009f]*$", 0),
        ("^[^\\u0000-\\u001f]+$", 1),
        ("^[^a-c\\d]*$", 0),  # a range and a class escape
        ("^[^\\s]*$", 0),  # ECMA's \\s: the translation spells its non-ASCII spaces
        ("^[^\\]^-]*$", 0),  # characters a class must escape
        ("^[^\\u{1F600}-\\u{1F64F}x]+$", 1),  # beyond the BMP
        ("^[^x]*$", 0),  # one character
    ],
)
def test_a_negated_class_over_the_whole_string_is_decided_by_its_forbidden_characters(
    pattern: str, least: int
) -> None:
    source = translate(pattern)
    found = forbidden_characters(source)
    assert found is not None
    characters, fewest = found
    assert fewest == least
    whole = re.compile(source, re.ASCII).search
    forbidden = re.compile(characters, re.ASCII).search
    for probe in [*_CLASS_PROBES, "".join(map(chr, range(0x80)))]:
        expected = whole(probe) is not None
        assert (len(probe) >= fewest and forbidden(probe) is None) is expected, repr(probe)
    for code in range(0x3000):  # every character near the classes' edges, one at a time
        probe = chr(code)
        assert (forbidden(probe) is None) is (whole(probe) is not None), hex(code)


@pytest.mark.parametrize(
    "pattern",
    [
        "^[a-z]*$",  # a positive class
        "^[^a]{0,5}$",  # bounded
        "^[^a]*",  # unanchored end
        "[^a]*$",  # unanchored start
        "^(?!-)[^a]*$",  # a lookahead
        "^[^a]*$|^b$",  # an alternation
        "^(?:[^a]b)*$",  # a group
    ],
)
def test_other_patterns_have_no_forbidden_characters(pattern: str) -> None:
    assert forbidden_characters(translate(pattern)) is None


def test_a_flag_or_an_odd_spelling_keeps_the_forbidden_characters_shortcut_off() -> None:
    # Case folding or dot-all change what a class holds or how the string is read: not analysed.
    assert forbidden_characters("(?i)^[^a]*\\Z") is None
    assert forbidden_characters("(?s)^[^a]*\\Z") is None
    # Text the split of the source would misread: never used.
    assert forbidden_characters("^[^^a]*\\Z") is None  # a class of "^" and "a", negated
    assert forbidden_characters("^[^a]*[^b]*\\Z") is None
    assert forbidden_characters("^[^a\\]]*\\Z") == ("[a\\]]", 0)  # an escaped bracket


@pytest.mark.parametrize(
    ("source", "anchored"),
    [
        ("^[a-z0-9](?:[a-z0-9\\-]{0,62}[a-z0-9])?\\Z", True),
        ("^(?!/)[a-z]+\\Z", True),  # a lookahead after the anchor
        ("\\Aab", True),
        ("^a|^b", False),  # an alternation is not read (conservative)
        ("(?=a)^a", True),  # a lookahead before the anchor
        ("a|^b", False),
        ("(?m)^b", False),  # multi-line: ``^`` also matches after every line end
        ("ab", False),
        ("(?:a)?^b", False),
    ],
)
def test_match_replaces_search_only_for_a_pattern_anchored_at_the_start(
    source: str, anchored: bool
) -> None:
    assert anchored_at_start(source) is anchored
    if anchored:
        compiled = re.compile(source, re.ASCII)
        for probe in [*_CLASS_PROBES, "ab", "b", "xab", "a\nb", "\nb", "/ab", "a" * 70]:
            assert (compiled.match(probe) is None) is (compiled.search(probe) is None), probe


def test_the_valid_path_calls_match_or_a_forbidden_character_search() -> None:
    # The schema's patterns all start with ``^``: none is searched position by position, and
    # the prompt argument's one negated class is a search for a forbidden character.
    for entry in ("validate_tool_manifest", "validate_third_party_manifest"):
        source = _answering(entry)
        assert "_SEARCH" not in source
        assert "_MATCH" in source
        assert "_FORBIDDEN" in source
        # A few required names: one ``in`` test each, no key-set view built.
        assert re.search(r'"displayName" in v\s+and\s+"hookCapable" in v', source)
        assert ".keys() >=" not in source

"""A ``Diagnostic`` made by a caller: an unknown code is refused when the record is made (a
``TypeError`` naming ``code``, the value escaped and clipped, none of its methods run), and
rendering escapes and clips every field again, so a hand-made record with control, ANSI-escape
or bidi characters or huge text prints as safely as the runtime's own, while a record the runtime
made renders exactly as before. Python and the generated TypeScript agree."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any, cast

import pytest
from tool_registry import (
    Diagnostic,
    DiagnosticCode,
    load_manifest_files,
    parse_third_party_manifest,
    validate_third_party_manifest,
    validate_tool_manifest,
)
from tool_registry.diagnostics import _MESSAGES

from .conftest import REPO, build_typescript, node_executable

GENERATED_TS = REPO / "generated" / "typescript"
# C0/DEL/C1 controls, bidi and other format controls, line and paragraph separators, surrogates.
HIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
)
HUGE = "A\x1b[2J" * 100_000

HOSTILE_CODES: list[Any] = [
    "BOGUS",
    "\x1b[31mRED\u202e",
    "unknown_field",  # a member's name in the wrong case
    HUGE,
    "",
    5,
    None,
]
# Hand-made records: every text field hostile (the same in both languages).
HOSTILE_FIELDS: list[dict[str, Any]] = [
    {
        "code": "UNKNOWN_FIELD",
        "pointer": "/a\x1b]0;title\x07/\u202eb",
        "source": "evil\x1b[2J.json\r\n::error::forged",
        "found": "x\u2028y",
    },
    {"code": "DUPLICATE_ID", "source": HUGE, "found": HUGE, "others": [HUGE, "\x1b[1m"] * 20},
    {"code": "SCHEMA_VIOLATION", "pointer": HUGE, "keyword": "\x00", "expected": HUGE},
    {"code": "DEPRECATED_FIELD", "pointer": "/x", "hint": "\u202egnp.exe\x1b[0m" + HUGE},
    # Workflow commands a CI runner would run from a printed record or message: a line starting
    # (after white space) with "::", and a legacy "##[command]" anywhere in a line.
    {"code": "UNKNOWN_FIELD", "pointer": "::error::forged", "source": "::warning::forged"},
    {"code": "SCHEMA_VIOLATION", "pointer": "\u3000 ::notice::x", "source": "\u00a0::add-mask::s"},
    {"code": "UNSAFE_STRING", "source": "a##[stop-commands]tok", "found": "##[error]x##[#[##["},
    {"code": "DUPLICATE_ID", "others": ["##[warning]a"], "hint": "#", "expected": "##[set-env]"},
]


class Hostile:
    """A value every method of which fails the test if it runs."""

    def __getattribute__(self, name: str) -> Any:
        raise AssertionError(f"a method of the caller's value ran: {name}")

    def __eq__(self, other: object) -> bool:
        raise AssertionError("__eq__ ran")

    def __hash__(self) -> int:
        raise AssertionError("__hash__ ran")


def _python_error(code: Any) -> str:
    with pytest.raises(TypeError) as raised:
        Diagnostic(code)
    return str(raised.value)


def test_an_unknown_code_is_refused_when_the_record_is_made() -> None:
    for code in HOSTILE_CODES:
        message = _python_error(code)
        assert message.startswith("code must be a DiagnosticCode, not "), message
        assert HIDDEN.search(message) is None and len(message) < 200, message
    assert _python_error("BOGUS") == 'code must be a DiagnosticCode, not "BOGUS"'
    assert _python_error(HOSTILE_CODES[1]).endswith(r'"\u001b[31mRED\u202e"')
    assert "Hostile object" in _python_error(Hostile())
    with pytest.raises(TypeError, match=r"^code must be a DiagnosticCode"):
        Diagnostic(code=cast(Any, Hostile()), found="x")  # by keyword too


def test_replace_and_make_refuse_an_unknown_code_too() -> None:
    # A named tuple's own _make (which _replace calls) builds the tuple without __new__.
    record = Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/x")
    with pytest.raises(TypeError, match=r'^code must be a DiagnosticCode, not "BOGUS"$'):
        record._replace(code=cast(Any, "BOGUS"))
    with pytest.raises(TypeError, match=r"^code must be a DiagnosticCode"):
        Diagnostic._make(["BOGUS", "", "", "", "", "", 0, (), ""])
    with pytest.raises(TypeError, match=r"^Expected 9 arguments, got 1$"):
        Diagnostic._make([DiagnosticCode.UNKNOWN_FIELD])
    # A member's value is stored as the member: as_json reads its .value.
    replaced = record._replace(code=cast(Any, "DUPLICATE_ID"), found="a")
    assert replaced.code is DiagnosticCode.DUPLICATE_ID
    assert replaced.as_json()["code"] == "DUPLICATE_ID"
    assert record._replace(source="s") == Diagnostic(
        DiagnosticCode.UNKNOWN_FIELD, pointer="/x", source="s"
    )


class OwnMessage(Diagnostic):
    """A caller's subclass with its own message and a field property: rendering reads what the
    record holds, as TypeScript never shows a hand-made object's own message."""

    __slots__ = ()

    @property
    def message(self) -> str:
        return "\x1b[2J forged"

    @property
    def source(self) -> str:
        return "\x1b]0;title\x07"


def test_a_subclass_message_or_field_property_is_never_rendered() -> None:
    made = OwnMessage(DiagnosticCode.UNKNOWN_FIELD, pointer="/\u202e", source="s.json")
    plain = Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/\u202e", source="s.json")
    assert (
        made.render()
        == plain.render()
        == "s.json: UNKNOWN_FIELD warning: /\\u202e: unknown field ignored"
    )
    assert made.as_json() == plain.as_json()


class Loud:
    """A value whose truth, size, items and equality fail the test if asked for."""

    def __bool__(self) -> bool:
        raise AssertionError("__bool__ ran")

    def __len__(self) -> int:
        raise AssertionError("__len__ ran")

    def __iter__(self) -> Any:
        raise AssertionError("__iter__ ran")

    def __eq__(self, other: object) -> bool:
        raise AssertionError("__eq__ ran")

    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize("kind", [Hostile, Loud])
def test_as_json_runs_no_method_of_a_hand_made_field(kind: type) -> None:
    """A hand-made record's fields are data: listing them must not run their ``__bool__``,
    ``__len__``, ``__iter__``, ``__eq__`` or ``__class__`` (each fails the test if it runs)."""
    keyword, omitted, others, hint = kind(), kind(), kind(), kind()
    record = Diagnostic(
        DiagnosticCode.UNKNOWN_FIELD,
        keyword=cast(Any, keyword),
        omitted=cast(Any, omitted),
        others=cast(Any, others),
        hint=cast(Any, hint),
    )
    document = record.as_json()
    assert document["keyword"] is keyword and document["omitted"] is omitted
    assert document["others"] is others and document["hint"] is hint


def test_a_member_or_its_exact_value_is_a_code() -> None:
    assert Diagnostic(DiagnosticCode.UNKNOWN_FIELD).code is DiagnosticCode.UNKNOWN_FIELD
    made = Diagnostic(cast(Any, "UNKNOWN_FIELD"), pointer="/x")
    assert made.code is DiagnosticCode.UNKNOWN_FIELD and made == (
        DiagnosticCode.UNKNOWN_FIELD,
        "/x",
        "",
        "",
        "",
        "",
        0,
        (),
        "",
    )


def _hand_made(fields: dict[str, Any]) -> Diagnostic:
    given = dict(fields)
    if "others" in given:
        given["others"] = tuple(given["others"])
    return Diagnostic(**given)


def test_a_hostile_hand_made_record_renders_escaped_and_bounded() -> None:
    for fields in HOSTILE_FIELDS:
        record = _hand_made(fields)
        for text in (record.render(), record.message, json.dumps(record.as_json()["message"])):
            assert HIDDEN.search(text) is None, text[:300]
            assert len(text) < 30_000
        for text in (record.render(), record.message):
            assert not text.lstrip().startswith("::"), text[:300]
            assert "##[" not in text, text[:300]


def test_a_forged_workflow_command_is_shown_escaped_not_dropped() -> None:
    """The guard escapes one character of each command start; the rest of the text is shown."""
    record = Diagnostic(
        DiagnosticCode.UNSAFE_STRING, pointer="::error::p", source=" ::warning::s", found="a##[b"
    )
    assert record.message == "\\u003a:error::p: unsafe value a##\\u005bb ()"
    # The message is guarded as a line of its own (a host may print it alone), then the line.
    assert record.render() == (
        " \\u003a:warning::s: UNSAFE_STRING error: \\u003a:error::p: unsafe value a##\\u005bb ()"
    )
    assert record.as_json()["message"] == record.message


def _old_render(d: Diagnostic) -> str:
    """How a record was rendered before rendering escaped anything: the fields as they are."""
    message = _MESSAGES[d.code].format(
        source=d.source,
        where=d.pointer or "/",
        keyword=d.keyword,
        expected=d.expected,
        found=d.found,
        omitted=d.omitted,
        others=", ".join(d.others) + (f" and {d.omitted} more" if d.others and d.omitted else ""),
        hint=d.hint,
    )
    return f"{d.source or '<input>'}: {d.code.value} {d.severity.value}: {message}"


def _runtime_records(tmp_path: Path) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    documents: list[Any] = [
        {"id": "\x1b[2J" + "x" * 500, "\u202ekey\\u0041": ["\x00" * 300], "displayName": 5},
        {"id": "a" * 1000, "detect": {"kind": "path", "binaryName": "\u2028" * 200}},
        {"a": {"b": {"c": [[[[{"\\evil": "\ud800"}]]]]}}},
        {"id": "Bad Id", "launchable": "yes", "hookCapable": None},
        [],
    ]
    for document in documents:
        found += validate_tool_manifest(document) + validate_third_party_manifest(document)
    nested: Any = "leaf"
    for depth in range(31):
        nested = {f"k{depth}\x1b\\" + "z" * 90: nested}
    found += validate_third_party_manifest(nested)
    for text in ('{"id": "x", "id": "y"}', '{"id": "\\ud800"}', "{" * 40, '{"\x1b": 1e999}'):
        found += parse_third_party_manifest(text.encode(), source="s\x1b\\.json").diagnostics
    base = json.loads((REPO / "tests/vectors/base-manifest.json").read_text(encoding="utf-8"))
    document = dict(base, id="dup", displayName="Claude Code", **{"\x1b[2J\u202e": 1})
    document["deprecated\\"] = "x" * 300
    paths = []
    for index, name in enumerate(("evil\x1b[2J\u202e.json", "b\\" + "n" * 200 + ".json")):
        path = tmp_path / f"{index}-{name}"
        path.write_text(json.dumps(document))
        paths += [(str(path), str(path))] * 5
    paths.append(("missing\x1b.json", str(tmp_path / "missing")))
    found += load_manifest_files(paths).diagnostics
    return found


def test_a_runtime_made_record_renders_as_before(tmp_path: Path) -> None:
    records = _runtime_records(tmp_path)
    assert len({d.code for d in records}) >= 5  # the sample is broad
    for record in records:
        assert record.render() == _old_render(record)


# Runs in node: the same refusals and the same renderings as Python.
PROBE = """\
import { readFileSync } from "node:fs";
import { diagnosticAsJson, makeDiagnostic, renderDiagnostic } from "./diagnostics.js";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const refusals = job.codes.map((code) => {
  try {
    makeDiagnostic(code);
    return null;
  } catch (error) {
    return error instanceof TypeError ? error.message : "not a TypeError";
  }
});
const hostile = new Proxy({}, { get() { throw new Error("a method of the caller's value ran"); } });
let proxyRefusal;
try {
  makeDiagnostic(hostile);
} catch (error) {
  proxyRefusal = error.message;
}
const rendered = job.records.map(({ code, ...fields }) => renderDiagnostic(makeDiagnostic(code, fields)));
// A hand-made object, not a record: its own severity and message are never shown.
const handMade = { code: "UNKNOWN_FIELD", severity: "\\u001b", message: "\\u001b[2J",
  pointer: "/\\u202e", source: "", keyword: "", expected: "", found: "", omitted: 0, others: [], hint: "" };
const plain = renderDiagnostic(handMade);
const plainJson = diagnosticAsJson(handMade);
// Odd hand-made field values: which keys are listed is decided by `!==`, as Python decides it.
const oddJson = [
  { keyword: 5, omitted: false, others: "x", hint: null },
  { keyword: "", omitted: 0, others: [], hint: "" },
  { keyword: "k", omitted: -0, others: ["a"], hint: "h" },
].map((odd) => diagnosticAsJson({ ...handMade, ...odd }));
let bogusJson;
try {
  diagnosticAsJson({ ...handMade, code: "BOGUS" });
} catch (error) {
  bogusJson = error.message;
}
// A record whose code changes at each read: the header and the message agree.
let reads = 0;
const shifting = { ...handMade, get code() { reads += 1; return reads % 2 === 1 ? "UNKNOWN_FIELD" : "DUPLICATE_ID"; } };
const shiftingRendered = renderDiagnostic(shifting);
const shiftingReads = reads;
process.stdout.write(JSON.stringify({ refusals, proxyRefusal, rendered, plain, plainJson, oddJson, bogusJson,
  shiftingRendered, shiftingReads }));
"""


def test_typescript_refuses_and_renders_as_python_does(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "build", GENERATED_TS, {"records-probe.ts": "export {};\n"})
    (out / "records-probe.mjs").write_text(PROBE)
    strings = [code for code in HOSTILE_CODES if isinstance(code, str)]
    job = tmp_path / "job.json"
    job.write_text(json.dumps({"codes": strings, "records": HOSTILE_FIELDS}, ensure_ascii=True))
    completed = subprocess.run(
        [node_executable(), str(out / "records-probe.mjs"), str(job)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    assert result["refusals"] == [_python_error(code) for code in strings]
    assert result["proxyRefusal"] == "code must be a DiagnosticCode, not <object>"
    assert result["rendered"] == [_hand_made(fields).render() for fields in HOSTILE_FIELDS]
    assert result["plain"] == Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/\u202e").render()
    assert "\x1b" not in result["plain"]
    # diagnosticAsJson derives severity and message too, as Python's as_json does.
    made = Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/\u202e")
    assert result["plainJson"] == made.as_json()
    odd: list[dict[str, Any]] = [
        {"keyword": 5, "omitted": False, "others": "x", "hint": None},
        {"keyword": "", "omitted": 0, "others": [], "hint": ""},
        {"keyword": "k", "omitted": -0.0, "others": ["a"], "hint": "h"},
    ]
    assert result["oddJson"] == [
        Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/\u202e", **fields).as_json()
        for fields in odd
    ]
    assert result["bogusJson"] == 'code must be a DiagnosticCode, not "BOGUS"'
    assert result["shiftingRendered"] == result["plain"]
    assert result["shiftingReads"] == 1

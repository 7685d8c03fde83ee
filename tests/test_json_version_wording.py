"""A file's syntax-error record is the same whatever CPython version runs the Python loader.

CPython words some syntax errors differently from one version to the next, and TypeScript's
parser follows 3.11 and 3.12:

- 3.13 reports a comma before a closing bracket as "Illegal trailing comma before end of object"
  (or "array"), at the comma, where 3.11 and 3.12 report "Expecting property name enclosed in
  double quotes" (or "Expecting value") at the bracket;
- 3.15 (gh-152052) reports a string whose last ``\\uXXXX`` escape ends the text as "Unterminated
  string starting at", at its quote, where earlier versions report "Invalid \\uXXXX escape" at
  the escape's ``u``.

The loader reads both back to the earlier wording. On this interpreter the newer decoders are
stood in for by one raising what they raise (messages and positions as CPython's own tests and
the issue's reproduction give them); on 3.13 and later the interpreter's own decoder runs too.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import pytest
from tool_registry import loader
from tool_registry.loader import load_manifest_files, strict_json_object

from .parse_differential import TsParser

TEXTS = [
    '{"a":1,}',
    '{"spam":42 , }',
    "[123  , ]",
    '["spam",]',
    '{"a":[1,2,]}',
    '{"id":"x",\r\n\t}',
    '{"a":\n[\n1,\n\n]}',
    '{"\U0001f600":[1,\n ]}',
    '{"a":1}',
    '{"a":1,,}',
    "[1,,]",
    "{,}",
    "[,]",
    # A whole \uXXXX escape ending the text (3.15: unterminated, at the quote).
    '"\\u0041',
    '{"a":"x\\u0041',
    '{"a":"\\ud800\\udc00',
    '{"a":\n"\U0001f600\\\\\\u00e9',
    '{"\\uABCD',
    # Not a whole escape at the end: the same on every version.
    '{"a":"\\\\u0041',
    '{"a":"\\u004G',
    '{"a":"\\u004',
    '{"a":"x\\',
    '{"a":"x',
]
# What 3.15 raises for the texts above that end with a whole escape: (message, position).
UNTERMINATED_IN_3_15 = {
    '"\\u0041': 0,
    '{"a":"x\\u0041': 5,
    '{"a":"\\ud800\\udc00': 5,
    '{"a":\n"\U0001f600\\\\\\u00e9': 6,
    '{"\\uABCD': 1,
}
_HOOKS = ("object_pairs_hook", "parse_constant", "parse_int", "parse_float")


class NewerDecoder(json.JSONDecoder):
    """Python 3.11's decoder raising what 3.13 and 3.15 raise: a comma, white space, then the
    closing bracket is refused at the comma in 3.13's words; a string ending the text with a
    whole escape is unterminated, at its quote, in 3.15's."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().decode(s, *args, **kwargs)
        except json.JSONDecodeError as error:
            if s in UNTERMINATED_IN_3_15:
                raise json.JSONDecodeError(
                    "Unterminated string starting at", s, UNTERMINATED_IN_3_15[s]
                ) from None
            closer = s[error.pos : error.pos + 1]
            before = re.search(r",[ \t\n\r]*\Z", s[: error.pos])
            kind = {"}": "object", "]": "array"}.get(closer)
            if before is None or kind is None:
                raise
            raise json.JSONDecodeError(
                f"Illegal trailing comma before end of {kind}", s, before.start()
            ) from None


def _found(text: str) -> list[str]:
    data = text.encode("utf-8")
    result = load_manifest_files([("x.json", "x")], read_file=lambda _path, _limit: data)
    return [d.found for d in result.files[0].diagnostics]


@pytest.fixture(scope="module")
def typescript_found(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    parser = TsParser.build(tmp_path_factory.mktemp("json-version-wording"))
    cases = [text.encode("utf-8") for text in TEXTS]
    outcome = parser.run([f"c{i}.json" for i in range(len(cases))], cases, [])
    return [[d["found"] for d in single["bytes"]["diagnostics"]] for single in outcome["single"]]


def test_the_stand_in_raises_what_newer_pythons_raise() -> None:
    """CPython's own cases: ``test_fail`` (3.13) and gh-152052's reproduction (3.15)."""
    decoder = NewerDecoder()
    for text, message, position in [
        ('["spam",]', "Illegal trailing comma before end of array", 7),
        ('{"spam":42,}', "Illegal trailing comma before end of object", 10),
        ('{"spam":42 , }', "Illegal trailing comma before end of object", 11),
        ("[123  , ]", "Illegal trailing comma before end of array", 6),
        ('"\\u0041', "Unterminated string starting at", 0),
    ]:
        with pytest.raises(json.JSONDecodeError) as caught:
            decoder.decode(text)
        assert (caught.value.msg, caught.value.pos) == (message, position)


def test_newer_wording_is_read_back_to_the_typescript_record(
    typescript_found: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    decoder = NewerDecoder(**{k: getattr(loader._DECODER, k) for k in _HOOKS})
    monkeypatch.setattr(loader, "_DECODER", decoder)
    assert [_found(text) for text in TEXTS] == typescript_found
    # Hook pointers are read by the same rules: a trailing comma is refused, never read past.
    assert strict_json_object(b'{"backup": "/x",}') is None


@pytest.mark.skipif(sys.version_info < (3, 13), reason="the interpreter's own wording is 3.11's")
def test_this_interpreter_gives_the_typescript_record(typescript_found: list[list[str]]) -> None:
    assert [_found(text) for text in TEXTS] == typescript_found


def test_this_interpreter_without_a_stand_in(typescript_found: list[list[str]]) -> None:
    assert [_found(text) for text in TEXTS] == typescript_found
    assert typescript_found[0] == [
        "line 1 column 8: Expecting property name enclosed in double quotes"
    ]
    assert typescript_found[2] == ["line 1 column 9: Expecting value"]
    assert typescript_found[13] == ["line 1 column 3: Invalid \\\\uXXXX escape"]

"""A file's syntax-error record is the same whatever CPython version runs the Python loader.

CPython 3.13 reports a comma before a closing bracket as "Illegal trailing comma before end of
object" (or "array"), at the comma; 3.11 and 3.12, and TypeScript's parser, which follows
them, report "Expecting property name enclosed in double quotes" (or "Expecting value") at the
bracket. The loader reads 3.13's error back to that wording. On an older interpreter the 3.13
decoder is stood in for by one raising the error 3.13 raises (message and position as CPython's
own ``test_fail`` cases give them); on 3.13 and later the interpreter's own decoder runs too.
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
]


_HOOKS = ("object_pairs_hook", "parse_constant", "parse_int", "parse_float")


class Python313Decoder(json.JSONDecoder):
    """Python 3.11's decoder raising what 3.13's raises for a trailing comma: a comma, white
    space, then the closing bracket is refused at the comma in 3.13's words."""

    def decode(self, s: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().decode(s, *args, **kwargs)
        except json.JSONDecodeError as error:
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


def test_the_stand_in_raises_what_python_3_13_raises() -> None:
    """CPython's own ``test_fail`` cases (3.13): message and position of the comma."""
    decoder = Python313Decoder()
    for text, message, position in [
        ('["spam",]', "Illegal trailing comma before end of array", 7),
        ('{"spam":42,}', "Illegal trailing comma before end of object", 10),
        ('{"spam":42 , }', "Illegal trailing comma before end of object", 11),
        ("[123  , ]", "Illegal trailing comma before end of array", 6),
    ]:
        with pytest.raises(json.JSONDecodeError) as caught:
            decoder.decode(text)
        assert (caught.value.msg, caught.value.pos) == (message, position)


def test_python_3_13_wording_is_read_back_to_the_typescript_record(
    typescript_found: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    decoder = Python313Decoder(**{k: getattr(loader._DECODER, k) for k in _HOOKS})
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

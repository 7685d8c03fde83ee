"""Differential test: every pattern in the schemas gets the same verdict from our ECMA-262 path
(``regress``) as from an independent Draft 2020-12 implementation (``jsonschema-rs``), on strings
built to probe where Python's ``re`` and ECMA-262 disagree."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.ecma import ecma_search
from generator.schemas import iter_subschemas

from .conftest import REPO


def _patterns() -> list[str]:
    found: list[str] = []
    for name in ("tool-manifest.schema.json", "tools-table.schema.json"):
        schema = json.loads((REPO / "schema" / name).read_text())
        found.extend(sub["pattern"] for _, sub in iter_subschemas(schema) if "pattern" in sub)
    return sorted(set(found))


PATTERNS = _patterns()
# Characters where the dialects differ or the rules bite: line terminators, non-ASCII digits and
# letters, bidi and format controls, C0/C1 controls, shell metacharacters, path punctuation.
TRICKY = "az09AZ-_./~@\n\r\u2028\u0663\u00e9\u200e\u202e\u2066\x00\x1b\x85 ;|&$`\\()<>'\"{}"
probe_strings = st.text(alphabet=TRICKY, max_size=12) | st.text(max_size=12)


def test_the_schemas_have_patterns_to_compare() -> None:
    assert len(PATTERNS) >= 8


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=300, deadline=None)
@given(text=probe_strings)
@example(text="codex\n")
@example(text="claude-code")
@example(text="\u0663")
@example(text="../etc")
@example(text=".codex/hive-mind-install.json")
def test_ecma_path_agrees_with_jsonschema_rs(pattern: str, text: str) -> None:
    reference: Any = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    assert ecma_search(pattern, text) == reference.is_valid(text)


def test_python_re_would_have_disagreed() -> None:
    # The reason for the ECMA path: at least one pattern and input where Python's re is wrong.
    disagreements = [
        (pattern, text)
        for pattern in PATTERNS
        for text in ("codex\n", "a\n", ".x/y\n", "\u0663")
        if (re.search(pattern, text) is not None) != ecma_search(pattern, text)
    ]
    assert disagreements


# Quantified word-boundary assertions: regress accepts them, but ECMAScript's Unicode mode has no
# quantifier after an assertion, so node refused them (the generated validator.ts threw a
# SyntaxError when imported); a group around one may be quantified.
QUANTIFIED_ASSERTIONS = ["\\b*", "\\B+", "a\\b?", "\\B{2}", "x\\b{1,3}y", "\\B*?", "[a]\\B+?"]
GROUPED_ASSERTIONS = ["(?:\\b)*", "(?:\\B)+a", "[\\b]*"]


def test_every_pattern_the_translation_accepts_compiles_in_node(tmp_path: Any) -> None:
    import subprocess

    from generator.ecma_to_re import RegexError, translate

    from .conftest import node_executable

    accepted = []
    for pattern in QUANTIFIED_ASSERTIONS + GROUPED_ASSERTIONS:
        try:
            translate(pattern)
        except RegexError as error:
            assert pattern in QUANTIFIED_ASSERTIONS, (pattern, error)
            assert "quantifier after" in str(error)
            continue
        accepted.append(pattern)
    assert accepted == GROUPED_ASSERTIONS
    script = tmp_path / "compile.cjs"
    script.write_text(
        "const patterns = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(patterns.map((p) => {\n"
        '  try { new RegExp(p, "u"); return null; } catch (e) { return String(e); }\n'
        "})));\n",
        encoding="utf-8",
    )
    completed = subprocess.run(
        [node_executable(), str(script), json.dumps(accepted)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout) == [None] * len(accepted)

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

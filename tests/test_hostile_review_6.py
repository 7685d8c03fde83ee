"""Sixth hostile review: the manifest schema itself as hostile input (patterns whose ECMA-262
meaning the Python translation must keep or refuse, structures the compiler must survive)."""

from __future__ import annotations

import re

import pytest

from generator.ecma import compile_pattern
from generator.ecma_to_re import PYTHON_FLAGS, translate

# -- patterns: the translation answers as ECMA-262 or is refused naming the construct ----------


def _ecma(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).find(text) is not None


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        # Python's \B never matches in an empty string; ECMA's does (no boundary there).
        ("\\B", ""),
        ("^\\B$", ""),
        ("^a?\\B$", ""),
        ("(?:^x|\\B)", ""),
        ("\\B", "ab"),
        ("\\B", "a"),
        ("a\\B", "a-"),
        ("-\\B-", "--"),
        ("(?<=a\\B)b", "ab"),
        ("(?<!\\B)", ""),
    ],
)
def test_a_non_boundary_means_what_ecma_means(pattern: str, text: str) -> None:
    python = re.compile(translate(pattern), PYTHON_FLAGS)
    assert (python.search(text) is not None) == _ecma(pattern, text)

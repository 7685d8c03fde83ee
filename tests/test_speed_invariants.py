"""Invariants the issue-11 speed work relies on (no timings are asserted)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from tool_registry import DiagnosticCode, load_third_party_manifests
from tool_registry import loader as loader_module

from generator.ecma_to_re import translate

from .test_loader import manifest

# The promptArgTemplate items pattern's path lookahead, before and after the alternation
# ``(?:.|[\u2028\u2029])`` was merged into one character class.
_BEFORE = (
    r"^(?!(?:(?:.|[\u2028\u2029])*/)?(?:\{prompt\})*\.(?:\{prompt\})*\.(?:\{prompt\})*(?:/|$))"
)
_AFTER = r"^(?!(?:[^\n\r]*/)?(?:\{prompt\})*\.(?:\{prompt\})*\.(?:\{prompt\})*(?:/|$))"


def test_merged_character_class_matches_like_the_alternation() -> None:
    before = re.compile(translate(_BEFORE), re.ASCII)
    after = re.compile(translate(_AFTER), re.ASCII)
    pieces = ["a", "/", ".", "..", "{prompt}", "\n", "\r", "\u2028", "\u2029", "\x85", "\ud800"]
    generator = random.Random(11)
    probes = ["".join(generator.choices(pieces, k=generator.randint(0, 8))) for _ in range(5000)]
    for probe in probes:
        assert bool(before.search(probe)) == bool(after.search(probe)), repr(probe)


def test_cached_reports_are_not_changed_by_the_folder_rules(tmp_path: Path) -> None:
    """The refresh cache shares each file's report with the load (no copy): the duplicate-id
    rule must add to a copy, so a later refresh starts from the file's own outcome."""
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(
            json.dumps(manifest(id="twin", displayName="Twin")), encoding="utf-8"
        )
    first = load_third_party_manifests(str(tmp_path))
    assert [d.code for d in first.diagnostics] == [DiagnosticCode.DUPLICATE_ID] * 2
    for checked in first.cache.values():
        assert isinstance(checked, loader_module._Checked)
        assert not checked.report.errors  # the cached per-file outcome holds no DUPLICATE_ID
    (tmp_path / "b.json").unlink()
    second = load_third_party_manifests(str(tmp_path), previous=first)
    assert second.diagnostics == ()
    assert [m.id for m in second.manifests] == ["twin"]
    assert {s.state for s in second.states} == {"reused", "removed"}

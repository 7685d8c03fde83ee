"""Defects a hostile adapter file, folder or caller could trigger at run time, found by a hostile
review comparing the Python and TypeScript runtimes; each test pins the fixed behaviour."""

from __future__ import annotations

import json
from pathlib import Path

from tool_registry import get_tool_registry

from .test_loader import manifest


def test_a_refresh_never_reports_a_present_long_name_as_removed(tmp_path: Path) -> None:
    # A name longer than the 80 characters a value is clipped to (but within the 300 a source
    # is shown with) was listed as both ``reused`` and ``removed`` by every refresh.
    folder = tmp_path / "adapters"
    folder.mkdir()
    long_name = "a" * 100 + ".json"
    (folder / long_name).write_text(json.dumps(manifest()), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps(manifest(id="bee", displayName="Bee")))
    registry = get_tool_registry(folder)
    (folder / "b.json").unlink()
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [
        (long_name, "reused"),
        ("b.json", "removed"),
    ]
    again = refreshed.refresh()
    assert [(s.source, s.state) for s in again.refreshed] == [(long_name, "reused")]

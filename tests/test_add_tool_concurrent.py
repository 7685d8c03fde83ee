"""Two ``add-tool`` runs on one project at once: each read ``tools.yaml``, spliced its row in and
wrote the whole file, so the later write silently dropped the earlier one's row (the write lock
only orders the writes). The table must still hold what was read when the lock is taken; if it
does not, nothing is written and the run fails with ``WRITE_FAILED`` at the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline

from .test_add_tool import BASE, TABLE, rows, snapshot

Run = Callable[..., tuple[int, str, str]]


def test_a_table_written_meanwhile_is_not_overwritten(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = project / TABLE
    real_build = pipeline.build_outputs
    other_row = "\n  - id: other-agent\n    displayName: Other\n"

    def build_then_someone_writes(*arguments: Any, **keywords: Any) -> Any:
        result = real_build(*arguments, **keywords)
        # What the other add-tool (or an editor) wrote while this one was rendering.
        table.write_text(table.read_text(encoding="utf-8") + other_row, encoding="utf-8")
        return result

    monkeypatch.setattr(pipeline, "build_outputs", build_then_someone_writes)
    code, out, _ = run_cli(
        "add-tool", "acme-agent", *BASE, "--project", str(project), "--format", "json"
    )
    meanwhile = table.read_text(encoding="utf-8")
    assert code == 1
    report = json.loads(out)
    assert [(d["code"], d["source"]) for d in report["diagnostics"]] == [("WRITE_FAILED", TABLE)]
    assert report["changed"] == []
    assert meanwhile.endswith(other_row)  # the other writer's change is kept
    assert "acme-agent" not in meanwhile


def test_an_unchanged_table_is_written(project: Path, run_cli: Run) -> None:
    before = snapshot(project)
    code, _, err = run_cli("add-tool", "acme-agent", *BASE, "--project", str(project))
    assert code == 0, err
    assert rows(project)[-1]["id"] == "acme-agent"
    assert snapshot(project) != before

"""The stamp records the sources ``generate`` read, not the files as they are when it finishes.
A ``tools.yaml`` saved while ``generate`` rendered (an editor, a watcher regenerating on save) was
fingerprinted after the outputs were made from its older text: the stamp then vouched for stale
outputs, and the fast ``check`` said ``up to date (fingerprints match the stamp)`` while
``check --full`` found drift."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline

Run = Callable[..., tuple[int, str, str]]


def test_a_source_saved_while_generating_is_not_vouched_for(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = project / "schema" / "tools.yaml"
    real_validate = pipeline.validate_sources

    def saved_meanwhile(*arguments: Any) -> Any:
        found = real_validate(*arguments)
        text = table.read_text(encoding="utf-8")
        table.write_text(text.replace("displayName: Claude Code\n", "displayName: Claude X\n"))
        return found

    monkeypatch.setattr(pipeline, "validate_sources", saved_meanwhile)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    monkeypatch.undo()
    assert "Claude X" in table.read_text(encoding="utf-8")
    code, _, err = run_cli("check", "--project", str(project))
    assert "fingerprints match the stamp" not in err
    assert "inputs changed: table" in err
    assert code == 1  # the outputs are the older table's: drift
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0 and "fingerprints match the stamp" in err

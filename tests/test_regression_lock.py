"""The regression lock (tests/regression_lock.py) holds for the live table, lets a maintainer add a
tool, and catches a removed or renamed tool and every changed locked fact."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import tool_registry

from .conftest import probe_python
from .regression_lock import (
    FACTS_PROBE,
    HOOKS,
    LAUNCH,
    TableFacts,
    facts_from_json,
    facts_of_module,
    lock_violations,
)

Run = Callable[..., tuple[int, str, str]]

NEW_ROW = """
  - id: lock-test-tool
    displayName: Lock Test Tool
    launchable: true
    hookCapable: true
    hookPointer: .lock-test/install.json
    detect:
      kind: path
      binaryName: lock-test
    capabilities:
      provides: [headless-task]
    category: cli-agent
"""


def _regenerate(project: Path, run_cli: Run) -> TableFacts:
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    return facts_from_json(probe_python(project / "generated/python", FACTS_PROBE))


def _edit_table(project: Path, old: str, new: str) -> None:
    table = project / "schema/tools.yaml"
    text = table.read_text()
    assert old in text
    table.write_text(text.replace(old, new, 1))


def test_the_live_table_keeps_every_locked_tool() -> None:
    assert lock_violations(facts_of_module(tool_registry)) == []


def test_an_added_tool_passes_the_lock(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text() + NEW_ROW)
    facts = _regenerate(project, run_cli)
    assert facts.tools is not None and facts.tools[-1] == "lock-test-tool"
    assert "lock-test-tool" in (facts.cohorts[HOOKS] or ())
    assert lock_violations(facts) == []


def test_a_tool_inserted_between_locked_tools_passes_the_lock(project: Path, run_cli: Run) -> None:
    _edit_table(project, "\n  - id: cursor\n", NEW_ROW + "\n  - id: cursor\n")
    facts = _regenerate(project, run_cli)
    assert facts.tools is not None
    assert facts.tools.index("lock-test-tool") == facts.tools.index("cursor") - 1
    assert lock_violations(facts) == []


def test_a_removed_tool_fails_the_lock(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    text = table.read_text()
    start = text.index("  - id: hermes\n")
    end = text.index("  - id: openclaw\n")
    table.write_text(text[:start] + text[end:])
    facts = _regenerate(project, run_cli)
    assert lock_violations(facts) == ["hermes: removed or renamed (no longer in SUPPORTED_TOOLS)"]


def test_a_renamed_tool_fails_the_lock(project: Path, run_cli: Run) -> None:
    _edit_table(project, "id: cursor\n", "id: cursor-ide\n")
    _edit_table(project, "displayName: Codex CLI\n", "displayName: Codex\n")
    facts = _regenerate(project, run_cli)
    assert lock_violations(facts) == [
        "cursor: removed or renamed (no longer in SUPPORTED_TOOLS)",
        "codex: display name 'Codex CLI' became 'Codex'",
    ]


LIVE = facts_of_module(tool_registry)


def _without(ids: tuple[str, ...] | None, identifier: str) -> tuple[str, ...]:
    return tuple(i for i in ids or () if i != identifier)


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (
            dataclasses.replace(
                LIVE, hook_pointers={**(LIVE.hook_pointers or {}), "codex": ".codex/x.json"}
            ),
            "codex: hook pointer '.codex/hive-mind-install.json' became '.codex/x.json'",
        ),
        (
            dataclasses.replace(
                LIVE, cohorts={**LIVE.cohorts, HOOKS: _without(LIVE.cohorts[HOOKS], "hermes")}
            ),
            "hermes: left HOOKS_COHORT",
        ),
        (
            dataclasses.replace(
                LIVE,
                cohorts={**LIVE.cohorts, HOOKS: (*(LIVE.cohorts[HOOKS] or ()), "claude-desktop")},
            ),
            "claude-desktop: joined HOOKS_COHORT",
        ),
        (
            dataclasses.replace(LIVE, cohorts={**LIVE.cohorts, LAUNCH: None}),
            "cohort LAUNCH_COHORT is gone",
        ),
        (dataclasses.replace(LIVE, display_names=None), "map TOOL_DISPLAY_NAMES is gone"),
        (
            dataclasses.replace(LIVE, tools=tuple(reversed(LIVE.tools or ()))),
            "the locked tools changed their relative order",
        ),
    ],
    ids=["pointer", "left-cohort", "joined-cohort", "cohort-gone", "map-gone", "reordered"],
)
def test_each_locked_fact_is_checked(facts: TableFacts, expected: str) -> None:
    (violation,) = lock_violations(facts)
    assert re.match(re.escape(expected), violation), violation

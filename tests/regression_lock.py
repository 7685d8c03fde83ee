"""The regression lock: the seven built-in tools of today, and what consumers rely on about them.

The lock holds what must not change, not the whole table: every locked tool keeps its id, its
display name, its hook pointer, its membership of each locked cohort, and the locked tools keep
their relative order. It is a superset check: adding a tool (anywhere, in any cohort) passes;
removing or renaming a locked tool, or changing one of those facts, fails with a message naming it.

``lock_violations`` judges ``TableFacts``, which come from a generated Python package: in process
(``facts_of_module``) or, for a project copy, in a fresh interpreter (``FACTS_PROBE``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

LAUNCH, HOOKS = "LAUNCH_COHORT", "HOOKS_COHORT"
LOCKED_COHORTS = (LAUNCH, HOOKS)


@dataclass(frozen=True)
class LockedTool:
    id: str
    display_name: str
    hook_pointer: str
    cohorts: frozenset[str]  # the locked cohorts it belongs to


def _tool(identifier: str, name: str, pointer: str, *cohorts: str) -> LockedTool:
    return LockedTool(identifier, name, pointer, frozenset(cohorts))


# Today's reality, in table order (the design's "regression-lock the current 7-tool reality").
LOCKED_TOOLS = (
    _tool("claude-code", "Claude Code", ".claude/hive-mind-install.json", LAUNCH, HOOKS),
    _tool("claude-desktop", "Claude Desktop", ".config/Claude/hive-mind-install.json", LAUNCH),
    _tool("cursor", "Cursor", ".cursor/hive-mind-install.json", LAUNCH, HOOKS),
    _tool("codex", "Codex CLI", ".codex/hive-mind-install.json", LAUNCH, HOOKS),
    _tool("codex-desktop", "Codex Desktop", ".codex/hive-mind-install.json", LAUNCH, HOOKS),
    _tool("hermes", "Hermes Agent", ".hermes/hive-mind-install.json", LAUNCH, HOOKS),
    _tool("openclaw", "OpenClaw", ".openclaw/hive-mind-install.json", LAUNCH, HOOKS),
)
LOCKED_IDS = tuple(tool.id for tool in LOCKED_TOOLS)


@dataclass(frozen=True)
class TableFacts:
    """What the lock looks at in a generated package; a missing constant is ``None``."""

    tools: tuple[str, ...] | None
    cohorts: Mapping[str, tuple[str, ...] | None]
    display_names: Mapping[str, str] | None
    hook_pointers: Mapping[str, str] | None


# The constants the lock reads from a generated package.
READ_CONSTANTS = ("SUPPORTED_TOOLS", *LOCKED_COHORTS, "TOOL_DISPLAY_NAMES", "HOOK_POINTER_BY_TOOL")

# Run in a fresh interpreter with the generated package's folder on sys.path; prints the facts.
FACTS_PROBE = f"""
import json
from collections.abc import Mapping
import tool_registry
values = {{name: getattr(tool_registry, name, None) for name in {READ_CONSTANTS!r}}}
print(json.dumps({{n: dict(v) if isinstance(v, Mapping) else v for n, v in values.items()}}))
"""


def facts_of_module(module: ModuleType) -> TableFacts:
    values = {name: getattr(module, name, None) for name in READ_CONSTANTS}
    return facts_from_json({n: dict(v) if isinstance(v, Mapping) else v for n, v in values.items()})


def _ids(value: object) -> tuple[str, ...] | None:
    return tuple(str(item) for item in value) if isinstance(value, list | tuple) else None


def _mapping(value: object) -> dict[str, str] | None:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else None


def facts_from_json(document: object) -> TableFacts:
    """Facts from the probe's JSON (or the same shape built in process)."""
    assert isinstance(document, dict), document
    return TableFacts(
        tools=_ids(document.get("SUPPORTED_TOOLS")),
        cohorts={name: _ids(document.get(name)) for name in LOCKED_COHORTS},
        display_names=_mapping(document.get("TOOL_DISPLAY_NAMES")),
        hook_pointers=_mapping(document.get("HOOK_POINTER_BY_TOOL")),
    )


def lock_violations(facts: TableFacts) -> list[str]:
    """Everything about the locked tools that no longer holds; empty when the lock holds."""
    if facts.tools is None:
        return ["SUPPORTED_TOOLS is gone"]
    maps = {"TOOL_DISPLAY_NAMES": facts.display_names, "HOOK_POINTER_BY_TOOL": facts.hook_pointers}
    found = [f"cohort {name} is gone" for name, ids in facts.cohorts.items() if ids is None]
    found += [f"map {name} is gone" for name, values in maps.items() if values is None]
    for tool in LOCKED_TOOLS:
        if tool.id in facts.tools:
            found += _tool_violations(tool, facts)
        else:
            found.append(f"{tool.id}: removed or renamed (no longer in SUPPORTED_TOOLS)")
    present = [identifier for identifier in facts.tools if identifier in LOCKED_IDS]
    if present != [identifier for identifier in LOCKED_IDS if identifier in facts.tools]:
        found.append(f"the locked tools changed their relative order: {present}")
    return found


def _tool_violations(tool: LockedTool, facts: TableFacts) -> list[str]:
    found: list[str] = []
    for label, values, locked in (
        ("display name", facts.display_names, tool.display_name),
        ("hook pointer", facts.hook_pointers, tool.hook_pointer),
    ):
        if values is not None and values.get(tool.id) != locked:
            found.append(f"{tool.id}: {label} {locked!r} became {values.get(tool.id)!r}")
    for cohort, members in facts.cohorts.items():
        if members is not None and (tool.id in members) != (cohort in tool.cohorts):
            verb = "left" if cohort in tool.cohorts else "joined"
            found.append(f"{tool.id}: {verb} {cohort}")
    return found

"""End to end, as a maintainer adds a tool: edit the YAML, see check fail, generate, see it pass,
and watch the type system force every exhaustive consumer to handle the new id."""

from __future__ import annotations

from pathlib import Path

from .conftest import (
    HOOK_CAPABLE_SIX,
    SEVEN_TOOLS,
    build_typescript,
    compile_typescript,
    copy_project,
    probe_python,
    run_toolgen,
    stage_typescript,
)

NEW_ROW = """
  - id: hermes-desktop
    displayName: Hermes Desktop
    launchable: true
    hookCapable: false
    hookPointer: .hermes/desktop-install.json
    detect:
      kind: candidates
    capabilities:
      provides: [interactive-launch]
    category: desktop-app
"""

EXHAUSTIVE_CONSUMER = """
import type { ToolId } from "./index.js";
export const ICONS: Record<ToolId, string> = {
  "claude-code": "cc", "claude-desktop": "cd", cursor: "cu", codex: "cx",
  "codex-desktop": "cxd", hermes: "he", openclaw: "oc",
};
"""

PY_PROBE = """
import json
import tool_registry as r
print(json.dumps({"tools": r.SUPPORTED_TOOLS, "hooks": r.HOOKS_COHORT, "launch": r.LAUNCH_COHORT,
                  "name": r.TOOL_DISPLAY_NAMES["hermes-desktop"]}))
"""


def test_adding_an_eighth_tool(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    typescript = project / "generated/typescript"
    build_typescript(tmp_path / "before", typescript, {"consumer.ts": EXHAUSTIVE_CONSUMER})

    table = project / "schema/tools.yaml"
    table.write_text(table.read_text() + NEW_ROW)
    drift = run_toolgen("check", "--project", str(project))
    assert drift.returncode == 1
    assert "generated/python/tool_registry/constants.py: DRIFT_CHANGED" in drift.stderr
    assert '+    "hermes-desktop",' in drift.stdout

    generated = run_toolgen("generate", "--project", str(project))
    assert generated.returncode == 0, generated.stderr
    assert run_toolgen("check", "--project", str(project)).returncode == 0

    facts = probe_python(project / "generated/python", PY_PROBE)
    assert isinstance(facts, dict)
    assert facts["tools"] == [*SEVEN_TOOLS, "hermes-desktop"]
    assert facts["hooks"] == HOOK_CAPABLE_SIX
    assert facts["launch"][-1] == "hermes-desktop"
    assert facts["name"] == "Hermes Desktop"

    after = tmp_path / "after"
    staged = stage_typescript(after, typescript, {"consumer.ts": EXHAUSTIVE_CONSUMER})
    result = compile_typescript(after, staged)
    assert result.returncode != 0
    assert "hermes-desktop" in result.stdout and "TS2741" in result.stdout

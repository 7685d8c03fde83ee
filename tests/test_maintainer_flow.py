"""End to end, as a maintainer adds a tool: edit the YAML, see check fail, generate, see it pass,
and watch the type system force every exhaustive consumer to handle the new id.

Everything is derived from the live table, so the flow holds whatever tools it already has (the
new row's id is one the table does not use)."""

from __future__ import annotations

import json
from pathlib import Path

from tool_registry import HOOKS_COHORT, LAUNCH_COHORT, SUPPORTED_TOOLS

from .conftest import (
    build_typescript,
    compile_typescript,
    copy_project,
    probe_python,
    run_toolgen,
    stage_typescript,
)

NEW_ID = next(
    candidate
    for candidate in (f"maintainer-flow-tool-{n}" for n in range(len(SUPPORTED_TOOLS) + 1))
    if candidate not in SUPPORTED_TOOLS
)
NEW_ROW = f"""
  - id: {NEW_ID}
    displayName: Maintainer Flow Tool
    launchable: true
    hookCapable: false
    hookPointer: .maintainer-flow/install.json
    detect:
      kind: candidates
    capabilities:
      provides: [interactive-launch]
    category: desktop-app
"""

# A consumer with an exhaustive Record<ToolId, …> over today's ids.
EXHAUSTIVE_CONSUMER = (
    'import type { ToolId } from "./index.js";\n'
    "export const ICONS: Record<ToolId, string> = {\n"
    + "".join(f"  {json.dumps(tool)}: {json.dumps(tool[:2])},\n" for tool in SUPPORTED_TOOLS)
    + "};\n"
)

PY_PROBE = f"""
import json
import tool_registry as r
print(json.dumps({{"tools": r.SUPPORTED_TOOLS, "hooks": r.HOOKS_COHORT, "launch": r.LAUNCH_COHORT,
                  "name": r.TOOL_DISPLAY_NAMES[{NEW_ID!r}]}}))
"""


def test_adding_a_tool(tmp_path: Path) -> None:
    baseline = copy_project(tmp_path / "baseline")
    project = copy_project(tmp_path / "project")
    typescript = project / "generated/typescript"
    build_typescript(tmp_path / "before", typescript, {"consumer.ts": EXHAUSTIVE_CONSUMER})

    table = project / "schema/tools.yaml"
    table.write_text(table.read_text() + NEW_ROW)
    drift = run_toolgen("check", "--project", str(project))
    assert drift.returncode == 1
    assert "generated/python/tool_registry/constants.py: DRIFT_CHANGED" in drift.stderr
    assert f'+    "{NEW_ID}",' in drift.stdout

    generated = run_toolgen("generate", "--project", str(project))
    assert generated.returncode == 0, generated.stderr
    assert run_toolgen("check", "--project", str(project)).returncode == 0

    facts = probe_python(project / "generated/python", PY_PROBE)
    assert isinstance(facts, dict)
    assert facts["tools"] == [*SUPPORTED_TOOLS, NEW_ID]
    assert facts["hooks"] == list(HOOKS_COHORT)
    assert facts["launch"] == [*LAUNCH_COHORT, NEW_ID]
    assert facts["name"] == "Maintainer Flow Tool"
    # Stability is checked against history: an added tool breaks nothing.
    guard = run_toolgen(
        "breaking", "--against", str(baseline), "--project", str(project), "--format", "json"
    )
    assert guard.returncode == 0, guard.stdout
    found = json.loads(guard.stdout)["diagnostics"]
    assert {(d["code"], d["subject"]) for d in found} == {("SAFE_ADDITION", NEW_ID)}

    after = tmp_path / "after"
    staged = stage_typescript(after, typescript, {"consumer.ts": EXHAUSTIVE_CONSUMER})
    result = compile_typescript(after, staged)
    assert result.returncode != 0
    assert NEW_ID in result.stdout and "TS2741" in result.stdout

"""The generated TypeScript compiles with the real, pinned tsc under strict options, its types say
what they should (checked with @ts-expect-error, which fails the build when no error occurs), and
its runtime helpers behave like the Python ones (the prompt-argument helper: test_prompt_args.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tool_registry import (
    CAPABILITY_PROVIDERS,
    HOOKS_COHORT,
    LAUNCH_COHORT,
    SUPPORTED_TOOLS,
    TOOL_DISPLAY_NAMES,
)

from .conftest import (
    REPO,
    build_typescript,
    compile_typescript,
    run_node,
    stage_typescript,
)

GENERATED_TS = REPO / "generated/typescript"

TYPE_CHECKS = """\
import {
  BUILTIN_TOOL_MANIFESTS, HOOKS_COHORT, LAUNCH_COHORT, TOOL_DISPLAY_NAMES, HOOK_POINTER_BY_TOOL,
  CAPABILITY_PROVIDERS, SUPPORTED_TOOLS, hookPackageFor,
  type Capability, type ThirdPartyToolManifest, type ToolDetectSpec, type ToolId, type ToolManifest,
} from "./index.js";

const id: ToolId = "cursor";
// @ts-expect-error: ToolId is a literal union, not string
const notAnId: ToolId = "aider";
// @ts-expect-error: cohorts are readonly
LAUNCH_COHORT.push("cursor");
// @ts-expect-error: maps are readonly
TOOL_DISPLAY_NAMES.cursor = "x";
// @ts-expect-error: manifests are readonly
BUILTIN_TOOL_MANIFESTS[0].displayName = "x";
// @ts-expect-error: the tuple of ids is readonly
SUPPORTED_TOOLS.pop();
const pointer: string = HOOK_POINTER_BY_TOOL[id];
const providers: readonly ToolId[] = CAPABILITY_PROVIDERS["headless-task"];
// @ts-expect-error: capabilities are a closed vocabulary
const capability: Capability = "telepathy";
const pathDetect: ToolDetectSpec = { kind: "path", binaryName: "aider" };
// @ts-expect-error: a path spec needs its binary name
const brokenDetect: ToolDetectSpec = { kind: "path" };
const adapter: ThirdPartyToolManifest = {
  id: "aider", displayName: "Aider", launchable: true, hookCapable: false,
  hookPointer: ".aider/p.json", detect: pathDetect as { kind: "path"; binaryName: string },
};
const thirdPartyCandidates: ThirdPartyToolManifest = {
  id: "aider", displayName: "Aider", launchable: true, hookCapable: false, hookPointer: ".aider/p.json",
  // @ts-expect-error: third parties may only use PATH detection
  detect: { kind: "candidates" },
};
// @ts-expect-error: exactOptionalPropertyTypes: an optional field is absent, never undefined
const withUndefined: ToolManifest = {
  id: "x", displayName: "X", launchable: true, hookCapable: false, hookPointer: ".x/p.json", detect: pathDetect,
  hookPackage: undefined,
};
const hooks: readonly ToolId[] = HOOKS_COHORT;
export const used = [id, notAnId, pointer, providers, capability, brokenDetect, adapter, thirdPartyCandidates,
  withUndefined, hooks, hookPackageFor("codex")];
"""

RUNTIME_CHECKS = """\
import {
  BUILTIN_TOOL_MANIFESTS, HOOKS_COHORT, LAUNCH_COHORT, SUPPORTED_TOOLS, TOOL_DISPLAY_NAMES, CAPABILITY_PROVIDERS,
  MANIFEST_MAX_BYTES, hookPackageFor, hookPackageOf,
} from "./index.js";

const first = BUILTIN_TOOL_MANIFESTS.find((manifest) => manifest.id === "claude-code");
if (first?.capabilities === undefined) throw new Error("claude-code has capabilities");
console.log(JSON.stringify({
  tools: SUPPORTED_TOOLS,
  hooks: HOOKS_COHORT,
  launch: LAUNCH_COHORT,
  names: TOOL_DISPLAY_NAMES,
  providers: CAPABILITY_PROVIDERS,
  maxBytes: MANIFEST_MAX_BYTES,
  hookPackage: hookPackageFor("codex"),
  overridden: hookPackageOf({ id: "x", hookPackage: "@acme/hooks" }),
  unknownThrows: (() => { try { hookPackageFor("nope" as never); return false; } catch { return true; } })(),
  frozen: [Object.isFrozen(SUPPORTED_TOOLS), Object.isFrozen(BUILTIN_TOOL_MANIFESTS), Object.isFrozen(first), Object.isFrozen(first.detect),
           Object.isFrozen(first.capabilities.provides), Object.isFrozen(TOOL_DISPLAY_NAMES),
           Object.isFrozen(LAUNCH_COHORT), Object.isFrozen(CAPABILITY_PROVIDERS["resumable"])],
}));
"""


def test_generated_typescript_compiles_under_strict_options(tmp_path: Path) -> None:
    result = compile_typescript(tmp_path, sorted(GENERATED_TS.glob("*.ts")))
    assert result.returncode == 0, result.stdout


def test_generated_typescript_compiles_for_bundlers_too(tmp_path: Path) -> None:
    bundler = {"module": "ESNext", "moduleResolution": "Bundler"}
    result = compile_typescript(tmp_path, sorted(GENERATED_TS.glob("*.ts")), overrides=bundler)
    assert result.returncode == 0, result.stdout


def test_types_accept_and_reject_what_they_should(tmp_path: Path) -> None:
    build_typescript(tmp_path, GENERATED_TS, {"type-checks.ts": TYPE_CHECKS})


def test_a_type_check_that_should_fail_does_fail(tmp_path: Path) -> None:
    # Guards the guard: an @ts-expect-error on a line without an error breaks the build.
    bad = 'import type { ToolId } from "./index.js";\n// @ts-expect-error\nexport const ok: ToolId = "cursor";\n'
    result = compile_typescript(tmp_path, stage_typescript(tmp_path, GENERATED_TS, {"bad.ts": bad}))
    assert result.returncode != 0 and "TS2578" in result.stdout


def test_runtime_behaviour_under_node(tmp_path: Path) -> None:
    out = build_typescript(tmp_path, GENERATED_TS, {"runtime-checks.ts": RUNTIME_CHECKS})
    result = run_node(out / "runtime-checks.js")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    # The same table as the generated Python package, constant for constant and in order.
    assert facts["tools"] == list(SUPPORTED_TOOLS)
    assert facts["hooks"] == list(HOOKS_COHORT)
    assert facts["launch"] == list(LAUNCH_COHORT)
    assert list(facts["names"].items()) == list(TOOL_DISPLAY_NAMES.items())
    assert facts["providers"] == {key: list(ids) for key, ids in CAPABILITY_PROVIDERS.items()}
    assert list(facts["providers"]) == list(CAPABILITY_PROVIDERS)
    assert facts["maxBytes"] == 65536
    assert facts["hookPackage"] == "@waggle/hive-mind-hooks-codex"
    assert facts["overridden"] == "@acme/hooks"
    assert facts["unknownThrows"] is True
    assert facts["frozen"] == [True] * 8

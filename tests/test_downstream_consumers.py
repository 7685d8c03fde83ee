"""The generated outputs as a downstream project uses them: the TypeScript files dropped into a
monorepo package and compiled by *its* tsconfig (strict settings a real monorepo uses, a `lib`
without the DOM, as a node project has), with consumer code using the public API, then run
under node; and the Python package imported without loading its runtime."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import cast

import pytest

from .conftest import REPO, install_node_types, node_executable, probe_python

COMPILERS = {
    "5.9": REPO / "node_modules/typescript/bin/tsc",
    "7": REPO / "node_modules/typescript-7/bin/tsc",
}
CASES = {
    "main": REPO,
    "special_keys": REPO / "tests/golden/special_keys",
}

# What a strict monorepo's base tsconfig sets, with a `lib` of the language only: a node
# project has no DOM, so the generated files may use no DOM-only type; and only syntax a type
# stripper erases (`erasableSyntaxOnly`).
MONOREPO = {
    "strict": True,
    "exactOptionalPropertyTypes": True,
    "noUncheckedIndexedAccess": True,
    "noImplicitOverride": True,
    "noPropertyAccessFromIndexSignature": True,
    "verbatimModuleSyntax": True,
    "isolatedModules": True,
    "useUnknownInCatchVariables": True,
    "erasableSyntaxOnly": True,  # no parameter properties, enums or namespaces
    "noUnusedLocals": True,
    "noUnusedParameters": True,
    "noImplicitReturns": True,
    "noFallthroughCasesInSwitch": True,
    "allowJs": False,
    "skipLibCheck": False,
    "lib": ["ES2022"],
    "types": ["node"],
}
SETTINGS = {
    "nodenext": {"module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022"},
    "node16-es2020": {"module": "Node16", "moduleResolution": "Node16", "target": "ES2020"},
    "bundler": {"module": "ESNext", "moduleResolution": "Bundler", "target": "ESNext"},
    "preserve": {"module": "Preserve", "moduleResolution": "Bundler", "target": "ES2022"},
}

CONSUMER = """\
import {
  BUILTIN_TOOL_MANIFESTS_BY_ID, CAPABILITIES, CAPABILITY_PROVIDERS, COHORTS, COHORT_NAMES,
  DiagnosticCode, NotLaunchableError, PromptArgError, SUPPORTED_TOOLS, UnknownCohortError,
  applyPromptArgTemplate, detectAll, ensureLaunchable, getToolRegistry, isToolId,
  parseThirdPartyManifest,
  type Capability, type CohortName, type DetectionDeps, type DetectionResult, type ToolId, type ToolManifest,
} from "./registry/index.js";

function tag(id: ToolId): string {
  switch (id) {
CASES_OF_TOOL_ID
    default: {
      const unhandled: never = id;
      return unhandled;
    }
  }
}

async function main(): Promise<void> {
  const tags: Record<ToolId, string> = Object.fromEntries(
    SUPPORTED_TOOLS.map((id) => [id, tag(id)]),
  ) as Record<ToolId, string>;
  const first: ToolManifest = BUILTIN_TOOL_MANIFESTS_BY_ID[SUPPORTED_TOOLS[0]];
  const cohort: CohortName = COHORT_NAMES[0];
  const capability: Capability = CAPABILITIES[0];
  const parsed = parseThirdPartyManifest('{"id": "x"}', "x.json");
  const codes: DiagnosticCode[] = parsed.diagnostics.map((record) => record.code);
  let prompt = "";
  try {
    applyPromptArgTemplate(["{prompt}"], "-rf");
  } catch (error) {
    if (error instanceof PromptArgError) prompt = error.code;
  }
  const registry = getToolRegistry("ADAPTERS", { grants: {}, categories: null });
  let unknownCohort = false;
  try {
    registry.cohort("NO_SUCH_COHORT" as CohortName);
  } catch (error: unknown) {
    unknownCohort = error instanceof UnknownCohortError;
  }
  let notLaunchable = false;
  try {
    ensureLaunchable("no-such-tool");
  } catch (error) {
    notLaunchable = error instanceof NotLaunchableError;
  }
  const deps: Partial<DetectionDeps> = {
    which: () => null,
    isFile: () => false,
    runVersion: async () => null,
    readText: () => null,
    home: () => "/nonexistent-home",
    platform: () => "linux",
  };
  const results: readonly DetectionResult[] = await detectAll(registry, deps, {
    probeThirdPartyVersions: false,
  });
  console.log(JSON.stringify({
    tags: Object.keys(tags),
    first: first.id,
    cohort: COHORTS[cohort],
    providers: CAPABILITY_PROVIDERS[capability],
    accepted: parsed.manifest !== null,
    schemaViolation: codes.includes(DiagnosticCode.SCHEMA_VIOLATION),
    prompt,
    unknownCohort,
    notLaunchable,
    guarded: ["codex", "no-such-tool"].filter(isToolId),
    detected: results.map((result) => result.id),
    ids: registry.ids,
  }));
}

await main();
"""


def _compiler(version: str) -> Path:
    path = COMPILERS[version]
    if not path.exists():
        pytest.fail(f"TypeScript {version} is missing: run `make test`, which installs it")
    return path


def _drop_in(case: Path, project: Path) -> list[str]:
    """The case's TypeScript copied into a monorepo package as source files (no package.json or
    tsconfig.json of its own: the monorepo's apply), and a consumer of its public API."""
    folder = project / "src/registry"
    folder.mkdir(parents=True)
    for source in sorted((case / "generated/typescript").glob("*.ts")):
        shutil.copyfile(source, folder / source.name)
    (project / "package.json").write_text('{"private": true, "type": "module"}\n')
    install_node_types(project)
    ids = cast(
        list[str],
        probe_python(
            case / "generated/python",
            "import json, tool_registry as t\nprint(json.dumps(list(t.SUPPORTED_TOOLS)))",
        ),
    )
    cases = "".join(f"    case {json.dumps(tool)}: return {json.dumps(tool)};\n" for tool in ids)
    text = CONSUMER.replace("CASES_OF_TOOL_ID\n", cases)
    (project / "src/consumer.ts").write_text(text.replace("ADAPTERS", str(project / "none")))
    return ids


def _compile(project: Path, version: str, options: dict[str, object]) -> None:
    config = {"compilerOptions": {**MONOREPO, **options}, "include": ["src/**/*.ts"]}
    (project / "tsconfig.json").write_text(json.dumps(config))
    checked = subprocess.run(
        [node_executable(), str(_compiler(version)), "-p", "."],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, (version, options, checked.stdout, checked.stderr)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_the_typescript_compiles_in_a_strict_monorepo_without_the_dom(
    setting: str, case: str, tmp_path: Path
) -> None:
    _drop_in(CASES[case], tmp_path)
    for version in sorted(COMPILERS):
        _compile(tmp_path, version, {**SETTINGS[setting], "noEmit": True})


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_consumer_compiled_with_declarations_runs_under_node(case: str, tmp_path: Path) -> None:
    """Built as the monorepo builds it (JavaScript and declarations from the sources), the
    consumer's exhaustive switch over `ToolId` and its use of the runtime compile, and node runs
    it with the values the generated Python holds."""
    ids = _drop_in(CASES[case], tmp_path)
    emit = {"declaration": True, "outDir": "out", "rootDir": "src"}
    for version in sorted(COMPILERS):
        shutil.rmtree(tmp_path / "out", ignore_errors=True)
        _compile(tmp_path, version, {**SETTINGS["nodenext"], **emit})
        assert (tmp_path / "out/registry/index.d.ts").is_file()
        ran = subprocess.run(
            [node_executable(), "out/consumer.js"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert ran.returncode == 0, ran.stderr
        printed = json.loads(ran.stdout)
        assert printed["tags"] == ids and printed["detected"] == ids == printed["ids"]
        assert printed["first"] == ids[0]
        assert printed["accepted"] is False and printed["schemaViolation"] is True
        assert printed["prompt"] == "PROMPT_AS_OPTION"
        assert printed["unknownCohort"] is True and printed["notLaunchable"] is True

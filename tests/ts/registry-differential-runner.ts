// Runs a batch of registry-and-detection scenarios through the generated TypeScript runtime for
// the cross-language differential test (tests/test_registry_differential.py).
// Input: argv[2] names a JSON job {"folders": [path], "scenarios": [scenario]} (the scenario
// format is described in tests/registry_differential.py); argv[3] is where the outcomes go.
// Every scenario builds a registry with `getToolRegistry` from one of the folders, reads its
// tools, diagnostics, cohorts, capability providers and catalog, and detects with `detectAll`
// and `detectTool` over fake dependencies that log every call they get.
import { readFileSync, writeFileSync } from "node:fs";

import {
  NotARegularFileError,
  detectAll,
  detectTool,
  getToolRegistry,
  notLaunchableReason,
  type Diagnostic,
  type DetectionDeps,
  type DetectionResult,
  type ToolRegistry,
} from "./index.js";
import { VersionTimeoutError } from "./detection.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Answer = { readonly v: Json } | { readonly throw: string; readonly text?: string };

interface DepsSpec {
  readonly which: { readonly table: Record<string, Answer>; readonly default: Answer };
  readonly isFile: { readonly exact: string[]; readonly suffixes: string[]; readonly throwSuffixes: string[]; readonly default: boolean };
  readonly runVersion: { readonly rules: [string, Answer][]; readonly default: Answer };
  readonly readText: { readonly rules: [string, Answer][]; readonly default: Answer };
  readonly home: Answer;
  readonly platform: Answer;
}

interface Scenario {
  readonly folder: number;
  readonly grants: Json;
  readonly categories: Json;
  readonly resolvers: Record<string, Answer | { readonly value: Json }> | null;
  readonly deps: DepsSpec;
  readonly probe: boolean;
  readonly providers: Json[];
  readonly cohorts: Json[];
}

interface Job {
  readonly folders: readonly string[];
  readonly scenarios: readonly Scenario[];
}

/** `{"$set": [...]}` as a `Set`, anything else as it is (arrays and objects walked). */
function revived(value: Json): unknown {
  if (Array.isArray(value)) return value.map(revived);
  if (typeof value === "object" && value !== null) {
    if (Object.keys(value).length === 1 && Object.hasOwn(value, "$set")) {
      return new Set((value["$set"] as Json[]).map(revived));
    }
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: revived(item), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

/** The error a fake dependency throws, as this language spells each kind. */
function thrown(kind: string, text: string): Error {
  if (kind === "oserror") return Object.assign(new Error(`ENOENT: no such file or directory, ${text}`), { code: "ENOENT", errno: -2 });
  if (kind === "timeout") return new VersionTimeoutError(`no answer within 5000 ms`);
  if (kind === "notregular") return new NotARegularFileError(text, "a FIFO");
  const error = new Error(text);
  error.name = "RuntimeError";
  return error;
}

function answer(spec: Answer, log: string[][], call: string[]): unknown {
  log.push(call);
  if ("throw" in spec) throw thrown(spec.throw, spec.text ?? "boom");
  return spec.v;
}

function ruled(rules: readonly [string, Answer][], fallback: Answer, path: string): Answer {
  for (const [suffix, item] of rules) if (typeof path === "string" && path.endsWith(suffix)) return item;
  return fallback;
}

function fakeDeps(spec: DepsSpec, log: string[][]): DetectionDeps {
  return {
    which: (name: string) => answer(Object.hasOwn(spec.which.table, name) ? (spec.which.table[name] as Answer) : spec.which.default, log, ["which", name]) as string | null,
    isFile: (path: string) => {
      log.push(["isFile", path]);
      if (spec.isFile.throwSuffixes.some((suffix) => path.endsWith(suffix))) throw thrown("oserror", path);
      return spec.isFile.exact.includes(path) || spec.isFile.suffixes.some((suffix) => path.endsWith(suffix)) || spec.isFile.default;
    },
    runVersion: async (path: string) => answer(ruled(spec.runVersion.rules, spec.runVersion.default, path), log, ["runVersion", path]) as string | null,
    readText: (path: string) => answer(ruled(spec.readText.rules, spec.readText.default, path), log, ["readText", path]) as string | null,
    home: () => answer(spec.home, log, ["home"]) as string,
    platform: () => answer(spec.platform, log, ["platform"]) as string,
  };
}

/** Every field of a record, read through its getters. */
function record(d: Diagnostic): Record<string, unknown> {
  return {
    code: d.code,
    severity: d.severity,
    pointer: d.pointer,
    source: d.source,
    keyword: d.keyword,
    expected: d.expected,
    found: d.found,
    omitted: d.omitted,
    others: [...d.others],
    hint: d.hint,
    message: d.message,
  };
}

function result(r: DetectionResult): Record<string, unknown> {
  return {
    id: r.id,
    displayName: r.displayName,
    installed: r.installed,
    path: r.path,
    version: r.version,
    hooksInstalled: r.hooksInstalled,
    pointerPath: r.pointerPath,
    diagnostic: r.diagnostic === null ? null : record(r.diagnostic),
  };
}

function attempt<T>(run: () => T): T | { error: string } {
  try {
    return run();
  } catch (error) {
    return { error: error instanceof Error ? error.name : typeof error };
  }
}

async function outcome(scenario: Scenario, folder: string): Promise<Record<string, unknown>> {
  const resolvers: Record<string, unknown> = {};
  const resolverLog: string[][] = [];
  for (const [id, spec] of Object.entries(scenario.resolvers ?? {})) {
    resolvers[id] = "value" in spec ? spec.value : () => answer(spec, resolverLog, ["resolver", id]);
  }
  let registry: ToolRegistry;
  try {
    registry = getToolRegistry(folder, {
      grants: revived(scenario.grants) as Record<string, Iterable<string>>,
      categories: revived(scenario.categories) as Iterable<string>,
      ...(scenario.resolvers === null ? {} : { resolvers: resolvers as Record<string, () => string[]> }),
    });
  } catch (error) {
    return { registry: { error: error instanceof Error ? error.name : typeof error } };
  }
  const log: string[][] = resolverLog;
  const deps = fakeDeps(scenario.deps, log);
  const all = await detectAll(registry, deps, { probeThirdPartyVersions: scenario.probe });
  const allLog = [...log];
  log.length = 0;
  const unprobed: Record<string, unknown>[] = [];
  for (const tool of registry.tools) unprobed.push(result(await detectTool(tool, registry, deps, false)));
  const unprobedLog = [...log];
  const launch =
    scenario.categories === null
      ? registry.tools
          .filter((tool) => tool.builtin === true)
          .map((tool) => {
            const detected = all.find((r) => r.id === tool.id);
            return [tool.id, notLaunchableReason(tool.id, detected === undefined ? undefined : detected.installed)];
          })
      : null;
  return {
    registry: {
      ids: registry.ids,
      diagnostics: registry.diagnostics.map(record),
      sources: Object.fromEntries(registry.sources),
      granted: Object.fromEntries([...registry.granted].map(([id, caps]) => [id, [...caps].sort()])),
      cohorts: registry.cohorts,
      capabilityProviders: registry.capabilityProviders,
      providers: scenario.providers.map((c) => attempt(() => registry.providersOf(c as never))),
      cohort: scenario.cohorts.map((c) => attempt(() => registry.cohort(c as never))),
      catalog: registry.catalog(),
    },
    detectAll: all.map(result),
    detectAllLog: allLog,
    unprobed,
    unprobedLog,
    launch,
  };
}

const job = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Job;
const outcomes: Record<string, unknown>[] = [];
for (const scenario of job.scenarios) outcomes.push(await outcome(scenario, job.folders[scenario.folder] ?? ""));
writeFileSync(process.argv[3] ?? "", JSON.stringify(outcomes));

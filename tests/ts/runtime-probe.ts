// Exercises the generated TypeScript runtime against the real system and injected dependencies.
// argv[2] names a JSON job prepared by tests/test_typescript_runtime.py; prints one JSON document.
import { readFileSync } from "node:fs";

import {
  DiagnosticCode,
  NotARegularFileError,
  detectAll,
  detectionResultAsJson,
  diagnosticAsJson,
  getToolRegistry,
  readRegularFile,
  type DetectionDeps,
} from "./index.js";
// Internals of detection the probe exercises directly (not part of the public surface).
import { VersionTimeoutError, runVersion } from "./detection.js";

interface Job {
  readonly fifo: string;
  readonly linkToFifo: string;
  readonly big: string;
  readonly adapters: string;
  readonly home: string;
  readonly sleeper: string;
  readonly chatty: string;
  readonly failing: string;
  readonly metaName: string;
  readonly grants: Readonly<Record<string, readonly string[]>>;
}

const job = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Job;

function readKind(path: string): string {
  try {
    return `read ${readRegularFile(path, 10).length} bytes`;
  } catch (error) {
    return error instanceof NotARegularFileError ? error.kind : String(error);
  }
}

async function outcome(run: () => Promise<string | null>): Promise<unknown> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error: error instanceof VersionTimeoutError ? "timeout" : error instanceof Error ? error.name : "?" };
  }
}

const calls: string[] = [];
const fake: Partial<DetectionDeps> = {
  which: (name) => (name === "aider" || name === "claude" ? `/bin/${name}` : null),
  isFile: (path) => path === `${job.home}/.aider/backup.json`,
  runVersion: async (executable) => {
    calls.push(executable);
    if (executable === "/bin/claude") throw new VersionTimeoutError("no answer");
    return `${executable} 1.0\u202e\nsecond line`;
  },
  readText: (path) => (path.endsWith(".aider/hive-mind-install.json") ? '{"backup": "~/.aider/backup.json"}' : null),
  home: () => job.home,
  platform: () => "plan9",
};

const registry = getToolRegistry(job.adapters, {
  grants: job.grants,
  resolvers: { cursor: () => [`${job.home}/cursor`], aider: () => ["/never/used"] },
});
const quiet = await detectAll(registry, fake);
const quietCalls = [...calls];
calls.length = 0;
const probing = await detectAll(registry, fake, { probeThirdPartyVersions: true });
const probingCalls = [...calls];
// The real pointer reader over a home folder whose pointers are a FIFO and a regular file.
const { readText: _fakeReader, isFile: _fakeIsFile, ...withoutReader } = fake;
const realPointer = await detectAll(registry, withoutReader);

console.log(
  JSON.stringify({
    kinds: { fifo: readKind(job.fifo), linkToFifo: readKind(job.linkToFifo), big: readKind(job.big) },
    registry: {
      ids: registry.ids,
      cohorts: registry.cohorts,
      providers: registry.capabilityProviders,
      headless: registry.providersOf("headless-task"),
      diagnostics: registry.diagnostics.map((d) => diagnosticAsJson(d)),
      catalog: registry.catalog(),
      cursorResolver: registry.resolverFor("cursor") !== undefined,
      aiderResolver: registry.resolverFor("aider") !== undefined,
      scoped: getToolRegistry(job.adapters, { categories: "desktop-app" }).ids,
    },
    detection: {
      quiet: quiet.map((result) => detectionResultAsJson(result)),
      quietCalls,
      probingCalls,
      probing: probing.map((result) => detectionResultAsJson(result)),
      realPointer: realPointer.map((result) => detectionResultAsJson(result)),
    },
    versions: {
      sleeper: await outcome(() => runVersion(job.sleeper, 300)),
      chatty: await outcome(() => runVersion(job.chatty, 20000)),
      failing: await outcome(() => runVersion(job.failing, 20000)),
      meta: await outcome(() => runVersion(job.metaName, 20000)),
      missing: await outcome(() => runVersion(`${job.home}/absent`, 20000)),
    },
    codes: Object.keys(DiagnosticCode),
  }),
);

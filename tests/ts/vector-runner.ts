// Runs the shared runtime vectors (tests/vectors/) through the generated TypeScript runtime.
// Input: argv[2] names a JSON job {"parse": [{name, base64}], "loader": [{name, folder, maxFiles?}]}
// prepared by tests/test_runtime_vectors.py; output: one JSON document of outcomes on stdout.
import { readFileSync } from "node:fs";

import { diagnosticAsJson, loadThirdPartyManifests, parseThirdPartyManifest, type Diagnostic } from "./index.js";

/** `diagnosticAsJson` plus the fields it leaves out, for comparison with the expectations. */
function withFields(d: Diagnostic): Record<string, unknown> {
  return { ...diagnosticAsJson(d), _found: d.found, _expected: d.expected };
}

interface Job {
  readonly parse: readonly { readonly name: string; readonly base64: string }[];
  readonly loader: readonly { readonly name: string; readonly folder: string; readonly maxFiles?: number }[];
}

const job = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Job;
const parse: Record<string, unknown> = {};
for (const vector of job.parse) {
  const result = parseThirdPartyManifest(Buffer.from(vector.base64, "base64"), vector.name);
  parse[vector.name] = {
    accepted: result.manifest !== null,
    id: result.manifest === null ? null : result.manifest.id,
    builtin: result.manifest === null ? null : result.manifest.builtin,
    diagnostics: result.diagnostics.map(withFields),
  };
}
const loader: Record<string, unknown> = {};
for (const vector of job.loader) {
  const result = loadThirdPartyManifests(
    vector.folder,
    vector.maxFiles === undefined ? {} : { maxFiles: vector.maxFiles },
  );
  loader[vector.name] = {
    manifests: result.manifests.map((manifest) => manifest.id),
    files: result.files.map((file) => ({
      source: file.source,
      accepted: file.accepted,
      id: file.id,
      diagnostics: file.diagnostics.map(withFields),
    })),
    diagnostics: result.diagnostics.map(withFields),
  };
}
console.log(JSON.stringify({ parse, loader }));

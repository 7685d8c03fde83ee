// Runs a batch of adapter-file texts through the generated TypeScript runtime for the
// cross-language differential test (tests/test_parse_differential.py).
// Input: argv[2] names a JSON job {"cases": [{name, base64, utf8}], "groups": [[index, ...]],
// "folders": [path]}; argv[3] is where the outcomes go. Every case is read by
// `parseThirdPartyManifest` from its bytes and, when `utf8` says the bytes are valid UTF-8, from
// their text too; every group of cases is read as one folder would be, by `loadManifestFiles`
// with an injected reader; every folder by `loadThirdPartyManifests`.
import { readFileSync, writeFileSync } from "node:fs";

import {
  loadManifestFiles,
  loadThirdPartyManifests,
  parseThirdPartyManifest,
  type Diagnostic,
  type LoadResult,
} from "./index.js";
import type { FsPath } from "./loader.js";

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

interface Job {
  readonly cases: readonly { readonly name: string; readonly base64: string; readonly utf8: boolean }[];
  readonly groups: readonly (readonly number[])[];
  readonly folders: readonly string[];
}

const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const job = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as Job;
const bytes = job.cases.map((item) => Buffer.from(item.base64, "base64"));

function parsed(input: string | Uint8Array, name: string): Record<string, unknown> {
  const result = parseThirdPartyManifest(input, name);
  return { manifest: result.manifest, diagnostics: result.diagnostics.map(record) };
}

const single = job.cases.map((item, index) => {
  const data = bytes[index] as Buffer;
  return {
    bytes: parsed(data, item.name),
    text: item.utf8 ? parsed(STRICT.decode(data), item.name) : null,
  };
});
function loaded(result: LoadResult): Record<string, unknown> {
  return {
    manifests: result.manifests,
    files: result.files.map((file) => ({
      source: file.source,
      accepted: file.accepted,
      id: file.id,
      diagnostics: file.diagnostics.map(record),
    })),
    diagnostics: result.diagnostics.map(record),
  };
}

const groups = job.groups.map((group) => {
  const byPath = new Map<string, Buffer>(group.map((index) => [String(index), bytes[index] as Buffer]));
  return loaded(
    loadManifestFiles(
      group.map((index) => [job.cases[index]?.name ?? "", String(index)] as const),
      { readFile: (path: FsPath) => byPath.get(String(path)) ?? Buffer.alloc(0) },
    ),
  );
});
const folders = job.folders.map((folder) => loaded(loadThirdPartyManifests(folder)));
writeFileSync(process.argv[3] ?? "", JSON.stringify({ single, groups, folders }));

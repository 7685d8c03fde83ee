// The generated TypeScript runtime beside what a TypeScript user would otherwise run, in one node
// process, in paired rounds (each round runs every contender once, in turn, on the same data).
//
//   node bench/ts_bench.mjs BUILD CORPORA.json ADAPTERS_DIR ROUNDS
//
// BUILD holds the compiled generated TypeScript; CORPORA.json maps corpus name to documents;
// ADAPTERS_DIR is a folder of adapter files (empty string: no loader figures). Written by
// bench/ts_bench.py, which compiles, writes the data and runs this; nothing is asserted.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const [build, corporaFile, adaptersDir, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const here = pathToFileURL(resolve(build) + "/");
const ours = await import(new URL("validator.js", here).href);
const require = createRequire(resolve("package.json"));
const Ajv2020 = require("ajv/dist/2020").default;
const schema = JSON.parse(readFileSync("schema/tool-manifest.schema.json", "utf8"));

function ajvFor(allErrors) {
  // Strict but for two lints about where the schema states things (see the differential test).
  const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors });
  ajv.addSchema(schema);
  return {
    tool: ajv.getSchema(schema.$id),
    thirdParty: ajv.compile({ $ref: schema.$id + "#/$defs/ThirdPartyToolManifest" }),
  };
}
const ajvAll = ajvFor(true);
const ajvFirst = ajvFor(false);
const oursBy = { tool: ours.validateToolManifest, thirdParty: ours.validateThirdPartyManifest };

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function paired(contenders) {
  for (const run of Object.values(contenders)) run(); // warm-up (the JIT compiles here)
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = performance.now();
      run();
      samples[name].push(performance.now() - start);
    }
  }
  return samples;
}

// The median over rounds of slower/faster: how many times the time of `faster` `slower` takes.
function ratio(samples, slower, faster) {
  return median(samples[slower].map((time, round) => time / samples[faster][round]));
}

// Each contender reads what a caller reads: our records, ajv's verdict and its errors.
function overOurs(validate, documents) {
  return () => {
    let records = 0;
    for (const document of documents) records += validate(document).length;
    return records;
  };
}
function overAjv(validate, documents) {
  return () => {
    let errors = 0;
    for (const document of documents) if (!validate(document)) errors += validate.errors.length;
    return errors;
  };
}

// Issue 8's targets: at least ajv `allErrors` throughput on the 10,000-manifest corpus (about 70%
// valid: "mixed"; the all-valid and all-invalid splits are shown for information), and the loader
// within 2x the bare loop. Each is printed met or not met at the end.
const targets = [];
const target = (what, measured, met) => targets.push(`  ${met ? "met    " : "NOT met"}  ${what}: ${measured}`);

const corpora = JSON.parse(readFileSync(corporaFile, "utf8"));
console.log(`validator: ${rounds} paired rounds; microseconds per document (median);`);
console.log("throughput = ajv's time / ours (above 1: ours is faster)");
for (const [corpus, documents] of Object.entries(corpora)) {
  for (const entry of ["tool", "thirdParty"]) {
    const samples = paired({
      ours: overOurs(oursBy[entry], documents),
      ajvAllErrors: overAjv(ajvAll[entry], documents),
      ajvFirstError: overAjv(ajvFirst[entry], documents),
    });
    const micro = (name) => ((median(samples[name]) * 1000) / documents.length).toFixed(2);
    console.log(
      `  ${corpus.padEnd(7)} ${entry.padEnd(10)} ours ${micro("ours")}  ajv allErrors ` +
        `${micro("ajvAllErrors")}  ajv first error ${micro("ajvFirstError")}  |  throughput vs ` +
        `allErrors ${ratio(samples, "ajvAllErrors", "ours").toFixed(2)}x, vs first error ` +
        `${ratio(samples, "ajvFirstError", "ours").toFixed(2)}x`,
    );
    if (corpus === "mixed") {
      const throughput = ratio(samples, "ajvAllErrors", "ours");
      target(`${entry}, mixed corpus (${documents.length} manifests, about 70% valid): throughput / ajv allErrors (>= 1x)`, `${throughput.toFixed(2)}x`, throughput >= 1);
    }
  }
}

if (adaptersDir) {
  const { loadThirdPartyManifests } = await import(new URL("loader.js", here).href);
  const bare = () => {
    const kept = [];
    const names = readdirSync(adaptersDir).filter((name) => name.endsWith(".json")).sort();
    for (const name of names) kept.push(JSON.parse(readFileSync(join(adaptersDir, name), "utf8")));
    return kept;
  };
  const files = readdirSync(adaptersDir).length;
  // Every file read (the default limit is 1,000 files), and the result checked once, so the
  // comparison is between two loops that read the same files.
  const loader = () => loadThirdPartyManifests(adaptersDir, { maxFiles: files });
  const once = loader();
  if (once.files.length !== files) throw new Error(`the loader read ${once.files.length} of ${files} files`);
  const samples = paired({ bare, loader });
  console.log(
    `loader over ${files} files: bare readdirSync+readFileSync+JSON.parse loop ` +
      `${median(samples.bare).toFixed(1)} ms, loadThirdPartyManifests ` +
      `${median(samples.loader).toFixed(1)} ms: ${ratio(samples, "loader", "bare").toFixed(2)}x ` +
      "the bare loop",
  );
  const byLoop = ratio(samples, "loader", "bare");
  target("loader: time / bare loop (<= 2x)", `${byLoop.toFixed(2)}x`, byLoop <= 2);
}

console.log(`targets: ${targets.filter((line) => line.startsWith("  met")).length} of ${targets.length} met`);
for (const line of targets) console.log(line);

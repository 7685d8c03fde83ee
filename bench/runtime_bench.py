"""Benchmark: the generated validator and loader beside what a user would otherwise run.

1. Validator, for both entry points (``validate_tool_manifest``, ``validate_third_party_manifest``)
   on three corpora of 10,000 manifests each: all valid, all invalid (1-3 mutations each), and
   mixed (about 70% valid). Contenders, timed in paired rounds (each round runs every contender
   once, in turn, on the same documents, so machine noise hits them alike):

   - generated: our entry point, which collects every violation (escaped records);
   - jsonschema-rs ``iter_errors`` (every error; the fair match for "all errors collected");
   - jsonschema-rs ``is_valid`` (a verdict only; fair against ours on valid documents, where
     ours computes only the verdict too, and shown for information elsewhere);
   - fastjsonschema (compiled Python, stops at the first error);
   - jsonschema (Draft 2020-12, ``iter_errors``), with ``--jsonschema``: slow, off by default.

   Verdicts are compared with jsonschema-rs document by document and the disagreements printed.
2. Loader, on a folder of 10,000 adapter files (about 70% valid): ``load_third_party_manifests``
   against a bare loop of sorted listing + read + ``json.loads``, in paired rounds; then the peak
   memory (tracemalloc) of each while keeping what it returns. For information, the same bare
   loop also validating each document (``validate_third_party_manifest``: its records, nothing
   else of the loader's) runs in the same rounds, so the loader's cost beyond reading and
   validating shows too; and so does the bare loop validating with jsonschema-rs instead
   (``is_valid``, then ``iter_errors`` for a failing document): the floor a loader reporting
   every violation would have with a compiled validator and none of its own checks.

3. Import: ``import tool_registry`` in a fresh process against ``python -c pass`` (paired process
   rounds, ``bench/import_bench.py``'s measurement), with the package's ``-X importtime`` figures.

Every figure is printed: per-round medians (microseconds per document) and the median of the
per-round ratios; the run ends with every target of the issue, each marked met or not met. Run
with ``.venv/bin/python bench/runtime_bench.py`` (``--only`` runs one part). Nothing is asserted:
timings are for reading.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema
import jsonschema_rs
from bench_args import at_least_one  # beside this file (bench/ is the script's folder)
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated/python"))

import import_bench  # noqa: E402 - beside this file (bench/ is the script's folder)
from tool_registry import (  # noqa: E402
    load_third_party_manifests,
    validate_third_party_manifest,
    validate_tool_manifest,
)

SCHEMA = json.loads((ROOT / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
THIRD_PARTY = "#/$defs/ThirdPartyToolManifest"
MUTATIONS: list[Callable[[dict[str, Any]], None]] = [
    lambda m: m.update(id="Bad Id"),
    lambda m: m.update(id="aider\n"),
    lambda m: m.pop("detect"),
    lambda m: m.update(detect={"kind": "candidates"}),
    lambda m: m.update(launchable="yes"),
    lambda m: m.update(hookPointer="../../etc/passwd"),
    lambda m: m.update(displayName=""),
    lambda m: m.update(capabilities={"provides": ["teleport", 3]}),
    lambda m: m.update(promptArgTemplate=["--x", "$(rm -rf ~)"]),
    lambda m: m.update(extra=True),
]


def corpus(size: int, seed: int = 7, *, share_valid: float = 0.7) -> list[dict[str, Any]]:
    """``size`` manifests; each is left valid with probability ``share_valid``, else mutated 1-3
    times (a mutation can leave a document valid: the verdicts, not this, decide the corpora)."""
    generator = random.Random(seed)  # noqa: S311 - a reproducible corpus, not a secret
    documents = []
    for index in range(size):
        document: dict[str, Any] = {
            "id": f"tool-{index}",
            "displayName": f"Tool {index}",
            "launchable": generator.random() < 0.8,
            "hookCapable": generator.random() < 0.5,
            "hookPointer": f".tool-{index}/hive-mind-install.json",
            "detect": {"kind": "path", "binaryName": f"tool{index}"},
            "promptArgTemplate": ["--print", "{prompt}"],
            "capabilities": {"provides": ["headless-task", "resumable"]},
            "category": "cli-agent",
        }
        if generator.random() >= share_valid:
            for mutation in generator.sample(MUTATIONS, generator.randint(1, 3)):
                mutation(document)
        documents.append(document)
    return documents


def split_corpora(
    size: int, verdict: Callable[[Any], bool], seed: int
) -> dict[str, list[dict[str, Any]]]:
    """Valid, invalid and mixed corpora of ``size`` documents each (by the reference verdict)."""
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    while len(valid) < size or len(invalid) < size:
        for document in corpus(size, seed, share_valid=0.5):
            (valid if verdict(document) else invalid).append(document)
        seed += 1
    return {
        "valid": valid[:size],
        "invalid": invalid[:size],
        "mixed": corpus(size, seed=seed + 1000),
    }


def paired(rounds: int, contenders: dict[str, Callable[[], object]]) -> dict[str, list[float]]:
    """Per-round seconds for each contender; each round runs them all once, in turn."""
    for run in contenders.values():
        run()  # warm-up
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            gc.collect()
            start = time.perf_counter()
            run()
            samples[name].append(time.perf_counter() - start)
    return samples


def over(documents: list[Any], check: Callable[[Any], object]) -> Callable[[], object]:
    """A contender: ``check`` applied to every document."""
    return lambda: [check(document) for document in documents]


def all_errors(validator: Any) -> Callable[[Any], object]:
    """A reference validator's every error for one document."""
    return lambda document: list(validator.iter_errors(document))


# (what, measured, the target as text, met) for every target this run measured, in order.
TARGETS: list[tuple[str, str, str, bool]] = []


def target(
    what: str, value: float, bound: float, *, at_least: bool = False, unit: str = "x"
) -> str:
    """Record one target's figure (met when ``value`` is at most ``bound``, or at least with
    ``at_least``) and return its printed form."""
    met = value >= bound if at_least else value <= bound
    wanted = f"{'>=' if at_least else '<='} {bound:g}{unit}"
    TARGETS.append((what, f"{value:.2f}{unit}", wanted, met))
    return f"(target {wanted}: {'met' if met else 'NOT met'})"


def ratio(samples: dict[str, list[float]], slower: str, faster: str) -> float:
    """The median of the per-round ratios slower / faster."""
    return statistics.median(per_round(samples, slower, faster))


def per_round(samples: dict[str, list[float]], slower: str, faster: str) -> list[float]:
    """Each round's ratio slower / faster, in round order."""
    return [a / b for a, b in zip(samples[slower], samples[faster], strict=True)]


def _fast_schema(entry: str) -> dict[str, Any]:
    """The schema for fastjsonschema, which speaks draft 7: the root moves into $defs (so the
    third-party entry's ``"allOf": [{"$ref": "#"}]`` has a root to point at that is not itself),
    and ``$`` inside a character class is escaped (fastjsonschema rewrites every ``$`` to
    ``\\Z``, which Python's re refuses in a class; ``\\$`` means the same to both dialects)."""
    definitions = copy.deepcopy(SCHEMA["$defs"])
    definitions["Root"] = {k: v for k, v in SCHEMA.items() if not k.startswith("$")}
    definitions["ThirdPartyToolManifest"]["allOf"] = [{"$ref": "#/$defs/Root"}]

    def escape(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    node[key] = value.replace("&$", "&\\$")
                else:
                    escape(value)
        elif isinstance(node, list):
            for item in node:
                escape(item)

    escape(definitions)
    top = definitions["ThirdPartyToolManifest" if entry == THIRD_PARTY else "Root"]
    return {"$schema": "http://json-schema.org/draft-07/schema#", **top, "$defs": definitions}


def validator_bench(size: int, rounds: int, *, with_jsonschema: bool) -> None:
    registry = jsonschema_rs.Registry([(SCHEMA["$id"], SCHEMA)])
    entries: dict[str, tuple[Callable[[Any], object], str]] = {
        "validate_tool_manifest": (validate_tool_manifest, "#"),
        "validate_third_party_manifest": (validate_third_party_manifest, THIRD_PARTY),
    }
    for entry_name, (ours, pointer) in entries.items():
        wrapper = {"$schema": SCHEMA["$schema"], "$ref": SCHEMA["$id"] + pointer}
        rust = jsonschema_rs.validator_for(wrapper, registry=registry)
        fast = fastjsonschema.compile(_fast_schema(pointer))
        python = jsonschema.Draft202012Validator(
            wrapper,
            registry=Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA)),
        )

        def fast_valid(document: Any, fast: Callable[[Any], object] = fast) -> bool:
            try:
                fast(document)
            except fastjsonschema.JsonSchemaException:
                return False
            return True

        print(f"\n== {entry_name} ==")
        for corpus_name, documents in split_corpora(size, rust.is_valid, seed=7).items():
            verdicts = [rust.is_valid(d) for d in documents]
            ours_disagree = sum(
                (not ours(d)) != v for d, v in zip(documents, verdicts, strict=True)
            )
            fast_disagree = sum(
                fast_valid(d) != v for d, v in zip(documents, verdicts, strict=True)
            )
            contenders: dict[str, Callable[[], object]] = {
                "generated (all errors)": over(documents, ours),
                "jsonschema-rs iter_errors": over(documents, all_errors(rust)),
                "jsonschema-rs is_valid": over(documents, rust.is_valid),
                "fastjsonschema (first error)": over(documents, fast_valid),
            }
            if with_jsonschema:
                contenders["jsonschema iter_errors"] = over(documents, all_errors(python))
            samples = paired(rounds, contenders)
            print(
                f"-- {corpus_name}: {len(documents)} documents, {sum(verdicts)} valid;"
                f" disagreements with jsonschema-rs: generated {ours_disagree},"
                f" fastjsonschema {fast_disagree}"
            )
            for name, times in samples.items():
                median = statistics.median(times)
                print(
                    f"  {name:30s} {median / len(documents) * 1e6:7.2f} us/doc"
                    f"  {len(documents) / median:9.0f} docs/s"
                )
            mine = "generated (all errors)"
            where = f"{entry_name}, {corpus_name}"
            by_errors = ratio(samples, mine, "jsonschema-rs iter_errors")
            verdict = target(f"{where}: time / rs iter_errors", by_errors, 1.3)
            print(f"  generated / rs iter_errors:  {by_errors:5.2f}x the time {verdict}")
            by_verdict = ratio(samples, mine, "jsonschema-rs is_valid")
            fair = (
                target(f"{where}: time / rs is_valid", by_verdict, 1.3)
                if corpus_name == "valid"
                else "(a verdict: information)"
            )
            print(f"  generated / rs is_valid:     {by_verdict:5.2f}x the time {fair}")
            throughput = ratio(samples, "fastjsonschema (first error)", mine)
            bound = 1.3 if corpus_name == "invalid" else 2.0
            verdict = target(
                f"{where}: throughput / fastjsonschema", throughput, bound, at_least=True
            )
            print(f"  generated vs fastjsonschema: {throughput:5.2f}x the throughput {verdict}")
            if with_jsonschema:
                print(
                    "  generated vs jsonschema:     "
                    f"{ratio(samples, 'jsonschema iter_errors', mine):5.1f}x the throughput"
                )


def loader_bench(size: int, rounds: int) -> None:
    documents = corpus(size, seed=11)
    registry = jsonschema_rs.Registry([(SCHEMA["$id"], SCHEMA)])
    wrapper = {"$schema": SCHEMA["$schema"], "$ref": SCHEMA["$id"] + THIRD_PARTY}
    rust = jsonschema_rs.validator_for(wrapper, registry=registry)
    with tempfile.TemporaryDirectory() as folder:
        for index, document in enumerate(documents):
            Path(folder, f"adapter-{index:05d}.json").write_text(
                json.dumps(document), encoding="utf-8"
            )

        def bare_loop() -> list[Any]:
            loaded = []
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), "rb") as handle:
                    loaded.append(json.loads(handle.read()))
            return loaded

        def bare_loop_validating() -> list[Any]:
            loaded = []
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), "rb") as handle:
                    document = json.loads(handle.read())
                    loaded.append((document, validate_third_party_manifest(document)))
            return loaded

        def bare_loop_validating_rust() -> list[Any]:
            # The floor of any loader that reports every violation: the bare loop with the
            # compiled Rust validator (a verdict first, every error only for a failing document,
            # as the generated validator does), and no check of the loader's own.
            loaded = []
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), "rb") as handle:
                    document = json.loads(handle.read())
                    errors = [] if rust.is_valid(document) else list(rust.iter_errors(document))
                    loaded.append((document, errors))
            return loaded

        def loader() -> object:
            return load_third_party_manifests(folder, max_files=size)

        result = load_third_party_manifests(folder, max_files=size)
        print(
            f"\n== loader ==\nfolder: {size} files, {len(result.manifests)} loaded,"
            f" {len(result.diagnostics)} diagnostics"
        )
        bare = "bare listing + read + json.loads"
        validating = "the same, then validating"
        validating_rust = "the same, validating with rs"
        samples = paired(
            rounds,
            {
                bare: bare_loop,
                validating: bare_loop_validating,
                validating_rust: bare_loop_validating_rust,
                "loader": loader,
            },
        )
        for name, times in samples.items():
            print(f"  {name:34s} {statistics.median(times) * 1000:8.1f} ms")
        by_loop = ratio(samples, "loader", bare)
        verdict = target("loader: time / bare loop", by_loop, 1.5)
        print(f"loader / bare loop: {by_loop:4.2f}x the time {verdict}")
        # The rounds' spread says how far this machine's noise moved the median's inputs.
        rounds_seen = per_round(samples, "loader", bare)
        print(
            f"  per-round ratios from {min(rounds_seen):4.2f}x to {max(rounds_seen):4.2f}x"
            " (information: the spread of this run)"
        )
        by_validating = ratio(samples, "loader", validating)
        print(f"loader / bare loop validating: {by_validating:4.2f}x the time (information)")
        floor = ratio(samples, validating_rust, bare)
        print(
            f"bare loop validating with rs / bare loop: {floor:4.2f}x the time"
            " (information: the floor with a compiled validator and no loader check)"
        )
        peaks = {}
        for name, run in (("bare loop", bare_loop), ("loader", loader)):
            gc.collect()
            tracemalloc.start()
            kept = run()
            peaks[name] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            del kept
        for name, peak in peaks.items():
            print(f"  peak memory, {name:24s} {peak / 2**20:8.1f} MiB (keeping what it returns)")
        by_memory = peaks["loader"] / peaks["bare loop"]
        verdict = target("loader: peak memory / bare loop", by_memory, 1.0)
        print(f"loader / bare loop peak memory: {by_memory:4.2f}x {verdict}")


def import_bench_part(rounds: int) -> None:
    """``import tool_registry`` in fresh processes against ``python -c pass``."""
    medians = import_bench.wall_times(rounds)
    base = medians["python -c pass"]
    print(f"\n== import ({rounds} paired process rounds) ==")
    for name, seconds in medians.items():
        print(f"  {name:<30} {seconds * 1000:7.1f} ms   {seconds / base:4.2f}x python -c pass")
    for micros, module in import_bench.import_times()[:4]:
        print(f"  -X importtime {module:<32} {micros / 1000:6.1f} ms")
    by_pass = medians["import tool_registry"] / base
    verdict = target("import tool_registry / python -c pass", by_pass, 2.0)
    print(f"import tool_registry: {by_pass:.2f}x python -c pass {verdict}")


def summary() -> None:
    """Every target this run measured, met or not."""
    met = sum(1 for *_, ok in TARGETS if ok)
    print(f"\n== targets: {met} of {len(TARGETS)} met ==")
    for what, measured, wanted, ok in TARGETS:
        print(f"  {'met    ' if ok else 'NOT met'}  {what}: {measured} (target {wanted})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=at_least_one, default=10_000)
    parser.add_argument("--rounds", type=at_least_one, default=7)
    parser.add_argument("--jsonschema", action="store_true", help="also time jsonschema (slow)")
    parser.add_argument("--import-rounds", type=at_least_one, default=21)
    parser.add_argument("--only", choices=["validator", "loader", "import"])
    arguments = parser.parse_args()
    if arguments.only in (None, "validator"):
        validator_bench(arguments.size, arguments.rounds, with_jsonschema=arguments.jsonschema)
    if arguments.only in (None, "loader"):
        loader_bench(arguments.size, arguments.rounds)
    if arguments.only in (None, "import"):
        import_bench_part(arguments.import_rounds)
    summary()


if __name__ == "__main__":
    main()

"""Benchmark: the generated validator and loader beside what a user would otherwise run.

1. Validator, on a corpus of 10,000 third-party manifests (about 70% valid, the rest invalid in
   varied ways): our generated ``validate_third_party_manifest`` (every error collected) against
   ``jsonschema`` (Draft 2020-12, ``iter_errors``) and ``fastjsonschema`` (compiled, stops at the
   first error). Verdicts are cross-checked before timing.
2. Loader, on a folder of 10,000 adapter files (about 70% valid): ``load_third_party_manifests``
   against a bare loop of sorted listing + read + ``json.loads``.

Each contender runs ``--repeat`` times after a warm-up; medians and ratios are printed. Run with
``.venv/bin/python bench/runtime_bench.py``. Nothing is asserted: timings are for reading.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
import jsonschema
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated/python"))

from tool_registry import (  # noqa: E402
    load_third_party_manifests,
    validate_third_party_manifest,
)

SCHEMA = json.loads((ROOT / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
ENTRY = {"$schema": SCHEMA["$schema"], "$ref": SCHEMA["$id"] + "#/$defs/ThirdPartyToolManifest"}
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


def corpus(size: int, seed: int = 7) -> list[dict[str, Any]]:
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
        if generator.random() >= 0.7:
            for mutation in generator.sample(MUTATIONS, generator.randint(1, 3)):
                mutation(document)
        documents.append(document)
    return documents


def best_of(repeat: int, run: Callable[[], object]) -> float:
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def validator_bench(size: int, repeat: int) -> None:
    documents = corpus(size)
    reference = jsonschema.Draft202012Validator(
        ENTRY, registry=Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA))
    )
    # fastjsonschema speaks draft 7: move the root into $defs so the third-party entry's
    # "allOf": [{"$ref": "#"}] has a root to point at that is not itself.
    definitions = copy.deepcopy(SCHEMA["$defs"])
    definitions["Root"] = {k: v for k, v in SCHEMA.items() if not k.startswith("$")}
    definitions["ThirdPartyToolManifest"]["allOf"] = [{"$ref": "#/$defs/Root"}]
    # fastjsonschema rewrites every "$" to "\\Z", even inside a character class, which Python's
    # re then refuses; an escaped "\\$" means the same to both dialects.
    items = definitions["Root"]["properties"]["promptArgTemplate"]["items"]
    items["pattern"] = items["pattern"].replace("&$", "&\\$")
    third_party = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        **definitions["ThirdPartyToolManifest"],
        "$defs": definitions,
    }
    fast = fastjsonschema.compile(third_party)

    def fast_valid(document: Any) -> bool:
        try:
            fast(document)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    ours = [not validate_third_party_manifest(d) for d in documents]
    theirs = [not any(reference.iter_errors(d)) for d in documents]
    print(f"corpus: {size} manifests, {sum(ours)} valid ({sum(ours) / size:.0%})")
    disagreements = sum(a != b for a, b in zip(ours, theirs, strict=True))
    print(f"verdicts: generated vs jsonschema disagree on {disagreements} documents")
    print(
        "verdicts: generated vs fastjsonschema disagree on "
        f"{sum(a != fast_valid(d) for a, d in zip(ours, documents, strict=True))} documents"
        " (jsonschema uses Python's re, where 'aider\\n' passes ^...$)"
    )
    timings = {
        "generated (all errors)": best_of(
            repeat, lambda: [validate_third_party_manifest(d) for d in documents]
        ),
        "jsonschema (all errors)": best_of(
            repeat, lambda: [list(reference.iter_errors(d)) for d in documents]
        ),
        "fastjsonschema (first error)": best_of(repeat, lambda: [fast_valid(d) for d in documents]),
    }
    for name, seconds in timings.items():
        print(f"  {name:32s} {seconds * 1000:8.1f} ms  {size / seconds:10.0f} docs/s")
    ours_time = timings["generated (all errors)"]
    print(
        "generated vs jsonschema:     "
        f"{timings['jsonschema (all errors)'] / ours_time:5.1f}x faster (target >= 25x)"
    )
    print(
        "generated vs fastjsonschema: "
        f"{timings['fastjsonschema (first error)'] / ours_time:5.1f}x faster (target >= 2x)"
    )


def loader_bench(size: int, repeat: int) -> None:
    documents = corpus(size, seed=11)
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

        result = load_third_party_manifests(folder, max_files=size)
        print(
            f"folder: {size} files, {len(result.manifests)} loaded,"
            f" {len(result.diagnostics)} diagnostics"
        )
        bare = best_of(repeat, bare_loop)
        ours = best_of(repeat, lambda: load_third_party_manifests(folder, max_files=size))
        print(f"  bare listing + read + json.loads {bare * 1000:8.1f} ms")
        print(f"  load_third_party_manifests       {ours * 1000:8.1f} ms")
        print(f"loader vs bare loop: {ours / bare:4.2f}x the time (target <= 1.5x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    validator_bench(arguments.size, arguments.repeat)
    loader_bench(arguments.size, arguments.repeat)


if __name__ == "__main__":
    main()

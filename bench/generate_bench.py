"""Benchmark: what `toolgen generate`/`check` costs beside the tool a user would otherwise run.

Without toolgen, a maintainer would run datamodel-code-generator on the schema for the Python
types (and write the rest by hand). This times, in one process and side by side:

- ``datamodel-code-generator``: its ``generate()`` on the manifest schema alone (one file);
- ``toolgen build``: the whole pipeline (load, validate, IR, 13 files rendered and formatted).

Each is run ``--repeat`` times after one warm-up; the medians and their ratio are printed. Run with
``.venv/bin/python bench/generate_bench.py``. Nothing here is asserted: timings are for reading.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench_args import at_least_one  # beside this file (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator import views  # noqa: E402
from generator.config import load_config  # noqa: E402
from generator.pipeline import build_outputs  # noqa: E402
from generator.python_models import generate_models  # noqa: E402


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    action()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=at_least_one, default=15)
    repeat = parser.parse_args().repeat
    config = load_config(ROOT)
    schema = json.loads((ROOT / "schema/tool-manifest.schema.json").read_text())

    def toolgen_build() -> object:
        views.clear_caches()  # a cold run, datamodel-code-generator included
        return build_outputs(config)

    baseline = _median_seconds(lambda: generate_models(schema), repeat)
    full = _median_seconds(toolgen_build, repeat)
    files = len(build_outputs(config).outputs)
    print(f"datamodel-code-generator, 1 file : {baseline * 1000:8.1f} ms")
    print(f"toolgen build, {files} files        : {full * 1000:8.1f} ms")
    print(f"ratio toolgen / datamodel-code-generator: {full / baseline:.2f}x")


if __name__ == "__main__":
    main()

"""Benchmark: ``toolgen check`` (fast path) beside ``datamodel-codegen --check`` and bare Python.

Times three commands as separate processes, in paired rounds (each round runs all three, in an
order that rotates from round to round, so a burst of load on a shared machine hits them alike):

- ``toolgen check``: the fast path on this repository (the stamp's fingerprints match);
- ``datamodel-codegen --check``: the models file alone, with the settings
  ``generator/python_models.py`` passes to ``generate()``, against a file it wrote itself first
  (so it finds no difference, like the up-to-date ``toolgen check``);
- ``python -c pass``: the interpreter's own start-up, the floor of any Python command.

Prints every round, the medians, and the ratios of the medians (plus the median of the per-round
ratios). The issue's targets: ``toolgen check`` at most 1/5 of ``datamodel-codegen --check`` and
under 3x ``python -c pass``. Run with ``.venv/bin/python bench/check_bench.py``. Nothing is
asserted: timings are for reading.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_args import at_least_one  # beside this file (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.literals import HEADER_PYTHON  # noqa: E402

BIN = Path(sys.executable).parent


def datamodel_codegen_arguments(output: Path) -> list[str]:
    """The CLI spelling of ``python_models.generate_models``'s settings."""
    return [
        str(BIN / "datamodel-codegen"),
        "--input",
        str(ROOT / "schema/tool-manifest.schema.json"),
        "--input-file-type",
        "jsonschema",
        "--output",
        str(output),
        "--output-model-type",
        "dataclasses.dataclass",
        "--frozen-dataclasses",
        "--keyword-only",
        "--use-generic-container-types",
        "--use-union-operator",
        "--use-exact-imports",
        "--enum-field-as-literal",
        "all",
        "--target-python-version",
        "3.11",
        "--disable-timestamp",
        "--custom-file-header",
        HEADER_PYTHON,
        "--formatters",
        "builtin",
    ]


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        tail = completed.stderr[-500:]
        raise SystemExit(f"{command[:3]} exited {completed.returncode}: {tail!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=at_least_one, default=11)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory(prefix="toolgen-check-bench-") as scratch:
        models = Path(scratch) / "models.py"
        subprocess.run(datamodel_codegen_arguments(models), check=True)
        commands = {
            "toolgen check": [str(BIN / "toolgen"), "check"],
            "datamodel-codegen --check": [*datamodel_codegen_arguments(models), "--check"],
            "python -c pass": [sys.executable, "-c", "pass"],
        }
        names = list(commands)
        for name in names:  # warm-up: caches, .pyc files
            _seconds(commands[name])
        samples: dict[str, list[float]] = {name: [] for name in names}
        for index in range(rounds):
            order = names[index % len(names) :] + names[: index % len(names)]
            for name in order:
                samples[name].append(_seconds(commands[name]))
            shown = "  ".join(f"{name} {samples[name][-1] * 1000:7.1f} ms" for name in names)
            print(f"round {index + 1:2}: {shown}")
    median = {name: statistics.median(values) for name, values in samples.items()}
    print()
    for name in names:
        print(f"{name:28} median {median[name] * 1000:7.1f} ms")
    fast, dmcg, bare = (samples[name] for name in names)
    to_dmcg = statistics.median(a / b for a, b in zip(fast, dmcg, strict=True))
    to_bare = statistics.median(a / b for a, b in zip(fast, bare, strict=True))
    print()
    print(
        f"toolgen check / datamodel-codegen --check: {median[names[0]] / median[names[1]]:.3f}"
        f" (per-round median {to_dmcg:.3f}; target <= 0.200)"
    )
    print(
        f"toolgen check / python -c pass           : {median[names[0]] / median[names[2]]:.2f}x"
        f" (per-round median {to_bare:.2f}x; target < 3x)"
    )


if __name__ == "__main__":
    main()

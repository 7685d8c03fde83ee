"""Benchmark: how ``generate`` and ``check --full`` scale with the table (7, 1,000, 10,000 rows).

For each size a throwaway project is made in a temporary folder: this repository's schemas and
configuration and a ``tools.yaml`` holding that many synthetic, valid rows (the real table's
settings, cohorts and maps). Each command runs as its own process (``toolgen generate``, then
``toolgen check --full``, through the venv's ``toolgen``) under a small wrapper that reports its
wall time and peak resident memory (``resource.getrusage(RUSAGE_CHILDREN)``). Beside them, in the
same run, the bare libyaml parse of the same table (``yaml.load(text, Loader=yaml.CSafeLoader)``),
timed inside its own process without start-up ("parse"), and that process timed whole, start-up
and imports included, as ``generate`` is ("parse process"); the child checks it runs libyaml.
Rounds are paired (each round runs every measurement for a size) and medians are printed with the
ratios the issue sets targets for: 10,000-row time at most 10x the 1,000-row time, and 10,000-row
``generate`` within 2x of the bare parse. Run with
``.venv/bin/python bench/scale_bench.py [--rounds N] [--sizes 7,1000,10000]``.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_args import at_least_one  # beside this file (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
TOOLGEN = Path(sys.executable).parent / "toolgen"
HEADER_END = "\ntools:\n"

# Runs argv[1:] and prints {"seconds", "peak_mib", "code"} (peak RSS of the child, Linux KiB).
WRAPPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mib": peak, "code": code}))
"""
# Parses the table with libyaml alone (refusing to run without it); prints the same record, the
# parse timed inside the process (peak is this whole process).
BARE_PARSE = """
import json, resource, sys, time, yaml
assert yaml.__with_libyaml__ and issubclass(yaml.CSafeLoader, yaml.cyaml.CParser)
text = open(sys.argv[1], encoding="utf-8").read()
start = time.perf_counter()
yaml.load(text, Loader=yaml.CSafeLoader)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mib": peak, "code": 0}))
"""


def synthetic_table(rows: int) -> str:
    real = (ROOT / "schema/tools.yaml").read_text(encoding="utf-8")
    header = real[: real.index(HEADER_END)]
    lines = [header, HEADER_END.lstrip("\n")]
    for index in range(rows):
        name = f"tool-{index:05d}"
        lines.append(
            f"  - id: {name}\n"
            f"    displayName: Synthetic Tool {index:05d}\n"
            f"    launchable: {'true' if index % 2 else 'false'}\n"
            f"    hookCapable: {'true' if index % 3 else 'false'}\n"
            f"    hookPointer: .{name}/hive-mind-install.json\n"
            "    detect:\n"
            "      kind: path\n"
            f"      binaryName: {name}\n"
            "    capabilities:\n"
            "      provides: [interactive-launch, headless-task]\n"
            "    category: cli-agent\n\n"
        )
    return "".join(lines)


def make_project(folder: Path, rows: int) -> Path:
    (folder / "schema").mkdir(parents=True)
    shutil.copy2(ROOT / "pyproject.toml", folder / "pyproject.toml")
    for name in ("tool-manifest.schema.json", "tools-table.schema.json"):
        shutil.copy2(ROOT / "schema" / name, folder / "schema" / name)
    (folder / "schema/tools.yaml").write_text(synthetic_table(rows), encoding="utf-8")
    return folder


def measure(arguments: list[str]) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, "-c", WRAPPER, *arguments], capture_output=True, text=True, check=True
    )
    record: dict[str, float] = json.loads(completed.stdout)
    return record


def bare_parse(table: Path) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, "-c", BARE_PARSE, str(table)], capture_output=True, text=True, check=True
    )
    record: dict[str, float] = json.loads(completed.stdout)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=at_least_one, default=3)
    parser.add_argument("--sizes", default="7,1000,10000")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    medians: dict[tuple[int, str], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="toolgen-scale-") as scratch:
        for rows in sizes:
            project = make_project(Path(scratch) / f"rows-{rows}", rows)
            runs: dict[str, list[dict[str, float]]] = {
                "generate": [],
                "check --full": [],
                "parse": [],
                "parse process": [],
            }
            for _ in range(options.rounds):
                shutil.rmtree(project / "generated", ignore_errors=True)
                runs["generate"].append(
                    measure([str(TOOLGEN), "generate", "--project", str(project)])
                )
                runs["check --full"].append(
                    measure([str(TOOLGEN), "check", "--full", "--project", str(project)])
                )
                runs["parse"].append(bare_parse(project / "schema/tools.yaml"))
                # The same parse as a whole process (interpreter start and imports included),
                # as generate is timed.
                runs["parse process"].append(
                    measure([sys.executable, "-c", BARE_PARSE, str(project / "schema/tools.yaml")])
                )
            for name, records in runs.items():
                codes = {int(record["code"]) for record in records}
                seconds = statistics.median(record["seconds"] for record in records)
                peak = statistics.median(record["peak_mib"] for record in records)
                medians[rows, name] = (seconds, peak)
                print(
                    f"{rows:6} rows  {name:13} median {seconds:8.3f} s  peak {peak:7.1f} MiB"
                    f"  exit {sorted(codes)}  ({len(records)} rounds)"
                )
    if 1000 in sizes and 10000 in sizes:
        for name in ("generate", "check --full"):
            ratio = medians[10000, name][0] / medians[1000, name][0]
            print(f"{name}: 10,000 rows / 1,000 rows = {ratio:.2f}x (target <= 10x)")
        for name in ("parse", "parse process"):
            ratio = medians[10000, "generate"][0] / medians[10000, name][0]
            print(f"generate / bare libyaml {name} at 10,000 rows = {ratio:.1f}x (target <= 2x)")


if __name__ == "__main__":
    main()

"""Benchmark: what ``import tool_registry`` costs a fresh process, beside ``python -c pass``.

Paired rounds (the two commands alternate, so machine noise hits both alike); prints the medians,
their ratio (the target is at most 2x), and the package's own import time from
``-X importtime`` (cumulative microseconds of ``tool_registry`` and its heaviest submodules).
Also times the first use of the runtime (``tool_registry.load_third_party_manifests``), which
the package now loads lazily. Run with ``.venv/bin/python bench/import_bench.py``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_args import at_least_one  # beside this file (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_PARENT = ROOT / "generated/python"

COMMANDS = {
    "python -c pass": "pass",
    "import tool_registry": "import tool_registry",
    "import + first runtime use": "import tool_registry; tool_registry.load_third_party_manifests",
}


def _run(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(PACKAGE_PARENT)}
    return subprocess.run(
        [sys.executable, *flags, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )


def compile_bytecode() -> None:
    """Write the package's bytecode caches, as installing it does (pip compiles on install).

    Without them each child compiles the package's sources again (about 5 ms here), which an
    installed package never does; a checkout run with ``PYTHONDONTWRITEBYTECODE`` set never
    writes them at all. The standard library's own caches are already there for both sides."""
    compileall.compile_dir(PACKAGE_PARENT / "tool_registry", quiet=1)


def wall_times(rounds: int) -> dict[str, float]:
    compile_bytecode()
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(rounds):
        for name, code in COMMANDS.items():
            start = time.perf_counter()
            _run(code)
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def import_times() -> list[tuple[int, str]]:
    """(cumulative microseconds, module) for tool_registry and its submodules."""
    compile_bytecode()
    report = _run("import tool_registry", "-X", "importtime").stderr
    found = []
    for line in report.splitlines():
        parts = [part.strip() for part in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2].startswith("tool_registry") and parts[1].isdigit():
            found.append((int(parts[1]), parts[2]))
    return sorted(found, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=at_least_one, default=21)
    arguments = parser.parse_args()
    medians = wall_times(arguments.rounds)
    base = medians["python -c pass"]
    for name, seconds in medians.items():
        print(f"  {name:<30} {seconds * 1000:7.1f} ms   {seconds / base:4.2f}x python -c pass")
    print("import tool_registry (-X importtime, cumulative):")
    for micros, module in import_times()[:6]:
        print(f"  {module:<40} {micros / 1000:6.1f} ms")
    ratio = medians["import tool_registry"] / base
    print(f"import tool_registry: {ratio:.2f}x python -c pass (target <= 2x)")


if __name__ == "__main__":
    main()

"""The README's benchmark commands run as written (on tiny corpora, one round) and print every
figure and target line they promise. Nothing here reads a timing: whether a target is met on
these shared machines is for the full-size runs the README quotes."""

from __future__ import annotations

import re
import subprocess
import sys

from .conftest import REPO

# A target line: "met" or "NOT met", what, then a figure with its unit.
TARGET_LINE = re.compile(r"^  (?:met    |NOT met)  .+: \d+\.\d\dx", re.MULTILINE)


def run_bench(*arguments: str) -> str:
    finished = subprocess.run(
        [sys.executable, *arguments],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert "Traceback" not in finished.stderr
    return finished.stdout


def test_the_typescript_bench_prints_every_ratio_and_its_targets() -> None:
    output = run_bench("bench/ts_bench.py", "--size", "30", "--rounds", "1")
    for corpus in ("valid", "invalid", "mixed"):
        for entry in ("tool", "thirdParty"):
            assert re.search(
                rf"^  {corpus} +{entry} +ours [\d.]+ .* vs allErrors [\d.]+x", output, re.M
            )
    assert re.search(r"^loader over 30 files: .*: [\d.]+x the bare loop$", output, re.M)
    # Issue 8's three targets: both entry points on the mixed corpus, and the loader.
    assert "targets: " in output
    assert len(TARGET_LINE.findall(output)) == 3


def test_the_python_bench_prints_every_target() -> None:
    output = run_bench(
        "bench/runtime_bench.py", "--size", "30", "--rounds", "1", "--only", "validator"
    )
    assert "disagreements with jsonschema-rs: generated 0" in output
    # Per entry point: valid (iter_errors, is_valid, fastjsonschema), invalid and mixed (two each).
    assert "== targets: " in output
    assert len(TARGET_LINE.findall(output)) == 14


def test_the_python_loader_bench_prints_its_targets_and_both_validating_loops() -> None:
    output = run_bench(
        "bench/runtime_bench.py", "--size", "30", "--rounds", "1", "--only", "loader"
    )
    assert re.search(r"^loader / bare loop: [\d.]+x the time \(target <= 1.5x", output, re.M)
    assert re.search(
        r"^loader / bare loop validating: [\d.]+x the time \(information\)$", output, re.M
    )
    assert re.search(
        r"^bare loop validating with rs / bare loop: [\d.]+x the time \(information",
        output,
        re.M,
    )
    assert re.search(r"^loader / bare loop peak memory: [\d.]+x \(target <= 1x", output, re.M)
    assert len(TARGET_LINE.findall(output)) == 2

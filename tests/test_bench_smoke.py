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


def bench_process(*arguments: str) -> subprocess.CompletedProcess[str]:
    """A benchmark script run from the repository with ``arguments``, as its docstring says."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def run_bench(*arguments: str) -> str:
    finished = bench_process(*arguments)
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
    spread = re.search(
        r"^  per-round ratios from ([\d.]+)x to ([\d.]+)x \(information", output, re.M
    )
    assert spread is not None and float(spread[1]) <= float(spread[2])
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


def test_the_python_import_bench_part_runs_alone() -> None:
    """README: ``--only validator``, ``loader`` or ``import`` runs one part."""
    output = run_bench(
        "bench/runtime_bench.py",
        "--size",
        "30",
        "--rounds",
        "1",
        "--only",
        "import",
        "--import-rounds",
        "1",
    )
    assert re.search(r"^  python -c pass +[\d.]+ ms", output, re.M)
    assert re.search(r"^  import tool_registry +[\d.]+ ms +[\d.]+x python -c pass", output, re.M)
    assert "validator" not in output and "loader" not in output
    assert len(TARGET_LINE.findall(output)) == 1


def test_the_generate_bench_prints_both_medians_and_their_ratio() -> None:
    """README: ``bench/generate_bench.py`` times datamodel-code-generator's ``generate()`` against
    toolgen's whole pipeline and prints the medians and their ratio."""
    output = run_bench("bench/generate_bench.py", "--repeat", "1")
    assert re.search(r"^datamodel-code-generator, 1 file +: +[\d.]+ ms$", output, re.M)
    assert re.search(r"^toolgen build, \d+ files +: +[\d.]+ ms$", output, re.M)
    assert re.search(r"^ratio toolgen / datamodel-code-generator: [\d.]+x$", output, re.M)


def test_the_import_bench_compares_with_python_c_pass() -> None:
    """README: ``bench/import_bench.py`` times ``import tool_registry`` against ``python -c
    pass`` and prints the ratio against its 2x target."""
    output = run_bench("bench/import_bench.py", "--rounds", "1")
    assert re.search(
        r"^import tool_registry: [\d.]+x python -c pass \(target <= 2x\)$", output, re.M
    )


def test_the_scale_bench_runs_generate_check_and_the_bare_parse() -> None:
    """README: ``bench/scale_bench.py`` runs ``generate`` and ``check --full`` as processes on a
    throwaway project, with peak memory, beside libyaml's bare parse, in and out of process."""
    output = run_bench("bench/scale_bench.py", "--rounds", "1", "--sizes", "7")
    for what in ("generate", "check --full", "parse", "parse process"):
        assert re.search(
            rf"^ +7 rows  {re.escape(what)} +median +[\d.]+ s  peak +[\d.]+ MiB  exit \[0\]",
            output,
            re.M,
        ), what


def test_the_check_bench_prints_the_medians_and_both_ratios() -> None:
    """README: ``bench/check_bench.py`` times ``toolgen check`` beside ``datamodel-codegen
    --check`` and ``python -c pass`` (each command must exit 0) and prints every round, the
    medians and both ratios against their targets."""
    output = run_bench("bench/check_bench.py", "--rounds", "1")
    assert re.search(r"^round  1: toolgen check +[\d.]+ ms  datamodel-codegen", output, re.M)
    for name in ("toolgen check", "datamodel-codegen --check", "python -c pass"):
        assert re.search(rf"^{re.escape(name)} +median +[\d.]+ ms$", output, re.M), name
    assert re.search(
        r"^toolgen check / datamodel-codegen --check: [\d.]+ \(per-round median [\d.]+;"
        r" target <= 0\.200\)$",
        output,
        re.M,
    )
    assert re.search(
        r"^toolgen check / python -c pass +: [\d.]+x \(per-round median [\d.]+x; target < 3x\)$",
        output,
        re.M,
    )

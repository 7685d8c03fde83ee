"""Golden cases: small projects under tests/golden/ whose expected output trees are committed.
They change only through an explicit `make regen`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.config import load_config
from generator.emit import compare_outputs
from generator.pipeline import build_outputs, output_roots

from .conftest import REPO, compile_typescript

GOLDEN = REPO / "tests/golden"
CASES = sorted(p.parent for p in GOLDEN.glob("*/pyproject.toml"))
GENERATED_PYTHON = [REPO / "generated/python", *(case / "generated/python" for case in CASES)]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_golden_case_matches_byte_for_byte(case: Path) -> None:
    config = load_config(case)
    result = build_outputs(config)
    assert result.ok, result.diagnostics
    differences = compare_outputs(case, result.outputs, output_roots(config))
    assert [d.diagnostic.source for d in differences] == [], (
        "run `make regen` if the change is intended"
    )


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_golden_typescript_compiles(case: Path, tmp_path: Path) -> None:
    result = compile_typescript(tmp_path, sorted((case / "generated/typescript").glob("*.ts")))
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("package", GENERATED_PYTHON, ids=lambda p: str(p.relative_to(REPO)))
def test_generated_python_passes_mypy_strict_and_ruff(package: Path, tmp_path: Path) -> None:
    mypy = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            "--config-file",
            "/dev/null",
            "-p",
            "tool_registry",
        ],
        cwd=package,
        capture_output=True,
        text=True,
        check=False,
    )
    assert mypy.returncode == 0, mypy.stdout
    ruff = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--config",
            str(REPO / "pyproject.toml"),
            str(package),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ruff.returncode == 0, ruff.stdout

"""Shared fixtures: the repository root, throwaway project copies, and ways to run the CLI."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main

REPO = Path(__file__).resolve().parent.parent
PROJECT_FILES = ("pyproject.toml", "README.md", "schema", "generated")


def copy_project(destination: Path) -> Path:
    """A copy of the sources and committed output, to change and regenerate freely."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(
                source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(source, destination / name)
    return destination


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run ``toolgen`` in-process; returns (exit code, stdout, stderr)."""

    def run(*arguments: str) -> tuple[int, str, str]:
        try:
            code = main(list(arguments))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def run_toolgen(
    *arguments: str, cwd: Path = REPO, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m generator`` in a child process, as a user or CI would."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *arguments],
        cwd=cwd,
        env={**os.environ, **(env or {}), "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )


def tsc_path() -> Path:
    path = REPO / "node_modules" / "typescript" / "bin" / "tsc"
    if not path.exists():
        pytest.fail("the pinned TypeScript compiler is missing: run `make test`, which installs it")
    return path


def node_executable() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required to compile and run the generated TypeScript")
    return node


STRICT_TSCONFIG = {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": True,
    "noUncheckedIndexedAccess": True,
    "exactOptionalPropertyTypes": True,
    "isolatedModules": True,
    "verbatimModuleSyntax": True,
    "noImplicitOverride": True,
    # The runtime modules import node's standard library (node:fs, node:child_process); its
    # types are the pinned @types/node, found from any folder the tests compile in.
    "types": ["node"],
    "typeRoots": [str(REPO / "node_modules" / "@types")],
}


def compile_typescript(
    folder: Path,
    files: list[Path],
    out_dir: Path | None = None,
    overrides: Mapping[str, object] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Compile ``files`` with the pinned tsc under the strict options the issue names; ``folder``
    gets the tsconfig and a ``package.json`` that makes its files ES modules."""
    options: dict[str, object] = {**STRICT_TSCONFIG, **(overrides or {})}
    if out_dir is None:
        options["noEmit"] = True
    else:
        options["outDir"] = str(out_dir)
    config = {"compilerOptions": options, "files": [str(f) for f in files]}
    (folder / "package.json").write_text('{"type": "module"}\n')
    tsconfig = folder / "tsconfig.json"
    tsconfig.write_text(json.dumps(config))
    return subprocess.run(
        [node_executable(), str(tsc_path()), "-p", str(tsconfig)],
        capture_output=True,
        text=True,
        check=False,
    )


def stage_typescript(
    work_dir: Path, generated_ts: Path, extra: dict[str, str] | None = None
) -> list[Path]:
    """Copy the generated TypeScript and ``extra`` sources into ``work_dir/src``; returns the files."""
    source = work_dir / "src"
    source.mkdir(parents=True)
    for path in generated_ts.glob("*.ts"):
        shutil.copy2(path, source / path.name)
    for name, text in (extra or {}).items():
        (source / name).write_text(text)
    return sorted(source.glob("*.ts"))


def build_typescript(
    work_dir: Path, generated_ts: Path, extra: dict[str, str] | None = None
) -> Path:
    """Stage and compile with the strict options to ``work_dir/out``; fails the test on an error."""
    out_dir = work_dir / "out"
    result = compile_typescript(work_dir, stage_typescript(work_dir, generated_ts, extra), out_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    return out_dir


def install_node_types(folder: Path) -> None:
    """The generated package's development dependency, installed as a workspace install would:
    the repository's pinned ``@types/node``, where TypeScript looks for it from ``folder``."""
    types = folder / "node_modules/@types"
    types.mkdir(parents=True, exist_ok=True)
    (types / "node").symlink_to(REPO / "node_modules/@types/node", target_is_directory=True)


def run_js(
    out: Path,
    body: str,
    *arguments: str,
    name: str = "probe.mjs",
    node_flags: Sequence[str] = (),
) -> Any:
    """Run ``body``, an ES module written as ``name`` beside the compiled runtime in ``out``,
    under node (with ``node_flags``) and ``arguments``; it prints one JSON document, returned
    parsed. A failing script fails the test with its stderr."""
    script = out / name
    script.write_text(body, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), *node_flags, str(script), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def run_node(script: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node_executable(), str(script)], capture_output=True, text=True, check=False
    )


def probe_python(package_parent: Path, code: str) -> object:
    """Run ``code`` in a fresh interpreter with ``package_parent`` first on ``sys.path``; ``code``
    prints one JSON document, which is returned parsed."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, sys.argv[1])\n{code}",
            str(package_parent),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the conformance totals (passed and refused) when that module ran."""
    module = sys.modules.get("tests.test_conformance")
    for line in getattr(module, "summary_lines", list)():
        terminalreporter.write_line(line)


def read_terminal(controller: int) -> bytes:
    """Everything a child wrote to the pseudo-terminal whose controlling side is ``controller``,
    until it closes its side (or nothing comes for a minute)."""
    seen = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            return seen
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO once the child's side is closed
            return seen
        if not chunk:
            return seen
        seen += chunk

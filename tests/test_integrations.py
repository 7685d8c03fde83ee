"""Integrations: the pre-commit hooks run the way pre-commit runs them, ``.ci/run`` annotates the
check step, and the README's CI recipe is exactly what ``.ci/run`` does (the README is a
contract)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import REPO, copy_project
from .test_loader import manifest, put

HOOKS: list[dict[str, Any]] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
BIN = Path(sys.executable).parent
MAKE = shutil.which("make") or "make"


def _hook(hook_id: str) -> dict[str, Any]:
    (hook,) = [hook for hook in HOOKS if hook["id"] == hook_id]
    return hook


def _selected(hook: dict[str, Any], staged: list[str]) -> list[str]:
    """The staged files pre-commit passes to ``hook``: ``files``/``exclude`` are searched (not
    matched) in each path, and ``types: [json]`` keeps ``.json`` files."""
    chosen = [path for path in staged if re.search(hook.get("files", ""), path)]
    chosen = [path for path in chosen if not re.search(hook.get("exclude", "^$"), path)]
    if "json" in hook.get("types", []):
        chosen = [path for path in chosen if path.endswith(".json")]
    return chosen


def _run_hook(
    hook: dict[str, Any], project: Path, staged: list[str]
) -> subprocess.CompletedProcess[str]:
    """Run the hook as pre-commit does: its ``entry`` (split like a shell would, the first word
    found on the PATH of the hook's environment), then ``args``, then the selected file names
    unless ``pass_filenames`` is false, in the repository's root."""
    command = shlex.split(hook["entry"]) + list(hook.get("args", []))
    if hook.get("pass_filenames", True):
        command += _selected(hook, staged)
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run(
        command,
        cwd=project,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_hooks_file_offers_both_hooks() -> None:
    assert {hook["id"] for hook in HOOKS} == {"toolgen-check", "toolgen-validate"}
    for hook in HOOKS:
        assert (
            hook["language"] == "python"
        )  # pre-commit installs this repository, `toolgen` included
        assert shlex.split(hook["entry"])[0] == "toolgen"
    assert _hook("toolgen-check")["pass_filenames"] is False
    assert _hook("toolgen-check")["always_run"] is True


def test_the_check_hook_passes_a_clean_project_and_fails_on_drift(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    hook = _hook("toolgen-check")
    clean = _run_hook(hook, project, ["schema/tools.yaml"])
    assert clean.returncode == 0, clean.stderr
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("displayName: Cursor", "displayName: Cursor IDE"))
    drifted = _run_hook(hook, project, ["schema/tools.yaml"])
    assert drifted.returncode == 1
    assert "generated/typescript/tools.ts: DRIFT_CHANGED" in drifted.stderr


def test_the_validate_hook_gets_only_adapter_files_and_gates_on_them(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    adapters = project / "adapters"
    adapters.mkdir()
    put(adapters, "zed.json", manifest(id="zed", displayName="Zed"))
    staged = ["adapters/zed.json", "schema/tool-manifest.schema.json", "package.json", "README.md"]
    hook = _hook("toolgen-validate")
    assert _selected(hook, staged) == ["adapters/zed.json"]
    # A folder named adapters anywhere, and nothing whose name only ends so.
    others = ["pkg/adapters/a.json", "myadapters/b.json", "pkg/myadapters/c.json", "adapters.json"]
    assert _selected(hook, others) == ["pkg/adapters/a.json"]
    accepted = _run_hook(hook, project, staged)
    assert accepted.returncode == 0, accepted.stderr
    assert "adapters/zed.json: accepted (zed)" in accepted.stdout
    put(adapters, "evil.json", manifest(id="evil", hookPointer="../../.bashrc"))
    rejected = _run_hook(hook, project, [*staged, "adapters/evil.json"])
    assert rejected.returncode == 1
    assert "adapters/evil.json: rejected" in rejected.stdout
    assert "UNSAFE_STRING" in rejected.stderr


def _workflow() -> dict[str, Any]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```yaml\n(# \.github/workflows/ci\.yml\n.*?)```", text, re.DOTALL)
    workflow: dict[str, Any] = yaml.safe_load(block)
    return workflow


def _ci_run_commands() -> list[str]:
    lines = (REPO / ".ci/run").read_text().splitlines()
    return [line for line in lines if line.startswith("make ")]


def test_the_readme_workflow_runs_what_ci_runs() -> None:
    (job,) = _workflow()["jobs"].values()
    commands = [step["run"] for step in job["steps"] if "run" in step]
    assert (
        commands
        == _ci_run_commands()
        == [
            "make check CHECK_FORMAT=github",
            "make test",  # the README's test command
            "make lint",
        ]
    )
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/setup-node"]


@pytest.mark.parametrize("command", _ci_run_commands())
def test_each_ci_command_expands_to_a_real_recipe(command: str) -> None:
    """``make -n``: every target and variable the recipe names exists (running ``make test``
    from inside the test suite would recurse, so the others are only expanded)."""
    completed = subprocess.run(
        [MAKE, "-n", *shlex.split(command)[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    if "check" in command:
        assert "-m generator check --format github" in completed.stdout


def test_the_check_step_runs_as_written() -> None:
    (command,) = [c for c in _ci_run_commands() if "check" in c]
    completed = subprocess.run(
        [MAKE, *shlex.split(command)[1:]], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "::error" not in completed.stdout


def test_github_format_annotates_drift(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    (project / "generated/typescript/stale.ts").write_text("export {};\n")
    completed = subprocess.run(
        [str(BIN / "toolgen"), "check", "--format", "github"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1
    assert "::error file=generated/typescript/stale.ts,title=DRIFT_ORPHANED::" in completed.stdout


def test_make_check_passes_flags_through() -> None:
    completed = subprocess.run(
        [MAKE, "-n", "check", "CHECK_FLAGS=--full"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "-m generator check --format text --full" in completed.stdout


def test_the_readme_pre_commit_config_selects_and_validates_its_adapters(tmp_path: Path) -> None:
    """README, "Pre-commit and CI": the ``.pre-commit-config.yaml`` of a project using toolgen
    names this repository's hooks, and its ``files:`` override hands ``toolgen-validate`` the
    adapters under ``config/adapters/``, which it gates on."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", text, re.DOTALL)
    (repo,) = yaml.safe_load(block)["repos"]
    # The revision is a placeholder: no release tag (the v0.1.0 it named) exists to pin.
    assert repo["rev"] == "COMMIT"
    configured = {hook["id"]: hook for hook in repo["hooks"]}
    assert list(configured) == ["toolgen-check", "toolgen-validate"]
    project = copy_project(tmp_path / "project")
    adapters = project / "config/adapters"
    adapters.mkdir(parents=True)
    put(adapters, "zed.json", manifest(id="zed", displayName="Zed"))
    # adapters/old.json is what the default pattern would pass too (a file no longer there).
    staged = ["config/adapters/zed.json", "adapters/old.json", "schema/tools.yaml"]
    assert all(_hook(hook_id) for hook_id in configured)  # each names a hook of this repository
    validate = {**_hook("toolgen-validate"), **configured["toolgen-validate"]}
    assert _selected(validate, staged) == ["config/adapters/zed.json"]
    accepted = _run_hook(validate, project, staged)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "config/adapters/zed.json: accepted (zed)" in accepted.stdout
    put(adapters, "evil.json", manifest(id="evil", hookPointer="../../.bashrc"))
    rejected = _run_hook(validate, project, [*staged, "config/adapters/evil.json"])
    assert rejected.returncode == 1
    assert "config/adapters/evil.json: rejected" in rejected.stdout


def _make_n(*arguments: str) -> str:
    completed = subprocess.run(
        [MAKE, "-n", *arguments], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_the_quick_start_table_says_what_each_make_target_runs() -> None:
    """README, "Quick start": each ``make`` target of the table runs what its row says."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("## Quick start\n", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `make (\w+)` \| (.*) \|$", table, re.MULTILINE))
    assert list(rows) == ["generate", "check", "test", "lint", "regen"]
    assert "(`toolgen generate`)" in rows["generate"]
    assert "-m generator generate" in _make_n("-B", "generate")
    assert "(`toolgen check`;" in rows["check"]
    assert "-m generator check --format text" in _make_n("check")
    assert "pytest" in rows["test"]
    assert "-m pytest" in _make_n("test")
    lint = _make_n("lint")
    assert "over the generator, tests, benchmarks and generated Python" in rows["lint"]
    assert "-m ruff check generator tests bench generated/python\n" in lint
    assert "-m mypy\n" in lint
    mypy = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["strict"] is True
    assert mypy["files"] == ["generator", "tests", "bench", "generated/python/tool_registry"]
    assert "both `tsc` (5.9 and 7)" in rows["lint"]
    assert "node_modules/typescript/bin/tsc -p tsconfig.json" in lint
    assert "node_modules/typescript-7/bin/tsc -p tsconfig.json" in lint
    tsconfig = (REPO / "tsconfig.json").read_text()
    assert '"generated/typescript' in tsconfig
    assert "the golden cases under `tests/golden/`" in rows["regen"]
    regen = _make_n("-B", "regen")
    assert "-m generator generate\n" in regen
    assert "for case in tests/golden/*/; do " in regen and '--project "$case"' in regen

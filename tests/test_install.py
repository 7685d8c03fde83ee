"""toolgen works wherever it is installed: a wheel built from the repository, installed (not
editable) into a fresh virtual environment with its pinned dependencies, generates and checks a
project in a folder that has nothing to do with the repository.

The wheel is built from a copy of what packaging reads (so the build leaves nothing in the
checkout), with the pinned setuptools of the test environment (``--no-build-isolation``). Its
dependencies come from the package source pip is configured with, constrained to
``requirements-dev.txt``; the fresh environment has no access to the test environment's packages,
so the generator, its templates and every resource it reads at run time must come from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from generator.targets import TARGETS

from .conftest import REPO

pytestmark = pytest.mark.install

# What packaging reads: the metadata, the README it names, and the one package.
BUILD_INPUTS = ("pyproject.toml", "README.md", "generator")
GOLDEN = REPO / "tests/golden/minimal"
SCRATCH_PYPROJECT = """\
[project]
name = "scratch-consumer"
version = "0"

[tool.toolgen]
table = "schema/tools.yaml"
"""


@dataclass(frozen=True)
class Installed:
    wheel: Path
    prefix: Path  # the fresh virtual environment
    toolgen: Path  # its console script


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def _clean_environment() -> dict[str, str]:
    """The user's environment without anything that would put other packages on the path."""
    dropped = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONUSERBASE"}
    return {key: value for key, value in os.environ.items() if key not in dropped}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("install")
    source = work / "source"
    source.mkdir()
    for name in BUILD_INPUTS:
        if (REPO / name).is_dir():
            shutil.copytree(
                REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(REPO / name, source / name)
    env = _clean_environment()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = _run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", "wheels", str(source)],
        work,
        env,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "wheels").glob("toolgen-*.whl")

    prefix = work / "venv"
    created = _run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], work, env)
    assert created.returncode == 0, created.stderr
    scripts = prefix / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    # The test environment's pip installs into the fresh one; the wheel brings its dependencies.
    install = _run(
        [
            *pip,
            "--python",
            str(python),
            "install",
            "-q",
            "--constraint",
            str(REPO / "requirements-dev.txt"),
            str(wheel),
        ],
        work,
        env,
    )
    assert install.returncode == 0, install.stderr
    return Installed(wheel, prefix, scripts / "toolgen")


@pytest.fixture(scope="module")
def scratch(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small project of its own, outside the repository, generated once by the installed
    toolgen (with no ``--project``: found from the working folder)."""
    project = tmp_path_factory.mktemp("elsewhere") / "consumer"
    (project / "schema").mkdir(parents=True)
    (project / "pyproject.toml").write_text(SCRATCH_PYPROJECT)
    for name in ("tool-manifest.schema.json", "tools-table.schema.json"):
        shutil.copy2(REPO / "schema" / name, project / "schema" / name)
    table = (GOLDEN / "schema/tools.yaml").read_text()
    (project / "schema/tools.yaml").write_text(
        table.replace("../../../../generated/schema/", "../generated/schema/")
    )
    generated = _run([str(installed.toolgen), "generate"], project, _clean_environment())
    assert generated.returncode == 0, generated.stderr
    return project


def test_the_wheel_holds_the_package_and_its_templates(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    expected = {f"generator/templates/{target.template}" for target in TARGETS}
    assert expected <= names, sorted(expected - names)
    assert {name.split("/")[0] for name in names} == {"generator", "toolgen-0.1.0.dist-info"}


def test_the_installed_generator_is_the_wheel_not_the_checkout(installed: Installed) -> None:
    probe = _run(
        [
            str(installed.toolgen.with_name("python")),
            "-c",
            "import json, generator, jinja2\n"
            "from importlib.metadata import requires\n"
            "print(json.dumps([generator.__file__, jinja2.__file__, requires('toolgen')]))",
        ],
        installed.prefix.parent,
        _clean_environment(),
    )
    assert probe.returncode == 0, probe.stderr
    generator_file, jinja2_file, requirements = json.loads(probe.stdout)
    for location in (generator_file, jinja2_file):
        assert Path(location).resolve().is_relative_to(installed.prefix.resolve()), location
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert sorted(requirements) == sorted(pyproject["project"]["dependencies"])


def test_generate_elsewhere_produces_the_golden_output(scratch: Path) -> None:
    expected = sorted(
        path.relative_to(GOLDEN).as_posix()
        for path in (GOLDEN / "generated").rglob("*")
        if path.is_file()
    )
    produced = sorted(
        path.relative_to(scratch).as_posix()
        for path in (scratch / "generated").rglob("*")
        if path.is_file()
    )
    assert produced == expected
    stamp = "generated/python/toolgen-stamp.json"
    for relative in produced:
        if relative != stamp:
            assert (scratch / relative).read_bytes() == (GOLDEN / relative).read_bytes(), relative
    # The stamp fingerprints the sources' bytes, and the scratch table's modeline comment points
    # elsewhere: only the table's hash may differ; the installed generator's is the checkout's.
    made, golden = (json.loads((root / stamp).read_text()) for root in (scratch, GOLDEN))
    assert {**made["inputs"], "table": ""} == {**golden["inputs"], "table": ""}
    assert (made["outputs"], made["environment"]) == (golden["outputs"], golden["environment"])


def test_check_elsewhere_finds_no_drift(installed: Installed, scratch: Path) -> None:
    checked = _run(
        [str(installed.toolgen), "check", "--format", "json"], scratch, _clean_environment()
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["diagnostics"] == []
    fast = _run([str(installed.toolgen), "check"], scratch, _clean_environment())
    assert fast.returncode == 0 and "fingerprints match the stamp" in fast.stderr, fast.stderr


def test_the_runtime_commands_elsewhere_run_the_generated_package(
    installed: Installed, scratch: Path
) -> None:
    adapters = scratch / "adapters"
    adapters.mkdir()
    listed = _run(
        [str(installed.toolgen), "registry", "--adapters-dir", str(adapters), "--format", "json"],
        scratch,
        _clean_environment(),
    )
    assert listed.returncode == 0, listed.stderr
    rows = yaml.safe_load((GOLDEN / "schema/tools.yaml").read_text(encoding="utf-8"))["tools"]
    assert [tool["id"] for tool in json.loads(listed.stdout)["tools"]] == [r["id"] for r in rows]


def test_the_readme_install_flow_runs_as_written(installed: Installed, scratch: Path) -> None:
    """README, "Using toolgen in another project": its commands, in order, with the wheel as
    ``path/to/toolgen`` and the scratch project as ``my-project``."""
    import shlex

    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- readme-flow:install -->\n```sh\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]
    assert commands[:2] == [["pip", "install", "path/to/toolgen"], ["cd", "my-project"]]
    assert (scratch / "pyproject.toml").read_text().count("[tool.toolgen]") == 1
    assert [command[0] for command in commands[2:]] == ["toolgen"] * (len(commands) - 2)
    for command in commands[2:]:
        completed = _run([str(installed.toolgen), *command[1:]], scratch, _clean_environment())
        assert completed.returncode == 0, (command, completed.stdout, completed.stderr)


def test_the_build_backend_is_pinned_as_the_tests_pin_it() -> None:
    """``pip install .`` builds in an isolated environment with what ``[build-system]`` requires:
    an exact pin, the setuptools ``requirements-dev.txt`` pins (the one the wheel tests build
    with), so a new setuptools release cannot change how a checkout installs."""
    requires = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    pins = dict(
        line.split("==", 1)
        for line in (REPO / "requirements-dev.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    assert requires == [f"setuptools=={pins['setuptools']}"]


def test_pip_install_of_a_checkout_works_too(
    installed: Installed, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """README: ``pip install path/to/toolgen`` takes "a checkout or a wheel built from one": a
    checkout (what packaging reads, outside the repository) installs into a fresh environment
    and runs, as the wheel does (built as pip builds it: in an isolated environment with the
    build backend ``[build-system]`` requires)."""
    work = tmp_path_factory.mktemp("checkout")
    source = work / "toolgen"
    for name in BUILD_INPUTS:
        if (REPO / name).is_dir():
            shutil.copytree(
                REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    prefix = work / "venv"
    env = _clean_environment()
    created = _run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], work, env)
    assert created.returncode == 0, created.stderr
    python = prefix / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    install = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--disable-pip-version-check",
            "--python",
            str(python),
            "install",
            "-q",
            "--constraint",
            str(REPO / "requirements-dev.txt"),
            str(source),
        ],
        work,
        env,
    )
    assert install.returncode == 0, install.stderr
    toolgen = installed.toolgen.name
    scripts = python.parent
    version = _run([str(scripts / toolgen), "--version"], work, env)
    assert version.returncode == 0 and "0.1.0" in version.stdout + version.stderr, version
    shutil.rmtree(source)  # nothing of the checkout is needed once installed
    checked = _run([str(scripts / toolgen), "check", "--project", str(GOLDEN)], work, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr

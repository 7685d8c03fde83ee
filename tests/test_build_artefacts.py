"""Building or testing the generated package is not drift: what `pip install generated/python`,
`python -m build`, pytest and the type checkers leave in the output folders is neither an orphan
for `check` nor deleted by `generate`; a genuinely stray file still is, wherever it lies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from generator.emit import BUILD_ARTEFACTS, IGNORED_NAMES, existing_files

from .conftest import run_toolgen

PYTHON_OUT = "generated/python"
# Made by hand beside the real build: what `python -m build`, pytest, mypy and ruff leave.
HAND_MADE_ARTEFACTS = (
    f"{PYTHON_OUT}/dist/tool_registry-0.1.0-py3-none-any.whl",
    f"{PYTHON_OUT}/dist/tool_registry-0.1.0.tar.gz",
    f"{PYTHON_OUT}/.eggs/README.txt",
    f"{PYTHON_OUT}/.pytest_cache/v/cache/nodeids",
    f"{PYTHON_OUT}/.mypy_cache/3.11/tool_registry/__init__.data.json",
    f"{PYTHON_OUT}/.ruff_cache/CACHEDIR.TAG",
    f"{PYTHON_OUT}/.hypothesis/examples/x",
    f"{PYTHON_OUT}/tool_registry/__pycache__/constants.cpython-311.pyc",
    "generated/typescript/tsconfig.tsbuildinfo",
    "generated/typescript/node_modules/x/index.js",
)
# Stray files that no build makes where they lie: each must stay an orphan.
STRAYS = (
    f"{PYTHON_OUT}/tool_registry/extra.py",
    f"{PYTHON_OUT}/tool_registry/build/lib.py",  # `build` below the top is not a build folder
    f"{PYTHON_OUT}/notes.txt",
    "generated/typescript/dist/index.js",  # no pyproject.toml there: nothing builds into it
    "generated/typescript/build/tools.js",
    "generated/schema/dist/tools.schema.json",
)


def _pip_install_in_place(project: Path, target: Path) -> None:
    """`pip install generated/python`, as a consumer would (into ``target``, not our venv): the
    in-tree build leaves build/ and *.egg-info in the output folder."""
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(project / PYTHON_OUT),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr


def _artefacts(project: Path) -> dict[str, bytes]:
    """Every file under a build artefact or cache folder of the output folders."""
    found: dict[str, bytes] = {}
    for path in (project / "generated").rglob("*"):
        relative = path.relative_to(project).as_posix()
        parts = path.relative_to(project / "generated").parts
        if path.is_file() and (
            set(parts) & (IGNORED_NAMES | BUILD_ARTEFACTS)
            or any(part.endswith((".egg-info", ".tsbuildinfo")) for part in parts)
        ):
            found[relative] = path.read_bytes()
    return found


def _orphans(project: Path) -> list[str]:
    checked = run_toolgen("check", "--project", str(project), "--format", "json")
    return sorted(
        d["source"]
        for d in json.loads(checked.stdout)["diagnostics"]
        if d["code"] == "DRIFT_ORPHANED"
    )


def test_installing_and_testing_the_generated_package_is_not_drift(
    project: Path, tmp_path: Path
) -> None:
    _pip_install_in_place(project, tmp_path / "site")
    python_out = project / PYTHON_OUT
    assert (python_out / "build/lib/tool_registry/constants.py").is_file()
    assert list(python_out.glob("*.egg-info"))
    for relative in HAND_MADE_ARTEFACTS:
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_bytes(b"artefact\n")
    (python_out / "dist/empty").mkdir()  # an empty artefact folder survives generate too
    before = _artefacts(project)
    assert len(before) > len(HAND_MADE_ARTEFACTS)

    checked = run_toolgen("check", "--project", str(project), "--format", "json")
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["diagnostics"] == []

    generated = run_toolgen("generate", "--project", str(project), "--format", "json")
    assert generated.returncode == 0, generated.stderr
    assert json.loads(generated.stdout)["changed"] == []
    assert _artefacts(project) == before
    assert (python_out / "dist/empty").is_dir()


def test_stray_files_stay_orphans_beside_build_artefacts(project: Path, tmp_path: Path) -> None:
    _pip_install_in_place(project, tmp_path / "site")
    for relative in STRAYS:
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text("stray\n")
    assert _orphans(project) == sorted(STRAYS)

    generated = run_toolgen("generate", "--project", str(project), "--format", "json")
    assert generated.returncode == 0, generated.stderr
    assert sorted(json.loads(generated.stdout)["changed"]) == sorted(STRAYS)
    assert not any((project / relative).exists() for relative in STRAYS)
    # Their emptied folders go; the build's own stay.
    assert not (project / f"{PYTHON_OUT}/tool_registry/build").exists()
    assert not (project / "generated/typescript/dist").exists()
    assert (project / f"{PYTHON_OUT}/build/lib/tool_registry").is_dir()
    assert _orphans(project) == []


def test_build_folders_count_only_beside_a_build_file(project: Path) -> None:
    (project / "generated/typescript/dist").mkdir()
    (project / "generated/typescript/dist/x.js").write_text("")
    (project / f"{PYTHON_OUT}/dist").mkdir()
    (project / f"{PYTHON_OUT}/dist/x.whl").write_text("")
    listed = set(existing_files(project, ["generated/python", "generated/typescript"]))
    assert "generated/typescript/dist/x.js" in listed
    assert f"{PYTHON_OUT}/dist/x.whl" not in listed
    (project / f"{PYTHON_OUT}/pyproject.toml").unlink()
    listed = set(existing_files(project, ["generated/python", "generated/typescript"]))
    assert f"{PYTHON_OUT}/dist/x.whl" in listed


def test_a_linked_folder_is_an_entry_not_walked(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("")
    (project / f"{PYTHON_OUT}/tool_registry/linked").symlink_to(outside, target_is_directory=True)
    assert _orphans(project) == [f"{PYTHON_OUT}/tool_registry/linked"]
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert (outside / "secret.py").exists()
    assert not (project / f"{PYTHON_OUT}/tool_registry/linked").exists()

"""Building or testing the generated packages is not drift: what `pip install generated/python`,
`python -m build`, pytest, the type checkers and `tsc -p generated/typescript` (its `dist/`) leave
in the output folders is neither an orphan for `check` nor deleted by `generate`; a genuinely stray
file still is, wherever it lies."""

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
    "generated/typescript/dist/index.js",  # `tsc -p generated/typescript` (the npm package)
)
# Stray files that no build makes where they lie: each must stay an orphan.
STRAYS = (
    f"{PYTHON_OUT}/tool_registry/extra.py",
    f"{PYTHON_OUT}/tool_registry/build/lib.py",  # `build` below the top is not a build folder
    f"{PYTHON_OUT}/notes.txt",
    "generated/typescript/build/tools.js",  # tsc builds into dist/ only
    "generated/typescript/types/dist/x.js",  # `dist` below the top is not the build's
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
    assert not (project / "generated/typescript/build").exists()
    assert (project / f"{PYTHON_OUT}/build/lib/tool_registry").is_dir()
    assert _orphans(project) == []


def test_build_folders_count_only_beside_a_build_file(project: Path) -> None:
    typescript_out = project / "generated/typescript"
    (typescript_out / "dist").mkdir()
    (typescript_out / "dist/x.js").write_text("")
    (project / f"{PYTHON_OUT}/dist").mkdir()
    (project / f"{PYTHON_OUT}/dist/x.whl").write_text("")
    roots = ["generated/python", "generated/typescript"]
    listed = set(existing_files(project, roots))
    assert "generated/typescript/dist/x.js" not in listed
    assert f"{PYTHON_OUT}/dist/x.whl" not in listed
    (project / f"{PYTHON_OUT}/pyproject.toml").unlink()
    (typescript_out / "package.json").unlink()
    listed = set(existing_files(project, roots))
    assert f"{PYTHON_OUT}/dist/x.whl" in listed
    assert "generated/typescript/dist/x.js" in listed


def test_a_typescript_package_build_folder_is_only_dist(project: Path) -> None:
    """package.json makes `dist/` (tsc's outDir) a build folder, not `build/` or `.eggs/`."""
    typescript_out = project / "generated/typescript"
    for name in ("dist", "build", ".eggs"):
        (typescript_out / name).mkdir()
        (typescript_out / name / "x.js").write_text("")
    listed = set(existing_files(project, ["generated/typescript"]))
    assert {p for p in listed if p.endswith("/x.js")} == {
        "generated/typescript/build/x.js",
        "generated/typescript/.eggs/x.js",
    }


def test_a_linked_folder_is_an_entry_not_walked(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("")
    (project / f"{PYTHON_OUT}/tool_registry/linked").symlink_to(outside, target_is_directory=True)
    assert _orphans(project) == [f"{PYTHON_OUT}/tool_registry/linked"]
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert (outside / "secret.py").exists()
    assert not (project / f"{PYTHON_OUT}/tool_registry/linked").exists()

"""Output folders never reach a source or leave the project: configuration is checked on resolved
paths (exit 2), and generate never writes or deletes through a symlink to elsewhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]


def _configure(project: Path, **paths: str) -> None:
    lines = ["[tool.toolgen]", *(f'{key} = "{value}"' for key, value in paths.items())]
    (project / "pyproject.toml").write_text("\n".join(lines) + "\n")


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project holding a file nobody may delete."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("keep me\n")
    return folder


def _assert_refused(run_cli: Run, project: Path, *protected: Path) -> None:
    before = [_tree(folder) for folder in protected]
    for command in ("generate", "check"):
        code, out, err = run_cli(command, "--project", str(project))
        assert code == 2, (out, err)
        assert err.startswith("toolgen: ") and "Traceback" not in err
    assert [_tree(folder) for folder in protected] == before


def test_a_source_spelled_with_dotdot_inside_an_output_folder_is_refused(
    project: Path, run_cli: Run
) -> None:
    (project / "x").mkdir()
    copy = project / "generated/python/tools.yaml"
    copy.write_bytes((project / "schema/tools.yaml").read_bytes())
    _configure(project, table="x/../generated/python/tools.yaml")
    _assert_refused(run_cli, project, project / "generated")
    assert copy.exists()


@pytest.mark.parametrize("key", ["schema", "table_schema", "readme"])
def test_every_source_kind_inside_an_output_folder_is_refused(
    project: Path, run_cli: Run, key: str
) -> None:
    _configure(project, **{key: "x/../generated/typescript/source.json"})
    _assert_refused(run_cli, project, project / "generated")


def test_an_output_folder_symlinked_into_the_sources_is_refused(
    project: Path, run_cli: Run
) -> None:
    (project / "out").symlink_to(project / "schema", target_is_directory=True)
    _configure(project, python_out="out")
    _assert_refused(run_cli, project, project / "schema")


def test_an_output_folder_symlinked_outside_the_project_is_refused(
    project: Path, run_cli: Run, outside: Path
) -> None:
    (project / "generated/typescript").rename(project / "old-ts")
    (project / "generated/typescript").symlink_to(outside, target_is_directory=True)
    _assert_refused(run_cli, project, outside)


def test_output_folders_overlapping_through_a_symlink_are_refused(
    project: Path, run_cli: Run
) -> None:
    (project / "alias").symlink_to(project / "generated/python", target_is_directory=True)
    _configure(project, typescript_out="alias/ts")
    _assert_refused(run_cli, project, project / "generated")


def test_a_readme_symlinked_outside_the_project_is_refused(
    project: Path, run_cli: Run, outside: Path
) -> None:
    (project / "README.md").unlink()
    (project / "README.md").symlink_to(outside / "precious.txt")
    _assert_refused(run_cli, project, outside)


@pytest.mark.parametrize("value", [".", "schema/..", "generated/../.."])
def test_an_output_folder_at_or_above_the_project_root_is_refused(
    project: Path, run_cli: Run, value: str
) -> None:
    _configure(project, editor_schema_out=value)
    _assert_refused(run_cli, project, project / "schema")


def test_a_symlink_loop_in_a_configured_path_is_a_usage_error(project: Path, run_cli: Run) -> None:
    (project / "loop").symlink_to(project / "loop")
    _configure(project, python_out="loop/python")
    _assert_refused(run_cli, project, project / "schema")


def test_a_symlinked_file_in_an_output_folder_is_removed_not_its_target(
    project: Path, run_cli: Run, outside: Path
) -> None:
    link = project / "generated/typescript/stray.ts"
    link.symlink_to(outside / "precious.txt")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1 and "generated/typescript/stray.ts: DRIFT_ORPHANED" in err
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert not link.is_symlink()
    assert (outside / "precious.txt").read_text() == "keep me\n"
    assert run_cli("check", "--project", str(project))[0] == 0


def test_a_symlinked_folder_in_an_output_folder_is_not_descended(
    project: Path, run_cli: Run, outside: Path
) -> None:
    link = project / "generated/python/elsewhere"
    link.symlink_to(outside, target_is_directory=True)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert not link.is_symlink()
    assert _tree(outside) == {"precious.txt": b"keep me\n"}


def test_generate_refuses_to_write_through_a_symlinked_subfolder(
    project: Path, run_cli: Run, outside: Path
) -> None:
    package = project / "generated/python/tool_registry"
    package.rename(project / "moved")
    package.symlink_to(outside, target_is_directory=True)
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    refused = {(d["code"], d["source"]) for d in json.loads(out)["diagnostics"]}
    assert ("WRITE_FAILED", "generated/python/tool_registry/models.py") in refused
    assert _tree(outside) == {"precious.txt": b"keep me\n"}

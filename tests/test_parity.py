"""The committed generated/ is exactly what the sources produce, and drift of any kind is caught."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from generator.config import load_config
from generator.emit import compare_outputs, existing_files
from generator.pipeline import build_outputs, output_roots
from generator.render import TEMPLATES_DIR, make_environment

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]


def test_committed_output_is_byte_identical_to_a_fresh_generation() -> None:
    config = load_config(REPO)
    result = build_outputs(config)
    assert result.ok, result.diagnostics
    roots = output_roots(config)
    committed = set(existing_files(REPO, roots))
    # Besides the owned folders, generate rewrites the README's marked table region.
    assert committed | {"README.md"} == set(result.outputs), "orphaned or missing generated files"
    for relative, text in result.outputs.items():
        assert (REPO / relative).read_bytes() == text.encode("utf-8"), relative
    assert compare_outputs(REPO, result.outputs, roots) == []


def test_generating_into_an_empty_folder_reproduces_the_committed_tree(
    project: Path, run_cli: Run
) -> None:
    shutil.rmtree(project / "generated")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    roots = output_roots(load_config(REPO))
    fresh = list(existing_files(project, roots))
    assert fresh == list(existing_files(REPO, roots))
    for relative in fresh:
        assert (project / relative).read_bytes() == (REPO / relative).read_bytes(), relative


def test_check_passes_on_a_clean_copy(project: Path, run_cli: Run) -> None:
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err


def test_check_catches_a_hand_edited_generated_file(project: Path, run_cli: Run) -> None:
    constants = project / "generated/python/tool_registry/constants.py"
    constants.write_text(constants.read_text().replace('"Claude Code"', '"Claude Kode"'))
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "DRIFT_CHANGED" in err
    assert '-        "claude-code": "Claude Kode",' in out
    assert '+        "claude-code": "Claude Code",' in out


def test_check_catches_a_yaml_change_without_regeneration(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("displayName: Cursor", "displayName: Cursor IDE"))
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 1
    changed = {line.split(":")[0] for line in err.splitlines() if "DRIFT_CHANGED" in line}
    assert "generated/typescript/tools.ts" in changed
    assert "generated/python/tool_registry/constants.py" in changed
    assert '+  cursor: "Cursor IDE",' in out or '+  "cursor": "Cursor IDE",' in out


def test_check_catches_a_schema_change_without_regeneration(project: Path, run_cli: Run) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    schema["properties"]["category"]["enum"].append("web-app")
    path.write_text(json.dumps(schema, indent=2))
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "generated/typescript/types.ts: DRIFT_CHANGED" in err
    assert "generated/python/tool_registry/models.py: DRIFT_CHANGED" in err


def test_check_catches_a_template_change_without_regeneration(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    index = templates / "typescript/index.ts.jinja"
    index.write_text(index.read_text() + "export const EXTRA = 1;\n")
    config = load_config(REPO)
    result = build_outputs(config, environment=make_environment(templates))
    assert result.ok
    differences = compare_outputs(REPO, result.outputs, output_roots(config))
    # The stamp records every output's hash, so it changes with index.ts.
    assert [d.diagnostic.source for d in differences] == [
        "generated/python/toolgen-stamp.json",
        "generated/typescript/index.ts",
    ]
    assert "+export const EXTRA = 1;" in differences[1].diff


def test_check_reports_missing_and_orphaned_files(project: Path, run_cli: Run) -> None:
    (project / "generated/typescript/index.ts").unlink()
    (project / "generated/typescript/stale.ts").write_text("export {};\n")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "generated/typescript/index.ts: DRIFT_MISSING" in err
    assert "generated/typescript/stale.ts: DRIFT_ORPHANED" in err


def test_caches_inside_output_folders_are_not_orphans(project: Path, run_cli: Run) -> None:
    cache = project / "generated/python/tool_registry/__pycache__"
    cache.mkdir()
    (cache / "constants.cpython-311.pyc").write_bytes(b"\0")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err

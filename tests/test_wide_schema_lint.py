"""A manifest schema with many properties still generates Python that lints clean under the
project's rules: the loader's straight-line model builders (one statement per field) are
written on purpose, and say so to ruff once they are longer than its statement limit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.config import load_config
from generator.pipeline import build_outputs

from .conftest import REPO, probe_python


@pytest.mark.parametrize("extra", [0, 35, 36, 46, 47, 80])
def test_the_loader_lints_clean_whatever_the_number_of_properties(
    tmp_path: Path, extra: int
) -> None:
    project = tmp_path / "project"
    shutil.copytree(REPO / "schema", project / "schema")
    schema_file = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_file.read_text())
    for index in range(extra):
        schema["properties"][f"extra{index}"] = {"type": "string"}
        schema["$defs"]["PathDetect"]["properties"][f"flag{index}"] = {"type": "boolean"}
    schema_file.write_text(json.dumps(schema, indent=2))
    # The repository's configuration: its [tool.toolgen] table and the ruff rules it lints by.
    shutil.copy(REPO / "pyproject.toml", project / "pyproject.toml")
    result = build_outputs(load_config(project))
    assert result.ok, result.diagnostics
    for relative, text in result.outputs.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text)
    package = project / "generated/python/tool_registry"
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(package)],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert lint.returncode == 0, lint.stdout
    facts = probe_python(
        project / "generated/python",
        "import json\n"
        "from tool_registry import parse_third_party_manifest\n"
        "parsed = parse_third_party_manifest({'id': 'x', 'displayName': 'X', 'launchable': False,"
        " 'hookCapable': False, 'hookPointer': '.x/y.json',"
        " 'detect': {'kind': 'path', 'binaryName': 'x'}})\n"
        "print(json.dumps(parsed.accepted))\n",
    )
    assert facts is True

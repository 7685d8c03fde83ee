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
import yaml

from generator.config import load_config
from generator.format import waive_long_lines
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


def test_the_longest_values_the_table_allows_lint_clean(tmp_path: Path) -> None:
    # An 80-character display name with spaces, a 64-character id and a long hook pointer are
    # all valid; the lines holding them in constants.py ran past ruff's 100 columns (E501).
    project = tmp_path / "project"
    shutil.copytree(REPO / "schema", project / "schema")
    shutil.copy(REPO / "pyproject.toml", project / "pyproject.toml")
    table_file = project / "schema/tools.yaml"
    table = yaml.safe_load(table_file.read_text())
    table["tools"][0]["displayName"] = ("Claude Code Long Name " * 4)[:79] + "x"
    table["tools"][1]["id"] = "a" * 64
    table["tools"][1]["hookPointer"] = ".x/" + "y" * 200
    table["tools"][2]["detect"]["paths"]["linux"] = ["/opt/" + "a b " * 40]
    table_file.write_text(yaml.safe_dump(table, sort_keys=False))
    result = build_outputs(load_config(project))
    assert result.ok, result.diagnostics
    for relative, text in result.outputs.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text)
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "generated/python"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout
    facts = probe_python(
        project / "generated/python",
        "import json\n"
        "from tool_registry import TOOL_DISPLAY_NAMES, BUILTIN_TOOL_MANIFESTS_BY_ID\n"
        "print(json.dumps([TOOL_DISPLAY_NAMES['claude-code'],"
        f" BUILTIN_TOOL_MANIFESTS_BY_ID['{'a' * 64}'].hookPointer]))\n",
    )
    assert facts == [table["tools"][0]["displayName"], table["tools"][1]["hookPointer"]]


def test_a_waiver_goes_only_where_ruff_would_report_and_a_comment_can_go() -> None:
    long = "x " * 60
    text = (
        f'A = "{long}"\n'  # overlong: waived
        f'B="{"y" * 120}"\n'  # one word: E501 ignores it
        f'C = "a https://{"z" * 120}"\n'  # ends in a URL starting within the line
        f'D = """\n{long}\n"""\n'  # inside a string: no comment can go there
        f'E = "{long}"  # a comment already\n'
    )
    lines = waive_long_lines(text).split("\n")
    assert lines[0].endswith("# noqa: E501 - a value from the sources, longer than a line")
    assert [line.count("noqa") for line in lines] == [1, 0, 0, 0, 0, 0, 0, 0]
    assert waive_long_lines("short = 1\n") == "short = 1\n"
    waived_whole = f"# ruff: noqa: E501, RUF100\n{text}"
    assert waive_long_lines(waived_whole) == waived_whole

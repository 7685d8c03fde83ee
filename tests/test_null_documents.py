"""Sources that parse but hold nothing usable: a document that is JSON null (``null``, ``~``, a
bare ``---``) and a double-quoted YAML escape naming no character (``"\\U00110000"``). Each is a
located finding (exit 1) in every command that reads the sources, never an internal error."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.diagnostics import Code
from generator.load import parse_yaml

Run = Callable[..., tuple[int, str, str]]

NULL_YAML = ("null\n", "~\n", "# a comment\n\nnull\n", "--- null\n", "---\n...\n", "Null\n")
ADD_TOOL = (
    "add-tool",
    "acme",
    "--display-name",
    "Acme",
    "--detect",
    "path",
    "--binary",
    "acme",
    "--launchable",
    "--no-hook-capable",
    "--hook-pointer",
    ".acme/x.json",
)


def _findings(out: str) -> list[dict[str, Any]]:
    document = json.loads(out)
    assert "error" not in document, document
    findings: list[dict[str, Any]] = document["diagnostics"]
    return findings


@pytest.mark.parametrize("text", NULL_YAML)
def test_a_null_table_is_a_located_violation(project: Path, run_cli: Run, text: str) -> None:
    (project / "schema/tools.yaml").write_text(text)
    for command in (("check",), ("check", "--full"), ("generate",), ADD_TOOL):
        code, out, _ = run_cli(*command, "--project", str(project), "--format", "json")
        assert code == 1, (command, out)
        [finding] = _findings(out)
        assert finding["source"] == "schema/tools.yaml"
        assert finding["pointer"] == ""
        assert finding["code"] in {Code.SCHEMA_VIOLATION.value, Code.YAML_SYNTAX.value}


def test_the_null_table_is_located_at_its_node(project: Path, run_cli: Run) -> None:
    (project / "schema/tools.yaml").write_text("# a comment\n\nnull\n")
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = _findings(out)
    assert (finding["code"], finding["line"], finding["column"]) == ("SCHEMA_VIOLATION", 3, 1)


@pytest.mark.parametrize("key", ["tool-manifest.schema.json", "tools-table.schema.json"])
def test_a_null_schema_is_invalid(project: Path, run_cli: Run, key: str) -> None:
    (project / "schema" / key).write_text("null\n")
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = _findings(out)
    assert (finding["code"], finding["source"]) == ("SCHEMA_INVALID", f"schema/{key}")


@pytest.mark.parametrize("name", ["tools.yaml", "tool-manifest.schema.json"])
def test_a_null_baseline_source_is_reported(
    project: Path, tmp_path: Path, run_cli: Run, name: str
) -> None:
    baseline = tmp_path / "baseline"
    baseline.mkdir()
    shutil.copytree(project / "schema", baseline / "schema")
    shutil.copy2(project / "pyproject.toml", baseline / "pyproject.toml")
    (baseline / "schema" / name).write_text("null\n")
    code, out, _ = run_cli(
        "breaking", "--against", str(baseline), "--project", str(project), "--format", "json"
    )
    assert code == 1
    sources = {d["source"] for d in _findings(out)}
    assert f"{baseline}:schema/{name}" in sources


@pytest.mark.parametrize("escape", ["\\U00110000", "\\UFFFFFFFF", "\\U7fffffff"])
def test_an_escape_beyond_unicode_is_a_syntax_error(escape: str) -> None:
    loaded = parse_yaml(f'a: 1\nb: "x{escape}"\n', "t.yaml")
    assert loaded.value is None
    [problem] = loaded.diagnostics
    assert (problem.code, problem.line) == (Code.YAML_SYNTAX, 2)
    assert "U+10FFFF" in problem.message


def test_an_escape_beyond_unicode_in_the_table(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("Claude Code", '"\\U00110000"', 1))
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = _findings(out)
    assert finding["code"] == "YAML_SYNTAX"

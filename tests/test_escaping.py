"""Values reach generated code only as escaped literals, and round-trip exactly in both languages."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.config import load_config
from generator.literals import py_str, ts_str
from generator.markdown import md_code
from generator.pipeline import build_outputs

from .conftest import build_typescript, copy_project, probe_python, run_node

EVIL_NAME = "Evil \"name\" \\ */ ${x} ''' `tick` é 😀"
EVIL_PATH = '/opt/"quoted"/*/ ${HOME} `x` \\back\u2028line\u2029/😀/\ufeff'
PY_PROBE = """
import json
from tool_registry import BUILTIN_TOOL_MANIFESTS_BY_ID, TOOL_DISPLAY_NAMES
cursor = BUILTIN_TOOL_MANIFESTS_BY_ID["cursor"]
print(json.dumps({"name": TOOL_DISPLAY_NAMES["claude-code"], "path": cursor.detect.paths.linux[0]}))
"""
TS_PROBE = """
import { BUILTIN_TOOL_MANIFESTS, TOOL_DISPLAY_NAMES } from "./index.js";
const cursor = BUILTIN_TOOL_MANIFESTS.find((manifest) => manifest.id === "cursor");
const detect = cursor?.detect;
const path = detect?.kind === "candidates" ? detect.paths?.linux?.[0] ?? "" : "";
console.log(JSON.stringify({ name: TOOL_DISPLAY_NAMES["claude-code"], path }));
"""


@given(st.text())
def test_py_str_round_trips(text: str) -> None:
    literal = py_str(text)
    assert literal.isascii() and "\n" not in literal
    assert ast.literal_eval(literal) == text


@given(st.text())
def test_ts_str_is_an_ascii_json_compatible_literal(text: str) -> None:
    literal = ts_str(text)
    assert literal.isascii() and "\n" not in literal
    assert json.loads(literal) == text


def test_hostile_strings_round_trip_in_python_and_typescript(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    data = yaml.safe_load((project / "schema/tools.yaml").read_text())
    rows = {row["id"]: row for row in data["tools"]}
    rows["claude-code"]["displayName"] = EVIL_NAME
    rows["cursor"]["detect"]["paths"]["linux"][0] = EVIL_PATH
    (project / "schema/tools.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    )
    result = build_outputs(load_config(project))
    assert result.ok, result.diagnostics
    for relative, output in result.outputs.items():
        # Markdown is prose: a value appears as a code span (escaped by md_code), never raw.
        text = output.replace(md_code(EVIL_NAME), "") if relative.endswith(".md") else output
        assert EVIL_NAME not in text and "\u2028" not in text, f"raw value pasted into {relative}"
        assert text.isascii() or relative.endswith(".md"), relative  # the Markdown is prose
    for relative, text in result.outputs.items():
        (project / relative).write_text(text)

    facts = probe_python(project / "generated/python", PY_PROBE)
    assert facts == {"name": EVIL_NAME, "path": EVIL_PATH}

    out = build_typescript(
        tmp_path / "ts", project / "generated/typescript", {"probe.ts": TS_PROBE}
    )
    ran = run_node(out / "probe.js")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"name": EVIL_NAME, "path": EVIL_PATH}


def test_numbers_are_written_the_same_in_both_languages() -> None:
    from generator.literals import py_scalar, ts_scalar

    for value, text in ((65536, "65536"), (65536.0, "65536"), (0.1, "0.1"), (-3, "-3")):
        assert py_scalar(value) == ts_scalar(value) == text
    assert (py_scalar(True), ts_scalar(True), py_scalar(None), ts_scalar(None)) == (
        "True",
        "true",
        "None",
        "null",
    )


def test_identifier_positions_only_take_plain_identifiers() -> None:
    import pytest

    from generator.literals import (
        UnsafeIdentifierError,
        identifier,
        python_keyword_argument,
        ts_key,
    )

    assert identifier("LAUNCH_COHORT") == "LAUNCH_COHORT"
    for bad in ("x-y", "1x", "", "a b", "class", "None", "string", "x\u200e", "é"):
        with pytest.raises(UnsafeIdentifierError):
            identifier(bad)
    assert python_keyword_argument("type") == "type"
    with pytest.raises(UnsafeIdentifierError):
        python_keyword_argument("lambda")
    assert ts_key("binaryName") == "binaryName"
    assert ts_key("odd-key") == '"odd-key"'

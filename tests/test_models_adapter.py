"""The datamodel-code-generator adapter is held to the generator's rules: every string literal of
``models.py`` escapes what is outside printable ASCII (enum members included), and a schema
``default`` is an annotation only, so Python and TypeScript agree that an unstated optional
field is absent (``None`` / ``undefined``)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.python_models import ModelError, escaped_literals, without_defaults

Run = Callable[..., tuple[int, str, str]]

HOSTILE_MEMBERS = ["\u3164", "\u2800", "\u0441li-agent", "tab\there", "e\u0301", "\U0001f600"]


def _schema(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    change(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n")


def _printable(text: str) -> bool:
    return all(0x20 <= ord(c) < 0x7F or c == "\n" for c in text)


def test_enum_members_reach_models_py_escaped(project: Path, run_cli: Run) -> None:
    def hostile(schema: dict[str, Any]) -> None:
        schema["properties"]["category"]["enum"] += HOSTILE_MEMBERS

    _schema(project, hostile)
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 0, (out, err)
    models = (project / "generated/python/tool_registry/models.py").read_text()
    assert _printable(models)
    assert '"\\u3164"' in models and '"\\u2800"' in models and '"\\u0441li-agent"' in models
    assert '"\\U0001f600"' in models
    for path in (project / "generated").rglob("*"):
        if path.is_file() and path.suffix in {".py", ".ts", ".json"}:
            assert _printable(path.read_text()), path
    # The escaped literals mean the same members.
    strings = {
        node.value
        for node in ast.walk(ast.parse(models))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert set(HOSTILE_MEMBERS) <= strings


def test_escaped_literals_rewrites_strings_and_refuses_other_tokens() -> None:
    assert escaped_literals("x = 'a\u3164'\n") == 'x = "a\\u3164"\n'
    assert escaped_literals("x = 'plain'\n") == "x = 'plain'\n"
    with pytest.raises(ModelError):
        escaped_literals("x = 1  # \u202e\n")
    with pytest.raises(ModelError):
        escaped_literals("\u0441 = 1\n")


def test_defaults_are_dropped_from_schema_objects_only() -> None:
    schema = {
        "properties": {"default": {"type": "string", "default": "x"}},
        "$defs": {"A": {"default": {"a": 1}, "type": "object"}},
    }
    assert without_defaults(schema) == {
        "properties": {"default": {"type": "string"}},
        "$defs": {"A": {"type": "object"}},
    }


def test_a_schema_default_is_an_annotation_in_both_languages(project: Path, run_cli: Run) -> None:
    def note(schema: dict[str, Any]) -> None:
        schema["properties"]["note"] = {"type": "string", "default": "x\u3164"}

    _schema(project, note)
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 0, (out, err)
    python = project / "generated/python"
    models = (python / "tool_registry/models.py").read_text()
    assert "note: str | None = None" in models and "x\\u3164" not in models
    assert "note?: string" in (project / "generated/typescript/types.ts").read_text()
    script = (
        "import json, sys\n"
        "from tool_registry import BUILTIN_TOOL_MANIFESTS, validate_tool_manifest\n"
        "from tool_registry.loader import load_manifest_files\n"
        "print(json.dumps([m.note for m in BUILTIN_TOOL_MANIFESTS]))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        cwd=python,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert set(json.loads(completed.stdout)) == {None}
    # The editor schema keeps the annotation.
    assert "x\\u3164" in (project / "generated/schema/tools.schema.json").read_text()

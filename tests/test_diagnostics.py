"""Diagnostics are data: sanitising, pointers and the three renderings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from generator.config import load_config
from generator.diagnostics import (
    Code,
    Diagnostic,
    Severity,
    describe,
    pointer_of,
    render_github,
    render_json,
    render_text,
)
from generator.pipeline import build_outputs
from generator.render import TEMPLATES_DIR, make_environment

from .conftest import REPO


def test_describe_escapes_invisible_characters_and_clips() -> None:
    assert describe("ok") == '"ok"'
    assert describe('a"b\\c') == '"a\\"b\\\\c"'
    assert (
        describe("\x1b[31mred\u202e\u2066\x00\x85")
        == '"\\u001b[31mred\\u202e\\u2066\\u0000\\u0085"'
    )
    long = describe("x" * 200)
    assert long == '"' + "x" * 80 + '…"'
    assert describe(["list"]) == "\"['list']\""


def test_pointers_escape_tilde_and_slash() -> None:
    assert pointer_of(()) == ""
    assert pointer_of(("tools", 0, "a/b", "c~d")) == "/tools/0/a~1b/c~0d"


def test_text_rendering() -> None:
    diagnostic = Diagnostic(
        Code.DUPLICATE_ID, 'id "x" repeats', "t.yaml", 3, 7, "/tools/1/id", hint="rename"
    )
    assert render_text(diagnostic) == (
        't.yaml:3:7: DUPLICATE_ID error: id "x" repeats (at /tools/1/id)\n  hint: rename'
    )
    bare = Diagnostic(Code.DRIFT_MISSING, "missing", "a.ts", severity=Severity.WARNING)
    assert render_text(bare) == "a.ts: DRIFT_MISSING warning: missing"


def test_github_rendering_escapes_properties_and_data() -> None:
    diagnostic = Diagnostic(Code.SCHEMA_VIOLATION, "50% bad\nline", "dir,a:b.yaml", 1, 2, "")
    assert render_github(diagnostic) == (
        "::error file=dir%2Ca%3Ab.yaml,line=1,col=2,title=SCHEMA_VIOLATION::50%25 bad\\u000aline (at /)"
    )


def test_json_rendering() -> None:
    diagnostic = Diagnostic(Code.UNKNOWN_FIELD, "unknown", "t.yaml", 1, 1, "/x")
    document = json.loads(render_json([diagnostic], extra=1))
    assert document == {
        "diagnostics": [
            {
                "code": "UNKNOWN_FIELD",
                "severity": "error",
                "source": "t.yaml",
                "line": 1,
                "column": 1,
                "pointer": "/x",
                "message": "unknown",
                "hint": None,
            }
        ],
        "summary": {"errors": 1, "warnings": 0, "notes": 0, "files": ["t.yaml"]},
        "extra": 1,
    }


def test_a_broken_template_is_a_generation_failure_naming_the_file(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    (templates / "typescript/index.ts.jinja").write_text("{{ no_such_variable }}\n")
    result = build_outputs(load_config(REPO), environment=make_environment(templates))
    assert not result.ok and result.outputs == {}
    [failure] = result.diagnostics
    assert (failure.code, failure.source) == (
        Code.GENERATION_FAILED,
        "generated/typescript/index.ts",
    )
    assert "typescript/index.ts.jinja" in failure.message and "no_such_variable" in failure.message


def test_python_that_does_not_parse_is_a_generation_failure(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, templates)
    (templates / "python/prompt_args.py.jinja").write_text("def broken(:\n")
    result = build_outputs(load_config(REPO), environment=make_environment(templates))
    assert not result.ok and result.outputs == {}
    [failure] = result.diagnostics
    assert failure.code is Code.GENERATION_FAILED
    assert failure.source == "generated/python/tool_registry/prompt_args.py"

"""The command line: exit codes, output formats, atomic writes, orphan removal, no tracebacks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import REPO, run_toolgen

Run = Callable[..., tuple[int, str, str]]


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@dataclass(frozen=True)
class Broken:
    """Where ``_break_table`` put the bad value, found in the text independently of toolgen."""

    line: int
    column: int
    pointer: str


def _break_table(project: Path) -> Broken:
    """Make the first ``hookCapable: false`` of the table a string (whatever the rows are)."""
    table = project / "schema/tools.yaml"
    text = table.read_text()
    at = text.index("hookCapable: false") + len("hookCapable: ")
    table.write_text(text[:at] + "nope" + text[at + len("false") :])
    line_start = text.rindex("\n", 0, at) + 1
    row = text.count("\n  - id:", 0, at) - 1
    return Broken(text.count("\n", 0, at) + 1, at - line_start + 1, f"/tools/{row}/hookCapable")


def test_generate_on_an_up_to_date_project_changes_nothing(project: Path, run_cli: Run) -> None:
    before = _snapshot(project)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert "0 changed" in err
    assert _snapshot(project) == before


def test_generate_touches_nothing_when_any_input_is_invalid(project: Path, run_cli: Run) -> None:
    (project / "generated/typescript/index.ts").write_text("// stale\n")
    broken = _break_table(project)
    before = _snapshot(project)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 1
    where = f"schema/tools.yaml:{broken.line}:{broken.column}"
    assert f"{where}: SCHEMA_VIOLATION error: must be of type boolean" in err
    assert _snapshot(project) == before


def test_generate_rewrites_drifted_files_and_removes_orphans(project: Path, run_cli: Run) -> None:
    index = project / "generated/typescript/index.ts"
    expected = index.read_bytes()
    index.write_text("// hand edit\n")
    orphan = project / "generated/python/tool_registry/old_module.py"
    orphan.write_text("x = 1\n")
    (project / "generated/typescript/gone").mkdir()
    (project / "generated/typescript/gone/file.ts").write_text("export {};\n")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert index.read_bytes() == expected
    assert not orphan.exists()
    assert not (project / "generated/typescript/gone").exists()
    leftovers = [p for p in project.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    assert run_cli("check", "--project", str(project))[0] == 0


def test_generate_creates_missing_output_folders(project: Path, run_cli: Run) -> None:
    import shutil

    shutil.rmtree(project / "generated")
    assert run_cli("check", "--project", str(project))[0] == 1
    assert run_cli("generate", "--project", str(project))[0] == 0
    assert run_cli("check", "--project", str(project))[0] == 0


def test_json_format(project: Path, run_cli: Run) -> None:
    broken = _break_table(project)
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    document = json.loads(out)
    [diagnostic] = document["diagnostics"]
    assert diagnostic["code"] == "SCHEMA_VIOLATION"
    assert diagnostic["severity"] == "error"
    assert (diagnostic["source"], diagnostic["line"], diagnostic["column"]) == (
        "schema/tools.yaml",
        broken.line,
        broken.column,
    )
    assert diagnostic["pointer"] == broken.pointer


def test_json_format_for_drift_carries_the_diffs(project: Path, run_cli: Run) -> None:
    (project / "generated/typescript/index.ts").write_text("// edited\n")
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert [d["code"] for d in document["diagnostics"]] == ["DRIFT_CHANGED"]
    assert "-// edited" in document["diffs"]["generated/typescript/index.ts"]


def test_github_format(project: Path, run_cli: Run) -> None:
    broken = _break_table(project)
    code, out, _ = run_cli("check", "--project", str(project), "--format", "github")
    assert code == 1
    assert out.startswith(
        f"::error file=schema/tools.yaml,line={broken.line},col={broken.column},"
        "title=SCHEMA_VIOLATION::must be of type boolean"
    )


def test_github_format_escapes_newlines_in_messages(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("id: cursor", 'id: "cur\\nsor%"'))
    code, out, _ = run_cli("check", "--project", str(project), "--format", "github")
    assert code == 1
    [line] = out.splitlines()
    assert line.startswith("::error ") and "%25" in line


def test_a_generated_file_replaced_by_binary_is_changed_not_missing(
    project: Path, run_cli: Run
) -> None:
    (project / "generated/typescript/index.ts").write_bytes(b"\xff\xfe\x00")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "generated/typescript/index.ts: DRIFT_CHANGED error: unreadable or not UTF-8" in err


def test_usage_errors_exit_2(project: Path, run_cli: Run, tmp_path: Path) -> None:
    assert run_cli()[0] == 2
    assert run_cli("frobnicate")[0] == 2
    assert run_cli("check", "--format", "xml")[0] == 2
    code, _, err = run_cli("check", "--project", str(tmp_path / "nowhere"))
    assert code == 2 and "pyproject.toml" in err


@pytest.mark.parametrize(
    "section",
    [
        '[tool.toolgen]\nbogus = "x"\n',
        '[tool.toolgen]\npython_out = "/etc"\n',
        '[tool.toolgen]\npython_out = "../outside"\n',
        '[tool.toolgen]\npython_out = "generated"\ntypescript_out = "generated/ts"\n',
        '[tool.toolgen]\npython_out = "schema"\n',
        "[tool.toolgen\n",
        "tool = 1\n",
        "[tool]\ntoolgen = 1\n",
    ],
)
def test_bad_configuration_exits_2(tmp_path: Path, run_cli: Run, section: str) -> None:
    (tmp_path / "pyproject.toml").write_text(section)
    code, _, err = run_cli("check", "--project", str(tmp_path))
    assert code == 2
    assert err.startswith("toolgen: ") and "Traceback" not in err


def test_output_folders_are_configurable(project: Path, run_cli: Run) -> None:
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text().replace(
        'typescript_out = "generated/typescript"', 'typescript_out = "packages/shared/src/registry"'
    )
    pyproject.write_text(text)
    assert run_cli("generate", "--project", str(project))[0] == 0
    moved = sorted(p.name for p in (project / "packages/shared/src/registry").iterdir())
    # Every TypeScript output (this repository's also makes it an npm package) moved.
    assert moved == sorted(p.name for p in (REPO / "generated/typescript").iterdir() if p.is_file())
    assert {
        "index.ts",
        "types.ts",
        "loader.ts",
        "detection.ts",
        "package.json",
        "tsconfig.json",
    } <= set(moved)
    for name in moved:
        committed = (REPO / "generated/typescript" / name).read_bytes()
        assert (project / "packages/shared/src/registry" / name).read_bytes() == committed
    assert run_cli("check", "--project", str(project))[0] == 0


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not utf-8",
        b"tools: [",
        b"",
        b"- just\n- a list\n",
        b"tools: *nothing\n",
        b"a: !!python/object/apply:os.system ['echo pwned']\n",
        b"[" * 5000,
        b"tools:\n  - \x00\n",
    ],
)
def test_no_traceback_for_any_bad_table(project: Path, content: bytes) -> None:
    (project / "schema/tools.yaml").write_bytes(content)
    result = run_toolgen("generate", "--project", str(project))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("schema/tools.yaml")


def test_missing_source_file_is_a_finding(project: Path) -> None:
    os.remove(project / "schema/tools-table.schema.json")
    result = run_toolgen("check", "--project", str(project))
    assert result.returncode == 1
    assert "schema/tools-table.schema.json: FILE_NOT_FOUND" in result.stderr


def test_the_project_is_found_from_a_subfolder(project: Path) -> None:
    result = run_toolgen("check", cwd=project / "generated/typescript")
    assert result.returncode == 0, result.stderr
    (project / "generated/typescript/index.ts").write_text("// edited\n")
    result = run_toolgen("check", cwd=project / "schema")
    assert (
        result.returncode == 1 and "generated/typescript/index.ts: DRIFT_CHANGED" in result.stderr
    )


def test_console_script_and_module_agree() -> None:
    import shutil
    import subprocess
    import sys

    script = Path(sys.executable).parent / "toolgen"
    if not script.exists():
        script_path = shutil.which("toolgen")
        assert script_path is not None, "the toolgen console script is not installed"
        script = Path(script_path)
    result = subprocess.run([str(script), "check"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert run_toolgen("check").returncode == 0


def test_a_file_that_cannot_be_written_is_reported_and_nothing_else_replaced(
    project: Path, run_cli: Run
) -> None:
    # All or nothing: writing the rest would leave old and new outputs side by side.
    blocked = project / "generated/typescript/index.ts"
    blocked.unlink()
    blocked.mkdir()
    (blocked / "keep").write_text("x")
    other = project / "generated/typescript/tools.ts"
    other.write_text("// stale\n")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert [(d["code"], d["source"]) for d in document["diagnostics"]] == [
        ("WRITE_FAILED", "generated/typescript/index.ts")
    ]
    assert document["changed"] == []
    assert other.read_text() == "// stale\n"
    assert [p.name for p in blocked.parent.iterdir() if p.name.endswith(".tmp")] == []
    (blocked / "keep").unlink()
    blocked.rmdir()
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert other.read_text() != "// stale\n"

"""A new user's flows, read literally, against hostile input: every refusal is located.

The README promises ``file:line:col: CODE error: message`` for invalid input; these are the
inputs whose findings carried no position, or a message that did not say what was wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.load import parse_yaml
from tests.conftest import REPO, copy_project

Run = Callable[..., tuple[int, str, str]]


def _sources_only(destination: Path) -> Path:
    """A project holding this repository's sources and a bare ``[tool.toolgen]`` table."""
    destination.mkdir(parents=True)
    shutil.copytree(REPO / "schema", destination / "schema")
    (destination / "pyproject.toml").write_text(
        "[tool.toolgen]\n"
        'schema = "schema/tool-manifest.schema.json"\n'
        'table = "schema/tools.yaml"\n'
        'table_schema = "schema/tools-table.schema.json"\n',
        encoding="utf-8",
    )
    return destination


def _findings(out: str) -> list[dict[str, object]]:
    document = json.loads(out)
    findings: list[dict[str, object]] = document["diagnostics"]
    return findings


# --- sources that are not UTF-8 -------------------------------------------------------------


def test_a_table_that_is_not_utf8_is_located_at_the_byte(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    table = project / "schema/tools.yaml"
    lines = table.read_bytes().split(b"\n")
    column = len(lines[4].decode("utf-8")) + len(" caf") + 1  # where the Latin-1 byte lands
    lines[4] = lines[4] + b" caf\xe9"
    table.write_bytes(b"\n".join(lines))
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = _findings(out)
    assert finding["code"] == "INVALID_ENCODING"
    assert (finding["line"], finding["column"]) == (5, column)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 1
    assert f"schema/tools.yaml:5:{column}: INVALID_ENCODING error: not valid UTF-8" in err, err
    assert not (project / "generated").exists()


def test_a_schema_with_a_bom_that_is_not_utf8_is_located_after_the_bom(
    tmp_path: Path, run_cli: Run
) -> None:
    project = _sources_only(tmp_path / "project")
    schema = project / "schema/tools-table.schema.json"
    schema.write_bytes(b'\xef\xbb\xbf{\n  "title": "\xff"\n}\n')
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = _findings(out)
    assert (finding["code"], finding["line"], finding["column"]) == ("INVALID_ENCODING", 2, 13)


def test_a_pyproject_that_does_not_parse_is_located(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.toolgen\n")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert (
        "pyproject.toml:4:14: not valid TOML: Expected ']' at the end of a table declaration\n"
    ) in err, err
    assert "(at line" not in err


def test_a_pyproject_that_ends_early_is_located_where_it_ends(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    (project / "pyproject.toml").write_text("[tool.toolgen]\nschema =")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert "pyproject.toml:2:9: not valid TOML: Invalid value\n" in err, err
    assert "end of document" not in err


def test_an_unknown_setting_is_located_at_its_key(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n  schmea = "schema/x.json"\n')
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert 'pyproject.toml:6:3: unknown [tool.toolgen] keys: "schmea"' in err, err


# --- YAML syntax errors say what failed and where it began -----------------------------------


def test_a_second_document_is_not_a_sentence_beginning_with_but() -> None:
    loaded = parse_yaml("tools: []\n---\ntools: []\n", "t.yaml")
    [problem] = loaded.diagnostics
    assert problem.code.value == "YAML_SYNTAX"
    assert problem.line == 2
    assert problem.message == (
        "expected a single document in the stream, but found another document"
    )


def test_an_unterminated_quoted_scalar_names_where_it_began() -> None:
    loaded = parse_yaml('tools:\n  - id: "abc\n    displayName: x\n', "t.yaml")
    [problem] = loaded.diagnostics
    assert (problem.code.value, problem.line) == ("YAML_SYNTAX", 4)
    assert "while scanning a quoted scalar at line 2, column 9" in problem.message, problem


def test_a_bad_indent_names_the_collection_it_broke() -> None:
    loaded = parse_yaml("tools:\n  - id: x\n   bad: y\n", "t.yaml")
    [problem] = loaded.diagnostics
    assert (problem.line, problem.column) == (3, 4)
    assert problem.message.endswith("(while parsing a block collection at line 2, column 3)")


# --- a lone surrogate in a JSON file gets JSON's advice -------------------------------------


def test_a_lone_surrogate_in_a_json_schema_gets_a_json_hint(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    schema = project / "schema/tools-table.schema.json"
    document = json.loads(schema.read_text(encoding="utf-8"))
    document["title"] = "\ud800"
    schema.write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    [finding] = [f for f in _findings(out) if f["code"] == "LONE_SURROGATE"]
    assert "YAML" not in str(finding["hint"]), finding
    assert "surrogate pair" in str(finding["hint"])


@pytest.mark.parametrize("text", ['a: "\\ud800"\n'])
def test_a_lone_surrogate_in_yaml_keeps_the_yaml_hint(text: str) -> None:
    [problem] = parse_yaml(text, "t.yaml").diagnostics
    assert problem.hint is not None and "\\U escape in YAML" in problem.hint


# --- the folder commands' workflow commands name files the runner can find -----------------

_AIDER = {
    "id": "aider",
    "displayName": "Aider",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/hive-mind-install.json",
    "detect": {"kind": "path", "binaryName": "aider"},
    "capabilities": {"provides": ["headless-task"]},
}


def _github_commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("::")]


@pytest.mark.parametrize("command", ["registry", "catalog", "detect"])
def test_a_folder_commands_annotation_names_the_adapter_by_its_path(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    folder = tmp_path / "config" / "adapters"
    folder.mkdir(parents=True)
    (folder / "aider.json").write_text(json.dumps(_AIDER), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    arguments = ("--project", str(REPO), "--adapters-dir", "config/adapters", "--format", "github")
    code, out, _ = run_cli(command, *arguments)
    assert code == 0
    granted = [line for line in _github_commands(out) if "CAPABILITY_NOT_GRANTED" in line]
    # The path the runner resolves from the working folder, not the bare name in the folder.
    assert granted == [
        "::warning file=config/adapters/aider.json,title=CAPABILITY_NOT_GRANTED::"
        "/capabilities/provides: not granted by the host: headless-task"
    ], out


def test_a_detection_record_names_its_tool_in_the_message_not_as_a_file(
    tmp_path: Path, run_cli: Run
) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    code, out, _ = run_cli(
        "detect", "--project", str(REPO), "--adapters-dir", str(folder), "--format", "github"
    )
    assert code == 0
    commands = _github_commands(out)
    assert commands, out
    for line in commands:
        # codex-desktop's NOT_DETECTABLE is about a tool: no file of that name exists.
        assert "file=" not in line, line
    assert any(
        line.startswith("::warning title=NOT_DETECTABLE::codex-desktop: ") for line in commands
    ), commands


def test_a_record_about_the_folder_is_no_file_annotation(tmp_path: Path, run_cli: Run) -> None:
    not_a_folder = tmp_path / "adapters.txt"
    not_a_folder.write_text("")
    code, out, _ = run_cli(
        "registry",
        "--project",
        str(REPO),
        "--adapters-dir",
        str(not_a_folder),
        "--format",
        "github",
    )
    assert code == 0
    [line] = _github_commands(out)
    assert line.startswith(f"::error title=UNREADABLE::{not_a_folder}: "), line


# --- a project in a subfolder of the repository, annotated in a workflow ---------------------


def _project_in_a_subfolder(workspace: Path) -> Path:
    project = _sources_only(workspace / "packages" / "registry")
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text(encoding="utf-8") + "unknownTopLevel: 1\n", encoding="utf-8")
    return project


def test_a_workflow_annotation_names_the_file_from_the_workspace(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project_in_a_subfolder(tmp_path)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "github")
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("::")]
    assert lines, out
    for line in lines:
        assert line.startswith("::error file=packages/registry/schema/tools.yaml,line="), line


def test_outside_a_workflow_the_annotation_names_the_file_from_the_project(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project_in_a_subfolder(tmp_path)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "github")
    assert code == 1
    assert out.startswith("::error file=schema/tools.yaml,line="), out


def test_a_source_outside_the_workspace_keeps_its_project_path(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project_in_a_subfolder(tmp_path / "elsewhere")
    (tmp_path / "workspace").mkdir()
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "workspace"))
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "github")
    assert code == 1
    assert out.startswith("::error file=schema/tools.yaml,line="), out


def test_validate_in_a_subfolder_annotates_the_file_from_the_workspace(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    subfolder = tmp_path / "packages" / "registry"
    (subfolder / "adapters").mkdir(parents=True)
    (subfolder / "adapters" / "bad.json").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(subfolder)  # a workflow step with its own working-directory
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    code, out, _ = run_cli(
        "validate", "--project", str(REPO), "--format", "github", "adapters/bad.json"
    )
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("::")]
    assert lines, out
    for line in lines:
        assert line.startswith("::error file=packages/registry/adapters/bad.json,"), line
    monkeypatch.delenv("GITHUB_WORKSPACE")
    code, out, _ = run_cli(
        "validate", "--project", str(REPO), "--format", "github", "adapters/bad.json"
    )
    assert out.startswith("::error file=adapters/bad.json,"), out


# --- an empty folder option (an unset variable) names no folder ------------------------------


@pytest.mark.parametrize(
    ("option", "arguments"),
    [
        ("project", ("check", "--project", "")),
        ("project", ("generate", "--project=")),
        ("adapters-dir", ("registry", "--project", str(REPO), "--adapters-dir", "")),
        ("adapters-dir", ("detect", "--project", str(REPO), "--adapters-dir=")),
    ],
)
def test_an_empty_folder_option_is_a_usage_error(
    tmp_path: Path,
    run_cli: Run,
    monkeypatch: pytest.MonkeyPatch,
    option: str,
    arguments: tuple[str, ...],
) -> None:
    # The current folder is a project: an empty --project must not quietly be it.
    project = _sources_only(tmp_path / "project")
    monkeypatch.chdir(project)
    code, out, _ = run_cli(*arguments, "--format", "json")
    assert code == 2
    assert json.loads(out)["error"] == {
        "kind": "usage",
        "message": f"argument --{option}: an empty value names no folder",
    }
    assert not (project / "generated").exists()


def test_validate_refuses_an_empty_file_name(run_cli: Run) -> None:
    code, out, _ = run_cli("validate", "--project", str(REPO), "--format", "json", "")
    assert code == 2
    assert json.loads(out)["error"] == {
        "kind": "usage",
        "message": "argument FILE: an empty value names no file",
    }


def test_the_readme_package_flow_leaves_no_untracked_tarball() -> None:
    """`npm pack ./generated/typescript`, run as the README writes it, leaves
    ``tool-registry-0.1.0.tgz`` in the checkout: ignored, so `git status` stays clean."""
    git = shutil.which("git")
    if git is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        [git, "check-ignore", "-q", "--no-index", "tool-registry-0.1.0.tgz"],
        cwd=REPO,
        check=False,
    )
    assert ignored.returncode == 0


def test_breaking_without_git_says_what_to_do(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _sources_only(tmp_path / "project")
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    code, _, err = run_cli("breaking", "--against", "HEAD", "--project", str(project))
    assert code == 2
    assert "git is not on PATH" in err and "--against a folder" in err, err


# --- a C locale without UTF-8 mode, and folders whose names are not UTF-8 --------------------

_ASCII_LOCALE = {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}


def _run_in_ascii_locale(*arguments: str | bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"generator",
         *(a if isinstance(a, bytes) else os.fsencode(a) for a in arguments)],
        cwd=cwd,
        env={**os.environ, **_ASCII_LOCALE, "PYTHONPATH": str(REPO)},
        capture_output=True,
        check=False,
    )  # fmt: skip


def _require_an_ascii_file_system_encoding(cwd: Path) -> None:
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.getfilesystemencoding())"],
        cwd=cwd,
        env={**os.environ, **_ASCII_LOCALE},
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.stdout.strip().lower() not in {"ascii", "ansi_x3.4-1968"}:
        pytest.skip("this Python names files in UTF-8 even under LC_ALL=C")


def test_a_non_ascii_setting_under_an_ascii_locale_is_a_located_usage_error(
    tmp_path: Path,
) -> None:
    project = _sources_only(tmp_path / "project")
    _require_an_ascii_file_system_encoding(project)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8") + 'python_out = "out/py \u00fc"\n', encoding="utf-8"
    )
    completed = _run_in_ascii_locale("generate", "--project", str(project), cwd=project)
    err = completed.stderr.decode("ascii", "replace")
    assert completed.returncode == 2, err
    assert "pyproject.toml:5:1: tool.toolgen.python_out cannot be named" in err, err
    assert "UTF-8 locale" in err and "internal error" not in err
    assert not (project / "out").exists()


def test_add_tool_reads_a_utf8_argument_under_an_ascii_locale(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    _require_an_ascii_file_system_encoding(project)
    completed = _run_in_ascii_locale(
        "add-tool", "acme-agent", "--display-name", "\u00c4cme Agent".encode(),
        "--detect", "path", "--binary", "acme", "--launchable", "--no-hook-capable",
        "--hook-pointer", ".acme/x.json", "--project", str(project),
        cwd=project,
    )  # fmt: skip
    err = completed.stderr.decode("ascii", "replace")
    assert completed.returncode == 0, err
    table = (project / "schema/tools.yaml").read_text(encoding="utf-8")
    assert 'displayName: "\u00c4cme Agent"' in table or "displayName: \u00c4cme Agent" in table


def test_runtime_commands_run_in_a_project_whose_path_is_not_utf8(
    tmp_path: Path, run_cli: Run
) -> None:
    project = copy_project(Path(os.fsdecode(os.fsencode(tmp_path) + b"/proj\xffect")))
    for command in ("registry", "catalog", "detect"):
        code, out, err = run_cli(command, "--project", str(project), "--format", "json")
        assert code == 0, err
        assert "internal error" not in out + err
    code, out, _ = run_cli("validate", "--project", str(project), "--format", "json", "x.json")
    assert code == 1 and json.loads(out)["files"][0]["accepted"] is False


def test_a_pyproject_with_a_byte_order_mark_says_so(tmp_path: Path, run_cli: Run) -> None:
    project = _sources_only(tmp_path / "project")
    pyproject = project / "pyproject.toml"
    pyproject.write_bytes(b"\xef\xbb\xbf" + pyproject.read_bytes())
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert "pyproject.toml:1:1: not valid TOML: Invalid statement (a byte order mark" in err, err


def _latin1_locale(folder: Path) -> dict[str, str]:
    """The environment of a Latin-1 locale (built with ``localedef`` into ``folder`` when the
    system has none), or a skip."""
    localedef = shutil.which("localedef")
    if localedef is None or not Path("/usr/share/i18n/locales/de_DE").exists():
        pytest.skip("no localedef, or no locale sources to build a Latin-1 locale from")
    folder.mkdir(parents=True, exist_ok=True)
    built = subprocess.run(
        [localedef, "-i", "de_DE", "-f", "ISO-8859-1", str(folder / "de_DE.ISO-8859-1")],
        capture_output=True,
        check=False,
    )
    environment = {"LOCPATH": str(folder), "LC_ALL": "de_DE.ISO-8859-1"}
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; print(sys.getfilesystemencoding())"],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode not in (0, 1) or probe.stdout.strip() != "iso8859-1":
        pytest.skip("a Latin-1 locale could not be built here")
    return environment


def _run_in(
    environment: dict[str, str], *arguments: str | bytes, cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"generator",
         *(a if isinstance(a, bytes) else a.encode("utf-8") for a in arguments)],
        cwd=cwd,
        env={**os.environ, **environment, "PYTHONPATH": str(REPO)},
        capture_output=True,
        check=False,
    )  # fmt: skip


def test_a_non_ascii_setting_under_a_latin1_locale_names_no_other_folder(tmp_path: Path) -> None:
    environment = _latin1_locale(tmp_path / "locales")
    project = _sources_only(tmp_path / "project")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8") + 'python_out = "out/py \u00fc"\n', encoding="utf-8"
    )
    completed = _run_in(environment, "generate", "--project", str(project), cwd=project)
    err = completed.stderr.decode("latin-1")
    assert completed.returncode == 2, err
    assert "pyproject.toml:5:1: tool.toolgen.python_out cannot be named" in err, err
    # "py \u00fc" in Latin-1 is another folder than the UTF-8 one every other machine writes.
    assert not (project / "out").exists()


def test_add_tool_under_a_latin1_locale_writes_no_mojibake(tmp_path: Path) -> None:
    environment = _latin1_locale(tmp_path / "locales")
    project = copy_project(tmp_path / "project")
    completed = _run_in(
        environment,
        "add-tool", "acme-agent", "--display-name", "Caf\u00e9 Agent",
        "--detect", "path", "--binary", "acme", "--launchable", "--no-hook-capable",
        "--hook-pointer", ".acme/x.json", "--project", str(project),
        cwd=project,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr.decode("latin-1")
    table = (project / "schema/tools.yaml").read_text(encoding="utf-8")
    assert "Caf\u00e9 Agent" in table
    assert "Caf\u00c3" not in table  # UTF-8 read as Latin-1


def test_a_linked_adapter_is_annotated_where_it_is_listed(
    tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "real.json").write_text("{}", encoding="utf-8")
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "bad.json").symlink_to(tmp_path / "store" / "real.json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    code, out, _ = run_cli(
        "validate", "--project", str(REPO), "--format", "github", "adapters/bad.json"
    )
    assert code == 1
    assert out.startswith("::error file=adapters/bad.json,"), out


def test_add_tool_under_a_latin1_locale_quotes_the_id_it_was_given(tmp_path: Path) -> None:
    environment = _latin1_locale(tmp_path / "locales")
    project = copy_project(tmp_path / "project")
    before = (project / "schema/tools.yaml").read_bytes()
    completed = _run_in(
        environment,
        "add-tool", "caf\u00e9", "--display-name", "Cafe",
        "--detect", "path", "--binary", "cafe", "--launchable", "--no-hook-capable",
        "--hook-pointer", ".cafe/x.json", "--project", str(project),
        cwd=project,
    )  # fmt: skip
    assert completed.returncode == 1
    # The id is refused by its pattern, quoted as typed (Latin-1 on this terminal), not as the
    # Latin-1 reading of its UTF-8 bytes ("caf\u00c3\u00a9").
    assert b'"caf\xe9"' in completed.stderr, completed.stderr
    assert (project / "schema/tools.yaml").read_bytes() == before


def test_validate_under_a_latin1_locale_names_the_file_as_written(tmp_path: Path) -> None:
    environment = _latin1_locale(tmp_path / "locales")
    (tmp_path / "\u00e4ider.json").write_text("{}", encoding="utf-8")
    completed = _run_in(
        environment, "validate", "--project", str(REPO), "--format", "json", "\u00e4ider.json",
        cwd=tmp_path,
    )  # fmt: skip
    assert completed.returncode == 1, completed.stderr
    [report] = json.loads(completed.stdout)["files"]
    assert report["source"] == "\u00e4ider.json"

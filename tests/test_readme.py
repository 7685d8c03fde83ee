"""The README's runtime code table is generated: it matches the one code table, the generated enum
matches it too, and a stale table is drift that ``check`` reports and ``generate`` repairs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tool_registry import DiagnosticCode
from tool_registry.diagnostics import SEVERITY

from generator.readme import BEGIN, END, ReadmeError, splice
from generator.runtime_codes import RUNTIME_CODES, readme_table

from .conftest import REPO, copy_project, run_toolgen


def test_the_committed_readme_carries_the_current_table() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    region = text.split(BEGIN, 1)[1].split(END, 1)[0]
    assert region == "\n" + readme_table()
    for code in RUNTIME_CODES:
        assert f"| `{code.name}` | {code.severity} |" in region


def test_the_generated_enum_is_the_table() -> None:
    assert [code.value for code in DiagnosticCode] == [code.name for code in RUNTIME_CODES]
    assert {code.value: SEVERITY[code].value for code in DiagnosticCode} == {
        code.name: code.severity for code in RUNTIME_CODES
    }


def test_splice_replaces_only_the_region() -> None:
    text = f"intro\n{BEGIN}\nstale\n{END}\noutro\n"
    assert splice(text, "| t |\n") == f"intro\n{BEGIN}\n| t |\n{END}\noutro\n"
    assert splice("no markers\n", "| t |\n") is None


@pytest.mark.parametrize(
    "text", [f"{END}\n{BEGIN}\n", f"{BEGIN}\n{BEGIN}\n{END}\n", f"{BEGIN}\nno end\n"]
)
def test_broken_markers_are_refused(text: str) -> None:
    with pytest.raises(ReadmeError):
        splice(text, "| t |\n")


def test_a_stale_table_is_drift_until_generate(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    readme = project / "README.md"
    readme.write_text(f"# Title\n\n{BEGIN}\n| `OLD` | error | gone |\n{END}\n\nMore.\n")
    completed = run_toolgen("check", "--project", str(project), "--format", "json")
    assert completed.returncode == 1
    (diagnostic,) = json.loads(completed.stdout)["diagnostics"]
    assert (diagnostic["code"], diagnostic["source"]) == ("DRIFT_CHANGED", "README.md")
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert readme.read_text() == f"# Title\n\n{BEGIN}\n{readme_table()}{END}\n\nMore.\n"
    assert run_toolgen("check", "--project", str(project)).returncode == 0


@pytest.mark.parametrize(
    ("bom", "newline", "ending"),
    [
        (b"", b"\r\n", b"\r\n"),
        (b"\xef\xbb\xbf", b"\n", b"\n"),
        (b"", b"\n", b"\n\n\n"),
        (b"", b"\n", b""),
    ],
)
def test_generate_rewrites_only_the_region_of_the_readme(
    tmp_path: Path, bom: bytes, newline: bytes, ending: bytes
) -> None:
    # The README is the maintainer's file: its byte order mark, line endings and last lines stay
    # as they are (a CRLF README was rewritten to LF throughout, a BOM dropped, trailing blank
    # lines cut, and check called the file drift while its table was current).
    project = copy_project(tmp_path / "project")
    readme = project / "README.md"

    def written(region: str) -> bytes:
        lines = ["# Title", "", BEGIN, *region.splitlines(), END, "", "More.\r in a line"]
        return bom + newline.join(line.encode() for line in lines) + ending

    readme.write_bytes(written(readme_table()))
    current = readme.read_bytes()
    assert run_toolgen("check", "--project", str(project)).returncode == 0
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert readme.read_bytes() == current
    readme.write_bytes(written("| `OLD` | error | gone |\n"))
    assert run_toolgen("check", "--project", str(project)).returncode == 1
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert readme.read_bytes() == current
    assert run_toolgen("check", "--project", str(project)).returncode == 0
    assert run_toolgen("check", "--full", "--project", str(project)).returncode == 0


def test_broken_markers_are_a_located_generation_error(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    (project / "README.md").write_text(f"{END}\n{BEGIN}\n")
    completed = run_toolgen("generate", "--project", str(project), "--format", "json")
    assert completed.returncode == 1
    (diagnostic,) = json.loads(completed.stdout)["diagnostics"]
    assert (diagnostic["code"], diagnostic["source"]) == ("GENERATION_FAILED", "README.md")


def _flow(marker: str) -> list[list[str]]:
    """The commands of the README's ``sh`` block after ``<!-- readme-flow:MARKER -->``."""
    import shlex

    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split(f"<!-- readme-flow:{marker} -->\n```sh\n", 1)[1].split("```", 1)[0]
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def test_the_add_tool_flow_runs_as_written(tmp_path: Path) -> None:
    """The maintainer flow of the README, command by command, in a fresh git repository."""
    import subprocess

    project = copy_project(tmp_path / "project")
    for arguments in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "base"],
    ):
        subprocess.run(["git", *arguments], cwd=project, check=True, capture_output=True)  # noqa: S607
    commands = _flow("add-tool")
    from tool_registry import SUPPORTED_TOOLS

    if commands[0][2] in SUPPORTED_TOOLS:
        # A maintainer ran the example itself (README: the tests stay green after an addition):
        # the same command with an id of its own.
        commands[0][2] = next(
            f"{commands[0][2]}-{n}"
            for n in range(2, 99)
            if f"{commands[0][2]}-{n}" not in SUPPORTED_TOOLS
        )
    assert [command[:2] for command in commands] == [
        ["toolgen", "add-tool"],
        ["toolgen", "check"],
        ["toolgen", "breaking"],
    ]
    outputs = []
    for command in commands:
        completed = run_toolgen(*command[1:], cwd=project)
        assert completed.returncode == 0, (command, completed.stderr)
        outputs.append(completed.stdout)
    added = commands[0][2]
    table = (project / "schema/tools.yaml").read_text()
    assert f"  - id: {added}\n" in table
    # "prints what changed (files written, the new id, cohorts joined, capabilities provided)"
    summary = outputs[0]
    option = commands[0]
    provided = [option[i + 1] for i, word in enumerate(option) if word == "--capability"]
    assert summary.startswith(f"added {added} to schema/tools.yaml\n")
    assert "  cohorts joined: " in summary
    assert f"  capabilities provided: {', '.join(provided)}\n" in summary
    assert "  files written:\n    schema/tools.yaml\n" in summary
    # The row goes after the row --after names, separated by a blank line.
    after = option[option.index("--after") + 1]
    rows = [line.split(": ", 1)[1] for line in table.splitlines() if line.startswith("  - id: ")]
    assert rows[rows.index(after) + 1] == added
    assert f"\n\n  - id: {added}\n" in table
    breaking = run_toolgen("breaking", "--against", "HEAD", "--format", "json", cwd=project)
    found = json.loads(breaking.stdout)["diagnostics"]
    assert {(d["code"], d["subject"]) for d in found} == {("SAFE_ADDITION", added)}


def test_the_readme_links_the_generated_reference() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "](generated/docs/reference.md)" in text
    assert (REPO / "generated/docs/reference.md").is_file()


def test_the_acknowledgement_example_acknowledges(tmp_path: Path) -> None:
    import subprocess

    text = (REPO / "README.md").read_text(encoding="utf-8")
    example = text.split("```yaml\nacknowledgedBreaking:\n", 1)[1].split("```", 1)[0]
    project = copy_project(tmp_path / "project")
    table = project / "schema/tools.yaml"
    original = table.read_text()
    for arguments in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *arguments],  # noqa: S607
            cwd=project,
            check=True,
            capture_output=True,
        )
    kept = original[: original.index("  - id: openclaw\n")].rstrip("\n") + "\n"
    table.write_text(kept)
    assert run_toolgen("breaking", "--against", "HEAD", cwd=project).returncode == 1
    table.write_text(kept + "\nacknowledgedBreaking:\n" + example)
    completed = run_toolgen("breaking", "--against", "HEAD", "--format", "json", cwd=project)
    assert completed.returncode == 0, completed.stdout
    (record,) = json.loads(completed.stdout)["diagnostics"]
    assert (record["code"], record["severity"]) == ("BREAKING_TOOL_REMOVED", "warning")


EXAMPLE = re.compile(r"<!-- example-adapter: ([a-z0-9-]+\.json) -->\n```json\n(.*?)\n```", re.S)


def test_the_readme_example_adapters_pass_toolgen_validate(tmp_path: Path) -> None:
    examples = EXAMPLE.findall((REPO / "README.md").read_text(encoding="utf-8"))
    documents = {name: json.loads(text) for name, text in examples}
    assert sorted(d["category"] for d in documents.values()) == ["cli-agent", "mcp-server"]
    for name, text in examples:
        (tmp_path / name).write_text(text, encoding="utf-8")
    paths = [str(tmp_path / name) for name, _ in examples]
    completed = run_toolgen("validate", *paths, "--format", "json")
    assert completed.returncode == 0, completed.stdout
    files = json.loads(completed.stdout)["files"]
    assert [(f["accepted"], f["id"], f["diagnostics"]) for f in files] == [
        (True, documents[name]["id"], []) for name, _ in examples
    ]
    # Both load from a folder too, as the README describes: the agent routes nothing until
    # granted, the server is inert.
    catalog = run_toolgen("catalog", "--adapters-dir", str(tmp_path), "--format", "json")
    tools = {
        tool["id"]: tool
        for category in json.loads(catalog.stdout)["categories"]
        for library in category["libraries"]
        for tool in library["tools"]
    }
    assert tools["aider"]["notGranted"] == ["headless-task", "resumable"]
    assert tools["files-mcp"]["inert"] is True


def test_the_catalog_example_is_what_the_catalog_holds(tmp_path: Path) -> None:
    """README, "Libraries, categories and the catalog": the example is what
    ``registry.catalog()`` holds for a folder holding the README's ``aider.json``, with the grants
    the sentence before it names (the built-ins left out, whatever the table holds)."""
    from tool_registry import get_tool_registry

    text = (REPO / "README.md").read_text(encoding="utf-8")
    before, block = text.split("<!-- readme-example:catalog -->\n```json\n", 1)
    example = json.loads(block.split("```", 1)[0])
    sentence = " ".join(before[before.rindex("`registry.catalog()`") :].split())
    match = re.search(
        r"holding the `([a-z0-9-]+\.json)` adapter below, with `grants=(\{.*?\})`", sentence
    )
    assert match is not None, sentence
    name, grants = match[1], json.loads(match[2])
    adapters = dict(EXAMPLE.findall(text))
    (tmp_path / name).write_text(adapters[name], encoding="utf-8")
    catalog = get_tool_registry(str(tmp_path), grants=grants).catalog()
    json.dumps(catalog)  # JSON-serialisable, as the README says
    third_party = {
        "categories": [
            {**category, "libraries": kept}
            for category in catalog["categories"]
            if (
                kept := [
                    library
                    for library in category["libraries"]
                    if not all(tool["builtin"] for tool in library["tools"])
                ]
            )
        ]
    }
    assert third_party == example


def _generated_table() -> list[tuple[list[str], list[str]]]:
    """The rows of "What is generated from what": (the files a row names, the identifiers its
    contents column names)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## What is generated from what\n", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in section.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        files: list[str] = []
        for name in re.findall(r"`([^`]+)`", cells[0]):
            if name.startswith("generated/"):
                files.append(name)
            elif name.startswith("../"):
                files.append(str(Path(files[-1]).parent.parent / name[3:]))
            elif "/" not in name and "." in name and files:
                files.append(str(Path(files[-1]).parent / name))
        rows.append((files, re.findall(r"`([A-Za-z_]\w*)`", cells[-1])))
    return rows


def test_the_generated_files_table_names_every_generated_file_and_what_it_defines() -> None:
    """README, "What is generated from what": every file ``generate`` writes under
    ``generated/`` has its row, and every name a row's contents list is in that row's files."""
    rows = _generated_table()
    named = [name for files, _ in rows for name in files]
    committed = sorted(
        path.relative_to(REPO).as_posix()
        for path in (REPO / "generated").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )
    assert sorted(named) == committed
    for files, names in rows:
        text = "".join((REPO / name).read_text(encoding="utf-8") for name in files)
        missing = [n for n in names if n != "examples" and not re.search(rf"\b{n}\b", text)]
        assert missing == [], (files, missing)


def _codes_of_table(section: str) -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    body = text.split(f"\n{section}\n", 1)[1].split("\n### ", 1)[0]
    rows = [line.split(" | ", 1)[0] for line in body.splitlines() if line.startswith("| `")]
    return [name for row in rows for name in re.findall(r"`([A-Z_…]+)`", row)]


def test_the_readme_code_tables_list_every_build_time_code_once() -> None:
    """README, "Diagnostic codes" (``BREAKING_…`` standing for the codes of the ``toolgen
    breaking`` table, where ``…_X`` is ``BREAKING_SCHEMA_X``): every code ``generator`` reports
    is listed, once, and nothing else."""
    from generator.diagnostics import Code

    listed = _codes_of_table("### Diagnostic codes")
    breaking = [
        name.replace("…_", "BREAKING_SCHEMA_")
        for name in _codes_of_table("### `toolgen breaking`")
        if name.startswith(("BREAKING_", "…_"))
    ]
    assert "BREAKING_…" in listed
    listed = [name for name in listed if name != "BREAKING_…"]
    assert sorted(listed + breaking) == sorted(code.value for code in Code)


def test_the_prompt_argument_codes_and_launch_reasons_are_the_runtime_s() -> None:
    """README, "Prompt arguments": the table lists ``PromptArgError``'s codes, one per row, in
    ``CODES``'s order; "The launch guard": the reasons, "checked in that order", are the enum's."""
    from tool_registry import NotLaunchableReason, prompt_args

    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n### Prompt arguments\n", 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    assert re.findall(r"^\| `([A-Z_]+)` \|", section, re.M) == list(prompt_args.CODES)
    guard = " ".join(text.split("\n### The launch guard\n", 1)[1].split())
    sentence = guard.split("is ", 1)[1].split(", checked in that order", 1)[0]
    assert re.findall(r"`([A-Z_]+)`", sentence) == [reason.value for reason in NotLaunchableReason]


def test_every_repository_path_the_readme_names_exists() -> None:
    """A file or folder of this repository the README names in code (``tests/test_install.py``,
    ``generator/plan.py``, ``.ci/run``, …) is there; and the layout's folders too."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    roots = ("tests/", "generator/", "bench/", "schema/", "generated/", ".ci/")
    named = {
        path
        for path in re.findall(r"`([^`\s]+)`", text)
        if path.startswith(roots) and "*" not in path and "…" not in path
    }
    assert len(named) > 50
    assert sorted(path for path in named if not (REPO / path).exists()) == []
    layout = text.split("\n## Layout\n", 1)[1].split("```\n", 2)[1]
    folders = re.findall(r"^ *([a-z]+/) ", layout, re.M)
    assert folders == ["schema/", "generator/", "templates/", "generated/", "tests/", "bench/"]
    assert all((REPO / folder).is_dir() for folder in folders if folder != "templates/")
    assert (REPO / "generator/templates").is_dir()
    # "generator/   load → validate → ir → render (targets.py, views.py) → format → emit; …"
    (stages,) = re.findall(r"^generator/ +(.*)$", layout, re.M)
    modules = re.findall(r"[a-z_]+\.py", stages) + [
        f"{stage}.py" for stage in re.findall(r"(?:^|→ )([a-z_]+)", stages)
    ]
    assert len(modules) >= 8
    assert [m for m in modules if not (REPO / "generator" / m).is_file()] == []


def test_the_add_tool_example_id_is_no_id_the_tests_use() -> None:
    """README: ``make test`` stays green after an addition, except for an id the tests use for a
    tool that is not built in (``acme-agent``, ``aider``); the example adds none of those."""
    (command, *_) = _flow("add-tool")
    added = command[2]
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"so the example above adds `{added}`" in " ".join(text.split())
    sources = [*(REPO / "tests").glob("*.py"), REPO / "schema/tool-manifest.schema.json"]
    assert [path.name for path in sources if added in path.read_text(encoding="utf-8")] == []


def _options_of(command: str) -> set[str]:
    import argparse

    from generator.cli import _parser

    parser = _parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    sub = commands.choices[command]
    return {o for a in sub._actions for o in a.option_strings if o.startswith("--")} - {"--help"}


def test_the_readme_synopses_name_every_option_of_each_command() -> None:
    """README, "Command line", "toolgen add-tool", "toolgen breaking" and "The runtime commands":
    the options each synopsis names are the command's, no more, no fewer (``--project`` and
    ``--format`` are every command's)."""
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    common = {"--project", "--format"}
    for spelled in (
        "`toolgen generate|check|breaking|add-tool [--project DIR] [--format text|json|github]`"
        " (also `python -m generator`; `check --full` always regenerates)",
        "`toolgen breaking --against REF` compares",
        "`toolgen validate FILE...`, `toolgen registry [",
    ):
        assert spelled in text
    synopses = {
        "generate": "",
        "check": "--full",
        "breaking": "--against",
        "validate": "",
        "add-tool": text.split("`toolgen add-tool ID ", 1)[1].split("`", 1)[0],
        "registry": text.split("`toolgen registry [", 1)[1].split("]`", 1)[0],
        "catalog": text.split("`toolgen catalog [", 1)[1].split("]`", 1)[0],
        "detect": text.split("`toolgen detect [", 1)[1].split("`", 1)[0],
    }
    for command, synopsis in synopses.items():
        named = set(re.findall(r"--[a-z][a-z-]*", synopsis)) | common
        assert named == _options_of(command), command

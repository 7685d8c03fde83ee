"""``toolgen add-tool``: one command appends a validated row (at the end or after a row), keeps
every other byte of tools.yaml, regenerates and says what changed; invalid input changes nothing;
missing fields are asked for on a terminal and are a usage error without one."""

from __future__ import annotations

import hashlib
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.cli import main

from .conftest import REPO, copy_project, probe_python, read_terminal, run_toolgen

TABLE = "schema/tools.yaml"
BASE = (
    "--display-name",
    "Acme Agent",
    "--detect",
    "path",
    "--binary",
    "acme",
    "--launchable",
    "--no-hook-capable",
    "--hook-pointer",
    ".acme/hive-mind-install.json",
)


def snapshot(project: Path) -> dict[str, str]:
    return {
        str(path.relative_to(project)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(project.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def rows(project: Path) -> list[dict[str, object]]:
    document = yaml.safe_load((project / TABLE).read_text())
    return list(document["tools"])


def test_a_row_is_appended_and_everything_regenerated(project: Path) -> None:
    before = (project / TABLE).read_text()
    completed = run_toolgen(
        "add-tool",
        "acme-agent",
        *BASE,
        "--capability",
        "interactive-launch",
        "--capability",
        "headless-task",
        "--category",
        "cli-agent",
        "--project",
        str(project),
        "--format",
        "json",
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["id"] == "acme-agent"
    assert report["cohorts"] == ["LAUNCH_COHORT"]
    assert report["capabilities"] == ["interactive-launch", "headless-task"]
    assert {
        TABLE,
        "generated/python/tool_registry/constants.py",
        "generated/typescript/tools.ts",
        "generated/docs/reference.md",
    } <= set(report["changed"])
    after = (project / TABLE).read_text()
    assert after.startswith(before)  # every byte before the new row kept
    assert after[len(before) :] == (
        "\n  - id: acme-agent\n    displayName: Acme Agent\n    launchable: true\n"
        "    hookCapable: false\n    hookPointer: .acme/hive-mind-install.json\n"
        "    detect:\n      kind: path\n      binaryName: acme\n"
        "    capabilities:\n      provides: [interactive-launch, headless-task]\n"
        "    category: cli-agent\n"
    )
    assert run_toolgen("check", "--project", str(project)).returncode == 0
    tools = probe_python(
        project / "generated/python",
        "import json, tool_registry as r; print(json.dumps(r.SUPPORTED_TOOLS))",
    )
    assert isinstance(tools, list) and tools[-1] == "acme-agent"


def test_text_output_says_what_changed(project: Path) -> None:
    completed = run_toolgen("add-tool", "acme-agent", *BASE, "--project", str(project))
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == f"added acme-agent to {TABLE}"
    assert "  cohorts joined: LAUNCH_COHORT" in lines
    assert "  capabilities provided: (none)" in lines
    assert f"    {TABLE}" in lines and "    generated/typescript/tools.ts" in lines


def test_after_inserts_there_and_keeps_every_other_byte(project: Path) -> None:
    before = (project / TABLE).read_text()
    completed = run_toolgen(
        "add-tool", "acme-agent", *BASE, "--after", "cursor", "--project", str(project)
    )
    assert completed.returncode == 0, completed.stderr
    after = (project / TABLE).read_text()
    ids = [row["id"] for row in rows(project)]
    assert ids[ids.index("cursor") + 1] == "acme-agent"
    start = after.index("  - id: acme-agent\n")
    end = after.index("  - id: ", start + 1)
    # The row and the blank line that separates it; the rest is the old file, byte for byte.
    assert after[:start] + after[end:] == before
    assert after[start - 1 : start] == "\n" and after[end - 2 : end] == "\n\n"
    assert run_toolgen("check", "--project", str(project)).returncode == 0


def test_candidates_with_paths_and_values_yaml_would_misread(project: Path) -> None:
    completed = run_toolgen(
        "add-tool",
        "acme-desktop",
        "--display-name",
        "yes",
        "--detect",
        "candidates",
        "--path",
        "win32=C:\\Program Files\\Acme\\Acme.exe",
        "--path",
        "linux=~/.local/bin/acme",
        "--path",
        "linux=/usr/bin/acme: desktop",
        "--no-launchable",
        "--hook-capable",
        "--hook-pointer",
        ".acme/x.json",
        "--project",
        str(project),
    )
    assert completed.returncode == 0, completed.stderr
    row = rows(project)[-1]
    assert row["displayName"] == "yes"
    assert row["detect"] == {
        "kind": "candidates",
        "paths": {
            "win32": ["C:\\Program Files\\Acme\\Acme.exe"],
            "linux": ["~/.local/bin/acme", "/usr/bin/acme: desktop"],
        },
    }
    assert '    displayName: "yes"\n' in (project / TABLE).read_text()
    assert run_toolgen("check", "--project", str(project)).returncode == 0


def _new_row_pointer(project: Path, field: str) -> str:
    return f"/tools/{len(rows(project))}/{field}"


@pytest.mark.parametrize(
    ("identifier", "extra", "code", "field"),
    [
        ("Bad_Id", (), "SCHEMA_VIOLATION", "id"),
        ("cursor", (), "DUPLICATE_ID", "id"),
        ("acme-agent", ("--capability", "teleport"), "SCHEMA_VIOLATION", "capabilities/provides/0"),
        ("acme-agent", ("--category", "robot"), "SCHEMA_VIOLATION", "category"),
        ("acme-agent", ("--hook-pointer", "/etc/passwd"), "SCHEMA_VIOLATION", "hookPointer"),
        ("0", (), "UNPORTABLE_KEY", "id"),
    ],
)
def test_invalid_input_changes_nothing(
    project: Path, identifier: str, extra: tuple[str, ...], code: str, field: str
) -> None:
    before = snapshot(project)
    pointer = _new_row_pointer(project, field)
    completed = run_toolgen(
        "add-tool", identifier, *BASE, *extra, "--project", str(project), "--format", "json"
    )
    assert completed.returncode == 1, completed.stderr
    found = json.loads(completed.stdout)["diagnostics"]
    assert (code, TABLE, pointer) in {(d["code"], d["source"], d["pointer"]) for d in found}
    assert all(d["line"] is not None for d in found)
    assert snapshot(project) == before


def test_an_unknown_platform_is_refused(project: Path) -> None:
    before = snapshot(project)
    completed = run_toolgen(
        "add-tool", "acme-agent", *BASE[:2], "--detect", "candidates", "--path", "beos=/x",
        "--launchable", "--no-hook-capable", "--hook-pointer", ".a/x.json",
        "--project", str(project), "--format", "json",
    )  # fmt: skip
    assert completed.returncode == 1
    found = json.loads(completed.stdout)["diagnostics"]
    assert {(d["code"], d["pointer"]) for d in found} == {
        ("UNKNOWN_FIELD", _new_row_pointer(project, "detect/paths/beos"))
    }
    assert snapshot(project) == before


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (
            ("--display-name", "Acme"),
            ["--launchable/--no-launchable", "--hook-pointer", "--detect"],
        ),
        ((*BASE[:4], *BASE[6:]), ["--binary"]),
        ((*BASE, "--after", "no-such-tool"), ["--after"]),
        ((*BASE[:2], "--detect", "candidates", "--binary", "x", *BASE[6:]), ["--binary"]),
        ((*BASE[:2], "--detect", "candidates", "--path", "nowhere", *BASE[6:]), ["--path"]),
    ],
)
def test_usage_errors_change_nothing(
    project: Path, arguments: tuple[str, ...], named: list[str]
) -> None:
    before = snapshot(project)
    completed = run_toolgen("add-tool", "acme-agent", *arguments, "--project", str(project))
    assert completed.returncode == 2
    assert completed.stderr.startswith("toolgen: add-tool: ")
    for option in named:
        assert option in completed.stderr
    assert "Traceback" not in completed.stderr
    assert snapshot(project) == before


def test_missing_fields_are_asked_for_on_a_terminal(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    controller, terminal = pty.openpty()
    answers = "Acme Agent\nmaybe\ny\nn\n.acme/x.json\npath\nacme\n"
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "add-tool", "acme-agent", "--project", str(project)],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    os.close(terminal)
    os.write(controller, answers.encode())
    output = read_terminal(controller)
    assert process.wait(timeout=60) == 0, output.decode(errors="replace")
    os.close(controller)
    text = output.decode(errors="replace")
    for question in ("display name:", "launchable? [y/n]:", "hook capable? [y/n]:", "detect kind"):
        assert question in text
    assert text.count("launchable? [y/n]:") == 2  # "maybe" is asked again
    row = rows(project)[-1]
    assert (row["id"], row["displayName"], row["launchable"], row["hookCapable"]) == (
        "acme-agent",
        "Acme Agent",
        True,
        False,
    )
    assert row["detect"] == {"kind": "path", "binaryName": "acme"}
    assert run_toolgen("check", "--project", str(project)).returncode == 0


def test_a_failed_write_leaves_the_table_byte_identical(project: Path) -> None:
    # The row was written to the table before the outputs: when an output could not be written,
    # the table held the new row while the outputs were old, and `check` reported drift.
    blocked = project / "generated/typescript/tools.ts"
    blocked.unlink()
    blocked.mkdir()  # a folder where the file belongs: the write fails
    before = snapshot(project)
    table = (project / TABLE).read_bytes()
    completed = run_toolgen("add-tool", "acme-agent", *BASE, "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    assert (project / TABLE).read_bytes() == table
    assert snapshot(project) == before
    assert "Traceback" not in completed.stderr + completed.stdout
    assert "generated/typescript/tools.ts: WRITE_FAILED error: cannot write" in completed.stderr
    assert f"{TABLE} unchanged" in completed.stderr
    assert "added acme-agent" not in completed.stdout
    assert not [path for path in project.rglob("*") if path.name.endswith(".tmp")]


def test_a_failed_rename_leaves_the_table_byte_identical(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every file staged, then one rename fails: the table (and the stamp vouching for it) is
    # not renamed into place, so `generate` repairs the half-written outputs from the old table.
    real_replace = os.replace

    def replace(source: str, target: os.PathLike[str] | str) -> None:
        if str(target).endswith("constants.py"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    table = (project / TABLE).read_bytes()
    monkeypatch.setattr("generator.emit.os.replace", replace)
    assert main(["add-tool", "acme-agent", *BASE, "--project", str(project)]) == 1
    monkeypatch.undo()
    assert (project / TABLE).read_bytes() == table
    assert not [path for path in project.rglob("*") if path.name.endswith(".tmp")]
    assert main(["generate", "--project", str(project)]) == 0
    assert main(["check", "--project", str(project)]) == 0


def test_a_table_that_is_a_link_is_written_through_it(tmp_path: Path) -> None:
    # A table shared between projects through a symbolic link: replacing the link with a file
    # left the shared table without the row and the project with a copy of its own.
    project = copy_project(tmp_path / "project")
    shared = tmp_path / "shared" / "tools.yaml"
    shared.parent.mkdir()
    (project / TABLE).replace(shared)
    (project / TABLE).symlink_to(os.path.relpath(shared, (project / TABLE).parent))
    # A staged table a killed run left beside the shared file is its leftover too.
    leftover = shared.parent / ".tools.yaml.abcdefgh.tmp"
    leftover.write_text("half\n")
    completed = run_toolgen("add-tool", "acme-agent", *BASE, "--project", str(project))
    assert completed.returncode == 0, completed.stderr
    assert (project / TABLE).is_symlink()
    assert [row["id"] for row in rows(project)][-1] == "acme-agent"
    assert not leftover.exists()
    assert sorted(path.name for path in shared.parent.iterdir()) == ["tools.yaml"]
    assert run_toolgen("check", "--project", str(project)).returncode == 0

"""``toolgen validate|registry|detect``: the loader's rules from the command line, JSON shapes,
exit codes, and a hostile adapters folder that returns promptly with the built-ins intact."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tool_registry import SUPPORTED_TOOLS, TOOL_DISPLAY_NAMES

from .conftest import copy_project, run_toolgen
from .test_loader import manifest, put

HOSTILE_CODES = {
    "bad-json.json": "INVALID_JSON",
    "dup-key.json": "DUPLICATE_KEY",
    "list.json": "NOT_AN_OBJECT",
    "latin1.json": "INVALID_ENCODING",
    "fifo.json": "NOT_A_FILE",
    "dangling.json": "NOT_A_FILE",
    "device.json": "NOT_A_FILE",
    "huge.json": "FILE_TOO_LARGE",
    "deep.json": "INVALID_JSON",
    "evil.json": "UNSAFE_STRING",
    "desktop.json": "CANDIDATES_NOT_ALLOWED",
    "hijack.json": "BUILTIN_COLLISION",
    "lookalike.json": "DISPLAY_NAME_COLLISION",
    "schema.json": "SCHEMA_VIOLATION",
}


def hostile_folder(root: Path) -> Path:
    folder = root / "adapters"
    folder.mkdir()
    put(folder, "bad-json.json", "{")
    put(folder, "dup-key.json", '{"id": 1, "id": 2}')
    put(folder, "list.json", "[]")
    put(folder, "latin1.json", b'{"id": "caf\xe9"}')
    os.mkfifo(folder / "fifo.json")
    (folder / "dangling.json").symlink_to(folder / "missing")
    (folder / "device.json").symlink_to("/dev/zero")
    put(folder, "huge.json", b" " * 200_000)
    put(folder, "deep.json", "[" * 30_000 + "]" * 30_000)
    put(folder, "evil.json", manifest(id="x", hookPointer="../../.bashrc"))
    put(folder, "desktop.json", manifest(id="y", detect={"kind": "candidates"}))
    put(folder, "hijack.json", manifest(id="codex"))
    put(folder, "lookalike.json", manifest(id="z", displayName=TOOL_DISPLAY_NAMES["codex"].upper()))
    put(folder, "schema.json", manifest(id="w", launchable="true"))
    put(folder, "aider.json", manifest(**{"\x1b[31mfuture": True}))
    put(folder, "zed.json", manifest(id="zed", displayName="Zed"))
    return folder


def test_registry_over_a_hostile_folder(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    completed = run_toolgen("registry", "--adapters-dir", str(folder), "--format", "json")
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    tools = document["tools"]
    assert [t["id"] for t in tools] == [*SUPPORTED_TOOLS, "aider", "zed"]
    assert [t["builtin"] for t in tools] == [True] * len(SUPPORTED_TOOLS) + [False, False]
    assert "hookPackage" not in tools[-1], "absent optional fields are left out"
    assert tools[-1]["promptArgTemplate"] == ["--message", "{prompt}"]
    assert tools[-1]["capabilities"] == {"provides": ["headless-task"]}
    by_source: dict[str, list[str]] = {}
    for diagnostic in document["diagnostics"]:
        assert {"code", "severity", "source", "pointer", "message"} <= diagnostic.keys()
        assert diagnostic["severity"] in {"error", "warning"}
        by_source.setdefault(diagnostic["source"], []).append(diagnostic["code"])
    for name, code in HOSTILE_CODES.items():
        assert by_source.get(name) == [code], name
    # The CLI grants nothing: each accepted adapter's claim is noted once, after the loader's.
    assert by_source["aider.json"] == ["UNKNOWN_FIELD", "CAPABILITY_NOT_GRANTED"]
    assert by_source["zed.json"] == ["CAPABILITY_NOT_GRANTED"]
    assert "\x1b" not in completed.stdout + completed.stderr


def test_registry_text_output(tmp_path: Path) -> None:
    completed = run_toolgen("registry", "--adapters-dir", str(hostile_folder(tmp_path)))
    assert completed.returncode == 0
    assert "zed\tZed\tthird-party" in completed.stdout
    assert "hijack.json: BUILTIN_COLLISION error" in completed.stderr
    assert "\x1b" not in completed.stdout + completed.stderr


def test_validate_applies_the_loader_rules(tmp_path: Path) -> None:
    good = put(tmp_path, "good.json", manifest())
    bad = put(tmp_path, "bad.json", manifest(id="codex"))
    completed = run_toolgen("validate", str(good), str(bad), "--format", "json")
    assert completed.returncode == 1
    files = json.loads(completed.stdout)["files"]
    assert [(f["source"], f["accepted"], f["id"]) for f in files] == [
        (str(good), True, "aider"),
        (str(bad), False, None),
    ]
    assert [d["code"] for d in files[1]["diagnostics"]] == ["BUILTIN_COLLISION"]
    assert run_toolgen("validate", str(good)).returncode == 0


def test_validate_rejects_duplicates_among_the_given_files(tmp_path: Path) -> None:
    first = put(tmp_path, "a.json", manifest())
    second = put(tmp_path, "b.json", manifest())
    completed = run_toolgen("validate", str(first), str(second), "--format", "json")
    assert completed.returncode == 1
    assert all(not f["accepted"] for f in json.loads(completed.stdout)["files"])


def test_validate_a_missing_file_is_a_finding_not_a_traceback(tmp_path: Path) -> None:
    completed = run_toolgen("validate", str(tmp_path / "absent.json"))
    assert completed.returncode == 1
    assert "NOT_A_FILE" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_detect_prints_one_result_per_tool(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "aider.json", manifest(detect={"kind": "path", "binaryName": "sh"}))
    completed = run_toolgen(
        "detect", "--adapters-dir", str(folder), "--format", "json", env={"HOME": str(tmp_path)}
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads(completed.stdout)["results"]
    assert [r["id"] for r in results] == [*SUPPORTED_TOOLS, "aider"]
    aider = results[-1]
    assert aider["installed"] is True and aider["path"].endswith("/sh")
    assert aider["hooksInstalled"] is False


def test_runtime_commands_need_the_generated_package(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    for path in sorted((project / "generated/python/tool_registry").glob("*"), reverse=True):
        path.unlink()
    completed = run_toolgen("registry", "--project", str(project))
    assert completed.returncode == 2
    assert "toolgen generate" in completed.stderr


def test_validate_github_format_writes_workflow_commands(tmp_path: Path) -> None:
    bad = put(tmp_path, "bad,name.json", manifest(id="codex"))
    completed = run_toolgen("validate", str(bad), "--format", "github")
    assert completed.returncode == 1
    escaped = str(bad).replace(",", "%2C")
    assert f"::error file={escaped},title=BUILTIN_COLLISION::" in completed.stdout


def test_catalog_over_a_hostile_folder(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    put(
        folder,
        "mcp.json",
        {
            "id": "files-mcp",
            "displayName": "Files MCP",
            "launchable": False,
            "hookCapable": False,
            "hookPointer": ".files/none.json",
            "category": "mcp-server",
            "library": "mcp-pack",
            "mcpServer": {"transport": "http", "url": "https://secret-host.example/mcp"},
        },
    )
    completed = run_toolgen("catalog", "--adapters-dir", str(folder), "--format", "json")
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    tools = {
        tool["id"]: tool
        for category in document["categories"]
        for library in category["libraries"]
        for tool in library["tools"]
    }
    assert set(SUPPORTED_TOOLS) <= set(tools)
    assert tools["zed"]["source"] == "zed.json" and tools["zed"]["notGranted"] == ["headless-task"]
    assert tools["files-mcp"]["inert"] is True
    for secret in ("secret-host", str(folder), "hive-mind-install", ".bashrc"):
        assert secret not in completed.stdout
    text = run_toolgen("catalog", "--adapters-dir", str(folder))
    assert text.returncode == 0
    assert "files-mcp\tFiles MCP\tthird-party (mcp.json)\tinert" in text.stdout
    assert "CAPABILITY_NOT_GRANTED" in text.stderr
    assert "secret-host" not in text.stdout + text.stderr

"""Hostile-review findings (package settings, add-tool and breaking inputs, the loaders' refresh):
each test failed before its fix. A test that guards against a hang runs toolgen as a child
process with a generous limit: a hang is a failure there, never a measured time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]
# Only a hang reaches this; no test asserts how long anything takes.
HANG = 120


def _toolgen(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *arguments],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG,
        stdin=subprocess.DEVNULL,
    )


def _sources(folder: Path) -> Path:
    """A project holding the repository's sources, its outputs under ``out/``."""
    folder.mkdir(parents=True)
    shutil.copytree(REPO / "schema", folder / "schema")
    (folder / "pyproject.toml").write_text(
        "[tool.toolgen]\npython_out = 'out/python'\ntypescript_out = 'out/typescript'\n"
        "editor_schema_out = 'out/schema'\ndocs_out = 'out/docs'\n"
    )
    return folder


# -- sources that are FIFOs or devices ------------------------------------------------------


@pytest.mark.parametrize("command", [["generate"], ["check"], ["check", "--full"]])
@pytest.mark.parametrize("source", ["schema/tools.yaml", "schema/tool-manifest.schema.json"])
def test_a_fifo_source_is_unreadable_not_a_hang(
    command: list[str], source: str, tmp_path: Path
) -> None:
    project = _sources(tmp_path / "p")
    (project / source).unlink()
    os.mkfifo(project / source)
    done = _toolgen(*command, "--project", str(project), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert f"{source}: UNREADABLE error: cannot read file: " in done.stderr
    assert "not a regular file (a FIFO)" in done.stderr
    assert not (project / "out").exists()


def test_a_device_source_is_refused_unread(tmp_path: Path) -> None:
    """``/dev/zero`` behind a symlink would be read until memory ran out."""
    project = _sources(tmp_path / "p")
    (project / "schema/tools.yaml").unlink()
    (project / "schema/tools.yaml").symlink_to(os.devnull.replace("null", "zero"))
    done = _toolgen("generate", "--project", str(project), cwd=tmp_path)
    assert done.returncode == 1
    assert "not a regular file (a character device)" in done.stderr


def test_a_fifo_pyproject_is_a_usage_error(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    os.mkfifo(project / "pyproject.toml")
    done = _toolgen("check", "--project", str(project), cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot read: not a regular file (a FIFO)" in done.stderr


def test_add_tool_on_a_fifo_table_does_not_hang(tmp_path: Path) -> None:
    project = _sources(tmp_path / "p")
    (project / "schema/tools.yaml").unlink()
    os.mkfifo(project / "schema/tools.yaml")
    done = _toolgen(
        "add-tool", "acme", "--display-name", "Acme", "--detect", "path", "--binary", "acme",
        "--no-launchable", "--no-hook-capable", "--hook-pointer", ".acme/x.json",
        "--project", str(project), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert "not a regular file (a FIFO)" in done.stderr


def test_breaking_against_a_folder_with_a_fifo_does_not_hang(tmp_path: Path) -> None:
    project = _sources(tmp_path / "p")
    older = _sources(tmp_path / "older")
    (older / "schema/tools.yaml").unlink()
    os.mkfifo(older / "schema/tools.yaml")
    done = _toolgen("breaking", "--against", str(older), "--project", str(project), cwd=tmp_path)
    assert done.returncode == 1
    assert "BASELINE_UNREADABLE" in done.stderr
    assert "schema/tools.yaml: UNREADABLE error" in done.stderr
    assert "not a regular file (a FIFO)" in done.stderr


def test_a_source_larger_than_the_cap_is_refused(tmp_path: Path) -> None:
    from generator.files import read_file

    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    assert read_file(big, limit=101) == b"x" * 101
    with pytest.raises(OSError, match="larger than 100 bytes"):
        read_file(big, limit=100)


# -- the loaders' refresh: identity includes the status-change time ----------------------------

REWRITE_IN_PLACE = """\
import * as fs from "node:fs";
import { loadThirdPartyManifests } from "./index.js";
const [folder, first, second] = process.argv.slice(2);
const path = folder + "/a.json";
const names = [];
const before = loadThirdPartyManifests(folder);
names.push(before.manifests.map((m) => m.displayName));
// Same inode (truncated and rewritten), same size, the modification time set back.
const { atime, mtime } = fs.statSync(path);
fs.writeFileSync(path, second);
fs.utimesSync(path, atime, mtime);
const after = loadThirdPartyManifests(folder, { previous: before });
names.push(after.manifests.map((m) => m.displayName));
names.push(after.states.map((s) => s.state));
console.log(JSON.stringify(names));
"""


def _same_size_manifests() -> tuple[str, str]:
    import json

    def text(name: str) -> str:
        return json.dumps(
            {
                "id": "acme",
                "displayName": name,
                "launchable": False,
                "hookCapable": False,
                "hookPointer": ".acme/hive-mind-install.json",
                "detect": {"kind": "path", "binaryName": "acme"},
                "builtin": False,
            }
        )

    first, second = text("Acme One"), text("Acme Two")
    assert len(first) == len(second)
    return first, second


def test_python_refresh_rereads_a_file_rewritten_in_place_with_its_mtime_restored(
    tmp_path: Path,
) -> None:
    from tool_registry import load_third_party_manifests

    first, second = _same_size_manifests()
    path = tmp_path / "a.json"
    path.write_text(first, encoding="utf-8")
    before = load_third_party_manifests(str(tmp_path))
    assert [m.displayName for m in before.manifests] == ["Acme One"]
    status = path.stat()
    with path.open("r+", encoding="utf-8") as handle:  # the same inode, rewritten
        handle.write(second)
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    after_status = path.stat()
    assert (after_status.st_ino, after_status.st_size, after_status.st_mtime_ns) == (
        status.st_ino,
        status.st_size,
        status.st_mtime_ns,
    )
    after = load_third_party_manifests(str(tmp_path), previous=before)
    assert [m.displayName for m in after.manifests] == ["Acme Two"]
    assert [s.state for s in after.states] == ["loaded"]
    assert after == load_third_party_manifests(str(tmp_path))


def test_typescript_refresh_rereads_a_file_rewritten_in_place_with_its_mtime_restored(
    tmp_path: Path,
) -> None:
    from .conftest import build_typescript, node_executable

    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "rewrite.mjs"
    runner.write_text(REWRITE_IN_PLACE, encoding="utf-8")
    folder = tmp_path / "adapters"
    folder.mkdir()
    first, second = _same_size_manifests()
    (folder / "a.json").write_text(first, encoding="utf-8")
    # Whole seconds: node's Date (milliseconds) sets them back exactly.
    os.utime(folder / "a.json", ns=(10**18, 10**18))
    done = subprocess.run(
        [node_executable(), str(runner), str(folder), first, second],
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG,
    )
    assert done.returncode == 0, done.stderr
    import json

    assert json.loads(done.stdout) == [["Acme One"], ["Acme Two"], ["loaded"]]


# -- add-tool: a row ending in a block scalar ---------------------------------------------------


def test_add_tool_does_not_cut_a_block_scalar_ending_the_last_row(tmp_path: Path) -> None:
    """A folded scalar's line ``# Fork`` looked like a trailing comment: the new row was spliced
    before it, and the last row's display name silently lost `` # Fork``."""
    import yaml

    project = _sources(tmp_path / "p")
    table = project / "schema/tools.yaml"
    text = table.read_text(encoding="utf-8")
    text = text.replace("    displayName: OpenClaw\n", "", 1).rstrip("\n")
    table.write_text(text + "\n    displayName: >-\n      OpenClaw\n      # Fork\n", "utf-8")
    assert yaml.safe_load(table.read_text("utf-8"))["tools"][-1]["displayName"] == (
        "OpenClaw # Fork"
    )
    done = _toolgen(
        "add-tool", "acme", "--display-name", "Acme", "--detect", "path", "--binary", "acme",
        "--no-launchable", "--no-hook-capable", "--hook-pointer", ".acme/x.json",
        "--project", str(project), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = yaml.safe_load(table.read_text("utf-8"))["tools"]
    assert [row["displayName"] for row in rows[-2:]] == ["OpenClaw # Fork", "Acme"]


def test_insert_row_still_puts_trailing_comments_after_the_new_row() -> None:
    from generator.add_tool import insert_row
    from generator.load import parse_yaml

    plain = "tools:\n  - id: a\n    note: x\n  # trailing comment\n"
    assert insert_row(plain, parse_yaml(plain, "t.yaml"), {"id": "b"}, None) == (
        "tools:\n  - id: a\n    note: x\n\n  - id: b\n  # trailing comment\n"
    )


# -- package settings ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a~b", "@scope/a~b", "@s/x~"])
def test_an_npm_name_with_a_tilde_after_the_scope_is_refused(name: str, tmp_path: Path) -> None:
    """validate-npm-package-name refuses ``~'!()*`` in a new package's name (after the scope)."""
    from generator.config import ConfigError, load_config

    project = _sources(tmp_path / "p")
    with (project / "pyproject.toml").open("a") as handle:
        handle.write(f"typescript_package_name = '{name}'\n")
    with pytest.raises(ConfigError, match=r"pyproject.toml:6:1: .* must be an npm package name"):
        load_config(project)
    (project / "pyproject.toml").write_text("[tool.toolgen]\ntypescript_package_name = '@a~b/c'\n")
    assert load_config(project).package.typescript_name == "@a~b/c"


def test_locating_a_refused_setting_is_linear_in_a_long_blank_line(tmp_path: Path) -> None:
    """The key locator's adjacent ``\\s*`` tried every split of a failing line: 300,000 spaces
    before a comment took about half an hour."""
    project = tmp_path / "p"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        "[ tool . toolgen " + " " * 300_000 + "]\n" + " " * 300_000 + "# pad\n"
        "typescript_package_name = 'Bad'\n"
    )
    done = _toolgen("check", "--project", str(project), cwd=tmp_path)
    assert done.returncode == 2
    assert "pyproject.toml:3:1: tool.toolgen.typescript_package_name = " in done.stderr

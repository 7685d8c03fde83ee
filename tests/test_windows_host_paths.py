"""On a Windows machine, a path the runtime reads from this machine (the default adapters folder,
the home folder, a hook pointer and its backup) must name one file whatever the working folder
and drive: a drive and a separator, or a share. Both languages decide alike.

Before, on Windows:
- a backup of ``~/D:x`` (or ``D:x``) was ``stat``-ed on drive D's working folder in Python (the
  join drops the home, and the pointer's folder, for a drive) and as ``home/D:x`` (a stream of a
  file ``D``) in TypeScript;
- a home without a drive (``USERPROFILE=\\Users\\me``) was taken for a full path (``isabs`` before
  Python 3.13, node's ``isAbsolute``), so a pointer was read from whichever drive was the working
  one;
- TypeScript refused every default adapters folder (``C:\\Users\\me/...`` has no ``/`` first).

These machines are not Windows: the tests set the runtime's "Windows host" switch (Python's
``WINDOWS_HOST``, TypeScript's ``process.platform``) and check what is asked of the injected
file system, and the POSIX rules are checked as they are.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tool_registry
from tool_registry import DetectionDeps, detect_tool
from tool_registry import detection as detection_module
from tool_registry import loader as loader_module
from tool_registry.registry import ToolRegistry

from .conftest import REPO, build_typescript, run_js
from .test_detection_hardening import a_tool

WINDOWS_HOME = "C:\\Users\\me"
# Backups that name no file of this account whatever the working folder and drive, on Windows.
LEANING = ["~/D:x", "~/\\x", "~//x", "~/e:", "D:x", "d:", "\\x", "/x"]
# Backups that do: under the home folder, full paths, a share, relative to the pointer's folder.
NAMING = ["~/ok.bak", "C:\\bak\\x", "c:/bak/x", "\\\\srv\\share\\x", "rel.bak"]


@pytest.fixture
def windows_host(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (loader_module, detection_module):
        monkeypatch.setattr(module, "WINDOWS_HOST", True)


def _hooks(backup: str, home: str = WINDOWS_HOME) -> tuple[bool, list[str], list[str], Any]:
    """(hooks installed, pointers read, files asked about, the result's diagnostic)."""
    read: list[str] = []
    asked: list[str] = []

    def read_text(path: str) -> str:
        read.append(path)
        return json.dumps({"backup": backup})

    def is_file(path: str) -> bool:
        asked.append(path)
        return True

    deps = DetectionDeps(
        which=lambda _name: None,
        read_text=read_text,
        is_file=is_file,
        home=lambda: home,
        platform=lambda: "win32",
    )
    result = detect_tool(a_tool(), ToolRegistry(tools=()), deps, probe_version=False)
    return result.hooks_installed, read, asked, result.diagnostic


@pytest.mark.usefixtures("windows_host")
@pytest.mark.parametrize("backup", LEANING)
def test_a_backup_leaning_on_a_drive_is_not_looked_at_on_windows(backup: str) -> None:
    hooks, read, asked, diagnostic = _hooks(backup)
    assert len(read) == 1 and diagnostic is None
    assert (hooks, asked) == (False, [])


@pytest.mark.usefixtures("windows_host")
@pytest.mark.parametrize("backup", NAMING)
def test_a_backup_naming_one_file_is_looked_at_on_windows(backup: str) -> None:
    hooks, _, asked, diagnostic = _hooks(backup)
    assert diagnostic is None
    assert hooks is True and len(asked) == 1


@pytest.mark.usefixtures("windows_host")
@pytest.mark.parametrize("home", ["\\Users\\me", "/Users/me", "C:Users\\me", "Users"])
def test_a_home_without_a_drive_is_no_home_on_windows(home: str) -> None:
    hooks, read, asked, diagnostic = _hooks("~/ok.bak", home)
    assert (hooks, read, asked) == (False, [], [])
    assert diagnostic is not None and "HomeNotAbsoluteError" in diagnostic.found


def test_posix_rules_are_unchanged() -> None:
    """Elsewhere ``D:x`` is a name like any other, and ``/x`` a full path."""
    assert _hooks("D:x", "/h")[2] == ["/h/.fixture/D:x"]
    assert _hooks("~/D:x", "/h")[2] == ["/h/D:x"]
    assert _hooks("/x", "/h")[2] == ["/x"]
    assert _hooks("~/x", "C:\\Users\\me")[3] is not None  # no full home here


@pytest.mark.usefixtures("windows_host")
def test_the_default_adapters_folder_under_a_windows_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tool_registry.ADAPTERS_DIR_ENV_VAR, raising=False)
    monkeypatch.setenv("HOME", WINDOWS_HOME)  # what ``expanduser`` reads on this machine
    folder = loader_module.default_adapters_dir()
    assert folder.startswith(WINDOWS_HOME)
    monkeypatch.setenv("HOME", "\\Users\\me")
    with pytest.raises(loader_module.NoHomeFolderError):
        loader_module.default_adapters_dir()


PROBE = """\
import { detectTool, getToolRegistry, defaultAdaptersDir } from "./index.js";
Object.defineProperty(process, "platform", { value: "win32" });
const registry = getToolRegistry(FOLDER);
const hooks = async (backup, home) => {
  const read = [];
  const asked = [];
  const result = await detectTool(TOOL, registry, {
    which: () => null,
    readText: (path) => { read.push(path); return JSON.stringify({ backup }); },
    isFile: (path) => { asked.push(path); return true; },
    home: () => home,
    platform: () => "win32",
    runVersion: async () => null,
  }, false);
  return [result.hooksInstalled, read.length, asked.length, result.diagnostic === null];
};
const out = { leaning: [], naming: [], homes: [] };
for (const backup of LEANING) out.leaning.push(await hooks(backup, WINDOWS_HOME));
for (const backup of NAMING) out.naming.push(await hooks(backup, WINDOWS_HOME));
for (const home of HOMES) out.homes.push(await hooks("~/ok.bak", home));
delete process.env[ENV_VAR];
process.env.HOME = WINDOWS_HOME;
process.env.USERPROFILE = WINDOWS_HOME;
out.folder = defaultAdaptersDir();
process.env.HOME = "\\\\Users\\\\me";
process.env.USERPROFILE = "\\\\Users\\\\me";
try { out.driveless = defaultAdaptersDir(); } catch (error) { out.driveless = error.name; }
console.log(JSON.stringify(out));
"""

HOMES = ["\\Users\\me", "/Users/me", "C:Users\\me", "Users"]


def test_typescript_decides_alike(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "ts", REPO / "generated" / "typescript")
    tool = {
        "id": "fixture-tool",
        "displayName": "Fixture Tool",
        "hookPointer": ".fixture/pointer.json",
        "detect": {"kind": "path", "binaryName": "fixture-tool"},
        "builtin": True,
    }
    body = (
        PROBE.replace("FOLDER", json.dumps(str(tmp_path / "none")))
        .replace("TOOL", json.dumps(tool))
        .replace("LEANING", json.dumps(LEANING))
        .replace("NAMING", json.dumps(NAMING))
        .replace("HOMES", json.dumps(HOMES))
        .replace("WINDOWS_HOME", json.dumps(WINDOWS_HOME))
        .replace("ENV_VAR", json.dumps(tool_registry.ADAPTERS_DIR_ENV_VAR))
    )
    found = run_js(out, body)
    assert found["leaning"] == [[False, 1, 0, True]] * len(LEANING)
    assert found["naming"] == [[True, 1, 1, True]] * len(NAMING)
    assert found["homes"] == [[False, 0, 0, False]] * len(HOMES)
    assert found["folder"].startswith(WINDOWS_HOME)
    assert found["driveless"] == "NoHomeFolderError"

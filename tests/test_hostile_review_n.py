"""Hostile review n: the runtime's README contract under hostile environments and arguments,
held in both languages."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    DetectionDeps,
    PathDetect,
    detect_all,
    detect_tool,
    get_tool_registry,
)

from .conftest import REPO, build_typescript, node_executable
from .test_loader import manifest

GENERATED_TS = REPO / "generated" / "typescript"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-hostile-review-n"), GENERATED_TS)


def _node(out: Path, name: str, code: str, env: dict[str, str], cwd: Path | None = None) -> Any:
    script = out / name
    script.write_text(code, encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(script)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=out if cwd is None else cwd,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _python(code: str, env: dict[str, str]) -> Any:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "PYTHONPATH": str(REPO / "generated" / "python")},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.skipif(
    sys.platform.startswith("win"), reason="HOME is the home folder outside Windows"
)
def test_a_home_longer_than_path_max_is_the_home_folder_python_reads(
    out: Path, tmp_path: Path
) -> None:
    # Node's os.homedir() copies HOME into a buffer of PATH_MAX bytes and throws (ENOBUFS) for a
    # longer value: TypeScript had no home folder (the default folder UNREADABLE, every hook
    # pointer unread) where Python, reading HOME, dropped its trailing slashes and loaded the
    # adapters under it.
    home = tmp_path / "home"
    folder = home / ".waggle" / "adapters"
    folder.mkdir(parents=True)
    (folder / "a.json").write_text(json.dumps(manifest()), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "WAGGLE_ADAPTERS_DIR"} | {
        "HOME": str(home) + "/" * 5000
    }
    typescript = _node(
        out,
        "hostile-review-n-home.mjs",
        'import { getToolRegistry, defaultAdaptersDir, diagnosticAsJson } from "./index.js";\n'
        "const registry = getToolRegistry();\n"
        "console.log(JSON.stringify({folder: defaultAdaptersDir(), ids: registry.ids,"
        " diagnostics: registry.diagnostics.map((d) => diagnosticAsJson(d))}));\n",
        env,
    )
    python = _python(
        "import json\n"
        "from tool_registry import get_tool_registry, default_adapters_dir\n"
        "registry = get_tool_registry()\n"
        "print(json.dumps({'folder': default_adapters_dir(), 'ids': list(registry.ids),"
        " 'diagnostics': [d.as_json() for d in registry.diagnostics]}))\n",
        env,
    )
    assert python["folder"] == str(folder)
    assert manifest()["id"] in python["ids"]
    assert typescript == python


@pytest.mark.skipif(
    sys.platform.startswith("win"), reason="HOME is the home folder outside Windows"
)
def test_detection_reads_hook_pointers_under_a_home_longer_than_path_max(
    out: Path, tmp_path: Path
) -> None:
    # The same HOME gave every TypeScript result the pointer path ~/.claude/... and a
    # HomeNotAbsoluteError, where Python read the pointer under the home folder.
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "hive-mind-install.json").write_text(
        json.dumps({"backup": str(home / "backup")}), encoding="utf-8"
    )
    (home / "backup").write_text("x", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "WAGGLE_ADAPTERS_DIR"} | {
        "HOME": str(home) + "/" * 5000,
        "PATH": "",
    }
    empty = tmp_path / "adapters"
    empty.mkdir()
    typescript = _node(
        out,
        "hostile-review-n-detect.mjs",
        'import { getToolRegistry, detectAll, detectionResultAsJson } from "./index.js";\n'
        f"const registry = getToolRegistry({json.dumps(str(empty))});\n"
        "const results = await detectAll(registry);\n"
        "console.log(JSON.stringify(results.map((r) => detectionResultAsJson(r))));\n",
        env,
    )
    python = _python(
        "import json\n"
        "from tool_registry import get_tool_registry, detect_all\n"
        f"registry = get_tool_registry({str(empty)!r})\n"
        "print(json.dumps([r.as_json() for r in detect_all(registry)]))\n",
        env,
    )
    claude = next(result for result in python if result["id"] == "claude-code")
    assert claude["pointerPath"] == str(home / ".claude" / "hive-mind-install.json")
    assert claude["hooksInstalled"] is True
    assert typescript == python


def _own_elf_kind() -> bytes:
    """The first 20 bytes of this interpreter's program: an ELF header of this machine's class,
    byte order and architecture."""
    with open(os.path.realpath(sys.executable), "rb") as program:
        return program.read(20)


def _refused_elf(folder: Path, name: str, elf_type: int, marker: Path) -> Path:
    """A file with this machine's ELF class, byte order and architecture in its first 20 bytes
    (of type ``elf_type``) that the kernel refuses to run (ENOEXEC: no program headers), followed
    by shell text that creates ``marker``: node's spawn hands a refused file to /bin/sh."""
    header = bytearray(_own_elf_kind())
    header[16:18] = elf_type.to_bytes(2, "little" if header[5] == 1 else "big")
    path = folder / name
    path.write_bytes(bytes(header) + f"/dev/null 2>&1\ntouch {marker}; echo v9.9\n".encode())
    path.chmod(0o755)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's ELF loader")
def test_an_elf_the_kernel_refuses_is_never_run_for_its_version_in_either_language(
    out: Path, tmp_path: Path
) -> None:
    # Only the first 20 bytes were checked (magic, class, byte order, machine): an object file
    # (ET_REL) or a binary with no program headers passed, the kernel refused it (ENOEXEC), and
    # node's spawn ran it through /bin/sh as a shell script (its text ran, its echo was the
    # version) where Python's probe failed with "Exec format error".
    if not _own_elf_kind().startswith(b"\x7fELF"):
        pytest.skip("this interpreter is no ELF")
    folder = tmp_path / "bin"
    folder.mkdir()
    marker = tmp_path / "ran"
    relocatable = _refused_elf(folder, "relocatable", 1, marker)
    headless = _refused_elf(folder, "headless", 2, marker)
    script = folder / "script"
    script.write_text(f"#!{headless}\ntouch {marker}\necho v9.9\n", encoding="utf-8")
    script.chmod(0o755)
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    paths = {"claude": relocatable, "codex": headless, "hermes": script}
    which = {name: str(path) for name, path in paths.items()}
    typescript = _node(
        out,
        "hostile-review-n-elf.mjs",
        'import { getToolRegistry, detectAll, detectionResultAsJson } from "./index.js";\n'
        f"const paths = {json.dumps(which)};\n"
        f"const registry = getToolRegistry({json.dumps(str(adapters))});\n"
        "const results = await detectAll(registry, {\n"
        "  which: (name) => paths[name] ?? null, home: () => '/nonexistent-home',\n"
        "});\n"
        "console.log(JSON.stringify(results.map((r) => detectionResultAsJson(r))));\n",
        dict(os.environ),
    )
    assert not marker.exists()
    deps = DetectionDeps(which=which.get, home=lambda: "/nonexistent-home")
    registry = get_tool_registry(adapters)
    python: list[Any] = [result.as_json() for result in detect_all(registry, deps)]
    assert not marker.exists()
    for results in (python, typescript):
        probed = {result["id"]: result for result in results if result["path"] in which.values()}
        assert set(probed) == {"claude-code", "codex", "hermes"}
        for result in probed.values():
            assert result["installed"] is True
            assert result["version"] is None
            assert "not run: " in result["diagnostic"]["message"]
    assert typescript == python


@pytest.mark.parametrize("name", ["bin/fixture-tool", "./fixture-tool"])
def test_a_relative_program_name_finds_nothing_in_the_working_folder(
    out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # A name holding a separator was checked as given: `bin/fixture-tool` (a host's manifest
    # that never went through the schema) was found in the folder detection was started in and
    # reported installed there, in both languages.
    for folder in (tmp_path, tmp_path / "bin"):
        folder.mkdir(exist_ok=True)
        program = folder / "fixture-tool"
        program.write_text("#!/bin/sh\necho 1.0\n", encoding="utf-8")
        program.chmod(0o755)
    tool = dataclasses.replace(
        BUILTIN_TOOL_MANIFESTS[0],
        id="fixture-tool",
        detect=PathDetect(kind="path", binaryName=name),
    )
    monkeypatch.chdir(tmp_path)
    deps = DetectionDeps(home=lambda: "/nonexistent-home")
    registry = get_tool_registry(tmp_path / "bin")
    python = detect_tool(tool, registry, deps, probe_version=False).as_json()
    typescript = _node(
        out,
        "hostile-review-n-relative.mjs",
        "import { getToolRegistry, detectTool, detectionResultAsJson,"
        ' BUILTIN_TOOL_MANIFESTS } from "./index.js";\n'
        'import { DEFAULT_DETECTION_DEPS } from "./detection.js";\n'
        "const tool = { ...BUILTIN_TOOL_MANIFESTS[0], id: 'fixture-tool',"
        f" detect: {{ kind: 'path', binaryName: {json.dumps(name)} }} }};\n"
        f"const registry = getToolRegistry({json.dumps(str(tmp_path / 'bin'))});\n"
        "const deps = { ...DEFAULT_DETECTION_DEPS, home: () => '/nonexistent-home' };\n"
        "const result = await detectTool(tool, registry, deps, false);\n"
        "console.log(JSON.stringify(detectionResultAsJson(result)));\n",
        {**os.environ},
        cwd=tmp_path,  # the working folder holding the program
    )
    for result in (python, typescript):
        assert result["installed"] is False
        assert result["path"] is None
    assert typescript == python


DETECT_TOOL_DEPS_TS = """
import { getToolRegistry, detectTool, detectAll, detectionResultAsJson, BUILTIN_TOOL_MANIFESTS }
  from "./index.js";
import { DEFAULT_DETECTION_DEPS } from "./detection.js";
const registry = getToolRegistry(process.argv[2]);
const tool = BUILTIN_TOOL_MANIFESTS[0];
class FakeDeps {
  which() { return null; }
  isFile() { return false; }
  async runVersion() { return null; }
  readText() { return null; }
  home() { return "/nonexistent-home"; }
  platform() { return "linux"; }
}
const refused = async (call) => {
  try { await call(); return null; } catch (error) { return error instanceof TypeError; }
};
const partial = { which: () => null, home: () => "/nonexistent-home" };
const alone = await detectTool(tool, registry, partial, false);
const all = (await detectAll(registry, partial)).find((result) => result.id === tool.id);
console.log(JSON.stringify({
  typo: await refused(() => detectTool(tool, registry, { ...DEFAULT_DETECTION_DEPS, whcih: () => null }, false)),
  instance: await refused(() => detectTool(tool, registry, new FakeDeps(), false)),
  partial: detectionResultAsJson(alone),
  all: detectionResultAsJson(all),
}));
"""


def test_detect_tool_takes_deps_as_detect_all_takes_them_in_typescript(
    out: Path, tmp_path: Path
) -> None:
    # detectTool skipped detectAll's checks of its deps: an unknown member (`{ whcih }`) and a
    # class instance were taken (Python refuses both: an unknown keyword, a subclass's hidden
    # methods), and a member left out was no function (every probe failed) where detectAll
    # reads it as the real system's.
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    script = out / "hostile-review-n-detect-tool.mjs"
    script.write_text(DETECT_TOOL_DEPS_TS, encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(script), str(adapters)],
        capture_output=True,
        text=True,
        check=False,
        cwd=out,
    )
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["typo"] is True
    assert shown["instance"] is True
    assert shown["partial"]["diagnostic"] is None
    # detectTool without a version probe, detectAll with one (nothing is found to run).
    assert shown["partial"] == shown["all"]

"""Detection obeys the loader's rules: pointer files through the guarded reader (a FIFO never
blocks), a capped and killed version probe, third-party executables run only when the host opts
in, and "cannot tell" reported as unknown rather than "not installed"."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    DetectionDeps,
    DiagnosticCode,
    detect_all,
    detection,
    get_tool_registry,
)
from tool_registry.models import CandidatePaths, CandidatesDetect, PathDetect, ToolManifest
from tool_registry.registry import ToolRegistry

from .conftest import REPO, run_toolgen
from .test_loader import manifest, put

Code = DiagnosticCode


def a_tool(**changes: Any) -> ToolManifest:
    """A built-in-shaped manifest of our own, independent of the live table's rows."""
    base = BUILTIN_TOOL_MANIFESTS[0]
    defaults: dict[str, Any] = {
        "id": "fixture-tool",
        "displayName": "Fixture Tool",
        "hookPointer": ".fixture/pointer.json",
        "detect": PathDetect(kind="path", binaryName="fixture-tool"),
        "builtin": True,
    }
    return dataclasses.replace(base, **{**defaults, **changes})


def hermetic(home: Path, **overrides: Any) -> DetectionDeps:
    """Real file reads under ``home``; nothing found on PATH, no program run."""
    arguments: dict[str, Any] = {
        "which": lambda name: None,
        "run_version": lambda path, timeout: pytest.fail(f"ran {path}"),
        "home": lambda: str(home),
        "platform": lambda: "linux",
    }
    arguments.update(overrides)
    return DetectionDeps(**arguments)


_IN_CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from tool_registry import DetectionDeps, detect_all
    from tool_registry.registry import ToolRegistry
    from tool_registry.models import PathDetect
    from tool_registry.constants import BUILTIN_TOOL_MANIFESTS
    import dataclasses
    tool = dataclasses.replace(BUILTIN_TOOL_MANIFESTS[0], id="t", hookPointer="p.json",
                               detect=PathDetect(kind="path", binaryName="t"))
    deps = DetectionDeps(which=lambda n: None, home=lambda: sys.argv[2])
    (result,) = detect_all(ToolRegistry(tools=(tool,)), deps)
    print(json.dumps(result.as_json()))
    """
)


def detect_in_child(home: Path) -> dict[str, Any]:
    """Detection in a subprocess with a deadline, so a regression hangs the child, not pytest."""
    child = subprocess.run(
        [sys.executable, "-c", _IN_CHILD, str(REPO / "generated/python"), str(home)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    result: dict[str, Any] = json.loads(child.stdout)
    return result


def test_a_fifo_as_hook_pointer_never_blocks(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p.json")
    result = detect_in_child(tmp_path)
    assert result["hooksInstalled"] is False
    assert result["diagnostic"]["code"] == "DETECTION_FAILED"
    assert "FIFO" in result["diagnostic"]["message"]


def test_a_fifo_as_backup_target_is_not_a_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "backup")
    (tmp_path / "p.json").write_text(json.dumps({"backup": "backup"}))
    result = detect_in_child(tmp_path)
    assert result["hooksInstalled"] is False
    assert result["diagnostic"] is None


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_device_as_hook_pointer_is_refused(tmp_path: Path, target: str) -> None:
    (tmp_path / "p.json").symlink_to(target)
    result = detect_in_child(tmp_path)
    assert result["hooksInstalled"] is False
    assert result["diagnostic"]["code"] == "DETECTION_FAILED"


def test_an_oversized_pointer_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "backup").write_text("{}")
    pointer = {"backup": "backup", "padding": " " * detection.MAX_POINTER_BYTES}
    (tmp_path / ".fixture").mkdir()
    (tmp_path / ".fixture/pointer.json").write_text(json.dumps(pointer))
    (result,) = detect_all(ToolRegistry(tools=(a_tool(),)), hermetic(tmp_path))
    assert result.hooks_installed is False
    assert result.diagnostic is not None and result.diagnostic.code is Code.DETECTION_FAILED
    # Within the cap, the same pointer counts.
    (tmp_path / ".fixture/pointer.json").write_text(json.dumps({"backup": "../backup"}))
    (result,) = detect_all(ToolRegistry(tools=(a_tool(),)), hermetic(tmp_path))
    assert result.hooks_installed is True and result.diagnostic is None


def script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_a_probe_that_prints_forever_is_capped(tmp_path: Path) -> None:
    endless = script(tmp_path, "endless", "echo 'tool 9.9'\nexec yes\n")
    assert detection._run_version(str(endless), 30.0) == "tool 9.9"


def test_a_probe_that_prints_one_endless_line_is_capped(tmp_path: Path) -> None:
    endless = script(tmp_path, "endless", "exec tr '\\000' x < /dev/zero\n")
    version = detection._run_version(str(endless), 30.0)
    assert version is not None and set(version) == {"x"}
    assert len(version) <= detection.MAX_VERSION_BYTES


def gone(pid: int) -> bool:
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_timed_out_probe_is_killed_with_its_children(tmp_path: Path) -> None:
    slow = script(
        tmp_path,
        "slow",
        f"echo $$ > {tmp_path}/pid\nsleep 60 &\necho $! > {tmp_path}/child\nwait\n",
    )
    with pytest.raises(subprocess.TimeoutExpired):
        detection._run_version(str(slow), 0.5)
    assert gone(int((tmp_path / "pid").read_text()))
    assert gone(int((tmp_path / "child").read_text()))


def test_a_failing_probe_gives_no_version(tmp_path: Path) -> None:
    failing = script(tmp_path, "failing", "echo 'oops'\nexit 3\n")
    assert detection._run_version(str(failing), 5.0) is None


def test_third_party_versions_are_probed_only_on_request(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "aider.json", manifest())
    registry = get_tool_registry(folder)
    ran: list[str] = []

    def run_version(path: str, timeout: float) -> str:
        ran.append(path)
        return "v1"

    binaries = {"aider": "/opt/aider", "claude": "/opt/claude"}
    deps = DetectionDeps(
        which=binaries.get,
        run_version=run_version,
        home=lambda: str(tmp_path),
        platform=lambda: "linux",
    )
    by_id = {r.id: r for r in detect_all(registry, deps)}
    assert ran == ["/opt/claude"]
    assert by_id["aider"].installed is True and by_id["aider"].version is None
    ran.clear()
    by_id = {r.id: r for r in detect_all(registry, deps, probe_third_party_versions=True)}
    assert ran == ["/opt/claude", "/opt/aider"]
    assert by_id["aider"].version == "v1"


def test_the_cli_runs_third_party_programs_only_with_probe_versions(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "aider.json", manifest())
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    marker = tmp_path / "ran"
    script(bin_dir, "aider", f"touch {marker}\necho 'aider 1.0'\n")
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path)}
    plain = run_toolgen("detect", "--adapters-dir", str(folder), "--format", "json", env=env)
    assert plain.returncode == 0, plain.stderr
    assert not marker.exists()
    results = {r["id"]: r for r in json.loads(plain.stdout)["results"]}
    assert results["aider"]["installed"] is True and results["aider"]["version"] is None
    probed = run_toolgen(
        "detect", "--adapters-dir", str(folder), "--probe-versions", "--format", "json", env=env
    )
    assert probed.returncode == 0, probed.stderr
    assert marker.exists()
    results = {r["id"]: r for r in json.loads(probed.stdout)["results"]}
    assert results["aider"]["version"] == "aider 1.0"


@pytest.mark.parametrize(
    "paths",
    [
        None,
        CandidatePaths(),
        CandidatePaths(darwin=["/Applications/X.app/x"]),
        CandidatePaths(linux=[]),
    ],
)
def test_no_way_to_tell_is_unknown_not_absent(tmp_path: Path, paths: CandidatePaths | None) -> None:
    tool = a_tool(detect=CandidatesDetect(kind="candidates", paths=paths))
    (result,) = detect_all(ToolRegistry(tools=(tool,)), hermetic(tmp_path))
    assert result.installed is None
    assert result.diagnostic is not None and result.diagnostic.code is Code.NOT_DETECTABLE
    assert result.as_json()["installed"] is None


def test_paths_or_a_resolver_make_it_decidable(tmp_path: Path) -> None:
    present = tmp_path / "x"
    present.write_text("")
    listed = a_tool(
        detect=CandidatesDetect(kind="candidates", paths=CandidatePaths(linux=["/nope"]))
    )
    (result,) = detect_all(ToolRegistry(tools=(listed,)), hermetic(tmp_path))
    assert (result.installed, result.diagnostic) == (False, None)
    bare = a_tool(detect=CandidatesDetect(kind="candidates"))
    registry = ToolRegistry(tools=(bare,), resolvers={bare.id: lambda deps: [str(present)]})
    deps = hermetic(tmp_path, run_version=lambda path, timeout: "x 1")
    (result,) = detect_all(registry, deps)
    assert (result.installed, result.path, result.diagnostic) == (True, str(present), None)


def test_the_cli_says_unknown(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = run_toolgen("detect", "--adapters-dir", str(tmp_path / "none"), env=env)
    assert done.returncode == 0, done.stderr
    undecidable = [
        tool.id
        for tool in BUILTIN_TOOL_MANIFESTS
        if isinstance(tool.detect, CandidatesDetect)
        and not (tool.detect.paths and tool.detect.paths.linux)
    ]
    for tool_id in undecidable:
        assert f"{tool_id}: unknown" in done.stdout
    if not undecidable:
        pytest.skip("every built-in candidates tool lists linux paths")


def test_a_child_left_running_after_a_normal_exit_is_killed(tmp_path: Path) -> None:
    leaver = script(
        tmp_path,
        "leaver",
        f"sleep 60 >/dev/null 2>&1 &\necho $! > {tmp_path}/child\necho 'tool 2.0'\n",
    )
    assert detection._run_version(str(leaver), 10.0) == "tool 2.0"
    assert gone(int((tmp_path / "child").read_text()))


def test_a_child_holding_the_pipe_after_a_normal_exit_is_killed(tmp_path: Path) -> None:
    holder = script(
        tmp_path, "holder", f"echo 'tool 2.1'\nsleep 60 &\necho $! > {tmp_path}/child\nexit 0\n"
    )
    assert detection._run_version(str(holder), 10.0) == "tool 2.1"
    assert gone(int((tmp_path / "child").read_text()))


_ESCAPER = """\
import os, sys, time
if os.fork() == 0:
    os.setsid()  # leaves the probe's process group, keeping its stdout
    if os.fork() == 0:
        with open(os.path.join(os.path.dirname(sys.argv[0]), "grandchild.pid"), "w") as f:
            f.write(str(os.getpid()))
        time.sleep(60)
    os._exit(0)
print("tool 3.0", flush=True)
"""

_PROBE_ESCAPER = """\
import sys, subprocess
sys.path.insert(0, sys.argv[1])
from tool_registry import detection
try:
    print(detection._run_version(sys.argv[2], 1.0))
except subprocess.TimeoutExpired:
    print("timed out")
"""


def test_a_grandchild_that_escapes_the_group_cannot_hold_the_probe(tmp_path: Path) -> None:
    escaper = tmp_path / "escaper"
    escaper.write_text(f"#!{sys.executable}\n{_ESCAPER}")
    escaper.chmod(0o755)
    try:
        # The probe runs in a child with a deadline: a regression hangs it, not the test run.
        probe = subprocess.run(
            [sys.executable, "-c", _PROBE_ESCAPER, str(REPO / "generated/python"), str(escaper)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert probe.returncode == 0, probe.stderr
        assert probe.stdout.strip() == "tool 3.0"  # what it said before the hold is kept
    finally:
        pid_file = tmp_path / "grandchild.pid"
        for _ in range(50):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), 9)

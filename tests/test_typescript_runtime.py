"""The generated TypeScript runtime under node, beyond the shared vectors: the reader never
blocks on a FIFO and reads at most the cap; the registry and detection agree with the Python
runtime on the same folder and the same injected dependencies; the real `--version` probe is
spawned without a shell, capped and killed (with what it started) at the timeout; a consumer
uses it all with no cast."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tool_registry import detect_all, get_tool_registry
from tool_registry.detection import DetectionDeps

from .conftest import REPO, build_typescript, node_executable

GENERATED_TS = REPO / "generated" / "typescript"
PROBE = REPO / "tests" / "ts" / "runtime-probe.ts"
BASE = json.loads((REPO / "tests" / "vectors" / "base-manifest.json").read_text(encoding="utf-8"))
GRANTS = {"aider": ["headless-task"], "cursor": ["resumable"]}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and process groups")


def _script(path: Path, body: str) -> Path:
    path.write_text(f"#!{node_executable()}\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def _layout(root: Path) -> dict[str, Any]:
    adapters = root / "adapters"
    adapters.mkdir(parents=True)
    (adapters / "aider.json").write_text(json.dumps(BASE), encoding="utf-8")
    (adapters / "shell.json").write_text(
        json.dumps(
            {
                **BASE,
                "id": "shellish",
                "displayName": "Shellish",
                "capabilities": {"provides": ["headless-task", "resumable"]},
                "detect": {"kind": "path", "binaryName": "shellish"},
            }
        ),
        encoding="utf-8",
    )
    (adapters / "bad.json").write_text("{", encoding="utf-8")
    home = root / "home"
    (home / ".aider").mkdir(parents=True)
    os.mkfifo(home / ".aider" / "hive-mind-install.json")
    (home / ".claude").mkdir()
    (home / ".claude" / "backup.json").write_text("{}")
    (home / ".claude" / "hive-mind-install.json").write_text('{"backup": "backup.json"}')
    os.mkfifo(root / "pipe.json")
    (root / "to-pipe.json").symlink_to(root / "pipe.json")
    (root / "big.json").write_bytes(b" " * 10_000_000)
    tools = root / "tools"
    tools.mkdir()
    spawner = (
        "const { spawn } = require('child_process');"
        "const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'],"
        " { stdio: 'inherit' });"
        f"require('fs').writeFileSync({json.dumps(str(root / 'grandchild.pid'))}, String(child.pid));"
        "setTimeout(() => {}, 60000);"
    )
    return {
        "fifo": str(root / "pipe.json"),
        "linkToFifo": str(root / "to-pipe.json"),
        "big": str(root / "big.json"),
        "adapters": str(adapters),
        "home": str(home),
        "sleeper": str(_script(tools / "sleeper", spawner)),
        "chatty": str(
            _script(
                tools / "chatty",
                "process.stdout.write('v'.repeat(1 << 20)); setTimeout(() => {}, 60000);",
            )
        ),
        "failing": str(_script(tools / "failing", "console.log('oops 1.0'); process.exit(3);")),
        "metaName": str(
            _script(
                tools / "v; touch pwned",
                "console.log('meta 2.0 ' + JSON.stringify(process.argv.slice(2)));",
            )
        ),
        "grants": GRANTS,
    }


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any], Path]:
    root = tmp_path_factory.mktemp("ts-runtime")
    job = _layout(root / "files")
    out = build_typescript(root / "build", GENERATED_TS, {"runtime-probe.ts": PROBE.read_text()})
    job_file = root / "job.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(out / "runtime-probe.js"), str(job_file)],
        cwd=root,  # where "touch pwned" would land, were a shell ever involved
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # a guard against a hang (a FIFO opened for reading), not a speed check
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), job, root


def test_the_reader_never_opens_a_fifo_and_reads_at_most_the_cap(facts: Any) -> None:
    found, _, _ = facts
    assert found["kinds"] == {"fifo": "a FIFO", "linkToFifo": "a FIFO", "big": "read 11 bytes"}


def test_the_registry_agrees_with_python(facts: Any) -> None:
    found, job, _ = facts
    registry = get_tool_registry(job["adapters"], grants=GRANTS)
    assert found["registry"]["ids"] == list(registry.ids)
    assert found["registry"]["cohorts"] == {k: list(v) for k, v in registry.cohorts.items()}
    assert found["registry"]["providers"] == {
        k: list(v) for k, v in registry.capability_providers.items()
    }
    headless = found["registry"]["headless"]
    assert headless == list(registry.providers_of("headless-task"))
    assert "aider" in headless and "shellish" not in headless, "granted routes, claimed does not"
    assert found["registry"]["diagnostics"] == [d.as_json() for d in registry.diagnostics]
    codes = [d["code"] for d in found["registry"]["diagnostics"]]
    assert codes == ["INVALID_JSON", "CAPABILITY_NOT_GRANTED"]
    assert found["registry"]["catalog"] == registry.catalog()
    assert found["registry"]["cursorResolver"] is True
    assert found["registry"]["aiderResolver"] is False, "never a resolver for a third party"
    scoped = get_tool_registry(job["adapters"], categories=["desktop-app"])
    assert found["registry"]["scoped"] == list(scoped.ids) != []


def _python_detection(job: dict[str, Any], probe: bool) -> list[dict[str, Any]]:
    home = job["home"]

    def run_version(executable: str, _timeout: float) -> str | None:
        if executable == "/bin/claude":
            raise subprocess.TimeoutExpired([executable], 5)
        return f"{executable} 1.0\u202e\nsecond line"

    deps = DetectionDeps(
        which=lambda name: f"/bin/{name}" if name in ("aider", "claude") else None,
        is_file=lambda path: path == f"{home}/.aider/backup.json",
        run_version=run_version,
        read_text=lambda path: (
            '{"backup": "~/.aider/backup.json"}'
            if path.endswith(".aider/hive-mind-install.json")
            else None
        ),
        home=lambda: home,
        platform=lambda: "plan9",
    )
    registry = get_tool_registry(
        job["adapters"],
        grants=GRANTS,
        resolvers={"cursor": lambda _deps: [f"{home}/cursor"], "aider": lambda _deps: ["/x"]},
    )
    return [r.as_json() for r in detect_all(registry, deps, probe_third_party_versions=probe)]


def _without_failure_text(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """DETECTION_FAILED says what failed in each language's own error names: compared apart."""
    cleaned = []
    for result in results:
        diagnostic = result["diagnostic"]
        if diagnostic is not None and diagnostic["code"] == "DETECTION_FAILED":
            diagnostic = {k: v for k, v in diagnostic.items() if k != "message"}
        cleaned.append({**result, "diagnostic": diagnostic})
    return cleaned


def test_detection_with_injected_deps_agrees_with_python(facts: Any) -> None:
    found, job, _ = facts
    detection = found["detection"]
    for key, probe in (("quiet", False), ("probing", True)):
        assert _without_failure_text(detection[key]) == _without_failure_text(
            _python_detection(job, probe)
        )
    by_id = {r["id"]: r for r in detection["quiet"]}
    assert by_id["aider"]["version"] is None, "a third party is not run without the opt-in"
    assert by_id["aider"]["hooksInstalled"] is True
    assert by_id["claude-code"]["diagnostic"]["code"] == "DETECTION_FAILED"
    assert by_id["claude-desktop"]["installed"] is None
    assert by_id["claude-desktop"]["diagnostic"]["code"] == "NOT_DETECTABLE"
    assert by_id["cursor"]["installed"] is False, "the built-in resolver was asked"
    assert detection["quietCalls"] == ["/bin/claude"]
    assert detection["probingCalls"] == ["/bin/claude", "/bin/aider"]
    probed = {r["id"]: r for r in detection["probing"]}
    assert probed["aider"]["version"] == "/bin/aider 1.0\\u202e\\u000asecond line", "escaped"


def test_a_pointer_that_is_a_fifo_is_reported_never_read(facts: Any) -> None:
    found, _, _ = facts
    by_id = {r["id"]: r for r in found["detection"]["realPointer"]}
    assert by_id["aider"]["hooksInstalled"] is False
    assert by_id["aider"]["diagnostic"]["code"] == "DETECTION_FAILED"
    assert "a FIFO" in by_id["aider"]["diagnostic"]["message"]
    assert by_id["claude-code"]["hooksInstalled"] is True, "a relative backup beside its pointer"


def test_the_version_probe_is_capped_timed_out_and_shell_free(facts: Any) -> None:
    found, _, root = facts
    versions = found["versions"]
    assert versions["sleeper"] == {"error": "timeout"}
    grandchild = int((root / "files" / "grandchild.pid").read_text())
    for _ in range(400):  # the kill is sent before node answers; its delivery is awaited here
        if not _alive(grandchild):
            break
        time.sleep(0.05)
    assert not _alive(grandchild), "killed with its parent's process group"
    assert versions["chatty"] == {"value": "v" * 4096}, "the first line of the capped output"
    assert versions["failing"] == {"value": None}
    assert versions["meta"] == {"value": 'meta 2.0 ["--version"]'}
    assert not (root / "pwned").exists() and not (root / "files" / "pwned").exists()
    assert "error" in versions["missing"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for a reaper does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z")


CONSUMER = """\
import {
  detectAll, getToolRegistry, isThirdPartyToolManifest, parseThirdPartyManifest, validateThirdPartyManifest,
  type Diagnostic, type DetectionResult, type ThirdPartyToolManifest, type ToolManifest, type ToolRegistry,
} from "./index.js";

const text = '{"id": "aider", "displayName": "Aider", "launchable": true, "hookCapable": false,'
  + ' "hookPointer": ".aider/p.json", "detect": {"kind": "path", "binaryName": "aider"}}';
const value: unknown = JSON.parse(text);
const problems: readonly Diagnostic[] = validateThirdPartyManifest(value);
const typed: ThirdPartyToolManifest | null = isThirdPartyToolManifest(value) ? value : null;
const parsed: ToolManifest | null = parseThirdPartyManifest(text, "aider.json").manifest;
const registry: ToolRegistry = getToolRegistry(process.argv[2], { grants: { aider: ["headless-task"] } });
const routed: readonly string[] = registry.providersOf("headless-task");
const results: readonly DetectionResult[] = await detectAll(registry, { which: () => null, readText: () => null });
console.log(JSON.stringify({ problems: problems.length, typed: typed?.id ?? null, parsed: parsed?.builtin ?? null,
  routed, detected: results.length }));
"""


def test_a_consumer_validates_loads_routes_and_detects_without_a_cast(tmp_path: Path) -> None:
    assert re.search(r"\\bas\\b|<[A-Za-z]+>\\s*\\w|!\\.", CONSUMER) is None, (
        "no cast, no non-null assertion"
    )
    out = build_typescript(tmp_path, GENERATED_TS, {"consumer.ts": CONSUMER})
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    (adapters / "aider.json").write_text(json.dumps(BASE), encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(out / "consumer.js"), str(adapters)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    registry = get_tool_registry(adapters, grants={"aider": ["headless-task"]})
    assert facts == {
        "problems": 0,
        "typed": "aider",
        "parsed": False,
        "routed": list(registry.providers_of("headless-task")),
        "detected": len(registry.tools),
    }
    assert "aider" in facts["routed"]


def test_the_typescript_limits_are_the_python_ones() -> None:
    from tool_registry import detection, diagnostics, loader

    source = "\n".join(
        (GENERATED_TS / name).read_text()
        for name in ("loader.ts", "json-text.ts", "diagnostics.ts", "detection.ts")
    )
    expected = {
        "MAX_ADAPTER_FILES": loader.MAX_ADAPTER_FILES,
        "MAX_OTHERS": loader.MAX_OTHERS,
        "MAX_NESTING": loader.MAX_NESTING,
        "MAX_DIAGNOSTICS_PER_FILE": diagnostics.MAX_DIAGNOSTICS_PER_FILE,
        "MAX_SHOWN_CHARS": diagnostics.MAX_SHOWN_CHARS,
        "MAX_SHOWN_SOURCE": diagnostics.MAX_SHOWN_SOURCE,
        "MAX_POINTER_BYTES": detection.MAX_POINTER_BYTES,
        "MAX_VERSION_BYTES": detection.MAX_VERSION_BYTES,
        "MAX_VERSION_CHARS": detection.MAX_VERSION_CHARS,
        "VERSION_TIMEOUT_MS": int(detection.VERSION_TIMEOUT_SECONDS * 1000),
    }
    for name, value in expected.items():
        assert re.search(rf"export const {name} = {value};", source), name

"""``refresh()`` in TypeScript: the same states and the same registry as Python's refresh, and
a file whose identity did not change is not read again.

One scripted sequence of folder changes (a file rewritten, one removed, one added, a duplicate id
created across files, the folder removed) is applied once; after each step both languages refresh
their registry and report what they did with each name and what they hold. The TypeScript side
also counts the adapter files it opened, through node's own `fs` module.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tool_registry import get_tool_registry

from .conftest import REPO, build_typescript, node_executable


def _manifest(tool_id: str, name: str) -> dict[str, Any]:
    return {
        "id": tool_id,
        "displayName": name,
        "launchable": True,
        "hookCapable": False,
        "hookPointer": f".{tool_id}/hook.json",
        "detect": {"kind": "path", "binaryName": tool_id},
    }


def _write(folder: Path, file: str, manifest: dict[str, Any], stamp: int) -> None:
    path = folder / file
    path.write_text(json.dumps(manifest), encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))  # distinct modification times, whatever the clock says


def _steps(folder: Path) -> list[Any]:
    """Callables that change the folder; the first builds it."""

    def build() -> None:
        folder.mkdir()
        _write(folder, "a.json", _manifest("alpha", "Alpha"), 10**18)
        _write(folder, "b.json", _manifest("beta", "Beta"), 10**18)
        _write(folder, "c.json", _manifest("gamma", "Gamma"), 10**18)

    def rewrite_b_remove_c_add_d() -> None:
        _write(folder, "b.json", _manifest("beta", "Beta Two"), 2 * 10**18)
        (folder / "c.json").unlink()
        _write(folder, "d.json", _manifest("delta", "Delta"), 10**18)

    def duplicate_id() -> None:
        _write(folder, "e.json", _manifest("alpha", "Alpha Again"), 3 * 10**18)

    def remove_folder() -> None:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()

    return [build, rewrite_b_remove_c_add_d, duplicate_id, remove_folder]


RUNNER = """\
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
import { getToolRegistry } from "./index.js";
const folder = process.argv[2];
let opened = 0;
const open = fs.openSync;
fs.openSync = (path, ...rest) => { if (String(path).endsWith(".json")) opened += 1; return open(path, ...rest); };
syncBuiltinESMExports(); // the loader's `import * as fs` sees the counting openSync
let registry = null;
const results = [];
// After each step the test applies: refresh (or load) and report.
const steps = Number(process.argv[3]);
for (let step = 0; step < steps; step++) {
  // Wait (10 ms at a time) until the test has applied the step to the folder.
  while (!fs.existsSync(process.argv[4] + "/go" + step)) Atomics.wait(PAUSE, 0, 0, 10);
  opened = 0;
  registry = registry === null ? getToolRegistry(folder) : registry.refresh();
  results.push({
    states: registry.refreshed.map((s) => [s.source, s.state]),
    ids: [...registry.ids],
    names: registry.tools.map((t) => t.displayName),
    codes: registry.diagnostics.map((d) => [d.code, d.source]),
    opened,
  });
  fs.writeFileSync(process.argv[4] + "/done" + step, "");
}
console.log(JSON.stringify(results));
"""


def test_refresh_matches_python_and_rereads_only_changed_files(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "refresh.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    folder = tmp_path / "adapters"
    signals = tmp_path / "signals"
    signals.mkdir()
    steps = _steps(folder)
    child = subprocess.Popen(
        [node_executable(), str(runner), str(folder), str(len(steps)), str(signals)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    python: list[dict[str, Any]] = []
    registry = None
    try:
        for index, step in enumerate(steps):
            step()
            registry = get_tool_registry(str(folder)) if registry is None else registry.refresh()
            python.append(
                {
                    "states": [[s.source, s.state] for s in registry.refreshed],
                    "ids": list(registry.ids),
                    "names": [t.displayName for t in registry.tools],
                    "codes": [[str(d.code), d.source] for d in registry.diagnostics],
                }
            )
            (signals / f"go{index}").write_text("")
            _wait_for(signals / f"done{index}", child)
        stdout, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, stderr
    typescript = json.loads(stdout)
    opened = [step.pop("opened") for step in typescript]
    assert typescript == python
    assert [s for s, _ in python[1]["states"]] == ["a.json", "b.json", "d.json", "c.json"]
    assert [state for _, state in python[1]["states"]] == ["reused", "loaded", "loaded", "removed"]
    # First load: every file; then only what changed (b rewritten, d new; then e new).
    assert opened[:3] == [3, 2, 1]
    assert python[3]["states"] == [
        [name, "removed"] for name in ("a.json", "b.json", "d.json", "e.json")
    ]


def _wait_for(path: Path, child: subprocess.Popen[str]) -> None:
    import time

    for _ in range(6000):
        if path.exists():
            return
        if child.poll() is not None:
            raise AssertionError(child.stderr.read() if child.stderr else "node exited")
        time.sleep(0.01)
    raise AssertionError("node did not finish a step")


FORGED = """\
import { loadThirdPartyManifests } from "./index.js";
const folder = process.argv[2];
const results = [];
for (const previous of [{}, { states: 5 }, null, 7, { states: [{ source: "x.json", state: "loaded" }] }]) {
  const result = loadThirdPartyManifests(folder, { previous });
  results.push(result.states.map((s) => [s.source, s.state]));
}
console.log(JSON.stringify(results));
"""


def test_a_previous_result_the_loader_did_not_make_is_ignored(tmp_path: Path) -> None:
    """A refresh from something that is not a load result (a forged object, null, a number)
    is a fresh load: the loader never throws."""
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "forged.mjs"
    runner.write_text(FORGED, encoding="utf-8")
    folder = tmp_path / "adapters"
    folder.mkdir()
    _write(folder, "a.json", _manifest("alpha", "Alpha"), 10**18)
    completed = subprocess.run(
        [node_executable(), str(runner), str(folder)], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == [[["a.json", "loaded"]]] * 5


def test_python_ignores_a_previous_result_no_load_made(tmp_path: Path) -> None:
    from tool_registry import load_third_party_manifests

    _write(tmp_path, "a.json", _manifest("alpha", "Alpha"), 10**18)
    forgeries: list[Any] = [{}, 7, "x"]
    for forged in forgeries:
        loaded = load_third_party_manifests(tmp_path, previous=forged)
        assert [(s.source, s.state) for s in loaded.states] == [("a.json", "loaded")]


KEPT_OPTIONS = """\
import { getToolRegistry } from "./index.js";
const folder = process.argv[2];
const options = { grants: { alpha: ["headless-task"] }, categories: ["cli-agent"] };
const registry = getToolRegistry(folder, options);
options.grants.alpha = [];          // the caller changes its objects afterwards
options.categories.push("mcp-server");
options.grants = {};
const refreshed = registry.refresh();
console.log(JSON.stringify([registry, refreshed].map((r) => [r.providersOf("headless-task"), [...r.categories ?? []]])));
"""


def test_a_refresh_keeps_the_options_the_registry_was_made_with(tmp_path: Path) -> None:
    """As Python's registry keeps its own grants and scope, a TypeScript refresh applies the
    options read when the registry was made, not what the caller's objects say later."""
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "kept.mjs"
    runner.write_text(KEPT_OPTIONS, encoding="utf-8")
    folder = tmp_path / "adapters"
    folder.mkdir()
    manifest = {**_manifest("alpha", "Alpha"), "category": "cli-agent"}
    manifest["capabilities"] = {"provides": ["headless-task"]}
    _write(folder, "a.json", manifest, 10**18)
    completed = subprocess.run(
        [node_executable(), str(runner), str(folder)], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    first, second = json.loads(completed.stdout)
    assert first == second
    assert "alpha" in first[0] and first[1] == ["cli-agent"]

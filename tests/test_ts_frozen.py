"""What the TypeScript loader hands out cannot be changed behind the registry's back."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import REPO, build_typescript, run_node

RUNNER = """\
import { loadThirdPartyManifests } from "./index.js";
const folder = process.argv[2];
const { manifests } = loadThirdPartyManifests(folder);
const manifest = manifests[0];
const frozen = [manifest, manifest.detect, manifest.capabilities, manifest.capabilities.provides,
  manifest.promptArgTemplate].map((part) => Object.isFrozen(part));
let refused = false;
try { manifest.detect.binaryName = "sh"; } catch { refused = true; }
console.log(JSON.stringify({ frozen, refused, binary: manifest.detect.binaryName }));
"""


def test_loaded_manifests_are_frozen_all_the_way_down(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    manifest = {
        "id": "acme",
        "displayName": "Acme",
        "launchable": True,
        "hookCapable": False,
        "hookPointer": ".acme/hook.json",
        "detect": {"kind": "path", "binaryName": "acme"},
        "promptArgTemplate": ["--print", "{prompt}"],
        "capabilities": {"provides": ["headless-task"]},
    }
    (folder / "acme.json").write_text(json.dumps(manifest), encoding="utf-8")
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    (out / "frozen.mjs").write_text(RUNNER.replace("process.argv[2]", json.dumps(str(folder))))
    completed = run_node(out / "frozen.mjs")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {
        "frozen": [True, True, True, True, True],
        "refused": True,
        "binary": "acme",
    }

"""README, "The runtime commands": ``detect`` "prints one detection result per tool
(``installed``, ``not installed``, or ``unknown`` when there is no way to tell on this
platform); ``--format json`` prints ``{"results": [...], "diagnostics": [...]}`` (``installed``
is ``true``, ``false`` or ``null``)", and exits 0 whatever the adapters folder holds."""

from __future__ import annotations

import json
from pathlib import Path

from tool_registry import SUPPORTED_TOOLS

from .conftest import run_toolgen
from .test_loader import manifest, put

WORDS = {True: "installed", False: "not installed", None: "unknown"}


def test_detect_text_says_installed_not_installed_or_unknown(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "aider.json", manifest(detect={"kind": "path", "binaryName": "sh"}))
    put(folder, "broken.json", "{")  # what the folder holds never changes the exit code
    env = {"HOME": str(tmp_path)}
    as_json = run_toolgen("detect", "--adapters-dir", str(folder), "--format", "json", env=env)
    assert as_json.returncode == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    assert set(document) == {"results", "diagnostics"}
    results = document["results"]
    assert [r["id"] for r in results] == [*SUPPORTED_TOOLS, "aider"]
    assert {r["installed"] for r in results} <= {True, False, None}
    assert results[-1]["installed"] is True
    unknown = [r["id"] for r in results if r["installed"] is None]
    codes = {(d["source"], d["code"]) for d in document["diagnostics"]}
    assert ("broken.json", "INVALID_JSON") in codes
    # Each unknown state says why: its result carries a NOT_DETECTABLE warning.
    for result in results:
        if result["id"] in unknown:
            assert result["diagnostic"]["code"] == "NOT_DETECTABLE", result
    for diagnostic in document["diagnostics"]:
        assert {"code", "severity", "source", "pointer", "message"} <= diagnostic.keys()

    as_text = run_toolgen("detect", "--adapters-dir", str(folder), env=env)
    assert as_text.returncode == 0, as_text.stderr
    lines = as_text.stdout.splitlines()
    assert len(lines) == len(results)
    for line, result in zip(lines, results, strict=True):
        word = WORDS[result["installed"]]
        assert line.startswith((f"{result['id']}: {word};", f"{result['id']}: {word} at ")), line

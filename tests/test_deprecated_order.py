"""DEPRECATED_FIELD records come in the schema's order of the deprecated properties, in every
process, as TypeScript's loader gives them (it walks its ``DEPRECATED_FIELDS`` table in order).

Python took the intersection of two key sets, whose order follows the strings' hashes: with two
or more deprecated properties in a manifest, the records' order changed with ``PYTHONHASHSEED``
from one run to the next, and differed from TypeScript's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from .conftest import REPO

# Deprecated in this (stand-in) order; a manifest holding all of them, in another order.
TABLE = {
    "category": "hint c",
    "library": "hint l",
    "hookPackage": "hint h",
    "promptArgTemplate": "hint p",
    "capabilities": "hint k",
}
SCRIPT = """
import json, sys
from tool_registry import loader
loader.DEPRECATED_FIELDS = json.loads(sys.argv[1])
document = {
    "capabilities": {"provides": []}, "promptArgTemplate": ["{prompt}"], "hookPackage": "xh",
    "library": "acme", "category": "cli-agent", "id": "x", "displayName": "X",
    "launchable": True, "hookCapable": False, "hookPointer": ".x/y",
    "detect": {"kind": "path", "binaryName": "x"},
}
data = json.dumps(document).encode()
result = loader.load_manifest_files([("x.json", "x")], read_file=lambda _p, _l: data)
print(json.dumps([
    [d.pointer, d.hint] for d in result.files[0].diagnostics if d.code.value == "DEPRECATED_FIELD"
]))
assert result.files[0].accepted, result.files[0].diagnostics
"""


def _records(seed: int) -> list[list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(TABLE)],
        env={
            **os.environ,
            "PYTHONHASHSEED": str(seed),
            "PYTHONPATH": str(REPO / "generated" / "python"),
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    records: list[list[str]] = json.loads(done.stdout)
    return records


def test_deprecated_field_records_follow_the_table_whatever_the_hash_seed() -> None:
    expected = [[f"/{key}", hint] for key, hint in TABLE.items()]
    for seed in range(8):
        assert _records(seed) == expected, f"PYTHONHASHSEED={seed}"


def test_typescript_walks_its_table_in_order() -> None:
    """The order held to above is TypeScript's: its loader reports from its table, in order."""
    source = (REPO / "generated" / "typescript" / "loader.ts").read_text(encoding="utf-8")
    assert "for (const [key, hint] of DEPRECATED_FIELDS)" in source

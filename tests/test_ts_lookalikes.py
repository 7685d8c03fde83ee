"""The TypeScript look-alike keys against Python's, which are the reference (Unicode's tables).

``lookalike_keys`` decides which display names imitate one another, in the loader of both
languages. The TypeScript one answers ASCII names through two tables it builds at load from its
general functions; these tests hold both paths to Python's keys: every ASCII character alone and
every pair of printable ones, seeded random ASCII names, and names mixing in non-ASCII letters,
invisible characters and confusables.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from tool_registry import lookalike_keys

from .conftest import REPO, build_typescript, node_executable

RUNNER = """\
import { readFileSync, writeFileSync } from "node:fs";
import { lookalikeKeys } from "./lookalikes.js";
const names = JSON.parse(readFileSync(process.argv[2], "utf8"));
writeFileSync(process.argv[3], JSON.stringify(names.map((name) => [...lookalikeKeys(name)].sort())));
"""


def _names() -> list[str]:
    printable = [chr(c) for c in range(0x20, 0x7F)]
    names = [chr(c) for c in range(128)]
    names += [a + b for a in printable for b in printable]
    chooser = random.Random(3)  # a reproducible sample
    alphabet = "".join(printable) + "\t\n"
    names += ["".join(chooser.choices(alphabet, k=chooser.randint(1, 24))) for _ in range(3000)]
    names += [
        "Claude Code",
        "C1aude",
        "CIaude",
        "c\u200blaude",
        "\uff23laude",
        "\u0421laude",
        "Cl\u0430ude",
        "rn",
        "m",
        "Cursor\u202e",
        "\U0001d402ursor",
        "co\u0064ex",
        "Stra\u00dfe",
        "STRASSE",
    ]
    return names


def test_typescript_keys_equal_python_keys(tmp_path: Path) -> None:
    out = build_typescript(tmp_path, REPO / "generated/typescript")
    runner = out / "keys.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    names = _names()
    source, target = tmp_path / "names.json", tmp_path / "keys.json"
    source.write_text(json.dumps(names), encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(runner), str(source), str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(target.read_text(encoding="utf-8"))
    wrong = [
        (name, keys, sorted(lookalike_keys(name)))
        for name, keys in zip(names, found, strict=True)
        if keys != sorted(lookalike_keys(name))
    ]
    assert not wrong, wrong[:10]

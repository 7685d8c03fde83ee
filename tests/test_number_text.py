"""A JSON number's ``found`` text is the same in both languages: Python's ``number_text`` spells
the double that ``JSON.parse`` makes of the number's JSON text exactly as ECMAScript's
``Number::toString`` does (node is the reference here), for doubles of every magnitude and
integers of every size (past the largest double: ``inf``)."""

from __future__ import annotations

import json
import math
import random
import struct
import subprocess
from pathlib import Path

from tool_registry.diagnostics import number_text

from .conftest import node_executable

# Reads a JSON array of numbers' texts and prints how JavaScript shows each (infinities as
# the runtime's shownValue spells them).
SPELL = """
import { readFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(process.argv[2], "utf8"));
const spelled = texts.map((text) => {
  const value = JSON.parse(text);
  return Number.isFinite(value) ? String(value) : value > 0 ? "inf" : "-inf";
});
console.log(JSON.stringify(spelled));
"""

EDGES: list[int | float] = [
    0.0, -0.0, 1.0, -1.0, 0.1, 1e-7, 1e-6, 1.5e-6, 1e16, 1e20, 1e21, 1.2345e21, 5e-324,
    1.7976931348623157e308, 2**53, 2**53 + 1, -(2**60), 12345678901234567890, 10**300,
    2**1023, 2**1024 - 1, 2**1024, 10**400, 100.0, 1e-5, 123456.789,
]  # fmt: skip


def numbers(count: int, seed: int) -> list[int | float]:
    generator = random.Random(seed)
    found: list[int | float] = list(EDGES)
    while len(found) < count:
        kind = generator.random()
        if kind < 0.4:  # any finite double, by its bits
            (value,) = struct.unpack("<d", generator.getrandbits(64).to_bytes(8, "little"))
            if math.isfinite(value):
                found.append(value)
        elif kind < 0.7:
            found.append(generator.uniform(-1e6, 1e6) * 10 ** generator.randint(-30, 30))
        else:
            found.append(generator.randint(-(2 ** generator.randint(1, 1100)), 2**1100))
    return found


def test_numbers_are_spelled_as_typescript_spells_them(tmp_path: Path) -> None:
    values = numbers(3000, seed=20261130)
    texts = tmp_path / "numbers.json"
    texts.write_text(json.dumps([json.dumps(value) for value in values]), encoding="utf-8")
    script = tmp_path / "spell.mjs"
    script.write_text(SPELL, encoding="utf-8")
    done = subprocess.run(
        [node_executable(), str(script), str(texts)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    spelled = json.loads(done.stdout)
    differ = [
        (value, number_text(value), theirs)
        for value, theirs in zip(values, spelled, strict=True)
        if number_text(value) != theirs
    ]
    assert differ == []

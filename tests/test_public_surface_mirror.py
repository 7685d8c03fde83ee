"""The Python package's ``__all__`` and the TypeScript ``index.ts`` mirror each other.

The README's table (after ``<!-- public-surface-table -->``) pairs every public name of one
language with its name in the other, or with a dash and the idiom that replaces it. This test
lists TypeScript's exports with the pinned compiler's own API (values and types alike) and holds
both sides to the table: nothing public is missing from it, nothing in it is missing from its
side, and a paired name is the other's in its language's spelling.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import tool_registry

from .conftest import REPO, node_executable

LISTER = """\
import ts from "TYPESCRIPT";
const file = process.argv[2];
const program = ts.createProgram([file], {
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022, strict: true, types: ["node"], typeRoots: [process.argv[3]],
});
const checker = program.getTypeChecker();
const module = checker.getSymbolAtLocation(program.getSourceFile(file));
console.log(JSON.stringify(checker.getExportsOfModule(module).map((symbol) => symbol.name).sort()));
"""


def _typescript_exports(tmp_path: Path) -> set[str]:
    lister = tmp_path / "list-exports.mjs"
    compiler = (REPO / "node_modules/typescript/lib/typescript.js").as_uri()
    lister.write_text(LISTER.replace("TYPESCRIPT", compiler), encoding="utf-8")
    completed = subprocess.run(
        [
            node_executable(),
            str(lister),
            str(REPO / "generated/typescript/index.ts"),
            str(REPO / "node_modules/@types"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    names: list[str] = json.loads(completed.stdout)
    return set(names)


def _table() -> list[tuple[str | None, str | None, str]]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- public-surface-table -->\n", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in block.splitlines()[2:]:
        python, typescript, note = (cell.strip() for cell in line.strip("|").split("|"))
        rows.append((python.strip("`") if python != "—" else None,
                     typescript.strip("`") if typescript != "—" else None, note))  # fmt: skip
    return rows


def _spelled(name: str) -> str:
    """A Python name in TypeScript's spelling: functions camelCase, everything else as it is."""
    if re.fullmatch(r"[A-Z0-9_]+", name) or name[:1].isupper():
        return name
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def test_the_table_lists_both_surfaces_exactly(tmp_path: Path) -> None:
    rows = _table()
    python = {p for p, _, _ in rows if p is not None}
    typescript = {t for _, t, _ in rows if t is not None}
    assert python == set(tool_registry.__all__)
    assert typescript == _typescript_exports(tmp_path)


def test_paired_names_follow_the_spelling_rule_and_lone_names_say_why() -> None:
    for python, typescript, note in _table():
        if python is not None and typescript is not None:
            assert _spelled(python) == typescript, (python, typescript)
        else:
            assert note, (python, typescript)


def test_every_listed_python_name_is_importable() -> None:
    for python, _, _ in _table():
        if python is not None:
            assert getattr(tool_registry, python) is not None

"""README claims of "What is generated from what" and "Layout", held to the generated code."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tool_registry
import tool_registry.models
from tool_registry import NoHomeFolderError, get_tool_registry

from .conftest import REPO


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def _row(first_cell: str) -> str:
    """The contents column of the generated-files table's row for ``first_cell``."""
    for line in _readme().splitlines():
        if line.startswith(f"| {first_cell} |"):
            return line.strip("|").split("|")[-1]
    raise AssertionError(f"no row for {first_cell}")


def test_every_name_the_readme_calls_a_frozen_keyword_only_dataclass_is_one() -> None:
    contents = _row("`generated/python/tool_registry/models.py`")
    listed = contents.split("dataclasses:", 1)[1].split("…", 1)[0]
    names = re.findall(r"`(\w+)`", listed)
    assert names
    for name in names:
        value = getattr(tool_registry.models, name)
        assert isinstance(value, type) and dataclasses.is_dataclass(value), name
        params = value.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, name
        assert all(f.kw_only for f in dataclasses.fields(value)), name


def _index_exports() -> set[str]:
    text = (REPO / "generated/typescript/index.ts").read_text(encoding="utf-8")
    names: set[str] = set()
    for star in re.findall(r'export \* from "\./([\w-]+)\.js";', text):
        module = (REPO / f"generated/typescript/{star}.ts").read_text(encoding="utf-8")
        names.update(
            re.findall(r"^export (?:const|function|class|type|interface) (\w+)", module, re.M)
        )
    for block in re.findall(r"export \{([^}]*)\}", text):
        names.update(re.sub(r"^type ", "", n.strip()) for n in block.split(",") if n.strip())
    return names


def test_the_readme_says_what_index_ts_re_exports() -> None:
    """The TypeScript rows list helpers (``SEVERITY``, ``skeleton``, ``runVersion``, ...) that
    ``index.ts`` leaves out, so its row may not say it re-exports them all."""
    exported = _index_exports()
    listed: set[str] = set()
    for line in _readme().split("## What is generated from what\n", 1)[1].splitlines():
        if line.startswith("| `generated/typescript/"):
            listed.update(re.findall(r"`([A-Za-z_]\w*)`", line.strip("|").split("|")[-1]))
    left_out = {"SEVERITY", "skeleton", "CONFUSABLES", "runVersion", "shownPointer"} & listed
    assert left_out and not left_out & exported
    row = _row("`generated/typescript/hook-packages.ts`, `prompt-args.ts`, `index.ts`")
    assert "re-exports all" not in row
    assert "re-exports the public surface" in row
    assert "#the-two-public-surfaces-name-for-name" in row
    assert "### The two public surfaces, name for name" in _readme()


def test_the_layout_says_which_generated_file_has_no_template() -> None:
    """Layout: every generated file has its template, except the stamp, which the README must
    then not count among them."""
    templates = {
        path.relative_to(REPO / "generator/templates").as_posix().removesuffix(".jinja")
        for path in (REPO / "generator/templates").rglob("*.jinja")
    }
    stems = {name.rsplit("/", 1)[-1] for name in templates}
    generated = [
        path
        for path in (REPO / "generated").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    untemplated = sorted(path.name for path in generated if path.name not in stems)
    assert untemplated == ["toolgen-stamp.json"]
    layout = _readme().split("## Layout\n", 1)[1]
    line = next(x for x in layout.splitlines() if x.strip().startswith("templates/"))
    assert "but the stamp" in line


@pytest.mark.parametrize(
    "copier",
    [
        copy.copy,
        copy.deepcopy,
        lambda error: pickle.loads(pickle.dumps(error)),  # noqa: S301
        lambda error: pickle.loads(pickle.dumps(error, protocol=0)),  # noqa: S301
    ],
    ids=["copy", "deepcopy", "pickle", "pickle-0"],
)
def test_no_home_folder_error_survives_pickle_and_copy(
    copier: Callable[[NoHomeFolderError], NoHomeFolderError],
) -> None:
    """A process pool passes the error on by pickling it: it was rebuilt from ``args`` alone, so
    the reason became ``configured`` and the message the default reason."""
    error = NoHomeFolderError("~/adapters", "the setting is not UTF-8 text: it names no folder")
    again = copier(error)
    assert type(again) is NoHomeFolderError
    assert str(again) == str(error) == error.reason
    assert again.args == error.args
    assert vars(again) == vars(error)
    assert (again.configured, again.reason) == ("~/adapters", error.reason)


def _docstring_owners(tree: ast.Module) -> list[ast.AST]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [node for node in ast.walk(tree) if isinstance(node, kinds)]


def test_no_generated_docstring_holds_a_lone_surrogate() -> None:
    """A docstring whose escapes make a lone surrogate (``\\udcc3``) cannot be encoded: Python
    3.13.0 compiles such a module with ``UnicodeEncodeError`` (``tool_registry.loader``, so every
    runtime name, failed to import), and ``help()`` cannot print it to a UTF-8 terminal."""
    roots = [REPO / "generated/python", *sorted((REPO / "tests/golden").glob("*/generated/python"))]
    files = [path for root in roots for path in sorted(root.rglob("*.py"))]
    assert any(path.name == "loader.py" for path in files)
    held = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _docstring_owners(tree):
            text = ast.get_docstring(node, clean=False)  # type: ignore[arg-type]
            if text is not None and any(0xD800 <= ord(char) <= 0xDFFF for char in text):
                held.append((path.relative_to(REPO).as_posix(), getattr(node, "name", "")))
    assert held == []


_ADAPTER = {
    "id": "hostile-review-tool",
    "displayName": "Hostile Review Tool",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".hostile-review/install.json",
    "detect": {"kind": "path", "binaryName": "hostile-review-tool"},
    "capabilities": {"provides": ["headless-task"]},
}


def test_a_registry_hashes_as_its_type_promises(tmp_path: Path) -> None:
    """``ToolRegistry`` is a frozen dataclass, so a type checker lets it into a set or a cache
    key; its read-only mappings made ``hash`` a ``TypeError``. Equal registries hash alike."""
    (tmp_path / "a.json").write_text(json.dumps(_ADAPTER), encoding="utf-8")
    grants = {"hostile-review-tool": ["headless-task"]}
    first = get_tool_registry(str(tmp_path), grants=grants)
    second = get_tool_registry(str(tmp_path), grants=grants)
    clone = pickle.loads(pickle.dumps(first))  # noqa: S301
    assert first == second == clone
    assert hash(first) == hash(second) == hash(clone)
    assert len({first, second, clone}) == 1
    assert first.providers_of("headless-task")[-1] == "hostile-review-tool"
    other = get_tool_registry(str(tmp_path))
    assert other != first
    assert len({first, other}) == 2


def test_the_runtime_tables_are_read_only() -> None:
    """TypeScript freezes its code table; Python's tables were plain dicts a caller could change
    in place: a record said ``warning`` while the loader refused the file as an error, and a
    cohort, a deprecated field or a look-alike mapping changed what the runtime decides."""
    from tool_registry import diagnostics, loader, lookalikes, registry

    code = tool_registry.DiagnosticCode.SCHEMA_VIOLATION
    tables: list[tuple[Any, Any, Any]] = [
        (diagnostics.SEVERITY, code, tool_registry.Severity.WARNING),
        (registry.COHORT_FIELDS, "LAUNCH_COHORT", "hookCapable"),
        (loader.DEPRECATED_FIELDS, "category", "use capabilities"),
        (lookalikes.CONFUSABLES, "x", "y"),
    ]
    for table, key, value in tables:
        with pytest.raises(TypeError):
            table[key] = value
        assert not hasattr(table, "update") and not hasattr(table, "clear")
    parsed = tool_registry.parse_third_party_manifest({"id": "x"})
    assert not parsed.accepted
    assert all(d.severity is tool_registry.Severity.ERROR for d in parsed.diagnostics)

"""Type names the schema gives the generated packages must not collide with names those packages
already use.

The root ``title`` and every ``$defs`` key become a Python class in ``models.py`` and a TypeScript
type in ``types.ts``. The other generated modules import those classes beside names of their own
(``typing.Any``, ``collections.abc.Mapping``, ``Diagnostic``, ``ToolId``), and Python's builtins
(``TypeError``) are in scope everywhere. A ``$defs`` entry named like one of them shadows it:
``loader.py`` would raise the model class ``TypeError`` instead of the builtin, ``index.ts`` would
export two ``ToolId``s (TS2308), and generation itself succeeded. The names in use are read from
the rendered modules themselves, so a template that starts using a new name is covered without a
list to keep in step.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable, Iterator, Mapping

# The Python module holding the schema's classes, and the TypeScript module holding its types.
MODELS_MODULE = "models"
TYPES_FILE = "types.ts"

# A TypeScript declaration a module exports, and the names of an ``export { … }`` list.
_TS_EXPORTED_DECLARATION = re.compile(
    r"^export\s+(?:declare\s+)?(?:abstract\s+)?"
    r"(?:const|let|var|function\*?|async\s+function\*?|class|interface|type|enum|namespace)\s+"
    r"([A-Za-z_$][\w$]*)",
    re.MULTILINE,
)
_TS_EXPORT_LIST = re.compile(r"^export\s+(?:type\s+)?\{([^}]*)\}", re.MULTILINE)


def python_names_in_use(sources: Mapping[str, str]) -> dict[str, str]:
    """Every name bound at module level by the generated Python modules (``{name: module path}``,
    the first module binding it), and every builtin (``"builtins"``). The models module's own
    classes and the other modules' imports of them (``from .models import X``) are left out:
    those are the schema's names, not a collision. ``sources`` maps paths to module texts."""
    found: dict[str, str] = {name: "builtins" for name in dir(builtins)}
    for path, text in sources.items():
        is_models = path.rsplit("/", 1)[-1] == f"{MODELS_MODULE}.py"
        for name in _module_bindings(ast.parse(text), imports_only=is_models):
            found.setdefault(name, path)
    return found


def typescript_names_in_use(sources: Mapping[str, str]) -> dict[str, str]:
    """Every name the generated TypeScript modules other than ``types.ts`` export
    (``{name: module path}``): ``index.ts`` re-exports them beside ``types.ts``'s own, and the
    modules importing them may import the schema's types too."""
    found: dict[str, str] = {}
    for path, text in sources.items():
        if path.rsplit("/", 1)[-1] == TYPES_FILE:
            continue
        for name in _ts_exports(text):
            found.setdefault(name, path)
    return found


def _ts_exports(text: str) -> Iterator[str]:
    yield from _TS_EXPORTED_DECLARATION.findall(text)
    for names in _TS_EXPORT_LIST.findall(text):
        for entry in names.split(","):
            words = entry.split()
            if words and words[0] == "type":
                words = words[1:]
            if words:
                yield words[-1]  # `A as B` exports B


def _module_bindings(module: ast.Module, *, imports_only: bool) -> Iterator[str]:
    """Names bound at module level, conditional blocks (``if TYPE_CHECKING:``, ``try:``)
    included, function and class bodies not; ``imports_only`` keeps only imported names."""
    for statement in _module_level(module.body):
        if isinstance(statement, ast.Import):
            yield from (alias.asname or alias.name.split(".")[0] for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            if statement.level == 1 and statement.module == MODELS_MODULE:
                continue  # the schema's own classes
            yield from (alias.asname or alias.name for alias in statement.names)
        elif imports_only:
            continue
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield statement.name
        elif isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            yield from _assigned(targets)


def _module_level(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.For | ast.While | ast.With):
            yield from _module_level([*statement.body, *getattr(statement, "orelse", [])])
        elif isinstance(statement, ast.Try):
            handlers = [node for handler in statement.handlers for node in handler.body]
            yield from _module_level(
                [*statement.body, *handlers, *statement.orelse, *statement.finalbody]
            )


def _assigned(targets: Iterable[ast.expr]) -> Iterator[str]:
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id
        elif isinstance(target, ast.Tuple | ast.List):
            yield from _assigned(target.elts)

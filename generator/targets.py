"""The table of output targets: one row per generated file.

A new output is one template plus one row here (plus its golden files, which ``make regen``
writes). A row names the configured output folder (``root``), the file's path inside it, and the
view that builds its template's context; a row with a ``when`` is generated only when the
configuration asks for it (the npm package files). The template is package data,
``generator/templates/<folder>/<file name>.jinja``; files ending in ``.py`` go through the Python
formatter, everything else is emitted as rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from generator import views
from generator.ir import Registry

Root = Literal["python_out", "typescript_out", "editor_schema_out", "docs_out"]
TEMPLATE_FOLDERS: dict[Root, str] = {
    "python_out": "python",
    "typescript_out": "typescript",
    "editor_schema_out": "schema",
    "docs_out": "docs",
}


def _always(registry: Registry) -> bool:
    return True


def _typescript_package(registry: Registry) -> bool:
    return registry.package.typescript


@dataclass(frozen=True)
class Target:
    root: Root
    path: str
    view: Callable[[Registry], views.Context]
    when: Callable[[Registry], bool] = _always

    @property
    def template(self) -> str:
        return f"{TEMPLATE_FOLDERS[self.root]}/{PurePosixPath(self.path).name}.jinja"

    @property
    def is_python(self) -> bool:
        return self.path.endswith(".py")


# fmt: off
TARGETS: tuple[Target, ...] = (
    Target("python_out",        "pyproject.toml",                 views.python_pyproject),
    Target("python_out",        "tool_registry/__init__.py",      views.python_init),
    Target("python_out",        "tool_registry/models.py",        views.python_models),
    Target("python_out",        "tool_registry/constants.py",     views.python_constants),
    Target("python_out",        "tool_registry/hook_packages.py", views.python_hook_packages),
    Target("python_out",        "tool_registry/prompt_args.py",   views.no_context),
    Target("python_out",        "tool_registry/py.typed",         views.no_context),
    Target("python_out",        "tool_registry/diagnostics.py",   views.python_diagnostics),
    Target("python_out",        "tool_registry/schema_runtime.py", views.no_context),
    Target("python_out",        "tool_registry/validator.py",     views.python_validator),
    Target("python_out",        "tool_registry/lookalikes.py",    views.python_lookalikes),
    Target("python_out",        "tool_registry/loader.py",        views.python_loader),
    Target("python_out",        "tool_registry/registry.py",      views.python_registry),
    Target("python_out",        "tool_registry/detection.py",     views.python_detection),
    Target("python_out",        "tool_registry/launch.py",        views.python_detection),
    Target("typescript_out",    "types.ts",                       views.ts_types),
    Target("typescript_out",    "tools.ts",                       views.ts_tools),
    Target("typescript_out",    "hook-packages.ts",               views.ts_hook_packages),
    Target("typescript_out",    "prompt-args.ts",                 views.no_context),
    Target("typescript_out",    "launch.ts",                      views.ts_launch),
    Target("typescript_out",    "diagnostics.ts",                 views.ts_diagnostics),
    Target("typescript_out",    "schema-runtime.ts",              views.no_context),
    Target("typescript_out",    "validator.ts",                   views.ts_validator),
    Target("typescript_out",    "lookalikes.ts",                  views.ts_lookalikes),
    Target("typescript_out",    "json-text.ts",                   views.no_context),
    Target("typescript_out",    "loader.ts",                      views.ts_loader),
    Target("typescript_out",    "registry.ts",                    views.ts_registry),
    Target("typescript_out",    "detection.ts",                   views.root_type),
    Target("typescript_out",    "index.ts",                       views.root_type),
    Target("typescript_out",    "package.json",                   views.ts_package,
           _typescript_package),
    Target("typescript_out",    "tsconfig.json",                  views.no_context,
           _typescript_package),
    Target("editor_schema_out", "tools.schema.json",              views.editor_table_schema),
    Target("docs_out",          "reference.md",                   views.docs_reference),
)
# fmt: on

"""The table of output targets: one row per generated file.

A new output is one template under ``templates/`` plus one row here (plus its golden files, which
``make generate`` writes). ``root`` names the configured output folder the file lives in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from generator import views
from generator.ir import Registry

Formatter = Literal["python", "text"]
Root = Literal["python_out", "typescript_out", "editor_schema_out"]


@dataclass(frozen=True)
class Target:
    name: str
    root: Root
    path: str
    template: str
    view: Callable[[Registry], views.Context]
    formatter: Formatter


TARGETS: tuple[Target, ...] = (
    Target(
        "py-project",
        "python_out",
        "pyproject.toml",
        "python/pyproject.toml.jinja",
        views.no_context,
        "text",
    ),
    Target(
        "py-init",
        "python_out",
        "tool_registry/__init__.py",
        "python/__init__.py.jinja",
        views.python_init,
        "python",
    ),
    Target(
        "py-models",
        "python_out",
        "tool_registry/models.py",
        "python/models.py.jinja",
        views.python_models,
        "python",
    ),
    Target(
        "py-constants",
        "python_out",
        "tool_registry/constants.py",
        "python/constants.py.jinja",
        views.python_constants,
        "python",
    ),
    Target(
        "py-hook-packages",
        "python_out",
        "tool_registry/hook_packages.py",
        "python/hook_packages.py.jinja",
        views.python_hook_packages,
        "python",
    ),
    Target(
        "py-prompt-args",
        "python_out",
        "tool_registry/prompt_args.py",
        "python/prompt_args.py.jinja",
        views.no_context,
        "python",
    ),
    Target(
        "py-typed",
        "python_out",
        "tool_registry/py.typed",
        "python/py.typed.jinja",
        views.no_context,
        "text",
    ),
    Target(
        "ts-types",
        "typescript_out",
        "types.ts",
        "typescript/types.ts.jinja",
        views.ts_types,
        "text",
    ),
    Target(
        "ts-tools",
        "typescript_out",
        "tools.ts",
        "typescript/tools.ts.jinja",
        views.ts_tools,
        "text",
    ),
    Target(
        "ts-hook-packages",
        "typescript_out",
        "hook-packages.ts",
        "typescript/hook-packages.ts.jinja",
        views.ts_hook_packages,
        "text",
    ),
    Target(
        "ts-prompt-args",
        "typescript_out",
        "prompt-args.ts",
        "typescript/prompt-args.ts.jinja",
        views.no_context,
        "text",
    ),
    Target(
        "ts-index",
        "typescript_out",
        "index.ts",
        "typescript/index.ts.jinja",
        views.no_context,
        "text",
    ),
    Target(
        "editor-schema",
        "editor_schema_out",
        "tools.schema.json",
        "schema/tools.schema.json.jinja",
        views.editor_table_schema,
        "text",
    ),
)

"""Render stage: every target's template over its view -> ``{target: text}`` (pure, no I/O but
reading templates).

The templates are package data (``generator/templates/``), read through the package's loader, so
an installed toolgen renders exactly as a checkout does; tests may point at a copied folder.

Templates run with ``StrictUndefined`` (a typo is an error, not an empty string), trimmed blocks and
the escaping filters from ``literals``; they have no access to anything but their view's context.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from generator import literals
from generator.ir import Registry
from generator.targets import Target

TEMPLATES_PACKAGE, TEMPLATES_FOLDER = "generator", "templates"
# The packaged templates as a folder on disk, for tests that copy and alter them.
TEMPLATES_DIR = Path(__file__).resolve().parent / TEMPLATES_FOLDER


def make_environment(templates_dir: Path | None = None) -> jinja2.Environment:
    """The rendering environment; the packaged templates unless ``templates_dir`` is given."""
    loader: jinja2.BaseLoader = (
        jinja2.PackageLoader(TEMPLATES_PACKAGE, TEMPLATES_FOLDER)
        if templates_dir is None
        else jinja2.FileSystemLoader(str(templates_dir))
    )
    environment = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # noqa: S701 - the output is code, escaped by the literal filters below
    )
    environment.filters.update(
        py_str=literals.py_str,
        ts_str=literals.ts_str,
        toml_str=literals.toml_str,
        ts_key=literals.ts_key,
        py_scalar=literals.py_scalar,
        ts_scalar=literals.ts_scalar,
        ident=literals.identifier,
    )
    environment.globals.update(header_python=literals.HEADER_PYTHON, header_ts=literals.HEADER_TS)
    return environment


def render_target(registry: Registry, target: Target, environment: jinja2.Environment) -> str:
    """The text of one target: its template over its view of the registry."""
    return environment.get_template(target.template).render(target.view(registry))

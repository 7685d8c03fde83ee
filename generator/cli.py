"""Command line: ``toolgen generate`` and ``toolgen check``. The only module that prints.

Exit codes: 0 success, 1 findings (invalid input, drift, generation failure), 2 usage error
(bad arguments or configuration). Diagnostics go to stderr in ``text`` format, to stdout as
workflow commands in ``github`` format and as one JSON object in ``json`` format; ``check`` prints
its unified diffs to stdout (in ``json``, inside the object).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from generator import __version__
from generator.config import ConfigError, find_project, load_config
from generator.diagnostics import (
    Diagnostic,
    render_github,
    render_json,
    render_text,
    sanitize,
    sort_key,
)
from generator.emit import compare_outputs, write_outputs
from generator.pipeline import build_outputs, output_roots

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolgen", description="Generate the tool registry from schema/."
    )
    parser.add_argument("--version", action="version", version=f"toolgen {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--project",
        type=Path,
        default=None,
        help="folder holding pyproject.toml (default: the nearest one with [tool.toolgen] at or"
        " above the current folder)",
    )
    common.add_argument(
        "--format", choices=("text", "json", "github"), default="text", help="diagnostics format"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("generate", parents=[common], help="write every generated file")
    commands.add_parser(
        "check", parents=[common], help="exit 1 with a diff when generated files drift"
    )
    return parser


def _report(diagnostics: Sequence[Diagnostic], output_format: str, **extra: object) -> None:
    ordered = sorted(diagnostics, key=sort_key)
    if output_format == "json":
        print(render_json(ordered, **extra))
        return
    if output_format == "github":
        # Workflow commands are read from standard output (the documented channel).
        for diagnostic in ordered:
            print(render_github(diagnostic))
        return
    for diagnostic in ordered:
        print(render_text(diagnostic), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        return _run(arguments)
    except Exception as error:  # last resort: a bug must not show users a traceback
        if os.environ.get("TOOLGEN_DEBUG"):
            raise
        print(
            f"toolgen: internal error: {type(error).__name__}: {sanitize(str(error), 300)}"
            " (set TOOLGEN_DEBUG=1 for a traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_FINDINGS


def _run(arguments: argparse.Namespace) -> int:
    project = arguments.project if arguments.project is not None else find_project(Path.cwd())
    try:
        config = load_config(project)
    except ConfigError as error:
        print(f"toolgen: {error}", file=sys.stderr)
        return EXIT_USAGE
    result = build_outputs(config)
    if not result.ok:
        _report(result.diagnostics, arguments.format)
        return EXIT_FINDINGS
    roots = output_roots(config)
    if arguments.command == "generate":
        changed, failures = write_outputs(config.project_dir, result.outputs, roots)
        _report([*result.diagnostics, *failures], arguments.format, changed=changed)
        if arguments.format == "text":
            print(f"toolgen: {len(result.outputs)} files, {len(changed)} changed", file=sys.stderr)
        return EXIT_FINDINGS if failures else EXIT_OK
    differences = compare_outputs(config.project_dir, result.outputs, roots)
    if arguments.format != "json":
        for difference in differences:
            sys.stdout.write(difference.diff)
    _report(
        [*result.diagnostics, *(d.diagnostic for d in differences)],
        arguments.format,
        diffs={d.diagnostic.source: d.diff for d in differences},
    )
    if arguments.format == "text" and not differences:
        print(f"toolgen: {len(result.outputs)} files up to date", file=sys.stderr)
    return EXIT_FINDINGS if differences else EXIT_OK

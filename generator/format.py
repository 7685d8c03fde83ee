"""Format stage: Python output through the pinned ruff, then an ``ast.parse`` gate.

ruff runs as ``python -m ruff`` on stdin with ``--isolated`` so no configuration file on the
machine can change the bytes; it is passed an argument list, never a shell command. Every text
leaves with LF line endings and exactly one final newline.
"""

from __future__ import annotations

import ast
import subprocess
import sys

RUFF_LINE_LENGTH = "100"


class FormatError(Exception):
    """ruff failed, or the result is not valid Python."""


def _ruff(arguments: list[str], source: str, filename: str) -> str:
    command = [
        sys.executable,
        "-m",
        "ruff",
        *arguments,
        "--isolated",
        "--stdin-filename",
        filename,
        "-",
    ]
    completed = subprocess.run(  # noqa: S603 - fixed argument list, no shell
        command, input=source, capture_output=True, text=True, encoding="utf-8", check=False
    )
    if completed.returncode != 0:
        raise FormatError(
            f"ruff {arguments[0]} failed on {filename}: {completed.stderr.strip()[:500]}"
        )
    return completed.stdout


def format_python(source: str, filename: str) -> str:
    sorted_imports = _ruff(
        [
            "check",
            "--select",
            "I,F401",
            "--fix",
            "--exit-zero",
            "--quiet",
            "--target-version",
            "py311",
        ],
        source,
        filename,
    )
    formatted = _ruff(
        ["format", "--line-length", RUFF_LINE_LENGTH, "--target-version", "py311"],
        sorted_imports,
        filename,
    )
    try:
        ast.parse(formatted, filename=filename)
    except SyntaxError as error:
        raise FormatError(
            f"{filename} is not valid Python after formatting: {error.msg}"
        ) from error
    return normalize_newlines(formatted)


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n") + "\n"

"""The older sources ``toolgen breaking --against REF`` compares with: a git revision or a folder.

A folder holds an older copy of the project (its ``schema/`` and generated package) at the same
relative paths as the configuration names. Anything else is a git revision, read with
``git show REV:./PATH`` run in the project folder (an argument list, never a shell), so a project
in a subfolder of its repository reads its own paths. A revision starting with ``-`` is refused
(it would be an option), and so is one git does not know.

Besides ``load``, this is the one module that reads input: the baseline's text is parsed with the
same ``parse_yaml``/``parse_json`` as the working tree, so it is judged by the same rules.
The runtime codes at the baseline are read from its generated ``diagnostics.py`` with ``ast``,
never imported or executed.
"""

from __future__ import annotations

import ast
import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator import files
from generator.config import Config
from generator.diagnostics import Code
from generator.load import (
    Loaded,
    decode_text,
    parse_json,
    parse_yaml,
    read_text,
    refuse_null_document,
    unreadable,
)
from generator.runtime import PACKAGE

RUNTIME_CODES_FILE = f"{PACKAGE}/diagnostics.py"
RUNTIME_CODES_CLASS = "DiagnosticCode"
_GIT_TIMEOUT = 60
_CHUNK = 1 << 20


class BaselineError(Exception):
    """The baseline cannot be read at all (a usage error: exit code 2)."""


@dataclass(frozen=True)
class Baseline:
    label: str  # shown in diagnostics: ``REF:path`` or the folder's path
    manifest: Loaded
    table_schema: Loaded
    table: Loaded
    runtime_codes: tuple[str, ...] | None  # None: the baseline had no generated package
    # The baseline's runtime code file when it is there but cannot be read or parsed: its codes
    # cannot be compared (they were silently skipped, hiding a removed code).
    runtime_codes_unreadable: str | None = None


def _cannot_run_git(error: BaseException) -> str:
    """Why git did not run, said so a user can act on it (not only the exception's type)."""
    if isinstance(error, FileNotFoundError):
        return (
            "cannot run git: FileNotFoundError (git is not on PATH: install it, or give --against"
            " a folder holding the older copy)"
        )
    return f"cannot run git: {type(error).__name__}"


def _git(project_dir: Path, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(  # noqa: S603 - an argument list, no shell; the ref is checked
            ["git", *arguments],  # noqa: S607 - git from PATH, as a maintainer runs it
            cwd=project_dir,
            capture_output=True,
            check=False,
            timeout=_GIT_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BaselineError(_cannot_run_git(error)) from error


def _git_show(project_dir: Path, spec: str, limit: int) -> tuple[int, bytes | None]:
    """``git show SPEC``'s exit status and output, read as a file in a folder is: at most
    ``limit`` bytes (``None`` past them: reading stops there and git is ended), so a huge blob
    at a revision costs no more memory than the folder reader's cap allows."""
    try:
        process = subprocess.Popen(  # noqa: S603 - an argument list, no shell; the ref is checked
            ["git", "show", spec],  # noqa: S607 - git from PATH, as a maintainer runs it
            cwd=project_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError as error:
        raise BaselineError(_cannot_run_git(error)) from error
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        process.kill()  # its pipe closes: the read below ends

    timer = threading.Timer(_GIT_TIMEOUT, expire)
    timer.start()
    chunks: list[bytes] = []
    total = 0
    try:
        stdout = process.stdout
        if stdout is None:  # cannot happen with stdout=PIPE; keeps the type checker honest
            raise BaselineError("cannot run git: no pipe")
        while total <= limit:
            chunk = os.read(stdout.fileno(), min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        timer.cancel()
        if process.poll() is None and (total > limit or expired.is_set()):
            process.kill()
        if process.stdout is not None:
            process.stdout.close()
        returncode = process.wait()
    if expired.is_set():
        raise BaselineError("cannot run git: TimeoutExpired")
    return returncode, None if total > limit else b"".join(chunks)


class _Reader:
    def __init__(self, config: Config, against: str) -> None:
        self.config = config
        self.against = against
        folder = Path(against)
        try:
            is_folder = bool(against) and folder.is_dir()
        except OSError:  # a name too long for a path, a folder on the way that cannot be searched
            is_folder = False  # then it must be a revision (or it is a usage error)
        self.folder = folder if is_folder else None
        if self.folder is None:
            self._check_revision()

    def _check_revision(self) -> None:
        if not self.against or self.against.startswith("-"):
            raise BaselineError("--against must name a git revision or a folder")
        found = _git(
            self.config.project_dir,
            "rev-parse",
            "--verify",
            "--quiet",
            f"{self.against}^{{commit}}",
        )
        if found.returncode != 0:
            raise BaselineError("--against names neither a folder nor a git revision")

    def label(self, relative: str) -> str:
        return f"{self.against}:{relative}"

    def text(self, relative: str) -> tuple[str | None, Loaded | None]:
        """The file's text, or a ``Loaded`` carrying why it cannot be read."""
        source = self.label(relative)
        if self.folder is not None:
            text, problems = read_text(self.folder / relative, source)
            if text is None and all(d.code is Code.FILE_NOT_FOUND for d in problems):
                return None, None  # missing, as ``git show`` finds no file at a revision
            if text is None:
                return None, Loaded(source, None, problems)
            return text, None
        limit = files.MAX_FILE_BYTES
        returncode, data = _git_show(self.config.project_dir, f"{self.against}:./{relative}", limit)
        if data is None:  # refused as the folder reader refuses it, having read no more
            return None, Loaded(source, None, (unreadable(files.too_large(limit), source),))
        if returncode != 0:
            return None, None
        # Decoded as a file in the folder is (a BOM tolerated): text that is not UTF-8 is a
        # located problem, never taken for an absent file.
        text, problems = decode_text(data, source)
        if text is None:
            return None, Loaded(source, None, problems)
        return text, None


def read_baseline(config: Config, against: str) -> Baseline:
    """The older sources, parsed (not validated: the caller does that)."""
    reader = _Reader(config, against)

    def parsed(key: str, parse: Callable[[str, str], Loaded]) -> Loaded:
        relative = config.relative(key)
        text, problem = reader.text(relative)
        if problem is not None:
            return problem
        if text is None:
            raise BaselineError(f"{relative} cannot be read at {against}")
        return refuse_null_document(parse(text, reader.label(relative)), key)

    manifest = parsed("schema", parse_json)
    table_schema = parsed("table_schema", parse_json)
    table = parsed("table", parse_yaml)
    codes_file = f"{config.relative('python_out')}/{RUNTIME_CODES_FILE}"
    codes_text, codes_problem = reader.text(codes_file)
    codes = None if codes_text is None else enum_values(codes_text, RUNTIME_CODES_CLASS)
    missing = codes_problem is not None and all(
        d.code is Code.FILE_NOT_FOUND for d in codes_problem.diagnostics
    )
    unreadable = (codes_text is not None and codes is None) or (
        codes_problem is not None and not missing
    )
    return Baseline(
        against,
        manifest,
        table_schema,
        table,
        codes,
        reader.label(codes_file) if unreadable else None,
    )


def enum_values(source: str, class_name: str) -> tuple[str, ...] | None:
    """The string values assigned in ``class class_name`` of Python ``source``, read with ``ast``
    (nothing is executed); ``None`` when the source does not parse or has no such class."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # CPython's parser raises MemoryError for an expression nested too deeply for its stack
        # (``x = ------…1``), which a revision's file may hold: that is no Python either.
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return tuple(
                statement.value.value
                for statement in node.body
                if isinstance(statement, ast.Assign)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            )
    return None

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
import contextlib
import os
import subprocess
import threading
from collections.abc import Callable, Mapping
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


# Variables naming a path git reads: relative ones mean the caller's current folder, and git
# runs in the project folder, where they named another repository (or none).
_GIT_PATH_VARIABLES = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_COMMON_DIR",
)
_GIT_PATH_LIST_VARIABLES = ("GIT_ALTERNATE_OBJECT_DIRECTORIES",)


def git_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment git runs with: the caller's, its path variables made absolute from the
    current folder (``GIT_DIR=.git toolgen breaking --project sub`` means the caller's
    ``.git``). A relative one with no current folder to start from is a ``BaselineError``."""
    environment = dict(os.environ if environ is None else environ)
    relative = [
        name
        for name in (*_GIT_PATH_VARIABLES, *_GIT_PATH_LIST_VARIABLES)
        if any(part and not os.path.isabs(part) for part in environment.get(name, "").split(":"))
    ]
    if not relative:
        return environment
    try:
        here = os.getcwd()
    except OSError as error:
        raise BaselineError(
            f"{relative[0]} is a relative path, but the current folder cannot be used"
            f" ({error.strerror or type(error).__name__}): make it absolute"
        ) from error
    for name in relative:
        value = environment[name]
        parts = value.split(":") if name in _GIT_PATH_LIST_VARIABLES else [value]
        environment[name] = ":".join(os.path.join(here, part) if part else part for part in parts)
    return environment


def _git(project_dir: Path, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(  # noqa: S603 - an argument list, no shell; the ref is checked
            ["git", *arguments],  # noqa: S607 - git from PATH, as a maintainer runs it
            cwd=project_dir,
            env=git_environment(),
            capture_output=True,
            check=False,
            timeout=_GIT_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BaselineError(_cannot_run_git(error)) from error


def _git_read(
    project_dir: Path, arguments: tuple[str, ...], limit: int, given: bytes = b""
) -> tuple[int, bytes | None]:
    """git's exit status and output, read as a file in a folder is: at most ``limit`` bytes
    (``None`` past them: reading stops there and git is ended), so a huge blob at a revision
    costs no more memory than the folder reader's cap allows. ``given`` is git's input (a
    line or two: it fits a pipe's buffer, so writing it first cannot wait on git)."""
    try:
        process = subprocess.Popen(  # noqa: S603 - an argument list, no shell; the ref is checked
            ["git", *arguments],  # noqa: S607 - git from PATH, as a maintainer runs it
            cwd=project_dir,
            env=git_environment(),
            stdin=subprocess.PIPE if given else subprocess.DEVNULL,
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
        if process.stdin is not None:
            with contextlib.suppress(OSError):  # git ended early: its status says why
                process.stdin.write(given)
            with contextlib.suppress(OSError):
                process.stdin.close()
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


# What ``git cat-file --batch-check --follow-symlinks`` says instead of an object: the link (or
# the path through one) cannot be followed to a file of the tree.
_UNFOLLOWED = {
    b"symlink": "a symbolic link pointing outside the repository",
    b"loop": "a symbolic link in a loop",
    b"dangling": "a symbolic link to nothing",
}
_LOOKUP_LIMIT = 1 << 16


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
        if not self.against or self.against.startswith("-") or "\n" in self.against:
            # (a line break would end git's batch input early: the revision is one line)
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
        if "\n" in relative or "\r" in relative:  # git's batch input is one spec a line
            reason = "a path with a line break cannot be read from git"
            return None, Loaded(source, None, (unreadable(OSError(0, reason), source),))
        found = self._object(relative)
        if found is None:
            return None, None
        if isinstance(found, str):
            return None, Loaded(source, None, (unreadable(OSError(0, found), source),))
        limit = files.MAX_FILE_BYTES
        blob = ("cat-file", "blob", found.decode("ascii"))
        returncode, data = _git_read(self.config.project_dir, blob, limit)
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

    def _object(self, relative: str) -> bytes | str | None:
        """The blob at ``REF:./relative``, committed symbolic links followed within the tree as
        the folder reader follows them on disk (``git show`` printed a link's target text as
        the file): its object name; ``None`` when there is no file there, else why it cannot be
        read (a link out of the repository, in a loop or to nothing, a folder, a submodule)."""
        spec = f"{self.against}:./{relative}"
        returncode, data = _git_read(
            self.config.project_dir,
            ("cat-file", "--batch-check", "--follow-symlinks"),
            _LOOKUP_LIMIT,
            f"{spec}\n".encode("utf-8", "surrogateescape"),
        )
        if returncode != 0 or not data:
            raise BaselineError(f"git cannot read {relative} at {self.against}")
        first = data.split(b"\n", 1)[0]
        words = first.split(b" ")
        if words[0] in _UNFOLLOWED:
            return _UNFOLLOWED[words[0]]
        if first.endswith((b" missing", b" notdir")) or words[0] == b"notdir":
            return None  # no such file (``notdir``: a file stands where a folder was named)
        if len(words) == 3 and words[1] == b"blob" and words[2].isdigit():
            if int(words[2]) > files.MAX_FILE_BYTES:
                return files.too_large(files.MAX_FILE_BYTES).strerror or "too large"
            return words[0]
        if len(words) == 3 and words[1] == b"tree":
            return "a folder, not a file"
        if len(words) == 3 and words[1] in (b"commit", b"tag"):
            return f"not a file (a {words[1].decode('ascii')})"
        raise BaselineError(f"git cannot read {relative} at {self.against}")


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

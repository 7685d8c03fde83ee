"""Format stage: Python output through the pinned ruff, then a compile gate.

All Python files of a run are formatted together: they are copied into a private temporary
folder (deleted afterwards), laid out by their path below the files' common folder (so
``generated/python/tool_registry/x.py`` is ``tool_registry/x.py`` there, whatever the configured
output folder is called; a path with an empty, ``.`` or ``..`` segment, or an absolute one, is
refused rather than allowed to leave the folder) and ruff runs twice over it, ``check --fix``
for import order and unused imports, then ``format``. ``--isolated`` keeps any ruff
configuration on the machine from changing the bytes, and ruff is passed an argument list, never
a shell command. Every text leaves with LF line endings and exactly one final newline.

``start_formatting`` does the same in the background: ruff's two runs are waited for by a worker
thread, so the caller renders the other outputs meanwhile (a large table's ``constants.py`` keeps
ruff busy about as long as its TypeScript and Markdown take to render); the compile gate runs in
the caller's thread when it asks for the result.

Each text is parsed by Python once, after formatting (``compile``: the output must be valid
Python). The rendered text is not parsed beforehand: ``ruff format`` refuses text that does not
parse, and only then are the rendered texts parsed, to name the file and the reason. (Parsing
every text before and after ruff was about a quarter of ``generate``'s time on a large table.)
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
import threading
import tokenize
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from generator.readme import normalize_newlines

__all__ = [
    "FormatError",
    "PendingFormat",
    "format_python",
    "normalize_newlines",
    "start_formatting",
]

RUFF_LINE_LENGTH = "100"
_COMMON = ["--isolated", "--target-version", "py311"]


class FormatError(Exception):
    """ruff failed, or the result is not valid Python."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def _ruff(arguments: list[str], folder: Path) -> None:
    command = [sys.executable, "-m", "ruff", *arguments, *_COMMON, "."]
    completed = subprocess.run(  # noqa: S603 - fixed argument list, no shell
        command, cwd=folder, capture_output=True, text=True, encoding="utf-8", check=False
    )
    if completed.returncode != 0:
        raise FormatError("", f"ruff {arguments[0]} failed: {completed.stderr.strip()[:500]}")


def format_python(sources: Mapping[str, str]) -> dict[str, str]:
    """``{path: source}`` -> ``{path: formatted source}``; raises ``FormatError``."""
    return start_formatting(sources).result()


class PendingFormat:
    """``format_python`` under way: ruff runs (as its own processes, from a worker thread) while
    the caller does other work, such as rendering the files that are not Python. ``result()``
    waits for ruff and then runs the compile gate in the caller's thread; ``discard()`` waits
    and drops the outcome. Either must be called: the scratch folder lives until ruff is done."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = dict(sources)
        self._outcome: dict[str, str] | BaseException | None = None
        self._worker = threading.Thread(target=self._run, name="toolgen-ruff")
        if self._sources:
            self._worker.start()

    def _run(self) -> None:
        try:
            self._outcome = _format_in_scratch_folder(self._sources)
        except BaseException as error:  # handed to the caller by result(), raised there
            self._outcome = error

    def _wait(self) -> dict[str, str] | BaseException | None:
        if self._sources:
            self._worker.join()
        return self._outcome

    def discard(self) -> None:
        self._wait()

    def result(self) -> dict[str, str]:
        """The formatted sources; raises ``FormatError``."""
        outcome = self._wait()
        if outcome is None:
            return {}
        if isinstance(outcome, OSError):
            message = f"cannot run ruff in a temporary folder: {outcome.strerror}"
            raise FormatError("", message) from outcome
        if isinstance(outcome, FormatError):
            _require_valid_python(self._sources, "as rendered")  # name the file ruff refused
            raise outcome
        if isinstance(outcome, BaseException):
            raise outcome
        _require_valid_python(outcome, "after formatting")
        return {path: waive_long_lines(normalize_newlines(text)) for path, text in outcome.items()}


_WAIVER = "  # noqa: E501 - a value from the sources, longer than a line"
_FILE_WAIVER = re.compile(r"^# ruff: noqa(?:$|: [^\n]*\bE501\b)", re.MULTILINE)


def waive_long_lines(text: str) -> str:
    """``text`` with ``# noqa: E501`` after each line ruff format left longer than its line length
    (a long string from the table or the schema: ruff splits no string), where a comment can go:
    not inside a string spanning lines, not on a line that has a comment. Only such lines get
    one (an unused waiver is RUF100)."""
    limit = int(RUFF_LINE_LENGTH)
    lines = text.split("\n")
    if _FILE_WAIVER.search(text) or not any(_overlong(line, limit) for line in lines):
        return text  # a module that waives E501 as a whole (validator.py) needs no more
    inside: set[int] = set()  # 0-based lines a string token runs past the end of
    commented: set[int] = set()
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT:
            commented.add(token.start[0] - 1)
        elif token.start[0] != token.end[0]:
            inside.update(range(token.start[0] - 1, token.end[0] - 1))
    return "\n".join(
        line + _WAIVER
        if _overlong(line, limit) and index not in inside and index not in commented
        else line
        for index, line in enumerate(lines)
    )


def _overlong(line: str, limit: int) -> bool:
    """Whether ruff's E501 reports ``line`` (ASCII: every generated text is): longer than
    ``limit``, but not one word (nothing to split) nor ending in a URL that starts within it."""
    chunks = line.split()
    if len(line) <= limit or len(chunks) < 2:
        return False
    return not ("://" in chunks[-1] and len(line) - len(chunks[-1]) <= limit)


def start_formatting(sources: Mapping[str, str]) -> PendingFormat:
    """``format_python`` started in the background: see ``PendingFormat``."""
    return PendingFormat(sources)


def _require_valid_python(sources: Mapping[str, str], stage: str) -> None:
    for path, text in sources.items():
        try:
            # Bytecode, not an AST: the same syntax check (and the compiler's own), without
            # building a Python object per node (less than half the time on a large file).
            compile(text, path, "exec", dont_inherit=True)
        except SyntaxError as error:
            raise FormatError(path, f"not valid Python {stage}: {error.msg}") from error


def scratch_layout(paths: Iterable[str]) -> dict[str, PurePosixPath]:
    """Each path's place in the scratch folder: its segments below the common folder of all the
    paths. Raises ``FormatError`` for a path that could leave the folder."""
    split: dict[str, tuple[str, ...]] = {}
    for path in paths:
        parts = tuple(path.split("/"))
        if path.startswith("/") or "\\" in path or any(p in {"", ".", ".."} for p in parts):
            raise FormatError(path, "refusing to format a file outside the output folder")
        split[path] = parts
    common = 0
    folders = [parts[:-1] for parts in split.values()]
    while all(len(f) > common and f[common] == folders[0][common] for f in folders):
        common += 1
    return {path: PurePosixPath(*parts[common:]) for path, parts in split.items()}


def _format_in_scratch_folder(sources: Mapping[str, str]) -> dict[str, str]:
    layout = scratch_layout(sources)
    with tempfile.TemporaryDirectory(prefix="toolgen-format-") as scratch:
        folder = Path(scratch)
        for path, source in sources.items():
            target = folder / layout[path]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8", newline="\n")
        _ruff(["check", "--select", "I,F401", "--fix", "--exit-zero", "--quiet"], folder)
        _ruff(["format", "--quiet", "--line-length", RUFF_LINE_LENGTH], folder)
        return {path: (folder / layout[path]).read_text(encoding="utf-8") for path in sources}

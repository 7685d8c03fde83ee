"""Emit stage: the only module that writes. Two sinks over one ``{relative path: text}`` map.

``write_outputs`` writes every changed file to a temporary file in its folder first and renames
them into place (``os.replace``, the stamp last) only when all were written, so a reader never
sees a half-written file and a failed write (a full disk) or an interrupt before the renames leaves
every previous output as it was; it deletes files in the owned output folders that no target
produces, never caches or the artefacts of building the generated package
(``IGNORED_NAMES``, ``BUILD_ARTEFACTS``). ``compare_outputs`` reports what differs without
touching disk.

Defence in depth beside the configuration's checks: ``generate`` writes and deletes only where the
*real* path of the containing folder lies inside an output folder's real path (or, for a file
outside the output folders such as the README, inside the project's real path). The walk never
descends into a symlinked folder, and a symlink found in an output folder is an orphan like any
file: deleting it removes the link itself (``unlink`` does not follow links), never its target.
A path that fails the check is reported as ``WRITE_FAILED`` and left alone.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import os
import signal
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from generator.diagnostics import MAX_SHOWN_PATH, Code, Diagnostic, describe, sanitize
from generator.files import read_file
from generator.outputs import (
    BUILD_ARTEFACTS,
    BUILD_FILE,
    IGNORED_NAMES,
    existing_files,
    resolves_within,
    staged_leftovers,
    walk,
)
from generator.project_lock import project_lock
from generator.stamp import STAMP_NAME

__all__ = [
    "BUILD_ARTEFACTS",
    "BUILD_FILE",
    "IGNORED_NAMES",
    "Difference",
    "compare_outputs",
    "existing_files",
    "staged_leftovers",
    "write_outputs",
]


@dataclass(frozen=True)
class Difference:
    diagnostic: Diagnostic
    diff: str


class _Fence:
    """Where generate may write or delete: decided on the real path of a file's folder."""

    def __init__(self, project_dir: Path, roots: list[str]) -> None:
        self._project = project_dir.resolve()
        self._roots = [(root, (project_dir / root).resolve()) for root in roots]

    def allows(self, relative: str) -> bool:
        try:
            folder = (self._project / relative).parent.resolve()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
            return False
        owned = [real for root, real in self._roots if _is_under(relative, root)]
        if owned:
            return folder.is_relative_to(owned[0])
        # Not in an output folder (the README): inside the project, and not in an output folder.
        return folder.is_relative_to(self._project) and not any(
            folder.is_relative_to(real) for _, real in self._roots
        )


def _is_under(relative: str, root: str) -> bool:
    return relative.startswith(root.rstrip("/") + "/")


def _refused(relative: str, action: str) -> Diagnostic:
    return Diagnostic(
        Code.WRITE_FAILED,
        f"refusing to {action}: its folder resolves outside the output folders",
        relative,
    )


def _read(path: Path) -> str | None:
    try:
        return read_file(path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


_NO_NEWLINE = "\\ No newline at end of file\n"


def _diff_lines(text: str) -> list[str]:
    """``text``'s lines as ``diff`` and ``patch`` count them: split at LF only (``splitlines``
    also split at CR, VT, FF, NEL, U+2028, ..., making lines no tool sees), each keeping its
    LF; only the last may have none."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _unified_diff(current: str, expected: str, fromfile: str, tofile: str) -> str:
    """A unified diff from ``current`` to ``expected`` in which every line ends with LF: a last
    line without one is followed by ``\\ No newline at end of file``, as ``diff`` and ``git``
    write it. Joined as difflib yields them, such a line ran into the next line of the output
    (``-}--- a/next.py``), so a lost final newline was shown as no change at all."""
    return "".join(
        line if line.endswith("\n") else line + "\n" + _NO_NEWLINE
        for line in difflib.unified_diff(
            _diff_lines(current), _diff_lines(expected), fromfile=fromfile, tofile=tofile
        )
    )


def compare_outputs(
    project_dir: Path, outputs: Mapping[str, str], roots: list[str]
) -> list[Difference]:
    """Changed, missing and orphaned files, each with a unified diff from disk to expected. A
    temporary file an interrupted ``generate`` left (``staged_leftovers``) is not drift: the
    outputs are what they are; the caller mentions it."""
    differences: list[Difference] = []
    for relative in sorted(outputs):
        shown = sanitize(relative, MAX_SHOWN_PATH)  # diff headers reach the terminal
        elsewhere = not resolves_within(project_dir, roots, relative)
        current = None if elsewhere else _read(project_dir / relative)
        expected = outputs[relative]
        if current == expected:
            continue
        missing = not (project_dir / relative).is_file()
        code = Code.DRIFT_MISSING if missing else Code.DRIFT_CHANGED
        if missing:
            message = "missing: run `toolgen generate`"
        elif elsewhere:
            message = (
                "a symbolic link to a file outside its folder (not read): run `toolgen generate`,"
                " which replaces the link with the file"
            )
        elif current is None:
            message = "unreadable or not UTF-8: run `toolgen generate`"
        else:
            message = "differs from what the sources generate: run `toolgen generate`"
        diff = _unified_diff(current or "", expected, f"a/{shown}", f"b/{shown}")
        differences.append(Difference(Diagnostic(code, message, relative), diff))
    leftovers = set(staged_leftovers(project_dir, outputs))
    for relative in existing_files(project_dir, roots):
        if relative not in outputs and relative not in leftovers:
            inside = resolves_within(project_dir, roots, relative)
            current = (_read(project_dir / relative) if inside else None) or ""
            diff = _unified_diff(
                current, "", f"a/{sanitize(relative, MAX_SHOWN_PATH)}", "/dev/null"
            )
            differences.append(
                Difference(
                    Diagnostic(
                        Code.DRIFT_ORPHANED,
                        "no target generates this file: delete it or run `toolgen generate`",
                        relative,
                    ),
                    diff,
                )
            )
    return differences


def _umask() -> int:
    """The process's umask, read without changing it where the system tells (Linux); elsewhere
    set and restored at once (``os.umask`` has no read-only form)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8) & 0o777
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(path: Path, staged: int) -> int:
    """The permission bits the file written at ``path`` gets: the ones the file there has (a
    private table stays private, a group-writable output stays so), else (nothing there, or a
    symbolic link the file replaces) what the umask gives a new file, as ``open`` would.

    The group bits are the old group's: the staged file (descriptor ``staged``) is given that
    group, and where it cannot be (this process is not in it) its group may do what others may
    and no more, as editors do; a ``0o664`` output of another group was handed to this
    process's group, which could then write it."""
    try:
        status = os.lstat(path)
    except OSError:
        status = None
    if status is None or stat.S_ISLNK(status.st_mode):  # a link there is replaced, not its target
        return 0o666 & ~_umask()
    mode = stat.S_IMODE(status.st_mode) & 0o777
    if os.fstat(staged).st_gid != status.st_gid:
        try:
            os.fchown(staged, -1, status.st_gid)
        except (OSError, AttributeError):  # AttributeError: no fchown (Windows)
            mode = (mode & ~0o070) | ((mode & 0o007) << 3)
    return mode


def _stage(path: Path, text: str, created: list[Path] | None = None) -> str:
    """Write ``text`` to a new temporary file beside ``path``, synced, with the permission bits
    ``path`` has (or a new file would get: ``_mode_for``), and return its name; ``path`` itself
    is not touched. A folder where ``path`` belongs fails here, before anything is replaced,
    rather than at the rename. The folders it makes are added to ``created``."""
    missing: list[Path] = []
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    path.parent.mkdir(parents=True, exist_ok=True)
    if created is not None:
        created.extend(missing)
    if path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
    )
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
            mode = _mode_for(path, handle.fileno())
        os.chmod(temporary, mode)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def _write_atomically(path: Path, text: str) -> None:
    temporary = _stage(path, text)
    try:
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back while the renames run (a few milliseconds), so
    Ctrl-C lands after the last file is replaced, not between two; no-op where signals cannot be
    blocked. SIGKILL cannot be held: the stamp, replaced last, records every file's bytes, so
    ``check`` never calls a half-replaced set current."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)}
    previous = mask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


def write_outputs(
    project_dir: Path,
    outputs: Mapping[str, str],
    roots: list[str],
    sources: Mapping[str, str] | None = None,
    read_as: Mapping[str, str | None] | None = None,
) -> tuple[list[str], list[Diagnostic]]:
    """Make the output folders hold exactly ``outputs``; returns the changed paths and failures.

    All or nothing as far as a failure can be foreseen: every changed file is first written to a
    temporary file beside it; only when all of them are written (no full disk, no refused
    folder) are they renamed into place, the stamp last, and the orphans deleted. A failure or
    an interrupt before that leaves every previous output as it was and no temporary file.

    ``sources`` are files outside the output folders written in the same set (``add-tool``'s new
    table): staged with the outputs, and renamed into place only after every other changed file
    was, and only if none of those renames failed; otherwise they, and the stamp that vouches
    for them, are left as they were, byte for byte.

    ``read_as`` holds, for a source, the text it had when the caller read it (``None``: absent):
    when the file holds anything else once the lock is taken (another ``add-tool`` or an editor
    wrote it meanwhile), nothing is written and that is the one failure: writing would drop
    the other writer's change without a word.

    One writer at a time per project, and no ``check`` reading meanwhile (``project_lock``):
    without it a second ``generate`` took the first one's temporary files for orphans and
    deleted them."""
    with project_lock(project_dir, shared=False):
        moved = _changed_since_read(project_dir, read_as or {})
        if moved:
            return [], moved
        return _write_outputs(project_dir, outputs, roots, dict(sources or {}))


def _changed_since_read(project_dir: Path, read_as: Mapping[str, str | None]) -> list[Diagnostic]:
    """A ``WRITE_FAILED`` for each source that no longer holds the text it was read with."""
    return [
        Diagnostic(
            Code.WRITE_FAILED,
            "changed on disk since toolgen read it (another toolgen or an editor wrote it):"
            " nothing written, so that change is kept; run the command again",
            relative,
        )
        for relative, text in sorted(read_as.items())
        if _read(_through_links(project_dir / relative)) != text
    ]


def _write_outputs(
    project_dir: Path, outputs: Mapping[str, str], roots: list[str], sources: dict[str, str]
) -> tuple[list[str], list[Diagnostic]]:
    # What a killed run left is removed first, under the lock (no run is staging now), so it is
    # never taken for an orphan nor left beside a file outside the output folders (the README).
    # A source that is a symbolic link (a table shared between projects) is written through it,
    # at the file it names: replacing the link would leave that file without the change and the
    # project with a copy of its own.
    where = {relative: _through_links(project_dir / relative) for relative in sources}
    changed = _remove_leftovers(project_dir, outputs, roots, where)
    pending, orphans, failures = _plan_writes(project_dir, outputs, roots)
    # A source may lie outside the project (a shared schema): not fenced, as no output is.
    pending += [path for path in sources if _read(project_dir / path) != sources[path]]
    everything = {**outputs, **sources}
    staged: dict[str, str] = {}
    created: list[Path] = []
    try:
        if not failures:
            for relative in pending:
                try:
                    target = where.get(relative, project_dir / relative)
                    staged[relative] = _stage(target, everything[relative], created)
                except OSError as error:
                    failures.append(_write_failed("write", error, relative))
        if failures:
            _discard(staged, created)
            return changed, failures
        with _signals_deferred():
            complete = _commit_all(
                project_dir,
                pending,
                orphans=orphans,
                staged=staged,
                sources=where,
                changed=changed,
                failures=failures,
            )
        if not complete:
            return changed, failures
    except BaseException:
        _discard(staged, created)
        raise
    for root in roots:
        _remove_empty_folders(project_dir / root)
    return changed, failures


def _through_links(path: Path) -> Path:
    """``path`` with its last component's symbolic links followed (the file a link names);
    ``path`` itself when it is no link."""
    if not path.is_symlink():
        return path
    return Path(os.path.realpath(path))


def _from_project(project_dir: Path, path: Path) -> str:
    """``path`` relative to the project (``../shared/x``), or as it is where none can be (another
    drive)."""
    try:
        return Path(os.path.relpath(path, project_dir)).as_posix()
    except ValueError:  # pragma: no cover - Windows, another drive
        return str(path)


def _remove_leftovers(
    project_dir: Path, outputs: Mapping[str, str], roots: list[str], sources: Mapping[str, Path]
) -> list[str]:
    """Delete ``staged_leftovers`` beside the files about to be written (a source's beside the
    file it is written at); returns them. One beside an output passes the same fence as the
    outputs; one that cannot be deleted stays (the write reports the folder's trouble, if any)."""
    fence = _Fence(project_dir, roots)
    leftovers = [
        relative for relative in staged_leftovers(project_dir, outputs) if fence.allows(relative)
    ]
    for relative, target in sources.items():
        if target == project_dir / relative:
            leftovers += staged_leftovers(project_dir, [relative])
        else:  # beside the file a link names: shown from the project where a path can be
            for name in staged_leftovers(target.parent, [target.name]):
                leftovers.append(_from_project(project_dir, target.parent / name))
    removed: list[str] = []
    for relative in leftovers:
        with contextlib.suppress(OSError):
            (project_dir / relative).unlink()
            removed.append(relative)
    return removed


def _commit_all(
    project_dir: Path,
    pending: list[str],
    *,
    orphans: list[str],
    staged: dict[str, str],
    sources: Mapping[str, Path],
    changed: list[str],
    failures: list[Diagnostic],
) -> bool:
    """Rename the staged files into place and delete the orphans: the outputs, then the sources,
    the orphans, and the stamp last (it vouches for the other files' bytes). ``False`` when an
    output's rename failed and there are sources: those and the stamp are then discarded, left as
    they were, so the half-written outputs are drift that ``generate`` repairs."""
    stamp = [relative for relative in pending if PurePosixPath(relative).name == STAMP_NAME]
    last = [relative for relative in pending if relative in sources or relative in stamp]
    for relative in pending:
        if relative not in last:
            _commit(project_dir / relative, relative, staged.pop(relative), changed, failures)
    if failures and sources:
        _discard({relative: staged.pop(relative) for relative in last}, [])
        return False
    for relative in pending:
        if relative in sources:
            _commit(sources[relative], relative, staged.pop(relative), changed, failures)
    for relative in orphans:
        try:
            (project_dir / relative).unlink()
            changed.append(relative)
        except OSError as error:
            failures.append(_write_failed("delete", error, relative))
    for relative in stamp:
        _commit(project_dir / relative, relative, staged.pop(relative), changed, failures)
    return True


def _discard(staged: Mapping[str, str], created: list[Path]) -> None:
    """Undo the staging: the temporary files, then the folders made for them (deepest first)."""
    for temporary in staged.values():
        Path(temporary).unlink(missing_ok=True)
    for folder in sorted(set(created), key=lambda path: len(path.parts), reverse=True):
        with contextlib.suppress(OSError):  # not empty after all: leave it
            folder.rmdir()


def _plan_writes(
    project_dir: Path, outputs: Mapping[str, str], roots: list[str]
) -> tuple[list[str], list[str], list[Diagnostic]]:
    """The files to write (they differ from ``outputs``), the orphans to delete, and the paths
    the fence refuses (any one of which stops the whole write)."""
    fence = _Fence(project_dir, roots)
    pending: list[str] = []
    failures: list[Diagnostic] = []
    for relative in sorted(outputs):
        if not fence.allows(relative):
            failures.append(_refused(relative, "write"))
        elif (
            not resolves_within(project_dir, roots, relative)
            or _read(project_dir / relative) != outputs[relative]
        ):
            pending.append(relative)
    orphans: list[str] = []
    for relative in existing_files(project_dir, roots):
        if relative not in outputs:
            if fence.allows(relative):
                orphans.append(relative)
            else:
                failures.append(_refused(relative, "delete"))
    return pending, orphans, failures


def _write_failed(action: str, error: OSError, relative: str) -> Diagnostic:
    return Diagnostic(Code.WRITE_FAILED, f"cannot {action}: {describe(error.strerror)}", relative)


def _commit(
    target: Path, relative: str, temporary: str, changed: list[str], failures: list[Diagnostic]
) -> None:
    """Rename ``temporary`` to ``target``, the file ``relative`` names (a source's through its
    links); ``relative`` is what is reported."""
    try:
        os.replace(temporary, target)
        changed.append(relative)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        failures.append(_write_failed("write", error, relative))


def _remove_empty_folders(base: Path) -> None:
    """Remove the empty folders toolgen owns under ``base``, deepest first; a folder holding only
    a cache or a build artefact is not empty, and ignored folders are never touched."""
    if not base.is_dir():
        return
    folders = [path for path, is_folder in walk(base) if is_folder]
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        # Not empty, or not ours to remove after all: leave it.
        with contextlib.suppress(OSError):
            if not any(folder.iterdir()):
                folder.rmdir()

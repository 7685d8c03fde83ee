"""Which files an output folder holds: the walk ``generate``, ``check`` and the stamp share.

Caches and the artefacts of building the generated package are not toolgen's (``IGNORED_NAMES``,
``IGNORED_SUFFIXES``, ``BUILD_ARTEFACTS``): never listed, so never orphans and never deleted. The
walk never descends into a symlinked folder (a link is an entry like a file). Standard library
only: the fast ``check`` lists output folders through it without loading the pipeline.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePath

# Made by running, testing, type-checking or installing the generated code, at any depth; never
# toolgen's, so never orphans and never deleted.
IGNORED_NAMES = frozenset(
    {
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        "node_modules",
        ".DS_Store",
    }
)
# Version control data: never toolgen's, so never orphans and never deleted, at any depth (a
# nested checkout or submodule). The configuration refuses an output folder that is one, lies in
# one or holds one at its top (``generator/config.py``).
VCS_NAMES = frozenset({".git", ".hg", ".svn", ".jj", ".bzr"})
IGNORED_NAMES = IGNORED_NAMES | VCS_NAMES
IGNORED_SUFFIXES = (".pyc", ".pyo", ".egg-info", ".tsbuildinfo")
# What building a package leaves beside its build file: `pip install` and `python -m build`
# beside the generated Python package's pyproject.toml, `tsc -p .` (the generated tsconfig's
# outDir) beside the TypeScript package's package.json. Ignored only at the top of an output
# folder holding that build file, so a stray `build/` or `dist/` anywhere else is still an orphan.
BUILD_ARTEFACTS_BY_FILE: dict[str, frozenset[str]] = {
    "pyproject.toml": frozenset({"build", "dist", ".eggs"}),
    "package.json": frozenset({"dist"}),
}
BUILD_ARTEFACTS = frozenset().union(*BUILD_ARTEFACTS_BY_FILE.values())
BUILD_FILE = "pyproject.toml"


def _ignored(relative: PurePath, built: frozenset[str]) -> bool:
    """Whether ``relative`` (a path inside an output folder) is a cache or a build artefact;
    ``built`` names the artefact folders the build files at the top of that folder make."""
    parts = relative.parts
    if parts and parts[0] in built:
        return True
    return any(part in IGNORED_NAMES or part.endswith(IGNORED_SUFFIXES) for part in parts)


def _listing(folder: Path) -> tuple[list[tuple[str, bool]], list[str]] | None:
    """The folders in ``folder`` (links to one too), each with whether it is a link, and the
    other names, each sorted; empty when it is gone (or no folder now), ``None`` when it is
    there but cannot be listed (no permission, a path longer than the system's ``PATH_MAX``)."""
    folders: list[tuple[str, bool]] = []
    files: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    is_folder = entry.is_dir()
                    is_link = is_folder and entry.is_symlink()
                except OSError:
                    is_folder = is_link = False
                if is_folder:
                    folders.append((entry.name, is_link))
                else:
                    files.append(entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return [], []
    except OSError:
        return None
    return sorted(folders), sorted(files)


def resolves_within(project_dir: Path, roots: Iterable[str], relative: str) -> bool:
    """Whether the file at ``relative`` (in the project), every symbolic link followed, is a
    file of the folder it belongs to: its output folder's real path for a file under one of
    ``roots``, else the project's, outside every output folder (the README). Only such a file is
    read to compare with what generate writes, or shown in a diff: a link planted at an output
    path (``generated/docs/reference.md -> ~/.git-credentials``, ``/proc/self/environ``, or a
    linked folder above it) had ``check`` print the file it names into a terminal or CI log."""
    project = project_dir.resolve()
    try:
        real = (project / relative).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11)
        return False
    owned = [
        (project_dir / root).resolve()
        for root in roots
        if relative.startswith(root.rstrip("/") + "/")
    ]
    if owned:
        return real.is_relative_to(owned[0])
    return real.is_relative_to(project) and not any(
        real.is_relative_to((project_dir / root).resolve()) for root in roots
    )


def walk(base: Path) -> Iterator[tuple[Path, bool]]:
    """Every entry under ``base`` that is not ignored, as (path, is a folder to keep walking);
    ignored folders are never entered and symbolic links never followed (a linked folder is an
    entry like a file). A folder below ``base`` that cannot be listed is then an entry like a
    file too: skipped, as ``os.walk`` skips it, whatever it holds was invisible (``check``
    passed over an orphan nested beyond ``PATH_MAX``, and ``generate`` left it)."""
    built = frozenset().union(
        *(names for file, names in BUILD_ARTEFACTS_BY_FILE.items() if (base / file).is_file())
    )
    # Folders still to list, the next one last: ``os.walk`` recursed, one frame per level, so
    # folders nested a thousand deep in an output folder were an internal RecursionError.
    pending = [base]
    while pending:
        here = pending.pop()
        listing = _listing(here)
        if listing is None:
            if here != base:
                yield here, False
            continue
        folders, files = listing
        kept = []
        for name, is_link in folders:
            path = here / name
            if _ignored(path.relative_to(base), built):
                continue
            if is_link:
                yield path, False
            else:
                kept.append(path)
                yield path, True
        pending.extend(reversed(kept))  # walked in name order, each before the next, as os.walk
        for name in files:
            path = here / name
            if not _ignored(path.relative_to(base), built):
                yield path, False


def existing_files(project_dir: Path, roots: list[str]) -> Iterator[str]:
    """Files under the owned output roots, as POSIX paths relative to the project, sorted; caches
    and build artefacts (see ``IGNORED_NAMES``, ``BUILD_ARTEFACTS``) are left out. A file is
    any entry but a folder: a symlink, and a FIFO, socket or device node too (an orphan like
    any other, never opened: ``files.read_file`` refuses it by its type)."""
    found: list[str] = []
    for root in roots:
        base = project_dir / root
        if not base.is_dir():
            continue
        for path, is_folder in walk(base):
            if not is_folder:
                found.append(path.relative_to(project_dir).as_posix())
    yield from sorted(found)


# ``emit._stage``'s temporary files: ``tempfile.mkstemp`` names one by its prefix (``.`` and the
# target's name and ``.``), eight characters of its alphabet, and the suffix.
_STAGED_NAME = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp", re.DOTALL)


def staged_leftovers(project_dir: Path, paths: Iterable[str]) -> list[str]:
    """The temporary files ``emit._stage`` made beside a file of ``paths`` (project-relative)
    that are still there, sorted: ``.NAME.XXXXXXXX.tmp`` whose ``NAME`` is the name of a file of
    ``paths`` in the same folder, and which is a file or a link (never a folder). Only a kill
    (``SIGKILL``) between the staging and the renames leaves one: every other failure removes
    its own. Nothing else matches, so nothing but toolgen's own leftovers is ever listed."""
    names: dict[str, set[str]] = {}
    for relative in paths:
        folder, _, name = relative.rpartition("/")
        names.setdefault(folder, set()).add(name)
    found: list[str] = []
    for folder, targets in names.items():
        base = project_dir / folder if folder else project_dir
        try:
            entries = os.listdir(base)
        except OSError:  # no folder yet, or not readable: nothing left there by toolgen
            continue
        for entry in entries:
            match = _STAGED_NAME.fullmatch(entry)
            if match is None or match["target"] not in targets:
                continue
            path = base / entry
            if path.is_symlink() or path.is_file():
                found.append(f"{folder}/{entry}" if folder else entry)
    return sorted(found)

"""Which files an output folder holds: the walk ``generate``, ``check`` and the stamp share.

Caches and the artefacts of building the generated package are not toolgen's (``IGNORED_NAMES``,
``IGNORED_SUFFIXES``, ``BUILD_ARTEFACTS``): never listed, so never orphans and never deleted. The
walk never descends into a symlinked folder (a link is an entry like a file). Standard library
only: the fast ``check`` lists output folders through it without loading the pipeline.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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
IGNORED_SUFFIXES = (".pyc", ".pyo", ".egg-info", ".tsbuildinfo")
# What building a package (`pip install`, `python -m build`) leaves beside its pyproject.toml:
# ignored only at the top of an output folder that holds a pyproject.toml (the generated Python
# package's), so a stray `build/` or `dist/` anywhere else is still an orphan.
BUILD_ARTEFACTS = frozenset({"build", "dist", ".eggs"})
BUILD_FILE = "pyproject.toml"


def _ignored(relative: PurePath, builds_here: bool) -> bool:
    """Whether ``relative`` (a path inside an output folder) is a cache or a build artefact;
    ``builds_here`` says whether that folder holds a package's build file."""
    parts = relative.parts
    if builds_here and parts and parts[0] in BUILD_ARTEFACTS:
        return True
    return any(part in IGNORED_NAMES or part.endswith(IGNORED_SUFFIXES) for part in parts)


def walk(base: Path) -> Iterator[tuple[Path, bool]]:
    """Every entry under ``base`` that is not ignored, as (path, is a folder to keep walking);
    ignored folders are never entered and symbolic links never followed (a linked folder is an
    entry like a file)."""
    builds_here = (base / BUILD_FILE).is_file()
    for folder, folders, files in os.walk(base):
        here = Path(folder)
        kept = []
        for name in sorted(folders):
            path = here / name
            if _ignored(path.relative_to(base), builds_here):
                continue
            if path.is_symlink():
                yield path, False
            else:
                kept.append(name)
                yield path, True
        folders[:] = kept
        for name in sorted(files):
            path = here / name
            if not _ignored(path.relative_to(base), builds_here):
                yield path, False


def existing_files(project_dir: Path, roots: list[str]) -> Iterator[str]:
    """Files under the owned output roots, as POSIX paths relative to the project, sorted; caches
    and build artefacts (see ``IGNORED_NAMES``, ``BUILD_ARTEFACTS``) are left out."""
    found: list[str] = []
    for root in roots:
        base = project_dir / root
        if not base.is_dir():
            continue
        for path, is_folder in walk(base):
            if not is_folder and (path.is_file() or path.is_symlink()):
                found.append(path.relative_to(project_dir).as_posix())
    yield from sorted(found)

"""The advisory lock that keeps a project's readers and writers apart.

``generate`` and ``add-tool`` hold it exclusively while they stage, rename and delete outputs
(``emit``); ``check`` holds it shared while it reads them, so a check never compares a set of
outputs half renamed by a run in another terminal (it waits for that run instead). The lock is
taken on the project folder itself (no lock file to leave behind) with ``flock``; where
``fcntl`` is missing (Windows), or the folder cannot be opened or the file system has no locks,
nothing is locked. Light to import: the fast ``check`` takes it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def project_lock(project_dir: Path, *, shared: bool) -> Iterator[None]:
    """Hold the project's lock (``shared`` for readers, else exclusive) while the block runs."""
    try:
        import fcntl  # noqa: PLC0415
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        descriptor = os.open(project_dir, os.O_RDONLY)
    except OSError:  # a folder that cannot be opened: reading or writing reports what goes wrong
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file system without locks (ENOLCK): unlocked
            fcntl.flock(descriptor, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock

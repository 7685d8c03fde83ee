"""Reading the files toolgen is pointed at (sources, ``pyproject.toml``, the README, a baseline
folder's copies, what already lies in the output folders): regular files only, never blocking,
never unbounded.

A path naming a FIFO would block ``read_bytes`` until a writer came, and ``/dev/zero`` (or a
symlink to it) would be read until memory ran out. ``read_file`` looks at the type first (a FIFO
or device is never opened), opens non-blocking and checks the open descriptor again (a swap in
between cannot block), and reads at most ``MAX_FILE_BYTES``. Every refusal is an ``OSError``
whose ``strerror`` says why, so each caller's existing ``except OSError`` reports it (a located
``UNREADABLE`` for a source, a usage error for ``pyproject.toml``).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# Far above any real table or schema (10,000 rows are about 3 MB), far below what hurts.
MAX_FILE_BYTES = 64 * 1024 * 1024
_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _refuse_unless_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    raise OSError(errno.EINVAL, f"not a regular file ({kind})")


def too_large(limit: int) -> OSError:
    """The refusal of more than ``limit`` bytes (whatever they were read from)."""
    return OSError(errno.EFBIG, f"larger than {limit} bytes")


def read_file(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed); an ``OSError`` for anything
    else, or for a file longer than ``limit`` bytes (default ``MAX_FILE_BYTES``, read when
    called: every reader of a source, a git revision's too, refuses at one cap)."""
    if limit is None:
        limit = MAX_FILE_BYTES
    _refuse_unless_regular(os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        _refuse_unless_regular(os.fstat(descriptor).st_mode)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(descriptor, min(_CHUNK, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise too_large(limit)
        return b"".join(chunks)
    finally:
        os.close(descriptor)

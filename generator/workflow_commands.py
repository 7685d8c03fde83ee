"""What GitHub Actions would run from a line of a CI log, and how toolgen's output avoids it.

The runner runs a line that starts, after white space, with ``::`` (``diagnostics.unforgeable``
escapes such a start line by line), and a legacy ``##[command]`` found anywhere in a line
(``##[stop-commands]token`` would silence every later annotation of the step). No output of
toolgen's holds ``##[``: ``LegacyCommandGuard`` rewrites every piece the CLI writes to its
streams, so no print site can forget it. Imported by the CLI on every run: nothing heavy here.
"""

from __future__ import annotations

LEGACY_COMMAND = "##["
# How a ``##[`` is shown: its ``[`` as the escape every other hidden character gets.
LEGACY_COMMAND_SHOWN = "##\\u005b"


class LegacyCommandGuard:
    """Rewrites text written in pieces so that no ``##[`` reaches the output, even one split
    across two writes (``print("##", "[")``): the ``[`` after a ``##`` that ends the previous
    piece is shown as ``\\u005b`` too. Lossless inside JSON strings, where ``\\u005b`` is
    ``[`` (JSON text has no ``#`` outside its strings)."""

    def __init__(self) -> None:
        self._tail = ""  # the last two characters written

    def __call__(self, text: str) -> str:
        joined = self._tail + text
        if LEGACY_COMMAND in joined:
            # The tail was written already and stays as it is: the shown form keeps the ``##``,
            # and a ``[`` inside the tail has fewer than two characters before it there.
            joined = joined.replace(LEGACY_COMMAND, LEGACY_COMMAND_SHOWN)
            text = joined[len(self._tail) :]
        self._tail = joined[-2:]
        return text

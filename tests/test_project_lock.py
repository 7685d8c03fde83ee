"""``check`` reads a project's outputs under the project's lock held shared, and ``generate``
writes them under it held exclusively, so a check run while another terminal's ``generate`` is
renaming files waits for it instead of reporting drift that is not there."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import cli, emit

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def locks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every ``flock`` call (the folder locked and the mode) and every read or write of the
    outputs, in order, as ("lock", mode) / ("unlock", folder) / ("read" | "write", "")."""
    events: list[tuple[str, str]] = []
    real_flock = fcntl.flock
    real_close = os.close
    held: dict[int, str] = {}

    def flock(descriptor: int, operation: int) -> None:
        mode = {fcntl.LOCK_SH: "shared", fcntl.LOCK_EX: "exclusive"}.get(operation, "other")
        held[descriptor] = os.readlink(f"/proc/self/fd/{descriptor}")
        events.append(("lock", f"{mode} {held[descriptor]}"))
        real_flock(descriptor, operation)

    def close(descriptor: int) -> None:
        if descriptor in held:
            events.append(("unlock", held.pop(descriptor)))
        real_close(descriptor)

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*arguments: Any, **keywords: Any) -> Any:
            events.append((name, ""))
            return real(*arguments, **keywords)

        return wrapped

    monkeypatch.setattr(fcntl, "flock", flock)
    monkeypatch.setattr(os, "close", close)
    monkeypatch.setattr(cli, "_up_to_date", spy("read", cli._up_to_date))
    monkeypatch.setattr(emit, "compare_outputs", spy("read", emit.compare_outputs))
    monkeypatch.setattr(emit, "_write_outputs", spy("write", emit._write_outputs))
    return events


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names descriptors through /proc")
@pytest.mark.parametrize("full", [False, True])
def test_check_reads_under_the_lock_held_shared(
    project: Path, run_cli: Run, locks: list[tuple[str, str]], full: bool
) -> None:
    code, _, err = run_cli("check", "--project", str(project), *(["--full"] if full else []))
    assert code == 0, err
    folder = str(project.resolve())
    assert locks[0] == ("lock", f"shared {folder}")
    reads = [index for index, event in enumerate(locks) if event[0] == "read"]
    assert reads and all(index < locks.index(("unlock", folder)) for index in reads)
    assert ("write", "") not in locks


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names descriptors through /proc")
def test_generate_writes_under_the_lock_held_exclusively(
    project: Path, run_cli: Run, locks: list[tuple[str, str]]
) -> None:
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    folder = str(project.resolve())
    start = locks.index(("lock", f"exclusive {folder}"))
    assert start < locks.index(("write", "")) < locks.index(("unlock", folder))

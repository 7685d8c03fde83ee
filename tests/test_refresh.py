"""Issue #10: idempotent loading for a long-running host. ``refresh()`` re-reads only the files
whose identity (device, inode, size, mtime_ns) changed, reports each as loaded, reused or
removed, and equals a fresh full load of the folder."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_registry import DiagnosticCode, ToolRegistry, get_tool_registry
from tool_registry import loader as loader_module

from .test_catalog_grants import mcp
from .test_loader import manifest

NAMES = ["a.json", "b.json", "c.json", "d.json"]
CONTENTS: list[bytes] = [
    json.dumps(manifest(id="one", displayName="One")).encode(),
    json.dumps(manifest(id="two", displayName="Two", category="cli-agent")).encode(),
    json.dumps(manifest(id="one", displayName="Uno")).encode(),  # same size as the first
    json.dumps(mcp(id="two", displayName="Two")).encode(),
    json.dumps(manifest(id="cursor", displayName="C")).encode(),  # a built-in id
    b"{not json",
    json.dumps({**manifest(id="three", displayName="Three"), "extra": 1}).encode(),
]

Operation = tuple[str, str, int, str]
operations = st.tuples(
    st.sampled_from(["write", "remove", "rename", "touch", "refresh"]),
    st.sampled_from(NAMES),
    st.integers(0, len(CONTENTS) - 1),
    st.sampled_from(NAMES),
)


class Clock:
    """Explicit modification times: every change gets a new one, so same-second edits are seen."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000_000_000

    def stamp(self, path: Path) -> None:
        self.now += 1_000_000_007
        os.utime(path, ns=(self.now, self.now))


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names the loader reads from now on (its own reader, behind ``read_regular_file`` too,
    is ``_read_regular``: it also gives the identity of what it read)."""
    reads: list[str] = []
    real = loader_module._read_regular

    def reader(
        path: str, limit: int, mode: int | None, *, listed: bool = False
    ) -> tuple[bytes, os.stat_result]:
        reads.append(os.path.basename(path))
        return real(path, limit, mode, listed=listed)

    monkeypatch.setattr(loader_module, "_read_regular", reader)
    return reads


def identity(path: Path) -> tuple[int, int, int, int, int]:
    status = path.stat()
    return (
        status.st_dev,
        status.st_ino,
        status.st_size,
        status.st_mtime_ns,
        status.st_ctime_ns,
    )


def remaining(registry: ToolRegistry) -> set[str]:
    """The file names the registry's last (re)load saw and did not remove."""
    return {entry.source for entry in registry.refreshed if entry.state != "removed"}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(operations, max_size=14), grant=st.booleans())
def test_refresh_equals_a_fresh_load(
    steps: list[Operation], grant: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    clock = Clock()
    grants = {"one": ["headless-task"]} if grant else {}
    with monkeypatch.context() as patch:
        reads = count_reads(patch)
        registry = get_tool_registry(folder, grants=grants)
        assert len(registry.refreshed) == 0
        present: set[str] = set()
        changed: set[str] = set()
        seen: dict[str, tuple[int, int, int, int, int]] = {}  # identities at the last (re)load
        for kind, name, content, other in [*steps, ("refresh", "", 0, "")]:
            path = folder / name
            if kind == "write":
                path.write_bytes(CONTENTS[content])
                clock.stamp(path)
                present.add(name)
                changed.add(name)
            elif kind == "touch" and name in present:
                clock.stamp(path)
                changed.add(name)
            elif kind == "remove" and name in present:
                path.unlink()
                present.discard(name)
            elif kind == "rename" and name in present and other != name:
                path.rename(folder / other)
                present.discard(name)
                present.add(other)
                changed.add(other)
            elif kind == "refresh":
                before = remaining(registry)
                reads.clear()
                registry = registry.refresh()
                read_by_refresh = list(reads)
                fresh = get_tool_registry(folder, grants=grants)
                assert registry == fresh
                assert registry.catalog() == fresh.catalog()
                # Only changed files are read. A file renamed away and back is the one the
                # last load read (same device, inode, size and mtime): it is reused.
                current = {n: identity(folder / n) for n in present}
                read = {n for n in changed & present if seen.get(n) != current[n]}
                assert all(seen[n] == current[n] for n in present - changed)
                assert sorted(read_by_refresh) == sorted(read)
                states = {s.source: s.state for s in registry.refreshed}
                for file_name in present:
                    expected = "loaded" if file_name in read else "reused"
                    assert states[file_name] == expected
                seen = current
                removed = {n for n, state in states.items() if state == "removed"}
                assert removed == before - present
                changed.clear()


def test_states_on_a_simple_sequence(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    clock = Clock()
    for name, content in (("a.json", CONTENTS[0]), ("b.json", CONTENTS[1])):
        (folder / name).write_bytes(content)
        clock.stamp(folder / name)
    registry = get_tool_registry(folder)
    assert [(s.source, s.state) for s in registry.refreshed] == [
        ("a.json", "loaded"),
        ("b.json", "loaded"),
    ]
    (folder / "a.json").write_bytes(CONTENTS[2])  # same size, same second: only mtime_ns differs
    clock.stamp(folder / "a.json")
    (folder / "b.json").unlink()
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [
        ("a.json", "loaded"),
        ("b.json", "removed"),
    ]
    one = refreshed.get("one")
    assert one is not None and one.displayName == "Uno"
    again = refreshed.refresh()
    assert [(s.source, s.state) for s in again.refreshed] == [("a.json", "reused")]
    assert again == refreshed


def test_a_refresh_decides_duplicates_over_the_whole_folder(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    clock = Clock()
    (folder / "a.json").write_bytes(CONTENTS[0])
    clock.stamp(folder / "a.json")
    registry = get_tool_registry(folder)
    assert registry.get("one") is not None
    # A new file claiming the same id: the unchanged, reused one is rejected too.
    (folder / "b.json").write_bytes(CONTENTS[2])
    clock.stamp(folder / "b.json")
    refreshed = registry.refresh()
    assert refreshed.get("one") is None
    assert [d.code for d in refreshed.diagnostics] == [DiagnosticCode.DUPLICATE_ID] * 2
    # And once the rival is gone, the reused file is accepted again, with no stale record.
    (folder / "b.json").unlink()
    healed = refreshed.refresh()
    assert healed.get("one") is not None
    assert [d.code for d in healed.diagnostics] == [DiagnosticCode.CAPABILITY_NOT_GRANTED]


def test_refresh_keeps_grants_scope_and_resolvers(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "a.json").write_bytes(CONTENTS[1])
    resolvers: dict[str, Any] = {"cursor": lambda deps: []}
    registry = get_tool_registry(
        folder, grants={"two": ["headless-task"]}, categories=["cli-agent"], resolvers=resolvers
    )
    refreshed = registry.refresh()
    assert refreshed.categories == frozenset({"cli-agent"})
    assert refreshed.providers_of("headless-task")[-1] == "two"
    assert refreshed.resolvers == registry.resolvers == resolvers
    assert refreshed == get_tool_registry(
        folder, grants={"two": ["headless-task"]}, categories=["cli-agent"], resolvers=resolvers
    )


def test_a_folder_that_disappears_removes_everything(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "a.json").write_bytes(CONTENTS[0])
    registry = get_tool_registry(folder)
    (folder / "a.json").unlink()
    folder.rmdir()
    refreshed = registry.refresh()
    assert [(s.source, s.state) for s in refreshed.refreshed] == [("a.json", "removed")]
    assert refreshed.get("one") is None

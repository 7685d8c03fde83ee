"""A file generate or add-tool replaces keeps its permission bits, and a new one gets what the
umask gives any new file: a private table stays private, a group-writable output stays so."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

CONSTANTS = "generated/python/tool_registry/constants.py"
REFERENCE = "generated/docs/reference.md"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    previous = os.umask(0o022)
    os.umask(previous)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(previous)


def _rename_a_tool(project: Path) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("displayName: Codex CLI", "displayName: Codex"))


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o444])
def test_a_replaced_output_keeps_its_mode(project: Path, run_cli: Run, mode: int) -> None:
    for relative in (CONSTANTS, REFERENCE):
        (project / relative).chmod(mode)
    _rename_a_tool(project)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    for relative in (CONSTANTS, REFERENCE):
        assert _mode(project / relative) == mode, relative
    assert "Codex" in (project / CONSTANTS).read_text()


@pytest.mark.parametrize("mask", [0o077, 0o027, 0o002])
def test_a_new_output_gets_the_umask(
    project: Path, run_cli: Run, umask: Callable[[int], None], mask: int
) -> None:
    (project / CONSTANTS).unlink()
    umask(mask)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert _mode(project / CONSTANTS) == 0o666 & ~mask


def test_add_tool_keeps_a_private_table_private(
    project: Path, run_cli: Run, umask: Callable[[int], None]
) -> None:
    table = project / "schema/tools.yaml"
    table.chmod(0o600)
    umask(0o077)
    code, _, err = run_cli(
        "add-tool", "acme-agent", "--display-name", "Acme Agent", "--detect", "path",
        "--binary", "acme", "--launchable", "--no-hook-capable",
        "--hook-pointer", ".acme/hive-mind-install.json", "--project", str(project),
    )  # fmt: skip
    assert code == 0, err
    assert "acme-agent" in table.read_text()
    assert _mode(table) == 0o600
    assert _mode(project / CONSTANTS) == 0o644  # replaced: kept what it had


def test_a_symlink_replaced_by_an_output_lends_it_no_mode(
    project: Path, run_cli: Run, umask: Callable[[int], None], tmp_path: Path
) -> None:
    # The link is replaced (never written through), so its target's bits are not copied.
    target = tmp_path / "tool"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o4755)
    typed = project / "generated/python/tool_registry/py.typed"
    typed.unlink()
    typed.symlink_to(target)
    umask(0o022)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert not typed.is_symlink() and _mode(typed) == 0o644
    assert _mode(target) == 0o4755 and target.read_text() == "#!/bin/sh\n"


def _foreign_group() -> int | None:
    """A group other than the one a new file here gets, that this process may give a file."""
    if os.name == "nt":
        return None
    if os.geteuid() == 0:
        return 4242
    others = [group for group in os.getgroups() if group != os.getegid()]
    return others[0] if others else None


def _group_reaches_no_further(path: Path, group: int) -> bool:
    """The file's group may do no more than the original group could, or than anyone can."""
    status = path.stat()
    mode = stat.S_IMODE(status.st_mode)
    return status.st_gid == group or (mode >> 3) & 0o7 == mode & 0o7


def test_a_replaced_output_s_group_bits_go_to_no_other_group(project: Path, run_cli: Run) -> None:
    # The bits are kept for the file's group: a new file has this process's group, to which a
    # group-writable 0o664 would hand the output, unless it keeps the old group.
    group = _foreign_group()
    if group is None:
        pytest.skip("no second group to give a file")
    target = project / CONSTANTS
    os.chown(target, -1, group)
    target.chmod(0o664)
    _rename_a_tool(project)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert "Codex" in target.read_text()
    assert _group_reaches_no_further(target, group)


def test_a_group_that_cannot_be_kept_gets_what_others_get(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = _foreign_group()
    if group is None:
        pytest.skip("no second group to give a file")
    target = project / CONSTANTS
    os.chown(target, -1, group)
    target.chmod(0o664)

    def refuse(*_arguments: object) -> None:
        raise PermissionError("not a member of that group")

    monkeypatch.setattr(os, "fchown", refuse)
    _rename_a_tool(project)
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    assert target.stat().st_gid != group
    assert _mode(target) == 0o644

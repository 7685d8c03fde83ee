"""``add-tool`` keeps every byte of ``tools.yaml`` it does not add, whatever the file's encoding
details: a byte order mark stayed behind when the table was decoded (the written file lost it),
and the new row's lines ended in LF in a CRLF file (mixed line endings in a Windows checkout)."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import yaml

from .test_add_tool import BASE, TABLE

Run = Callable[..., tuple[int, str, str]]


def _add(project: Path, run_cli: Run) -> None:
    code, _, err = run_cli("add-tool", "acme-agent", *BASE, "--project", str(project))
    assert code == 0, err
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err


def test_a_byte_order_mark_is_kept(project: Path, run_cli: Run) -> None:
    table = project / TABLE
    before = table.read_bytes()
    table.write_bytes(codecs.BOM_UTF8 + before)
    _add(project, run_cli)
    after = table.read_bytes()
    assert after.startswith(codecs.BOM_UTF8 + before)  # a row added at the end, nothing else
    assert yaml.safe_load(after.decode("utf-8-sig"))["tools"][-1]["id"] == "acme-agent"


def test_a_crlf_table_gets_a_crlf_row(project: Path, run_cli: Run) -> None:
    table = project / TABLE
    before = table.read_bytes().replace(b"\n", b"\r\n")
    table.write_bytes(before)
    _add(project, run_cli)
    after = table.read_bytes()
    assert after.startswith(before)
    assert b"acme-agent" in after[len(before) :]
    assert after.count(b"\n") == after.count(b"\r\n")  # no bare LF
    assert yaml.safe_load(after.decode("utf-8"))["tools"][-1]["id"] == "acme-agent"


def test_an_lf_table_stays_lf(project: Path, run_cli: Run) -> None:
    table = project / TABLE
    _add(project, run_cli)
    assert b"\r" not in table.read_bytes()


def test_a_cr_table_gets_a_cr_row(project: Path, run_cli: Run) -> None:
    # CR alone is a YAML line break: the rows were split at it, and the row was added with LF
    # (after a CRLF made of the last CR), so the file broke lines three ways at once.
    table = project / TABLE
    before = table.read_bytes().replace(b"\n", b"\r")
    table.write_bytes(before)
    _add(project, run_cli)
    after = table.read_bytes()
    assert after.startswith(before)
    assert b"acme-agent" in after[len(before) :]
    assert b"\n" not in after
    assert yaml.safe_load(after.decode("utf-8"))["tools"][-1]["id"] == "acme-agent"

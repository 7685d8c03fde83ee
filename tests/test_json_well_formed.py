"""Every JSON document toolgen prints is well-formed Unicode (I-JSON, RFC 7493, as toolgen asks of
its inputs): a file name that is not UTF-8 (``os.fsdecode`` makes the byte 0xFF the surrogate
U+DCFF) was written as the escape of a lone surrogate, which strict JSON readers refuse, so one
such orphan or adapter file broke the whole report for them. It is the text ``\\udcff`` now, as
text output shows it."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import json_text

Run = Callable[..., tuple[int, str, str]]

pytestmark = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="needs file names that are not UTF-8"
)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*_strings(key), *_strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _assert_well_formed(out: str) -> object:
    document = json.loads(out)
    for text in _strings(document):
        text.encode("utf-8")  # raises on a lone surrogate
    return document


def test_an_orphan_named_in_another_encoding(project: Path, run_cli: Run) -> None:
    folder = os.fsencode(project / "generated/docs")
    with open(os.path.join(folder, b"caf\xe9.md"), "wb") as orphan:
        orphan.write(b"x\n")
    for command in (("check",), ("check", "--full")):
        code, out, _ = run_cli(*command, "--project", str(project), "--format", "json")
        assert code == 1
        document = _assert_well_formed(out)
        assert isinstance(document, dict)
        [finding] = document["diagnostics"]
        assert finding["source"] == "generated/docs/caf\\udce9.md"


def test_runtime_commands_name_such_files_well_formed(
    project: Path, run_cli: Run, tmp_path: Path
) -> None:
    adapters = os.fsencode(tmp_path / "adapters")
    os.mkdir(adapters)
    with open(os.path.join(adapters, b"\xff.json"), "wb") as adapter:
        adapter.write(b"{}\n")
    where = str(tmp_path / "adapters")
    for command in (("registry", "--adapters-dir", where), ("catalog", "--adapters-dir", where)):
        code, out, err = run_cli(*command, "--project", str(project), "--format", "json")
        assert code == 0, err
        _assert_well_formed(out)
    code, out, _ = run_cli(
        "validate",
        os.fsdecode(os.path.join(adapters, b"\xff.json")),
        "--project",
        str(project),
        "--format",
        "json",
    )
    assert code == 1
    _assert_well_formed(out)


def test_json_text_keeps_astral_characters() -> None:
    assert json.loads(json_text({"k\udcff": ["\U0001f600", "a\ud800b"]})) == {
        "k\\udcff": ["\U0001f600", "a\\ud800b"]
    }

"""No output of toolgen holds a legacy GitHub Actions workflow command (``##[command]``), which
the runner finds anywhere in a line (``##[stop-commands]token`` silences every later annotation
of the step): the CLI's streams escape every ``##[`` they are given, however a print site split
it, losslessly inside JSON."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.diagnostics import unforgeable
from generator.workflow_commands import LEGACY_COMMAND_SHOWN, LegacyCommandGuard

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]

FORGED_NAMES = ("a##[stop-commands]tok.json", "##[error]forged.json", "x#", "#[warning]y.json")


def test_the_guard_leaves_no_legacy_command_however_the_text_is_split() -> None:
    chooser = random.Random(11)
    for _ in range(2000):
        text = "".join(chooser.choice("##[[a]") for _ in range(chooser.randint(0, 12)))
        cuts = sorted(chooser.sample(range(len(text) + 1), chooser.randint(0, len(text) + 1)))
        pieces = [
            text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True)
        ]
        guard = LegacyCommandGuard()
        written = "".join(guard(piece) for piece in pieces)
        assert "##[" not in written, (text, pieces)
        # Only the "[" of each "##[" changed: undoing the escape gives the text back.
        assert written.replace(LEGACY_COMMAND_SHOWN, "##[") == text, (text, pieces)


def test_the_guard_is_lossless_inside_json() -> None:
    document = {"##[stop-commands]t": ["a##[error]b", "##", "[##[", "#"]}
    guard = LegacyCommandGuard()
    text = "".join(guard(piece) for piece in json.dumps(document))  # one character at a time
    assert "##[" not in text
    assert json.loads(text) == document


def test_unforgeable_escapes_legacy_commands_anywhere_in_a_line() -> None:
    shown = unforgeable("x: a##[error]b\n  ##[group]c")
    assert "##[" not in shown
    assert shown == "x: a##\\u005berror]b\n  ##\\u005bgroup]c"


def _forged_folder(folder: Path) -> Path:
    """Rejected files with forged names, and an accepted adapter whose display name (printable
    ASCII: the schema allows it) holds a forged command."""
    folder.mkdir()
    for name in FORGED_NAMES:
        if name.endswith(".json"):
            (folder / name).write_text("{}")
    base = json.loads((REPO / "tests/vectors/base-manifest.json").read_text(encoding="utf-8"))
    accepted = {**base, "id": "forger", "displayName": "F ##[stop-commands]tok"}
    (folder / "forger.json").write_text(json.dumps(accepted))
    return folder


@pytest.mark.parametrize("command", ["registry", "catalog", "detect", "validate"])
@pytest.mark.parametrize("output_format", ["text", "github", "json"])
def test_adapter_file_names_cannot_forge_legacy_commands(
    run_cli: Run, tmp_path: Path, command: str, output_format: str
) -> None:
    folder = _forged_folder(tmp_path / "adapters")
    arguments = ["--project", str(REPO), "--format", output_format]
    if command == "validate":
        files = sorted(path.name for path in folder.iterdir())
        cwd = Path.cwd()
        os.chdir(folder)
        try:
            code, out, err = run_cli(command, *arguments, *files)
        finally:
            os.chdir(cwd)
        assert code == 1
    else:
        code, out, err = run_cli(command, *arguments, "--adapters-dir", str(folder))
        assert code == 0
    assert "stop-commands" in out + err  # the name is shown, escaped
    assert "##[" not in out and "##[" not in err
    if output_format == "json":
        # Escaped inside JSON strings only: the document still holds the text as it is.
        assert "##[stop-commands]tok" in json.dumps(json.loads(out), ensure_ascii=False)


def test_an_argparse_error_cannot_forge_a_legacy_command(run_cli: Run) -> None:
    code, out, err = run_cli("catalog", "--x##[stop-commands]tok")
    assert code == 2
    assert out == ""
    assert "unrecognized arguments" in err
    assert "##[" not in err and "stop-commands" in err

"""``check``'s unified diffs end every line with LF, as ``diff`` and ``git`` write them: a file
whose last line has no newline gets ``\\ No newline at end of file`` after that line, and lines
are split at LF only. Joined as difflib yielded them, such a line ran into the next header
(``-}--- a/next``), so a lost final newline showed as no visible change."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

Run = Callable[..., tuple[int, str, str]]

DOCS = "generated/docs/reference.md"
MARKER = "\\ No newline at end of file"


def _apply(diff: str, old: str) -> str:
    """``old`` patched by a one-file unified ``diff`` (an independent reading of the format)."""
    lines = old.split("\n")
    ends_with_newline = old.endswith("\n")
    if ends_with_newline:
        lines.pop()
    result: list[str] = []
    taken = 0
    new_has_newline = True
    body = diff.split("\n")
    assert body[-1] == "", "every diff line ends with LF"
    last_kind = ""
    for line in body[2:-1]:
        if line.startswith("@@"):
            start = int(line.split()[1].split(",")[0].lstrip("-"))
            start = max(start, 1)
            result.extend(lines[taken : start - 1])
            taken = start - 1
        elif line == MARKER:
            if last_kind in "+ ":
                new_has_newline = False
        elif line[0] == " ":
            assert lines[taken] == line[1:]
            result.append(line[1:])
            taken += 1
        elif line[0] == "-":
            assert lines[taken] == line[1:], (lines[taken], line)
            taken += 1
        else:
            assert line[0] == "+", line
            result.append(line[1:])
        if line != MARKER:
            last_kind = line[0]
    result.extend(lines[taken:])
    return "\n".join(result) + ("\n" if new_has_newline and result else "")


def test_a_lost_final_newline_is_a_visible_diff(project: Path, run_cli: Run) -> None:
    path = project / DOCS
    expected = path.read_text()
    assert expected.endswith("\n")
    path.write_text(expected[:-1])
    (project / "generated/docs/orphan.md").write_text("x\ry\r")
    code, out, _ = run_cli("check", "--full", "--project", str(project), "--format", "json")
    assert code == 1
    diffs = json.loads(out)["diffs"]
    diff = diffs[DOCS]
    last = expected[:-1].rsplit("\n", 1)[1]
    assert f"-{last}\n{MARKER}\n+{last}\n" in diff
    assert _apply(diff, expected[:-1]) == expected
    # CR is no line break to diff or patch: one line, with no final newline.
    orphan = diffs["generated/docs/orphan.md"]
    assert orphan.endswith(f"@@ -1 +0,0 @@\n-x\ry\r\n{MARKER}\n")
    code, text_out, _ = run_cli("check", "--full", "--project", str(project))
    assert code == 1
    for line in text_out.split("\n"):
        assert "--- a/" not in line[1:] and "+++ " not in line[1:], line


def test_a_trailing_text_edit_diff_applies(project: Path, run_cli: Run) -> None:
    path = project / DOCS
    expected = path.read_text()
    path.write_text(expected + "appended\nno newline")
    code, out, _ = run_cli("check", "--full", "--project", str(project), "--format", "json")
    assert code == 1
    diff = json.loads(out)["diffs"][DOCS]
    assert _apply(diff, expected + "appended\nno newline") == expected

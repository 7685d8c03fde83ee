"""``toolgen add-tool``: one new row of ``tools.yaml`` as text, inserted without touching the rest.

Pure: ``new_row`` builds the row (fields in the schema's order) from the command's options, and
``insert_row`` returns the table's new text. The row is rendered by ``ruamel.yaml`` (a round-trip
YAML library: block style at the table's own indentation, capability lists in flow style as the
table writes them, every string that YAML 1.1 and 1.2 could read differently double-quoted), and
spliced in as text right after the last content line of the row it follows (or of the last row):
every other byte of the file, comments, blank lines and a byte order mark included, stays as it
was, and the new lines end as the file's first line does (CRLF or LF). Whether the
row is valid is not judged here: the caller runs the new text through the same load and validate
stages as ``generate``.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from generator.load import Loaded, parse_yaml

# Strings written plain: letters first, then only characters no YAML version reads specially.
_PLAIN = re.compile(r"[A-Za-z.~/@_][A-Za-z0-9 ._/@~+-]*")
_WORDS_READ_AS_OTHER = re.compile(r"(?i)y|n|yes|no|on|off|true|false|null|~|\.nan|\.inf|-?\.inf")


class AddToolError(ValueError):
    """The options cannot make a row, or the table has no place for one (exit code 2)."""


def new_row(
    identifier: str,
    fields: Mapping[str, Any],
    order: Sequence[str],
) -> dict[str, Any]:
    """The row: ``id`` first, then ``fields`` in the schema's property ``order``."""
    row: dict[str, Any] = {"id": identifier}
    for name in order:
        if name in fields and name != "id":
            row[name] = fields[name]
    for name, value in fields.items():  # anything the schema does not declare: validation says so
        row.setdefault(name, value)
    return row


def _styled(value: Any, key: str = "") -> Any:
    if isinstance(value, str):
        plain = _PLAIN.fullmatch(value) and not _WORDS_READ_AS_OTHER.fullmatch(value)
        return value if plain and value == value.strip() else DoubleQuotedScalarString(value)
    if isinstance(value, Mapping):
        mapping = CommentedMap()
        for name, item in value.items():
            mapping[name] = _styled(item, name)
        return mapping
    if isinstance(value, list | tuple):
        sequence = CommentedSeq(_styled(item) for item in value)
        if key == "provides":
            sequence.fa.set_flow_style()
        return sequence
    return value


def render_row(row: Mapping[str, Any], dash_column: int) -> str:
    """The row as block YAML whose ``-`` stands at ``dash_column``, ending with a newline."""
    yaml = YAML()
    yaml.indent(mapping=2, sequence=dash_column + 2, offset=dash_column)
    yaml.width = 4096
    buffer = io.StringIO()
    yaml.dump({"tools": [_styled(row)]}, buffer)
    text = buffer.getvalue()
    return text.split("\n", 1)[1]


def _is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def insert_row(text: str, table: Loaded, row: Mapping[str, Any], after: str | None) -> str:
    """``text`` with ``row`` after the row whose id is ``after`` (default: the last row)."""
    rows = table.value.get("tools") if isinstance(table.value, Mapping) else None
    if not isinstance(rows, list) or not rows:
        raise AddToolError("the table has no `tools:` rows to add to")
    ids = [r.get("id") if isinstance(r, Mapping) else None for r in rows]
    if after is not None and after not in ids:
        raise AddToolError("--after names no row of the table")
    index = len(rows) - 1 if after is None else ids.index(after)
    lines = text.splitlines(keepends=True)
    first = table.position_of("/tools/0")
    start = table.position_of(f"/tools/{index}")
    if first is None or start is None:
        raise AddToolError("the rows cannot be located")
    dash_line = lines[first[0] - 1]
    dash_column = first[1] - 1 - 2  # the position is the row mapping's, two after its "- "
    if dash_column < 0 or dash_line[dash_column : dash_column + 2] != "- ":
        raise AddToolError(
            "`tools:` is not a block sequence of block mappings; add the row by hand"
        )
    following = table.position_of(f"/tools/{index + 1}") if index + 1 < len(rows) else None
    # 0-based: the line of the next row's "-", or the end of the rows
    boundary = following[0] - 1 if following else _end_of_section(lines, start[0] - 1)
    last = boundary - 1
    while last > start[0] - 1 and not _is_content(lines[last]):
        last -= 1
    # The row and the blank line before it take the file's line breaks: a CRLF table stays CRLF.
    newline = _newline_of(text)
    rendered = render_row(row, dash_column).replace("\n", newline)
    # Right after the row's last content line (its trailing comments and blank lines then follow
    # the new row), else right before what follows the row: a line that only looks like a
    # comment or a blank line may belong to a block scalar ending the row (``>-`` with a line
    # ``# x``), and splicing there would cut it. A splice is kept only when the table then reads
    # as the same rows with the new one in place, so no other value can change.
    for cut in dict.fromkeys((last + 1, boundary)):
        head = lines[:cut]
        if head and not head[-1].endswith(("\n", "\r")):
            head[-1] = head[-1] + newline
        candidate = "".join([*head, newline, rendered, *lines[cut:]])
        if _keeps_the_table(candidate, table, index + 1):
            return candidate
    raise AddToolError(
        "the row cannot be inserted there without changing the table around it; add it by hand"
    )


def _newline_of(text: str) -> str:
    """The file's line break: ``\\r\\n`` when its first line ends so, ``\\r`` when the file
    breaks lines with CR alone (YAML reads it as a line break: the rows were split at it, and a
    row added with LF made the file CR, CRLF and LF at once), else ``\\n``."""
    end = text.find("\n")
    if end > 0 and text[end - 1] == "\r":
        return "\r\n"
    if end < 0 and "\r" in text:
        return "\r"
    return "\n"


def _keeps_the_table(text: str, table: Loaded, inserted: int) -> bool:
    """Whether ``text`` reads as ``table`` with one more row at ``inserted`` and nothing else
    changed (compared as JSON, so ``1``, ``1.0`` and ``true`` stay apart)."""
    new = parse_yaml(text, table.source).value
    if not isinstance(new, dict) or not isinstance(new.get("tools"), list):
        return False
    rows = list(new["tools"])
    if len(rows) != len(table.value["tools"]) + 1:
        return False
    del rows[inserted]
    return _json(dict(new, tools=rows)) == _json(table.value)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=True, default=repr)


def _end_of_section(lines: list[str], row_line: int) -> int:
    """The 0-based line after the last row: the next top-level key, or the end of the file."""
    for number in range(row_line + 1, len(lines)):
        line = lines[number]
        if line[:1] not in ("", " ", "\t", "#", "\n", "\r") and _is_content(line):
            return number
    return len(lines)

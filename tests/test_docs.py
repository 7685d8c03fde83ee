"""The generated Markdown reference (generated/docs/reference.md): made from the same sources,
drift-checked, every code documented, the adapter example accepted by the generated loader, and
table content escaped so no value can break a row or inject Markdown or HTML."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import tool_registry

from generator.diagnostics import MEANINGS, Code
from generator.markdown import fenced, md_authored, md_code, md_text
from generator.runtime_codes import RUNTIME_CODES

from .conftest import REPO, copy_project, node_executable, run_toolgen

DOCS = "generated/docs/reference.md"
CELL_SPLIT = re.compile(r"(?<!\\)\|")


def _examples(text: str) -> list[str]:
    return re.findall(r"^```json\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def _table_after(text: str, heading: str) -> list[str]:
    """The first table after ``heading``: its header, separator and rows."""
    rows: list[str] = []
    for line in text.split(f"\n{heading}\n", 1)[1].splitlines():
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    return rows


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in CELL_SPLIT.split(row)[1:-1]]


def test_every_build_time_code_has_a_meaning() -> None:
    assert set(MEANINGS) == set(Code)
    assert all(meaning.strip() for meaning in MEANINGS.values())


def test_the_reference_lists_every_code_and_tool() -> None:
    text = (REPO / DOCS).read_text(encoding="utf-8")
    for code in Code:
        assert f"| `{code.value}` |" in text
    for runtime in RUNTIME_CODES:
        assert f"| `{runtime.name}` | {runtime.severity} |" in text
    rows = _table_after(text, "## Built-in tools")
    assert [_cells(row)[0] for row in rows[2:]] == [
        f"`{identifier}`" for identifier in tool_registry.SUPPORTED_TOOLS
    ]
    for capability, providers in tool_registry.CAPABILITY_PROVIDERS.items():
        expected = ", ".join(f"`{p}`" for p in providers) or "(none)"
        assert f"| `{capability}` | {expected} |" in text


def test_the_example_is_accepted_by_the_generated_loader(tmp_path: Path) -> None:
    text = (REPO / DOCS).read_text(encoding="utf-8")
    examples = _examples(text)
    assert examples, "the reference carries no adapter example"
    schema = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
    assert [json.loads(e) for e in examples] == schema["$defs"]["ThirdPartyToolManifest"][
        "examples"
    ]
    files = []
    for index, example in enumerate(examples):
        path = tmp_path / f"example-{index}.json"
        path.write_text(example)
        files.append(path)
    result = tool_registry.load_manifest_files((str(p), str(p)) for p in files)
    assert [report.accepted for report in result.files] == [True] * len(files)
    assert list(result.diagnostics) == []
    completed = run_toolgen("validate", *map(str, files))
    assert completed.returncode == 0, completed.stderr


def test_a_stale_reference_is_drift(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    (project / DOCS).write_text("# edited\n")
    completed = run_toolgen("check", "--project", str(project), "--format", "json")
    assert completed.returncode == 1
    (diagnostic,) = json.loads(completed.stdout)["diagnostics"]
    assert (diagnostic["code"], diagnostic["source"]) == ("DRIFT_CHANGED", DOCS)
    assert run_toolgen("generate", "--project", str(project)).returncode == 0
    assert (project / DOCS).read_bytes() == (REPO / DOCS).read_bytes()


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a|b", r"a\|b"),
        ("use `x`", r"use \`x\`"),
        ("line1\nline2", "line1<br>line2"),
        ("<script>&amp;", r"\<script\>&amp;amp;"),
        ("*bold* _it_ [l](u) # ! ~", r"\*bold\* \_it\_ \[l\](u) \# \! \~"),
        ("back\\slash", "back\\\\slash"),
        ("bidi\u202eend", "bidi\\\\u202eend"),
        # A type's description is a paragraph of its own: what would start a list, a thematic
        # break or an indented code block there is escaped (in a table cell it is harmless).
        ("- item", r"\- item"),
        ("+ item", r"\+ item"),
        ("---", r"\---"),
        ("= x", r"\= x"),
        ("1986. A year", r"1986\. A year"),
        ("1) first", r"1\) first"),
        ("    indented", "&#32;   indented"),
        (" - x", r"&#32;- x"),
        ("x - y 1. z", "x - y 1. z"),
    ],
)
def test_md_text(raw: str, shown: str) -> None:
    assert md_text(raw) == shown


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain", "`plain`"),
        ("a|b", r"`a\|b`"),
        ("x`y", "``x`y``"),
        ("`edge", "`` `edge ``"),
        ("a``b", "```a``b```"),
        ("two\nlines", "`two\\u000alines`"),
        ("<b>", "`<b>`"),
    ],
)
def test_md_code(raw: str, shown: str) -> None:
    assert md_code(raw) == shown


def test_authored_markdown_keeps_code_spans_but_stays_one_row() -> None:
    assert md_authored("a `b` | c\nd") == r"a `b` \| c d"


def test_fenced_outlasts_backticks_inside() -> None:
    assert fenced('{"a": "```"}', "json") == '````json\n{"a": "```"}\n````'
    assert fenced("{}") == "```\n{}\n```"


def test_hostile_values_cannot_break_the_tables(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    table = project / "schema/tools.yaml"
    hostile = "Pipe | `tick` <b>x</b> & *y*"
    table.write_text(table.read_text().replace("displayName: Cursor", f"displayName: '{hostile}'"))
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text())
    schema["properties"]["category"]["description"] = "Kind | of\n<i>tool</i>"
    schema_path.write_text(json.dumps(schema, indent=2) + "\n")
    generated = run_toolgen("generate", "--project", str(project))
    assert generated.returncode == 0, generated.stderr
    text = (project / DOCS).read_text(encoding="utf-8")
    rows = _table_after(text, "## Built-in tools")
    width = len(_cells(rows[0]))
    assert all(len(_cells(row)) == width for row in rows)
    cursor = next(row for row in rows if row.startswith("| `cursor` |"))
    assert _cells(cursor)[1] == r"``Pipe \| `tick` <b>x</b> & *y*``"
    fields = _table_after(text, "### ThirdPartyToolManifest")
    category = next(row for row in fields if row.startswith("| `category` |"))
    assert len(_cells(category)) == 5
    assert _cells(category)[4] == r"Kind \| of<br>\<i\>tool\</i\>"
    # The HTML stays inside code spans (shown, not rendered): once in the tools table, once in
    # the display-name map.
    assert text.count("<b>x</b>") == 2
    assert text.count(r"``Pipe \| `tick` <b>x</b> & *y*``") == 2


def _github_anchors(text: str) -> dict[str, int]:
    """Every fragment a renderer resolves in ``text`` -> the line it lands on: an explicit
    ``<a id="…">``, else a heading's slug as GitHub makes it (lower case, punctuation dropped,
    spaces to ``-``; a repeated slug gets ``-1``, ``-2``, … in document order)."""
    anchors: dict[str, int] = {}
    seen: dict[str, int] = {}
    fenced_block = False
    for number, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            fenced_block = not fenced_block
        if fenced_block:
            continue
        for explicit in re.findall(r'<a id="([^"]+)"></a>', line):
            anchors.setdefault(explicit, number)
        heading = re.match(r"#{1,6} (.*)$", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.setdefault(slug if count == 0 else f"{slug}-{count}", number)
    return anchors


def _links_land_on_their_sections(text: str) -> None:
    lines = text.splitlines()
    anchors = _github_anchors(text)
    links = set(re.findall(r"\[([A-Za-z_][A-Za-z0-9_]*)\]\(#([^)]+)\)", text))
    assert links
    for name, fragment in sorted(links):
        assert fragment in anchors, f"[{name}](#{fragment}) lands nowhere"
        landing = next(line for line in lines[anchors[fragment] :] if line.startswith("#"))
        assert landing == f"### {name}", f"[{name}](#{fragment}) lands on {landing!r}"


def test_type_links_land_on_the_type_not_a_section_of_the_same_name(tmp_path: Path) -> None:
    # The schema's Capabilities type shares its name with the "Capabilities" section (the
    # providers table), which comes first: #capabilities was that section.
    _links_land_on_their_sections((REPO / DOCS).read_text())
    project = copy_project(tmp_path / "project")
    schema_file = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_file.read_text())
    for section in ("Maps", "Cohorts", "Example", "EXAMPLE"):
        schema["$defs"][section] = {"type": "object", "properties": {"x": {"type": "string"}}}
        schema["$defs"]["McpServer"]["properties"][f"x{section}"] = {"$ref": f"#/$defs/{section}"}
    schema_file.write_text(json.dumps(schema, indent=2))
    result = run_toolgen("generate", "--project", str(project))
    assert result.returncode == 0, result.stderr
    _links_land_on_their_sections((project / DOCS).read_text())


_NODE_SAME_MATCHES = """
const [shown, original, probes] = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const a = new RegExp(shown, "u");
const b = new RegExp(original, "u");
console.log(JSON.stringify(probes.filter((p) => a.test(p) !== b.test(p))));
"""


def test_a_documented_pattern_is_the_schemas_pattern_in_ecmascript() -> None:
    # The reference shows each pattern as a code span, invisible characters escaped. They were
    # escaped as Python does (\\U000110bd), which ECMAScript's u-mode rejects and which no
    # longer matches what the schema's pattern matches: a reader copying it got another regex.
    schema = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
    original = schema["properties"]["displayName"]["pattern"]
    text = (REPO / DOCS).read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `displayName` |"))
    cell = CELL_SPLIT.split(row)[4]
    shown = re.search(r"pattern (`+) ?(.*?) ?\1", cell)
    assert shown is not None, cell
    pattern = shown.group(2).replace("\\|", "|")
    assert pattern.isascii()
    probes = ["Claude Code", "a\u2028b", "x\U000110bdy", "x\U000e0001", "\u00ad", "ok\U0001f600"]
    compared = subprocess.run(
        [node_executable(), "-e", _NODE_SAME_MATCHES],
        input=json.dumps([pattern, original, probes]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert compared.returncode == 0, compared.stderr
    assert json.loads(compared.stdout) == []

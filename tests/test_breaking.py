"""``toolgen breaking --against REF``: every kind of consumer-breaking change is a typed, located
record; additions are notes; acknowledgements turn named breaks into warnings and are themselves
checked. Each test builds a throwaway git repository (commit, change, commit) or a folder."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import copy_project
from .git_repo import baseline_repo, commit_all, git

Run = Callable[..., tuple[int, str, str]]
TABLE = "schema/tools.yaml"
SCHEMA = "schema/tool-manifest.schema.json"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project copy whose first commit (tagged ``base``) is the baseline."""
    return baseline_repo(tmp_path / "repo")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def edit_schema(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / SCHEMA
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2) + "\n")


def breaking(
    run_cli: Run, project: Path, against: str = "base"
) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = run_cli(
        "breaking", "--against", against, "--project", str(project), "--format", "json"
    )
    return code, json.loads(out)["diagnostics"]


def records(found: list[dict[str, Any]], severity: str | None = None) -> set[tuple[str, str]]:
    return {
        (d["code"], d.get("subject") or "")
        for d in found
        if severity is None or d["severity"] == severity
    }


def line_of(project: Path, relative: str, pattern: str) -> int:
    lines = (project / relative).read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if re.search(pattern, text))


def test_no_change_is_clean(repo: Path, run_cli: Run) -> None:
    assert breaking(run_cli, repo) == (0, [])
    code, _, err = run_cli("breaking", "--against", "base", "--project", str(repo))
    assert code == 0 and "0 breaking" in err


def test_a_removed_tool_is_breaking_and_located(repo: Path, run_cli: Run) -> None:
    table = repo / TABLE
    text = table.read_text()
    start = text.index("  - id: cursor\n")
    end = text.index("  - id: codex\n")
    table.write_text(text[:start] + text[end:])
    commit_all(repo, "drop cursor")
    code, found = breaking(run_cli, repo)
    assert code == 1
    (removed,) = [d for d in found if d["code"] == "BREAKING_TOOL_REMOVED"]
    assert removed["subject"] == "cursor" and removed["severity"] == "error"
    assert (removed["source"], removed["pointer"]) == (TABLE, "/tools")
    assert removed["line"] == line_of(repo, TABLE, r"^tools:")


def test_a_renamed_tool_is_a_removal_plus_an_addition(repo: Path, run_cli: Run) -> None:
    edit(repo / TABLE, "  - id: hermes\n", "  - id: hermes-agent\n")
    commit_all(repo, "rename")
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert ("BREAKING_TOOL_REMOVED", "hermes") in records(found, "error")
    assert ("SAFE_ADDITION", "hermes-agent") in records(found, "info")


def test_leaving_a_cohort_and_a_capability(repo: Path, run_cli: Run) -> None:
    table = repo / TABLE
    text = table.read_text()
    start = text.index("  - id: hermes\n")
    row = text[start:]
    row = row.replace("hookCapable: true", "hookCapable: false", 1)
    row = row.replace("[interactive-launch, headless-task, resumable]", "[interactive-launch]", 1)
    table.write_text(text[:start] + row)
    commit_all(repo, "hermes loses hooks")
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert records(found, "error") == {
        ("BREAKING_COHORT_LEFT", "hermes/HOOKS_COHORT"),
        ("BREAKING_CAPABILITY_LEFT", "hermes/headless-task"),
        ("BREAKING_CAPABILITY_LEFT", "hermes/resumable"),
    }
    index = [line.strip() for line in text.splitlines() if line.startswith("  - id: ")].index(
        "- id: hermes"
    )
    left = next(d for d in found if d["code"] == "BREAKING_COHORT_LEFT")
    assert left["pointer"] == f"/tools/{index}/hookCapable"
    hook_line = text[:start].count("\n") + 1 + row.splitlines().index("    hookCapable: false")
    assert left["line"] == hook_line


def test_joining_a_cohort_and_providing_more_is_safe(repo: Path, run_cli: Run) -> None:
    table = repo / TABLE
    edit(table, "    hookCapable: false\n", "    hookCapable: true\n")
    commit_all(repo, "claude-desktop gets hooks")
    code, found = breaking(run_cli, repo)
    assert code == 0
    assert records(found) == {("SAFE_ADDITION", "claude-desktop/HOOKS_COHORT")}


def test_removed_cohort_map_and_capability(repo: Path, run_cli: Run) -> None:
    table = repo / TABLE
    edit(table, "  - name: HOOKS_COHORT\n    field: hookCapable\n", "")
    edit(table, "  - name: HOOK_POINTER_BY_TOOL\n    field: hookPointer\n", "")
    for row_list in ("[interactive-launch, headless-task, structured-progress, resumable]",) * 3:
        edit(table, row_list, "[interactive-launch, headless-task, resumable]")
    edit_schema(repo, lambda s: s["$defs"]["Capability"]["enum"].remove("structured-progress"))
    commit_all(repo, "remove constants")
    code, found = breaking(run_cli, repo)
    assert code == 1
    errors = records(found, "error")
    assert {
        ("BREAKING_COHORT_REMOVED", "HOOKS_COHORT"),
        ("BREAKING_MAP_REMOVED", "HOOK_POINTER_BY_TOOL"),
        ("BREAKING_CAPABILITY_REMOVED", "structured-progress"),
        ("BREAKING_SCHEMA_ENUM_NARROWED", "/capabilities/provides/*"),
    } <= errors
    assert ("BREAKING_CAPABILITY_LEFT", "codex/structured-progress") in errors
    removed = next(d for d in found if d["code"] == "BREAKING_CAPABILITY_REMOVED")
    assert (removed["source"], removed["pointer"]) == (SCHEMA, "/$defs/Capability")


def test_a_removed_runtime_code(repo: Path, run_cli: Run) -> None:
    """At the baseline the generated enum held one more code (read with ast, not imported)."""
    enum_file = repo / "generated/python/tool_registry/diagnostics.py"
    edit(
        enum_file,
        '    NOT_A_FILE = "NOT_A_FILE"\n',
        '    NOT_A_FILE = "NOT_A_FILE"\n    RETIRED_CODE = "RETIRED_CODE"\n',
    )
    commit_all(repo, "baseline with an extra code")
    git(repo, "tag", "-f", "base")
    git(repo, "checkout", "-q", "HEAD~1", "--", "generated")
    commit_all(repo, "code removed")
    code, found = breaking(run_cli, repo)
    assert code == 1
    (record,) = found
    assert (record["code"], record["subject"]) == ("BREAKING_RUNTIME_CODE_REMOVED", "RETIRED_CODE")
    assert record["source"] == "generated/python/tool_registry/diagnostics.py"


def _prop(schema: dict[str, Any], name: str) -> dict[str, Any]:
    properties: dict[str, Any] = schema["properties"]
    return properties[name]  # type: ignore[no-any-return]


def _path_detect(schema: dict[str, Any]) -> dict[str, Any]:
    return schema["$defs"]["PathDetect"]  # type: ignore[no-any-return]


def _add_required(schema: dict[str, Any]) -> None:
    # Every built-in row has a category; adapters did not need one.
    schema["$defs"]["ThirdPartyToolManifest"].setdefault("required", []).append("category")


def _open_capabilities(schema: dict[str, Any]) -> None:
    schema["$defs"]["Capabilities"]["additionalProperties"] = True


SCHEMA_CASES: list[
    tuple[
        str,
        Callable[[dict[str, Any]], None] | None,
        Callable[[dict[str, Any]], None],
        str,
        str,
        str,
    ]
] = [
    # id, change at the baseline (or None), change now, code, subject, pointer now
    (
        "required",
        None,
        _add_required,
        "BREAKING_SCHEMA_REQUIRED_ADDED",
        "/category",
        "/properties/category",
    ),
    (
        "enum",
        lambda s: _prop(s, "category")["enum"].append("ide-plugin"),
        lambda s: None,
        "BREAKING_SCHEMA_ENUM_NARROWED",
        "/category",
        "/properties/category/enum",
    ),
    (
        "type",
        # A property the generated runtime does not read: one it reads (hookPackage) must keep
        # its type (tests/test_runtime_fields.py), in a baseline too.
        lambda s: _prop(s, "library").update(type=["string", "integer"]),
        lambda s: None,
        "BREAKING_SCHEMA_TYPE_CHANGED",
        "/library",
        "/properties/library/type",
    ),
    (
        "pattern",
        None,
        lambda s: _path_detect(s)["properties"]["binaryName"].update(pattern="^[a-z]+$"),
        "BREAKING_SCHEMA_PATTERN_CHANGED",
        "/detect/binaryName",
        "/$defs/PathDetect/properties/binaryName/pattern",
    ),
    (
        "maxLength",
        None,
        lambda s: _prop(s, "displayName").update(maxLength=40),
        "BREAKING_SCHEMA_LIMIT_TIGHTENED",
        "/displayName",
        "/properties/displayName/maxLength",
    ),
    (
        "maxItems",
        None,
        lambda s: _prop(s, "promptArgTemplate").update(maxItems=5),
        "BREAKING_SCHEMA_LIMIT_TIGHTENED",
        "/promptArgTemplate",
        "/properties/promptArgTemplate/maxItems",
    ),
    (
        "minLength",
        None,
        lambda s: _prop(s, "hookPointer").update(minLength=3),
        "BREAKING_SCHEMA_LIMIT_TIGHTENED",
        "/hookPointer",
        "/properties/hookPointer/minLength",
    ),
    (
        "closed",
        _open_capabilities,
        lambda s: None,
        "BREAKING_SCHEMA_CLOSED",
        "/capabilities",
        "/$defs/Capabilities/additionalProperties",
    ),
    (
        "property-removed",
        None,
        lambda s: s["properties"].pop("library"),
        "BREAKING_SCHEMA_PROPERTY_REMOVED",
        "/library",
        "/$defs/ThirdPartyToolManifest/properties",
    ),
    (
        "else-required",
        None,
        lambda s: s["else"]["required"].append("capabilities"),
        "BREAKING_SCHEMA_REQUIRED_ADDED",
        "/capabilities",
        "/else/required",
    ),
    (
        "else-property-false",
        None,
        lambda s: s["else"]["properties"].update(hookPackage=False),
        "BREAKING_SCHEMA_TYPE_CHANGED",
        "/hookPackage",
        "/else/properties/hookPackage",
    ),
    (
        "property-false",
        None,
        lambda s: s["properties"].update(promptArgTemplate=False),
        "BREAKING_SCHEMA_TYPE_CHANGED",
        "/promptArgTemplate",
        "/properties/promptArgTemplate",
    ),
    (
        "if-changed",
        None,
        lambda s: s["if"]["properties"].update(category={"enum": ["mcp-server"]}),
        "BREAKING_SCHEMA_TYPE_CHANGED",
        "/",
        "/if",
    ),
]


@pytest.mark.parametrize(
    ("before", "after", "code", "subject", "pointer"),
    [case[1:] for case in SCHEMA_CASES],
    ids=[case[0] for case in SCHEMA_CASES],
)
def test_schema_changes_that_invalidate_an_adapter(
    repo: Path,
    run_cli: Run,
    *,
    before: Callable[[dict[str, Any]], None] | None,
    after: Callable[[dict[str, Any]], None],
    code: str,
    subject: str,
    pointer: str,
) -> None:
    if before is not None:
        edit_schema(repo, before)
        commit_all(repo, "baseline schema")
        git(repo, "tag", "-f", "base")
        git(repo, "checkout", "-q", "HEAD~1", "--", SCHEMA)
    if after is not None:
        edit_schema(repo, after)
    commit_all(repo, "schema change")
    exit_code, found = breaking(run_cli, repo)
    assert exit_code == 1
    matching = [d for d in found if (d["code"], d.get("subject")) == (code, subject)]
    assert matching, found
    assert matching[0]["source"] == SCHEMA and matching[0]["pointer"] == pointer
    assert matching[0]["line"] is not None


def test_additive_schema_changes_are_safe(repo: Path, run_cli: Run) -> None:
    def widen(schema: dict[str, Any]) -> None:
        schema["properties"]["homepage"] = {"type": "string"}
        _prop(schema, "category")["enum"].append("ide-plugin")
        _prop(schema, "displayName")["maxLength"] = 120
        _prop(schema, "promptArgTemplate").pop("maxItems")

    edit_schema(repo, widen)
    commit_all(repo, "widen")
    code, found = breaking(run_cli, repo)
    assert code == 0
    assert records(found) == {("SAFE_ADDITION", "/homepage"), ("SAFE_ADDITION", "/category")}
    assert {d["severity"] for d in found} == {"info"}


def test_a_const_widened_to_an_enum_is_an_addition(repo: Path, run_cli: Run) -> None:
    """``const: path`` -> ``enum: [path, which]`` accepts all it did: no ENUM_NARROWED."""
    edit_schema(
        repo, lambda s: _path_detect(s)["properties"].update(kind={"enum": ["path", "which"]})
    )
    commit_all(repo, "widen")
    code, found = breaking(run_cli, repo)
    assert code == 0, found
    assert records(found) == {("SAFE_ADDITION", "/detect/kind")}


def test_an_added_tool_is_safe(repo: Path, run_cli: Run) -> None:
    (repo / TABLE).write_text(
        (repo / TABLE).read_text()
        + "\n  - id: new-tool\n    displayName: New Tool\n    launchable: true\n"
        "    hookCapable: false\n    hookPointer: .new/x.json\n    detect:\n      kind: candidates\n"
    )
    commit_all(repo, "add")
    code, found = breaking(run_cli, repo)
    assert code == 0
    assert records(found) == {("SAFE_ADDITION", "new-tool")}
    code, out, err = run_cli(
        "breaking", "--against", "base", "--project", str(repo), "--format", "github"
    )
    assert code == 0 and err == ""
    assert out.startswith("::notice file=schema/tools.yaml,line=")


ACK = """
acknowledgedBreaking:
  - code: BREAKING_TOOL_REMOVED
    subject: openclaw
    reason: retired upstream
"""


def _drop_openclaw(repo: Path) -> None:
    table = repo / TABLE
    text = table.read_text()
    table.write_text(text[: text.index("  - id: openclaw\n")].rstrip("\n") + "\n")


def test_an_acknowledged_break_is_a_warning(repo: Path, run_cli: Run) -> None:
    _drop_openclaw(repo)
    (repo / TABLE).write_text((repo / TABLE).read_text() + ACK)
    commit_all(repo, "retire openclaw")
    code, found = breaking(run_cli, repo)
    assert code == 0
    assert [(d["code"], d["subject"], d["severity"]) for d in found] == [
        ("BREAKING_TOOL_REMOVED", "openclaw", "warning")
    ]


def test_an_acknowledgement_of_another_subject_does_not_count(repo: Path, run_cli: Run) -> None:
    _drop_openclaw(repo)
    (repo / TABLE).write_text((repo / TABLE).read_text() + ACK.replace("openclaw", "open-claw"))
    commit_all(repo, "retire openclaw")
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert records(found, "error") == {
        ("BREAKING_TOOL_REMOVED", "openclaw"),
        ("ACKNOWLEDGEMENT_UNMATCHED", "open-claw"),
    }
    unmatched = next(d for d in found if d["code"] == "ACKNOWLEDGEMENT_UNMATCHED")
    assert unmatched["pointer"] == "/acknowledgedBreaking/0"
    assert unmatched["line"] == line_of(repo, TABLE, r"code: BREAKING_TOOL_REMOVED")


def test_an_inherited_acknowledgement_that_names_nothing_is_a_warning(
    repo: Path, run_cli: Run
) -> None:
    _drop_openclaw(repo)
    (repo / TABLE).write_text((repo / TABLE).read_text() + ACK)
    commit_all(repo, "retire openclaw")
    git(repo, "tag", "release")
    (repo / "README.md").write_text("later\n")
    commit_all(repo, "later")
    code, found = breaking(run_cli, repo, "release")
    assert code == 0
    assert [(d["code"], d["severity"]) for d in found] == [("ACKNOWLEDGEMENT_UNMATCHED", "warning")]


def test_acknowledgements_are_checked_by_the_table_schema(repo: Path, run_cli: Run) -> None:
    (repo / TABLE).write_text(
        (repo / TABLE).read_text() + ACK.replace("    reason: retired upstream\n", "")
    )
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert {d["code"] for d in found} == {"SCHEMA_VIOLATION"}


def test_a_folder_baseline(tmp_path: Path, run_cli: Run) -> None:
    old = copy_project(tmp_path / "old")
    new = copy_project(tmp_path / "new")
    edit(new / TABLE, "  - id: codex\n", "  - id: codex-cli\n")
    code, found = breaking(run_cli, new, str(old))
    assert code == 1
    assert ("BREAKING_TOOL_REMOVED", "codex") in records(found, "error")


def test_a_project_in_a_subfolder_reads_its_own_paths(tmp_path: Path, run_cli: Run) -> None:
    top = tmp_path / "mono"
    project = copy_project(top / "packages" / "registry")
    git(top, "init", "-q", "-b", "main")
    commit_all(top, "base")
    edit(project / TABLE, "  - id: codex\n", "  - id: codex-cli\n")
    code, found = breaking(run_cli, project, "HEAD")
    assert code == 1
    assert ("BREAKING_TOOL_REMOVED", "codex") in records(found)


@pytest.mark.parametrize("against", ["no-such-ref", "-n", "--output=x", ""])
def test_an_unknown_baseline_is_a_usage_error(repo: Path, run_cli: Run, against: str) -> None:
    code, out, err = run_cli("breaking", f"--against={against}", "--project", str(repo))
    assert code == 2 and out == ""
    assert err.startswith("toolgen: ") and "Traceback" not in err


def test_outside_a_git_repository_is_a_usage_error(project: Path, run_cli: Run) -> None:
    code, _, err = run_cli("breaking", "--against", "HEAD", "--project", str(project))
    assert code == 2 and "Traceback" not in err


def test_a_baseline_missing_the_sources_is_a_usage_error(repo: Path, run_cli: Run) -> None:
    git(repo, "rm", "-q", TABLE)
    commit_all(repo, "untrack the table")
    git(repo, "checkout", "-q", "HEAD~1", "--", TABLE)
    code, _, err = run_cli("breaking", "--against", "HEAD", "--project", str(repo))
    assert code == 2 and "schema/tools.yaml" in err


def test_an_invalid_baseline_is_reported(repo: Path, run_cli: Run) -> None:
    edit(repo / TABLE, "    hookCapable: false\n", "    hookCapable: nope\n")
    commit_all(repo, "broken")
    git(repo, "tag", "broken")
    git(repo, "checkout", "-q", "base", "--", TABLE)
    code, found = breaking(run_cli, repo, "broken")
    assert code == 1
    assert {d["code"] for d in found} == {"SCHEMA_VIOLATION", "BASELINE_UNREADABLE"}
    violation = next(d for d in found if d["code"] == "SCHEMA_VIOLATION")
    assert violation["source"] == f"broken:{TABLE}"


def test_text_output_names_code_subject_and_location(repo: Path, run_cli: Run) -> None:
    _drop_openclaw(repo)
    code, _, err = run_cli("breaking", "--against", "base", "--project", str(repo))
    assert code == 1
    line = line_of(repo, TABLE, r"^tools:")
    assert f"{TABLE}:{line}:1: BREAKING_TOOL_REMOVED error:" in err
    assert '"openclaw"' in err
    assert "1 breaking (0 acknowledged)" in err


@pytest.mark.parametrize(
    "relative", [TABLE, "generated/python/tool_registry/diagnostics.py"], ids=["table", "codes"]
)
def test_a_baseline_file_that_is_not_utf8_at_a_revision_is_located(
    repo: Path, run_cli: Run, relative: str
) -> None:
    # At a git revision such a file was taken as absent: a table became "cannot be read" and a
    # runtime code file "no generated package", hiding a removed code (exit 0).
    path = repo / relative
    original = path.read_bytes()
    path.write_bytes(original + b"\n# \xff\xfe\n")
    commit_all(repo, "not utf-8")
    git(repo, "tag", "latin")
    path.write_bytes(original)
    code, found = breaking(run_cli, repo, "latin")
    assert code == 1
    located = [d for d in found if d["code"] in ("INVALID_ENCODING", "BASELINE_UNREADABLE")]
    assert located, found
    assert any(d["source"] == f"latin:{relative}" for d in located), found


@pytest.mark.parametrize("relative", [TABLE, SCHEMA], ids=["table", "schema"])
def test_a_bom_at_a_revision_is_read_as_in_a_folder(
    repo: Path, run_cli: Run, relative: str
) -> None:
    path = repo / relative
    original = path.read_bytes()
    path.write_bytes(b"\xef\xbb\xbf" + original)
    commit_all(repo, "bom")
    git(repo, "tag", "bom")
    path.write_bytes(original)
    code, found = breaking(run_cli, repo, "bom")
    assert code == 0, found
    assert not [d for d in found if d["severity"] == "error"]


def test_a_changed_settings_value_is_breaking_and_located(repo: Path, run_cli: Run) -> None:
    """Consumers rely on the settings' values (the folder adapters are read from, the size an
    adapter may have): a changed value is an error at its key, a raised limit too."""
    table = repo / TABLE
    edit(table, "manifestMaxBytes: 65536", "manifestMaxBytes: 1024")
    edit(table, 'defaultAdaptersDir: "~/.waggle/adapters"', 'defaultAdaptersDir: "~/.other"')
    commit_all(repo, "change settings")
    code, found = breaking(run_cli, repo)
    assert code == 1
    changed = {d["subject"]: d for d in found if d["code"] == "BREAKING_CONSTANT_CHANGED"}
    assert set(changed) == {"MANIFEST_MAX_BYTES", "DEFAULT_ADAPTERS_DIR"}
    size = changed["MANIFEST_MAX_BYTES"]
    assert size["severity"] == "error"
    assert "65536" in size["message"] and "1024" in size["message"]
    assert (size["source"], size["line"]) == (TABLE, line_of(repo, TABLE, "manifestMaxBytes"))


def test_a_renamed_type_is_breaking_and_a_new_one_a_note(repo: Path, run_cli: Run) -> None:
    """Both packages export a type per ``$defs`` key (and the root ``title``): renaming one
    breaks every consumer importing it by name; the new name is a note."""
    schema = repo / SCHEMA
    text = schema.read_text()
    schema.write_text(
        text.replace('"McpServer"', '"McpServerSpec"').replace(
            "#/$defs/McpServer", "#/$defs/McpServerSpec"
        )
    )
    commit_all(repo, "rename a type")
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert ("BREAKING_TYPE_REMOVED", "McpServer") in records(found, "error")
    assert ("SAFE_ADDITION", "McpServerSpec") in records(found, "info")
    removed = next(d for d in found if d["code"] == "BREAKING_TYPE_REMOVED")
    assert (removed["source"], removed["pointer"]) == (SCHEMA, "/$defs")


def test_a_changed_category_is_breaking_and_located(repo: Path, run_cli: Run) -> None:
    """Moving a tool between categories regroups it for consumers (and into or out of the inert
    ``mcp-server`` category, changes whether it is detected and launched): each move of a tool
    still there is reported at its row's ``category``; a dropped category at the row."""
    table = repo / TABLE
    text = table.read_text()
    rows = [line.strip() for line in text.splitlines() if line.startswith("  - id: ")]
    cursor, hermes = rows.index("- id: cursor"), rows.index("- id: hermes")
    start = text.index("  - id: cursor\n")
    row_end = text.index("  - id: ", start + 1)
    assert "    category: desktop-app\n" in text[start:row_end]
    text = (
        text[:start]
        + text[start:row_end].replace("    category: desktop-app\n", "    category: cli-agent\n", 1)
        + text[row_end:]
    )
    start = text.index("  - id: hermes\n")
    row_end = text.find("  - id: ", start + 1)
    row_end = len(text) if row_end < 0 else row_end
    hermes_row = text[start:row_end]
    category = re.search(r"\n    category: [a-z-]+\n", hermes_row)
    assert category is not None
    text = text[:start] + hermes_row.replace(category.group(0), "\n", 1) + text[row_end:]
    table.write_text(text)
    commit_all(repo, "cursor becomes a CLI agent, hermes loses its category")
    code, found = breaking(run_cli, repo)
    assert code == 1
    assert records(found, "error") == {
        ("BREAKING_CATEGORY_CHANGED", "cursor/category"),
        ("BREAKING_CATEGORY_CHANGED", "hermes/category"),
    }
    moved = next(d for d in found if d["subject"] == "cursor/category")
    assert moved["pointer"] == f"/tools/{cursor}/category"
    assert moved["message"].endswith('moved from "desktop-app" to "cli-agent"')
    cursor_start = text.index("  - id: cursor\n")
    category_at = text.index("    category: cli-agent\n", cursor_start)
    assert moved["line"] == text[:category_at].count("\n") + 1
    dropped = next(d for d in found if d["subject"] == "hermes/category")
    assert dropped["pointer"] == f"/tools/{hermes}"
    assert dropped["message"].endswith("to no category")

"""A hostile review of the maintainer paths (the CLI, the table and schema readers, ``breaking``,
``add-tool``): each test holds a defect found there fixed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import run_toolgen
from .git_repo import baseline_repo, commit_all, git

Run = Callable[..., tuple[int, str, str]]
TABLE = "schema/tools.yaml"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project copy whose first commit (tagged ``base``) is the baseline."""
    return baseline_repo(tmp_path / "repo")


def breaking_json(run_cli: Run, project: Path, against: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run_cli(
        "breaking", "--against", against, "--project", str(project), "--format", "json"
    )
    return code, json.loads(out)


def commit_with_table_link(repo: Path, target: str, tag: str) -> None:
    """Commit ``schema/tools.yaml`` as a symbolic link to ``target``, tag it, and put the working
    tree back as it was."""
    table = repo / TABLE
    table.unlink()
    table.symlink_to(target)
    commit_all(repo, tag)
    git(repo, "tag", tag)
    git(repo, "checkout", "-q", "base", "--", "schema")
    table.unlink()
    git(repo, "checkout", "-q", "base", "--", TABLE)


# --- breaking: committed symbolic links, git's environment ----------------------------------------


def test_baseline_symlink_in_the_tree_is_followed(repo: Path, run_cli: Run) -> None:
    """``git show`` printed a committed link's target text, so a table kept as a link read as the
    string ``real-tools.yaml`` (``must be of type object``) and nothing was compared."""
    (repo / "schema/real-tools.yaml").write_bytes((repo / TABLE).read_bytes())
    commit_with_table_link(repo, "real-tools.yaml", "linked")
    code, document = breaking_json(run_cli, repo, "linked")
    assert code == 0, document
    assert document["diagnostics"] == []


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("../../../../etc/hostname", "pointing outside the repository"),
        ("../generated", "a folder, not a file"),
        ("loop-a", "in a loop"),
        ("nowhere.yaml", "a symbolic link to nothing"),
    ],
)
def test_baseline_symlink_that_cannot_be_followed_is_refused(
    repo: Path, run_cli: Run, target: str, reason: str
) -> None:
    if target == "loop-a":
        (repo / "schema/loop-a").symlink_to("loop-b")
        (repo / "schema/loop-b").symlink_to("loop-a")
    commit_with_table_link(repo, target, "odd")
    code, document = breaking_json(run_cli, repo, "odd")
    assert code == 1
    found = [d for d in document["diagnostics"] if d["source"] == f"odd:{TABLE}"]
    assert any(d["code"] == "UNREADABLE" and reason in d["message"] for d in found), found
    assert any(d["code"] == "BASELINE_UNREADABLE" for d in found), found


def test_relative_git_dir_means_the_callers_folder(repo: Path, tmp_path: Path) -> None:
    """git ran in the project folder, where ``GIT_DIR=repo/.git`` (relative to the caller) named
    no repository: ``--against names neither a folder nor a git revision``."""
    env = {**os.environ, "GIT_DIR": "repo/.git"}
    result = run_toolgen(
        "breaking", "--against", "base", "--project", "repo", cwd=tmp_path, env=env
    )
    assert result.returncode == 0, result.stderr
    assert "0 breaking" in result.stderr


# --- a table schema loosened by hand: what the generator reads is still checked -------------------


def loosened(
    project: Path, change_schema: Callable[[dict[str, Any]], None], table: str | None = None
) -> None:
    path = project / "schema/tools-table.schema.json"
    schema = json.loads(path.read_text())
    change_schema(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n")
    if table is not None:
        (project / TABLE).write_text(table)


def generate_json(run_cli: Run, project: Path) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    document = json.loads(out)
    assert "error" not in document, document  # never an internal error
    return code, document["diagnostics"]


def located(found: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    return [(d["code"], d["line"], d["pointer"]) for d in found]


def with_settings(project: Path, extra: str) -> str:
    text = (project / TABLE).read_text()
    anchor = "  builtinLibrary: waggle\n"
    assert anchor in text
    return text.replace(anchor, anchor + extra, 1)


def settings_open(schema: dict[str, Any]) -> None:
    schema["$defs"]["Settings"]["additionalProperties"] = True


def test_settings_that_make_one_constant_are_duplicate_constants(
    project: Path, run_cli: Run
) -> None:
    """``fooBar`` and ``foo_bar`` both make ``FOO_BAR``, and ``supportedTools`` makes a constant
    toolgen generates: the modules defined it twice, silently (the later one won)."""
    table = with_settings(project, '  default_adapters_dir: x\n  supportedTools: 3\n  "a b": 1\n')
    loosened(project, settings_open, table)
    code, found = generate_json(run_cli, project)
    assert code == 1
    line = table.splitlines().index("  default_adapters_dir: x") + 1
    assert located(found) == [
        ("DUPLICATE_CONSTANT", line, "/settings/default_adapters_dir"),
        ("DUPLICATE_CONSTANT", line + 1, "/settings/supportedTools"),
        ("SCHEMA_VIOLATION", line + 2, "/settings/a b"),
    ], found
    assert 'already made by setting "defaultAdaptersDir" on line 8' in found[0]["message"]
    assert "already generated by toolgen" in found[1]["message"]
    assert all(d["column"] == 3 for d in found), found


@pytest.mark.parametrize("value", ["[1, 2]", "{a: 1}"])
def test_a_setting_holding_a_list_or_an_object_is_located(
    project: Path, run_cli: Run, value: str
) -> None:
    # It was an internal error: "TypeError: no literal for a list".
    table = with_settings(project, f"  extra: {value}\n")
    loosened(project, settings_open, table)
    code, found = generate_json(run_cli, project)
    assert code == 1
    line = table.splitlines().index(f"  extra: {value}") + 1
    assert located(found) == [("SCHEMA_VIOLATION", line, "/settings/extra")], found
    assert "must be of type string, number, boolean or null" in found[0]["message"]


def no_requirements(schema: dict[str, Any]) -> None:
    schema["required"] = []
    schema["additionalProperties"] = True
    schema["type"] = ["object", "array"]
    for name in ("tools", "cohorts", "settings"):
        schema["properties"][name] = {}


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("- 1\n- 2\n", [("SCHEMA_VIOLATION", 1, "")]),
        ("{}\n", [("SCHEMA_VIOLATION", 1, "")] * 4),
        (None, [("SCHEMA_VIOLATION", 28, "/tools")]),  # tools: []
        ("settings: 5\ncohorts: []\nmaps: []\ntools: [1]\n", None),
    ],
)
def test_a_table_outside_the_minimum_shape_is_located(
    project: Path, run_cli: Run, table: str | None, expected: list[tuple[str, int, str]] | None
) -> None:
    """A table schema that stops requiring the sections (or their shapes) let tables through the
    registry could not be built from: ``KeyError: 'tools'``, ``TypeError: list indices must be
    integers``, an empty ``tools`` rendering a constants module that did not parse."""
    if table is None:
        text = (project / TABLE).read_text()
        table = text[: text.index("tools:")] + "tools: []\n"
    loosened(project, no_requirements, table)
    code, found = generate_json(run_cli, project)
    assert code == 1
    if expected is None:
        assert located(found) == [
            ("SCHEMA_VIOLATION", 1, "/settings"),
            ("SCHEMA_VIOLATION", 4, "/tools/0"),
        ], found
    else:
        assert located(found) == expected, found
    assert all(d["hint"] == "toolgen reads the table so, whatever its schema allows" for d in found)


def test_rows_are_held_to_the_manifest_schema_when_the_table_schema_is_not(
    project: Path, run_cli: Run
) -> None:
    # A row missing `launchable` reached the registry: "KeyError: 'launchable'".
    def rows_any_object(schema: dict[str, Any]) -> None:
        schema["properties"]["tools"] = {"type": "array", "items": {"type": "object"}}

    text = (project / TABLE).read_text()
    loosened(project, rows_any_object, text.replace("tools:\n", "tools:\n  - {id: zed}\n", 1))
    code, found = generate_json(run_cli, project)
    assert code == 1
    line = text.splitlines().index("tools:") + 2
    assert {(d["line"], d["pointer"]) for d in found} == {(line, "/tools/0")}, found
    assert 'missing required property "launchable"' in {d["message"] for d in found}


def test_a_declaration_name_that_is_no_constant_name_is_located(
    project: Path, run_cli: Run
) -> None:
    # It was one GENERATION_FAILED per module naming no line: "'launch cohort' cannot be used".
    def any_name(schema: dict[str, Any]) -> None:
        schema["$defs"]["Cohort"]["properties"]["name"] = {"type": "string"}

    text = (project / TABLE).read_text()
    table = text.replace("name: LAUNCH_COHORT", "name: launch cohort", 1)
    loosened(project, any_name, table)
    code, found = generate_json(run_cli, project)
    assert code == 1
    line = table.splitlines().index("  - name: launch cohort") + 1
    assert located(found) == [("SCHEMA_VIOLATION", line, "/cohorts/0/name")], found


@pytest.mark.parametrize("target", ["#meta", "#/$defs/Cohort"])
def test_a_dynamic_ref_in_the_table_schema_is_unsupported_and_located(
    project: Path, run_cli: Run, target: str
) -> None:
    # One naming no anchor was an internal error (``NoSuchAnchor``) while the table was checked.
    def dynamic(schema: dict[str, Any]) -> None:
        schema["$defs"]["Settings"]["$dynamicRef"] = target

    loosened(project, dynamic)
    code, found = generate_json(run_cli, project)
    assert code == 1
    lines = (project / "schema/tools-table.schema.json").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if '"$dynamicRef"' in text)
    assert located(found) == [("SCHEMA_UNSUPPORTED", line, "/$defs/Settings/$dynamicRef")], found
    assert found[0]["source"] == "schema/tools-table.schema.json"


# --- a current folder deleted meanwhile --------------------------------------------------------


@pytest.mark.parametrize("command", [("generate",), ("check", "--full")])
def test_regenerating_from_a_deleted_current_folder_is_a_usage_error(
    project: Path,
    tmp_path: Path,
    run_cli: Run,
    monkeypatch: pytest.MonkeyPatch,
    command: tuple[str, ...],
) -> None:
    """datamodel-code-generator reads the current folder: every module was a GENERATION_FAILED
    saying only ``FileNotFoundError: [Errno 2] No such file or directory``."""
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, out, _ = run_cli(*command, "--project", str(project), "--format", "json")
    document = json.loads(out)
    assert code == 2, document
    assert document["diagnostics"] == []
    assert document["error"]["kind"] == "usage"
    assert "run toolgen from a folder that exists" in document["error"]["message"]


# --- breaking compares values as JSON does -------------------------------------------------------


def third_party(repo: Path, properties: dict[str, Any]) -> None:
    path = repo / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["ThirdPartyToolManifest"]["properties"].update(properties)
    path.write_text(json.dumps(schema, indent=2) + "\n")


def schema_records(document: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((d["code"], d["message"]) for d in document["diagnostics"])


def test_breaking_tells_true_from_1_and_shows_values_as_json(repo: Path, run_cli: Run) -> None:
    """Python's ``==`` made ``true`` equal ``1``: ``const: 1`` changed to ``const: true`` (every
    adapter holding 1 now refused) was no change at all, and values were shown as Python
    (``"True"``, ``"None"``)."""
    third_party(repo, {"x": {"enum": [1, "a", None]}, "y": {"const": 1}})
    commit_all(repo, "values")
    git(repo, "tag", "values")
    third_party(repo, {"x": {"enum": [True, "a", 1.0, None]}, "y": {"const": None}})
    code, document = breaking_json(run_cli, repo, "values")
    assert code == 1
    assert schema_records(document) == [
        ("BREAKING_SCHEMA_ENUM_NARROWED", "/y: const no longer accepts 1"),
        ("SAFE_ADDITION", "/x: now also accepts true"),
        ("SAFE_ADDITION", "/y: now also accepts null"),
    ], document


def test_breaking_sees_an_if_condition_changed_from_1_to_true(repo: Path, run_cli: Run) -> None:
    def conditional(value: object) -> dict[str, Any]:
        return {"z": {"if": {"const": value}, "then": {"type": "integer"}}}

    third_party(repo, conditional(1))
    commit_all(repo, "if")
    git(repo, "tag", "if")
    third_party(repo, conditional(True))
    code, document = breaking_json(run_cli, repo, "if")
    assert code == 1
    assert schema_records(document) == [
        ("BREAKING_SCHEMA_TYPE_CHANGED", "/z: the if/then/else condition changed")
    ], document
    # 1 and 1.0 are one JSON Schema value: no change.
    third_party(repo, conditional(1.0))
    code, document = breaking_json(run_cli, repo, "if")
    assert (code, document["diagnostics"]) == (0, []), document


# --- an inline object schema the Python renderer cannot name ------------------------------------


@pytest.mark.parametrize(
    ("schema", "value", "pointer"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}}, "{a: x}", "/properties/meta"),
        (
            {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
            "[{a: x}]",
            "/properties/meta/items",
        ),
    ],
)
def test_an_inline_object_schema_is_located_for_the_python_constants(
    project: Path, run_cli: Run, schema: dict[str, Any], value: str, pointer: str
) -> None:
    """``constants.py``'s GENERATION_FAILED named no schema node (the loaders' were located)."""
    path = project / "schema/tool-manifest.schema.json"
    manifest = json.loads(path.read_text())
    manifest["properties"]["meta"] = schema
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    text = (project / TABLE).read_text()
    anchor = "    displayName: Claude Code\n"
    (project / TABLE).write_text(text.replace(anchor, f"{anchor}    meta: {value}\n", 1))
    code, found = generate_json(run_cli, project)
    assert code == 1
    constants = [d for d in found if "constants.py" in d["message"]]
    assert len(constants) == 1, found
    assert constants[0]["source"] == "schema/tool-manifest.schema.json"
    assert constants[0]["pointer"] == pointer
    lines = path.read_text().splitlines()
    line = next(n for n, t in enumerate(lines, 1) if '"meta"' in t)
    if pointer.endswith("/items"):
        line = next(n for n, t in enumerate(lines, 1) if n > line and '"items"' in t)
    assert constants[0]["line"] == line


# --- configuration: a path refused by the placement rules is located at its key ------------------


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('python_out = "generated/python"', 'python_out = "."', "must stay inside the project"),
        ('docs_out = "generated/docs"', 'docs_out = "generated/python/x"', "overlap"),
        ('docs_out = "generated/docs"', 'docs_out = "schema"', "contains the source"),
        ('table = "schema/tools.yaml"', 'readme = "schema/tools.yaml"', "is the source table"),
        ('docs_out = "generated/docs"', 'docs_out = "pyproject.toml"', "contains the source"),
    ],
)
def test_a_misplaced_path_setting_is_located_at_its_key(
    project: Path, run_cli: Run, old: str, new: str, words: str
) -> None:
    """The placement rules (inside the project, no overlap, no source in an output folder, the
    README no source) named only the file, where every other refused setting names its line."""
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text()
    assert old in text
    changed = text.replace(old, f"{old}\n{new}" if old.startswith("table") else new, 1)
    pyproject.write_text(changed)
    line = changed.splitlines().index(new) + 1
    code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 2
    message = json.loads(out)["error"]["message"]
    assert message.startswith(f"{pyproject}:{line}:1: "), message
    assert words in message

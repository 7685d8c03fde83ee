"""The draft-07 editor schema: tools.yaml points at it, and it accepts and rejects what the
2020-12 build-time validation does."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator

from generator.ecma import ecma_search
from generator.editor_schema import EditorSchemaError, bundle_draft07

from .conftest import REPO

EDITOR_SCHEMA = json.loads((REPO / "generated/schema/tools.schema.json").read_text())
TABLE = yaml.safe_load((REPO / "schema/tools.yaml").read_text())


def _validator() -> Draft7Validator:
    Draft7Validator.check_schema(EDITOR_SCHEMA)
    return Draft7Validator(EDITOR_SCHEMA)


def test_tools_yaml_names_the_editor_schema_in_its_modeline() -> None:
    first_line = (REPO / "schema/tools.yaml").read_text().splitlines()[0]
    assert first_line == "# yaml-language-server: $schema=../generated/schema/tools.schema.json"
    assert (REPO / "schema" / "../generated/schema/tools.schema.json").resolve().exists()
    assert EDITOR_SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_the_table_is_valid_under_the_editor_schema() -> None:
    assert list(_validator().iter_errors(TABLE)) == []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"surprise": 1}, ["tools", 0]),
        ({"detect": {"kind": "path"}}, ["tools", 0, "detect"]),
        ({"category": "web-app"}, ["tools", 0, "category"]),
        ({"id": "Not Kebab"}, ["tools", 0, "id"]),
    ],
)
def test_the_editor_schema_rejects_bad_rows(change: dict[str, Any], path: list[Any]) -> None:
    table = json.loads(json.dumps(TABLE))
    table["tools"][0].update(change)
    errors = list(_validator().iter_errors(table))
    assert errors
    assert any(list(error.absolute_path)[: len(path)] == path for error in errors)


def test_patterns_are_carried_over_unchanged() -> None:
    manifest = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
    editor_id = EDITOR_SCHEMA["definitions"]["ToolManifest"]["properties"]["id"]["pattern"]
    assert editor_id == manifest["properties"]["id"]["pattern"]
    assert not ecma_search(editor_id, "codex\n")


def test_keywords_without_a_draft07_spelling_are_refused() -> None:
    table_schema = json.loads((REPO / "schema/tools-table.schema.json").read_text())
    manifest = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())
    manifest["properties"]["promptArgTemplate"]["prefixItems"] = [{"type": "string"}]
    with pytest.raises(EditorSchemaError, match="prefixItems"):
        bundle_draft07(table_schema, manifest)

"""Keys taken from the inputs survive as own properties of the generated TypeScript object
literals, in the Python order: the golden case tests/golden/special_keys has every special property
name of JavaScript objects (and numeric-looking strings) as ids (keys of every map) and capabilities
(keys of CAPABILITY_PROVIDERS); its TypeScript is compiled and run under node and compared with its
Python. Array-index keys, which JavaScript would enumerate first, are refused with a location."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.literals import UnportableKeyError, is_array_index, ts_key, ts_value

from .conftest import REPO, build_typescript, probe_python, run_node

CASE = REPO / "tests/golden/special_keys"
SPECIAL = [
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "__defineGetter__",
    "__lookupGetter__",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "__defineSetter__",
    "__lookupSetter__",
]
NUMERIC_LOOKING = ["01", "1e3", "-0", "4294967295", "1.5", "+1", " 1", "00"]
OTHER = ["a b", "", "kebab-case", "$x", "\u00e9", "\U0001f600", "a\"b'c\\d", "${x}", "*/"]

Run = Callable[..., tuple[int, str, str]]

NODE_PROBE = """\
import { BUILTIN_TOOL_MANIFESTS, CAPABILITIES, CAPABILITY_PROVIDERS, DISPLAY_NAMES, SUPPORTED_TOOLS } from "./index.js";

function own(record: object, keys: readonly string[]): unknown {
  return {
    keys: Object.keys(record),
    entries: Object.entries(record),
    allOwn: keys.every((key) => Object.hasOwn(record, key)),
    prototypeIsObject: Object.getPrototypeOf(record) === Object.prototype,
  };
}
console.log(JSON.stringify({
  names: own(DISPLAY_NAMES, SUPPORTED_TOOLS),
  providers: own(CAPABILITY_PROVIDERS, CAPABILITIES),
  extras: own(BUILTIN_TOOL_MANIFESTS[0].extras, Object.keys(BUILTIN_TOOL_MANIFESTS[0].extras)),
  frozen: Object.isFrozen(CAPABILITY_PROVIDERS) && Object.isFrozen(CAPABILITY_PROVIDERS["__proto__"]),
}));
"""

PYTHON_PROBE = """\
import dataclasses, json
from tool_registry import BUILTIN_TOOL_MANIFESTS, CAPABILITY_PROVIDERS, DISPLAY_NAMES
extras = BUILTIN_TOOL_MANIFESTS[0].extras
print(json.dumps({
    "names": [[k, v] for k, v in DISPLAY_NAMES.items()],
    "providers": [[k, list(v)] for k, v in CAPABILITY_PROVIDERS.items()],
    "extras": [[f.name, getattr(extras, f.name)] for f in dataclasses.fields(extras)],
}))
"""


def test_the_case_holds_every_special_name() -> None:
    schema = json.loads((CASE / "schema/tool-manifest.schema.json").read_text())
    capabilities = schema["$defs"]["Capability"]["enum"]
    assert set(SPECIAL) | {"01", "1e3", "-0", "4294967295", "a b"} <= set(capabilities)
    table = (CASE / "schema/tools.yaml").read_text()
    assert all(f'- id: "{name}"' in table for name in [*SPECIAL, "01", "1e3", "-0"])


def test_typescript_objects_have_the_python_keys_values_and_order(tmp_path: Path) -> None:
    out = build_typescript(tmp_path, CASE / "generated/typescript", {"probe.ts": NODE_PROBE})
    result = run_node(out / "probe.js")
    assert result.returncode == 0, result.stderr
    node = json.loads(result.stdout)
    python: Any = probe_python(CASE / "generated/python", PYTHON_PROBE)
    for name in ("names", "providers"):
        assert node[name]["entries"] == python[name], name
        assert node[name]["allOwn"] is True and node[name]["prototypeIsObject"] is True
    assert [key for key, _ in python["names"]][: len(SPECIAL)] == SPECIAL
    assert [key for key, value in python["extras"] if value is not None] == node["extras"]["keys"]
    assert node["extras"]["entries"] == [[k, v] for k, v in python["extras"] if v is not None]
    assert node["frozen"] is True


def test_ts_value_keeps_every_key_own_and_in_order(tmp_path: Path) -> None:
    keys = [*SPECIAL, *NUMERIC_LOOKING, *OTHER]
    value = {key: index for index, key in enumerate(keys)}
    source = (
        f"const value = {ts_value(value)};\n"
        "console.log(JSON.stringify({ entries: Object.entries(value),"
        " proto: Object.getPrototypeOf(value) === Object.prototype }));\n"
        "export {};\n"
    )
    out = build_typescript(tmp_path, CASE / "generated/typescript", {"value.ts": source})
    result = run_node(out / "value.js")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    assert facts["entries"] == [[key, index] for index, key in enumerate(keys)]
    assert facts["proto"] is True


@pytest.mark.parametrize("key", ["0", "1", "10", "4294967294"])
def test_array_index_keys_are_refused_by_the_emitter(key: str) -> None:
    assert is_array_index(key)
    with pytest.raises(UnportableKeyError):
        ts_key(key)


@pytest.mark.parametrize("key", [*NUMERIC_LOOKING, "-1", "4294967296", "1" * 11])
def test_numeric_looking_keys_keep_their_spelling(key: str) -> None:
    assert not is_array_index(key)
    assert ts_key(key) == json.dumps(key)


def test_proto_is_a_computed_key_in_literals_and_a_plain_name_in_types() -> None:
    assert ts_key("__proto__") == '["__proto__"]'
    types = (CASE / "generated/typescript/types.ts").read_text()
    tools = (CASE / "generated/typescript/tools.ts").read_text()
    assert '"__proto__": ' not in tools and "\n  __proto__: " not in tools
    assert '| "__proto__" |' in types


def _diagnostics(run_cli: Run, project: Path) -> list[tuple[str, str, str, bool]]:
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    return [
        (d["code"], d["source"], d["pointer"], d["line"] is not None)
        for d in json.loads(out)["diagnostics"]
    ]


def test_an_array_index_capability_is_refused_at_its_enum_entry(
    project: Path, run_cli: Run
) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["Capability"]["enum"][1:1] = ["7", "07"]
    path.write_text(json.dumps(schema, indent=2))
    assert _diagnostics(run_cli, project) == [
        ("UNPORTABLE_KEY", "schema/tool-manifest.schema.json", "/$defs/Capability/enum/1", True)
    ]


def test_an_array_index_id_is_refused_at_its_row(project: Path, run_cli: Run) -> None:
    path = project / "schema/tools.yaml"
    path.write_text(path.read_text().replace("id: cursor", "id: '42'"))
    assert _diagnostics(run_cli, project) == [
        ("UNPORTABLE_KEY", "schema/tools.yaml", "/tools/2/id", True)
    ]


@pytest.mark.parametrize("name", ["__proto__", "_private", "__defineGetter__", "a-b", "class"])
def test_a_property_name_python_would_rename_is_refused(
    project: Path, run_cli: Run, name: str
) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["PathDetect"]["properties"][name] = {"type": "string"}
    path.write_text(json.dumps(schema, indent=2))
    pointer = f"/$defs/PathDetect/properties/{name}"
    assert _diagnostics(run_cli, project) == [
        ("SCHEMA_UNSUPPORTED", "schema/tool-manifest.schema.json", pointer, True)
    ]

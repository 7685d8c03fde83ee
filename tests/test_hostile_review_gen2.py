"""Hostile review of the generator side, second round: inputs a user can write that earlier
reviews left unlocated, unescaped or answered with the wrong outcome. Each test names what was
wrong before its fix."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.load import parse_json
from generator.readme import BEGIN, END, ReadmeError, splice

Run = Callable[..., tuple[int, str, str]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{\n  "a": NaN\n}', [("NaN", 2, 8, "/a")]),
        (
            '{"a": [1, -Infinity,\r\n  Infinity], "b": {"c": NaN}}',
            [("-Infinity", 1, 11, "/a/1"), ("Infinity", 2, 3, "/a/2"), ("NaN", 2, 25, "/b/c")],
        ),
    ],
)
def test_nan_and_infinity_in_json_are_located_each(
    text: str, expected: list[tuple[str, int, int, str]]
) -> None:
    """``parse_constant`` raised, so ``json`` stopped at the first one and the diagnostic had
    no line, column or pointer (``schema.json: JSON_SYNTAX error: "NaN is not valid JSON"``):
    in a 300-line schema the user had to search for it. Now each is reported at its node."""
    loaded = parse_json(text, "schema.json")
    assert loaded.value is None
    found = [
        (d.code.value, d.message.split(" ")[0], d.line, d.column, d.pointer)
        for d in loaded.diagnostics
    ]
    assert found == [
        ("JSON_SYNTAX", word, line, column, ptr) for word, line, column, ptr in expected
    ]


def test_a_nan_in_the_manifest_schema_is_located_by_the_cli(project: Path, run_cli: Run) -> None:
    """The same through ``toolgen generate``: exit 1, the file, line and column."""
    path = project / "schema/tool-manifest.schema.json"
    text = path.read_text(encoding="utf-8")
    assert '"maxLength": 80' in text
    line = text[: text.index('"maxLength": 80')].count("\n") + 1
    path.write_text(text.replace('"maxLength": 80', '"maxLength": NaN', 1), encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    (diagnostic,) = json.loads(out)["diagnostics"]
    assert diagnostic["code"] == "JSON_SYNTAX"
    assert diagnostic["line"] == line
    assert diagnostic["pointer"] == "/properties/displayName/maxLength"


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (f"intro\n{BEGIN}\n{END}\nmore\n  {END}\n", 5, 3, "a second end marker"),
        (f"{BEGIN}{BEGIN}\n{END}\n", 1, len(BEGIN) + 1, "a second begin marker"),
        (f"intro\r\n{END}\r\n{BEGIN}\r\n", 2, 1, "the end marker comes before"),
        (f"\ufeff{BEGIN}\nno end\n", 1, 1, "a begin marker without an end marker"),
        (f"a\rb\r  {END}\r", 3, 3, "an end marker without a begin marker"),
    ],
)
def test_broken_readme_markers_are_located(text: str, line: int, column: int, words: str) -> None:
    """A README whose markers cannot delimit one region was reported at the README as a whole
    (``README.md: GENERATION_FAILED error: expected one begin marker followed by one end
    marker``), which marker was at fault left to guess in a long README; now the marker at fault
    is named and located (lines broken at CRLF, LF or CR, a byte order mark taking no column)."""
    with pytest.raises(ReadmeError) as raised:
        splice(text, "| t |\n")
    assert (raised.value.line, raised.value.column) == (line, column)
    assert str(raised.value).startswith(words)


def test_a_broken_readme_marker_is_located_by_the_cli(project: Path, run_cli: Run) -> None:
    readme = project / "README.md"
    text = readme.read_text(encoding="utf-8")
    readme.write_text(text + f"\n\nA copy pasted by mistake:\n{BEGIN}\n", encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    (diagnostic,) = json.loads(out)["diagnostics"]
    assert diagnostic["code"] == "GENERATION_FAILED"
    assert (diagnostic["source"], diagnostic["line"], diagnostic["column"]) == (
        "README.md",
        text.count("\n") + 4,
        1,
    )


MODELS_WITH_LOOKALIKE_NAMES = """
from __future__ import annotations

import dataclasses
import typing
from dataclasses import KW_ONLY, dataclass
from typing import ClassVar as CV


@dataclass
class ClassVariant:
    a: str


@dataclass
class Holder:
    zz: ClassVariant | None = None
    items: tuple[ClassVariant, ...] = ()
    counted: CV[int] = 1
    quoted: "CV[int]" = 2
    qualified: typing.ClassVar[int] = 3
    _: KW_ONLY
    last: str = ""
"""


def test_a_field_typed_by_a_class_named_like_classvar_is_a_field() -> None:
    """``dataclass_fields`` skipped every annotation whose *text* held ``ClassVar`` or
    ``KW_ONLY``: a ``$defs`` entry named ``ClassVariant`` (or ``ClassVar``, which the schema
    rules allow) made its property no field, and ``generate`` failed with a misleading
    ``GENERATION_FAILED`` (``class ToolManifest cannot be built from its schema without its
    constructor``) located at another definition. The fields are now those ``dataclasses``
    makes, read from the annotation's head."""
    from generator.python_models import dataclass_fields

    module = types.ModuleType("toolgen_probe_models")
    sys.modules[module.__name__] = module  # dataclasses resolves annotations in the module
    try:
        exec(compile(MODELS_WITH_LOOKALIKE_NAMES, "models.py", "exec"), module.__dict__)  # noqa: S102
    finally:
        del sys.modules[module.__name__]
    holder = module.Holder
    real = tuple(field.name for field in dataclasses.fields(holder))
    assert real == ("zz", "items", "quoted", "last")
    assert dataclass_fields(MODELS_WITH_LOOKALIKE_NAMES)["Holder"] == real


@pytest.mark.parametrize("name", ["ClassVariant", "ClassVar"])
def test_a_defs_entry_named_like_classvar_generates(project: Path, run_cli: Run, name: str) -> None:
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"][name] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "string"}},
    }
    schema["properties"]["zz"] = {"$ref": f"#/$defs/{name}"}
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 0, out
    models = (project / "generated/python/tool_registry/models.py").read_text(encoding="utf-8")
    assert f"    zz: {name} | None = None\n" in models


@pytest.mark.parametrize("name", ["Literal", "Sequence"])
def test_a_type_name_the_models_module_imports_is_schema_unsupported(
    project: Path, run_cli: Run, name: str
) -> None:
    """README: a type name a generated Python module imports is ``SCHEMA_UNSUPPORTED`` at its
    key. ``models.py`` imports ``Literal`` and ``Sequence``, so datamodel-code-generator renamed
    such a class, and the loader's template failed first: ``GENERATION_FAILED`` saying the name
    went "to another type (such as the items of an array property)", which was not the reason."""
    path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"][name] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "string"}},
    }
    schema["properties"]["zz"] = {"$ref": f"#/$defs/{name}"}
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    (diagnostic,) = json.loads(out)["diagnostics"]
    assert (diagnostic["code"], diagnostic["pointer"]) == ("SCHEMA_UNSUPPORTED", f"/$defs/{name}")
    assert "models.py" in diagnostic["message"]
    assert diagnostic["line"] is not None


def _nest_beyond_path_max(folder: Path, depth: int = 2500) -> None:
    """``folder/a/a/…/a/x.ts``, ``depth`` folders deep: its path is longer than Linux's
    ``PATH_MAX`` (4096), so the deepest folders cannot be listed by their path. Made through
    folder descriptors, never by that path."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("a", dir_fd=descriptor)
            inner = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        file = os.open("x.ts", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=descriptor)
        os.close(file)
    finally:
        os.close(descriptor)


def _remove_nesting(folder: Path) -> None:
    """Remove what ``_nest_beyond_path_max`` made (if still there), through folder descriptors
    and without recursion: pytest's own clean-up of old temporary folders recurses once per
    level (a ``RecursionError`` at 2,500)."""
    descriptors = [os.open(folder, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        while True:
            try:
                inner = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=descriptors[-1])
            except FileNotFoundError:
                break
            descriptors.append(inner)
        with contextlib.suppress(FileNotFoundError):
            os.unlink("x.ts", dir_fd=descriptors[-1])
        for parent in reversed(descriptors[:-1]):
            os.rmdir("a", dir_fd=parent)
    finally:
        for descriptor in descriptors:
            os.close(descriptor)


@pytest.mark.skipif(sys.platform != "linux", reason="PATH_MAX of Linux")
def test_an_orphan_nested_beyond_path_max_is_not_invisible(project: Path, run_cli: Run) -> None:
    """A folder in an output folder that cannot be listed was skipped as if empty: an orphan
    nested deeper than ``PATH_MAX`` made ``check`` say every file was up to date (exit 0), and
    ``generate`` left it there silently. The folder is now an entry like a file: ``check``
    reports it as an orphan and ``generate`` says it cannot delete it (exit 1 both)."""
    _nest_beyond_path_max(project / "generated/typescript")
    try:
        code, out, _ = run_cli("check", "--project", str(project), "--format", "json")
        assert code == 1
        found = json.loads(out)["diagnostics"]
        assert [d["code"] for d in found] == ["DRIFT_ORPHANED"]
        assert found[0]["source"].startswith("generated/typescript/a/a/")
        code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
        assert code == 1
        assert [d["code"] for d in json.loads(out)["diagnostics"]] == ["WRITE_FAILED"]
    finally:
        _remove_nesting(project / "generated/typescript")


def test_locating_json_nodes_is_linear_in_a_line_of_many_separators() -> None:
    """Every node position on a line was moved back by scanning every line separator before it
    on that line: positions times separators, so a 200 KB one-line schema of 40,000 U+2028 and
    40,000 array items took 78 s to report one repeated key (a 64 MiB one would never finish).
    Counted here in executed lines of ``generator/load.py``, not in time."""
    count = 1000
    text = (
        '{"$comment": "' + "\u2028" * count + '", "examples": [' + ", ".join(["1"] * count) + "],"
        ' "title": "A", "title": "B"}'
    )
    executed = 0

    def tracer(frame: types.FrameType, event: str, _: object) -> object:
        nonlocal executed
        if frame.f_code.co_filename.endswith("generator/load.py"):
            executed += event == "line"
            return tracer
        return None

    sys.settrace(tracer)  # type: ignore[arg-type]
    try:
        loaded = parse_json(text, "s.json")
    finally:
        sys.settrace(None)
    (found,) = loaded.diagnostics
    assert (found.code.value, found.line, found.column) == (
        "DUPLICATE_KEY",
        1,
        text.rindex('"title"') + 1,  # each separator's escape counted back
    )
    assert executed < 300 * count  # about 80 per node now; the scan ran millions


def _with_ref_dag(schema: dict[str, object], levels: int, leaf: dict[str, object]) -> None:
    """``zz`` -> ``D0``, each ``D<i>`` an object whose two properties both refer to
    ``D<i+1>``: 2**levels paths down to the leaf ``D<levels>``."""
    defs = schema["$defs"]
    properties = schema["properties"]
    assert isinstance(defs, dict) and isinstance(properties, dict)
    for index in range(levels):
        ref = {"$ref": f"#/$defs/D{index + 1}"}
        defs[f"D{index}"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {"l": dict(ref), "r": dict(ref)},
        }
    defs[f"D{levels}"] = leaf
    properties["zz"] = {"$ref": "#/$defs/D0"}


def test_breaking_compares_a_shared_definition_once(
    project: Path, tmp_path: Path, run_cli: Run
) -> None:
    """``breaking`` walked the adapter schema along every path: a definition reached by many
    (a small DAG of ``$ref``s, each level's two properties referring to the next) was compared
    once per path, 2**levels times: 22 levels made 4,194,304 records of one tightened
    ``maxLength`` after three minutes, and 32 would never end. Each pair of nodes is compared
    once now, its change reported at the first path."""
    from .conftest import copy_project

    baseline = copy_project(tmp_path / "baseline")
    levels = 14
    leaves: list[tuple[Path, dict[str, object]]] = [
        (baseline, {"type": "string"}),
        (project, {"type": "string", "maxLength": 5}),
    ]
    for folder, leaf in leaves:
        path = folder / "schema/tool-manifest.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        _with_ref_dag(schema, levels, leaf)
        path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    code, out, _ = run_cli(
        "breaking", "--project", str(project), "--against", str(baseline), "--format", "json"
    )
    assert code == 1
    found = json.loads(out)["diagnostics"]
    assert [(d["code"], d["subject"], d["pointer"]) for d in found] == [
        ("BREAKING_SCHEMA_LIMIT_TIGHTENED", "/zz" + "/l" * levels, f"/$defs/D{levels}/maxLength")
    ]


def _with_allof_chain(schema: dict[str, object], levels: int, then: dict[str, object]) -> None:
    """``zz`` -> ``A<levels>``, each ``A<i>`` only ``allOf: [{$ref: A<i-1>}]``, and ``A0`` an
    object with an ``if``/``then``."""
    defs = schema["$defs"]
    properties = schema["properties"]
    assert isinstance(defs, dict) and isinstance(properties, dict)
    defs["A0"] = {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "if": {"required": ["x"]},
        "then": then,
    }
    for index in range(1, levels + 1):
        defs[f"A{index}"] = {"allOf": [{"$ref": f"#/$defs/A{index - 1}"}]}
    properties["zz"] = {"$ref": f"#/$defs/A{levels}"}


def _chain(schema: dict[str, object], levels: int, leaf: dict[str, object]) -> None:
    """``zz`` -> ``D0``, each ``D<i>`` an object whose one property refers to ``D<i+1>``."""
    defs = schema["$defs"]
    properties = schema["properties"]
    assert isinstance(defs, dict) and isinstance(properties, dict)
    for index in range(levels):
        defs[f"D{index}"] = {
            "type": "object",
            "properties": {"l": {"$ref": f"#/$defs/D{index + 1}"}},
        }
    defs[f"D{levels}"] = leaf
    properties["zz"] = {"$ref": "#/$defs/D0"}


_Shape = Callable[[dict[str, object], int, dict[str, object]], None]


@pytest.mark.parametrize(
    "case",
    [
        (
            _with_allof_chain,
            {"required": ["x"]},
            {"required": ["x", "y"]},
            ("BREAKING_SCHEMA_REQUIRED_ADDED", "/zz/y"),
        ),
        (
            _chain,
            {"type": "string"},
            {"type": "string", "maxLength": 5},
            ("BREAKING_SCHEMA_LIMIT_TIGHTENED", "/zz" + "/l" * 40),
        ),
    ],
)
def test_breaking_sees_a_change_deep_in_an_accepted_schema(
    project: Path,
    tmp_path: Path,
    run_cli: Run,
    case: tuple[_Shape, dict[str, object], dict[str, object], tuple[str, str]],
) -> None:
    """``breaking`` stopped merging ``$ref``/``allOf`` parts 32 levels down and stopped walking
    32 properties down, silently: a chain of 20 ``allOf: [{$ref}]`` definitions (or of 40
    properties), which ``generate`` accepts (up to 64 ``$ref``s), hid a newly required property
    (or a tightened limit) at its end, and ``breaking`` said "0 breaking", exit 0."""
    from .conftest import copy_project

    shape, old, new, expected = case
    baseline = copy_project(tmp_path / "baseline")
    for folder, node in ((baseline, old), (project, new)):
        path = folder / "schema/tool-manifest.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        shape(schema, 40 if shape is _chain else 20, node)
        path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    code, out, _ = run_cli(
        "breaking", "--project", str(project), "--against", str(baseline), "--format", "json"
    )
    assert code == 1
    found = json.loads(out)["diagnostics"]
    assert [(d["code"], d["subject"]) for d in found] == [expected]


@pytest.mark.parametrize("text", [b"[tool.toolgen\nschema = 'x'\n", b"[tool.toolgen]\n\xff\n"])
def test_a_broken_nearer_pyproject_is_not_skipped_for_the_project_above(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch, text: bytes
) -> None:
    """Without ``--project`` toolgen looks for the nearest ``pyproject.toml`` with a
    ``[tool.toolgen]`` table; one that did not parse (a typo, a stray byte) counted as having
    none, so in a subproject of a monorepo ``toolgen generate`` silently ran on (and wrote to)
    the project above. Now a broken one that names toolgen is the project, and its error is the
    usage error (exit 2)."""
    nested = project / "packages/sub"
    nested.mkdir(parents=True)
    (nested / "pyproject.toml").write_bytes(text)
    monkeypatch.chdir(nested)
    code, out, _ = run_cli("check", "--format", "json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["kind"] == "usage"
    assert "packages/sub/pyproject.toml" in error["message"]


def test_breaking_finds_a_condition_beside_a_wide_dag_without_searching_every_route(
    project: Path, tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """To locate an ``if``, ``breaking`` searched the parts a node merges along every route: a
    part holding none, reached by many routes (``B<n>: allOf [$ref B<n-1>, $ref B<n-1>]``),
    was searched 2**n times before the part holding the ``if`` (24 levels: no answer after two
    minutes). Counted here in schema lookups, not in time."""
    from generator import breaking, schemas

    from .conftest import copy_project

    levels = 16
    baseline = copy_project(tmp_path / "baseline")
    for folder, required in ((baseline, ["x"]), (project, ["x", "y"])):
        path = folder / "schema/tool-manifest.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        defs = schema["$defs"]
        defs["B0"] = {"type": "object"}
        for index in range(1, levels + 1):
            ref = {"$ref": f"#/$defs/B{index - 1}"}
            defs[f"B{index}"] = {"allOf": [dict(ref), dict(ref)]}
        defs["C"] = {
            "type": "object",
            "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
            "if": {"required": ["x"]},
            "then": {"required": required},
        }
        defs["Top"] = {"allOf": [{"$ref": "#/$defs/C"}, {"$ref": f"#/$defs/B{levels}"}]}
        schema["properties"]["zz"] = {"$ref": "#/$defs/Top"}
        path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    lookups = 0
    resolve = schemas.resolve_local_ref

    def counted(root: Any, ref: str) -> Any:
        nonlocal lookups
        lookups += 1
        return resolve(root, ref)

    monkeypatch.setattr(breaking, "resolve_local_ref", counted)
    code, out, _ = run_cli(
        "breaking", "--project", str(project), "--against", str(baseline), "--format", "json"
    )
    assert code == 1
    found = json.loads(out)["diagnostics"]
    assert [(d["code"], d["subject"]) for d in found] == [
        ("BREAKING_SCHEMA_REQUIRED_ADDED", "/zz/y")
    ]
    assert lookups < 5_000  # every route: over 2 * 2**16

"""Sixth hostile review: the manifest schema itself as hostile input (patterns whose ECMA-262
meaning the Python translation must keep or refuse, structures the compiler must survive)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from generator.ecma import compile_pattern
from generator.ecma_to_re import PYTHON_FLAGS, RegexError, translate
from generator.schema_subset import CompileError
from generator.ts_validator import emit_validators

from .conftest import REPO

# -- patterns: the translation answers as ECMA-262 or is refused naming the construct ----------


def _ecma(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).find(text) is not None


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        # Python's \B never matches in an empty string; ECMA's does (no boundary there).
        ("\\B", ""),
        ("^\\B$", ""),
        ("^a?\\B$", ""),
        ("(?:^x|\\B)", ""),
        ("\\B", "ab"),
        ("\\B", "a"),
        ("a\\B", "a-"),
        ("-\\B-", "--"),
        ("(?<=a\\B)b", "ab"),
        ("(?<!\\B)", ""),
    ],
)
def test_a_non_boundary_means_what_ecma_means(pattern: str, text: str) -> None:
    python = re.compile(translate(pattern), PYTHON_FLAGS)
    assert (python.search(text) is not None) == _ecma(pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        # A group that took no part: ECMA's reference matches the empty string, Python's fails.
        ("^(a)?\\1b$", "b"),
        ("^(?:a|(b))\\1c$", "ac"),
        ("^(?<n>a)?\\k<n>b$", "b"),
        # ECMA resets a quantified group's captures at each repetition; Python keeps them.
        ("^(?:(a)|b)+\\1$", "ab"),
        ("^(?:(a)|\\1b)+$", "ab"),
        # A capture inside a negative lookahead is undefined after it in ECMA.
        ("^.(?!(\\s)x)(?!\\1+)", "a"),
    ],
)
def test_a_backreference_is_refused_naming_it(pattern: str, text: str) -> None:
    # Every one of these is read differently by the two engines.
    try:
        python = re.compile(translate(pattern), PYTHON_FLAGS)
    except RegexError as error:
        assert "backreference" in str(error)
    else:
        assert (python.search(text) is not None) == _ecma(pattern, text)


def test_a_backreference_in_the_schema_is_a_located_refusal() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "string", "pattern": "^(a)?\\1$"}}}
    with pytest.raises(CompileError) as raised:
        emit_validators(schema, {"validate": ""}, guards=False)
    assert raised.value.pointer == "/properties/n/pattern"
    assert raised.value.keyword == "pattern"
    assert "backreference" in str(raised.value)


# -- patterns that backtrack exponentially are refused at generation ---------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        "^(a+)+$",  # "a" * 40 + "!" ran for hours in both validators, maxLength or not
        "^(a*)*$",
        "^(?:[a-z]+-?)*$",
        "^(?:\\s*[a-z]+\\s*)+$",
        "^(.*,)*x$",
        "^(a|a)*$",
        "^(\\w|\\d)+$",  # one class to Python's parser, two alternatives to ECMAScript's engine
        "^(a|b|ab)*c$",
        "^(?:x(?:a|a)y)*$",
        "^(a?){25}a{25}$",  # an optional character is a repeat too
        "^(?:a?a?)+$",
        "^(?:a+b+a+)+$",  # the last run shares its characters with the first
        "^(?:[a-z]+[a-z0-9]+)*$",  # two runs sharing letters
        # Classes sharing only characters beyond the fixed probes (0.08 s on 24 characters,
        # ten times more per one more, in Python and node alike).
        "^(?:[\u0100-\u017f]+[\u0100-\u017f]+)*$",
        "^(?:\u0100[\u0100-\u017f]*)*$",
        "^(?:[\u0100-\u017f]|[\u0100-\u017f]\u0101)*$",
        "^(?:[\u0100-\u017f]+\u0150+)*$",
        # An alternation with an empty alternative is an optional character: each repetition
        # takes one "_" or two (0.006 s on 26, a hundred times more per 13 more).
        "^(?:_(?:_|))*$",
        "^(?:_(?:_|)a*)*$",
        "^(?:_a*(?:_|))*$",
        # A repeat that can match empty inside one: Python's engine tries both counts each
        # time (0.07 s on 23 characters, a thousand times more per 11 more; node stays linear).
        "^(?:_(?:a*)?)*$",
        "^(?:_(?:a?b?)?)*$",
        "^(?:_(?:(?=_))?)*$",
        "^(?:(?:\\b){2,5}[^a])*x$",  # 1.4 s on 25 characters ("b " repeated)
        # Separated repetitions, each of which can match its characters two ways: a failure
        # after them tries every combination (0.08 s on 43 characters, ~1000x per 21 more).
        "^(?:a?a?_)+$",
        "^(?:_[a-z]{0,3}[a-z0-9]?)*$",
        "^(?:\\S+\\s*\\s+)*$",
    ],
)
def test_a_pattern_that_can_backtrack_exponentially_is_refused(pattern: str) -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "string", "maxLength": 64, "pattern": pattern}},
    }
    with pytest.raises(CompileError) as raised:
        emit_validators(schema, {"validate": ""}, guards=False)
    assert raised.value.pointer == "/properties/n/pattern"
    assert raised.value.keyword == "pattern"
    assert "ReDoS" in str(raised.value)


@pytest.mark.parametrize(
    "pattern",
    [
        "^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$",  # each repetition begins with "_"
        "^(?:[a-z]+,)*$",  # ... or ends with ","
        "^([^,]*,)*x$",
        "^(?:a|b)*$",
        "^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$",  # an optional group repeats at most once
        "^(?:(?:ab)+c)+$",
        "^(?:-?[a-z])*$",
        "^(?:a{2})+$",  # a fixed count is no choice
        # Runs of disjoint characters, the last none of the first's: each run ends where the
        # next begins (each measured linear: twice the time for twice the hostile string).
        "^(?:\\S+\\s+)*\\S+$",
        "^(?:a+b+)+$",
        "^(?:[a-z]{1,3}[0-9]{1,3})*$",
    ],
)
def test_a_pattern_each_string_matches_one_way_is_compiled(pattern: str) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "string", "pattern": pattern}}}
    assert "function" in emit_validators(schema, {"validate": ""}, guards=False)


def test_generate_reports_an_exponential_pattern_located(tmp_path: Path) -> None:
    from .conftest import copy_project, run_toolgen

    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["hookPointer"]["pattern"] = "^(?:[a-z./-]+)+$"
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    assert "SCHEMA_UNSUPPORTED" in completed.stderr and "ReDoS" in completed.stderr
    assert "/properties/hookPointer/pattern" in completed.stderr
    assert "Traceback" not in completed.stderr


# -- optional members named as Object.prototype members ----------------------------------------


def test_a_row_without_an_inherited_named_member_compiles_and_reads_soundly(tmp_path: Path) -> None:
    # types.ts declared "readonly toString?: string": an object without that member still has
    # Object.prototype's toString (a function), so a row giving only some of the special_keys
    # case's Extras did not compile (TS2322), and a guarded document's member was typed
    # string | undefined while a function.
    import shutil

    from .conftest import build_typescript, run_node, run_toolgen

    case = tmp_path / "tests/golden/special_keys"
    shutil.copytree(REPO / "tests/golden/special_keys", case)
    (tmp_path / "schema").mkdir()
    shutil.copy(REPO / "schema/tools-table.schema.json", tmp_path / "schema")
    table = case / "schema/tools.yaml"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    (extras,) = [number for number, line in enumerate(lines) if line.lstrip().startswith("extras:")]
    lines[extras] = '    extras: {toString: "v-toString"}\n'
    table.write_text("".join(lines), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(case))
    assert completed.returncode == 0, completed.stderr
    probe = """
import { BUILTIN_TOOL_MANIFESTS } from "./tools.js";
import type { ToolManifest } from "./types.js";
const rows: readonly ToolManifest[] = BUILTIN_TOOL_MANIFESTS;
const extras = rows.find((m) => m.extras !== undefined)?.extras;
const own: string | undefined = typeof extras?.toString === "string" ? extras.toString : undefined;
const inherited = typeof extras?.valueOf;
console.log(JSON.stringify([own, inherited]));
"""
    out = build_typescript(tmp_path / "ts", case / "generated/typescript", {"probe.ts": probe})
    ran = run_node(out / "probe.js")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == ["v-toString", "function"]


# -- structure: a $ref reached by two routes at every level costs linear work -------------------


def _diamond(levels: int) -> dict[str, Any]:
    """``D<n>`` refers to ``D<n-1>`` twice (directly and in an ``allOf``), ``levels`` deep: a
    schema of linear size whose routes number 2**levels."""
    defs: dict[str, Any] = {"D0": {"type": "string", "minLength": 1}}
    for level in range(1, levels + 1):
        below = {"$ref": f"#/$defs/D{level - 1}"}
        defs[f"D{level}"] = {
            "anyOf": [below, {"allOf": [below, {"maxLength": 5}]}, {"type": "integer"}]
        }
    return {"$defs": defs, "$ref": f"#/$defs/D{levels}"}


def _calls(function: str, run: Any) -> int:
    import sys

    count = 0

    def profile(frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event == "call" and frame.f_code.co_name == function:
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def test_the_string_coverage_question_visits_each_subschema_a_bounded_number_of_times() -> None:
    # plan._examines_every_string walked every route: 2**n visits for n levels (20 levels took
    # minutes of `generate`). Each pointer's answer is now kept once decided.
    from generator.plan import build_plan

    levels = 16
    calls = _calls("covers", lambda: build_plan(_diamond(levels), {"validate": ""}))
    assert calls <= 20 * levels


def test_the_reference_spells_a_type_in_text_linear_in_the_schema() -> None:
    # views._schema_type spelled a non-object $defs entry out at every route: the type of D16
    # was millions of characters of generated/docs/reference.md, built by as many calls.
    from generator.views import _schema_type

    levels = 16
    schema = _diamond(levels)
    text = ""

    def spell() -> None:
        nonlocal text
        text = _schema_type({"$ref": f"#/$defs/D{levels}"}, schema, "", {})

    calls = _calls("_schema_type", spell)
    assert calls <= 40 * levels
    assert len(text) <= 400 * levels
    assert text.startswith("string or string or integer or ")


def test_merging_an_all_of_reached_by_many_routes_is_linear_in_the_schema() -> None:
    # schemas.effective_schema merged a part once per route: A<n> = allOf [$ref A<n-1>,
    # $ref A<n-1>] cost 2**n merges (the reference and the breaking-change comparison read it).
    from generator.schemas import effective_schema

    levels = 16
    defs: dict[str, Any] = {"A0": {"type": "string", "minLength": 1}}
    for level in range(1, levels + 1):
        below = {"$ref": f"#/$defs/A{level - 1}"}
        defs[f"A{level}"] = {"allOf": [below, dict(below)], "description": f"level {level}"}
    schema = {"$defs": defs}
    found: list[Any] = []

    def merge() -> None:
        found.append(effective_schema(defs[f"A{levels}"], schema, f"/$defs/A{levels}"))

    calls = _calls("effective_schema", merge) + _calls("_effective", merge)
    assert calls <= 20 * levels
    assert found[-1].keywords == {
        "type": "string",
        "minLength": 1,
        "description": f"level {levels}",
    }


# -- a shape a type emitter cannot express is reported at the schema node ---------------------


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        # No type, $ref, const, enum or combinator: types.ts cannot type it.
        ({"if": {"type": "string"}, "else": {"type": "integer"}}, "/properties/extra"),
        # An untyped array item.
        ({"type": "array", "items": {"minLength": 1}}, "/properties/extra/items"),
        # A keyword the draft-07 editor schema cannot express.
        (
            {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}},
            "/properties/extra/prefixItems",
        ),
    ],
)
def test_a_shape_the_type_emitters_refuse_is_located_in_the_schema(
    tmp_path: Path, change: dict[str, Any], pointer: str
) -> None:
    # GENERATION_FAILED named only the generated file ("generated/typescript/types.ts: ...
    # schema too loose to type"): nothing said which schema node to change.
    from .conftest import copy_project, run_toolgen

    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["extra"] = change
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    errors = [line for line in completed.stderr.splitlines() if "GENERATION_FAILED" in line]
    assert errors, completed.stderr
    for line in errors:
        assert line.startswith("schema/tool-manifest.schema.json:"), line
        assert line.endswith(f"(at {pointer})"), line
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize("name", ["class", "\u03a9", "a b", "-", "let"])
def test_a_defs_name_no_generated_type_can_take_is_refused_at_its_key(
    tmp_path: Path, name: str
) -> None:
    # A $defs entry names a Python class and a TypeScript type. "class" failed in the
    # TypeScript type emitter, "Ω" in datamodel-code-generator's output check: GENERATION_FAILED
    # on up to six generated files, none naming the schema node.
    from .conftest import copy_project, run_toolgen

    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["$defs"][name] = {"type": "string"}
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    errors = [line for line in completed.stderr.splitlines() if " error: " in line]
    assert len(errors) == 1, completed.stderr
    assert errors[0].startswith("schema/tool-manifest.schema.json:"), errors[0]
    assert "SCHEMA_UNSUPPORTED" in errors[0]


def test_an_inherited_member_s_type_is_read_from_the_value_object() -> None:
    # A $defs entry named Object is a type of types.ts: the inherited member is named through
    # the value (typeof Object.prototype), which no declaration there shadows.
    from generator.shapes import resolve
    from generator.ts_types import declarations

    schema = {
        "title": "Root",
        "type": "object",
        "properties": {"valueOf": {"type": "string"}},
        "$defs": {"Object": {"type": "object", "properties": {"toString": {"type": "string"}}}},
    }
    text = "\n".join(declaration for _, declaration in declarations(resolve(schema)))
    assert 'readonly valueOf?: string | (typeof Object.prototype)["valueOf"];' in text
    assert 'readonly toString?: string | (typeof Object.prototype)["toString"];' in text

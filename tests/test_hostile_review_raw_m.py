"""The loader's schema records made from the validator's raw violations (the private twin of
``validate_third_party_manifest``): pinned at the per-file limit's edges, against the public
entry point for values the loader never hands it (deep, not an object), and against the
TypeScript loader for hostile adapter files (many violations, unknown fields, a candidates
detect, an unsafe character in every pattern-checked string, odd keys).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tool_registry import load_manifest_files, validator
from tool_registry.diagnostics import MAX_DIAGNOSTICS_PER_FILE, shown_pointer
from tool_registry.schema_runtime import report

from .conftest import REPO, build_typescript, copy_project, probe_python, run_js, run_toolgen
from .test_speed_invariants import broken_manifests

BASE: dict[str, Any] = {
    "id": "x-tool",
    "displayName": "X",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".x/y.json",
    "detect": {"kind": "path", "binaryName": "x"},
}
# One unsafe string of each kind the loader names, each failing some pattern.
UNSAFE = [
    "a;b", "a|b", "a&b", "$x", "`x`", "a\\b", "(x", "x)", "<x", ">x", "'x", '"x', "a\nb",
    "a\rb", "a\x00b", "../x", "a/../b", "..", "/abs", "\\\\share", "C:x", "c:/x", "a/..",
]  # fmt: skip
MCP = {k: v for k, v in BASE.items() if k != "detect"} | {
    "launchable": False,
    "category": "mcp-server",
}


def _load(document: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    data = json.dumps(document).encode()
    loaded = load_manifest_files([("a.json", "a.json")], read_file=lambda _p, _l: data)
    return [(d.code.value, d.pointer, d.expected, d.found) for d in loaded.diagnostics]


def _unsafe(count: int) -> list[tuple[str, str, str, str]]:
    return [
        ("UNSAFE_STRING", f"/promptArgTemplate/{i}", "shell metacharacter", json.dumps(text))
        for i, text in enumerate(UNSAFE[:count])
    ]


CANDIDATES = ("CANDIDATES_NOT_ALLOWED", "/detect/kind", "", '"candidates"')


def test_the_limit_s_edges_in_the_loader() -> None:
    """Exactly the limit of violations: all shown, no summary; one more: the validator stops
    (``at least 1``). Warnings take only the room errors leave. A candidates detect's own
    violations (under ``/detect``) are neither shown nor counted: its one record stands for
    them, and the file's other violations get all the room it leaves."""
    limit = MAX_DIAGNOSTICS_PER_FILE
    assert limit == 10  # (the cases below are sized for it)
    assert _load(BASE | {"promptArgTemplate": UNSAFE[:10]}) == _unsafe(10)
    more = [*_unsafe(10), ("TOO_MANY_DIAGNOSTICS", "", "", "at least 1")]
    assert _load(BASE | {"promptArgTemplate": UNSAFE[:11]}) == more
    unknown = {f"u{i}": i for i in range(10)}
    assert _load(BASE | unknown | {"promptArgTemplate": UNSAFE[:9]}) == [
        ("UNKNOWN_FIELD", "/u0", "", ""),
        *_unsafe(9),
        ("TOO_MANY_DIAGNOSTICS", "", "", "9"),
    ]
    # This detect is two violations (of the path alternative, the closer one) under /detect:
    # before they were left out of the count, the ninth item below was hidden behind a summary.
    candidates = {"kind": "candidates"}
    assert _load(BASE | {"detect": candidates, "promptArgTemplate": UNSAFE[:8]}) == [
        CANDIDATES,
        *_unsafe(8),
    ]
    assert _load(BASE | {"detect": candidates, "promptArgTemplate": UNSAFE[:9]}) == [
        CANDIDATES,
        *_unsafe(9),
    ]
    assert _load(BASE | {"detect": candidates, "promptArgTemplate": UNSAFE[:10]}) == [
        CANDIDATES,
        *_unsafe(9),
        ("TOO_MANY_DIAGNOSTICS", "", "", "at least 1"),
    ]
    # Ten violations under /detect once hid these three behind "at least 1".
    paths = {"kind": "candidates", "paths": {"linux": UNSAFE[:10]}}
    assert _load(BASE | {"detect": paths, "promptArgTemplate": UNSAFE[:3]}) == [
        CANDIDATES,
        *_unsafe(3),
    ]


@pytest.mark.parametrize("count", range(13))
@pytest.mark.parametrize("under_detect", [2, 11])
def test_a_candidates_detect_leaves_the_others_all_the_room(count: int, under_detect: int) -> None:
    """Whether the validator stopped at its limit (the file is checked again without what lies
    under /detect) or not (the violations it found are filtered): the same records, the
    candidates record and then as many of the others as the room after it holds."""
    detect: dict[str, Any] = {"kind": "candidates"}  # two violations under /detect
    if under_detect > 2:
        detect["paths"] = {"linux": UNSAFE[: under_detect - 2]}
    shown = min(count, MAX_DIAGNOSTICS_PER_FILE - 1)
    expected = [CANDIDATES, *_unsafe(shown)]
    if count > shown:
        expected.append(("TOO_MANY_DIAGNOSTICS", "", "", "at least 1"))
    document = BASE | {"detect": detect, "promptArgTemplate": UNSAFE[:count]}
    assert _load(document) == expected


def _deep(depth: int, leaf: object) -> object:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"kind": value}
    return value


@pytest.mark.parametrize("limit", [1, 2, 3, 10, 100])
def test_the_raw_twin_reports_what_the_public_function_does_for_any_value(limit: int) -> None:
    """The loader takes a document's raw violations from the entry point's twin: for broken
    manifests, and values the loader never passes (not an object, nested past any recursion
    limit), they make exactly the public function's records, ``None`` for ``()``."""
    values: list[object] = [*broken_manifests(), None, 1, "a;b", [], [BASE], True, 10**300]
    for depth in (40, 3000):
        values += [_deep(depth, "a;b"), BASE | {"detect": _deep(depth, 1)}]
        values.append(BASE | {"capabilities": {"provides": [_deep(depth, 1)] * 2}})
    for value in values:
        for name in ("validate_tool_manifest", "validate_third_party_manifest"):
            public = getattr(validator, name)(value, limit)
            raw = getattr(validator, f"_violations_of_{name}")(value, limit)
            assert (public == ()) is (raw is None)
            assert (report(raw) if raw is not None else ()) == public


def _cases() -> dict[str, str]:
    cases: dict[str, dict[str, Any]] = {}
    for field in ("id", "hookPointer", "hookPackage", "library"):
        for index, text in enumerate(UNSAFE):
            cases[f"{field}-{index}"] = BASE | {field: text}
    for index, text in enumerate(UNSAFE):
        server = {"transport": "stdio", "command": text, "args": [text, "ok", text + text]}
        cases[f"mcp-{index}"] = MCP | {"mcpServer": server}
        cases[f"url-{index}"] = MCP | {
            "mcpServer": {"transport": "http", "url": "https://x/" + text}
        }
    for count in (9, 10, 11, 23):
        cases[f"template-{count}"] = BASE | {"promptArgTemplate": UNSAFE[:count]}
        unknown = {f"u{i}": i for i in range(count)}
        cases[f"unknown-{count}"] = BASE | unknown | {"promptArgTemplate": UNSAFE[:9]}
        paths = {"kind": "candidates", "paths": {"linux": UNSAFE[: count % 12]}, "zz": 1}
        cases[f"candidates-{count}"] = BASE | {"detect": paths, "promptArgTemplate": UNSAFE[:count]}
    cases["candidates-mcp"] = BASE | {
        "category": "mcp-server",
        "detect": {"kind": "candidates"},
        "mcpServer": {"transport": "stdio", "command": "a;b"},
    }
    cases["kind-x"] = BASE | {"detect": {"kind": "x", "binaryName": "a;b"}}
    odd = {"a/b": 1, "~": 2, "\x01": 3, "": 4, "é\u202e": 5, "k" * 100: 6}
    cases["odd-keys"] = BASE | odd | {"detect": {"kind": "path", "binaryName": "x", **odd}}
    cases["long"] = BASE | {"displayName": "\u202e" * 200, "promptArgTemplate": ["x;" * 200] * 25}
    cases["types"] = BASE | {"id": None, "displayName": [], "launchable": "yes", "detect": []}
    cases["args-many"] = MCP | {
        "mcpServer": {"transport": "stdio", "command": "x", "args": UNSAFE * 2}
    }
    texts = {name: json.dumps(document) for name, document in cases.items()}
    # A lone surrogate (an escape): refused whole, before the validator.
    texts["surrogate"] = json.dumps(BASE | {"id": "a;\udfff"})
    return texts


LOAD = """\
import { loadManifestFiles } from "./index.js";
import { readFileSync } from "node:fs";
const texts = JSON.parse(readFileSync(process.argv[2], "utf8"));
const entries = Object.entries(texts);
const files = entries.map(([name]) => [name + ".json", name]);
const result = loadManifestFiles(files, { readFile: (path) => Buffer.from(texts[path], "utf8") });
console.log(JSON.stringify(result.files.map((f) => [f.source, f.accepted, f.diagnostics.map((d) =>
  [d.code, d.pointer, d.source, d.keyword, d.expected, d.found, d.omitted])])));
"""


def test_typescript_makes_the_same_records_for_hostile_files(tmp_path: Path) -> None:
    texts = _cases()
    out = build_typescript(tmp_path / "ts", REPO / "generated" / "typescript")
    (tmp_path / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    typescript = run_js(out, LOAD, str(tmp_path / "texts.json"))
    data = {name: text.encode() for name, text in texts.items()}
    loaded = load_manifest_files(
        [(name + ".json", name) for name in texts], read_file=lambda path, _l: data[path]
    )
    python: list[list[Any]] = [
        [
            f.source,
            f.accepted,
            [
                [d.code.value, d.pointer, d.source, d.keyword, d.expected, d.found, d.omitted]
                for d in f.diagnostics
            ],
        ]
        for f in loaded.files
    ]
    assert typescript == python
    codes = {record[0] for file in python for record in file[2]}
    assert {"UNSAFE_STRING", "TOO_MANY_DIAGNOSTICS", "CANDIDATES_NOT_ALLOWED"} <= codes


def test_add_errors_keeps_and_counts_as_add_does_one_record_at_a_time() -> None:
    """``_Report.add_errors`` (the loader's one call for a file's schema records) against
    ``add`` called once a record, from every fill of the errors and warnings held: the same
    records kept, numbered, counted as omitted, and the same summary when finishing."""
    from tool_registry.diagnostics import Diagnostic, DiagnosticCode
    from tool_registry.loader import _Report

    def error(index: int) -> Diagnostic:
        return Diagnostic(DiagnosticCode.SCHEMA_VIOLATION, pointer=f"/e{index}", source="a.json")

    warning = Diagnostic(DiagnosticCode.UNKNOWN_FIELD, pointer="/w")
    for before in range(MAX_DIAGNOSTICS_PER_FILE + 3):
        for warnings in (0, 3, MAX_DIAGNOSTICS_PER_FILE + 1):
            for count in (0, 1, 5, MAX_DIAGNOSTICS_PER_FILE, MAX_DIAGNOSTICS_PER_FILE + 2):
                one, other = _Report("a.json"), _Report("a.json")
                for held in (one, other):
                    for _ in range(warnings):
                        held.add(warning)
                    for index in range(before):
                        held.add(error(100 + index))
                made = [error(index) for index in range(count)]
                one.add_errors(list(made))
                for record in made:
                    other.add(record)
                state = (one.errors, one.warnings, one.arrivals, one.omitted)
                assert state == (other.errors, other.warnings, other.arrivals, other.omitted)
                assert one.finish() == other.finish()


# Both loaders over the same files, in a generated package: (source, [code, pointer, expected]).
PYTHON_LOAD = """
import json, sys
from tool_registry import load_third_party_manifests
files = load_third_party_manifests(sys.argv[2]).files
print(json.dumps([[f.source, [[d.code.value, d.pointer, d.expected] for d in f.diagnostics]]
                  for f in files]))
"""
TS_LOAD = """\
import { loadThirdPartyManifests } from "./index.js";
console.log(JSON.stringify(loadThirdPartyManifests(process.argv[2]).files.map((f) =>
  [f.source, f.diagnostics.map((d) => [d.code, d.pointer, d.expected])])));
"""


def test_a_schema_s_own_keys_and_long_pointers_get_the_same_codes_in_both_loaders(
    tmp_path: Path,
) -> None:
    """A schema whose pattern-checked strings sit under keys the file names (an
    ``additionalProperties`` subschema), or at a pointer longer than a record shows, or under a
    top-level property named like ``/detect`` (``detectHints``). Python judged the unsafe
    character from the raw violation's own text and dropped only ``/detect`` and what is inside
    it for a candidates detect; TypeScript looked the value up again by the shown pointer
    (escaped, clipped: no value found, so ``SCHEMA_VIOLATION`` where Python said
    ``UNSAFE_STRING``) and dropped every pointer starting ``/detect`` (``/detectHints`` lost)."""
    project = copy_project(tmp_path / "project")
    path = project / "schema" / "tool-manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["properties"]["labels"] = {"$ref": "#/$defs/LabelSet"}
    schema["$defs"]["LabelSet"] = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "additionalProperties": {"type": "string", "pattern": "^[a-z]*$"},
    }
    schema["properties"]["x" * 90] = {"type": "string", "pattern": "^[a-z]*$"}
    schema["properties"]["detectHints"] = {"type": "string", "pattern": "^[a-z]*$"}
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    done = run_toolgen("generate", "--project", str(project))
    assert done.returncode == 0, done.stderr
    adapters = tmp_path / "adapters"
    adapters.mkdir()
    labels = {"\u00e9\u202e": "a;b", "tab\t": "$x", "a/b~c": "/abs", "k" * 90: "a;b"}
    documents = {
        "labels": BASE | {"labels": labels},
        "long": BASE | {"x" * 90: "a;b"},
        "hints": BASE | {"detect": {"kind": "candidates"}, "detectHints": "a;b"},
    }
    for name, document in documents.items():
        (adapters / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    python = probe_python(
        project / "generated" / "python", PYTHON_LOAD.replace("sys.argv[2]", repr(str(adapters)))
    )
    out = build_typescript(tmp_path / "ts", project / "generated" / "typescript")
    typescript = run_js(out, TS_LOAD, str(adapters))
    assert typescript == python
    reason = {"a;b": "shell metacharacter", "$x": "shell metacharacter", "/abs": "absolute path"}
    assert python == [
        [
            "hints.json",
            [
                ["CANDIDATES_NOT_ALLOWED", "/detect/kind", ""],
                ["UNSAFE_STRING", "/detectHints", "shell metacharacter"],
            ],
        ],
        [
            "labels.json",
            [
                ["UNSAFE_STRING", "/labels/\u00e9\\u202e", reason["a;b"]],
                ["UNSAFE_STRING", "/labels/tab\\u0009", reason["$x"]],
                ["UNSAFE_STRING", "/labels/a~1b~0c", reason["/abs"]],
                ["UNSAFE_STRING", shown_pointer("/labels/" + "k" * 90), reason["a;b"]],
            ],
        ],
        ["long.json", [["UNSAFE_STRING", shown_pointer("/" + "x" * 90), reason["a;b"]]]],
    ]

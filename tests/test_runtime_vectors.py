"""The shared runtime vectors (tests/vectors/) against both generated runtimes: the Python
package in-process, and the generated TypeScript compiled with the strict options and run under
node. Every vector must match its expectation exactly in both (codes, pointers, severities and
order; ``found``/``others``/``omitted``/``expected`` where the vector names them), so the two
runtimes apply the same rules with the same codes."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tool_registry import load_third_party_manifests
from tool_registry.loader import load_manifest_files

from .conftest import REPO, build_typescript, node_executable

VECTORS = REPO / "tests" / "vectors"
GENERATED_TS = REPO / "generated" / "typescript"
RUNNER = REPO / "tests" / "ts" / "vector-runner.ts"
BASE = json.loads((VECTORS / "base-manifest.json").read_text(encoding="utf-8"))
# The keys a diagnostic expectation may name beyond the three every one names.
OPTIONAL_KEYS = ("found", "expected", "omitted", "others", "source")


def _vectors(kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in sorted((VECTORS / kind).glob("*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
            found.append({**vector, "name": f"{path.stem}/{vector['name']}"})
    return found


PARSE = _vectors("parse")
LOADER = _vectors("loader")


def content(spec: dict[str, Any]) -> bytes:
    """The bytes a vector's input form describes."""
    if "text" in spec:
        return str(spec["text"]).encode("utf-8")
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    if "parts" in spec:
        return b"".join(content(part) * int(part.get("times", 1)) for part in spec["parts"])
    document = {**BASE, **spec["manifest"]}
    text = json.dumps({k: v for k, v in document.items() if v is not None}, ensure_ascii=False)
    if "members" in spec:
        text = text[:-1] + ", " + spec["members"] + "}"
    return text.encode("utf-8")


def materialize(vector: dict[str, Any], root: Path) -> Path:
    """The vector's folder layout under ``root``; returns the adapters folder."""
    root.mkdir(parents=True, exist_ok=True)
    folder = root / "adapters"
    if vector.get("missing_folder"):
        return folder
    if vector.get("folder_is_file"):
        folder.write_text("not a folder")
        return folder
    folder.mkdir(parents=True)
    for entry in vector["entries"]:
        name = entry.get("name")
        raw = base64.b64decode(entry["name_base64"]) if name is None else os.fsencode(name)
        path = os.path.join(os.fsencode(folder), raw)
        if entry.get("folder"):
            os.mkdir(path)
        elif entry.get("fifo"):
            os.mkfifo(path)
        elif "symlink" in entry:
            os.symlink(os.fsencode(entry["symlink"]), path)
        else:
            with open(path, "wb") as handle:
                handle.write(content(entry))
    return folder


def matches(actual: list[dict[str, Any]], expected: list[dict[str, Any]]) -> list[str]:
    """Why ``actual`` diagnostics (as_json documents) differ from the expectation ([] if not)."""
    problems: list[str] = []
    if len(actual) != len(expected):
        problems.append(f"{len(actual)} diagnostics, expected {len(expected)}")
    for index, (got, want) in enumerate(zip(actual, expected, strict=False)):
        for key in ("code", "severity", "pointer"):
            if got.get(key) != want[key]:
                problems.append(f"#{index} {key}: {got.get(key)!r} != {want[key]!r}")
        for key in OPTIONAL_KEYS:
            if key not in want:
                continue
            value = got.get(key)
            if key in {"found", "expected"}:
                value = _field(got, key)
            if value != want[key] and not (key == "omitted" and value is None and want[key] == 0):
                problems.append(f"#{index} {key}: {value!r} != {want[key]!r}")
    return problems


def _field(document: dict[str, Any], key: str) -> Any:
    return document.get(f"_{key}")


def parse_outcome_python(vector: dict[str, Any]) -> dict[str, Any]:
    data = content(vector)
    result = load_manifest_files([(vector["name"], "unused")], read_file=lambda _path, _limit: data)
    (report,) = result.files
    return {
        "accepted": report.accepted,
        "diagnostics": [_with_fields(d) for d in report.diagnostics],
    }


def _with_fields(diagnostic: Any) -> dict[str, Any]:
    """``as_json`` plus the fields it leaves out (``found``, ``expected``), for comparison."""
    document: dict[str, Any] = diagnostic.as_json()
    document["_found"] = diagnostic.found
    document["_expected"] = diagnostic.expected
    return document


def loader_outcome_python(vector: dict[str, Any], root: Path) -> dict[str, Any]:
    folder = materialize(vector, root)
    kwargs = {"max_files": vector["max_files"]} if "max_files" in vector else {}
    result = load_third_party_manifests(folder, **kwargs)
    return {
        "manifests": [m.id for m in result.manifests],
        "files": [
            {
                "source": f.source,
                "accepted": f.accepted,
                "id": f.id,
                "diagnostics": [_with_fields(d) for d in f.diagnostics],
            }
            for f in result.files
        ],
        "diagnostics": [_with_fields(d) for d in result.diagnostics],
    }


def parse_problems(vector: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    problems = []
    if outcome["accepted"] != vector["accept"]:
        problems.append(f"accepted {outcome['accepted']}, expected {vector['accept']}")
    return problems + matches(outcome["diagnostics"], vector["diagnostics"])


def loader_problems(vector: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    expect = vector["expect"]
    problems = []
    if outcome["manifests"] != expect["manifests"]:
        problems.append(f"manifests {outcome['manifests']} != {expect['manifests']}")
    files = outcome["files"]
    if [f["source"] for f in files] != [f["source"] for f in expect["files"]]:
        problems.append(f"files {[f['source'] for f in files]}")
    for got, want in zip(files, expect["files"], strict=False):
        if (got["accepted"], got["id"]) != (want["accepted"], want.get("id")):
            problems.append(f"{want['source']}: {got['accepted']}, {got['id']}")
        problems += [
            f"{want['source']}: {p}" for p in matches(got["diagnostics"], want["diagnostics"])
        ]
    per_file = sum(len(f["diagnostics"]) for f in files)
    problems += matches(outcome["diagnostics"][per_file:], expect.get("folder_diagnostics", []))
    return problems


def test_the_vectors_cover_every_code_of_the_parse_and_loader_layer() -> None:
    seen = (
        {d["code"] for vector in PARSE for d in vector["diagnostics"]}
        | {
            d["code"]
            for vector in LOADER
            for f in vector["expect"]["files"]
            for d in f["diagnostics"]
        }
        | {d["code"] for vector in LOADER for d in vector["expect"].get("folder_diagnostics", [])}
    )
    layer = {
        "NOT_A_FILE",
        "UNREADABLE",
        "FILE_TOO_LARGE",
        "INVALID_ENCODING",
        "INVALID_JSON",
        "DUPLICATE_KEY",
        "LONE_SURROGATE",
        "NOT_AN_OBJECT",
        "SCHEMA_VIOLATION",
        "UNSAFE_STRING",
        "CANDIDATES_NOT_ALLOWED",
        "UNKNOWN_FIELD",
        "BUILTIN_COLLISION",
        "DISPLAY_NAME_COLLISION",
        "UNASSIGNED_CHARACTER",
        "DUPLICATE_ID",
        "TOO_MANY_DIAGNOSTICS",
        "TOO_MANY_FILES",
    }  # DEPRECATED_FIELD: the schema marks no field deprecated, so no manifest can earn it
    assert layer - seen == set()


@pytest.mark.parametrize("vector", PARSE, ids=[v["name"] for v in PARSE])
def test_python_parse_vectors(vector: dict[str, Any]) -> None:
    assert parse_problems(vector, parse_outcome_python(vector)) == []


@pytest.mark.parametrize("vector", LOADER, ids=[v["name"] for v in LOADER])
def test_python_loader_vectors(vector: dict[str, Any], tmp_path: Path) -> None:
    assert loader_problems(vector, loader_outcome_python(vector, tmp_path)) == []


def test_typescript_runtime_meets_every_vector(tmp_path: Path) -> None:
    out = build_typescript(
        tmp_path / "build", GENERATED_TS, {"vector-runner.ts": RUNNER.read_text(encoding="utf-8")}
    )
    job: dict[str, list[dict[str, Any]]] = {"parse": [], "loader": []}
    for vector in PARSE:
        encoded = base64.b64encode(content(vector)).decode("ascii")
        job["parse"].append({"name": vector["name"], "base64": encoded})
    for index, vector in enumerate(LOADER):
        folder = materialize(vector, tmp_path / f"layout-{index}")
        entry: dict[str, Any] = {"name": vector["name"], "folder": str(folder)}
        if "max_files" in vector:
            entry["maxFiles"] = vector["max_files"]
        job["loader"].append(entry)
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(job), encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(out / "vector-runner.js"), str(job_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    outcomes = json.loads(result.stdout)
    problems: dict[str, list[str]] = {}
    for vector in PARSE:
        found = parse_problems(vector, outcomes["parse"][vector["name"]])
        if found:
            problems[vector["name"]] = found
    for vector in LOADER:
        found = loader_problems(vector, outcomes["loader"][vector["name"]])
        if found:
            problems[vector["name"]] = found
    assert problems == {}, "\n".join(f"{name}: {found}" for name, found in problems.items())

"""Drive both generated runtimes over the same adapter-file bytes and list every disagreement.

Python reads each case through ``load_manifest_files`` (one file, injected reader) and, when the
bytes parse as JSON, through ``parse_third_party_manifest`` on the value; TypeScript (compiled
once, one node process per batch) reads it through ``parseThirdPartyManifest`` from the bytes
and, for valid UTF-8, from the text. Groups of cases are also loaded together, as one folder,
by ``load_manifest_files`` / ``loadManifestFiles``, so the rules over several files (duplicate
ids, the order of the manifests) are compared too. Every field of every diagnostic (code,
severity, pointer, source, keyword, expected, found, omitted, others, hint, message), their
order, the verdict and the accepted manifest must be equal.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

from tool_registry import load_third_party_manifests, parse_third_party_manifest
from tool_registry.loader import LoadResult, load_manifest_files

from .conftest import REPO, build_typescript, node_executable

RUNNER = REPO / "tests" / "ts" / "parse-differential-runner.ts"
# Codes decided while reading the text: a value handed to ``parse_third_party_manifest`` has
# already been through the JSON reader, so its outcome is compared only when none of these arose.
TEXT_CODES = {
    "FILE_TOO_LARGE",
    "INVALID_ENCODING",
    "INVALID_JSON",
    "DUPLICATE_KEY",
    "VALUE_TOO_LARGE",
}


def record(diagnostic: Any) -> dict[str, Any]:
    """Every field of a Python ``Diagnostic``, as the runner reports a TypeScript one."""
    return {
        "code": diagnostic.code.value,
        "severity": diagnostic.severity.value,
        "pointer": diagnostic.pointer,
        "source": diagnostic.source,
        "keyword": diagnostic.keyword,
        "expected": diagnostic.expected,
        "found": diagnostic.found,
        "omitted": diagnostic.omitted,
        "others": list(diagnostic.others),
        "hint": diagnostic.hint,
        "message": diagnostic.message,
    }


def plain_manifest(manifest: Any) -> Any:
    """A typed manifest as the JSON object TypeScript holds: members left out are absent."""
    if manifest is None:
        return None
    return _without_none(dataclasses.asdict(manifest))


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_none(item) for item in value]
    return value


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere (``json`` reads ``1e400`` as infinity; a value holding one is
    refused by ``parse_third_party_manifest``, by design, while the file that spelled it is not)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    return True


def _json_value(data: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(data.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except (ValueError, RecursionError):
        return False, None


def python_single(name: str, data: bytes) -> dict[str, Any]:
    """One case through the Python loader (and ``parse_third_party_manifest`` when it applies)."""
    result = load_manifest_files([(name, "unused")], read_file=lambda _path, _limit: data)
    (report,) = result.files
    outcome: dict[str, Any] = {
        "manifest": plain_manifest(result.manifests[0]) if result.manifests else None,
        "diagnostics": [record(d) for d in report.diagnostics],
        "value": None,
    }
    if not {d["code"] for d in outcome["diagnostics"]} & TEXT_CODES:
        ok, value = _json_value(data)
        if ok and _finite(value):
            parsed = parse_third_party_manifest(value, source=name)
            outcome["value"] = {
                "manifest": plain_manifest(parsed.manifest),
                "diagnostics": [record(d) for d in parsed.diagnostics],
            }
    return outcome


def python_group(names: list[str], cases: list[bytes]) -> dict[str, Any]:
    """Cases loaded together, as one folder's files."""
    by_path = {str(index): data for index, data in enumerate(cases)}
    return loaded(
        load_manifest_files(
            [(name, str(index)) for index, name in enumerate(names)],
            read_file=lambda path, _limit: by_path[path],
        )
    )


def python_folder(folder: Path) -> dict[str, Any]:
    """A real folder through ``load_third_party_manifests``."""
    return loaded(load_third_party_manifests(folder))


def loaded(result: LoadResult) -> dict[str, Any]:
    """A load's manifests, per-file reports and records, as the runner reports TypeScript's."""
    return {
        "manifests": [plain_manifest(m) for m in result.manifests],
        "files": [
            {
                "source": f.source,
                "accepted": f.accepted,
                "id": f.id,
                "diagnostics": [record(d) for d in f.diagnostics],
            }
            for f in result.files
        ],
        "diagnostics": [record(d) for d in result.diagnostics],
    }


def write_folder(folder: Path, names: list[bytes], cases: list[bytes]) -> Path:
    """``cases`` written under ``names`` (bytes, maybe not UTF-8) in a new ``folder``."""
    folder.mkdir(parents=True)
    for name, data in zip(names, cases, strict=False):
        with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
            handle.write(data)
    return folder


class TsParser:
    """The generated TypeScript compiled once (with the runner); ``run`` answers one batch in
    one node process."""

    def __init__(self, work_dir: Path, out: Path) -> None:
        self.work_dir = work_dir
        self.out = out

    @classmethod
    def build(
        cls, work_dir: Path, generated_ts: Path = REPO / "generated" / "typescript"
    ) -> TsParser:
        """``generated_ts`` and the runner compiled under ``work_dir``."""
        runner = RUNNER.read_text(encoding="utf-8")
        return cls(
            work_dir, build_typescript(work_dir / "build", generated_ts, {"runner.ts": runner})
        )

    def run(
        self,
        names: list[str],
        cases: list[bytes],
        groups: list[list[int]],
        folders: tuple[Path, ...] = (),
    ) -> dict[str, Any]:
        job = {
            "cases": [
                {"name": n, "base64": base64.b64encode(d).decode("ascii"), "utf8": _is_utf8(d)}
                for n, d in zip(names, cases, strict=True)
            ],
            "groups": groups,
            "folders": [str(folder) for folder in folders],
        }
        job_file = self.work_dir / "job.json"
        result_file = self.work_dir / "result.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        done = subprocess.run(
            [node_executable(), str(self.out / "runner.js"), str(job_file), str(result_file)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outcome: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
        return outcome


def disagreements(
    names: list[str],
    cases: list[bytes],
    groups: list[list[int]],
    typescript: dict[str, Any],
    folders: tuple[Path, ...] = (),
) -> list[str]:
    """Every way the two runtimes (and Python's two entry points) read the batch differently."""
    problems: list[str] = []
    for index, (name, data) in enumerate(zip(names, cases, strict=True)):
        python = python_single(name, data)
        ts = typescript["single"][index]
        mine = {"manifest": python["manifest"], "diagnostics": python["diagnostics"]}
        for label, theirs in (("bytes", ts["bytes"]), ("text", ts["text"])):
            if theirs is not None and theirs != mine:
                problems.append(_explain(f"{name} ({label})", data, mine, theirs))
        if python["value"] is not None and python["value"] != mine:
            problems.append(_explain(f"{name} (Python value)", data, mine, python["value"]))
    for group, loaded in zip(groups, typescript["groups"], strict=True):
        mine = python_group([names[i] for i in group], [cases[i] for i in group])
        theirs = loaded
        if mine != theirs:
            problems.append(_explain(f"group {group[:3]}...", b"", mine, theirs))
    for folder, loaded_folder in zip(folders, typescript["folders"], strict=True):
        mine = python_folder(folder)
        theirs = loaded_folder
        if mine != theirs:
            problems.append(_explain(f"folder {folder.name}", b"", mine, theirs))
    return problems


def _explain(what: str, data: bytes, mine: Any, theirs: Any) -> str:
    return (
        f"{what}: input {data[:300]!r}{'...' if len(data) > 300 else ''}\n"
        f"  python:     {json.dumps(mine, ensure_ascii=True)[:1500]}\n"
        f"  typescript: {json.dumps(theirs, ensure_ascii=True)[:1500]}"
    )

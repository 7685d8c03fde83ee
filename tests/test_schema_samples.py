"""An ``examples`` item or a ``default`` that its own schema refuses is ``SCHEMA_INVALID`` at
its place, before anything is written: the reference shows the third-party examples as adapter
files to copy, and editors offer examples and defaults, so a wrong one misleads its reader.

Before, ``generate`` published such an example without a word (the docs then showed an adapter
file the loader refuses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]
SCHEMA = "schema/tool-manifest.schema.json"
THIRD_PARTY = "ThirdPartyToolManifest"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _edit(project: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = project / SCHEMA
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")


def _example(schema: dict[str, Any]) -> dict[str, Any]:
    example: dict[str, Any] = schema["$defs"][THIRD_PARTY]["examples"][0]
    return example


def _bad_id(schema: dict[str, Any]) -> None:
    _example(schema)["id"] = "Not An Id"


def _missing_name(schema: dict[str, Any]) -> None:
    del _example(schema)["displayName"]


def _unknown_member(schema: dict[str, Any]) -> None:
    # Two unknown members: the record names one of them, at the object holding it.
    _example(schema).update(zebra=1, colour="red")


def _nested_unknown_member(schema: dict[str, Any]) -> None:
    _example(schema)["capabilities"] = {"provides": [], "aardvark": True}


def _second_example_bad(schema: dict[str, Any]) -> None:
    examples = schema["$defs"][THIRD_PARTY]["examples"]
    examples.append({**examples[0], "launchable": "yes"})


def _property_example(schema: dict[str, Any]) -> None:
    schema["properties"]["id"]["examples"] = ["fine-id", "Bad Id"]


def _property_default(schema: dict[str, Any]) -> None:
    schema["properties"]["launchable"]["default"] = "no"


# case: (change, where the record points, what its message names)
CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "example with a bad id": (_bad_id, f"/$defs/{THIRD_PARTY}/examples/0", '"/id"'),
    "example missing a required member": (
        _missing_name,
        f"/$defs/{THIRD_PARTY}/examples/0",
        'missing required property "displayName"',
    ),
    "example with an unknown member": (
        _unknown_member,
        f"/$defs/{THIRD_PARTY}/examples/0",
        'value: unknown property "zebra"',
    ),
    "example with a nested unknown member": (
        _nested_unknown_member,
        f"/$defs/{THIRD_PARTY}/examples/0",
        'at "/capabilities": unknown property "aardvark"',
    ),
    "second example wrong type": (
        _second_example_bad,
        f"/$defs/{THIRD_PARTY}/examples/1",
        "must be of type boolean, not string",
    ),
    "property example": (_property_example, "/properties/id/examples/1", '"Bad Id"'),
    "property default": (_property_default, "/properties/launchable/default", "boolean"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_sample_its_own_schema_refuses_is_refused_at_its_place(
    project: Path, run_cli: Run, case: str
) -> None:
    change, pointer, named = CASES[case]
    _edit(project, change)
    before = _snapshot(project / "generated")
    code, out, err = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1, (out, err)
    diagnostics = json.loads(out)["diagnostics"]
    assert [d["code"] for d in diagnostics] == ["SCHEMA_INVALID"], diagnostics
    (diagnostic,) = diagnostics
    assert (diagnostic["source"], diagnostic["pointer"]) == (SCHEMA, pointer)
    assert diagnostic["line"] is not None
    assert named in diagnostic["message"], diagnostic["message"]
    assert _snapshot(project / "generated") == before


def test_samples_their_schema_accepts_pass(project: Path, run_cli: Run) -> None:
    def valid_samples(schema: dict[str, Any]) -> None:
        schema["properties"]["id"]["examples"] = ["claude-code", "my-tool"]
        schema["properties"]["launchable"]["default"] = False

    _edit(project, valid_samples)
    code, out, err = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 0, (out, err)
    assert json.loads(out)["diagnostics"] == []


def test_samples_are_checked_only_once_the_patterns_are_known_safe(project: Path) -> None:
    """A nested quantifier the compilers refuse is reported as such; its example is never matched
    against it (Python's backtracking would take exponential time on this one)."""

    def slow_pattern(schema: dict[str, Any]) -> None:
        schema["properties"]["displayName"]["pattern"] = "^(a+)+$"
        schema["properties"]["displayName"]["examples"] = ["a" * 64 + "!"]

    _edit(project, slow_pattern)
    # A child process with a deadline: were the example matched, the run would not end.
    command = [sys.executable, "-m", "generator", "generate", "--project", str(project)]
    completed = subprocess.run(
        [*command, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert completed.returncode == 1, completed.stderr
    codes = {d["code"] for d in json.loads(completed.stdout)["diagnostics"]}
    assert codes == {"SCHEMA_UNSUPPORTED"}, completed.stdout


def test_check_reports_a_sample_a_change_left_behind(project: Path, run_cli: Run) -> None:
    """``breaking`` reports the change that left an example behind (its tests cover that), and
    ``check`` the stale example itself, at its place."""
    assert run_cli("generate", "--project", str(project))[0] == 0
    _edit(project, _bad_id)
    code, out, err = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 1, (out, err)
    records = [d for d in json.loads(out)["diagnostics"] if d["code"] == "SCHEMA_INVALID"]
    assert [d["pointer"] for d in records] == [f"/$defs/{THIRD_PARTY}/examples/0"], out

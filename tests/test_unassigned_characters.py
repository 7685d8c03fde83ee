"""A display name holding a character the runtime's Unicode data does not assign is refused
(``UNASSIGNED_CHARACTER``), in both runtimes, before any look-alike judgement.

The look-alike keys use the runtime's own NFD and NFKC, which leave a character they do not know
as it is. U+1E030 MODIFIER LETTER CYRILLIC SMALL A (Unicode 15.0) folds to Cyrillic a, a
confusable of Latin a, where the data knows it; Python 3.11's (Unicode 14.0) does not, so
"Cl\\U0001e030ude Code" passed the look-alike check there while node refused it. Whatever each
runtime knows, no such name is accepted: refused as unassigned where the character is unknown,
as a look-alike where it is known.
"""

from __future__ import annotations

import json
import subprocess
import unicodedata
from pathlib import Path

import pytest
from tool_registry import DiagnosticCode, load_third_party_manifests
from tool_registry.lookalikes import unassigned_character

from .conftest import REPO, build_typescript, node_executable
from .test_runtime_bounds import manifest

GENERATED_TS = REPO / "generated" / "typescript"
NEWER_LOOKALIKE = "Cl\U0001e030ude Code"  # U+1E030 folds to U+0430, confusable with "a"
# Names each runtime must refuse whatever Unicode version it knows: U+0378 has never been
# assigned, and noncharacters never will be.
ALWAYS_UNASSIGNED = {
    "Cl\u0378ude Code": "U+0378",
    "Cursor\ufdd0": "U+FDD0",
    "My \U0010ffff Tool": "U+10FFFF",
    "Ar\u0530mo": "U+0530",
}
ASSIGNED = ["Claude De\u00dfktop", "\u00e9diteur", "Emoji \U0001f600", "\u4e2d\u6587 tool"]


def python_outcome(tmp_path: Path, name: str) -> tuple[bool, list[tuple[str, str, str | None]]]:
    (tmp_path / "x.json").write_text(json.dumps(manifest(displayName=name)), "utf-8")
    (report,) = load_third_party_manifests(tmp_path).files
    return report.accepted, [(str(d.code), d.pointer, d.found) for d in report.diagnostics]


@pytest.mark.parametrize("name", sorted(ALWAYS_UNASSIGNED), ids=ascii)
def test_python_refuses_a_name_with_an_unassigned_character(tmp_path: Path, name: str) -> None:
    found = ALWAYS_UNASSIGNED[name]
    assert python_outcome(tmp_path, name) == (
        False,
        [("UNASSIGNED_CHARACTER", "/displayName", found)],
    )


@pytest.mark.parametrize("name", ASSIGNED, ids=ascii)
def test_assigned_characters_are_judged_as_before(tmp_path: Path, name: str) -> None:
    assert unassigned_character(name) is None
    assert python_outcome(tmp_path, name) == (True, [])


def test_a_newer_compatibility_character_never_passes_in_python(tmp_path: Path) -> None:
    known = unicodedata.category("\U0001e030") != "Cn"
    accepted, records = python_outcome(tmp_path, NEWER_LOOKALIKE)
    assert not accepted
    expected = "DISPLAY_NAME_COLLISION" if known else "UNASSIGNED_CHARACTER"
    assert [code for code, _, _ in records] == [expected]


def test_the_helper_names_the_first_unknown_character_and_checks_its_argument() -> None:
    assert unassigned_character("plain ascii") is None
    assert unassigned_character("a\u0378b\u0379") == "\u0378"
    with pytest.raises(TypeError, match="must be a string"):
        unassigned_character(7)  # type: ignore[arg-type]


PROBE = """
import { parseThirdPartyManifest } from "./loader.js";
const names = JSON.parse(process.argv[2]);
const base = JSON.parse(process.argv[3]);
console.log(JSON.stringify({
  known: /\\p{Cn}/u.test("\\u{1E030}") ? false : true,
  results: names.map((displayName) => {
    const result = parseThirdPartyManifest(JSON.stringify({ ...base, displayName }), "src");
    return {
      accepted: result.manifest !== null,
      records: result.diagnostics.map((d) => [d.code, d.pointer, d.found ?? null]),
    };
  }),
}));
"""


def test_typescript_refuses_what_python_refuses(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "build", GENERATED_TS)
    (out / "probe.mjs").write_text(PROBE, encoding="utf-8")
    names = [*sorted(ALWAYS_UNASSIGNED), *ASSIGNED, NEWER_LOOKALIKE]
    completed = subprocess.run(
        [
            node_executable(),
            str(out / "probe.mjs"),
            json.dumps(names),
            json.dumps(manifest(displayName="x")),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    probe = json.loads(completed.stdout)
    results = dict(zip(names, probe["results"], strict=True))
    for name, found in ALWAYS_UNASSIGNED.items():
        assert results[name] == {
            "accepted": False,
            "records": [["UNASSIGNED_CHARACTER", "/displayName", found]],
        }, name
    for name in ASSIGNED:
        assert results[name] == {"accepted": True, "records": []}, name
    newer = results[NEWER_LOOKALIKE]
    expected = "DISPLAY_NAME_COLLISION" if probe["known"] else "UNASSIGNED_CHARACTER"
    assert not newer["accepted"]
    assert [record[0] for record in newer["records"]] == [expected]


def test_the_code_is_documented_with_its_reason() -> None:
    assert DiagnosticCode.UNASSIGNED_CHARACTER.value == "UNASSIGNED_CHARACTER"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "| `UNASSIGNED_CHARACTER` | error |" in readme

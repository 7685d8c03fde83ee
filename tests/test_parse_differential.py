"""Cross-language differential test of the text-level boundary: the same hostile adapter-file
bytes (``manifest_text_corpus``: a few thousand, seeded) through the Python loader
(``load_manifest_files``, ``load_third_party_manifests`` over a folder of hostile names) and
``parse_third_party_manifest``, and through the TypeScript ``parseThirdPartyManifest``,
``loadManifestFiles`` and ``loadThirdPartyManifests``, in one node process per batch. Every field of every diagnostic, their
order, the verdict and the accepted manifest must be equal, numbers' ``found`` text included
(both spell a JSON number as TypeScript's double: ``1.0`` is ``1``).

The test must be able to fail: a TypeScript runtime with one rule broken is run over the same
corpus and has to be caught.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .manifest_text_corpus import file_names, text_corpus
from .parse_differential import (
    TsParser,
    disagreements,
    python_single,
    write_folder,
)

SEED = 20261130
CASES = 2000
BATCH = 1000
GROUP = 40  # files loaded together by load_manifest_files
FOLDER = 60  # files written to a folder for load_third_party_manifests


def _batches() -> list[tuple[list[str], list[bytes], list[list[int]]]]:
    corpus = text_corpus(CASES, SEED)
    batches = []
    for start in range(0, CASES, BATCH):
        cases = corpus[start : start + BATCH]
        names = [f"case-{start + index}.json" for index in range(len(cases))]
        groups = [list(range(i, min(i + GROUP, len(cases)))) for i in range(0, len(cases), GROUP)]
        batches.append((names, cases, groups))
    return batches


@pytest.fixture(scope="module")
def batches() -> list[tuple[list[str], list[bytes], list[list[int]]]]:
    return _batches()


@pytest.fixture(scope="module")
def typescript(tmp_path_factory: pytest.TempPathFactory) -> TsParser:
    return TsParser.build(tmp_path_factory.mktemp("parse-differential"))


def test_both_runtimes_read_every_hostile_text_alike(
    batches: list[tuple[list[str], list[bytes], list[list[int]]]],
    typescript: TsParser,
    tmp_path: Path,
) -> None:
    problems: list[str] = []
    for number, (names, cases, groups) in enumerate(batches):
        # Some of the batch also as real files under hostile names, read by both folder loaders.
        folder = write_folder(tmp_path / f"adapters-{number}", file_names(FOLDER, number), cases)
        outcome = typescript.run(names, cases, groups, (folder,))
        problems += disagreements(names, cases, groups, outcome, (folder,))
    assert problems == [], "\n".join(problems[:10])


def test_the_corpus_reaches_every_text_rule(
    batches: list[tuple[list[str], list[bytes], list[list[int]]]],
) -> None:
    """The corpus is only worth comparing over if it reaches the rules: every code a single
    file can earn from its text, accepted files among them."""
    codes: set[str] = set()
    accepted = 0
    for names, cases, _ in batches:
        for name, data in zip(names, cases, strict=True):
            outcome = python_single(name, data)
            codes |= {d["code"] for d in outcome["diagnostics"]}
            accepted += outcome["manifest"] is not None
    assert accepted > CASES // 20
    assert {
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
        "TOO_MANY_DIAGNOSTICS",
    } - codes == set()


def test_a_runtime_with_one_rule_broken_is_caught(
    batches: list[tuple[list[str], list[bytes], list[list[int]]]],
    typescript: TsParser,
    tmp_path: Path,
) -> None:
    """The comparison can fail: the compiled runtime with its parser letting a duplicate key
    pass (as ``JSON.parse`` would) disagrees with Python somewhere in the corpus."""
    broken = tmp_path / "out"
    shutil.copytree(typescript.out, broken)
    compiled = broken / "json-text.js"
    text = compiled.read_text(encoding="utf-8")
    rule = "throw new DuplicateFault(duplicate);"
    assert rule in text
    compiled.write_text(text.replace(rule, "void duplicate;"), encoding="utf-8")
    names, cases, groups = batches[0]
    problems = disagreements(
        names, cases, groups, TsParser(tmp_path, broken).run(names, cases, groups)
    )
    assert any("DUPLICATE_KEY" in problem for problem in problems)

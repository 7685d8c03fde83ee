"""The conformance suite is found through documented settings, never a machine path, and its
absence is one clear skip (not a collection error, not hundreds of skips)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conformance_location import (
    CONFORMANCE_DIR_VARIABLE,
    DRAFT_IN_SUITE,
    REGEX_FILE,
    SHARED_VARIABLE,
    SUITE_IN_SHARED,
    locate_suite,
)
from .conftest import REPO


def _fake_suite(root: Path) -> Path:
    draft = root / DRAFT_IN_SUITE
    (draft / REGEX_FILE).parent.mkdir(parents=True)
    (draft / "type.json").write_text("[]\n")
    (draft / REGEX_FILE).write_text("[]\n")
    return draft


def test_the_conformance_dir_setting_comes_first(tmp_path: Path) -> None:
    suite = _fake_suite(tmp_path / "suite")
    shared_draft = _fake_suite(tmp_path / "shared" / SUITE_IN_SHARED)
    environ = {CONFORMANCE_DIR_VARIABLE: str(tmp_path / "suite"), SHARED_VARIABLE: "unused"}
    location = locate_suite(environ, tmp_path / "repo")
    assert location.draft_dir == suite and location.present
    shared = locate_suite({SHARED_VARIABLE: str(tmp_path / "shared")}, tmp_path / "repo")
    assert shared.draft_dir == shared_draft and shared.present


def test_without_settings_the_suite_is_looked_for_beside_the_repository(tmp_path: Path) -> None:
    draft = _fake_suite(tmp_path / "shared" / SUITE_IN_SHARED)
    location = locate_suite({}, tmp_path / "repo")
    assert location.draft_dir == draft and location.present
    assert not locate_suite({}, tmp_path / "elsewhere" / "repo").present


def test_a_given_setting_is_not_second_guessed(tmp_path: Path) -> None:
    _fake_suite(tmp_path / "shared" / SUITE_IN_SHARED)  # the default place holds a suite
    (tmp_path / "empty").mkdir()
    location = locate_suite({CONFORMANCE_DIR_VARIABLE: str(tmp_path / "empty")}, tmp_path / "repo")
    assert not location.present
    reason = location.skip_reason()
    assert str(tmp_path / "empty") in reason
    assert CONFORMANCE_DIR_VARIABLE in reason and SHARED_VARIABLE in reason


def test_a_suite_without_the_regex_file_is_absent(tmp_path: Path) -> None:
    draft = _fake_suite(tmp_path / "suite")
    (draft / REGEX_FILE).unlink()
    assert not locate_suite({CONFORMANCE_DIR_VARIABLE: str(tmp_path / "suite")}, REPO).present


def test_without_the_suite_the_module_is_one_clear_skip(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in (CONFORMANCE_DIR_VARIABLE, SHARED_VARIABLE)
    }
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rs",
            "tests/test_conformance.py",
        ],
        cwd=REPO,
        env={**environ, CONFORMANCE_DIR_VARIABLE: str(empty)},
        capture_output=True,
        text=True,
        check=False,
    )
    output = completed.stdout + completed.stderr
    # Exit 5 is pytest's "no tests collected": the module skipped before defining any; a
    # collection error would be 2 and a failure 1.
    assert completed.returncode == pytest.ExitCode.NO_TESTS_COLLECTED, output
    assert "1 skipped" in output and "passed" not in output, output
    assert "error" not in output.lower(), output
    skips = [line for line in output.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 1, output
    assert "JSON-Schema-Test-Suite not found" in skips[0] and CONFORMANCE_DIR_VARIABLE in skips[0]

"""Same data, same bytes: whatever the YAML style, key order, hash seed, locale, TZ or directory."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import yaml

from generator.config import load_config
from generator.pipeline import build_outputs

from .conftest import REPO, copy_project, run_toolgen

STAMP = "generated/python/toolgen-stamp.json"


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((folder / "generated").rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _shuffled(value: Any, rng: random.Random) -> Any:
    """The same data with every mapping's keys in a random order (list order kept)."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: _shuffled(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [_shuffled(item, rng) for item in value]
    return value


def test_yaml_style_and_key_order_do_not_change_the_output(tmp_path: Path) -> None:
    reference = build_outputs(load_config(REPO)).outputs
    data = yaml.safe_load((REPO / "schema/tools.yaml").read_text())
    for seed, style in ((1, True), (2, False), (3, None)):
        project = copy_project(tmp_path / f"style-{seed}")
        shuffled = _shuffled(data, random.Random(seed))
        if style is None:
            text = json.dumps(shuffled)  # JSON is YAML too: the most compact flow style
        else:
            text = yaml.safe_dump(shuffled, default_flow_style=style, sort_keys=False, width=60)
        (project / "schema/tools.yaml").write_text(text)
        outputs = build_outputs(load_config(project)).outputs
        # Only the stamp, which fingerprints the table's bytes, may differ (and only there).
        stamp, expected = json.loads(outputs.pop(STAMP)), json.loads(reference[STAMP])
        assert {**outputs, STAMP: ""} == {**reference, STAMP: ""}, f"style {style}"
        assert {**stamp["inputs"], "table": ""} == {**expected["inputs"], "table": ""}
        assert stamp["outputs"] == expected["outputs"]


def test_row_order_is_meaningful(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "reordered")
    data = yaml.safe_load((REPO / "schema/tools.yaml").read_text())
    data["tools"].reverse()
    (project / "schema/tools.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    outputs = build_outputs(load_config(project)).outputs
    assert outputs != build_outputs(load_config(REPO)).outputs
    assert '"openclaw",\n    "hermes",' in outputs["generated/python/tool_registry/constants.py"]


def test_environment_does_not_change_the_output(tmp_path: Path) -> None:
    digests = []
    environments = [
        {"PYTHONHASHSEED": "0", "LC_ALL": "C", "TZ": "UTC"},
        {
            "PYTHONHASHSEED": "12345",
            "LC_ALL": "C.UTF-8",
            "LANG": "tr_TR.UTF-8",
            "TZ": "Pacific/Chatham",
        },
        {"PYTHONHASHSEED": "random", "TZ": "America/St_Johns"},
    ]
    for index, environment in enumerate(environments):
        project = copy_project(tmp_path / f"env-{index}")
        elsewhere = tmp_path / f"cwd-{index}"
        elsewhere.mkdir()
        result = run_toolgen("generate", "--project", str(project), cwd=elsewhere, env=environment)
        assert result.returncode == 0, result.stderr
        digests.append(_digest(project))
    assert digests[0] == digests[1] == digests[2] == _digest(REPO)


def test_outputs_are_lf_terminated_text_without_timestamps() -> None:
    outputs = build_outputs(load_config(REPO)).outputs
    for relative, text in outputs.items():
        assert "\r" not in text, relative
        assert text.endswith("\n") and not text.endswith("\n\n"), relative
        if relative == STAMP:
            continue  # the stamp holds version numbers
        if relative.endswith(".md"):
            # Prose (the README, the generated reference) may say "timestamp"; no date, though.
            assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), relative
            continue
        assert "2026" not in text and "timestamp" not in text.lower(), relative

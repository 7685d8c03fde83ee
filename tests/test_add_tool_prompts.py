"""add-tool's questions on a terminal go to stderr. ``input()`` wrote them to stdout, so
``toolgen add-tool ID --format json > report.json`` at a terminal hid the questions from the
user and left ``report.json`` as the questions followed by the object: not JSON."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from .conftest import REPO, copy_project, read_terminal


def test_questions_go_to_stderr_and_stdout_stays_json(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "add-tool",
            "acme-agent",
            "--project",
            str(project),
            "--format",
            "json",
        ],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=terminal,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    os.close(terminal)
    os.write(controller, b"Acme Agent\ny\nn\n.acme/x.json\npath\nacme\n")
    seen = read_terminal(controller)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    assert process.wait(timeout=60) == 0, seen.decode(errors="replace")
    os.close(controller)
    assert "display name:" in seen.decode(errors="replace")
    report = json.loads(out)
    assert report["id"] == "acme-agent"
    assert "schema/tools.yaml" in report["changed"]

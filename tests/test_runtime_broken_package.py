"""A generated package that is there but does not import in full (a merge conflict's markers or
a hand edit in ``loader.py``) is a missing runtime for ``validate``, ``registry``, ``catalog`` and
``detect``: exit 2 naming the error and ``toolgen generate``. The package loads its runtime
modules on first use, so the failure surfaced mid-command as ``toolgen: internal error: … please
report it`` (exit 1), as if toolgen had a bug."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

CONFLICT = "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n"


@pytest.mark.parametrize(
    ("module", "command"),
    [
        ("loader", ("validate", "{adapter}")),
        ("registry", ("registry",)),
        ("registry", ("catalog",)),
        ("detection", ("detect",)),
    ],
)
def test_a_runtime_module_that_does_not_import_is_a_usage_error(
    project: Path, tmp_path: Path, run_cli: Run, module: str, command: tuple[str, ...]
) -> None:
    (project / "generated/python/tool_registry" / f"{module}.py").write_text(CONFLICT)
    adapter = tmp_path / "a.json"
    adapter.write_text("{}")
    arguments = [part.format(adapter=adapter) for part in command]
    code, out, err = run_cli(*arguments, "--project", str(project), "--format", "json")
    assert code == 2, err
    assert "internal error" not in err
    assert "does not import: SyntaxError" in err and "toolgen generate" in err
    assert json.loads(out)["error"]["kind"] == "usage"

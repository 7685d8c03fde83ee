"""``readme`` naming a source file (or ``pyproject.toml``) is a usage error: ``generate`` rewrites
the README's marked region, so a table whose YAML comments held the two markers had the runtime
code table (Markdown) written into it and no longer parsed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.readme import BEGIN, END

Run = Callable[..., tuple[int, str, str]]


@pytest.mark.parametrize(
    ("value", "source"),
    [
        ("schema/tools.yaml", "table"),
        ("schema/./tools.yaml", "table"),
        ("schema/tool-manifest.schema.json", "schema"),
        ("pyproject.toml", "pyproject.toml"),
    ],
)
def test_a_source_named_as_the_readme_is_refused(
    project: Path, run_cli: Run, value: str, source: str
) -> None:
    table = project / "schema" / "tools.yaml"
    table.write_text(table.read_text(encoding="utf-8") + f"# {BEGIN}\n# {END}\n", encoding="utf-8")
    before = table.read_bytes()
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert "[tool.toolgen]\n" in text
    pyproject.write_text(
        text.replace("[tool.toolgen]\n", f'[tool.toolgen]\nreadme = "{value}"\n'), encoding="utf-8"
    )
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2
    assert f"is the source {source}" in err
    assert table.read_bytes() == before


def test_a_readme_through_a_link_to_the_table_is_refused(project: Path, run_cli: Run) -> None:
    (project / "README.md").unlink()
    (project / "README.md").symlink_to(Path("schema") / "tools.yaml")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 2
    assert "is the source table, symlinks followed" in err

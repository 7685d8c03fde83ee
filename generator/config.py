"""Where toolgen reads and writes: the ``[tool.toolgen]`` table of a project's ``pyproject.toml``.

Paths are relative to the folder holding ``pyproject.toml``; sources may lie outside it, outputs
may not. Output folders are owned by toolgen:
``generate`` deletes files in them that no target produces (caches such as ``__pycache__`` and the
artefacts of building the generated package aside: see ``emit``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

DEFAULTS = {
    "schema": "schema/tool-manifest.schema.json",
    "table": "schema/tools.yaml",
    "table_schema": "schema/tools-table.schema.json",
    "python_out": "generated/python",
    "typescript_out": "generated/typescript",
    "editor_schema_out": "generated/schema",
    # A file whose marked region (the runtime code table) generate rewrites; optional.
    "readme": "README.md",
}
OUTPUT_KEYS = ("python_out", "typescript_out", "editor_schema_out")


class ConfigError(Exception):
    """The configuration cannot be used (a usage error: exit code 2)."""


@dataclass(frozen=True)
class Config:
    project_dir: Path
    paths: dict[str, str]

    def path(self, key: str) -> Path:
        return self.project_dir / self.paths[key]

    def relative(self, key: str) -> str:
        return self.paths[key]


def find_project(start: Path) -> Path:
    """The nearest folder at or above ``start`` whose ``pyproject.toml`` has ``[tool.toolgen]``;
    ``start`` itself when there is none (``load_config`` then reports what is missing)."""
    for folder in (start.resolve(), *start.resolve().parents):
        if _declares_toolgen(folder / "pyproject.toml"):
            return folder
    return start


def _declares_toolgen(pyproject: Path) -> bool:
    try:
        tool = tomllib.loads(pyproject.read_text("utf-8")).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(tool, dict) and "toolgen" in tool


def load_config(project_dir: Path) -> Config:
    """Read ``[tool.toolgen]``; keys left out take their defaults."""
    pyproject = project_dir / "pyproject.toml"
    try:
        with pyproject.open("rb") as handle:
            document = tomllib.load(handle)
    except FileNotFoundError as error:
        raise ConfigError(
            f"{pyproject}: not found (use --project to point at the project)"
        ) from error
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{pyproject}: cannot read: {error}") from error
    tool = document.get("tool", {})
    section = tool.get("toolgen", {}) if isinstance(tool, dict) else None
    if not isinstance(section, dict):
        raise ConfigError(f"{pyproject}: [tool.toolgen] must be a table")
    unknown = sorted(set(section) - set(DEFAULTS))
    if unknown:
        raise ConfigError(f"{pyproject}: unknown [tool.toolgen] keys: {', '.join(unknown)}")
    paths = dict(DEFAULTS)
    for key, value in section.items():
        if not isinstance(value, str) or not value or Path(value).is_absolute():
            raise ConfigError(f"{pyproject}: tool.toolgen.{key} must be a relative path")
        # Sources may live outside (a shared schema); outputs never do, since generate deletes.
        if key in (*OUTPUT_KEYS, "readme") and ".." in Path(value).parts:
            raise ConfigError(f"{pyproject}: tool.toolgen.{key} must stay inside the project")
        paths[key] = Path(value).as_posix()
    _check_output_folders(pyproject, paths)
    return Config(project_dir, paths)


def _check_output_folders(pyproject: Path, paths: dict[str, str]) -> None:
    """Output folders may not overlap each other or hold a source: generate deletes in them."""
    outputs = [Path(paths[key]) for key in OUTPUT_KEYS]
    for index, first in enumerate(outputs):
        for second in outputs[index + 1 :]:
            if first == second or first in second.parents or second in first.parents:
                raise ConfigError(f"{pyproject}: output folders {first} and {second} overlap")
    for key in OUTPUT_KEYS:
        for source_key in ("schema", "table", "table_schema"):
            if Path(paths[key]) in Path(paths[source_key]).parents:
                raise ConfigError(f"{pyproject}: output folder {paths[key]} contains a source file")

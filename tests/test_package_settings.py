"""The generated packages' names and versions are `[tool.toolgen]` settings: the defaults are the
bytes toolgen always wrote, a configured value reaches `pyproject.toml` and `package.json`, and a
value outside its registry's rules (a hostile one included) is refused before anything is
generated, as a usage error located at its key, shown escaped."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.config import DEFAULTS, PACKAGE_KEYS, Package, load_config
from generator.literals import toml_str
from generator.pipeline import build_outputs

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]

GOOD: dict[str, list[object]] = {
    "python_package_name": ["a", "Tool_Registry.x-2", "x" * 200],
    "python_package_version": ["0", "1.2.0", "2!1.0rc3.post2.dev4", "1.0a1", "10.20.30b0"],
    "typescript_package_name": ["a", "@scope/name", "@a-b~c/d.e_f", "x" * 214],
    "typescript_package_version": ["0.0.0", "1.2.3-rc.1", "1.2.3-alpha-b.0+build.5", "1.0.0+x"],
    "typescript_package": [True, False],
}
BAD: dict[str, list[object]] = {
    "python_package_name": [
        "",
        "-x",
        "x-",
        "a b",
        "caf\u00e9",
        'x"\n[evil]\nname = "y',
        "x\u001b[31m",
        "x\u202e",
        "a/b",
        1,
    ],
    "python_package_version": ["", "v1", "1.0-rc1", "01.0", "1.0+local", "1.0.0\n", "1" * 101],
    "typescript_package_name": [
        "",
        "Tool",
        ".x",
        "_x",
        "@scope",
        "@/x",
        "a b",
        'x", "scripts": {"postinstall": "curl"}, "y": "',
        "node_modules",
        "x" * 215,
        "x\u2028",
    ],
    "typescript_package_version": ["1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0-01", "1.0.0 "],
    "typescript_package": ["yes", 1],
}


def _project(folder: Path, settings: str) -> Path:
    folder.mkdir(parents=True)
    shutil.copytree(REPO / "schema", folder / "schema")
    (folder / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.toolgen]\n{settings}")
    return folder


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else toml_str(str(value))


@pytest.mark.parametrize(
    ("key", "value"), [(key, value) for key, values in GOOD.items() for value in values]
)
def test_valid_values_are_accepted(key: str, value: object, tmp_path: Path) -> None:
    project = _project(tmp_path / "p", f"{key} = {_toml_value(value)}\n")
    assert getattr(load_config(project).package, PACKAGE_KEYS[key]) == value


@pytest.mark.parametrize(
    ("key", "value"), [(key, value) for key, values in BAD.items() for value in values]
)
def test_invalid_values_are_a_located_usage_error(
    key: str, value: object, tmp_path: Path, run_cli: Run
) -> None:
    project = _project(tmp_path / "p", f"python_out = 'out/python'\n{key} = {_toml_value(value)}\n")
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 2, (out, err)
    assert f"pyproject.toml:6:1: tool.toolgen.{key} = " in err
    assert "must be" in err
    # No control, bidi or line-separator character of the value reaches the terminal raw (one
    # line), and nothing was generated.
    assert not {"\u001b", "\u202e", "\u2028", "\x00"} & set(err)
    assert "\n" not in err.rstrip("\n")
    assert not (project / "out").exists()


@pytest.mark.parametrize(
    "spelling",
    [
        "[tool.toolgen]\ntypescript_package_name = 'Bad Name'\n",
        "[tool]\ntoolgen.typescript_package_name = 'Bad Name'\n",
        "tool.toolgen.typescript_package_name = 'Bad Name'\n",
        "[tool.toolgen]\n  'typescript_package_name'   = 'Bad Name'\n",
    ],
)
def test_the_location_follows_how_the_key_is_written(
    spelling: str, tmp_path: Path, run_cli: Run
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    # A same-named key of another table comes first: only [tool.toolgen]'s is located.
    (project / "pyproject.toml").write_text(
        f"# c\n{spelling}[tool.other]\ntypescript_package_name = 1\n"
        if spelling.startswith("tool.")
        else f"[tool.other]\ntypescript_package_name = 1\n{spelling}"
    )
    line = 1 + spelling.count("\n") if spelling.startswith("tool.") else 2 + spelling.count("\n")
    column = len(spelling.splitlines()[-1]) - len(spelling.splitlines()[-1].lstrip()) + 1
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 2
    assert f"pyproject.toml:{line}:{column}: tool.toolgen.typescript_package_name = " in err


def test_the_readme_example_message_is_what_toolgen_prints(tmp_path: Path, run_cli: Run) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = readme.split("(`PROJECT` is the project folder's path):\n`", 1)[1].split("(", 1)[0]
    assert example.startswith("toolgen: PROJECT/pyproject.toml:12:1: tool.toolgen.")
    project = tmp_path / "p"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        "\n" * 10 + '[tool.toolgen]\ntypescript_package_name = "Tool Registry"\n'
    )
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 2
    expected = " ".join(example.replace("PROJECT", str(project)).split())
    assert " ".join(err.split()).startswith(expected)


def test_the_readme_configuration_block_lists_every_key_with_its_default() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Configuration", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    documented = tomllib.loads(block)["tool"]["toolgen"]
    defaults = Package()
    assert documented == {
        **DEFAULTS,
        **{key: getattr(defaults, field) for key, field in PACKAGE_KEYS.items()},
    }


def test_defaults_keep_the_bytes_and_settings_reach_both_packages(tmp_path: Path) -> None:
    plain = _project(tmp_path / "plain", "")
    outputs = build_outputs(load_config(plain)).outputs
    minimal = REPO / "tests/golden/minimal/generated/python/pyproject.toml"
    assert outputs["generated/python/pyproject.toml"] == minimal.read_text()
    assert "generated/typescript/package.json" not in outputs

    configured = _project(
        tmp_path / "configured",
        "python_package_name = 'acme.registry'\npython_package_version = '3.0.0.dev1'\n"
        "typescript_package = true\ntypescript_package_name = '@acme/registry'\n"
        "typescript_package_version = '3.0.0-dev.1'\n",
    )
    outputs = build_outputs(load_config(configured)).outputs
    project = tomllib.loads(outputs["generated/python/pyproject.toml"])["project"]
    assert (project["name"], project["version"]) == ("acme.registry", "3.0.0.dev1")
    package = json.loads(outputs["generated/typescript/package.json"])
    assert (package["name"], package["version"]) == ("@acme/registry", "3.0.0-dev.1")
    assert package["exports"]["."] == {"types": "./dist/index.d.ts", "default": "./dist/index.js"}
    assert package["types"] == "./dist/index.d.ts" and package["type"] == "module"
    tsconfig = outputs["generated/typescript/tsconfig.json"]
    assert '"outDir": "dist"' in tsconfig and '"declaration": true' in tsconfig


def test_the_settings_are_stamped_inputs(tmp_path: Path, run_cli: Run) -> None:
    """Changing a package setting makes the fast check regenerate and report the drift."""
    project = _project(tmp_path / "p", "")
    assert run_cli("generate", "--project", str(project))[0] == 0
    assert run_cli("check", "--project", str(project))[0] == 0
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "python_package_version = '0.2.0'\n")
    code, out, err = run_cli("check", "--project", str(project))
    assert code == 1 and "inputs changed: config" in err + out
    assert "generated/python/pyproject.toml" in err + out


def test_toml_strings_escape_everything_that_could_end_them() -> None:
    hostile = 'a"\n[b]\\c\u0000\u202e\U0001f600'
    assert tomllib.loads(f"x = {toml_str(hostile)}")["x"] == hostile
    assert toml_str(hostile).isascii() and "\n" not in toml_str(hostile)

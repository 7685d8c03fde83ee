"""``toolgen check``'s fast path: the stamp vouches for the output only while every input, the
environment, the set of output files and each file's bytes match; anything else regenerates."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import config as config_module
from generator import diagnostics, stamp
from generator.config import load_config
from generator.pipeline import build_outputs, output_roots

from .conftest import REPO

Run = Callable[..., tuple[int, str, str]]
HEAVY = ("jinja2", "datamodel_code_generator", "jsonschema", "ruff", "yaml", "pydantic")
STAMP = "generated/python/toolgen-stamp.json"


def _verdict(project: Path) -> stamp.Verdict:
    return stamp.fast_check(load_config(project))


def test_a_clean_copy_is_up_to_date_without_regenerating(project: Path, run_cli: Run) -> None:
    assert _verdict(project) == stamp.Verdict(
        "", files=len(build_outputs(load_config(REPO)).outputs)
    )
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0
    assert "fingerprints match the stamp" in err


def test_the_fast_path_imports_none_of_the_heavy_machinery(project: Path) -> None:
    script = (
        "import sys\n"
        "from generator.cli import main\n"
        f"code = main(['check', '--project', {str(project)!r}])\n"
        f"print(code, sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, cwd=REPO
    )
    assert completed.stdout.split("\n")[0] == "0 []", completed.stderr
    assert "fingerprints match the stamp" in completed.stderr


@pytest.mark.parametrize("output_format", ["json", "github"])
def test_the_fast_path_reports_in_every_format(
    project: Path, run_cli: Run, output_format: str
) -> None:
    code, out, _ = run_cli("check", "--project", str(project), "--format", output_format)
    assert code == 0
    if output_format == "json":
        document = json.loads(out)
        assert document["diagnostics"] == [] and document["diffs"] == {}
    else:
        assert out == ""


def test_check_full_always_regenerates(project: Path, run_cli: Run) -> None:
    code, _, err = run_cli("check", "--full", "--project", str(project))
    assert code == 0
    assert "fingerprints" not in err and err.strip().endswith("files up to date")


def test_a_hand_edited_output_is_caught(project: Path, run_cli: Run) -> None:
    constants = project / "generated/python/tool_registry/constants.py"
    constants.write_text(constants.read_text() + "# edited\n")
    assert _verdict(project).reason == "changed: generated/python/tool_registry/constants.py"
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "generated/python/tool_registry/constants.py: DRIFT_CHANGED" in err


def test_an_added_orphan_is_caught(project: Path, run_cli: Run) -> None:
    (project / "generated/schema/extra.json").write_text("{}\n")
    assert _verdict(project).reason == "not generated: generated/schema/extra.json"
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "generated/schema/extra.json: DRIFT_ORPHANED" in err


def test_a_deleted_output_is_caught(project: Path, run_cli: Run) -> None:
    (project / "generated/typescript/index.ts").unlink()
    assert _verdict(project).reason == "missing: generated/typescript/index.ts"
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1 and "generated/typescript/index.ts: DRIFT_MISSING" in err


def test_caches_in_output_folders_do_not_miss(project: Path) -> None:
    cache = project / "generated/python/tool_registry/__pycache__"
    cache.mkdir()
    (cache / "constants.cpython-311.pyc").write_bytes(b"\0")
    assert _verdict(project).up_to_date


@pytest.mark.parametrize(
    ("relative", "key"),
    [
        ("schema/tools.yaml", "table"),
        ("schema/tool-manifest.schema.json", "schema"),
        ("schema/tools-table.schema.json", "table_schema"),
    ],
)
def test_a_changed_source_that_changes_no_output_leaves_only_a_stale_stamp(
    project: Path, run_cli: Run, relative: str, key: str
) -> None:
    # Trailing white space changes the bytes but not what they mean, so no generated file
    # differs: the fast path misses (the recorded inputs are stale), the full comparison finds
    # every output current, so check passes and says generate refreshes the stamp.
    source = project / relative
    source.write_text(source.read_text() + ("\n# a comment\n" if key == "table" else "\n"))
    assert _verdict(project).reason == f"inputs changed: {key}"
    for flags in ((), ("--full",)):
        code, out, err = run_cli("check", "--project", str(project), *flags)
        assert code == 0, (out, err)
        assert out == "" and "DRIFT" not in err
        assert f"{STAMP} is stale (inputs changed: {key})" in err
        assert "`toolgen generate` refreshes it" in err
    code, out, err = run_cli("check", "--project", str(project), "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []
    # JSON says it too: which recorded inputs differ, so a CI bot can tell why the fast path missed.
    assert json.loads(out)["staleStamp"] == {"path": STAMP, "inputsChanged": [key]}
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0 and "1 changed" in err
    assert _verdict(project).up_to_date
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0 and "fingerprints match the stamp" in err
    code, out, _ = run_cli("check", "--full", "--project", str(project), "--format", "json")
    assert code == 0 and "staleStamp" not in json.loads(out)


def test_a_changed_source_that_changes_an_output_is_drift(project: Path, run_cli: Run) -> None:
    table = project / "schema/tools.yaml"
    table.write_text(table.read_text().replace("displayName: Claude Code", "displayName: Claude"))
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    drift = [line.split(":")[0] for line in err.splitlines() if "DRIFT_CHANGED" in line]
    assert STAMP in drift and len(drift) > 1
    assert "is stale" not in err


def test_a_changed_configuration_is_caught(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text()
    assert 'editor_schema_out = "generated/schema"' in text
    pyproject.write_text(text.replace("generated/schema", "generated/editor"))
    assert _verdict(project).reason == "inputs changed: config"


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ("[tool.datamodel-codegen]\nbuiltin-format-line-length = 20\n", "project"),
        ("[tool.black]\nline-length = 20\n", "project"),
        ("[tool.isort]\nline_length = 20\nprofile = 'google'\n", "project"),
        ("[tool.ruff]\nline-length = 20\n", "cwd"),
        ("[tool.datamodel-codegen]\nbuiltin-format-line-length = 20\n", "installed"),
        ("[tool.datamodel-codegen]\nbuiltin-format-line-length = 20\n", "cwd"),
        ("garbage = [\n", "cwd"),
    ],
    ids=["datamodel-codegen", "black", "isort", "ruff cwd", "cwd", "broken cwd", "installed"],
)
def test_no_pyproject_toml_but_the_configuration_shapes_the_output(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: str, where: str
) -> None:
    # datamodel-code-generator's formatter reads the pyproject.toml nearest the current folder:
    # neither another tool's settings in the project's nor a file where toolgen runs may change
    # models.py (the stamp records neither, so the fast path vouched for stale output).
    pyproject = project / "pyproject.toml"
    # Without ruff's line length, which the formatter takes before black's.
    text = pyproject.read_text().replace("[tool.ruff]\nline-length = 100\n", "[tool.ruff]\n")
    assert "line-length = 100" not in text
    if where == "project":
        pyproject.write_text(f"{text}\n{settings}")
        monkeypatch.chdir(project)
    elif where == "installed":
        # README: nor one above the folder toolgen is installed in (here: a copy of the package
        # imported from a folder whose parent holds the settings).
        pyproject.write_text(text)
        installed = tmp_path / "site" / "packages"
        shutil.copytree(
            REPO / "generator",
            installed / "generator",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        (tmp_path / "site" / "pyproject.toml").write_text(settings)
        (installed / "pyproject.toml").write_text(settings)
        monkeypatch.chdir(tmp_path)
        generated = subprocess.run(
            [sys.executable, "-m", "generator", "generate", "--project", str(project)],
            env={**os.environ, "PYTHONPATH": str(installed)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert generated.returncode == 0, generated.stderr
        written = "generated/python/tool_registry/models.py"
        assert (project / written).read_text() == (REPO / written).read_text()
        return
    else:
        pyproject.write_text(text)
        (tmp_path / "pyproject.toml").write_text(settings)
        monkeypatch.chdir(tmp_path)
    result = build_outputs(load_config(project))
    models = "generated/python/tool_registry/models.py"
    assert result.ok, result.diagnostics
    assert result.outputs[models] == (REPO / models).read_text()


def test_a_changed_template_or_module_is_caught(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "generator"
    shutil.copytree(stamp.GENERATOR_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(stamp, "GENERATOR_DIR", copy)
    assert _verdict(project).up_to_date  # the same files elsewhere: the same fingerprint
    index = copy / "templates/typescript/index.ts.jinja"
    index.write_text(index.read_text() + "\n")
    assert _verdict(project).reason == "inputs changed: generator"
    index.write_text(index.read_text()[:-1])
    (copy / "targets.py").write_text((copy / "targets.py").read_text() + "# a new row\n")
    assert _verdict(project).reason == "inputs changed: generator"


def test_every_module_and_template_is_fingerprinted() -> None:
    names = {path.relative_to(stamp.GENERATOR_DIR).as_posix() for path in stamp.generator_files()}
    assert {"cli.py", "pipeline.py", "targets.py", "load.py", "python_models.py"} <= names
    templates = {
        p.relative_to(stamp.GENERATOR_DIR).as_posix() for p in stamp.GENERATOR_DIR.rglob("*.jinja")
    }
    assert templates and templates <= names


def test_another_environment_misses_but_is_not_drift(
    project: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    versions = stamp.installed_versions()
    monkeypatch.setattr(stamp, "installed_versions", lambda: {**versions, "ruff": "0.0.1"})
    assert _verdict(project).reason == "environment changed: packages"
    # The full comparison still holds every output to its bytes; the stamp differing only in
    # the environment it was made in is not drift (CI may run another Python).
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert "regenerating to compare (environment changed: packages)" in err
    monkeypatch.setattr(sys, "version_info", (3, 99, 0))
    assert _verdict(project).reason == "environment changed: packages, python"


def test_a_stamp_differing_beyond_its_environment_is_drift(project: Path, run_cli: Run) -> None:
    path = project / STAMP
    document = json.loads(path.read_text())
    document["environment"]["python"] = "3.99"
    document["outputs"]["generated/typescript/extra.ts"] = "sha256:0"
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    assert _verdict(project).reason == "environment changed: python"
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1 and f"{STAMP}: DRIFT_CHANGED" in err


def _reformatted(text: str) -> str:
    return json.dumps(json.loads(text), indent=4, sort_keys=True) + "\n"


def _annotated(text: str) -> str:
    return json.dumps({**json.loads(text), "note": "hand-made"}, indent=2, sort_keys=True) + "\n"


@pytest.mark.parametrize(
    "edit",
    [
        _reformatted,
        _annotated,
        lambda text: text.replace("never edit", "edit freely"),
        lambda text: text.replace("\n", "\r\n"),
    ],
    ids=["reindented", "extra key", "about", "crlf"],
)
def test_a_stamp_with_current_fingerprints_in_other_bytes_is_drift(
    project: Path, run_cli: Run, edit: Callable[[str], str]
) -> None:
    # Every fingerprint still matches, but generate would rewrite the stamp: check --full
    # calls that drift, so the fast path must not vouch for it.
    path = project / STAMP
    path.write_bytes(edit(path.read_text()).encode())
    assert _verdict(project).reason == f"changed: {STAMP}"
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1 and f"{STAMP}: DRIFT_CHANGED" in err


# A stamp nested deeper than ``json`` recurses was an internal error (``RecursionError``) in
# both the fast path and ``check --full``, instead of drift.
@pytest.mark.parametrize("text", ["", "not json", "[]", '{"version": 0}', "[" * 100_000])
def test_an_unusable_stamp_regenerates(project: Path, run_cli: Run, text: str) -> None:
    (project / STAMP).write_text(text)
    assert not _verdict(project).up_to_date
    for full in ((), ("--full",)):
        code, _, err = run_cli("check", "--project", str(project), *full)
        assert code == 1 and f"{STAMP}: DRIFT_CHANGED" in err, err


def test_a_stale_readme_region_is_caught(project: Path) -> None:
    readme = project / "README.md"
    readme.write_text(
        readme.read_text().replace("| `NOT_A_FILE` | error |", "| `NOT_A_FILE` | warning |")
    )
    assert _verdict(project).reason == "stale: README.md"


def test_readme_prose_is_not_an_input(project: Path) -> None:
    readme = project / "README.md"
    readme.write_text(readme.read_text() + "\nMore prose.\n")
    assert _verdict(project).up_to_date


def test_the_stamp_is_committed_and_current() -> None:
    config = load_config(REPO)
    assert (REPO / STAMP).read_text() == build_outputs(config).outputs[STAMP]
    assert _verdict(REPO).up_to_date


def test_the_stamp_holds_no_machine_paths() -> None:
    text = (REPO / STAMP).read_text()
    assert str(REPO) not in text and str(Path.home()) not in text


def test_the_packages_cover_every_pinned_dependency() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    pinned = {entry.split("==")[0].lower() for entry in pyproject["project"]["dependencies"]}
    assert all("==" in entry for entry in pyproject["project"]["dependencies"])
    # README, "Determinism and safety": everything that shapes the output is pinned exactly in
    # pyproject.toml, and the stamp records each one's version.
    assert pinned == set(stamp.PACKAGES)
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    sentence = readme.split("Everything that shapes the output is pinned exactly in", 1)[1]
    sentence = sentence.split("; the stamp records", 1)[0].split("): ", 1)[1]
    listed = re.sub(r" \([^)]*\)", "", sentence).replace(" and ", ", ").split(", ")
    assert {name.lower() for name in listed} == pinned


def test_installed_versions_agree_with_importlib_metadata() -> None:
    import importlib.metadata

    assert stamp.installed_versions() == {
        name: importlib.metadata.version(name) for name in stamp.PACKAGES
    }


def test_the_output_folders_are_the_targets_roots() -> None:
    config = load_config(REPO)
    assert stamp.output_folders(config) == output_roots(config)


def test_the_configuration_shows_paths_as_diagnostics_do() -> None:
    assert config_module.MAX_SHOWN_PATH == diagnostics.MAX_SHOWN_PATH


def test_the_models_formatter_finds_no_settings_wherever_toolgen_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """datamodel-code-generator's formatter takes the nearest pyproject.toml at or above the
    folder it is given: in this repository the generator's own folder has the project's
    pyproject.toml above it, and an installed toolgen whatever lies above site-packages. The
    folder it is given holds an empty one, so whatever it finds has no ``[tool]`` table."""
    import tomllib

    import datamodel_code_generator.format as formatting

    from generator.python_models import generate_models

    real = formatting._find_pyproject_toml
    found: list[dict[str, object] | None] = []  # the [tool] table of each file it found

    def spy(settings_path: Path) -> Path | None:
        nearest: Path | None = real(settings_path)
        text = None if nearest is None else nearest.read_text(encoding="utf-8")
        found.append(None if text is None else tomllib.loads(text).get("tool", {}))
        return nearest

    monkeypatch.setattr(formatting, "_find_pyproject_toml", spy)
    schema = {"title": "Root", "type": "object", "properties": {"name": {"type": "string"}}}
    generate_models(schema)
    assert found, "the formatter looked for no settings: this test no longer watches it"
    assert all(tools == {} for tools in found), found

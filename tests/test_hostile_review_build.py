"""Second hostile review, build side: hostile-but-valid tables, arguments and environments given
to ``generate``, ``check``, ``add-tool`` and ``breaking``, and the generated code as a consumer
compiles it."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.naming import GENERATED_CONSTANTS, RUNTIME_NAMES

from .conftest import REPO, copy_project
from .test_validation import HEADER, codes, diagnose, row, table

CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


@pytest.mark.parametrize("name", ["PROMPT_ARG_ERROR_CODES", "TYPE_CHECKING"])
def test_a_constant_name_the_runtime_already_uses_is_refused(name: str) -> None:
    # PROMPT_ARG_ERROR_CODES is exported by prompt-args.ts: index.ts's two `export *` then clash
    # (tsc TS2308). TYPE_CHECKING is typing's flag in the package's __init__.py: a cohort of that
    # name replaced it with a non-empty tuple (mypy --strict fails; the lazy imports ran eagerly).
    header = HEADER.replace("name: LAUNCH_COHORT", f"name: {name}")
    assert codes(diagnose(table(row(), header=header))) == [
        ("DUPLICATE_CONSTANT", "/cohorts/0/name")
    ]
    header = HEADER.replace("name: TOOL_DISPLAY_NAMES", f"name: {name}")
    assert codes(diagnose(table(row(), header=header))) == [("DUPLICATE_CONSTANT", "/maps/0/name")]


def _table_constants() -> set[str]:
    sys.path.insert(0, str(REPO / "generated" / "python"))
    try:
        import tool_registry
    finally:
        sys.path.pop(0)
    names = set(vars(tool_registry))
    return {name for name in names if CONSTANT_NAME.fullmatch(name)}


def test_every_upper_snake_name_of_the_generated_surfaces_is_reserved() -> None:
    """A constant name of the table shares a namespace with the package's __init__.py and with
    index.ts's `export *` modules: every UPPER_SNAKE name there that the table did not declare is
    one toolgen must refuse."""
    text = (REPO / "schema" / "tools.yaml").read_text(encoding="utf-8")
    declared = set(re.findall(r"(?m)^  - name: ([A-Z0-9_]+)$", text))
    settings_and_capabilities = {
        name
        for name in _table_constants()
        if name.startswith("CAP_")
        or name in {"DEFAULT_ADAPTERS_DIR", "ADAPTERS_DIR_ENV_VAR"}
        or name in {"HOOK_PACKAGE_PREFIX", "MANIFEST_MAX_BYTES", "BUILTIN_LIBRARY"}
    }
    python = _table_constants() - declared - settings_and_capabilities
    index = (REPO / "generated" / "typescript" / "index.ts").read_text(encoding="utf-8")
    typescript: set[str] = set()
    for module in re.findall(r'(?m)^export \* from "\./([a-z-]+)\.js";$', index):
        source = (REPO / "generated" / "typescript" / f"{module}.ts").read_text(encoding="utf-8")
        typescript |= set(
            re.findall(r"(?m)^export (?:const|let|var|function|class|enum) ([A-Za-z0-9_]+)", source)
        )
    for block in re.findall(r"(?s)^export \{(.*?)\} from", index, flags=re.M):
        typescript |= set(re.findall(r"\b([A-Za-z0-9_]+)\b", block))
    typescript = {name for name in typescript if CONSTANT_NAME.fullmatch(name)}
    typescript -= declared | settings_and_capabilities
    missing = (python | typescript) - GENERATED_CONSTANTS - RUNTIME_NAMES
    assert not missing


def test_an_integral_float_setting_is_shown_as_the_integer_the_code_holds(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # JSON Schema takes 65536.0 as an integer; the constants rendered 65536 but the reference
    # printed `65536.0`. The outputs are now those of `65536`.
    table_path = project / "schema" / "tools.yaml"
    text = table_path.read_text(encoding="utf-8")
    assert "manifestMaxBytes: 65536\n" in text
    table_path.write_text(text.replace("manifestMaxBytes: 65536\n", "manifestMaxBytes: 65536.0\n"))
    before = {
        path: path.read_bytes()
        for path in (project / "generated").rglob("*")
        if path.is_file() and path.name != "toolgen-stamp.json"
    }
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    after = {path: path.read_bytes() for path in before}
    assert after == before


def test_a_stale_stamp_is_not_called_current_beside_drift(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # A comment in tools.yaml (stale stamp, same outputs) plus a hand-edited output: check said
    # "… is stale (inputs changed: table) but every generated file is current" and then reported
    # the hand edit as drift.
    table_path = project / "schema" / "tools.yaml"
    table_path.write_text(table_path.read_text(encoding="utf-8") + "# a comment\n")
    edited = project / "generated" / "typescript" / "tools.ts"
    edited.write_text(edited.read_text(encoding="utf-8") + "// hand edit\n")
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 1
    assert "DRIFT_CHANGED" in err
    assert "every generated file is current" not in err
    edited.write_text(edited.read_text(encoding="utf-8").removesuffix("// hand edit\n"))
    code, _, err = run_cli("check", "--project", str(project))
    assert code == 0, err
    assert "is stale (inputs changed:" in err
    assert "every generated file is current" in err


@pytest.mark.parametrize(
    ("folder", "marker"),
    [
        (".git", ".git/HEAD"),  # generate deleted every file of the repository as orphans
        (".git/info", ".git/info/exclude"),
        ("vendor/lib", "vendor/lib/.git/HEAD"),  # a nested checkout
        ("vendor/wt", "vendor/wt/.git"),  # a worktree or submodule: .git is a file
        ("vendor/hg", "vendor/hg/.hg/store"),
    ],
)
def test_an_output_folder_never_holds_version_control_data(
    project: Path, run_cli: Callable[..., tuple[int, str, str]], folder: str, marker: str
) -> None:
    (project / marker).parent.mkdir(parents=True, exist_ok=True)
    (project / marker).write_text("precious\n")
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert 'docs_out = "generated/docs"\n' in text
    pyproject.write_text(text.replace('docs_out = "generated/docs"', f'docs_out = "{folder}"'))
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 2, err
    assert "version control" in err
    assert "Traceback" not in err
    assert (project / marker).read_text() == "precious\n"


def test_an_invalid_baseline_is_located_at_its_first_invalid_file(
    project: Path, tmp_path: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # BASELINE_UNREADABLE had no source: text showed `<input>: BASELINE_UNREADABLE …`, JSON "".
    baseline = copy_project(tmp_path / "baseline")
    (baseline / "schema" / "tools.yaml").write_text("a: &a [1]\nb: *a\n")
    code, out, _ = run_cli(
        "breaking", "--project", str(project), "--against", str(baseline), "--format", "json"
    )
    assert code == 1
    found = json.loads(out)["diagnostics"]
    unreadable = [d for d in found if d["code"] == "BASELINE_UNREADABLE"]
    assert [d["source"] for d in unreadable] == [f"{baseline}:schema/tools.yaml"]
    code, _, err = run_cli("breaking", "--project", str(project), "--against", str(baseline))
    assert code == 1
    assert "<input>" not in err
    assert f"{baseline}:schema/tools.yaml: BASELINE_UNREADABLE error" in err


@pytest.mark.parametrize(
    "broken",
    [
        b"syntax error (\n",
        b"\xff\xfe not utf-8\n",
        b"class Other:\n    A = 'A'\n",
        # Too deep for CPython's parser, which raises MemoryError (an internal error before).
        b"x = " + b"-" * 20_000 + b"1\n",
    ],
)
def test_a_baseline_runtime_code_file_that_cannot_be_read_is_not_skipped(
    project: Path,
    tmp_path: Path,
    run_cli: Callable[..., tuple[int, str, str]],
    broken: bytes,
) -> None:
    # A baseline diagnostics.py that did not parse was taken as "no generated package": a code
    # removed since was then never reported (exit 0).
    baseline = copy_project(tmp_path / "baseline")
    codes = baseline / "generated" / "python" / "tool_registry" / "diagnostics.py"
    text = codes.read_text(encoding="utf-8")
    marker = "class DiagnosticCode(enum.StrEnum):\n"
    assert marker in text
    codes.write_text(text.replace(marker, marker + '    OLD_GONE = "OLD_GONE"\n'))
    arguments = ("breaking", "--project", str(project), "--against", str(baseline))
    code, _, err = run_cli(*arguments)
    assert code == 1
    assert "BREAKING_RUNTIME_CODE_REMOVED" in err
    codes.write_bytes(codes.read_bytes() + broken if b"class Other" not in broken else broken)
    code, _, err = run_cli(*arguments)
    assert code == 1, err
    assert "BASELINE_UNREADABLE" in err
    assert f"{baseline}:generated/python/tool_registry/diagnostics.py:" in err
    assert "the baseline was not read in full, so not all of it was compared" in err


def test_a_deeply_nested_folder_in_an_output_folder_is_an_orphan_not_an_internal_error(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # Folders nested 1,400 deep under generated/python (a path well within PATH_MAX) made the
    # output walk (os.walk recurses, one frame per level) fail with "internal error:
    # RecursionError" in check and generate alike. The walk keeps its own stack now: the file
    # at the bottom is an orphan, and generate removes it and the folders it leaves empty.
    top = project / "generated" / "python" / "d"
    folders = [top]
    for _ in range(1399):
        folders.append(folders[-1] / "d")
    try:
        for folder in folders:  # one level at a time (``mkdir(parents=True)`` recurses too)
            folder.mkdir()
        (folders[-1] / "x").write_text("x\n")
        code, _, err = run_cli("check", "--project", str(project), "--full")
        assert code == 1, err
        assert "internal error" not in err
        assert "DRIFT_ORPHANED" in err
        code, _, err = run_cli("generate", "--project", str(project))
        assert code == 0, err
        assert not top.exists()
        code, _, err = run_cli("check", "--project", str(project))
        assert code == 0, err
    finally:  # deepest first: shutil.rmtree (pytest's clean-up of old runs) recurses as well
        (folders[-1] / "x").unlink(missing_ok=True)
        for folder in reversed(folders):
            if folder.is_dir():
                folder.rmdir()

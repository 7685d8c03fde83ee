"""What a downstream consumer of the installed packages runs into: the public exceptions survive
pickle and copy (a process pool hands them back to its caller), and package settings that each
pass their registry's rules but together make a file name no file system holds are refused up
front, located, instead of failing `pip wheel` / `npm pack` with ENAMETOOLONG."""

from __future__ import annotations

import copy
import pickle
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import REPO

MAX_FILE_NAME = 255  # a file name, in bytes, on the common file systems

sys.path.insert(0, str(REPO / "generated/python"))

import tool_registry as registry  # noqa: E402

Run = Callable[..., tuple[int, str, str]]


def _raised(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except Exception as error:
        return error
    raise AssertionError("nothing was raised")


def _public_errors() -> list[BaseException]:
    tools = registry.get_tool_registry(str(REPO / "no-such-adapters-folder"))
    return [
        _raised(lambda: registry.ensure_launchable(tools, "no-such-tool\x1b[31m")),
        _raised(lambda: registry.apply_prompt_arg_template(["\x00"], "x")),
        _raised(lambda: registry.apply_prompt_arg_template(["{prompt}"], "-rf")),
        _raised(lambda: tools.cohort("NO_COHORT")),  # type: ignore[arg-type]
        _raised(lambda: tools.providers_of("telepathy")),  # type: ignore[arg-type]
        _raised(lambda: registry.hook_package_for("no-such-tool")),  # type: ignore[arg-type]
        registry.NotARegularFileError("adapters/x.json", "a FIFO"),
    ]


@pytest.mark.parametrize(
    "clone",
    [
        lambda error: pickle.loads(pickle.dumps(error)),  # noqa: S301
        lambda error: pickle.loads(pickle.dumps(error, protocol=0)),  # noqa: S301
        copy.copy,
        copy.deepcopy,
    ],
    ids=["pickle", "pickle-0", "copy", "deepcopy"],
)
def test_public_exceptions_survive_pickle_and_copy(
    clone: Callable[[BaseException], BaseException],
) -> None:
    for error in _public_errors():
        again = clone(error)
        assert type(again) is type(error)
        assert again.args == error.args
        assert vars(again) == vars(error)
        assert str(again) == str(error)


def _project(folder: Path, settings: str) -> Path:
    folder.mkdir(parents=True)
    shutil.copytree(REPO / "schema", folder / "schema")
    (folder / "pyproject.toml").write_text(
        f"[tool.toolgen]\npython_out = 'out/python'\n{settings}", encoding="utf-8"
    )
    return folder


@pytest.mark.parametrize(
    ("settings", "key", "file_name"),  # a version alone (at most 100) always fits
    [
        # 232 + 5 + len("--py3-none-any.whl") is 255: the longest wheel name; one more is refused.
        (f"python_package_name = '{'p' * 233}'\n", "python_package_name", 256),
        (
            f"python_package_name = '{'p' * 200}'\npython_package_version = '1.{'1' * 40}'\n",
            "python_package_name",
            260,
        ),
        (
            f"typescript_package = true\ntypescript_package_name = '{'x' * 214}'\n"
            f"typescript_package_version = '1.0.0-{'a' * 94}'\n",
            "typescript_package_name",
            319,
        ),
        (
            f"typescript_package = true\ntypescript_package_name = '@s/{'x' * 210}'\n"
            f"typescript_package_version = '1.0.0+{'b' * 40}'\n",
            "typescript_package_name",
            263,
        ),
    ],
)
def test_a_name_and_version_too_long_for_a_file_name_are_a_located_usage_error(
    settings: str, key: str, file_name: int, tmp_path: Path, run_cli: Run
) -> None:
    project = _project(tmp_path / "p", settings)
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 2, (out, err)
    line = settings.splitlines().index(next(s for s in settings.splitlines() if s.startswith(key)))
    assert f"pyproject.toml:{line + 3}:1: tool.toolgen.{key} = " in err
    assert f"{file_name} characters; at most {MAX_FILE_NAME}" in err
    assert not (project / "out").exists()


def test_the_longest_accepted_names_still_fit(tmp_path: Path, run_cli: Run) -> None:
    project = _project(
        tmp_path / "p",
        f"python_package_name = '{'p' * 232}'\n"
        f"typescript_package = true\ntypescript_package_name = '{'x' * 214}'\n"
        f"typescript_package_version = '1.0.0-{'a' * 30}'\n",
    )
    code, out, err = run_cli("generate", "--project", str(project))
    assert code == 0, (out, err)

"""What a downstream consumer of the installed packages runs into: the public exceptions survive
pickle and copy (a process pool hands them back to its caller)."""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Callable

import pytest

from .conftest import REPO

sys.path.insert(0, str(REPO / "generated/python"))

import tool_registry as registry


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

"""A hostile review of grants, categories, hook packages, the launch guard and prompt arguments,
in both languages: each finding is held to the other language's verdict on the same input, or to
the README's promise."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from tool_registry import (
    UnknownCapabilityError,
    UnknownCohortError,
    UnknownToolError,
    get_tool_registry,
    hook_package_for,
)

from .conftest import REPO, build_typescript
from .test_ts_hostile_review import run_js

GENERATED_TS = REPO / "generated" / "typescript"
NO_FOLDER = str(REPO / "tests" / "no-such-adapters-folder")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-review-grants"), GENERATED_TS)


# -- unknown names: the caller's text is clipped alike in both languages -----------------------

# Texts with no quote, backslash or hidden character: Python's repr and TypeScript's JSON text
# differ only in the quote.
PLAIN_TEXTS = ["", "plain", "x" * 79, "x" * 80, "x" * 81, "y" * 5000, "\u00e9t\u00e9 " * 40]

UNKNOWN_NAMES = """
import { getToolRegistry, hookPackageFor } from "./index.js";
const registry = getToolRegistry(%s);
const texts = %s;
const message = (attempt) => { try { attempt(); return null; } catch (error) { return error.message; } };
process.stdout.write(JSON.stringify(texts.map((text) => [
  message(() => registry.cohort(text)),
  message(() => registry.providersOf(text)),
  message(() => hookPackageFor(text)),
])));
"""


def _python_messages(text: str) -> list[str]:
    registry = get_tool_registry(NO_FOLDER)
    messages = []
    for attempt, error in (
        (registry.cohort, UnknownCohortError),
        (registry.providers_of, UnknownCapabilityError),
        (hook_package_for, UnknownToolError),
    ):
        with pytest.raises(error) as raised:
            attempt(text)  # type: ignore[arg-type]
        messages.append(str(raised.value))
    return messages


def test_an_unknown_name_is_shown_clipped_alike_in_both_languages(out: Path) -> None:
    """Python's ``hook_package_for`` showed the whole ``ascii()`` of the caller's id (a 5,000
    character id made a 5,000 character message) where TypeScript clipped it to 80; TypeScript's
    ``UnknownCapabilityError`` ended ``one of ...`` where Python's (and its own cohort error) say
    ``the capabilities are ...``, and quoted the text after clipping it (a closing quote after
    ``...`` that the cohort and tool id messages do not have)."""
    found = run_js(out, UNKNOWN_NAMES % (json.dumps(NO_FOLDER), json.dumps(PLAIN_TEXTS)))
    for text, ts_messages in zip(PLAIN_TEXTS, found, strict=True):
        python = [message.replace("'", '"') for message in _python_messages(text)]
        assert ts_messages == python, text
        assert all(len(message) < 200 for message in python), text


def test_python_clips_a_huge_unknown_tool_id_before_it_is_escaped() -> None:
    """``ascii()`` of a 20-million-character id of NULs built an 80-million-character message."""
    huge = "\x00" * 20_000_000
    tracemalloc.start()
    try:
        with pytest.raises(UnknownToolError) as raised:
            hook_package_for(huge)  # type: ignore[arg-type]
        message = str(raised.value)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message.startswith("unknown tool id: '\\\\x00") and message.endswith("...")
    assert len(message) < 120
    assert peak < 2_000_000, peak


HUGE_TOOL_ID = """
import { hookPackageFor } from "./index.js";
let longest = 0;
const stringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (typeof value === "string") longest = Math.max(longest, value.length);
  return stringify.call(this, value, ...rest);
};
let message = null;
try { hookPackageFor("\\u0000".repeat(20_000_000)); } catch (error) { message = error.message; }
JSON.stringify = stringify;
process.stdout.write(stringify({ longest, message }));
"""


def test_typescript_clips_a_huge_unknown_tool_id_before_it_is_escaped(out: Path) -> None:
    """``hookPackageFor`` escaped the caller's whole id (``JSON.stringify``: six characters per
    NUL) before ``shown`` clipped it to 80."""
    found = run_js(out, HUGE_TOOL_ID)
    assert found["longest"] <= 1000, found["longest"]
    assert found["message"].endswith("...") and len(found["message"]) < 120

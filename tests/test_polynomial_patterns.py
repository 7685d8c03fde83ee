"""A pattern that backtracks polynomially (time growing as a power of the string's length) is
refused at generation unless its string's ``maxLength`` keeps that power within
``plan.PATTERN_STEP_BUDGET``: ``^.*,.*$`` on an unbounded adapter string lets one file cost
billions of steps in either validator. Exponential patterns are refused whatever the bound
(``test_hostile_review_6``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator import plan
from generator.ecma_to_re import translate
from generator.regex_facts import backtracking_degree, short_repeat_chain
from generator.schema_subset import CompileError
from generator.ts_validator import emit_validators

from .conftest import REPO, copy_project, run_toolgen

SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("pattern", "degree"),
    [
        ("^[a-z]+$", 1),
        ("^a*ba*$", 1),  # the "b" fixes where the first repeat ends
        ("^\\d+\\.\\d+$", 1),
        ("^(?:@[a-z]*/)?[a-z][a-z]*$", 1),  # the group ends with "/", which [a-z] cannot take
        ("^([^,]*,)*x$", 1),
        ("[a-z]+", 1),  # unanchored, but a match ends the search at the first letter
        ("foo.*", 1),
        ("^.*foo.*$", 2),  # the second ".*" can take over what the first gave back
        ("^[ab]*b[ab]*c$", 2),
        ("^(?:x[a-z]*)?[a-z]*$", 2),
        ("^(?:a*|b)a*$", 2),
        ("[a-z]+\\d", 2),  # unanchored: every start scans the run of letters again
        ("^.*,.*,.*$", 3),
        ("^\\s*\\s*\\s*\\s*x$", 4),
        ("^(?!.*\\.\\.)[a-z.]*$", 1),  # a lookahead at the start scans once
        ("^(?:(?!.*x).)*$", 2),  # ... inside a repeat, once per character
        ("(?!.*x)a", 2),  # ... unanchored, once per start
        # A character the part before a repeat must end with and the repeat cannot consume
        # fences it: from each place an earlier repeat gives back, it scans a run of its own.
        ("^[a-z.]+\\.[a-z]+$", 1),
        ("^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", 1),
        ("^(?:[^/]*/)*[^/]*\\.md$", 1),  # a nullable group ending with "/" fences itself
        ("^([a-zA-Z0-9_]+,)*[a-zA-Z0-9_]+$", 1),
        ("^\\d+(?:\\.\\d+)*\\.\\d+$", 1),
        ("\\$\\{[A-Z_]+\\}", 1),  # unanchored: the "{" fences each start's scan too
        ("x\\d*\\d*y", 2),  # ... which leaves the two repeats' own quadratic runs
        ("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", 2),  # the last repeat can consume the "."
        ("^[A-Za-z0-9-_=]+\\.[A-Za-z0-9-_=]+\\.?[A-Za-z0-9-_.+/=]*$", 2),
        # A repeat ending the pattern matches once entered: nothing after it can fail.
        ("^mailto:.+@.+", 1),
        ("^mailto:(.+)@(.+)", 1),
        ("^.+@.+$", 2),  # ... unlike one "$" follows
        ("f.*o", 2),
        ("\\s+$", 2),
        ("\\d+\\.\\d+", 2),
        # A chain inside a group runs again for each place an earlier repeat gives back.
        ("^.*(.*,.*)y$", 3),
        ("(x.*,.*)y", 3),
        ("^[a-z]*([a-z]*\\.)([a-z]*z[a-z]*)$", 3),
        # An earlier chain closed by a character still matches its text in many ways, and
        # each retries what follows.
        ("^[ab]*[ab]*c[bc]*[bc]*!$", 3),
        ("^a*a*;b*b*!$", 3),
        ("^a*a*;b*b*;c*c*!$", 4),
        ("^.*,.*c[^,]*$", 3),
        # A lookahead that scans runs at each place the repeats before it give back.
        ("^.*(?=.*b)", 2),
        ("^.*,.*(?=.*z)", 3),
        ("(?=.*a)(?=.*b).*c", 2),  # per start, the lookaheads' scans add to the repeat's
        # Classes sharing only characters beyond the fixed probes still compete.
        ("^[\u0100-\u017f]*[\u0100-\u017f]*[\u0100-\u017f]*x$", 3),
        ("^[^a]*\u0150*$", 2),
        ("^[\u0100-\u017f]*[\u0180-\u01ff]*$", 1),  # ... unlike disjoint ones
    ],
)
def test_the_degree_of_a_pattern(pattern: str, degree: int) -> None:
    assert backtracking_degree(translate(pattern)) == degree


@pytest.mark.parametrize(
    "pattern",
    [
        "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
        "^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@"
        "(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$",
        "^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)*"
        "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$",
        "^([a-z0-9]+(-[a-z0-9]+)*\\.)+[a-z]{2,}$",
        "^[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
        "^/?([^/]+/)*[^/]+$",
        "^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[\\w][\\w.-]{0,127})?$",
        "^mailto:.+@.+",
        "\\$\\{[A-Z_]+\\}",
    ],
)
def test_a_linear_pattern_in_common_use_compiles_without_max_length(pattern: str) -> None:
    # Each measured linear (Python's re.search on hostile strings of n and 2n characters).
    assert backtracking_degree(translate(pattern)) == 1
    assert "function" in emit_validators(
        _schema_with({"pattern": pattern}), {"validate": ""}, guards=False
    )


def _compiled(pattern: str, max_length: int | None) -> str:
    """The validators of a schema whose one string has ``pattern`` (and ``max_length``)."""
    string: dict[str, Any] = {"pattern": pattern}
    if max_length is not None:
        string["maxLength"] = max_length
    return emit_validators(_schema_with(string), {"validate": ""}, guards=False)


def _schema_with(string: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"n": {"type": "string", **string}}}


@pytest.mark.parametrize(
    ("pattern", "max_length"),
    [
        ("^.*,.*$", None),
        ("^.*,.*$", 4000),  # above 3,162: 4000**2 steps is over the budget
        ("^.*,.*,.*$", 300),  # above 215
        ("[a-z]+\\d", None),
    ],
)
def test_a_slow_pattern_on_a_long_string_is_refused(pattern: str, max_length: int | None) -> None:
    with pytest.raises(CompileError) as raised:
        _compiled(pattern, max_length)
    assert raised.value.pointer == "/properties/n/pattern"
    assert raised.value.keyword == "pattern"
    message = str(raised.value)
    assert "backtrack about length**" in message and "a maxLength of at most" in message


@pytest.mark.parametrize(
    ("pattern", "max_length"),
    [("^.*,.*$", 3162), ("^.*,.*,.*$", 215), ("^.*,.*$", 80), ("^[^,]*,[^,]*$", None)],
)
def test_a_slow_pattern_on_a_short_enough_string_is_compiled(
    pattern: str, max_length: int | None
) -> None:
    assert "function" in _compiled(pattern, max_length)


def test_the_budget_bounds_each_degree() -> None:
    assert plan._longest_bounded(2) == 3162
    assert plan._longest_bounded(3) == 215
    for degree in range(2, 8):
        longest = plan._longest_bounded(degree)
        assert longest**degree <= plan.PATTERN_STEP_BUDGET < (longest + 1) ** degree


SEVEN_SHORT = "^" + ".{0,15}," * 7 + "x$"


@pytest.mark.parametrize(
    ("pattern", "extra"),
    [
        (SEVEN_SHORT, 6),  # 0.06 s on 40 commas, however short the string
        ("^a?a?a?a?aaaa$", 3),
        ("^.{0,15},.{0,15}$", 1),
        ("^[a-z]{1,5}-[a-z]{1,5}-[a-z]{1,5}$", 0),  # each "-" fixes where a repeat ends
        ("^https://[a-z.]+(?::[0-9]{1,5})?$", 0),
        ("^.*,.*$", 0),  # long repeats: backtracking_degree's
        # Alternatives of different lengths split characters as a short repeat does
        # (twenty "(?:,|)" before an "x" took 2.4 s on 50 commas, searched, in Python and node).
        ("(?:,|)" * 20 + "x", 20),
        ("^(?:,|)(?:,|)(?:,|),{3}x$", 2),
        ("^(?:.|..)(?:.|..)(?:.|..)!$", 2),
        ("^(?:ab|cd)(?:ab|cd)$", 0),  # alternatives of one length split nothing
        # A repeat that can match empty splits nothing but Python's engine tries each count
        # ("(?:(?=a))?" sixteen times before a "b": 0.05 s on 20 characters; node ignores it).
        ("(?:(?=a))?" * 16 + "b", 16),
        ("^(?:(?=a))?(?:(?=a))?(?:(?=a))?b$", 2),
    ],
)
def test_short_repeats_in_a_chain_are_counted(pattern: str, extra: int) -> None:
    assert short_repeat_chain(translate(pattern)) == extra


@pytest.mark.parametrize(
    ("pattern", "max_length", "suggested"),
    [
        (SEVEN_SHORT, None, False),
        (SEVEN_SHORT, 40, False),  # 40 * 16**6 steps: no length is short enough
        ("^.{0,15},.{0,15},.{0,15}$", None, True),
        ("^.{0,15},.{0,15},.{0,15}$", 40000, True),  # above 10**7 / 16**2 = 39,062
        ("^.*,.*,.{0,9}:.{0,9}$", 300, True),  # 300**3 * 16 is over the budget
    ],
)
def test_a_chain_of_short_repeats_is_refused_unless_its_strings_are_short(
    pattern: str, max_length: int | None, suggested: bool
) -> None:
    with pytest.raises(CompileError) as raised:
        _compiled(pattern, max_length)
    assert raised.value.pointer == "/properties/n/pattern"
    message = str(raised.value)
    assert "16**" in message
    assert ("a maxLength of at most" in message) is suggested
    assert "fix where each repeat ends" in message


@pytest.mark.parametrize(
    ("pattern", "max_length"),
    [
        ("^.{0,15},.{0,15}$", None),  # a factor of 16 at most: linear
        ("^.{0,15},.{0,15},.{0,15}$", 39062),
        ("^.*,.*,.{0,9}:.{0,9}$", 100),
    ],
)
def test_a_chain_of_short_repeats_on_short_enough_strings_is_compiled(
    pattern: str, max_length: int | None
) -> None:
    assert "function" in _compiled(pattern, max_length)


def test_the_budget_bounds_a_factor_too() -> None:
    assert plan._longest_bounded(1, 16**2) == 39062
    assert plan._longest_bounded(1, 16**6) == 0
    for degree, factor in ((1, 16), (2, 16), (3, 256)):
        longest = plan._longest_bounded(degree, factor)
        assert factor * longest**degree <= plan.PATTERN_STEP_BUDGET
        assert factor * (longest + 1) ** degree > plan.PATTERN_STEP_BUDGET


def _patterns(node: Any) -> list[tuple[str, Any]]:
    if isinstance(node, dict):
        found = [(node["pattern"], node.get("maxLength"))] if "pattern" in node else []
        return found + [item for value in node.values() for item in _patterns(value)]
    if isinstance(node, list):
        return [item for value in node for item in _patterns(value)]
    return []


def test_the_schema_s_own_patterns_are_within_the_budget() -> None:
    found = _patterns(SCHEMA)
    assert len(found) >= 10
    for pattern, max_length in found:
        degree = backtracking_degree(translate(pattern))
        extra = short_repeat_chain(translate(pattern))
        if degree > 1 or extra > 1:
            factor = plan.SHORT_REPEAT_WAYS**extra
            assert max_length is not None and max_length <= plan._longest_bounded(degree, factor)


def test_generate_reports_a_slow_pattern_located(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    schema_path = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["library"]["pattern"] = "^.*-.*$"  # library has no maxLength
    schema_path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    completed = run_toolgen("generate", "--project", str(project))
    assert completed.returncode == 1, completed.stderr
    assert "SCHEMA_UNSUPPORTED" in completed.stderr
    assert "/properties/library/pattern" in completed.stderr
    assert "maxLength of at most 3162" in completed.stderr
    assert "Traceback" not in completed.stderr

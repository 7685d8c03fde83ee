"""The YAML reader built on libyaml's events (``load._read_events``) reads every document exactly
as the reference reading through PyYAML's composer (``load._parse_composed``): the same values,
node and key positions, refused pointers and diagnostics. What it leaves to the composer (an
error libyaml raises, an alias or a collection as a key, too deep nesting, several documents) is
read by the composer, so ``parse_yaml`` answers as it did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.load import MAX_NESTING, Loaded, _Fallback, _parse_composed, _read_events, parse_yaml

REPO = Path(__file__).resolve().parent.parent

CORPUS = [
    "a: 1\nb: [x, 'y', \"z\", true, True, FALSE, null, ~, Null, 0, -0, +1, 12, 0o17, 010, 0x1F]\n",
    "a: [1e3, 1.5, .5, -.5, 1_000, 0b11, 12:30, 1:30:00, .inf, -.Inf, .nan, 1e-3, 1.0e+3]\n",
    "a: [yes, No, on, OFF, y, n, =, <<, 2001-01-01, 2001-12-14t21:59:43.10-05:00]\n",
    "a: 9007199254740991\nb: 9007199254740992\nc: -9007199254740993\nd: 1e400\ne: 0x1p3\n",
    "a:\nb: ''\nc: !!null ''\nd: !!str\ne: !!str 1e3\nf: !!int '12'\ng: !!float 1\nh: !!bool yes\n",
    "a: &x 1\nb: *x\nc: &y [1, *x]\nd: {e: &z {f: 1}}\n",
    "a: 1\na: [*x, &y 2, {b: *z}]\nc: 3\nc: {d: &w 1}\n",
    "yes: 1\n1e3: 2\n\"q\": 3\n~: 4\n0o17: 5\n'true': 6\n!!str 1: 7\n<<: 8\n",
    "x: !!map {a: 1}\ny: !foo 1\nz: !!seq [1]\nw: !!python/object:os.system 1\nv: !!set {a}\n",
    "x: !!binary aGk=\nt: 2001-01-01\ns: !!omap [{a: 1}]\n",
    "k: ! true\nl: ! 12\nm: ! text\n! n: 1\n",
    "a/b~c: {x/y: 1, '~0': [a, b]}\n",
    'a: |\n  text\n   more\nb: >\n  fold\n  ed\n\nc: |-\n  x\nd: "\\N\\L\\P\\x41\\u00e9"\n',
    "- a\n- b: {c: [1, 2, {d: [[], {}]}]}\n-\n- - x\n  - y\n",
    "plain scalar root\n",
    "[1, 2, 3]\n",
    "!!str 12\n",
    "&a [1, *a]\n",
    "a: \u00e9t\u00e9\nb: \U0001f600\n'\u00e9': 1\n",
    "a: 1 # comment\n# another\nb:   2\n\n\nc: 'it''s'\n",
    "? a\n: 1\n? b\n",
    "a: {? b, c: }\n",
    "%YAML 1.1\n---\na: 1\n...\n",
    "--- !!map\na: 1\n",
    "a: !!map [1]\nb: !!seq {c: 1}\n",
    "{a: [b, {c: d}], e: }\n",
    "{a: , b: , }\n",
    "a: {? b, c: }\n",
    "[a: 1, b]\n",
    'a: "\\/ \\e \\_ \\x41 \\U0001F600"\n',
    "a: b\r\nc: d\r\n",
    "%TAG !e! tag:yaml.org,2002:\n---\na: !e!str 1\nb: !<tag:yaml.org,2002:int> 2\n",
    # Left to the composer: each must still read as before.
    "",
    "# only a comment\n",
    "a\n---\nb\n",
    "? [a]\n: b\nc: 1\n",
    "*x : 1\nb: 2\n",
    'a: "\\ud800"\nb: 1\n',
    "a: [1, 2\n",
    "a: b: c\n",
    "%YAML 1.3\n---\na: 1\n",
    "a: \t1\n",
    "a: 1\n\x07\n",
    "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n",
    "a: " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n",
    "a: 1\na: " + "[" * (MAX_NESTING + 2) + "]" * (MAX_NESTING + 2) + "\n",
]


def _facts(loaded: Loaded) -> tuple[Any, ...]:
    where = loaded.locate() if loaded.locate else None
    return (repr(loaded.value), loaded.diagnostics, loaded.refused, where)


@pytest.mark.parametrize("text", CORPUS)
def test_the_event_reader_reads_as_the_composer(text: str) -> None:
    assert _facts(parse_yaml(text, "t.yaml")) == _facts(_parse_composed(text, "t.yaml"))


def _tables() -> list[Path]:
    return [
        REPO / "schema/tools.yaml",
        *sorted((REPO / "tests/golden").glob("*/schema/tools.yaml")),
    ]


@pytest.mark.parametrize("path", _tables(), ids=lambda p: str(p.relative_to(REPO)))
def test_tables_are_read_from_events_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = _read_events(text, "tools.yaml")  # no fallback: the table is read from events
    assert _facts(fast) == _facts(_parse_composed(text, "tools.yaml"))


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",
        "a: 1\nb: !foo x\nc: yes\nd: 1e400\n",
        "a: 1\na: {b: *x}\n",
    ],
)
def test_refusals_are_reported_by_the_event_reader_itself(text: str) -> None:
    fast = _read_events(text, "t.yaml")
    assert fast.diagnostics and fast.value is not None
    assert _facts(fast) == _facts(_parse_composed(text, "t.yaml"))


@pytest.mark.parametrize(
    "text", ["", "a\n---\nb\n", "? [a]\n: b\n", "*x : 1\n", "[" * 70 + "]" * 70 + "\n"]
)
def test_what_the_event_reader_leaves_to_the_composer(text: str) -> None:
    with pytest.raises(_Fallback):
        _read_events(text, "t.yaml")

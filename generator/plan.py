"""The validation plan: a JSON Schema resolved once into typed, language-neutral checks.

``build_plan(schema, entry_points)`` walks the schema a single time and returns a ``Plan``: for
every subschema a validator needs as a function of its own (the entry points, ``$ref`` targets,
and the alternatives of ``anyOf``/``oneOf``/``not``/``if``, which are decided by a verdict), a
``Node`` stating what to check, in the order a report lists the violations. Each rule carries the
schema keyword and the ``expected`` text of its diagnostic, worked out here, so every language's
emitter reports the same words. A language backend is a small emitter over this plan: it decides
how to spell a test, never which tests to make or what they mean. Both backends
(``validator_compiler`` for Python, ``ts_validator`` for TypeScript) read the schema only
through ``build_plan``.

Contract:
- ``build_plan`` refuses a schema outside the supported subset (``schema_subset.check_keywords``)
  and raises ``CompileError`` (schema pointer and keyword) for anything it cannot plan.
- A subschema the schema writes (a property, ``items``, a ``prefixItems`` position, a non-false
  ``additionalProperties``) is kept as a node even when it accepts anything (verdict ``any``):
  the plan states the schema; an emitter drops what checks nothing.
- Order of checks in a ``Node`` (a report lists violations in this order): ``type``; then, for
  a node pinned to a string (``type: string`` with a string ``const`` or an all-string ``enum``),
  the string rules and the pin; otherwise the type's own rules followed by ``const``/``enum``
  when one type is declared, or ``const``/``enum`` followed by every type's rules when several
  (or none) are; then ``allOf`` members, ``anyOf``, ``oneOf``, ``not``, ``if``; then ``$ref``.
- Violations are distinct by (instance pointer, keyword, expected): a rule reached twice (through
  ``$ref`` and ``allOf``) is reported once, wherever it was reached first.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from generator.ecma_to_re import RegexError, translate
from generator.literals import py_json
from generator.regex_facts import (
    ambiguous_repeat,
    backtracking_degree,
    fast_path,
    largest_repeat_count,
    matches_only_ascii,
    short_repeat_chain,
    spelled_without_lookaheads,
)
from generator.schema_subset import (
    ANNOTATIONS,
    JSON_TYPES,
    MAX_SAFE_INTEGER,
    SURROGATE_KEYWORD,
    CompileError,
    check_keywords,
    escape_token,
    resolve_ref,
    schema_limit,
    schema_number,
    subschema_at,
)
from generator.schemas import local_ref_target

JsonType = Literal["null", "boolean", "object", "array", "number", "string", "integer"]
# The JSON types with checks of their own, in the order a report lists them.
TYPED_FAMILIES = ("string", "number", "object", "array")
# How many ``$ref``/``allOf`` levels the implied-type and pinned-string questions follow.
_MAX_DEPTH = 6
SURROGATE_EXPECTED = "no lone surrogate"


@dataclass(frozen=True)
class Rule:
    """One check's report: the schema keyword and what it expected (schema text, clipped)."""

    keyword: str
    expected: str


# The reports whose words the schema does not supply.
FALSE_RULE = Rule("false", "nothing (false schema)")
NOT_RULE = Rule("not", "not to match the 'not' schema")
CLOSED_RULE = Rule("additionalProperties", "no such property")
UNIQUE_RULE = Rule("uniqueItems", "unique items")


@dataclass(frozen=True)
class Limit:
    """A numeric bound (``minLength``, ``maximum``, ...) and its report."""

    value: int | float
    rule: Rule


@dataclass(frozen=True)
class FastPath:
    """A shorter Python translation of a pattern (its leading negative lookaheads that repeat
    something dropped) giving the same answer for every string lacking at least one literal of
    each group in ``literals``: each dropped lookahead can only match text holding every literal
    of its group. ``ecma`` spells the same shorter pattern in ECMA-262 (its translation is
    ``python``), or is ``None`` when it cannot."""

    python: str
    literals: tuple[tuple[str, ...], ...]
    ecma: str | None = None

    def lacking(self, lacks: Callable[[str], str], either: str, both: str) -> str:
        """The test, in a backend's spelling, that a string lacks a literal of every group:
        ``lacks(literal)`` spells one absence, ``either`` and ``both`` the two operators."""
        tests = []
        for group in self.literals:
            one = f" {either} ".join(lacks(literal) for literal in group)
            tests.append(one if len(group) == 1 else f"({one})")
        return f" {both} ".join(tests)


@dataclass(frozen=True)
class Pattern:
    """An ECMA-262 ``pattern`` (Unicode mode) and its Python ``re`` translation; ``ascii_only``
    when only ASCII strings can match it (so a string it accepts holds no lone surrogate);
    ``fast`` when a string lacking some literals may be searched with a shorter translation."""

    source: str
    python: str
    rule: Rule
    ascii_only: bool
    fast: FastPath | None


@dataclass(frozen=True)
class StringRules:
    """Checks for a string: lone surrogates (when the node admits free text), lengths counted
    in code points, then the pattern (not searched when the string is already too long)."""

    surrogates: bool
    min_length: Limit | None
    max_length: Limit | None
    pattern: Pattern | None

    @property
    def empty(self) -> bool:
        return not (self.surrogates or self.min_length or self.max_length or self.pattern)


@dataclass(frozen=True)
class NumberRules:
    minimum: Limit | None
    maximum: Limit | None

    @property
    def empty(self) -> bool:
        return self.minimum is None and self.maximum is None


@dataclass(frozen=True)
class ObjectRules:
    """``required`` (each missing name reported at the object), ``properties`` (checked only
    when present), then ``additionalProperties``: ``closed`` refuses every other key, and
    ``additional`` (the node ``additionalProperties`` holds when it is not ``false``, one that
    accepts anything included: a backend may still name the other keys) checks every other
    key's value; ``others`` is that node when it checks something."""

    required: tuple[str, ...]
    properties: tuple[tuple[str, Node], ...]
    closed: bool
    additional: Node | None
    known: tuple[str, ...]

    @property
    def others(self) -> Node | None:
        """The node every other key's value is checked against (``None``: nothing to check)."""
        extra = self.additional
        return extra if extra is not None and extra.verdict != "any" else None

    @property
    def missing(self) -> tuple[tuple[str, Rule], ...]:
        """Each required name with the report of its absence."""
        return tuple((name, Rule("required", f"property {_short(name)}")) for name in self.required)

    @property
    def empty(self) -> bool:
        return not (self.required or self.properties or self.closed or self.others)


@dataclass(frozen=True)
class ArrayRules:
    """Item counts, ``prefixItems``, ``items`` (from the first index after the prefix), then
    ``uniqueItems``, tested only when the items themselves added no violation."""

    min_items: Limit | None
    max_items: Limit | None
    prefix: tuple[Node, ...]
    items: Node | None
    unique: bool

    @property
    def empty(self) -> bool:
        return not (self.min_items or self.max_items or self.prefix or self.items or self.unique)


@dataclass(frozen=True)
class ValueRule:
    """``const`` (one value) or ``enum`` (the values); ``strings`` when every value is a string
    (a membership test), else JSON equality (``1 == 1.0``, ``true`` is not ``1``)."""

    keyword: Literal["const", "enum"]
    values: tuple[Any, ...]
    strings: bool
    rule: Rule


@dataclass(frozen=True)
class OneOf:
    """Exactly one alternative holds. With a ``discriminator`` (a property every alternative
    requires, with a distinct string constant in each), only the alternative the tag names is
    checked and its own violations are reported; otherwise the verdicts are counted and a
    failure reports the closest alternative's violations or one ``oneOf`` record. With a tag,
    ``targets`` is each alternative's object schema (its pointer, past ``$ref``-only wrappers),
    whose tag property the tag's test settles."""

    alternatives: tuple[str, ...]
    discriminator: tuple[str, tuple[str, ...]] | None
    inline: tuple[Node, ...]
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Condition:
    """An ``if`` simple enough to decide inline for an object: the names it requires (in order,
    once each), then the properties it pins to a string, boolean or null ``const`` (in order)."""

    required: tuple[str, ...]
    pins: tuple[tuple[str, str | bool | None], ...]


@dataclass(frozen=True)
class Conditional:
    """``if`` (decided by a verdict, or for an object by ``condition`` when it is simple),
    ``then`` and ``else`` (checked inline)."""

    test: str
    then: Node | None
    otherwise: Node | None
    condition: Condition | None = None


@dataclass(frozen=True)
class Node:
    """Every check one subschema makes at one instance position, in report order."""

    at: str
    verdict: Literal["any", "none", "check"]
    types: tuple[JsonType, ...] | None = None
    pinned: ValueRule | None = None
    values: tuple[ValueRule, ...] = ()
    string: StringRules | None = None
    number: NumberRules | None = None
    object: ObjectRules | None = None
    array: ArrayRules | None = None
    all_of: tuple[Node, ...] = ()
    any_of: tuple[str, ...] = ()
    one_of: OneOf | None = None
    negated: str | None = None
    conditional: Conditional | None = None
    ref: str | None = None

    @property
    def families(self) -> tuple[StringRules, NumberRules, ObjectRules, ArrayRules]:
        """A ``check`` node's rules for each type family (``TYPED_FAMILIES`` order)."""
        if self.string is None or self.number is None or self.object is None or self.array is None:
            raise ValueError(f"the {self.verdict!r} node at {self.at!r} has no type families")
        return self.string, self.number, self.object, self.array

    @property
    def single_family(self) -> str | None:
        """The one declared type whose own rules run in its type test's success branch."""
        if self.types is not None and len(self.types) == 1 and self.types[0] in TYPED_FAMILIES:
            return self.types[0]
        return None

    @property
    def type_rule(self) -> Rule | None:
        return None if self.types is None else Rule("type", " or ".join(self.types))

    @property
    def any_of_rule(self) -> Rule:
        return Rule("anyOf", f"to match at least one of {len(self.any_of)} alternatives")


@dataclass(frozen=True)
class EntryPoint:
    """A public validator: its schema pointer, whether an accepted document must be walked for
    lone surrogates (the schema leaves some position where a string is not examined), and the
    type the generated models declare for what it accepts (the root's ``title``, else the
    ``$defs`` name; ``None`` for a root without a title)."""

    name: str
    pointer: str
    walk: bool
    type_name: str | None


@dataclass(frozen=True)
class Plan:
    """The nodes that need a function of their own, by schema pointer, and the entry points."""

    nodes: Mapping[str, Node]
    entry_points: tuple[EntryPoint, ...]
    surrogate_rule: Rule = field(default=Rule(SURROGATE_KEYWORD, SURROGATE_EXPECTED))


class _Planner:
    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        self.nodes: dict[str, Node] = {}
        self.pending: list[str] = []

    def function(self, pointer: str) -> str:
        """Ask for the subschema at ``pointer`` as a node of its own (planned once)."""
        if pointer not in self.nodes and pointer not in self.pending:
            self.pending.append(pointer)
        return pointer

    def run(self) -> dict[str, Node]:
        while self.pending:
            pointer = self.pending.pop(0)
            if pointer not in self.nodes:
                self.nodes[pointer] = self.node(subschema_at(self.schema, pointer), pointer)
        return self.nodes

    def node(self, schema: Any, at: str) -> Node:
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return Node(at, "any")
        if schema is False:
            return Node(at, "none")
        types = self.types(schema, at)
        values = self.values(schema, at)
        pinned = None
        if types == ("string",) and len(values) == 1 and values[0].strings:
            pinned, values = values[0], ()
        return Node(
            at,
            "check",
            types=types,
            pinned=pinned,
            values=values,
            string=self.string(schema, at),
            number=self.number(schema, at),
            object=self.object(schema, at),
            array=self.array(schema, at),
            all_of=tuple(
                self.node(sub, f"{at}/allOf/{i}") for i, sub in enumerate(schema.get("allOf", []))
            ),
            any_of=tuple(
                self.function(f"{at}/anyOf/{i}") for i in range(len(schema.get("anyOf", [])))
            ),
            one_of=self.one_of(schema["oneOf"], f"{at}/oneOf") if "oneOf" in schema else None,
            negated=self.function(f"{at}/not") if "not" in schema else None,
            conditional=self.conditional(schema, at),
            ref=self.reference(schema["$ref"], f"{at}/$ref") if "$ref" in schema else None,
        )

    @staticmethod
    def types(schema: Mapping[str, Any], at: str) -> tuple[JsonType, ...] | None:
        return declared_types(schema, at)

    @staticmethod
    def values(schema: Mapping[str, Any], at: str) -> tuple[ValueRule, ...]:
        rules: list[ValueRule] = []
        if "const" in schema:
            const = schema["const"]
            py_json(const)  # refuses a value JSON cannot hold
            _refuse_inexact_integers(const, f"{at}/const", "const")
            rules.append(
                ValueRule("const", (const,), isinstance(const, str), Rule("const", _short(const)))
            )
        if "enum" in schema:
            options = schema["enum"]
            if not isinstance(options, list):
                raise CompileError("enum must be an array", f"{at}/enum", "enum")
            py_json(options)
            _refuse_inexact_integers(options, f"{at}/enum", "enum")
            strings = bool(options) and all(isinstance(option, str) for option in options)
            expected = "one of " + _short(options)
            rules.append(ValueRule("enum", tuple(options), strings, Rule("enum", expected)))
        return tuple(rules)

    def string(self, schema: Mapping[str, Any], at: str) -> StringRules:
        min_length = max_length = pattern = None
        if "minLength" in schema:
            limit = schema_limit(schema, at, "minLength")
            min_length = Limit(limit, Rule("minLength", f"at least {limit} characters"))
        if "maxLength" in schema:
            limit = schema_limit(schema, at, "maxLength")
            max_length = Limit(limit, Rule("maxLength", f"at most {limit} characters"))
        if "pattern" in schema:
            source = schema["pattern"]
            if not isinstance(source, str):
                raise CompileError("pattern must be a string", f"{at}/pattern", "pattern")
            facts = analysed_pattern(source)
            if isinstance(facts, str):
                raise CompileError(facts, f"{at}/pattern", "pattern")
            slow = _slow_pattern(facts, None if max_length is None else max_length.value)
            if slow is not None:
                raise CompileError(slow, f"{at}/pattern", "pattern")
            pattern = Pattern(
                source,
                facts.python,
                Rule("pattern", "to match " + _short(source)),
                facts.ascii_only,
                facts.fast,
            )
        return StringRules(_admits_free_strings(schema), min_length, max_length, pattern)

    @staticmethod
    def number(schema: Mapping[str, Any], at: str) -> NumberRules:
        minimum = maximum = None
        if "minimum" in schema:
            low = schema_number(schema, at, "minimum")
            minimum = Limit(low, Rule("minimum", f"at least {py_json(low)}"))
        if "maximum" in schema:
            high = schema_number(schema, at, "maximum")
            maximum = Limit(high, Rule("maximum", f"at most {py_json(high)}"))
        return NumberRules(minimum, maximum)

    def object(self, schema: Mapping[str, Any], at: str) -> ObjectRules:
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
            raise CompileError("required must be an array of strings", f"{at}/required")
        properties: Mapping[str, Any] = schema.get("properties", {})
        planned = tuple(
            (name, self.node(sub, f"{at}/properties/{escape_token(name)}"))
            for name, sub in properties.items()
        )
        extra = schema.get("additionalProperties", True)
        closed = extra is False
        additional = None
        if not closed and "additionalProperties" in schema:
            additional = self.node(extra, f"{at}/additionalProperties")
        return ObjectRules(
            tuple(dict.fromkeys(required)), planned, closed, additional, tuple(sorted(properties))
        )

    def array(self, schema: Mapping[str, Any], at: str) -> ArrayRules:
        min_items = max_items = None
        if "minItems" in schema:
            limit = schema_limit(schema, at, "minItems")
            min_items = Limit(limit, Rule("minItems", f"at least {limit} items"))
        if "maxItems" in schema:
            limit = schema_limit(schema, at, "maxItems")
            max_items = Limit(limit, Rule("maxItems", f"at most {limit} items"))
        prefix = tuple(
            self.node(sub, f"{at}/prefixItems/{i}")
            for i, sub in enumerate(schema.get("prefixItems", []))
        )
        items = self.node(schema["items"], f"{at}/items") if "items" in schema else None
        return ArrayRules(min_items, max_items, prefix, items, schema.get("uniqueItems") is True)

    def one_of(self, alternatives: list[Any], at: str) -> OneOf:
        pointers = tuple(self.function(f"{at}/{i}") for i in range(len(alternatives)))
        tagged = _discriminator(self.schema, alternatives, at)
        if tagged is None:
            return OneOf(pointers, None, ())
        inline = tuple(self.node(sub, f"{at}/{i}") for i, sub in enumerate(alternatives))
        targets = []
        for index, alternative in enumerate(alternatives):
            target_at, target = f"{at}/{index}", alternative
            while isinstance(target, Mapping) and set(target) == {"$ref"}:
                target_at, target = resolve_ref(self.schema, target["$ref"], target_at)
            targets.append(target_at)
        return OneOf(pointers, (tagged[0], tuple(tagged[1])), inline, tuple(targets))

    def conditional(self, schema: Mapping[str, Any], at: str) -> Conditional | None:
        if "if" not in schema:
            return None
        then = self.node(schema.get("then", True), f"{at}/then")
        otherwise = self.node(schema.get("else", True), f"{at}/else")
        if then.verdict == "any" and otherwise.verdict == "any":
            return None
        return Conditional(
            self.function(f"{at}/if"),
            None if then.verdict == "any" else then,
            None if otherwise.verdict == "any" else otherwise,
            simple_condition(schema["if"]),
        )

    def reference(self, ref: Any, at: str) -> str:
        if not isinstance(ref, str):
            raise CompileError("$ref must be a string", at, "$ref")
        target_at, _ = resolve_ref(self.schema, ref, at)
        return self.function(target_at)


# The backtracking steps a pattern may take on one string of the longest length its schema
# allows: a file holds many strings, and both validators run each pattern on each of them.
PATTERN_STEP_BUDGET = 10**7
# How much of its ``$ref`` targets one emitted function expands inline (both backends), in plan
# nodes counted with what each target expands in turn (``expanded_sizes``): a target larger
# than ``MAX_INLINED_TARGET`` is always called, and a function stops expanding once it holds
# ``MAX_INLINED_NODES``. Inlining by depth alone grew a function as fan-out ** depth when each
# definition refers to the next through several properties (8 properties over 48 levels: the
# generator was killed for memory); with the bounds the output grows linearly with the schema.
# The manifest schema's functions expand at most 128 nodes, its largest target 64: both bounds
# are twice what it needs, so its validators are as they were.
MAX_INLINED_TARGET = 128
MAX_INLINED_NODES = 256


def expanded_sizes(plan: Plan) -> dict[str, int]:
    """For each ``$ref`` target of ``plan``: how many nodes expanding it inline writes, counting
    the targets it expands in turn (one for a target it would call: recursive, or larger than
    ``MAX_INLINED_TARGET``), cut short past that bound. Each target is sized once."""
    sizes: dict[str, int] = {}
    for pointer in plan.nodes:
        _target_size(plan, pointer, sizes, set())
    return sizes


def _target_size(plan: Plan, pointer: str, sizes: dict[str, int], open_targets: set[str]) -> int:
    """The nodes expanding ``pointer`` inline writes (1: a call)."""
    if pointer in open_targets or pointer not in plan.nodes:
        return 1  # recursive (or not a function of its own): called
    if pointer not in sizes:
        open_targets.add(pointer)
        sizes[pointer] = _node_size(plan, plan.nodes[pointer], sizes, open_targets)
        open_targets.discard(pointer)
    size = sizes[pointer]
    return size if size <= MAX_INLINED_TARGET else 1


def _node_size(plan: Plan, node: Node, sizes: dict[str, int], open_targets: set[str]) -> int:
    children: list[Node] = [*node.all_of]
    if node.object is not None:
        children += [child for _, child in node.object.properties]
        if node.object.additional is not None:
            children.append(node.object.additional)
    if node.array is not None:
        children += node.array.prefix
        if node.array.items is not None:
            children.append(node.array.items)
    if node.one_of is not None:
        children += node.one_of.inline
    if node.conditional is not None:
        children += [n for n in (node.conditional.then, node.conditional.otherwise) if n]
    total = 1
    for child in children:
        total += _node_size(plan, child, sizes, open_targets)
        if total > MAX_INLINED_TARGET:
            return total  # already too large to inline: the rest need not be sized
    if node.ref is not None:
        total += _target_size(plan, node.ref, sizes, open_targets)
    return total


# The longest pattern analysed (in characters): the analyses walk its tree several times over,
# and a longer one is refused before any engine compiles it.
MAX_PATTERN_LENGTH = 1000
# The most repetitions a counted repeat may allow, nested counts multiplied (``(a{1000}){10}``
# allows 10,000): a search may read that many characters from every place it starts (node took
# 2.7 s for ``a{1000000000}`` on 30,000 characters), and counts beyond Python's limit do not
# compile at all.
MAX_REPEAT_COUNT = 1000


@dataclass(frozen=True)
class PatternFacts:
    """What the analyses found about one pattern, whatever schema holds it: its Python
    translation, its ``backtracking_degree`` and ``short_repeat_chain``, whether only ASCII
    strings match it, and its fast path."""

    python: str
    degree: int
    extra: int
    ascii_only: bool
    fast: FastPath | None


def pattern_length_refusal(source: str) -> str | None:
    """Why ``source`` is too long to analyse, or ``None``."""
    if len(source) <= MAX_PATTERN_LENGTH:
        return None
    return (
        f"pattern: it is {len(source)} characters long; at most {MAX_PATTERN_LENGTH} are"
        " analysed for backtracking, so a longer one is refused (split the rule, or move part"
        " of it into its own schema)"
    )


@functools.lru_cache(maxsize=1024)
def analysed_pattern(source: str) -> PatternFacts | str:
    """The facts of one pattern, or why it is refused whatever its string's ``maxLength`` (too
    long, invalid, untranslatable, a count too large, exponential backtracking). Analysed once
    per pattern: a schema repeating one pattern in many properties pays for it once."""
    too_long = pattern_length_refusal(source)
    if too_long is not None:
        return too_long
    try:
        python = translate(source)
    except RegexError as error:
        return f"pattern: {error}"
    count = largest_repeat_count(python)
    if count > MAX_REPEAT_COUNT:
        return (
            f"pattern: a counted repeat allows {count} repetitions (nested counts multiplied);"
            f" at most {MAX_REPEAT_COUNT} are supported, since a search may read that many"
            " characters from every place it starts (write `+` or `*`, bounded by the"
            " string's maxLength)"
        )
    ambiguity = ambiguous_repeat(python)
    if ambiguity is not None:
        return (
            f"pattern: {ambiguity}, so a hostile string could make either validator"
            " backtrack for hours (ReDoS), whatever maxLength allows; write each"
            " repetition so it can match a string one way only (as in"
            " `^[A-Z0-9]+(?:_[A-Z0-9]+)*$`)"
        )
    fast = fast_path(python)
    return PatternFacts(
        python,
        backtracking_degree(python),
        short_repeat_chain(python),
        matches_only_ascii(python),
        None
        if fast is None
        else FastPath(*fast, spelled_without_lookaheads(source, fast[0], translate)),
    )


def pattern_refusal(source: str, max_length: int | float | None) -> str | None:
    """Why the plan refuses ``pattern`` on a string of at most ``max_length`` characters
    (``None``: no bound), or ``None``: every check the manifest schema's patterns get, for any
    schema's."""
    facts = analysed_pattern(source)
    if isinstance(facts, str):
        return facts
    return _slow_pattern(facts, max_length)


def _slow_pattern(facts: PatternFacts, allowed: int | float | None) -> str | None:
    """Why a pattern whose backtracking on a hostile string of the longest length its
    schema allows could exceed ``PATTERN_STEP_BUDGET`` is refused, or ``None``. The estimate is
    ``length ** d`` times ``SHORT_REPEAT_WAYS ** k``: ``d`` the ``backtracking_degree`` (1 for a
    linear pattern; ``^.*,.*$`` with no ``maxLength`` lets a string of 60,000 characters cost
    billions of steps), ``k`` the ``short_repeat_chain`` (seven ``.{0,15},`` in a row multiply
    every string's cost by up to 16**6, however short it is). A string with no ``maxLength`` is
    refused a pattern of degree 2 or more, or with two or more chained short repeats (at most
    16 ways per character, then, for a linear pattern)."""
    degree, extra = facts.degree, facts.extra
    if degree < 2 and extra < 2:
        return None
    factor = SHORT_REPEAT_WAYS**extra
    longest = _longest_bounded(degree, factor)
    if allowed is not None and allowed <= longest:
        return None
    bound = "no maxLength" if allowed is None else f"maxLength {_shown_limit(allowed)}"
    if degree >= 2:
        how = f"a hostile string can make it backtrack about length**{degree} times"
        if extra:
            how += f" (times up to {SHORT_REPEAT_WAYS}**{extra} for its short repeats)"
    else:
        how = (
            f"{extra + 1} short repeats in a row can each split the same characters another"
            f" way, up to {SHORT_REPEAT_WAYS}**{extra} times the work per character"
        )
    fix = f"give it a maxLength of at most {longest}, or " if longest >= 1 else ""
    return (
        f"pattern: {how} and its string has {bound}; {fix}fix where each repeat ends (as in"
        " `^[^,]*,[^,]*$`)"
    )


def _shown_limit(limit: int | float) -> str:
    """A limit as a message shows it (an integer too large for a float has no ``:g``)."""
    if isinstance(limit, int) and limit > 2**53:
        return "beyond 2**53"
    return f"{limit:g}"


# The ways one short repeat (its count varying by less than 16) can split what it shares with
# the repeat before it, at most: the factor each one in a chain multiplies the work by.
SHORT_REPEAT_WAYS = 16


def _longest_bounded(degree: int, factor: int = 1) -> int:
    """The longest string length whose ``factor * length ** degree`` stays within the budget
    (0 when even one character does not)."""
    length: int = round((PATTERN_STEP_BUDGET / factor) ** (1 / degree))
    while length > 0 and factor * length**degree > PATTERN_STEP_BUDGET:  # the root may round up
        length -= 1
    return length


def _refuse_inexact_integers(value: Any, at: str, keyword: str) -> None:
    """Refuse an integer (at any depth of a ``const`` or ``enum`` value) that a TypeScript
    number cannot hold exactly: beyond 2**53 neighbouring integers share one double, so the
    TypeScript validator would accept values the Python one refuses."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SAFE_INTEGER:
        raise CompileError(
            f"{keyword} holds an integer beyond {MAX_SAFE_INTEGER} (2**53 - 1) in magnitude,"
            " which TypeScript cannot hold exactly (its neighbours would compare equal to it);"
            " write it as a string",
            at,
            keyword,
        )
    if isinstance(value, list):
        for index, item in enumerate(value):
            _refuse_inexact_integers(item, f"{at}/{index}", keyword)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _refuse_inexact_integers(item, f"{at}/{escape_token(key)}", keyword)


def _short(value: Any) -> str:
    """Schema text describing an expectation (escaped later by ``py_str``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _discriminator(
    root: Mapping[str, Any], alternatives: list[Any], at: str
) -> tuple[str, list[str]] | None:
    """For a ``oneOf``: a property every alternative requires, with a distinct string ``const``
    in each, when every alternative is an object schema (so no other alternative can hold).
    Decided here once, for every backend."""
    targets: list[Mapping[str, Any]] = []
    for index, alternative in enumerate(alternatives):
        target = alternative
        while isinstance(target, Mapping) and set(target) == {"$ref"}:
            target = resolve_ref(root, target["$ref"], f"{at}/{index}")[1]
        if not isinstance(target, Mapping) or target.get("type") != "object":
            return None
        targets.append(target)
    for name in targets[0].get("required", []):
        constants = [
            target.get("properties", {}).get(name, {}).get("const")
            if name in target.get("required", [])
            and isinstance(target.get("properties", {}).get(name), Mapping)
            else None
            for target in targets
        ]
        if all(isinstance(c, str) for c in constants) and len(set(constants)) == len(targets):
            return name, [str(c) for c in constants]
    return None


def _admits_free_strings(schema: Mapping[str, Any]) -> bool:
    """Whether a string this node accepts can be any string: no ``const``/``enum`` pins it to
    schema text, and ``type`` (when declared) includes ``string``."""
    if "const" in schema or "enum" in schema:
        return False
    declared = schema.get("type")
    return (
        declared is None
        or declared == "string"
        or (isinstance(declared, list) and "string" in declared)
    )


def _examines_every_string(schema: Mapping[str, Any], pointer: str) -> bool:
    """Whether every string inside a document this subschema accepts passes through a string
    node (and so through its surrogate test): objects are closed, arrays have ``items``, and no
    position is left unconstrained. Conservative: ``False`` means the entry point walks an
    accepted document once more to look for lone surrogates."""
    # The pointers being visited, each with its depth; a node reached again while being visited
    # is assumed to cover (a recursive $ref: decided by the outer visit). ``decided`` keeps each
    # answer that holds whatever the visit: a refusal (it was reached even assuming the best),
    # or an acceptance that assumed nothing about a node visited further out. Without it a
    # $ref reached by two routes at each of n levels was walked 2**n times.
    visiting: dict[str, int] = {}
    decided: dict[str, bool] = {}
    nothing_assumed = 1 << 62
    lowest_assumed = [nothing_assumed]  # the outermost depth the current visit assumed

    def covers(node: Any, at: str) -> bool:
        if node is False:
            return True
        if not isinstance(node, Mapping) or not node:
            return False
        if at in decided:
            return decided[at]
        if at in visiting:
            lowest_assumed[0] = min(lowest_assumed[0], visiting[at])
            return True
        depth = visiting[at] = len(visiting)
        outer_lowest, lowest_assumed[0] = lowest_assumed[0], nothing_assumed
        try:
            answer = _covers(node, at)
        finally:
            del visiting[at]
        if not answer or lowest_assumed[0] >= depth:
            decided[at] = answer
        lowest_assumed[0] = min(outer_lowest, lowest_assumed[0])
        return answer

    def _covers(node: Mapping[str, Any], at: str) -> bool:
        return (
            own(node, at)
            or any(covers(sub, f"{at}/allOf/{i}") for i, sub in enumerate(node.get("allOf", [])))
            or any(
                key in node
                and all(covers(sub, f"{at}/{key}/{i}") for i, sub in enumerate(node[key]))
                for key in ("anyOf", "oneOf")
            )
            or ("$ref" in node and covers_target(node["$ref"], at))
        )

    def covers_target(ref: Any, at: str) -> bool:
        found = local_ref_target(schema, ref) if isinstance(ref, str) else None
        return found is not None and covers(found[1], found[0])

    def own(node: Mapping[str, Any], at: str) -> bool:
        if "const" in node or "enum" in node:
            return True
        declared = node.get("type", list(JSON_TYPES))
        types = set(declared if isinstance(declared, list) else [declared])
        if "object" in types:
            properties = node.get("properties", {})
            if node.get("additionalProperties") is not False or not all(
                covers(sub, f"{at}/properties/{escape_token(name)}")
                for name, sub in properties.items()
            ):
                return False
        if "array" in types:
            prefix = node.get("prefixItems", [])
            if (
                "items" not in node
                or not all(covers(sub, f"{at}/prefixItems/{i}") for i, sub in enumerate(prefix))
                or not covers(node["items"], f"{at}/items")
            ):
                return False
        return True

    return covers(subschema_at(schema, pointer), pointer)


def declared_types(schema: Mapping[str, Any], at: str) -> tuple[JsonType, ...] | None:
    """The JSON types ``schema``'s ``type`` names (``None`` when it declares none)."""
    if "type" not in schema:
        return None
    declared = schema["type"]
    names = declared if isinstance(declared, list) else [declared]
    if not names or any(name not in JSON_TYPES for name in names):
        raise CompileError(f"type {declared!r} names no JSON type", f"{at}/type", "type")
    return tuple(names)


# The keywords a simple ``if`` may hold (annotations aside).
_CONDITION_KEYS = frozenset({"required", "properties"}) | ANNOTATIONS


def simple_condition(schema: Any) -> Condition | None:
    """The ``Condition`` an ``if`` schema amounts to when it holds only ``required`` names and
    properties pinned by a string/boolean/null ``const``; ``None`` for anything else (or when
    it holds neither: it accepts everything, and a verdict says so as cheaply)."""
    if not isinstance(schema, Mapping) or not set(schema) <= _CONDITION_KEYS:
        return None
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    if not isinstance(required, list) or not isinstance(properties, Mapping):
        return None
    pins: list[tuple[str, str | bool | None]] = []
    for name, sub in properties.items():
        if not isinstance(sub, Mapping) or set(sub) - ANNOTATIONS != {"const"}:
            return None
        const = sub["const"]
        if not (const is None or isinstance(const, str | bool)):
            return None
        pins.append((name, const))
    if not required and not pins:
        return None
    return Condition(tuple(dict.fromkeys(required)), tuple(pins))


def build_plan(schema: Mapping[str, Any], entry_points: Mapping[str, str]) -> Plan:
    """The plan for ``schema``'s ``{public name: schema pointer}`` entry points."""
    check_keywords(schema)
    planner = _Planner(schema)
    entries = []
    for name, pointer in entry_points.items():
        subschema_at(schema, pointer)  # an entry point must name a subschema: raises otherwise
        planner.function(pointer)
        walk = not _examines_every_string(schema, pointer)
        entries.append(EntryPoint(name, pointer, walk, _type_name(schema, pointer)))
    return Plan(planner.run(), tuple(entries))


def _type_name(schema: Mapping[str, Any], pointer: str) -> str | None:
    """The type the models declare for the subschema at ``pointer`` (see ``EntryPoint``)."""
    if pointer == "":
        title = schema.get("title")
        return title if isinstance(title, str) else None
    return pointer.rsplit("/", 1)[-1]


def implied_type(
    plan: Plan, node: Node, depth: int = 0, *, alternatives: bool = False
) -> JsonType | None:
    """A single JSON type every value valid against ``node`` has, when its ``type`` (or an
    ``allOf`` member's, or its ``$ref`` target's, followed a few levels) names exactly one.
    With ``alternatives``, also when every alternative of its ``oneOf`` (or else ``anyOf``)
    implies the same one (a tagged union of objects): the Python backend asks this wider
    question; the TypeScript backend's answering code tests such a union's type per
    alternative."""
    if node.verdict != "check" or depth > _MAX_DEPTH:
        return None
    if node.types is not None and len(node.types) == 1:
        return node.types[0]
    for member in node.all_of:
        found = implied_type(plan, member, depth + 1, alternatives=alternatives)
        if found is not None:
            return found
    if alternatives:
        one_of = node.one_of.alternatives if node.one_of is not None else ()
        for pointers in (one_of, node.any_of):
            implied = {
                implied_type(plan, plan.nodes[p], depth + 1, alternatives=True) for p in pointers
            }
            if len(implied) == 1 and None not in implied:
                return implied.pop()
    if node.ref is not None:
        return implied_type(plan, plan.nodes[node.ref], depth + 1, alternatives=alternatives)
    return None


def string_pinned(plan: Plan, node: Node, depth: int = 0) -> bool:
    """Whether a string valid against ``node`` is proven free of lone surrogates by a test the
    node (or an ``allOf`` member or ``$ref`` target, which always run with it) makes anyway: a
    ``const``/``enum`` (schema text) or a pattern only ASCII can match."""
    if node.verdict != "check" or depth > _MAX_DEPTH:
        return False
    if node.pinned is not None or node.values:
        return True
    pattern = node.string.pattern if node.string is not None else None
    if pattern is not None and pattern.ascii_only:
        return True
    if any(string_pinned(plan, member, depth + 1) for member in node.all_of):
        return True
    return node.ref is not None and string_pinned(plan, plan.nodes[node.ref], depth + 1)


def satisfies(known: str | None, wanted: str) -> bool:
    """Whether a value known to be of JSON type ``known`` is of type ``wanted``."""
    return known == wanted or (known == "integer" and wanted == "number")

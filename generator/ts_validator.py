"""The TypeScript backend of the validator compiler: ``validator.ts`` from a ``plan.Plan``.

``emit_validators(plan, guards)`` returns the body of a module exporting, per entry point,
``name(value: unknown, limit?: number): readonly Diagnostic[]`` (empty = valid) and a type guard
``isType(value: unknown): value is Type``. The module imports only the generated
``diagnostics.ts``, ``schema-runtime.ts`` and ``types.ts``: no runtime dependency.

Every check and its report come from the plan; this module only spells them in TypeScript, the
same way the Python compiler does: each subschema that needs a function gets a collecting one
(``check_N(v, p, e)``: every violation, pointer built only when one is reported) and an
answering one (``valid_N(v)``: stops at the first violation). Entry points answer first and
collect only for a failing document, so a valid document costs the tests alone.

Spelling rules that keep the two languages' verdicts identical:
- string lengths count code points (``codePointLength``), as Python's ``len`` does;
- patterns run as ECMA-262 Unicode-mode expressions (``u`` flag), JSON Schema's own meaning; a
  construct whose meaning differs between that engine and the Python translation is refused here
  (``CompileError`` naming it), so no pattern means two things;
- object members are read only when they are the object's own (``Object.hasOwn``), so
  ``__proto__``, ``constructor`` or ``toString`` are ordinary names;
- schema text reaches the output only through ``literals.ts_str`` or as a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.emitted_module import EmittedModule
from generator.literals import py_json, ts_str
from generator.plan import (
    CLOSED_RULE,
    FALSE_RULE,
    NOT_RULE,
    TYPED_FAMILIES,
    UNIQUE_RULE,
    ArrayRules,
    Limit,
    Node,
    NumberRules,
    ObjectRules,
    OneOf,
    Pattern,
    Plan,
    Rule,
    StringRules,
    ValueRule,
    build_plan,
    implied_type,
    satisfies,
    string_pinned,
)
from generator.regex_facts import anchored_at_start
from generator.schema_subset import CompileError, escape_token

_INDENT = "  "
# How deep ``$ref`` targets are expanded inline in answering code (then a call is made).
_MAX_INLINE = 6
# A member whose collecting checks can report this many violations (a call of a collecting
# function counts as that many) is decided by its answering function first.
_GUARDED_REPORTS = 6
_COLLECTING_CALL = re.compile(r"(?:check\d+|oneOf)\(")


def _type_test(name: str, value: str) -> str:
    return {
        "null": f"{value} === null",
        "boolean": f'typeof {value} === "boolean"',
        "object": f"isObject({value})",
        "array": f"isArray({value})",
        "string": f'typeof {value} === "string"',
        "number": f'typeof {value} === "number"',
        "integer": f"Number.isInteger({value})",
    }[name]


def ts_json(value: Any) -> str:
    """A JSON value as a TypeScript expression; strings escaped, every member an own property."""
    py_json(value)  # refuses what JSON cannot hold (non-finite numbers, other types)
    if value is None or isinstance(value, bool):
        return "null" if value is None else ("true" if value else "false")
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return ts_str(value)
    if isinstance(value, list):
        return "[" + ", ".join(ts_json(item) for item in value) + "]"
    # A plain "__proto__" key would set the literal's prototype: computed, it is a member.
    return (
        "{"
        + ", ".join(
            f"{'[' + ts_str(k) + ']' if k == '__proto__' else ts_str(k)}: {ts_json(v)}"
            for k, v in value.items()
        )
        + "}"
    )


def _primitive_type(value: str | bool | None) -> str:
    """The JSON type of a ``null``, boolean or string constant."""
    if value is None:
        return "null"
    return "boolean" if isinstance(value, bool) else "string"


def _narrowing_test(name: str, value: str) -> str:
    """A type test TypeScript narrows on (an integer is a number first)."""
    if name == "integer":
        return f'typeof {value} === "number" && Number.isInteger({value})'
    return _type_test(name, value)


def _regexp(ecma: str, python: str) -> str:
    """The ``RegExp`` a pattern is tested with. One that may match away from the start
    (``python`` is its translation) is searched from code point to code point: V8's search in
    Unicode mode also tries the position between the two halves of an astral character, where
    ``\\B`` and ``(?<![a-z])(?![a-z])`` matched in ``"k\\U0001f600s"``, which has no such
    position (Python, and the specification, said no match). A lazy prefix of whole code points
    tries every start there is, and nothing more, at the cost of the search an unanchored
    pattern makes anyway."""
    if not anchored_at_start(python):
        ecma = f"^[^]*?(?:{ecma})"
    return f'new RegExp({ts_str(ecma)}, "u")'


def _block(header: str, body: list[str]) -> list[str]:
    return [f"{header} {{", *(_INDENT + line for line in body), "}"]


def _if_else(test: str, then: list[str], otherwise: list[str]) -> list[str]:
    if not otherwise:
        return _block(f"if ({test})", then)
    return [*_block(f"if ({test})", then)[:-1], "} else {", *(_INDENT + x for x in otherwise), "}"]


@dataclass
class _Module(EmittedModule):
    """The TypeScript module being assembled: ``const NAME_3 = expression;`` constants and
    ``checkN`` / ``validN`` functions."""

    def constant_name(self, prefix: str, number: int) -> str:
        return f"{prefix}_{number}"

    def constant_line(self, name: str, expression: str, annotation: str) -> str:
        return f"const {name}{annotation} = {expression};"

    def function_name(self, number: int, *, collect: bool) -> str:
        return f"{'check' if collect else 'valid'}{number}"


class _Emitter:
    """Statements checking one plan node; ``collect`` chooses reporting or answering."""

    def __init__(self, module: _Module, *, collect: bool) -> None:
        self.module = module
        self.collect = collect
        # The $ref targets being expanded inline around the statement being emitted (answering).
        self.inlined: list[str] = []
        self.start_function()

    def start_function(self) -> None:
        """Forget what the previous function proved (answering)."""
        # The instance path each value variable holds (None: an array item or other member).
        self.paths: dict[str, tuple[str, ...] | None] = {"v": ()}
        # (instance path, $ref target) pairs already checked on this function's unconditional
        # path: a later check of the same value against the same target could only pass (the
        # function returned false otherwise), so it is not emitted again (third-party `detect`
        # is checked as a PathDetect and again through the root's tagged oneOf).
        self.proven: set[tuple[tuple[str, ...], str]] = set()
        # How many branches (a oneOf tag, an if's then or else) the statement sits in: what is
        # checked inside one is not proven after it.
        self.branches = 0
        self.expanded = 0  # plan nodes of ``$ref`` targets expanded inline in this function

    def fail(self, where: str, rule: Rule, value: str) -> str:
        if not self.collect:
            return "return false;"
        return f"e.add({where}, {ts_str(rule.keyword)}, {ts_str(rule.expected)}, {value});"

    def node(
        self,
        node: Node,
        value: str,
        where: str,
        known: str | None = None,
    ) -> list[str]:
        """Statements checking ``value`` against ``node``. When answering, ``known`` is the JSON
        type ``value`` is already proven to have."""
        if node.verdict == "any":
            return []
        if node.verdict == "none":
            return [self.fail(where, FALSE_RULE, value)]
        if not self.collect:
            return self.answer(node, value, known)
        type_rule = node.type_rule
        lines: list[str]
        if node.pinned is not None and type_rule is not None:
            inside, outside = self.pin(node.pinned, value, where)
            lines = _if_else(
                _type_test("string", value),
                [*self.family(node, "string", value, where), *inside],
                [self.fail(where, type_rule, value), *outside],
            )
        elif node.single_family is not None and type_rule is not None:
            only = node.single_family
            body = self.family(node, only, value, where)
            test = _type_test(only, value)
            if body:
                lines = _if_else(test, body, [self.fail(where, type_rule, value)])
            else:
                lines = _block(f"if (!({test}))", [self.fail(where, type_rule, value)])
            lines += self.values(node.values, value, where)
        else:
            lines = []
            if node.types is not None and type_rule is not None:
                test = " || ".join(_type_test(name, value) for name in node.types)
                lines += _block(f"if (!({test}))", [self.fail(where, type_rule, value)])
            lines += self.values(node.values, value, where)
            for name in TYPED_FAMILIES:
                body = self.family(node, name, value, where)
                if body:
                    lines += _block(f"if ({_type_test(name, value)})", body)
        lines += self.combinators(node, value, where)
        if node.ref is not None:
            lines += self.reference(node.ref, value, where)
        return lines

    def family(
        self, node: Node, name: str, value: str, where: str, *, surrogates: bool = True
    ) -> list[str]:
        """The checks ``node`` makes on a value of the JSON type family ``name`` (emitted only
        where they are used: constants and functions they ask for are then needed)."""
        if name == "string":
            return self.string(node.string, value, where, surrogates=surrogates)
        if name == "number":
            return self.number(node.number, value, where)
        if name == "object":
            return self.object(node.object, value, where)
        return self.array(node.array, value, where)

    def answer(self, node: Node, value: str, known: str | None) -> list[str]:
        """The fewest tests deciding ``node`` (every failure returns ``false``): the type the
        node implies is tested once, up front, and every later test relies on it (checks for
        other types are dropped: such a value already failed); required members are read without
        a presence test; a string already proven free of lone surrogates (a const, an enum, an
        ASCII-only pattern) is not searched for one; ``$ref`` targets are expanded inline."""
        plan = self.module.plan
        lines: list[str] = []
        implied = known or implied_type(plan, node)
        if implied is not None and implied != known:
            lines += _block(f"if (!({_narrowing_test(implied, value)}))", ["return false;"])
        known = implied
        if node.types is not None and not any(satisfies(known, name) for name in node.types):
            test = " || ".join(_type_test(name, value) for name in node.types)
            lines += _block(f"if (!({test}))", ["return false;"])
        if node.pinned is not None:
            lines += self.pin(node.pinned, value, "")[0]
        lines += self.values(node.values, value, "", known)
        surrogates = not string_pinned(plan, node)
        for name in TYPED_FAMILIES:
            if known is not None and not satisfies(known, name):
                continue  # a value of this type already failed the known type
            body = self.family(node, name, value, "", surrogates=surrogates)
            if not body:
                continue
            if satisfies(known, name):
                lines += body
            else:
                lines += _block(f"if ({_type_test(name, value)})", body)
        for member in node.all_of:
            lines += self.node(member, value, "", known)
        lines += self.combinators(node, value, "", skip_all_of=True, known=known)
        if node.ref is not None:
            lines += self.answer_reference(node.ref, value, known)
        return lines

    def answer_reference(self, ref: str, value: str, known: str | None) -> list[str]:
        """A ``$ref`` when answering: expanded in place, called when recursive or too deep, and
        left out when this value already passed this target on the way here."""
        target = self.module.plan.nodes[ref]
        inlined = self.inlined
        path = self.paths.get(value)
        fact = None if path is None else (path, ref)
        if fact is not None and fact in self.proven:
            return []
        cost = self.module.inline_cost(ref, self.expanded)
        if ref in inlined or len(inlined) >= _MAX_INLINE or target.verdict != "check":
            return self.reference(ref, value, "")
        if cost is None:  # large, or past the function's budget
            return self.reference(ref, value, "")
        self.expanded += cost
        # Expanded in place; a target already being expanded around here (a recursive schema)
        # is called instead, so expansion always ends.
        inlined.append(ref)
        try:
            lines = self.node(target, value, "", known)
        finally:
            inlined.pop()
        if fact is not None and self.branches == 0:
            self.proven.add(fact)
        return lines

    def pin(self, rule: ValueRule, value: str, where: str) -> tuple[list[str], list[str]]:
        """For a string node pinned by a const/enum: the test on a string, and the report for a
        value of another type (which always fails the pin)."""
        if rule.keyword == "const":
            test = f"{value} !== {ts_str(rule.values[0])}"
        else:
            test = f"!{self.string_set(rule.values)}.has({value})"
        report = self.fail(where, rule.rule, value)
        return _block(f"if ({test})", [report]), [report]

    def string_set(self, values: tuple[Any, ...]) -> str:
        items = ", ".join(ts_str(v) for v in sorted(set(values)))
        return self.module.constant("ENUM", f"new Set<string>([{items}])", ": ReadonlySet<string>")

    def values(
        self, rules: tuple[ValueRule, ...], value: str, where: str, known: str | None = None
    ) -> list[str]:
        """The ``const`` and ``enum`` tests; ``known`` is the type ``value`` is narrowed to."""
        lines: list[str] = []
        for rule in rules:
            if rule.keyword == "const":
                const = rule.values[0]
                if const is None or isinstance(const, str | bool):
                    test = f"{value} !== {ts_json(const)}"
                    if known is not None and not satisfies(known, _primitive_type(const)):
                        # Never equal (``{"type": "array", "const": "a"}`` holds for nothing):
                        # compared as ``unknown``, as tsc refuses two types with no overlap.
                        test = f"({value} as unknown) !== {ts_json(const)}"
                else:
                    name = self.module.constant("CONST", ts_json(const), ": unknown")
                    test = f"!jsonEqual({value}, {name})"
            elif rule.strings and known is not None and not satisfies(known, "string"):
                # Never held (``{"type": "array", "enum": ["a"]}``): a ``typeof`` test would
                # narrow the value to ``never`` past it, where its own checks do not compile.
                test = f"!{self.string_set(rule.values)}.has({value} as unknown as string)"
            elif rule.strings:
                test = (
                    f'!(typeof {value} === "string" && {self.string_set(rule.values)}.has({value}))'
                )
            else:
                options = "[" + ", ".join(ts_json(v) for v in rule.values) + "]"
                name = self.module.constant("ENUM", options, ": readonly unknown[]")
                test = f"!{name}.some((option) => jsonEqual({value}, option))"
            lines += _block(f"if ({test})", [self.fail(where, rule.rule, value)])
        return lines

    def string(
        self, rules: StringRules | None, value: str, where: str, *, surrogates: bool = True
    ) -> list[str]:
        if rules is None or rules.empty:
            return []
        lines: list[str] = []
        pattern = None
        matched = ""
        if rules.pattern is not None:
            pattern = self.pattern_test(rules.pattern, value)
            if self.collect and rules.surrogates and surrogates and rules.pattern.ascii_only:
                # Collecting: the pattern is tested first (its report still comes last), since
                # a string an ASCII-only pattern matched holds no lone surrogate: the common
                # valid string is not also searched for one.
                matched = self.module.variable("m")
                test = pattern
                if rules.max_length is not None:
                    test = f"!({self.longer(value, rules.max_length)}) && {test}"
                lines.append(f"const {matched} = {test};")
        if rules.surrogates and surrogates:
            test = f"hasLoneSurrogate({value})"
            lines += _block(
                f"if ({f'!{matched} && ' if matched else ''}{test})",
                [self.fail(where, self.module.plan.surrogate_rule, value)],
            )
        if rules.min_length is not None:
            lines += _block(
                f"if ({self.shorter(value, rules.min_length)})",
                [self.fail(where, rules.min_length.rule, value)],
            )
        if rules.max_length is not None:
            lines += _block(
                f"if ({self.longer(value, rules.max_length)})",
                [self.fail(where, rules.max_length.rule, value)],
            )
        if rules.pattern is not None:
            test = f"!{pattern}"
            if rules.max_length is not None and self.collect:
                # A string already too long is not searched: the length report says enough.
                test = f"!({self.longer(value, rules.max_length)}) && {test}"
            if matched:
                # Tested above: false when the string was too long to search, or did not match.
                test = f"!{matched}"
                if rules.max_length is not None:
                    test += f" && !({self.longer(value, rules.max_length)})"
            lines += _block(f"if ({test})", [self.fail(where, rules.pattern.rule, value)])
        return lines

    def pattern_test(self, pattern: Pattern, value: str) -> str:
        """A test that the string ``value`` matches ``pattern``; with a ``plan.FastPath`` spelled
        in ECMA-262, the shorter pattern's for a string lacking a literal of each group (the
        lookaheads it drops cannot refuse such a string)."""
        full = self.module.constant("PATTERN", _regexp(pattern.source, pattern.python))
        if pattern.fast is None or pattern.fast.ecma is None:
            return f"{full}.test({value})"
        fast = self.module.constant("PATTERN", _regexp(pattern.fast.ecma, pattern.fast.python))
        lacks = pattern.fast.lacking(lambda lit: f"!{value}.includes({ts_str(lit)})", "||", "&&")
        return f"({lacks} ? {fast} : {full}).test({value})"

    @staticmethod
    def shorter(value: str, limit: Limit) -> str:
        """Fewer than ``limit`` code points (a UTF-16 length is at most twice that count)."""
        bound = int(limit.value)
        if bound == 0:
            return "false"
        return (
            f"{value}.length < {bound} || "
            f"({value}.length < {2 * bound} && codePointLength({value}) < {bound})"
        )

    @staticmethod
    def longer(value: str, limit: Limit) -> str:
        """More than ``limit`` code points (never, while the UTF-16 length is within it)."""
        bound = int(limit.value)
        return f"{value}.length > {bound} && codePointLength({value}) > {bound}"

    def number(self, rules: NumberRules | None, value: str, where: str) -> list[str]:
        if rules is None or rules.empty:
            return []
        lines: list[str] = []
        if rules.minimum is not None:
            lines += _block(
                f"if ({value} < {py_json(rules.minimum.value)})",
                [self.fail(where, rules.minimum.rule, value)],
            )
        if rules.maximum is not None:
            lines += _block(
                f"if ({value} > {py_json(rules.maximum.value)})",
                [self.fail(where, rules.maximum.rule, value)],
            )
        return lines

    def object(
        self,
        rules: ObjectRules | None,
        value: str,
        where: str,
    ) -> list[str]:
        if rules is None or rules.empty:
            return []
        lines: list[str] = []
        # Answering stops at a missing required member, so past that test they are all present.
        present = set() if self.collect else set(rules.required)
        held: dict[str, str] = {}
        if rules.required:
            lines += self.required(rules, value, where, held)
        parent = self.paths.get(value)
        for name, sub in rules.properties:
            child = self.module.variable("v")
            # A member read only when present: what its checks prove holds wherever it is read.
            self.paths[child] = None if parent is None else (*parent, name)
            checks = self.node(sub, child, f"{where} + {ts_str('/' + escape_token(name))}")
            if checks and self.collect and _reports(checks) >= _GUARDED_REPORTS:
                # Most members of an invalid document hold: the answering function decides one
                # first (it holds exactly when these checks would report nothing), so a valid
                # member costs no pointer text, no call of a collecting function, no record.
                answer = self.module.function_for(sub, collect=False)
                checks = _block(f"if (!{answer}({child}))", checks)
            if checks and name in present:
                lines += _bind(child, f"{value}[{ts_str(name)}]", checks)
            elif checks:
                test = held.get(name, f"Object.hasOwn({value}, {ts_str(name)})")
                lines += _block(
                    f"if ({test})",
                    _bind(child, f"{value}[{ts_str(name)}]", checks),
                )
        if rules.closed or rules.others is not None:
            key = self.module.variable("k")
            key_where = f'{where} + "/" + token({key})'
            if rules.others is not None:
                child = self.module.variable("v")
                checks = self.node(rules.others, child, key_where)
                other = _bind(child, f"{value}[{key}]", checks)
            else:
                other = [self.fail(key_where, CLOSED_RULE, f"{value}[{key}]")]
            if other:
                lines += self.other_members(value, key, rules.known, other, self.collect)
        return lines

    def required(
        self, rules: ObjectRules, value: str, where: str, held: dict[str, str]
    ) -> list[str]:
        """The ``required`` test. Collecting, each missing member is reported, and whether a
        member that is also checked is present is looked up once and kept in ``held`` (name ->
        local) for its checks; answering, one test fails at the first missing member."""
        if not self.collect:
            test = " || ".join(f"!Object.hasOwn({value}, {ts_str(n)})" for n in rules.required)
            return _block(f"if ({test})", [self.fail(where, Rule("required", ""), value)])
        lines: list[str] = []
        checked = {name for name, _ in rules.properties}
        for name, rule in rules.missing:
            test = f"Object.hasOwn({value}, {ts_str(name)})"
            if name in checked and name not in held:
                held[name] = self.module.variable("h")
                lines.append(f"const {held[name]} = {test};")
                test = held[name]
            lines += _block(f"if (!{test})", [self.fail(where, rule, value)])
        return lines

    def other_members(
        self, value: str, key: str, known: tuple[str, ...], body: list[str], collect: bool
    ) -> list[str]:
        """``body`` for each own member of ``value`` that ``known`` does not name. Answering, a
        ``for-in`` over a switch of the names: no key array is built and no set is hashed (a
        ``for-in`` also meets inherited members, which ``Object.hasOwn`` leaves out).

        Collecting, the same scan looks for a first such member, and only once one is found are
        the members walked again from ``memberOrder``, in the order the document's text wrote
        them when the loader parsed it (JavaScript lists integer-like keys first, Python's
        ``dict`` keeps the written order, and the records must come in Python's order): an
        object with no other member, as most are, builds no key array."""
        own = _block(f"if (Object.hasOwn({value}, {key}))", body)
        if not collect:
            return self._scan(f"for (const {key} in {value})", key, known, own)
        ordered = _block(f"for (const {key} of memberOrder({value}))", own)
        if known:
            names = self.string_set(known)
            ordered = _block(
                f"for (const {key} of memberOrder({value}))",
                _block(f"if (!{names}.has({key}) && Object.hasOwn({value}, {key}))", body),
            )
        label = self.module.variable("scan")
        found = self.module.variable("k")
        first = _block(f"if (Object.hasOwn({value}, {found}))", [*ordered, f"break {label};"])
        return self._scan(f"{label}: for (const {found} in {value})", found, known, first)

    @staticmethod
    def _scan(loop: str, key: str, known: tuple[str, ...], body: list[str]) -> list[str]:
        """``loop`` running ``body`` for each key ``known`` does not name (a switch of them)."""
        if not known:
            return _block(loop, body)
        cases = [f"case {ts_str(name)}:" for name in known]
        switch = [*cases, f"{_INDENT}break;", "default:", *(_INDENT + line for line in body)]
        return _block(loop, _block(f"switch ({key})", switch))

    def array(self, rules: ArrayRules | None, value: str, where: str) -> list[str]:
        if rules is None or rules.empty:
            return []
        lines: list[str] = []
        if rules.min_items is not None:
            bound = int(rules.min_items.value)
            lines += _block(
                f"if ({value}.length < {bound})", [self.fail(where, rules.min_items.rule, value)]
            )
        if rules.max_items is not None:
            bound = int(rules.max_items.value)
            lines += _block(
                f"if ({value}.length > {bound})", [self.fail(where, rules.max_items.rule, value)]
            )
        mark = self.module.variable("n")
        if rules.unique and self.collect:
            lines.append(f"const {mark} = e.length;")
        for index, sub in enumerate(rules.prefix):
            child = self.module.variable("v")
            checks = self.node(sub, child, f'{where} + "/{index}"')
            if checks:
                lines += _block(
                    f"if ({value}.length > {index})",
                    _bind(child, f"{value}[{index}]", checks),
                )
        if rules.items is not None:
            position, child = self.module.variable("i"), self.module.variable("v")
            checks = self.node(rules.items, child, f'{where} + "/" + {position}')
            if checks:
                lines += _block(
                    f"for (let {position} = {len(rules.prefix)}; {position} < {value}.length;"
                    f" {position}++)",
                    _bind(child, f"{value}[{position}]", checks),
                )
        if rules.unique:
            test = f"!allUnique({value})"
            if self.collect:
                test = f"e.length === {mark} && {test}"
            lines += _block(f"if ({test})", [self.fail(where, UNIQUE_RULE, value)])
        return lines

    def verdict(self, pointer: str, value: str) -> str:
        return f"{self.module.function_at(pointer, collect=False)}({value})"

    def combinators(
        self,
        node: Node,
        value: str,
        where: str,
        *,
        skip_all_of: bool = False,
        known: str | None = None,
    ) -> list[str]:
        """``allOf``, ``anyOf``, ``oneOf``, ``not`` and ``if``; when answering, ``known`` is the
        type ``value`` is narrowed to, which the branches checked inline keep (a check for
        another type would test a value tsc already narrowed away, and not compile)."""
        lines: list[str] = []
        for member in () if skip_all_of else node.all_of:
            lines += self.node(member, value, where)
        if node.any_of:
            test = " || ".join(self.verdict(pointer, value) for pointer in node.any_of)
            lines += _block(f"if (!({test}))", [self.fail(where, node.any_of_rule, value)])
        if node.one_of is not None:
            lines += self.one_of(node.one_of, value, where, known)
        if node.negated is not None:
            lines += _block(
                f"if ({self.verdict(node.negated, value)})", [self.fail(where, NOT_RULE, value)]
            )
        if node.conditional is not None:
            self.branches += 1
            try:
                then = (
                    self.node(node.conditional.then, value, where, known)
                    if node.conditional.then
                    else []
                )
                otherwise = (
                    self.node(node.conditional.otherwise, value, where, known)
                    if node.conditional.otherwise
                    else []
                )
            finally:
                self.branches -= 1
            if then or otherwise:
                test = self.verdict(node.conditional.test, value)
                if then:
                    lines += _if_else(test, then, otherwise)
                else:
                    lines += _block(f"if (!{test})", otherwise)
        return lines

    def one_of(self, one_of: OneOf, value: str, where: str, known: str | None) -> list[str]:
        count = len(one_of.alternatives)
        report = self.report_one_of(one_of, value, where)
        if one_of.discriminator is None:
            matched = " + ".join(f"+{self.verdict(p, value)}" for p in one_of.alternatives)
            return _block(f"if ({matched} !== 1)", [report])
        name, constants = one_of.discriminator
        tag = self.module.variable("d")
        lines = [
            f"const {tag} = isObject({value}) && Object.hasOwn({value}, {ts_str(name)})"
            f" ? {value}[{ts_str(name)}] : undefined;"
        ]
        # The alternative the tag names is checked inline (answering: only it can hold;
        # collecting: its violations say what the document lacks).
        opening = "if"
        for index in range(count):
            self.branches += 1
            try:
                checks = self.node(one_of.inline[index], value, where, known)
            finally:
                self.branches -= 1
            lines.append(f"{opening} ({tag} === {ts_str(constants[index])}) {{")
            lines += [_INDENT + line for line in checks]
            opening = "} else if"
        return [*lines, "} else {", _INDENT + report, "}"]

    def report_one_of(self, one_of: OneOf, value: str, where: str) -> str:
        if not self.collect:
            return "return false;"
        names = [self.module.function_at(pointer, collect=True) for pointer in one_of.alternatives]
        return f"oneOf([{', '.join(names)}], {value}, {where}, e);"

    def reference(self, pointer: str, value: str, where: str) -> list[str]:
        if self.collect:
            return [f"{self.module.function_at(pointer, collect=True)}({value}, {where}, e);"]
        return _block(f"if (!{self.verdict(pointer, value)})", ["return false;"])


def _reports(lines: list[str]) -> int:
    """How many places in ``lines`` report a violation (a collecting call counts as many)."""
    count = 0
    for line in lines:
        text = line.lstrip()
        if text.startswith("e.add("):
            count += 1
        elif _COLLECTING_CALL.match(text):
            count += _GUARDED_REPORTS
    return count


def _bind(name: str, expression: str, checks: list[str]) -> list[str]:
    """``checks`` preceded by ``const name = expression`` when they read ``name`` (a ``false``
    schema's answer does not, and TypeScript refuses an unused local)."""
    if any(re.search(rf"\b{name}\b", line) for line in checks):
        return [f"const {name} = {expression};", *checks]
    return checks


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def emit_validators(
    schema: Mapping[str, Any], entry_points: Mapping[str, str], *, guards: bool = True
) -> str:
    """The body of ``validator.ts`` for ``schema``'s entry points (names in Python spelling,
    turned to camelCase). ``guards``: also a type guard per entry point, narrowing to the type
    ``types.ts`` declares for it (the root's ``title``, or the ``$defs`` name). Raises
    ``CompileError`` for a schema either backend refuses."""
    return typescript_validators(build_plan(schema, entry_points), guards=guards)


def raw_violations_name(name: str) -> str:
    """The twin of the entry point ``name`` (camelCase) that returns its raw violations, as
    Python's ``_violations_of_<name>`` (``validator_compiler._raw_violations_name``)."""
    return f"violationsOf{name[:1].upper()}{name[1:]}"


def typescript_validators(plan: Plan, *, guards: bool = True) -> str:
    """``emit_validators`` over a plan already built (the generator builds one per schema and
    hands it to both language backends)."""
    module = _Module(plan)
    emitters = {flag: _Emitter(module, collect=flag) for flag in (True, False)}
    public: list[str] = []
    guard_types: list[str] = []
    for entry in plan.entry_points:
        check = module.function_at(entry.pointer, collect=True)
        valid = module.function_at(entry.pointer, collect=False)
        accepted = (
            f"{valid}(value) && surrogateAt(value) === null" if entry.walk else f"{valid}(value)"
        )
        type_name = entry.type_name if guards else "its schema"
        if type_name is None:
            raise CompileError("a type guard needs the root schema's title", "", "title")
        if guards:
            guard_types.append(type_name)
        name = _camel(entry.name)
        walk = "true" if entry.walk else "false"
        public += [
            "",
            f"/** The violations of `value` against {type_name} (empty when it is valid): at",
            " * most `limit`, then one `TOO_MANY_DIAGNOSTICS` record (checking stops there). */",
            f"export function {name}(",
            "  value: unknown,",
            "  limit: number = MAX_DIAGNOSTICS_PER_FILE,",
            "): readonly Diagnostic[] {",
            '  if (typeof limit !== "number") {',
            "    // As Python's: a limit is a number (null kept no record and said nothing).",
            '    const kind = limit === null ? "null" : typeof limit;',
            "    throw new TypeError(`limit must be a number, not ${kind}`);",
            "  }",
            "  try {",
            "    // Most documents are valid: answer first, collect only for a failure.",
            f"    if ({accepted}) return NO_DIAGNOSTICS;",
            "  } catch (error) {",
            "    if (!isStackOverflow(error)) throw error; // collected below",
            "  }",
            f"  const found = collect({check}, value, new Violations(limit), {walk});",
            "  return report(found);",
            "}",
            "",
            f"/** What `{name}` finds, as raw violations in a `Collector` of `limit` (a",
            " * number above 0; made only for a failure), or `null` when `value` is valid. No",
            " * record is made yet (the loader makes its own, from each violation's own pointer",
            " * and value, as Python's twin gives them). */",
            f"export function {raw_violations_name(name)}(",
            "  value: unknown,",
            "  limit: number,",
            "  Collector: new (limit: number) => Violations = Violations,",
            "): Violations | null {",
            "  try {",
            f"    if ({accepted}) return null;",
            "  } catch (error) {",
            "    if (!isStackOverflow(error)) throw error; // collected below",
            "  }",
            f"  return collect({check}, value, new Collector(limit), {walk});",
            "}",
        ]
        if not guards:
            continue
        public += [
            "",
            f"/** Whether `value` is a valid {type_name} (the same verdict as `{name}`). */",
            f"export function is{type_name}(value: unknown): value is {type_name} {{",
            "  try {",
            f"    return {accepted};",
            "  } catch (error) {",
            "    if (isStackOverflow(error)) return false; // nested too deeply to be valid",
            "    throw error;",
            "  }",
            "}",
        ]
    bodies: list[list[str]] = []
    while module.pending:
        node, name, collect = module.pending.pop(0)
        emitters[collect].start_function()
        body = emitters[collect].node(node, "v", "p")
        if collect:
            signature = f"function {name}(v: unknown, p: string, e: Violations): void"
        else:
            signature = f"function {name}(v: unknown): boolean"
            body = [*body, "return true;"]
        bodies.append(["", *_block(signature, body)])
    code = [*module.constants]
    for body in bodies:
        code += body
    code += public
    text = "\n".join(code)
    helpers = [
        name
        for name in (
            "Violations",
            "allUnique",
            "codePointLength",
            "collect",
            "hasLoneSurrogate",
            "isArray",
            "isObject",
            "isStackOverflow",
            "jsonEqual",
            "memberOrder",
            "oneOf",
            "report",
            "surrogateAt",
            "token",
        )
        if re.search(rf"\b{name}\b", text)
    ]
    imports = [
        'import { MAX_DIAGNOSTICS_PER_FILE, type Diagnostic } from "./diagnostics.js";',
        f'import {{ NO_DIAGNOSTICS, {", ".join(helpers)} }} from "./schema-runtime.js";',
    ]
    if guard_types:
        types = ", ".join(sorted(set(guard_types)))
        imports.append(f'import type {{ {types} }} from "./types.js";')
    return "\n".join([*imports, "", *code]) + "\n"

"""Compile a JSON Schema (draft 2020-12, a declared keyword subset) into standalone Python.

``compile_validators(schema, entry_points)`` returns the source of a module with one public
function per entry point, ``name(value) -> tuple[Diagnostic, ...]`` (empty = valid), reporting
every violation with its instance pointer and schema keyword. The module needs only the standard
library and the package's ``diagnostics`` and ``schema_runtime`` modules.

This is the Python emitter over ``plan.build_plan``: the schema is resolved once into plan nodes
(which checks, in which order, with which report; pins, limits, discriminators, ``$ref``
targets, implied types), the same plan ``ts_validator`` spells in TypeScript. Nothing here reads
the schema; it only decides how a check is spelled in Python and where a function is called.

Contract:
- Only ``schema_subset.SUPPORTED_KEYWORDS`` and ``ANNOTATIONS`` may appear in a schema. Anything
  else (and any ``$ref`` that is not a same-document pointer, any ``$id`` below the root, a
  pattern the ``ecma_to_re`` translation refuses) raises ``CompileError`` naming the keyword and
  the schema pointer: a keyword is never silently ignored.
- Schema text reaches the output only as escaped string literals (``literals.py_str``) or as
  numbers; nothing from the schema lands in a comment or an identifier.
- Checks are inlined into straight-line code; a child's instance pointer is only built when a
  violation is reported, so a valid document costs little more than the comparisons themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.emitted_module import EmittedModule
from generator.literals import py_json, py_str
from generator.plan import (
    CLOSED_RULE,
    FALSE_RULE,
    NOT_RULE,
    TYPED_FAMILIES,
    UNIQUE_RULE,
    ArrayRules,
    Condition,
    Conditional,
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
from generator.regex_facts import (
    anchored_at_start,
    forbidden_characters,
    printable_ascii_matches,
)
from generator.schema_subset import escape_token

# How deep ``$ref`` targets are inlined before the compiler emits a function call instead.
_MAX_INLINE_DEPTH = 6


def _type_test(name: str, value: str) -> str:
    return {
        "null": f"{value} is None",
        "boolean": f"isinstance({value}, bool)",
        "object": f"isinstance({value}, dict)",
        "array": f"isinstance({value}, list)",
        "string": f"isinstance({value}, str)",
        "number": f"(isinstance({value}, (int, float)) and not isinstance({value}, bool))",
        "integer": (
            f"((isinstance({value}, int) and not isinstance({value}, bool))"
            f" or (isinstance({value}, float) and {value}.is_integer()))"
        ),
    }[name]


@dataclass
class _Module(EmittedModule):
    """The Python module being assembled: ``_NAME3 = expression`` constants, ``_check_N`` and
    ``_valid_N`` functions, and the bodies written so far."""

    function_bodies: list[list[str]] = field(default_factory=list)

    def constant_name(self, prefix: str, number: int) -> str:
        return f"_{prefix}{number}"

    def constant_line(self, name: str, expression: str, annotation: str) -> str:
        del annotation  # Python constants are not annotated
        return f"{name} = {expression}"

    def function_name(self, number: int, *, collect: bool) -> str:
        return f"{'_check' if collect else '_valid'}_{number}"


class _Collect:
    """Emits the statements of a collecting function (``_check_N(v, p, e)``) for a plan node:
    a violation appends a ``Violation`` tuple to ``e`` and checking goes on.

    Alternatives (``anyOf``, ``oneOf``, ``not``, ``if``) are decided by the answering functions,
    so a valid document never builds a record for the alternative it does not take; violations
    are collected only once a verdict is a failure. Which checks run, in which order, with which
    report, comes from the node; this class only spells them.
    """

    def __init__(self, module: _Module) -> None:
        self.module = module
        # (instance pointer expression, node pointer) pairs already checked on the function's
        # straight-line path (``conditional`` counts the branches the code sits in): reached
        # again (a ``$ref`` through ``allOf`` and through a ``oneOf`` tag, say), the check could
        # only report the same records again, so it is not emitted twice. The pointer expression
        # also says how the value was reached (a property, ``"/0"``, is spelled apart from a
        # ``prefixItems`` position, ``'/0'``), so two routes to one location agree on the guards
        # they sit under.
        self.proven: set[tuple[str, str]] = set()
        self.conditional = 0
        self.expanded = 0  # plan nodes of ``$ref`` targets inlined into the function so far

    def function(self, node: Node) -> list[str]:
        """The body of the collecting function for ``node`` (a plan node of its own)."""
        self.proven = set()
        self.expanded = 0
        return self.node(node, "v", "p", (node.at,))

    def node(
        self,
        node: Node,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool = False,
    ) -> list[str]:
        """Statements checking ``value`` (a variable) against ``node``; ``where`` is a Python
        expression for the instance pointer, evaluated only when a violation is reported.
        ``strings_checked``: an enclosing node on this straight-line path already tests a string
        ``value`` for lone surrogates (the same record: this node does not test it again)."""
        if node.verdict == "any":
            return []
        if node.verdict == "none":
            return [self.fail(where, FALSE_RULE, value)]
        if (where, node.at) in self.proven:
            return []
        string, number, objects, array = node.families
        surrogates = not strings_checked and string.surrogates
        # Every family is spelled (in this order) even where a single declared type leaves it
        # dead: the constants and names it takes keep their numbers in the output.
        typed = {
            "string": self.string(string, value, where, surrogates=surrogates),
            "number": self.number(number, value, where),
            "object": self.object(objects, value, where, inlined),
            "array": self.array(array, value, where, inlined),
        }
        lines = self.values(node.values, value, where)
        type_rule = node.type_rule
        if node.pinned is not None and type_rule is not None:
            # A string constant or string enum: one type test decides both records (a value of
            # another type fails ``type`` and then the constant, in that order, as before).
            inside, outside = self.pin(node.pinned, value, where)
            lines = [
                f"if {_type_test('string', value)}:",
                *typed["string"][1:],  # already indented under its own type test
                *_indent(inside),
                "else:",
                "    " + self.fail(where, type_rule, value),
                *_indent(outside),
            ]
        elif node.single_family is not None and type_rule is not None:
            # One declared type: its checks run in the success branch of the type test, and the
            # other types' checks are dead code (their guards could never hold).
            only = node.single_family
            body = typed[only][1:] if typed[only] else []
            lines = [
                f"if {_type_test(only, value)}:",
                *(body or ["    pass"]),
                "else:",
                "    " + self.fail(where, type_rule, value),
                *lines,
            ]
        else:
            if node.types is not None and type_rule is not None:
                test = " or ".join(_type_test(name, value) for name in node.types)
                lines = [f"if not ({test}):", "    " + self.fail(where, type_rule, value), *lines]
            for checks in typed.values():
                lines += checks
        checked = strings_checked or surrogates
        lines += self.combinators(node, value, where, inlined, checked)
        if node.ref is not None:
            lines += self.reference(node.ref, value, where, inlined, checked)
        if not self.conditional:
            self.proven.add((where, node.at))
        return lines

    def pin(self, rule: ValueRule, value: str, where: str) -> tuple[list[str], list[str]]:
        """For a string node pinned by a const/enum: the statements for a string ``value`` and
        for a value of another type (which always fails the pin)."""
        if rule.keyword == "const":
            test = f"{value} != {py_str(rule.values[0])}"
        else:
            test = f"{value} not in {_string_set(self.module, rule.values)}"
        report = self.fail(where, rule.rule, value)
        return [f"if {test}:", f"    {report}"], [report]

    @staticmethod
    def fail(where: str, rule: Rule, value: str) -> str:
        keyword, expected = py_str(rule.keyword), py_str(rule.expected)
        return f"e.append(({where}, {keyword}, {expected}, {value}))"

    def values(self, rules: tuple[ValueRule, ...], value: str, where: str) -> list[str]:
        lines: list[str] = []
        for rule in rules:
            if rule.keyword == "const" and rule.strings:
                test = f"isinstance({value}, str) and {value} == {py_str(rule.values[0])}"
            elif rule.keyword == "const":
                name = self.module.constant("CONST", py_json(rule.values[0]))
                test = f"json_equal({value}, {name})"
            elif rule.strings:
                members = _string_set(self.module, rule.values)
                test = f"isinstance({value}, str) and {value} in {members}"
            else:
                name = self.module.constant("ENUM", py_json(list(rule.values)))
                test = f"any(json_equal({value}, option) for option in {name})"
            lines += [f"if not ({test}):", "    " + self.fail(where, rule.rule, value)]
        return lines

    def string(self, rules: StringRules, value: str, where: str, *, surrogates: bool) -> list[str]:
        body: list[str] = []
        if surrogates:
            # I-JSON (RFC 7493): a lone surrogate has no UTF-8 encoding and breaks every later
            # consumer (print, encode, subprocess). isascii() answers most strings in O(1).
            body += [
                f"if not {value}.isascii() and SURROGATE.search({value}) is not None:",
                "    " + self.fail(where, self.module.plan.surrogate_rule, value),
            ]
        if rules.min_length is not None:
            body += [
                f"if len({value}) < {rules.min_length.value}:",
                "    " + self.fail(where, rules.min_length.rule, value),
            ]
        if rules.max_length is not None:
            body += [
                f"if len({value}) > {rules.max_length.value}:",
                "    " + self.fail(where, rules.max_length.rule, value),
            ]
        if rules.pattern is not None:
            # A string already too long is not searched too: a hostile 64 KiB value costs the
            # length test, not a scan (and the report already says what is wrong with it).
            test = _pattern_misses(self.module, rules.pattern, value)
            if rules.max_length is not None:
                test = f"len({value}) <= {rules.max_length.value} and {test}"
            body += [f"if {test}:", "    " + self.fail(where, rules.pattern.rule, value)]
        if len(body) > 2:
            # Most strings pass: one test of the accepting case (as the answering functions make
            # it) runs first, and the separate tests only for a string that fails it.
            body = [f"if {self.string_fails(rules, value, surrogates)}:", *_indent(body)]
        return _guarded(f"isinstance({value}, str)", body)

    def string_fails(self, rules: StringRules, value: str, surrogates: bool) -> str:
        """A test that the string ``value`` fails a check ``string`` makes: when it does not
        hold, none of them would report (a lone surrogate is ruled out by ``isascii`` or by a
        match of a pattern that only matches ASCII)."""
        terms: list[str] = []
        pattern = rules.pattern
        if surrogates and (pattern is None or not pattern.ascii_only):
            terms.append(f"{value}.isascii()")
        low = rules.min_length.value if rules.min_length is not None else 0
        high = rules.max_length.value if rules.max_length is not None else None
        terms += _length_terms(low, high, value)
        if pattern is None:
            return f"not ({' and '.join(terms)})"
        if not terms:
            return _pattern_misses(self.module, pattern, value)
        terms.append(_pattern_matches(self.module, pattern, value))
        return f"not ({' and '.join(terms)})"

    def number(self, rules: NumberRules, value: str, where: str) -> list[str]:
        body: list[str] = []
        for limit, operator in ((rules.minimum, "<"), (rules.maximum, ">")):
            if limit is not None:
                body += [
                    f"if {value} {operator} {py_json(limit.value)}:",
                    "    " + self.fail(where, limit.rule, value),
                ]
        return _guarded(_type_test("number", value), body)

    def object(
        self, rules: ObjectRules, value: str, where: str, inlined: tuple[str, ...]
    ) -> list[str]:
        body: list[str] = []
        if rules.required:
            # One test that every required key is present; the names are checked one by one
            # only to report the missing ones (a single name is that test itself).
            missing: list[str] = []
            for name, rule in rules.missing:
                missing += [
                    f"if {py_str(name)} not in {value}:",
                    "    " + self.fail(where, rule, value),
                ]
            if len(rules.required) > 1:
                every = _has_keys(self.module, rules.required, value)
                missing = [f"if not {every}:", *_indent(missing)]
            body += missing
        for name, sub in rules.properties:
            child = self.module.variable("v")
            child_where = f"{where} + {py_str('/' + escape_token(name))}"
            checks = self.node(sub, child, child_where, inlined)
            if checks and _reports(checks) >= _GUARDED_REPORTS:
                # Most properties of an invalid document hold: the answering function decides
                # a nested object or array first, and its violations are collected only when it
                # fails (it holds exactly when they would report nothing).
                answer = self.module.function_for(sub, collect=False)
                checks = [f"if not {answer}({child}):", *_indent(checks)]
            if checks:
                body += [
                    f"{child} = {value}.get({py_str(name)}, MISSING)",
                    f"if {child} is not MISSING:",
                    *_indent(checks),
                ]
        if rules.closed or rules.additional is not None:
            body += self.additional(rules, value, where, inlined)
        return _guarded(f"isinstance({value}, dict)", body)

    def additional(
        self, rules: ObjectRules, value: str, where: str, inlined: tuple[str, ...]
    ) -> list[str]:
        names = self.module.constant("NAMES", f"frozenset({py_json(list(rules.known))})")
        key = self.module.variable("k")
        key_where = f"{where} + '/' + token({key})"
        if rules.additional is None:  # closed
            # The common closed object: one C-level subset test; the loop runs only to report.
            return [
                f"if not {names}.issuperset({value}):",
                f"    for {key} in {value}:",
                f"        if {key} not in {names}:",
                f"            {self.fail(key_where, CLOSED_RULE, f'{value}[{key}]')}",
            ]
        child = self.module.variable("v")
        checks = self.node(rules.additional, child, key_where, inlined)
        if not checks:
            return []
        return [
            f"for {key}, {child} in {value}.items():",
            f"    if {key} not in {names}:",
            *_indent(checks, 2),
        ]

    def array(
        self, rules: ArrayRules, value: str, where: str, inlined: tuple[str, ...]
    ) -> list[str]:
        body: list[str] = []
        for limit, operator in ((rules.min_items, "<"), (rules.max_items, ">")):
            if limit is not None:
                body += [
                    f"if len({value}) {operator} {limit.value}:",
                    "    " + self.fail(where, limit.rule, value),
                ]
        mark = self.module.variable("n")
        if rules.unique:
            body.append(f"{mark} = len(e)")
        for index, sub in enumerate(rules.prefix):
            child = self.module.variable("v")
            checks = self.node(sub, child, f"{where} + '/{index}'", inlined)
            if checks:
                body += [
                    f"if len({value}) > {index}:",
                    f"    {child} = {value}[{index}]",
                    *_indent(checks),
                ]
        if rules.items is not None:
            position, child = self.module.variable("i"), self.module.variable("v")
            item_where = f"{where} + '/' + str({position})"
            checks = self.node(rules.items, child, item_where, inlined)
            if checks:
                body += [
                    f"for {position} in range({len(rules.prefix)}, len({value})):",
                    f"    {child} = {value}[{position}]",
                    *_indent(checks),
                ]
        if rules.unique:
            # After the items, and only if they all held: a wrong item fails, fills the bound or
            # is reported before the whole array would be keyed, so a hostile array costs the
            # check of its items, never the keying of nested junk.
            body += [
                f"if len(e) == {mark} and not all_unique({value}):",
                "    " + self.fail(where, UNIQUE_RULE, value),
            ]
        return _guarded(f"isinstance({value}, list)", body)

    def branch(self, pointer: str) -> str:
        """The answering function deciding an alternative."""
        return self.module.function_at(pointer, collect=False)

    def combinators(
        self,
        node: Node,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool,
    ) -> list[str]:
        lines: list[str] = []
        for member in node.all_of:
            lines += self.node(member, value, where, inlined, strings_checked)
        if node.any_of:
            test = " or ".join(f"{self.branch(pointer)}({value})" for pointer in node.any_of)
            lines += [f"if not ({test}):", "    " + self.fail(where, node.any_of_rule, value)]
        if node.one_of is not None:
            lines += self.one_of(node.one_of, value, where, inlined)
        if node.negated is not None:
            lines += [
                f"if {self.branch(node.negated)}({value}):",
                "    " + self.fail(where, NOT_RULE, value),
            ]
        if node.conditional is not None:
            lines += self.if_then_else(node.conditional, value, where, inlined)
        return lines

    def if_then_else(
        self, conditional: Conditional, value: str, where: str, inlined: tuple[str, ...]
    ) -> list[str]:
        self.conditional += 1
        then = self.node(conditional.then, value, where, inlined) if conditional.then else []
        otherwise = (
            self.node(conditional.otherwise, value, where, inlined) if conditional.otherwise else []
        )
        self.conditional -= 1
        if not (then or otherwise):
            return []
        decide = f"{self.branch(conditional.test)}({value})"
        if conditional.condition is not None:
            # An object is decided inline; anything else by the answering function (which also
            # settles, say, a string's lone surrogate the same way).
            inline = _condition(conditional.condition, value, "object")
            decide = f"({inline} if isinstance({value}, dict) else {decide})"
        lines = [f"if {decide}:", *_indent(then or ["pass"])]
        if otherwise:
            lines += ["else:", *_indent(otherwise)]
        return lines

    def one_of(self, one_of: OneOf, value: str, where: str, inlined: tuple[str, ...]) -> list[str]:
        """Exactly one alternative holds. Decided by the answering functions; only a failed
        verdict runs the collecting ones to report. With a tag, only the alternative it names is
        checked."""
        if one_of.discriminator is None:
            matched = " + ".join(f"{self.branch(p)}({value})" for p in one_of.alternatives)
            return [f"if ({matched}) != 1:", "    " + self.report_one_of(one_of, value, where)]
        # Each alternative requires its own constant in one property: only the alternative that
        # constant names can hold, and its inlined collecting checks report nothing when it
        # holds, and what it lacks when it does not.
        name, constants = one_of.discriminator
        tag = self.module.variable("d")
        lines = [f"{tag} = {value}.get({py_str(name)}) if isinstance({value}, dict) else None"]
        for index, constant in enumerate(constants):
            keyword = "if" if index == 0 else "elif"
            self.conditional += 1
            checks = self.node(one_of.inline[index], value, where, inlined)
            self.conditional -= 1
            lines += [f"{keyword} {tag} == {py_str(constant)}:", *_indent(checks or ["pass"])]
        return [*lines, "else:", "    " + self.report_one_of(one_of, value, where)]

    def report_one_of(self, one_of: OneOf, value: str, where: str) -> str:
        names = [self.module.function_at(p, collect=True) for p in one_of.alternatives]
        return f"one_of(({', '.join(names)},), {value}, {where}, e)"

    def reference(
        self,
        ref: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool,
    ) -> list[str]:
        """A ``$ref``: its target's checks inlined, or a call when it is recursive, deep, large
        or past the function's budget (``EmittedModule.inline_cost``)."""
        cost = self.module.inline_cost(ref, self.expanded)
        if ref in inlined or len(inlined) >= _MAX_INLINE_DEPTH or cost is None:
            return [f"{self.module.function_at(ref, collect=True)}({value}, {where}, e)"]
        self.expanded += cost
        target = self.module.plan.nodes[ref]
        return self.node(target, value, where, (*inlined, ref), strings_checked)


def _string_set(module: _Module, values: tuple[Any, ...]) -> str:
    """The module constant holding a string enum's values as a frozenset."""
    return module.constant("ENUM", f"frozenset({py_json(sorted(set(values)))})")


class _Answer:
    """Emits an answering function (``_valid_N(v) -> bool``) for a plan node: the fewest tests
    that decide the common valid path. Every violation is ``return False``; statements after a
    check run only when it held, so the emitter tracks what is already known at each point:

    - the JSON type of a value (one ``isinstance`` per value, implied types tested first);
    - which properties are present (a required property is read by subscript, no lookup);
    - which (instance path, node pointer) pairs were already checked on the straight-line path
      (a node reached twice, as through ``allOf`` and ``properties``, is checked once).

    Closed objects take one key-set test (when every property is required: the size and one
    ``in`` a name, or ``keys() == NAMES`` past eight names), string enums one frozenset
    membership, patterns one bound ``match`` or ``search`` (or, for one negated class over the
    whole string, a search for a forbidden character); a pattern that can
    only match ASCII makes the lone-surrogate test redundant on the accepting path (a string
    holding a surrogate fails the pattern, and the collecting pass then reports both). A
    ``oneOf`` discriminated by a constant inlines the one alternative the tag names; a simple
    ``if`` becomes an inline condition.
    """

    def __init__(self, module: _Module) -> None:
        self.module = module
        self.plan = module.plan
        self.proven: set[tuple[tuple[str, ...], str]] = set()
        self.present: set[tuple[str, ...]] = set()
        self.types: dict[tuple[str, ...], str] = {}
        self.decided: set[str] = set()
        self.expanded = 0  # plan nodes of ``$ref`` targets inlined into the function so far

    def function(self, node: Node) -> list[str]:
        """The body of the answering function for ``node``."""
        self.proven, self.present, self.types, self.decided = set(), set(), {}, set()
        self.expanded = 0
        body = self.node(node, "v", (), 0, (node.at,))
        return [*body, "return True"]

    def node(  # noqa: PLR0912, PLR0917 - one branch per type family
        self,
        node: Node,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None = None,
    ) -> list[str]:
        """Statements returning ``False`` unless ``value`` is valid against ``node``.
        ``path`` names the value inside the function's argument (``None`` for array items);
        ``depth`` counts the conditional branches (if/then/else, oneOf) the code sits in."""
        if node.verdict == "any":
            return []
        if node.verdict == "none":
            return ["return False"]
        if path is not None and (path, node.at) in self.proven:
            return []
        if known is None and path is not None:
            known = self.types.get(path)
        lines: list[str] = []
        implied = implied_type(self.plan, node, alternatives=True)
        if implied is not None and not satisfies(known, implied):
            lines += [f"if {_negate(_type_test(implied, value))}:", "    return False"]
            known = implied
        if node.types is not None and not any(satisfies(known, name) for name in node.types):
            test = " or ".join(_type_test(name, value) for name in node.types)
            lines += [f"if {_negate(test)}:", "    return False"]
        if path is not None and known is not None and depth == 0:
            self.types[path] = known
        pinned = () if node.pinned is None else (node.pinned,)
        lines += self.values((*pinned, *node.values), value, known)
        string, number, objects, array = node.families
        for kind in TYPED_FAMILIES:
            if known is not None and not satisfies(known, kind):
                continue
            if kind == "string":
                checks = self.string(string, value)
                # Whether a string here may hold a lone surrogate is decided once per value:
                # by this node's test, or by a constant or ASCII-only pattern it must match.
                if (
                    value not in self.decided
                    and string.surrogates
                    and not string_pinned(self.plan, node)
                ):
                    checks = [
                        f"if not {value}.isascii() and SURROGATE.search({value}) is not None:",
                        "    return False",
                        *checks,
                    ]
                if depth == 0:
                    self.decided.add(value)
                accepts = _printable_ascii_accepts(string, value)
                if accepts is not None and len(checks) > 2:
                    # Most strings are printable ASCII of a fitting length: one test accepts
                    # them, and the separate tests run only for the rest.
                    checks = [f"if not ({accepts}):", *_indent(checks)]
            elif kind == "number":
                checks = self.number(number, value)
            elif kind == "object":
                checks = self.object(objects, value, path, depth, inlined)
            else:
                checks = self.array(array, value, depth, inlined)
            if not checks:
                continue
            if known is None:
                lines += [f"if {_type_test(kind, value)}:", *_indent(checks)]
            else:
                lines += checks
        lines += self.combinators(node, value, path, depth, inlined, known)
        if node.ref is not None:
            lines += self.reference(node.ref, value, path, depth, inlined, known)
        if path is not None and depth == 0:
            self.proven.add((path, node.at))
        return lines

    def values(self, rules: tuple[ValueRule, ...], value: str, known: str | None) -> list[str]:
        lines: list[str] = []
        for rule in rules:
            if rule.keyword == "const":
                test = _const_test(self.module, rule.values[0], value)
            elif rule.strings:
                test = f"{value} in {_string_set(self.module, rule.values)}"
                if known != "string":
                    test = f"isinstance({value}, str) and {test}"
            else:
                name = self.module.constant("ENUM", py_json(list(rule.values)))
                test = f"any(json_equal({value}, option) for option in {name})"
            lines += [f"if {_negate(test)}:", "    return False"]
        return lines

    def string(self, rules: StringRules, value: str) -> list[str]:
        body: list[str] = []
        low = rules.min_length.value if rules.min_length is not None else 0
        high = rules.max_length.value if rules.max_length is not None else None
        if low and high is not None:
            body += [f"if not ({low} <= len({value}) <= {high}):", "    return False"]
        elif low:
            body += [f"if len({value}) < {low}:", "    return False"]
        elif high is not None:
            body += [f"if len({value}) > {high}:", "    return False"]
        if rules.pattern is not None:
            # After the length test: an over-long string is never searched.
            test = _pattern_misses(self.module, rules.pattern, value)
            body += [f"if {test}:", "    return False"]
        return body

    @staticmethod
    def number(rules: NumberRules, value: str) -> list[str]:
        body: list[str] = []
        for limit, operator in ((rules.minimum, "<"), (rules.maximum, ">")):
            if limit is not None:
                body += [f"if {value} {operator} {py_json(limit.value)}:", "    return False"]
        return body

    def object(  # noqa: PLR0912 - required, closed and property shapes
        self,
        rules: ObjectRules,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
    ) -> list[str]:
        body: list[str] = []
        names = rules.required
        properties = [name for name, _ in rules.properties]
        if rules.closed and names and set(names) == set(properties):
            # Exactly the known keys: as many keys as known names, each of them present.
            known = sorted(set(rules.known))
            if len(known) <= _KEYS_TESTED_ONE_BY_ONE:
                lacks = _lacks_keys(self.module, known, value)
                body += [f"if len({value}) != {len(known)} or {lacks}:", "    return False"]
            else:
                allowed = self.module.constant("NAMES", f"frozenset({py_json(list(known))})")
                body += [f"if {value}.keys() != {allowed}:", "    return False"]
        else:
            if names:
                body += [f"if {_lacks_keys(self.module, names, value)}:", "    return False"]
            if rules.closed:
                allowed = self.module.constant("NAMES", f"frozenset({py_json(list(rules.known))})")
                body += [f"if not {allowed}.issuperset({value}):", "    return False"]
        present = set(names)
        if path is not None:
            if depth == 0:
                self.present.update((*path, name) for name in names)
            present.update(name for name in properties if (*path, name) in self.present)
        for name, sub in rules.properties:
            child_path = None if path is None else (*path, name)
            if sub.verdict == "none":
                if name in present:
                    body.append("return False")
                    break
                body += [f"if {py_str(name)} in {value}:", "    return False"]
                continue
            child = self.module.variable("v")
            checks = self.node(sub, child, child_path, depth, inlined)
            if not checks:
                continue
            fetch = f"{child} = {value}[{py_str(name)}]"
            if name in present:
                body += [fetch, *checks]
            else:
                body += [f"if {py_str(name)} in {value}:", f"    {fetch}", *_indent(checks)]
        if rules.additional is not None:
            known_names = self.module.constant("NAMES", f"frozenset({py_json(list(rules.known))})")
            key, child = self.module.variable("k"), self.module.variable("v")
            checks = self.node(rules.additional, child, None, depth + 1, inlined)
            if checks:
                body += [
                    f"for {key}, {child} in {value}.items():",
                    f"    if {key} not in {known_names}:",
                    *_indent(checks, 2),
                ]
        return body

    def array(
        self, rules: ArrayRules, value: str, depth: int, inlined: tuple[str, ...]
    ) -> list[str]:
        body: list[str] = []
        for limit, operator in ((rules.min_items, "<"), (rules.max_items, ">")):
            if limit is not None:
                body += [f"if len({value}) {operator} {limit.value}:", "    return False"]
        for index, sub in enumerate(rules.prefix):
            child = self.module.variable("v")
            checks = self.node(sub, child, None, depth + 1, inlined)
            if checks:
                body += [
                    f"if len({value}) > {index}:",
                    f"    {child} = {value}[{index}]",
                    *_indent(checks),
                ]
        item_type = None
        if rules.items is not None:
            child = self.module.variable("v")
            checks = self.node(rules.items, child, None, depth + 1, inlined)
            item_type = implied_type(self.plan, rules.items, alternatives=True)
            if checks and not rules.prefix:
                body += [f"for {child} in {value}:", *_indent(checks)]
            elif checks:
                body += [f"for {child} in {value}[{len(rules.prefix)}:]:", *_indent(checks)]
        if rules.unique:
            # After the items held: a refused item is never keyed. Strings (every item checked
            # to be one) compare as themselves: a set of them is the whole test.
            if item_type == "string" and not rules.prefix:
                # Two items (a common short list) are compared, not hashed into a set.
                count = self.module.variable("n")
                body += [
                    f"{count} = len({value})",
                    f"if {count} > 1 and ({value}[0] == {value}[1] if {count} == 2"
                    f" else len(set({value})) != {count}):",
                    "    return False",
                ]
            else:
                body += [f"if not all_unique({value}):", "    return False"]
        return body

    def combinators(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        node: Node,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        lines: list[str] = []
        for member in node.all_of:
            lines += self.node(member, value, path, depth, inlined, known)
        if node.any_of:
            test = " or ".join(f"{self.branch(pointer)}({value})" for pointer in node.any_of)
            lines += [f"if not ({test}):", "    return False"]
        if node.one_of is not None:
            lines += self.one_of(node.one_of, value, path, depth, inlined, known)
        if node.negated is not None:
            lines += [f"if {self.branch(node.negated)}({value}):", "    return False"]
        if node.conditional is not None:
            lines += self.if_then_else(node.conditional, value, path, depth, inlined, known)
        return lines

    def if_then_else(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        conditional: Conditional,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        then = otherwise = []
        if conditional.then is not None:
            then = self.node(conditional.then, value, path, depth + 1, inlined, known)
        if conditional.otherwise is not None:
            otherwise = self.node(conditional.otherwise, value, path, depth + 1, inlined, known)
        if not (then or otherwise):
            return []
        if conditional.condition is not None:
            test = _condition(conditional.condition, value, known)
        else:
            test = f"{self.branch(conditional.test)}({value})"
        lines = [f"if {test}:", *_indent(then or ["pass"])]
        if otherwise:
            lines += ["else:", *_indent(otherwise)]
        return lines

    def branch(self, pointer: str) -> str:
        return self.module.function_at(pointer, collect=False)

    def one_of(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        one_of: OneOf,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        if one_of.discriminator is None:
            matched = " + ".join(f"{self.branch(p)}({value})" for p in one_of.alternatives)
            return [f"if ({matched}) != 1:", "    return False"]
        # Only the alternative the tag names can hold (each requires its own constant there):
        # its checks are inlined, and a tag naming none fails.
        name, constants = one_of.discriminator
        tag = self.module.variable("d")
        lines = [
            f"{tag} = {value}.get({py_str(name)})"
            if known == "object"
            else f"{tag} = {value}.get({py_str(name)}) if isinstance({value}, dict) else None"
        ]
        for index, constant in enumerate(constants):
            # Inside the branch the tag's test has settled the alternative's constant: its
            # property is proven there (and only there).
            tagged = None
            if path is not None:
                target = one_of.targets[index]
                tagged = ((*path, name), f"{target}/properties/{escape_token(name)}")
                if tagged in self.proven:
                    tagged = None
                else:
                    self.proven.add(tagged)
            checks = self.node(one_of.inline[index], value, path, depth + 1, inlined, known)
            if tagged is not None:
                self.proven.discard(tagged)
            keyword = "if" if index == 0 else "elif"
            lines += [f"{keyword} {tag} == {py_str(constant)}:", *_indent(checks or ["pass"])]
        return [*lines, "else:", "    return False"]

    def reference(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        ref: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        """A ``$ref``: its target's checks inlined, or a call when it is recursive, deep, large
        or past the function's budget (``EmittedModule.inline_cost``)."""
        cost = self.module.inline_cost(ref, self.expanded)
        if ref in inlined or len(inlined) >= _MAX_INLINE_DEPTH or cost is None:
            return [f"if not {self.branch(ref)}({value}):", "    return False"]
        self.expanded += cost
        target = self.plan.nodes[ref]
        return self.node(target, value, path, depth, (*inlined, ref), known)


def _negate(test: str) -> str:
    """``not (test)``, spelled the way a person would for the simple shapes the compiler emits."""
    for operator, negated in ((" == ", " != "), (" is ", " is not "), (" in ", " not in ")):
        left, found, right = test.partition(operator)
        if found and re.fullmatch(r"[\w.]+", left) and re.fullmatch(r"[\w.\"' -]+", right):
            return left + negated + right
    if re.fullmatch(r"isinstance\(\w+, \w+\)", test):
        return "not " + test
    return f"not ({test})"


def _const_test(module: _Module, const: Any, value: str) -> str:
    """A test that ``value`` equals ``const`` under JSON equality (``true`` is not ``1``)."""
    if isinstance(const, str):
        return f"{value} == {py_str(const)}"  # only a string equals a string
    if const is None or isinstance(const, bool):
        return f"{value} is {const!r}"
    return f"json_equal({value}, {module.constant('CONST', py_json(const))})"


def _condition(condition: Condition, value: str, known: str | None) -> str:
    """The inline boolean expression deciding a simple ``if`` (a ``plan.Condition``); a value
    not known to be an object passes it unless it is one (only an object can fail it)."""
    terms = [f"{py_str(name)} in {value}" for name in condition.required]
    for name, const in condition.pins:
        item = f"{value}[{py_str(name)}]"
        test = f"{item} == {py_str(const)}" if isinstance(const, str) else f"{item} is {const!r}"
        if name in condition.required:
            terms.append(test)
        else:
            terms.append(f"({py_str(name)} not in {value} or {test})")
    text = " and ".join(terms)
    if known != "object":
        text = f"(not isinstance({value}, dict) or ({text}))"
    return f"({text})"


# Up to this many required names are tested one ``in`` at a time (about 10 ns each); more, by
# one key-set comparison (about 70 ns, then a few ns a name).
_KEYS_TESTED_ONE_BY_ONE = 8


def _has_keys(module: _Module, names: Iterable[str], value: str) -> str:
    """A parenthesised test that the object ``value`` has every key in ``names``."""
    wanted = sorted(names)
    if len(wanted) <= _KEYS_TESTED_ONE_BY_ONE:
        return "(" + " and ".join(f"{py_str(name)} in {value}" for name in wanted) + ")"
    return f"({value}.keys() >= {module.constant('NAMES', f'frozenset({py_json(wanted)})')})"


def _lacks_keys(module: _Module, names: Iterable[str], value: str) -> str:
    """A test that the object ``value`` lacks a key in ``names``."""
    wanted = sorted(names)
    if len(wanted) == 1:
        return f"{py_str(wanted[0])} not in {value}"
    return f"not {_has_keys(module, wanted, value)}"


def _pattern_test(module: _Module, pattern: Pattern, value: str, *, matches: bool) -> str:
    """A test that the string ``value`` matches the pattern (``matches``) or misses it; with a
    ``plan.FastPath``, the shorter pattern decides a string lacking a literal of each group (the
    lookaheads it drops cannot refuse such a string)."""
    full = _pattern_call(module, pattern.python)
    if pattern.fast is None:
        return full.test(value, matches=matches)
    fast = _pattern_call(module, pattern.fast.python)
    lacks = pattern.fast.lacking(lambda literal: f"{py_str(literal)} not in {value}", "or", "and")
    if fast.forbidden is None and full.forbidden is None:
        # Both answer by a match object: the call is chosen, then made once.
        found = f"({fast.name} if {lacks} else {full.name})({value})"
        return f"{found} {'is not' if matches else 'is'} None"
    fast_test, full_test = fast.test(value, matches=matches), full.test(value, matches=matches)
    return f"(({fast_test}) if {lacks} else ({full_test}))"


@dataclass(frozen=True)
class _PatternCall:
    """A module constant deciding a Python pattern: its bound ``match`` or ``search`` (a match
    object when the string matches), or, for one negated class over the whole string, the bound
    ``search`` of its forbidden characters (``forbidden``: the fewest characters the pattern
    needs; a match object when the string does NOT match)."""

    name: str
    forbidden: int | None

    def test(self, value: str, *, matches: bool) -> str:
        if self.forbidden is None:
            return f"{self.name}({value}) {'is not' if matches else 'is'} None"
        if matches:
            clean = f"{self.name}({value}) is None"
            return f"({value} and {clean})" if self.forbidden else clean
        found = f"{self.name}({value}) is not None"
        return f"(not {value} or {found})" if self.forbidden else found


def _pattern_call(module: _Module, source: str) -> _PatternCall:
    """The cheapest call giving ``search``'s answer for the Python pattern ``source``: for one
    negated class over the whole string, a search for one forbidden character
    (``forbidden_characters``); for a pattern anchored at the start, its bound ``match``; else
    its bound ``search``. Each is a module constant (one global load per use instead of a global
    and an attribute)."""
    forbidden = forbidden_characters(source)
    if forbidden is not None:
        characters, least = forbidden
        call = f"re.compile({py_str(characters)}, re.ASCII).search"
        return _PatternCall(module.constant("FORBIDDEN", call), least)
    method = "match" if anchored_at_start(source) else "search"
    call = f"re.compile({py_str(source)}, re.ASCII).{method}"
    return _PatternCall(module.constant(method.upper(), call), None)


def _pattern_misses(module: _Module, pattern: Pattern, value: str) -> str:
    """A test that the string ``value`` does not match the pattern: its bound ``search``, after
    a C-speed shortcut when ``printable_ascii_matches`` proves every printable ASCII string
    (non-empty where the pattern needs a character) matches (a display name, say)."""
    search = _pattern_test(module, pattern, value, matches=False)
    least = printable_ascii_matches(pattern.python)
    if least is None:
        return search
    shortcut = f"{value}.isascii() and {value}.isprintable()"
    if least:
        shortcut = f"{value} and {shortcut}"
    return f"not ({shortcut}) and {search}"


def _printable_ascii_accepts(rules: StringRules, value: str) -> str | None:
    """A test that the string ``value`` passes every check of ``rules`` because it is printable
    ASCII of a length the limits and the pattern allow (ASCII holds no lone surrogate, and
    ``printable_ascii_matches`` proves the pattern matches any such string long enough); ``None``
    when the pattern gives no such proof."""
    least = 0
    if rules.pattern is not None:
        found = printable_ascii_matches(rules.pattern.python)
        if found is None:
            return None
        least = found
    low = max(least, int(rules.min_length.value) if rules.min_length is not None else 0)
    high = int(rules.max_length.value) if rules.max_length is not None else None
    terms = [f"{value}.isascii()", f"{value}.isprintable()", *_length_terms(low, high, value)]
    return " and ".join(terms)


def _length_terms(low: float, high: float | None, value: str) -> list[str]:
    """The test that ``len(value)`` lies within ``low`` (0: none) and ``high`` (``None``: none),
    as at most one term."""
    if low and high is not None:
        return [f"{low} <= len({value}) <= {high}"]
    if low:
        return [f"len({value}) >= {low}"]
    if high is not None:
        return [f"len({value}) <= {high}"]
    return []


def _pattern_matches(module: _Module, pattern: Pattern, value: str) -> str:
    """The negation of ``_pattern_misses``: the string ``value`` matches the pattern."""
    search = _pattern_test(module, pattern, value, matches=True)
    least = printable_ascii_matches(pattern.python)
    if least is None:
        return search
    shortcut = f"{value}.isascii() and {value}.isprintable()"
    if least:
        shortcut = f"{value} and {shortcut}"
    return f"(({shortcut}) or {search})"


# A property whose collecting checks can report this many records is decided by its answering
# function first (fewer: a string or a constant, whose own tests are as cheap).
_GUARDED_REPORTS = 6


def _reports(lines: list[str]) -> int:
    """How many places in ``lines`` report a violation."""
    return sum(line.lstrip().startswith(("e.append(", "one_of(")) for line in lines)


def _guarded(test: str, body: list[str]) -> list[str]:
    return [f"if {test}:", *_indent(body)] if body else []


def _indent(lines: list[str], levels: int = 1) -> list[str]:
    return ["    " * levels + line for line in lines]


_RUNTIME_HELPERS = (
    "MISSING",
    "SURROGATE",
    "Violations",
    "all_unique",
    "checked_limit",
    "collect",
    "surrogate_at",
    "json_equal",
    "one_of",
    "report",
    "token",
)


def _mentions(code: str, name: str) -> bool:
    return re.search(rf"\b{name}\b", code) is not None


def compile_validators(
    schema: Mapping[str, Any],
    entry_points: Mapping[str, str],
    *,
    package: str = ".",
) -> str:
    """Source of a validator module: ``{function name: schema pointer}`` become public functions.

    ``package`` is where ``diagnostics`` and ``schema_runtime`` are imported from (``"."`` inside
    the generated package). Raises ``CompileError`` for a schema outside the supported subset.
    """
    return python_validators(build_plan(schema, entry_points), package=package)


def _answered_first(accepted: str, valid: str) -> list[str]:
    """An entry point's opening: ``return valid`` when the test ``accepted`` holds."""
    return [
        "    try:",
        "        # Most documents are valid: answer first, collect only for a failure.",
        f"        if {accepted}:",
        f"            return {valid}",
        "    except RecursionError:",
        "        pass  # reported by the collecting pass below",
    ]


def _raw_violations_name(entry_name: str) -> str:
    """The private twin of the entry point ``entry_name`` that returns its raw violations (the
    loader template imports the third-party entry's twin by this name)."""
    return f"_violations_of_{entry_name}"


def python_validators(plan: Plan, *, package: str = ".") -> str:
    """``compile_validators`` over a plan already built (the generator builds one per schema
    and hands it to both language backends)."""
    module = _Module(plan)
    collecting = _Collect(module)
    answering = _Answer(module)
    public: list[str] = []
    for entry in plan.entry_points:
        name, walk = entry.name, entry.walk
        target = module.function_at(entry.pointer, collect=True)
        answer = module.function_at(entry.pointer, collect=False)
        # A schema that leaves some position unconstrained cannot see every string: an
        # accepted document is then walked once for lone surrogates.
        accepted = (
            f"{answer}(value) and surrogate_at(value) is None" if walk else f"{answer}(value)"
        )
        # The public function and its raw twin decide alike; the twin collects into the
        # caller's kind of ``Violations`` (which decides what is kept) and makes no record, for
        # the loader, which makes records of its own.
        public += [
            "",
            "",
            f"def {name}(",
            "    value: Any, limit: int = MAX_DIAGNOSTICS_PER_FILE",
            ") -> tuple[Diagnostic, ...]:",
            '    """The violations of ``value`` (empty when it is valid): at most ``limit``,',
            "    then one ``TOO_MANY_DIAGNOSTICS`` record, since checking stops at the limit.",
            '    """',
            "    if type(limit) is not int:",
            "        limit = checked_limit(limit)  # a number, else a TypeError naming it",
            *_answered_first(accepted, "()"),
            f"    return report(collect({target}, value, Violations(limit), walk={walk}))",
            "",
            "",
            f"def {_raw_violations_name(name)}(",
            "    value: Any, limit: int, collector: type[Violations] = Violations",
            ") -> Violations | None:",
            f'    """What ``{name}`` finds, as raw violations in a ``collector`` of',
            "    ``limit`` (an ``int`` above 0; made only for a failure), or ``None`` when",
            "    ``value`` is valid. No record is made yet.",
            '    """',
            *_answered_first(accepted, "None"),
            f"    return collect({target}, value, collector(limit), walk={walk})",
        ]
    while module.pending:
        node, name, collect = module.pending.pop(0)
        if collect:
            body = collecting.function(node)
            signature = f"def {name}(v: Any, p: str, e: Violations) -> None:"
        else:
            body = answering.function(node)
            signature = f"def {name}(v: Any) -> bool:"
        module.function_bodies.append(["", "", signature, *_indent(body or ["pass"])])
    code = [*module.constants]
    for body in module.function_bodies:
        code += body
    code += public
    text = "\n".join(code)
    helpers = [name for name in _RUNTIME_HELPERS if _mentions(text, name)]
    prefix = "." if package == "." else package + "."
    lines = [
        '"""Validators compiled from the JSON Schema by toolgen; standard library only."""',
        "",
        "# Straight-line generated checks: long, deeply branched functions are the point.",
        "# ruff: noqa: E501, PLR0912, PLR0915, SIM102, SIM103, RUF100",
        "",
        "from __future__ import annotations",
        "",
        *(["import re", ""] if "re.compile(" in text else []),
        "from typing import Any",
        "",
        f"from {prefix}diagnostics import MAX_DIAGNOSTICS_PER_FILE, Diagnostic",
        f"from {prefix}schema_runtime import {', '.join(helpers)}",
        "",
        *code,
    ]
    return "\n".join(lines) + "\n"

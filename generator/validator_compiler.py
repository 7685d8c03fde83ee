"""Compile a JSON Schema (draft 2020-12, a declared keyword subset) into standalone Python.

``compile_validators(schema, entry_points)`` returns the source of a module with one public
function per entry point, ``name(value) -> tuple[Diagnostic, ...]`` (empty = valid), reporting
every violation with its instance pointer and schema keyword. The module needs only the standard
library and the package's ``diagnostics`` and ``schema_runtime`` modules.

Contract:
- Only ``SUPPORTED_KEYWORDS`` and ``ANNOTATIONS`` may appear in a schema. Anything else (and any
  ``$ref`` that is not a same-document pointer, any ``$id`` below the root, a pattern the
  ``ecma_to_re`` translation refuses) raises ``CompileError`` naming the keyword and the schema
  pointer: a keyword is never silently ignored.
- Schema text reaches the output only as escaped string literals (``literals.py_str``) or as
  numbers; nothing from the schema lands in a comment or an identifier.
- Checks are inlined into straight-line code; a child's instance pointer is only built when a
  violation is reported, so a valid document costs little more than the comparisons themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.ecma_to_re import RegexError, translate
from generator.literals import py_json, py_str
from generator.plan import admits_free_strings, discriminator, examines_every_string, short
from generator.regex_facts import matches_only_ascii, printable_ascii_matches
from generator.schema_subset import (
    ANNOTATIONS,
    JSON_TYPES,
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
class _Module:
    """The output being assembled: constants, functions, and the counters naming them."""

    schema: Mapping[str, Any]
    constants: list[str] = field(default_factory=list)
    constant_names: dict[str, str] = field(default_factory=dict)
    functions: dict[tuple[str, bool], str] = field(default_factory=dict)
    function_bodies: list[list[str]] = field(default_factory=list)
    pending: list[tuple[str, str, bool]] = field(default_factory=list)
    variables: int = 0

    def constant(self, prefix: str, expression: str) -> str:
        key = prefix + expression
        if key not in self.constant_names:
            name = f"_{prefix}{len(self.constant_names)}"
            self.constant_names[key] = name
            self.constants.append(f"{name} = {expression}")
        return self.constant_names[key]

    def variable(self, prefix: str) -> str:
        self.variables += 1
        return f"{prefix}{self.variables}"

    def function_for(self, pointer: str, *, collect: bool) -> str:
        """The name of the function for the subschema at ``pointer`` (compiled later): one that
        collects diagnostics (``_check_N(v, p, e)``) or one that only answers
        (``_valid_N(v) -> bool``, stopping at the first violation)."""
        key = (pointer, collect)
        if key not in self.functions:
            name = f"{'_check' if collect else '_valid'}_{len(self.functions)}"
            self.functions[key] = name
            self.pending.append((pointer, name, collect))
        return self.functions[key]


class _Compiler:
    """Emits the statements checking one subschema against the value held in a variable.

    With ``collect`` a violation appends a ``Violation`` tuple to ``e`` and checking goes on;
    without it a violation returns ``False`` at once. Alternatives (``anyOf``, ``oneOf``, ``not``,
    ``if``) are always decided by the answering functions, so a valid document never builds a
    record for the alternative it does not take; violations are collected only once a verdict is
    a failure.
    """

    def __init__(self, module: _Module, *, collect: bool) -> None:
        self.module = module
        self.collect = collect
        # (instance pointer expression, subschema pointer) pairs already checked on the
        # function's straight-line path (``conditional`` counts the branches the code sits in):
        # reached again (a ``$ref`` through ``allOf`` and through a ``oneOf`` tag, say), the
        # check could only report the same records again, so it is not emitted twice. The
        # pointer expression also says how the value was reached (a property, ``"/0"``, is
        # spelled apart from a ``prefixItems`` position, ``'/0'``), so two routes to one
        # location agree on the guards they sit under.
        self.proven: set[tuple[str, str]] = set()
        self.conditional = 0

    def node(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Any,
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool = False,
    ) -> list[str]:
        """Statements checking ``value`` (a variable) against ``schema``; ``where`` is a Python
        expression for the instance pointer, evaluated only when a violation is reported.
        ``strings_checked``: an enclosing node on this straight-line path already tests a string
        ``value`` for lone surrogates (the same record: this node does not test it again)."""
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return []
        if schema is False:
            return [self.fail(where, "false", "nothing (false schema)", value)]
        if self.collect and (where, at) in self.proven:
            return []
        surrogates = not strings_checked and admits_free_strings(schema)
        typed = {
            "string": self.string_checks(schema, at, value, where, surrogates=surrogates),
            "number": self.number_checks(schema, at, value, where),
            "object": self.object_checks(schema, at, value, where, inlined),
            "array": self.array_checks(schema, at, value, where, inlined),
        }
        lines = self.value_checks(schema, at, value, where)
        declared = self.declared_types(schema, at)
        pinned = self.string_pinned_checks(schema, value, where)
        if declared == ["string"] and pinned is not None:
            # A string constant or string enum: one type test decides both records (a value of
            # another type fails ``type`` and then the constant, in that order, as before).
            inside, outside = pinned
            lines = [
                f"if {_type_test('string', value)}:",
                *typed["string"][1:],  # already indented under its own type test
                *_indent(inside),
                "else:",
                "    " + self.fail(where, "type", "string", value),
                *_indent(outside),
            ]
        elif declared is not None and len(declared) == 1 and declared[0] in typed:
            # One declared type: its checks run in the success branch of the type test, and the
            # other types' checks are dead code (their guards could never hold).
            only = declared[0]
            body = typed[only][1:] if typed[only] else []
            lines = [
                f"if {_type_test(only, value)}:",
                *(body or ["    pass"]),
                "else:",
                "    " + self.fail(where, "type", only, value),
                *lines,
            ]
        else:
            if declared is not None:
                test = " or ".join(_type_test(name, value) for name in declared)
                lines = [
                    f"if not ({test}):",
                    "    " + self.fail(where, "type", " or ".join(declared), value),
                    *lines,
                ]
            for checks in typed.values():
                lines += checks
        checked = strings_checked or surrogates
        lines += self.combinators(schema, at, value, where, inlined, checked)
        if "$ref" in schema:
            lines += self.reference(schema["$ref"], f"{at}/$ref", value, where, inlined, checked)
        if self.collect and not self.conditional:
            self.proven.add((where, at))
        return lines

    def string_pinned_checks(
        self, schema: Mapping[str, Any], value: str, where: str
    ) -> tuple[list[str], list[str]] | None:
        """For a ``const`` string or an all-string ``enum`` (and no other value keyword): the
        statements for a string ``value`` and for a value of another type (which always fails
        it); ``None`` otherwise."""
        if ("const" in schema) == ("enum" in schema):
            return None
        if "const" in schema:
            const = schema["const"]
            if not isinstance(const, str):
                return None
            test, keyword, expected = f"{value} != {py_str(const)}", "const", short(const)
        else:
            options = schema["enum"]
            if not isinstance(options, list) or not options:
                return None
            if not all(isinstance(option, str) for option in options):
                return None
            name = self.module.constant("ENUM", f"frozenset({py_json(sorted(set(options)))})")
            test, keyword, expected = f"{value} not in {name}", "enum", "one of " + short(options)
        report = self.fail(where, keyword, expected, value)
        return [f"if {test}:", f"    {report}"], [report]

    def fail(self, where: str, keyword: str, expected: str, value: str) -> str:
        if not self.collect:
            return "return False"
        return f"e.append(({where}, {py_str(keyword)}, {py_str(expected)}, {value}))"

    @staticmethod
    def declared_types(schema: Mapping[str, Any], at: str) -> list[str] | None:
        if "type" not in schema:
            return None
        declared = schema["type"]
        names = declared if isinstance(declared, list) else [declared]
        if not names or any(name not in JSON_TYPES for name in names):
            raise CompileError(f"type {declared!r} names no JSON type", f"{at}/type", "type")
        return [str(name) for name in names]

    def value_checks(self, schema: Mapping[str, Any], at: str, value: str, where: str) -> list[str]:
        lines: list[str] = []
        if "const" in schema:
            const = schema["const"]
            if isinstance(const, str):
                test = f"isinstance({value}, str) and {value} == {py_str(const)}"
            else:
                name = self.module.constant("CONST", py_json(const))
                test = f"json_equal({value}, {name})"
            expected = short(const)
            lines += [f"if not ({test}):", "    " + self.fail(where, "const", expected, value)]
        if "enum" in schema:
            options = schema["enum"]
            if not isinstance(options, list):
                raise CompileError("enum must be an array", f"{at}/enum", "enum")
            if options and all(isinstance(option, str) for option in options):
                name = self.module.constant("ENUM", f"frozenset({py_json(sorted(set(options)))})")
                test = f"isinstance({value}, str) and {value} in {name}"
            else:
                name = self.module.constant("ENUM", py_json(options))
                test = f"any(json_equal({value}, option) for option in {name})"
            expected = "one of " + short(options)
            lines += [f"if not ({test}):", "    " + self.fail(where, "enum", expected, value)]
        return lines

    def string_checks(
        self, schema: Mapping[str, Any], at: str, value: str, where: str, *, surrogates: bool
    ) -> list[str]:
        body: list[str] = []
        if surrogates:
            # I-JSON (RFC 7493): a lone surrogate has no UTF-8 encoding and breaks every later
            # consumer (print, encode, subprocess). isascii() answers most strings in O(1).
            body += [
                f"if not {value}.isascii() and SURROGATE.search({value}) is not None:",
                "    " + self.fail(where, SURROGATE_KEYWORD, "no lone surrogate", value),
            ]
        if "minLength" in schema:
            limit = schema_limit(schema, at, "minLength")
            body += [
                f"if len({value}) < {limit}:",
                "    " + self.fail(where, "minLength", f"at least {limit} characters", value),
            ]
        if "maxLength" in schema:
            limit = schema_limit(schema, at, "maxLength")
            body += [
                f"if len({value}) > {limit}:",
                "    " + self.fail(where, "maxLength", f"at most {limit} characters", value),
            ]
        source = _pattern_source(schema, at)
        if source is not None:
            pattern = schema["pattern"]
            expected = "to match " + short(pattern)
            # A string already too long is not searched too: a hostile 64 KiB value costs the
            # length test, not a scan (and the report already says what is wrong with it).
            test = _pattern_misses(self.module, source, value)
            if "maxLength" in schema and self.collect:
                test = f"len({value}) <= {schema_limit(schema, at, 'maxLength')} and {test}"
            body += [f"if {test}:", "    " + self.fail(where, "pattern", expected, value)]
        if self.collect and len(body) > 2:
            # Most strings pass: one test of the accepting case (as the answering functions make
            # it) runs first, and the separate tests only for a string that fails it.
            body = [f"if {self.string_fails(schema, at, value, surrogates)}:", *_indent(body)]
        return _guarded(f"isinstance({value}, str)", body)

    def string_fails(self, schema: Mapping[str, Any], at: str, value: str, surrogates: bool) -> str:
        """A test that the string ``value`` fails a check ``string_checks`` makes: when it does
        not hold, none of them would report (a lone surrogate is ruled out by ``isascii`` or by
        a match of a pattern that only matches ASCII)."""
        terms: list[str] = []
        source = _pattern_source(schema, at)
        if surrogates and (source is None or not matches_only_ascii(source)):
            terms.append(f"{value}.isascii()")
        low = schema_limit(schema, at, "minLength") if "minLength" in schema else 0
        high = schema_limit(schema, at, "maxLength") if "maxLength" in schema else None
        if low and high is not None:
            terms.append(f"{low} <= len({value}) <= {high}")
        elif low:
            terms.append(f"len({value}) >= {low}")
        elif high is not None:
            terms.append(f"len({value}) <= {high}")
        if source is None:
            return f"not ({' and '.join(terms)})"
        if not terms:
            return _pattern_misses(self.module, source, value)
        terms.append(_pattern_matches(self.module, source, value))
        return f"not ({' and '.join(terms)})"

    def number_checks(
        self, schema: Mapping[str, Any], at: str, value: str, where: str
    ) -> list[str]:
        body: list[str] = []
        if "minimum" in schema:
            limit = py_json(schema_number(schema, at, "minimum"))
            body += [
                f"if {value} < {limit}:",
                "    " + self.fail(where, "minimum", f"at least {limit}", value),
            ]
        if "maximum" in schema:
            limit = py_json(schema_number(schema, at, "maximum"))
            body += [
                f"if {value} > {limit}:",
                "    " + self.fail(where, "maximum", f"at most {limit}", value),
            ]
        return _guarded(_type_test("number", value), body)

    def object_checks(
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
    ) -> list[str]:
        body: list[str] = []
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
            raise CompileError("required must be an array of strings", f"{at}/required")
        names = list(dict.fromkeys(required))
        if names:
            # One C-level test that every required key is present; the names are checked one by
            # one only to report the missing ones.
            wanted = self.module.constant("NAMES", f"frozenset({py_json(sorted(names))})")
            body.append(f"if not ({value}.keys() >= {wanted}):")
            if not self.collect:
                body.append("    return False")
            for name in names if self.collect else ():
                body += [
                    f"    if {py_str(name)} not in {value}:",
                    "        " + self.fail(where, "required", f"property {short(name)}", value),
                ]
        properties: Mapping[str, Any] = schema.get("properties", {})
        for name, sub in properties.items():
            child = self.module.variable("v")
            sub_at = f"{at}/properties/{escape_token(name)}"
            child_where = f"{where} + {py_str('/' + escape_token(name))}"
            checks = self.node(sub, sub_at, child, child_where, inlined)
            if checks and self.collect and _reports(checks) >= _GUARDED_REPORTS:
                # Most properties of an invalid document hold: the answering function decides
                # a nested object or array first, and its violations are collected only when it
                # fails (it holds exactly when they would report nothing).
                checks = [f"if not {self.branch(sub_at)}({child}):", *_indent(checks)]
            if checks:
                body += [
                    f"{child} = {value}.get({py_str(name)}, MISSING)",
                    f"if {child} is not MISSING:",
                    *_indent(checks),
                ]
        if "additionalProperties" in schema:
            body += self.additional(schema, at, value, where, inlined=inlined, known=properties)
        return _guarded(f"isinstance({value}, dict)", body)

    def additional(
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        where: str,
        *,
        inlined: tuple[str, ...],
        known: Mapping[str, Any],
    ) -> list[str]:
        extra = schema["additionalProperties"]
        names = self.module.constant("NAMES", f"frozenset({py_json(sorted(known))})")
        key = self.module.variable("k")
        key_where = f"{where} + '/' + token({key})"
        if extra is False:
            # The common closed object: one C-level subset test; the loop runs only to report.
            report = self.fail(
                key_where, "additionalProperties", "no such property", f"{value}[{key}]"
            )
            if not self.collect:
                return [f"if not {names}.issuperset({value}):", f"    {report}"]
            return [
                f"if not {names}.issuperset({value}):",
                f"    for {key} in {value}:",
                f"        if {key} not in {names}:",
                f"            {report}",
            ]
        child = self.module.variable("v")
        checks = self.node(extra, f"{at}/additionalProperties", child, key_where, inlined)
        if not checks:
            return []
        return [
            f"for {key}, {child} in {value}.items():",
            f"    if {key} not in {names}:",
            *_indent(checks, 2),
        ]

    def array_checks(
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
    ) -> list[str]:
        body: list[str] = []
        if "minItems" in schema:
            limit = schema_limit(schema, at, "minItems")
            body += [
                f"if len({value}) < {limit}:",
                "    " + self.fail(where, "minItems", f"at least {limit} items", value),
            ]
        if "maxItems" in schema:
            limit = schema_limit(schema, at, "maxItems")
            body += [
                f"if len({value}) > {limit}:",
                "    " + self.fail(where, "maxItems", f"at most {limit} items", value),
            ]
        unique = schema.get("uniqueItems") is True
        mark = self.module.variable("n")
        if unique and self.collect:
            body.append(f"{mark} = len(e)")
        prefix = schema.get("prefixItems", [])
        for index, sub in enumerate(prefix):
            child = self.module.variable("v")
            checks = self.node(
                sub, f"{at}/prefixItems/{index}", child, f"{where} + '/{index}'", inlined
            )
            if checks:
                body += [
                    f"if len({value}) > {index}:",
                    f"    {child} = {value}[{index}]",
                    *_indent(checks),
                ]
        if "items" in schema:
            position, child = self.module.variable("i"), self.module.variable("v")
            checks = self.node(
                schema["items"], f"{at}/items", child, f"{where} + '/' + str({position})", inlined
            )
            if checks and not self.collect and not prefix:
                body += [f"for {child} in {value}:", *_indent(checks)]
            elif checks:
                body += [
                    f"for {position} in range({len(prefix)}, len({value})):",
                    f"    {child} = {value}[{position}]",
                    *_indent(checks),
                ]
        if unique:
            # After the items, and (when collecting) only if they all held: a wrong item fails,
            # fills the bound or is reported before the whole array would be keyed, so a
            # hostile array costs the check of its items, never the keying of nested junk.
            test = f"not all_unique({value})"
            if self.collect:
                test = f"len(e) == {mark} and {test}"
            body += [f"if {test}:", "    " + self.fail(where, "uniqueItems", "unique items", value)]
        return _guarded(f"isinstance({value}, list)", body)

    def branch(self, at: str) -> str:
        """The answering function deciding an alternative."""
        return self.module.function_for(at, collect=False)

    def combinators(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool = False,
    ) -> list[str]:
        lines: list[str] = []
        for index, sub in enumerate(schema.get("allOf", [])):
            lines += self.node(sub, f"{at}/allOf/{index}", value, where, inlined, strings_checked)
        if "anyOf" in schema:
            checks = [self.branch(f"{at}/anyOf/{i}") for i in range(len(schema["anyOf"]))]
            test = " or ".join(f"{check}({value})" for check in checks)
            expected = f"to match at least one of {len(checks)} alternatives"
            lines += [f"if not ({test}):", "    " + self.fail(where, "anyOf", expected, value)]
        if "oneOf" in schema:
            lines += self.one_of(schema["oneOf"], f"{at}/oneOf", value, where, inlined)
        if "not" in schema:
            check = self.branch(f"{at}/not")
            expected = "not to match the 'not' schema"
            lines += [
                f"if {check}({value}):",
                "    " + self.fail(where, "not", expected, value),
            ]
        if "if" in schema:
            self.conditional += 1
            then = self.node(schema.get("then", True), f"{at}/then", value, where, inlined)
            otherwise = self.node(schema.get("else", True), f"{at}/else", value, where, inlined)
            self.conditional -= 1
            if then or otherwise:
                decide = f"{self.branch(f'{at}/if')}({value})"
                condition = _condition(schema["if"], value, "object") if self.collect else None
                if condition is not None:
                    # An object is decided inline; anything else by the answering function
                    # (which also settles, say, a string's lone surrogate the same way).
                    decide = f"({condition} if isinstance({value}, dict) else {decide})"
                lines += [f"if {decide}:"]
                lines += _indent(then or ["pass"])
                if otherwise:
                    lines += ["else:", *_indent(otherwise)]
        return lines

    def one_of(
        self,
        alternatives: list[Any],
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...] = (),
    ) -> list[str]:
        """Exactly one alternative holds. Decided by the answering functions; only a failed
        verdict runs the collecting ones to report. With a tag (below), only the alternative it
        names is checked."""
        count = len(alternatives)
        reporters = [f"{at}/{i}" for i in range(count)]
        tagged = discriminator(self.module.schema, alternatives, at)
        if tagged is None:
            checks = [self.branch(f"{at}/{i}") for i in range(count)]
            matched = " + ".join(f"{check}({value})" for check in checks)
            return [f"if ({matched}) != 1:", "    " + self.report_one_of(reporters, value, where)]
        # Each alternative requires its own constant in one property: only the alternative that
        # constant names can hold, so only that one is tried, and its violations are reported.
        name, constants = tagged
        tag = self.module.variable("d")
        lines = [f"{tag} = {value}.get({py_str(name)}) if isinstance({value}, dict) else None"]
        if not self.collect:
            checks = [self.branch(f"{at}/{i}") for i in range(count)]
            tried = " or ".join(
                f"({tag} == {py_str(constant)} and {check}({value}))"
                for constant, check in zip(constants, checks, strict=True)
            )
            return [*lines, f"if not ({tried}):", "    return False"]
        # The named alternative's collecting checks are inlined: they report nothing when it
        # holds, and what it lacks when it does not.
        for index, constant in enumerate(constants):
            keyword = "if" if index == 0 else "elif"
            self.conditional += 1
            checks = self.node(alternatives[index], reporters[index], value, where, inlined)
            self.conditional -= 1
            lines += [f"{keyword} {tag} == {py_str(constant)}:", *_indent(checks or ["pass"])]
        return [*lines, "else:", "    " + self.report_one_of(reporters, value, where)]

    def report_one_of(self, alternatives: list[str], value: str, where: str) -> str:
        if not self.collect:
            return "return False"
        names = [self.module.function_for(at, collect=True) for at in alternatives]
        return f"one_of(({', '.join(names)},), {value}, {where}, e)"

    def reference(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        ref: Any,
        at: str,
        value: str,
        where: str,
        inlined: tuple[str, ...],
        strings_checked: bool = False,
    ) -> list[str]:
        if not isinstance(ref, str):
            raise CompileError("$ref must be a string", at, "$ref")
        target_at, target = resolve_ref(self.module.schema, ref, at)
        if target_at in inlined or len(inlined) >= _MAX_INLINE_DEPTH:
            if not self.collect:
                return [f"if not {self.branch(target_at)}({value}):", "    return False"]
            target = self.module.function_for(target_at, collect=True)
            return [f"{target}({value}, {where}, e)"]
        return self.node(target, target_at, value, where, (*inlined, target_at), strings_checked)


def _implied_type(root: Mapping[str, Any], schema: Any, depth: int = 0) -> str | None:
    """A single JSON type every instance valid against ``schema`` has, when ``type`` (or an
    ``allOf`` member or ``$ref`` target, followed a few levels) names exactly one, or every
    alternative of a ``oneOf``/``anyOf`` implies the same one (a tagged union of objects)."""
    if not isinstance(schema, Mapping) or depth > _MAX_INLINE_DEPTH:
        return None
    declared = schema.get("type")
    if isinstance(declared, list) and len(declared) == 1:
        declared = declared[0]
    if isinstance(declared, str) and declared in JSON_TYPES:
        return declared
    for sub in schema.get("allOf", []):
        found = _implied_type(root, sub, depth + 1)
        if found is not None:
            return found
    for keyword in ("oneOf", "anyOf"):
        alternatives = schema.get(keyword)
        if isinstance(alternatives, list) and alternatives:
            implied = {_implied_type(root, sub, depth + 1) for sub in alternatives}
            if len(implied) == 1 and None not in implied:
                return implied.pop()
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = local_ref_target(root, ref)
        if target is not None:
            return _implied_type(root, target[1], depth + 1)
    return None


def _satisfies(known: str | None, wanted: str) -> bool:
    """Whether a value known to be of JSON type ``known`` is of type ``wanted``."""
    return known == wanted or (known == "integer" and wanted == "number")


class _Answer:
    """Emits an answering function (``_valid_N(v) -> bool``): the fewest tests that decide the
    common valid path. Every violation is ``return False``; statements after a check run only
    when it held, so the compiler tracks what is already known at each point:

    - the JSON type of a value (one ``isinstance`` per value, implied types tested first);
    - which properties are present (a required property is read by subscript, no lookup);
    - which (instance path, subschema) pairs were already checked on the straight-line path
      (a subschema reached twice, as through ``allOf`` and ``properties``, is checked once).

    Closed objects take one key-set test (``keys() == NAMES`` when every property is required),
    string enums one frozenset membership, patterns one bound ``search``; a pattern that can
    only match ASCII makes the lone-surrogate test redundant on the accepting path (a string
    holding a surrogate fails the pattern, and the collecting pass then reports both). A
    ``oneOf`` discriminated by a constant inlines the one alternative the tag names; a simple
    ``if`` becomes an inline condition.
    """

    def __init__(self, module: _Module) -> None:
        self.module = module
        self.proven: set[tuple[tuple[str, ...], str]] = set()
        self.present: set[tuple[str, ...]] = set()
        self.types: dict[tuple[str, ...], str] = {}
        self.decided: set[str] = set()

    def function(self, pointer: str) -> list[str]:
        self.proven, self.present, self.types, self.decided = set(), set(), {}, set()
        body = self.node(subschema_at(self.module.schema, pointer), pointer, "v", (), 0, (pointer,))
        return [*body, "return True"]

    def node(  # noqa: PLR0912, PLR0917 - one branch per keyword family
        self,
        schema: Any,
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None = None,
    ) -> list[str]:
        """Statements returning ``False`` unless ``value`` is valid against ``schema``.
        ``path`` names the value inside the function's argument (``None`` for array items);
        ``depth`` counts the conditional branches (if/then/else, oneOf) the code sits in."""
        if schema is True or (isinstance(schema, Mapping) and not schema):
            return []
        if schema is False:
            return ["return False"]
        if path is not None and (path, at) in self.proven:
            return []
        if known is None and path is not None:
            known = self.types.get(path)
        lines: list[str] = []
        declared = _Compiler.declared_types(schema, at)
        implied = _implied_type(self.module.schema, schema)
        if implied is not None and not _satisfies(known, implied):
            lines += [f"if {_negate(_type_test(implied, value))}:", "    return False"]
            known = implied
        if declared is not None and not any(_satisfies(known, name) for name in declared):
            test = " or ".join(_type_test(name, value) for name in declared)
            lines += [f"if {_negate(test)}:", "    return False"]
        if path is not None and known is not None and depth == 0:
            self.types[path] = known
        lines += self.values(schema, at, value, known)
        for kind, emit in (
            ("string", self.string),
            ("number", self.number),
            ("object", self.object),
            ("array", self.array),
        ):
            if known is not None and not _satisfies(known, kind):
                continue
            checks = emit(schema, at, value, path, depth, inlined)
            if kind == "string":
                # Whether a string here may hold a lone surrogate is decided once per value:
                # by this node's test, or by a constant or ASCII-only pattern it must match.
                if (
                    value not in self.decided
                    and admits_free_strings(schema)
                    and not _string_pinned(self.module.schema, schema)
                ):
                    checks = [
                        f"if not {value}.isascii() and SURROGATE.search({value}) is not None:",
                        "    return False",
                        *checks,
                    ]
                if depth == 0:
                    self.decided.add(value)
            if not checks:
                continue
            if known is None:
                test = {
                    "string": f"isinstance({value}, str)",
                    "number": _type_test("number", value),
                    "object": f"isinstance({value}, dict)",
                    "array": f"isinstance({value}, list)",
                }[kind]
                lines += [f"if {test}:", *_indent(checks)]
            else:
                lines += checks
        lines += self.combinators(schema, at, value, path, depth, inlined, known)
        if "$ref" in schema:
            lines += self.reference(
                schema["$ref"], f"{at}/$ref", value, path, depth, inlined, known
            )
        if path is not None and depth == 0:
            self.proven.add((path, at))
        return lines

    def values(
        self, schema: Mapping[str, Any], at: str, value: str, known: str | None
    ) -> list[str]:
        lines: list[str] = []
        if "const" in schema:
            lines += [f"if {_negate(_const_test(self.module, schema['const'], value))}:"]
            lines.append("    return False")
        if "enum" in schema:
            options = schema["enum"]
            if not isinstance(options, list):
                raise CompileError("enum must be an array", f"{at}/enum", "enum")
            if options and all(isinstance(option, str) for option in options):
                name = self.module.constant("ENUM", f"frozenset({py_json(sorted(set(options)))})")
                test = f"{value} in {name}"
                if known != "string":
                    test = f"isinstance({value}, str) and {test}"
            else:
                name = self.module.constant("ENUM", py_json(options))
                test = f"any(json_equal({value}, option) for option in {name})"
            lines += [f"if {_negate(test)}:", "    return False"]
        return lines

    def string(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
    ) -> list[str]:
        del path, depth, inlined
        body: list[str] = []
        source = _pattern_source(schema, at)
        low = schema_limit(schema, at, "minLength") if "minLength" in schema else 0
        high = schema_limit(schema, at, "maxLength") if "maxLength" in schema else None
        if low and high is not None:
            body += [f"if not ({low} <= len({value}) <= {high}):", "    return False"]
        elif low:
            body += [f"if len({value}) < {low}:", "    return False"]
        elif high is not None:
            body += [f"if len({value}) > {high}:", "    return False"]
        if source is not None:
            # After the length test: an over-long string is never searched.
            body += [f"if {_pattern_misses(self.module, source, value)}:", "    return False"]
        return body

    def number(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
    ) -> list[str]:
        del path, depth, inlined
        body: list[str] = []
        for keyword, operator in (("minimum", "<"), ("maximum", ">")):
            if keyword in schema:
                limit = py_json(schema_number(schema, at, keyword))
                body += [f"if {value} {operator} {limit}:", "    return False"]
        return body

    def object(  # noqa: PLR0912, PLR0917 - required, closed and property shapes
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
    ) -> list[str]:
        body: list[str] = []
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
            raise CompileError("required must be an array of strings", f"{at}/required")
        names = list(dict.fromkeys(required))
        properties: Mapping[str, Any] = schema.get("properties", {})
        closed = schema.get("additionalProperties") is False
        if closed:
            allowed = self.module.constant("NAMES", f"frozenset({py_json(sorted(properties))})")
        if closed and names and set(names) == set(properties):
            body += [f"if {value}.keys() != {allowed}:", "    return False"]
        else:
            if len(names) == 1:
                body += [f"if {py_str(names[0])} not in {value}:", "    return False"]
            elif names:
                wanted = self.module.constant("NAMES", f"frozenset({py_json(sorted(names))})")
                body += [f"if not ({value}.keys() >= {wanted}):", "    return False"]
            if closed:
                body += [f"if not {allowed}.issuperset({value}):", "    return False"]
        present = set(names)
        if path is not None:
            if depth == 0:
                self.present.update((*path, name) for name in names)
            present.update(name for name in properties if (*path, name) in self.present)
        for name, sub in properties.items():
            child_path = None if path is None else (*path, name)
            if sub is False:
                if name in present:
                    body.append("return False")
                    break
                body += [f"if {py_str(name)} in {value}:", "    return False"]
                continue
            child = self.module.variable("v")
            checks = self.node(
                sub, f"{at}/properties/{escape_token(name)}", child, child_path, depth, inlined
            )
            if not checks:
                continue
            fetch = f"{child} = {value}[{py_str(name)}]"
            if name in present:
                body += [fetch, *checks]
            else:
                body += [f"if {py_str(name)} in {value}:", f"    {fetch}", *_indent(checks)]
        extra = schema.get("additionalProperties", True)
        if "additionalProperties" in schema and extra is not False:
            known_names = self.module.constant("NAMES", f"frozenset({py_json(sorted(properties))})")
            key, child = self.module.variable("k"), self.module.variable("v")
            checks = self.node(extra, f"{at}/additionalProperties", child, None, depth + 1, inlined)
            if checks:
                body += [
                    f"for {key}, {child} in {value}.items():",
                    f"    if {key} not in {known_names}:",
                    *_indent(checks, 2),
                ]
        return body

    def array(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
    ) -> list[str]:
        del path
        body: list[str] = []
        if "minItems" in schema:
            limit = schema_limit(schema, at, "minItems")
            body += [f"if len({value}) < {limit}:", "    return False"]
        if "maxItems" in schema:
            limit = schema_limit(schema, at, "maxItems")
            body += [f"if len({value}) > {limit}:", "    return False"]
        prefix = schema.get("prefixItems", [])
        for index, sub in enumerate(prefix):
            child = self.module.variable("v")
            checks = self.node(sub, f"{at}/prefixItems/{index}", child, None, depth + 1, inlined)
            if checks:
                body += [
                    f"if len({value}) > {index}:",
                    f"    {child} = {value}[{index}]",
                    *_indent(checks),
                ]
        item_type = None
        if "items" in schema:
            child = self.module.variable("v")
            checks = self.node(schema["items"], f"{at}/items", child, None, depth + 1, inlined)
            item_type = _implied_type(self.module.schema, schema["items"])
            if checks and not prefix:
                body += [f"for {child} in {value}:", *_indent(checks)]
            elif checks:
                body += [
                    f"for {child} in {value}[{len(prefix)}:]:",
                    *_indent(checks),
                ]
        if schema.get("uniqueItems") is True:
            # After the items held: a refused item is never keyed. Strings (every item checked
            # to be one) compare as themselves: a set of them is the whole test.
            if item_type == "string" and not prefix:
                body += [f"if len(set({value})) != len({value}):", "    return False"]
            else:
                body += [f"if not all_unique({value}):", "    return False"]
        return body

    def combinators(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        schema: Mapping[str, Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        lines: list[str] = []
        for index, sub in enumerate(schema.get("allOf", [])):
            lines += self.node(sub, f"{at}/allOf/{index}", value, path, depth, inlined, known)
        if "anyOf" in schema:
            checks = [self.branch(f"{at}/anyOf/{i}") for i in range(len(schema["anyOf"]))]
            test = " or ".join(f"{check}({value})" for check in checks)
            lines += [f"if not ({test}):", "    return False"]
        if "oneOf" in schema:
            lines += self.one_of(schema["oneOf"], f"{at}/oneOf", value, path, depth, inlined, known)
        if "not" in schema:
            lines += [f"if {self.branch(f'{at}/not')}({value}):", "    return False"]
        if "if" in schema:
            then = self.node(
                schema.get("then", True), f"{at}/then", value, path, depth + 1, inlined, known
            )
            otherwise = self.node(
                schema.get("else", True), f"{at}/else", value, path, depth + 1, inlined, known
            )
            if then or otherwise:
                condition = _condition(schema["if"], value, known)
                if condition is None:
                    condition = f"{self.branch(f'{at}/if')}({value})"
                lines += [f"if {condition}:", *_indent(then or ["pass"])]
                if otherwise:
                    lines += ["else:", *_indent(otherwise)]
        return lines

    def branch(self, at: str) -> str:
        return self.module.function_for(at, collect=False)

    def one_of(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        alternatives: list[Any],
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        union_tag = discriminator(self.module.schema, alternatives, at)
        if union_tag is None:
            checks = [self.branch(f"{at}/{i}") for i in range(len(alternatives))]
            matched = " + ".join(f"{check}({value})" for check in checks)
            return [f"if ({matched}) != 1:", "    return False"]
        # Only the alternative the tag names can hold (each requires its own constant there):
        # its checks are inlined, and a tag naming none fails.
        name, constants = union_tag
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
                target_at, target = f"{at}/{index}", alternatives[index]
                while isinstance(target, Mapping) and set(target) == {"$ref"}:
                    target_at, target = resolve_ref(self.module.schema, target["$ref"], target_at)
                tagged = ((*path, name), f"{target_at}/properties/{escape_token(name)}")
                if tagged in self.proven:
                    tagged = None
                else:
                    self.proven.add(tagged)
            checks = self.node(
                alternatives[index], f"{at}/{index}", value, path, depth + 1, inlined, known
            )
            if tagged is not None:
                self.proven.discard(tagged)
            keyword = "if" if index == 0 else "elif"
            lines += [f"{keyword} {tag} == {py_str(constant)}:", *_indent(checks or ["pass"])]
        return [*lines, "else:", "    return False"]

    def reference(  # noqa: PLR0917 - the emitting context, passed positionally
        self,
        ref: Any,
        at: str,
        value: str,
        path: tuple[str, ...] | None,
        depth: int,
        inlined: tuple[str, ...],
        known: str | None,
    ) -> list[str]:
        if not isinstance(ref, str):
            raise CompileError("$ref must be a string", at, "$ref")
        target_at, target = resolve_ref(self.module.schema, ref, at)
        if target_at in inlined or len(inlined) >= _MAX_INLINE_DEPTH:
            return [f"if not {self.branch(target_at)}({value}):", "    return False"]
        return self.node(target, target_at, value, path, depth, (*inlined, target_at), known)


def _string_pinned(root: Mapping[str, Any], schema: Any, depth: int = 0) -> bool:
    """Whether a string valid against ``schema`` is proven free of lone surrogates by a test the
    schema (or an ``allOf`` member or ``$ref`` target, which always run with it) already makes:
    a ``const``/``enum`` (schema text) or a pattern that can only match ASCII."""
    if not isinstance(schema, Mapping) or depth > _MAX_INLINE_DEPTH:
        return False
    if "const" in schema or "enum" in schema:
        return True
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            if matches_only_ascii(translate(pattern)):
                return True
        except RegexError:
            return False
    if any(_string_pinned(root, sub, depth + 1) for sub in schema.get("allOf", [])):
        return True
    ref = schema.get("$ref")
    target = local_ref_target(root, ref) if isinstance(ref, str) else None
    return target is not None and _string_pinned(root, target[1], depth + 1)


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


_CONDITION_KEYS = frozenset({"required", "properties"}) | ANNOTATIONS


def _condition(schema: Any, value: str, known: str | None) -> str | None:
    """An inline boolean expression deciding a simple ``if`` schema (``required`` names and
    properties pinned by a string/boolean/null ``const``); ``None`` for anything else."""
    if not isinstance(schema, Mapping) or not set(schema) <= _CONDITION_KEYS:
        return None
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    if not isinstance(required, list) or not isinstance(properties, Mapping):
        return None
    terms = [f"{py_str(name)} in {value}" for name in dict.fromkeys(required)]
    for name, sub in properties.items():
        if not isinstance(sub, Mapping) or set(sub) - ANNOTATIONS != {"const"}:
            return None
        const = sub["const"]
        if not (const is None or isinstance(const, str | bool)):
            return None
        item = f"{value}[{py_str(name)}]"
        test = f"{item} == {py_str(const)}" if isinstance(const, str) else f"{item} is {const!r}"
        terms.append(test if name in required else f"({py_str(name)} not in {value} or {test})")
    if not terms:
        return None
    condition = " and ".join(terms)
    if known != "object":
        condition = f"(not isinstance({value}, dict) or ({condition}))"
    return f"({condition})"


def _pattern_search(module: _Module, source: str) -> str:
    """The module constant holding the compiled pattern's bound ``search`` (one global load per
    use instead of a global and an attribute)."""
    return module.constant("SEARCH", f"re.compile({py_str(source)}, re.ASCII).search")


def _pattern_misses(module: _Module, source: str, value: str) -> str:
    """A test that the string ``value`` does not match the pattern: its bound ``search``, after
    a C-speed shortcut when ``printable_ascii_matches`` proves every printable ASCII string
    (non-empty where the pattern needs a character) matches (a display name, say)."""
    search = f"{_pattern_search(module, source)}({value}) is None"
    least = printable_ascii_matches(source)
    if least is None:
        return search
    shortcut = f"{value}.isascii() and {value}.isprintable()"
    if least:
        shortcut = f"{value} and {shortcut}"
    return f"not ({shortcut}) and {search}"


def _pattern_matches(module: _Module, source: str, value: str) -> str:
    """The negation of ``_pattern_misses``: the string ``value`` matches the pattern."""
    search = f"{_pattern_search(module, source)}({value}) is not None"
    least = printable_ascii_matches(source)
    if least is None:
        return search
    shortcut = f"{value}.isascii() and {value}.isprintable()"
    if least:
        shortcut = f"{value} and {shortcut}"
    return f"(({shortcut}) or {search})"


def _pattern_source(schema: Mapping[str, Any], at: str) -> str | None:
    """The translated Python source of ``schema["pattern"]`` (``None`` when there is none)."""
    if "pattern" not in schema:
        return None
    pattern = schema["pattern"]
    if not isinstance(pattern, str):
        raise CompileError("pattern must be a string", f"{at}/pattern", "pattern")
    try:
        return translate(pattern)
    except RegexError as error:
        raise CompileError(f"pattern: {error}", f"{at}/pattern", "pattern") from error


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
    "collect",
    "surrogate_at",
    "all_unique",
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
    check_keywords(schema)
    module = _Module(schema)
    compilers = {flag: _Compiler(module, collect=flag) for flag in (True, False)}
    answering = _Answer(module)
    public: list[str] = []
    for name, pointer in entry_points.items():
        target = module.function_for(pointer, collect=True)
        answer = module.function_for(pointer, collect=False)
        subschema_at(schema, pointer)  # an entry point must name a subschema: raises otherwise
        # A schema that leaves some position unconstrained cannot see every string: an
        # accepted document is then walked once for lone surrogates.
        walk = not examines_every_string(schema, pointer)
        accepted = (
            f"{answer}(value) and surrogate_at(value) is None" if walk else f"{answer}(value)"
        )
        public += [
            "",
            "",
            f"def {name}(",
            "    value: Any, limit: int = MAX_DIAGNOSTICS_PER_FILE",
            ") -> tuple[Diagnostic, ...]:",
            '    """The violations of ``value`` (empty when it is valid): at most ``limit``,',
            "    then one ``TOO_MANY_DIAGNOSTICS`` record, since checking stops at the limit.",
            '    """',
            "    try:",
            "        # Most documents are valid: answer first, collect only for a failure.",
            f"        if {accepted}:",
            "            return ()",
            "    except RecursionError:",
            "        pass  # reported by the collecting pass below",
            f"    return report(collect({target}, value, Violations(limit), walk={walk}))",
        ]
    while module.pending:
        pointer, name, collect = module.pending.pop(0)
        if collect:
            compilers[True].proven = set()
            body = compilers[True].node(
                subschema_at(schema, pointer), pointer, "v", "p", (pointer,)
            )
            signature = f"def {name}(v: Any, p: str, e: Violations) -> None:"
        else:
            body = answering.function(pointer)
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

"""Validate stage: the schemas are sound, and the table obeys them plus the cross-row rules.

Pure: takes ``Loaded`` documents, returns diagnostics located at ``file:line:col`` and a JSON
pointer. Messages are built here from the error records (never from ``jsonschema``'s prose, which
would echo raw input), so every input-derived string passes through ``describe``.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import json
import keyword
import re
import string
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any, cast

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match

from generator import verdicts
from generator.diagnostics import (
    MAX_DIAGNOSTICS_PER_FILE,
    Code,
    Diagnostic,
    describe,
    limited,
    pointer_of,
    sanitize,
)
from generator.ecma import ecma_validator, pattern_error
from generator.literals import UnsafeIdentifierError, identifier, is_array_index
from generator.load import Loaded
from generator.naming import GENERATED_CONSTANTS, RUNTIME_NAMES, capability_constant, upper_snake
from generator.plan import Plan, build_plan, pattern_length_refusal, pattern_refusal
from generator.schema_subset import CompileError
from generator.schemas import (
    MAX_REF_CHAIN,
    SUBSCHEMA_KEYWORDS,
    SUBSCHEMA_LIST_KEYWORDS,
    SUBSCHEMA_MAP_KEYWORDS,
    iter_subschemas,
    local_ref_target,
    resolve_local_ref,
)
from generator.ts_validator import typescript_validators
from generator.validator_compiler import python_validators

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
THIRD_PARTY_DEF = "ThirdPartyToolManifest"
# The public functions of the generated ``validator.py`` and the schema each one checks.
VALIDATOR_ENTRY_POINTS = {
    "validate_tool_manifest": "",
    "validate_third_party_manifest": f"/$defs/{THIRD_PARTY_DEF}",
}


def check_schema_document(loaded: Loaded) -> list[Diagnostic]:
    """The document is a draft 2020-12 schema whose references resolve and patterns compile."""
    schema = loaded.value
    if not isinstance(schema, Mapping):
        return [
            Diagnostic(Code.SCHEMA_INVALID, "a schema must be a JSON object", **_at(loaded, ""))
        ]
    found: list[Diagnostic] = []
    if schema.get("$schema") != DRAFT_2020_12:
        found.append(
            Diagnostic(
                Code.SCHEMA_INVALID,
                f"$schema must be {describe(DRAFT_2020_12)}",
                **_at(loaded, "/$schema"),
            )
        )
    if not isinstance(schema.get("$id"), str):
        found.append(
            Diagnostic(Code.SCHEMA_INVALID, "$id must name the schema", **_at(loaded, "/$id"))
        )
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    # At most one past the limit is asked for (the rest of a hostile schema is not walked), and
    # those are reported in document order.
    errors = itertools.islice(meta.iter_errors(schema), MAX_DIAGNOSTICS_PER_FILE + 1)
    for error in sorted(errors, key=lambda e: list(map(str, e.absolute_path))):
        found.append(
            Diagnostic(
                Code.SCHEMA_INVALID,
                f"not a valid schema: {error.validator} {describe(error.validator_value)}",
                **_at(loaded, pointer_of(error.absolute_path)),
            )
        )
    if found:
        return limited(found, loaded.source)
    found = limited(_subschema_problems(loaded), loaded.source)
    if not found:
        found.extend(limited(_in_place_ref_cycles(loaded), loaded.source))
    if not found:
        found.extend(limited(_long_ref_chains(loaded), loaded.source))
    return found


def _subschema_problems(loaded: Loaded) -> Iterator[Diagnostic]:
    """Each subschema's own problems: a pattern too long or not ECMA-262, a ``$ref`` that
    percent-encodes what it need not, or names nothing."""
    schema = loaded.value
    for pointer, sub in iter_subschemas(schema):
        pattern = sub.get("pattern")
        if isinstance(pattern, str) and (too_long := pattern_length_refusal(pattern)) is not None:
            # Refused before any engine compiles it (``plan.MAX_PATTERN_LENGTH``).
            yield Diagnostic(Code.SCHEMA_UNSUPPORTED, too_long, **_at(loaded, f"{pointer}/pattern"))
        elif isinstance(pattern, str) and (reason := pattern_error(pattern)) is not None:
            yield Diagnostic(
                Code.SCHEMA_INVALID,
                f"pattern is not a valid ECMA-262 expression: {describe(reason)}",
                **_at(loaded, f"{pointer}/pattern"),
            )
        ref = sub.get("$ref")
        if isinstance(ref, str) and (plain := _needless_escapes_decoded(ref)) != ref:
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"$ref {describe(ref)} percent-encodes characters a URI fragment holds as"
                f" they are; write it {describe(plain)} (the type and editor schema"
                " emitters read a $ref's names as written)",
                **_at(loaded, f"{pointer}/$ref"),
            )
        elif (
            isinstance(ref, str) and ref.startswith("#") and resolve_local_ref(schema, ref) is None
        ):
            yield Diagnostic(
                Code.SCHEMA_INVALID,
                f"$ref {describe(ref)} names nothing",
                **_at(loaded, f"{pointer}/$ref"),
            )


# Characters a URI fragment holds unencoded (RFC 3986 ``pchar``, ``/`` and ``?``): a ``%``
# escape of one of them is needless.
_FRAGMENT_PLAIN = frozenset(string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@/?")
_PERCENT_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")


def _needless_escapes_decoded(ref: str) -> str:
    """``ref`` with each needless ``%`` escape of its fragment decoded (``#/%24defs/%41`` is
    ``#/$defs/A``); escapes a fragment needs (``%25``, ``%20``, non-ASCII) are kept."""
    base, hash_, fragment = ref.partition("#")

    def plain(escape: re.Match[str]) -> str:
        char = chr(int(escape.group(1), 16))
        return char if char in _FRAGMENT_PLAIN else escape.group()

    return base + hash_ + _PERCENT_ESCAPE.sub(plain, fragment)


def check_table_schema_patterns(loaded: Loaded) -> list[Diagnostic]:
    """The table schema's patterns (and ``patternProperties`` names) get the manifest schema's
    checks (``plan.pattern_refusal``): the table is validated with them, so one that can
    backtrack for hours (ReDoS), or polynomially beyond what its ``maxLength`` keeps within
    budget, is refused at the pattern, as the manifest schema's are."""
    found: list[Diagnostic] = []
    for pointer, sub in iter_subschemas(loaded.value):
        patterns = [(f"{pointer}/pattern", sub.get("pattern"), sub.get("maxLength"), False)]
        names = sub.get("patternProperties")
        if isinstance(names, Mapping):
            patterns += [
                (f"{pointer}/patternProperties{pointer_of((name,))}", name, None, True)
                for name in names
            ]
        for at, pattern, limit, is_name in patterns:
            if not isinstance(pattern, str):
                continue
            numeric = isinstance(limit, int | float) and not isinstance(limit, bool)
            refusal = pattern_refusal(pattern, limit if numeric else None)
            if refusal is not None:
                found.append(
                    Diagnostic(
                        Code.SCHEMA_UNSUPPORTED,
                        sanitize(f"the table schema's {refusal}", 300),
                        **_at(loaded, at, key=is_name),
                    )
                )
    return found


def check_table_schema_refs(loaded: Loaded, manifest: Mapping[str, Any]) -> list[Diagnostic]:
    """Every ``$ref`` of the table schema that is not local names the manifest schema by its
    ``$id`` (or the table schema by its own), with a fragment that resolves there: the table is
    validated with only those two documents, so another (a file path, a URL) was an internal
    error (``Unresolvable``) while the table was checked. Local ones: ``check_schema_document``."""
    schema = loaded.value
    documents = {
        str(document.get("$id")): document
        for document in (manifest, schema)
        if isinstance(document, Mapping) and isinstance(document.get("$id"), str)
    }
    found: list[Diagnostic] = []
    for pointer, sub in iter_subschemas(schema):
        if "$dynamicRef" in sub:
            # Resolved by the validator at run time, where one naming no anchor was an internal
            # error (``NoSuchAnchor``); the draft-07 editor schema has no equivalent either.
            found.append(
                Diagnostic(
                    Code.SCHEMA_UNSUPPORTED,
                    "$dynamicRef is not supported in the table schema (the editor schema, draft-07,"
                    " has no equivalent): write $ref",
                    **_at(loaded, f"{pointer}/$dynamicRef"),
                )
            )
        ref = sub.get("$ref")
        if not isinstance(ref, str) or ref.startswith("#"):
            continue
        base, _, fragment = ref.partition("#")
        document = documents.get(base)
        if document is None or resolve_local_ref(document, "#" + fragment) is None:
            found.append(
                Diagnostic(
                    Code.SCHEMA_INVALID,
                    f"$ref {describe(ref)} names nothing (a $ref may name this schema or the"
                    " manifest schema, by its $id)",
                    **_at(loaded, f"{pointer}/$ref"),
                )
            )
    return found


# Keywords that apply a subschema to the value itself, not to a part of it: a ``$ref`` cycle
# through these alone never reaches a smaller value, so validating (jsonschema, the compiled
# validator) and every stage that expands the schema would recurse without end.
_IN_PLACE = ("not", "if", "then", "else")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")


def _in_place_successors(root: Mapping[str, Any], sub: Mapping[str, Any]) -> Iterator[Any]:
    ref = sub.get("$ref")
    if isinstance(ref, str) and (target := local_ref_target(root, ref)) is not None:
        yield target[1]
    for name in _IN_PLACE:
        if name in sub:
            yield sub[name]
    for name in _IN_PLACE_LISTS:
        if isinstance(sub.get(name), list):
            yield from sub[name]
    if isinstance(sub.get("dependentSchemas"), Mapping):
        yield from sub["dependentSchemas"].values()


_DONE = object()


def _in_place_ref_cycles(loaded: Loaded) -> Iterator[Diagnostic]:
    """A located ``SCHEMA_INVALID`` for each ``$ref`` that leads back to itself without
    descending into the value (``A: {$ref: B}``, ``B: {allOf: [{$ref: A}]}``). Iterative: the
    check itself cannot overflow the stack."""
    root = loaded.value
    where = {id(sub): pointer for pointer, sub in iter_subschemas(root)}
    state: dict[int, int] = {}  # 1: on the current path, 2: finished
    reported: set[int] = set()
    for _, start in iter_subschemas(root):
        if id(start) in state:
            continue
        path: list[Mapping[str, Any]] = [start]
        stack = [iter(list(_in_place_successors(root, start)))]
        state[id(start)] = 1
        while stack:
            successor = next(stack[-1], _DONE)
            if successor is _DONE:
                state[id(path.pop())] = 2
                stack.pop()
                continue
            if not isinstance(successor, Mapping) or state.get(id(successor)) == 2:
                continue
            if state.get(id(successor)) == 1:
                cycle = path[[id(node) for node in path].index(id(successor)) :]
                refs = [node for node in cycle if "$ref" in node and id(node) not in reported]
                if refs:
                    reported.add(id(refs[0]))
                    pointer = where.get(id(refs[0]), "")
                    chain = " -> ".join(where.get(id(node), "?") or "/" for node in cycle)
                    yield Diagnostic(
                        Code.SCHEMA_INVALID,
                        sanitize(
                            "$ref cycle that never descends into the value (validation would"
                            f" never end): {chain}",
                            300,
                        ),
                        **_at(loaded, f"{pointer}/$ref"),
                    )
                continue
            state[id(successor)] = 1
            path.append(successor)
            stack.append(iter(list(_in_place_successors(root, successor))))


def _child_schemas(sub: Mapping[str, Any]) -> Iterator[Any]:
    """The subschemas ``sub`` holds directly (not through ``$ref``)."""
    for name in SUBSCHEMA_KEYWORDS:
        if name in sub:
            yield sub[name]
    for name in SUBSCHEMA_LIST_KEYWORDS:
        if isinstance(sub.get(name), list):
            yield from sub[name]
    for name in SUBSCHEMA_MAP_KEYWORDS:
        if isinstance(sub.get(name), Mapping):
            yield from sub[name].values()


def _long_ref_chains(loaded: Loaded) -> Iterator[Diagnostic]:
    """A located ``SCHEMA_UNSUPPORTED`` at the ``$ref`` beginning the longest chain of ``$ref``s
    (through any keyword; a ``$ref`` back to a schema already on the way ends it) when that
    chain follows more than ``MAX_REF_CHAIN``. Iterative, so it cannot overflow the stack."""
    root = loaded.value
    where = {id(sub): pointer for pointer, sub in iter_subschemas(root)}
    # id -> (refs the longest chain from it follows, the next schema holding a $ref on it)
    longest: dict[int, tuple[int, Any]] = {}
    on_path: set[int] = set()
    for _, start in iter_subschemas(root):
        if id(start) in longest:
            continue
        path: list[Mapping[str, Any]] = [start]
        on_path.add(id(start))
        stack = [iter(_successors(root, start))]
        while stack:
            successor = next(stack[-1], _DONE)
            if successor is _DONE:
                stack.pop()
                node = path.pop()
                on_path.discard(id(node))
                longest[id(node)] = _chain_from(root, node, longest, on_path)
                continue
            if not isinstance(successor, Mapping) or id(successor) in longest:
                continue
            if id(successor) in on_path:
                continue  # a cycle: it ends the chain (descending ones are allowed)
            on_path.add(id(successor))
            path.append(successor)
            stack.append(iter(_successors(root, successor)))
    worst = max(
        (
            (count, -order, sub)
            for order, (_, sub) in enumerate(iter_subschemas(root))
            if "$ref" in sub and (count := longest.get(id(sub), (0, None))[0]) > MAX_REF_CHAIN
        ),
        default=None,
        key=lambda item: item[:2],
    )
    if worst is None:
        return
    count, _, sub = worst
    shown: list[str] = []
    step: Any = sub
    while step is not None and len(shown) < 3:
        shown.append(where.get(id(step), "?") or "/")
        step = longest.get(id(step), (0, None))[1]
    yield Diagnostic(
        Code.SCHEMA_UNSUPPORTED,
        sanitize(
            f"a chain of {count} $refs begins here, more than the {MAX_REF_CHAIN} followed"
            f" (each stage expanding the schema recurses once per $ref): {' -> '.join(shown)}"
            " -> ...",
            300,
        ),
        **_at(loaded, f"{where.get(id(sub), '')}/$ref"),
    )


def _successors(root: Mapping[str, Any], sub: Mapping[str, Any]) -> list[Any]:
    found = list(_child_schemas(sub))
    ref = sub.get("$ref")
    if isinstance(ref, str) and (target := local_ref_target(root, ref)) is not None:
        found.append(target[1])
    return found


def _chain_from(
    root: Mapping[str, Any],
    sub: Mapping[str, Any],
    longest: Mapping[int, tuple[int, Any]],
    on_path: set[int],
) -> tuple[int, Any]:
    """The longest ``$ref`` chain from ``sub``, its successors' already known (a successor on
    the current path, a cycle, counts for nothing)."""
    best: tuple[int, Any] = (0, None)
    for child in _child_schemas(sub):
        if isinstance(child, Mapping) and id(child) not in on_path:
            count, after = longest.get(id(child), (0, None))
            if count > best[0]:
                best = (count, child if "$ref" in child else after)
    ref = sub.get("$ref")
    if isinstance(ref, str) and (target := local_ref_target(root, ref)) is not None:
        after = target[1]
        count = 1
        if isinstance(after, Mapping) and id(after) not in on_path:
            count += longest.get(id(after), (0, None))[0]
            nxt = after if "$ref" in after else longest.get(id(after), (0, None))[1]
        else:
            nxt = None
        if count > best[0]:
            best = (count, nxt)
    return best


def check_manifest_schema(loaded: Loaded, *, samples: bool = True) -> list[Diagnostic]:
    """The canonical schema, plus what generation relies on: a title and the third-party root;
    with ``samples``, also that its ``examples`` and ``default`` values obey their schemas (what
    is published from it; ``breaking`` compares schemas whose examples a change may have left
    behind, and reports the change itself)."""
    found = check_schema_document(loaded)
    if found:
        return found
    schema = loaded.value
    if not isinstance(schema.get("title"), str) or not schema["title"].isidentifier():
        found.append(
            Diagnostic(
                Code.SCHEMA_INVALID,
                "the root needs a title that is an identifier",
                **_at(loaded, "/title"),
            )
        )
    elif not _CLASS_NAME.fullmatch(schema["title"]):
        found.append(
            Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"title {describe(schema['title'])} {_CLASS_NAME_RULE}",
                **_at(loaded, "/title"),
            )
        )
    if THIRD_PARTY_DEF not in schema.get("$defs", {}):
        found.append(
            Diagnostic(
                Code.SCHEMA_INVALID,
                f"$defs/{THIRD_PARTY_DEF} (the third-party adapter root) is missing",
                **_at(loaded, "/$defs"),
            )
        )
        return found
    if not isinstance(schema["$defs"][THIRD_PARTY_DEF], Mapping):
        # `true` or `false`: valid JSON Schema, but the adapter root becomes a class (Python)
        # and an interface (TypeScript), and the reference documents its description and
        # properties; reading them off a boolean was an internal error.
        found.append(
            Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"$defs/{THIRD_PARTY_DEF} (the third-party adapter root) must be a schema"
                " object, not a boolean schema",
                **_at(loaded, f"/$defs/{THIRD_PARTY_DEF}"),
            )
        )
        return found
    found.extend(itertools.islice(_schema_names(loaded), MAX_DIAGNOSTICS_PER_FILE + 1))
    found.extend(_runtime_fields(loaded))
    try:
        validator_source(schema)
        ts_validator_source(schema)
    except CompileError as error:
        found.append(
            Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                sanitize(f"the validator compiler refuses the schema: {error}", 300),
                **_at(loaded, error.pointer),
            )
        )
    if samples and not found:
        # Only a schema the compilers accept: its patterns are then known to be safe to run.
        found.extend(itertools.islice(_invalid_samples(loaded), MAX_DIAGNOSTICS_PER_FILE + 1))
    return limited(found, loaded.source)


def _invalid_samples(loaded: Loaded) -> Iterator[Diagnostic]:
    """A located ``SCHEMA_INVALID`` for each ``examples`` item or ``default`` its own schema
    refuses: the reference shows the third-party examples as adapter files to copy, and editors
    offer examples and defaults, so one the runtime would refuse misleads whoever trusts it."""
    root = loaded.value
    for pointer, sub in iter_subschemas(root):
        samples: list[tuple[str, Any]] = []
        if isinstance(sub.get("examples"), list):
            samples += [(f"{pointer}/examples/{i}", e) for i, e in enumerate(sub["examples"])]
        if "default" in sub:
            samples.append((f"{pointer}/default", sub["default"]))
        if not samples:
            continue
        fragment = urllib.parse.quote(pointer, safe="/~")
        checker = ecma_validator({"$ref": f"{root['$id']}#{fragment}"}, resources=(root,))
        for at, sample in samples:
            error = best_match(checker.iter_errors(sample))
            if error is None:
                continue
            path, message = _sample_problem(next(_leaves(error)))
            where = pointer_of(path)
            yield Diagnostic(
                Code.SCHEMA_INVALID,
                f"its own schema refuses this value{f' at {describe(where)}' if where else ''}:"
                f" {message}",
                **_at(loaded, at),
            )


def _sample_problem(error: ValidationError) -> tuple[list[str | int], str]:
    """Where in a sample ``error`` is (the object, for a member it lacks or should not have)
    and ``_message``, naming the member a ``required`` or closed object is about."""
    path = list(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, Mapping):
        names = cast(list[Any], error.validator_value)
        missing = [n for n in names if isinstance(n, str) and n not in error.instance]
        if missing:
            return path, f"missing required property {describe(missing[0])}"
    if error.validator == "additionalProperties" and error.message == "unknown property" and path:
        # Located at the key itself (one error per unknown key): the object is its parent.
        return path[:-1], f"unknown property {describe(str(path[-1]))}"
    return path, _message(error)


# The root's properties the generated runtime reads by name (loader, registry, detection, launch
# guard, hook packages; Python and TypeScript): each must be declared with its JSON type, and the
# first four required. Without one, generation failed on a KeyError or wrote a package that mypy
# --strict and tsc refuse; the rest of the schema is the schema's own business.
_RUNTIME_FIELDS: dict[str, tuple[str, bool]] = {
    "id": ("string", True),
    "displayName": ("string", True),
    "launchable": ("boolean", True),
    "hookPointer": ("string", True),
    "hookPackage": ("string", False),
    "builtin": ("boolean", False),
    "capabilities": ("object", False),
}


def _declared_type(root: Mapping[str, Any], sub: Any) -> object:
    """The ``type`` a property schema declares, through local ``$ref`` chains (``None`` if none)."""
    seen: set[str] = set()
    while isinstance(sub, Mapping) and "type" not in sub and isinstance(sub.get("$ref"), str):
        if sub["$ref"] in seen:
            return None
        seen.add(sub["$ref"])
        sub = resolve_local_ref(root, sub["$ref"])
    return sub.get("type") if isinstance(sub, Mapping) else None


def _runtime_fields(loaded: Loaded) -> Iterator[Diagnostic]:
    schema = loaded.value
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = schema.get("required")
    required = required if isinstance(required, list) else []
    for name, (kind, needed) in _RUNTIME_FIELDS.items():
        shown = f"{describe(name)} ({'a required ' if needed else 'an optional '}{kind})"
        if name not in properties:
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"the root declares no property {shown}: the generated runtime reads it",
                **_at(loaded, "/properties" if "properties" in schema else ""),
            )
            continue
        declared = _declared_type(schema, properties[name])
        if declared != kind:
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"property {shown} has the type {describe(declared)}: the generated runtime reads"
                f" it as {kind}",
                **_at(loaded, f"/properties{pointer_of((name,))}"),
            )
        elif needed and name not in required:
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"property {shown} is not required: the generated runtime reads it from every"
                " manifest",
                **_at(loaded, "/required" if "required" in schema else ""),
            )
    # The capability vocabulary: CAPABILITIES, the CAP_* constants and the Capability type.
    definitions = schema.get("$defs")
    capability = definitions.get("Capability") if isinstance(definitions, Mapping) else None
    if not isinstance(capability, Mapping):
        yield Diagnostic(
            Code.SCHEMA_UNSUPPORTED,
            '$defs declares no "Capability" (the capability vocabulary, a string enum): the'
            " generated constants and runtime name it",
            **_at(loaded, "/$defs"),
        )
        return
    enum = capability.get("enum")
    if capability.get("type") != "string" or not (
        isinstance(enum, list) and all(isinstance(value, str) for value in enum)
    ):
        yield Diagnostic(
            Code.SCHEMA_UNSUPPORTED,
            '$defs "Capability" must be a string enum (type string, an enum of strings): it is'
            " the capability vocabulary the generated constants and runtime list",
            **_at(loaded, "/$defs/Capability"),
        )


# A type name (a ``$defs`` key, the root title) datamodel-code-generator keeps as it is: it
# capitalises a leading lower-case letter and drops underscores (``foo_bar`` becomes ``FooBar``),
# and the loader's model builder and ``types.ts`` use the name as the schema spells it, so a
# renamed class was a misleading "must be a named $defs entry" failure at render time.
_CLASS_NAME = re.compile(r"[A-Z][A-Za-z0-9]*")
_CLASS_NAME_RULE = (
    "must start with an upper-case ASCII letter, then ASCII letters and digits only (PascalCase,"
    " no underscore): datamodel-code-generator would rename the Python class"
)

# A property name the Python models keep as it is: datamodel-code-generator renames a name with a
# leading underscore (``__proto__`` becomes ``field__proto__``) or one that is not an identifier,
# and the generated constants pass properties as keyword arguments by their schema names.
_PYTHON_FIELD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _schema_names(loaded: Loaded) -> Iterator[Diagnostic]:
    """Names the schema hands to generated code as keys or fields: capability names become keys of
    a TypeScript object literal (``CAPABILITY_PROVIDERS``), property names become Python fields."""
    schema = loaded.value
    capability = schema.get("$defs", {}).get("Capability")
    enum = capability.get("enum") if isinstance(capability, Mapping) else None
    constants: dict[str, str] = {}
    for index, value in enumerate(enum if isinstance(enum, list) else []):
        if isinstance(value, str):
            # Each capability becomes a constant (CAP_HEADLESS_TASK); two must not share one.
            name = capability_constant(value)
            if name in constants:
                yield Diagnostic(
                    Code.DUPLICATE_CONSTANT,
                    f"capability {describe(value)} makes the constant {name}, as does"
                    f" {describe(constants[name])}",
                    **_at(loaded, pointer_of(("$defs", "Capability", "enum", index))),
                )
            constants.setdefault(name, value)
        if isinstance(value, str) and is_array_index(value):
            yield Diagnostic(
                Code.UNPORTABLE_KEY,
                f"capability {describe(value)} is an array index: JavaScript would list it before"
                " the other keys of CAPABILITY_PROVIDERS, out of the schema's order",
                **_at(loaded, pointer_of(("$defs", "Capability", "enum", index))),
            )
    defs = schema.get("$defs")
    for name in defs if isinstance(defs, Mapping) else ():
        # Each entry names a Python class and a TypeScript type (``identifier`` guards both).
        try:
            identifier(name)
        except UnsafeIdentifierError:
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"$defs name {describe(name)} cannot name a Python class and a TypeScript type (an"
                " ASCII identifier that is no reserved word in either language)",
                **_at(loaded, f"/$defs{pointer_of((name,))}", key=True),
            )
            continue
        if not _CLASS_NAME.fullmatch(name):
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"$defs name {describe(name)} {_CLASS_NAME_RULE}",
                **_at(loaded, f"/$defs{pointer_of((name,))}", key=True),
            )
        elif name == schema.get("title"):
            yield Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"$defs name {describe(name)} is the root's title: the two would be one class"
                " (datamodel-code-generator renames one of them)",
                **_at(loaded, f"/$defs{pointer_of((name,))}", key=True),
            )
    for pointer, sub in iter_subschemas(schema):
        properties = sub.get("properties")
        for name in properties if isinstance(properties, Mapping) else ():
            if not _PYTHON_FIELD.fullmatch(name) or keyword.iskeyword(name):
                yield Diagnostic(
                    Code.SCHEMA_UNSUPPORTED,
                    f"property name {describe(name)} cannot be a Python field as it is (an"
                    " identifier not starting with '_' and not a keyword)",
                    **_at(loaded, f"{pointer}/properties{pointer_of((name,))}", key=True),
                )


def ts_validator_source(manifest_schema: Mapping[str, Any]) -> str:
    """The generated ``validator.ts`` body (the TypeScript backend over the same plan of checks).
    Raises ``CompileError``, also for a pattern whose meaning differs between the two engines."""
    return _typescript(json.dumps(manifest_schema, sort_keys=False))


def validator_source(manifest_schema: Mapping[str, Any]) -> str:
    """The generated ``validator.py`` body; compiled once per schema (validation and rendering
    both need it). Raises ``CompileError``."""
    return _python(json.dumps(manifest_schema, sort_keys=False))


# One plan per schema, read by both backends: the schema is resolved once per generation.
@functools.lru_cache(maxsize=8)
def _plan(schema_json: str) -> Plan:
    return build_plan(json.loads(schema_json), VALIDATOR_ENTRY_POINTS)


@functools.lru_cache(maxsize=8)
def _python(schema_json: str) -> str:
    return python_validators(_plan(schema_json))


@functools.lru_cache(maxsize=8)
def _typescript(schema_json: str) -> str:
    return typescript_validators(_plan(schema_json))


def clear_caches() -> None:
    """Forget plans and compiled validators (benchmarks use it to time cold runs)."""
    for cache in (_plan, _python, _typescript):
        cache.cache_clear()


def make_table_validator(
    manifest_schema: Mapping[str, Any], table_schema: Mapping[str, Any]
) -> Any:
    """An ECMA-pattern validator for the table that resolves references to the manifest schema.

    Where the table schema refers to the manifest schema by its ``$id`` (each row), a value the
    compiled manifest validator accepts is passed without ``jsonschema`` walking it (most rows,
    most of the time on a large table); any other value is checked by ``jsonschema`` as always,
    so the errors, and the diagnostics built from them, are the same."""
    verdict = _manifest_verdict(manifest_schema, table_schema)
    if verdict is None:
        return ecma_validator(table_schema, resources=(manifest_schema,))
    return ecma_validator(
        table_schema,
        resources=(manifest_schema,),
        skip_ref=(str(manifest_schema["$id"]), verdict),
    )


def _manifest_verdict(
    manifest_schema: Mapping[str, Any], table_schema: Mapping[str, Any]
) -> verdicts.Verdict | None:
    """The compiled validator's verdict on manifest values, when a ``$ref`` equal to the manifest
    schema's ``$id`` can only mean the manifest root: an absolute URI that no schema of the
    table document takes for itself."""
    manifest_id = manifest_schema.get("$id")
    if not isinstance(manifest_id, str) or not urllib.parse.urlsplit(manifest_id).scheme:
        return None
    if _declares_id(table_schema, manifest_id):
        return None
    return verdicts.manifest_verdict(manifest_schema)


def _declares_id(document: Any, wanted: str) -> bool:
    """Whether an ``$id`` anywhere in ``document`` (in any position, to be safe) is ``wanted``.
    Iterative: the document is already bounded in depth, and this adds no recursion."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if node.get("$id") == wanted:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def validate_table(
    table: Loaded, manifest_schema: Mapping[str, Any], table_schema: Mapping[str, Any]
) -> list[Diagnostic]:
    """Schema errors and the cross-row rules, all reported together: the cross-row rules skip
    whatever does not have the shape they need (the schema errors cover it). Findings about a
    node the loader refused (a placeholder stands there) are left out: the loader reported it."""
    return limited(_table_findings(table, manifest_schema, table_schema), table.source)


def _table_findings(
    table: Loaded, manifest_schema: Mapping[str, Any], table_schema: Mapping[str, Any]
) -> Iterator[Diagnostic]:
    """``validate_table``'s findings, one at a time (schema errors once each, then the cross-row
    rules), leaving out those about a refused node: past the limit nothing more is asked, so a
    table of a million bad rows is not walked on."""
    seen: set[tuple[str, str, str]] = set()
    minimum = minimum_table_schema(manifest_schema, table_schema)
    for schema, hint in ((table_schema, None), (minimum, _MINIMUM_HINT)):
        validator = make_table_validator(manifest_schema, schema)
        for error in validator.iter_errors(table.value):
            for leaf in _leaves(error):
                for diagnostic in _describe_error(leaf, table):
                    key = (diagnostic.code.value, diagnostic.pointer or "", diagnostic.message)
                    if key not in seen and not table.stands_on_refused(diagnostic.pointer):
                        seen.add(key)
                        yield diagnostic if hint is None else replace(diagnostic, hint=hint)
    for diagnostic in _cross_row_rules(table, manifest_schema):
        if not table.stands_on_refused(diagnostic.pointer):
            yield diagnostic


_MINIMUM_HINT = "toolgen reads the table so, whatever its schema allows"
# The constant names cohorts and maps declare (the table schema's ``ConstantName``).
CONSTANT_NAME_PATTERN = "^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$"
_DECLARATION = {
    "type": "object",
    "required": ["name", "field"],
    "properties": {
        "name": {"type": "string", "pattern": CONSTANT_NAME_PATTERN},
        "field": {"type": "string"},
    },
}


def minimum_table_schema(
    manifest_schema: Mapping[str, Any], table_schema: Mapping[str, Any]
) -> dict[str, Any]:
    """What the generator reads of the table whatever the table schema allows: a table schema
    loosened by hand (a row not checked against the manifest schema, a setting holding a list,
    no ``tools``) let through tables the registry could not be built from, and toolgen failed
    with an internal error. Checked as the table schema is, its findings located the same way
    (one also found by the table schema is reported once). Rows are checked against the
    manifest schema here only when the table schema does not already refer each one to it."""
    manifest_id = manifest_schema.get("$id")
    rows: dict[str, Any] = {"type": "object"}
    if isinstance(manifest_id, str) and not _refers_rows_to(table_schema, manifest_id):
        rows = {"$ref": manifest_id}
    return {
        "$schema": DRAFT_2020_12,
        "type": "object",
        "required": ["settings", "cohorts", "maps", "tools"],
        "properties": {
            "settings": {
                "type": "object",
                "properties": {"builtinLibrary": {"type": "string"}},
                "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
            },
            "cohorts": {"type": "array", "items": _DECLARATION},
            "maps": {"type": "array", "items": _DECLARATION},
            "tools": {"type": "array", "minItems": 1, "items": rows},
            "acknowledgedBreaking": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"code": {"type": "string"}, "subject": {"type": "string"}},
                },
            },
        },
    }


def _refers_rows_to(table_schema: Mapping[str, Any], manifest_id: str) -> bool:
    """Whether the table schema checks every row against the manifest schema itself
    (``properties.tools.items`` is a ``$ref`` to it, and nothing in the table schema takes its
    ``$id``)."""
    properties = table_schema.get("properties")
    tools = properties.get("tools") if isinstance(properties, Mapping) else None
    items = tools.get("items") if isinstance(tools, Mapping) else None
    return (
        isinstance(items, Mapping)
        and items.get("$ref") == manifest_id
        and not _declares_id(table_schema, manifest_id)
    )


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """For a failed union, the errors of the branch the value was meant for, when one stands out.

    A branch whose ``const``/``enum`` failed is a branch the value was not aiming at (its
    discriminator differs). If exactly one branch is left, its errors are the useful ones.
    """
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield error
        return
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        if not sub.relative_schema_path:
            # A `false` branch: jsonschema's error for it carries no branch index, so the
            # branches cannot be told apart (indexing it was an internal error).
            yield error
            return
        by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    aimed = [
        errors
        for errors in by_branch.values()
        if not any(e.validator in ("const", "enum") and len(e.relative_path) > 0 for e in errors)
    ]
    if len(aimed) == 1:
        for sub in aimed[0]:
            yield from _leaves(sub)
    else:
        yield error


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _message(error: ValidationError) -> str:
    keyword = error.validator
    expected = error.validator_value
    instance = error.instance
    size = len(instance) if isinstance(instance, str | list) else None
    if keyword == "type":
        listed: list[Any] = expected if isinstance(expected, list) else [expected]
        names = [str(name) for name in listed]
        wanted = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        return f"must be of type {wanted}, not {_json_type(instance)}"
    if keyword == "pattern":
        return f"{describe(instance)} does not match the pattern {describe(expected, 200)}"
    if keyword == "enum":
        allowed = ", ".join(json.dumps(v) for v in cast(list[Any], expected))
        return f"{describe(instance)} is not one of {allowed}"
    if keyword == "const":
        return f"must be {json.dumps(expected)}"
    if keyword in ("minLength", "minItems"):
        return f"length {size} is below the minimum of {expected}"
    if keyword in ("maxLength", "maxItems"):
        return f"length {size} is above the maximum of {expected}"
    if keyword == "uniqueItems":
        return "items must be unique"
    if keyword == "minimum":
        return f"{instance} is below the minimum of {expected}"
    if keyword == "maximum":
        return f"{instance} is above the maximum of {expected}"
    if keyword in ("oneOf", "anyOf"):
        return "matches none of the allowed shapes"
    return f"fails the {describe(keyword)} rule"


def _at(document: Loaded, pointer: str, *, key: bool = False) -> dict[str, Any]:
    """Location keywords for a ``Diagnostic`` about the node (or its key) at ``pointer``."""
    found = (document.key_position_of(pointer) if key else None) or document.position_of(pointer)
    line, column = found if found else (None, None)
    return {"source": document.source, "line": line, "column": column, "pointer": pointer}


def _describe_error(error: ValidationError, table: Loaded) -> Iterable[Diagnostic]:
    path = list(error.absolute_path)
    pointer = pointer_of(path)
    if error.validator == "additionalProperties" and path and error.message == "unknown property":
        key = str(path[-1])
        known = (
            list(error.schema.get("properties", {})) if isinstance(error.schema, Mapping) else []
        )
        close = difflib.get_close_matches(key, known, n=1)
        yield Diagnostic(
            Code.UNKNOWN_FIELD,
            f"unknown property {describe(key)}",
            **_at(table, pointer, key=True),
            hint=f"did you mean {describe(close[0])}?" if close else None,
        )
        return
    if error.validator == "required" and isinstance(error.instance, Mapping):
        for name in cast(list[str], error.validator_value):
            if name not in error.instance:
                yield Diagnostic(
                    Code.SCHEMA_VIOLATION,
                    f"missing required property {describe(name)}",
                    **_at(table, pointer),
                )
        return
    yield Diagnostic(Code.SCHEMA_VIOLATION, _message(error), **_at(table, pointer))


def _cross_row_rules(table: Loaded, manifest_schema: Mapping[str, Any]) -> Iterator[Diagnostic]:
    """The rules across rows and declarations, one finding at a time (a caller past the
    problem limit stops asking, and the rules stop there)."""
    if not isinstance(table.value, Mapping):
        return iter(())
    return itertools.chain(
        _duplicate_ids(table),
        _builtin_flags(table),
        _declarations(table, manifest_schema),
        _unportable_keys(table),
    )


def _items(table: Loaded, section: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """The rows (or declarations) of ``section`` that are objects; anything else is left to the
    schema's diagnostics."""
    items = table.value.get(section)
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, Mapping):
                yield index, item


def _unportable_keys(table: Loaded) -> Iterator[Diagnostic]:
    """Ids key every map, and row objects become TypeScript object literals: an array index
    among those keys would be enumerated first in JavaScript, out of the table's order."""
    for index, row in _items(table, "tools"):
        if isinstance(row.get("id"), str) and is_array_index(row["id"]):
            yield Diagnostic(
                Code.UNPORTABLE_KEY,
                f"id {describe(row['id'])} is an array index: JavaScript would list it before"
                " the other keys of every map, out of row order",
                **_at(table, pointer_of(("tools", index, "id"))),
            )
        yield from _unportable_object_keys(table, row, ("tools", index))


def _unportable_object_keys(
    table: Loaded, value: Any, path: tuple[str | int, ...]
) -> Iterator[Diagnostic]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if is_array_index(key):
                yield Diagnostic(
                    Code.UNPORTABLE_KEY,
                    f"key {describe(key)} is an array index: JavaScript would reorder it",
                    **_at(table, pointer_of((*path, key)), key=True),
                )
            if not isinstance(item, _SCALARS):
                yield from _unportable_object_keys(table, item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if not isinstance(item, _SCALARS):
                yield from _unportable_object_keys(table, item, (*path, index))


# Values without keys: not descended into (most of a row; a generator each added up).
_SCALARS = (str, int, float, type(None))


def _duplicate_ids(table: Loaded) -> Iterator[Diagnostic]:
    first_row_of: dict[str, int] = {}
    for index, row in _items(table, "tools"):
        identifier = row.get("id")
        if not isinstance(identifier, str):
            continue
        if identifier not in first_row_of:
            first_row_of[identifier] = index
            continue
        first = first_row_of[identifier]
        first_line = table.position_of(pointer_of(("tools", first, "id")))
        where = f" on line {first_line[0]}" if first_line else ""
        yield Diagnostic(
            Code.DUPLICATE_ID,
            f"id {describe(identifier)} is already used by row {first}{where}",
            **_at(table, pointer_of(("tools", index, "id"))),
        )


def _builtin_flags(table: Loaded) -> Iterator[Diagnostic]:
    for index, row in _items(table, "tools"):
        if row.get("builtin") is False:
            yield Diagnostic(
                Code.BUILTIN_CONFLICT,
                "every row of the table is a built-in tool; remove `builtin: false`",
                **_at(table, pointer_of(("tools", index, "builtin"))),
            )


def _declarations(table: Loaded, manifest_schema: Mapping[str, Any]) -> Iterator[Diagnostic]:
    """Cohorts name a required boolean field, maps a required string field; constant names are
    unique and not taken by what toolgen generates itself."""
    properties = manifest_schema.get("properties", {})
    required = set(manifest_schema.get("required", []))
    settings = table.value.get("settings")
    capability = manifest_schema.get("$defs", {}).get("Capability")
    enum = capability.get("enum") if isinstance(capability, Mapping) else None
    capability_names = {
        capability_constant(value)
        for value in (enum if isinstance(enum, list) else ())
        if isinstance(value, str)
    }
    reserved = (
        GENERATED_CONSTANTS
        | RUNTIME_NAMES
        | {"BUILTIN_LIBRARY"}  # a setting with a default: generated even when not given
        | {upper_snake(key) for key in (settings if isinstance(settings, Mapping) else ())}
        | capability_names
    )
    yield from _setting_constants(table, GENERATED_CONSTANTS | RUNTIME_NAMES | capability_names)
    constant_names: dict[str, str] = {}
    for section, wanted in (("cohorts", "boolean"), ("maps", "string")):
        for index, declaration in _items(table, section):
            field_pointer = pointer_of((section, index, "field"))
            field = declaration.get("field")
            declared = properties.get(field) if isinstance(field, str) else None
            if not isinstance(field, str):
                pass
            elif not isinstance(declared, Mapping):
                close = difflib.get_close_matches(field, list(properties), n=1)
                yield Diagnostic(
                    Code.UNKNOWN_DECLARED_FIELD,
                    f"{describe(field)} is not a property of the manifest schema",
                    **_at(table, field_pointer),
                    hint=f"did you mean {describe(close[0])}?" if close else None,
                )
            elif declared.get("type") != wanted or field not in required:
                yield Diagnostic(
                    Code.DECLARED_FIELD_TYPE,
                    f"{section} need a required {wanted} field; {describe(field)} is not one",
                    **_at(table, field_pointer),
                )
            name_pointer = pointer_of((section, index, "name"))
            name = declaration.get("name")
            if not isinstance(name, str):
                continue
            if name in reserved or name in constant_names:
                other = "generated by toolgen" if name in reserved else f"at {constant_names[name]}"
                yield Diagnostic(
                    Code.DUPLICATE_CONSTANT,
                    f"constant name {describe(name)} is already {other}",
                    **_at(table, name_pointer),
                )
            else:
                constant_names[name] = name_pointer


def _setting_constants(table: Loaded, reserved: frozenset[str] | set[str]) -> Iterator[Diagnostic]:
    """Each setting becomes a constant (``manifestMaxBytes``: ``MANIFEST_MAX_BYTES``): its name
    must make one, and no other setting nor anything toolgen generates may make the same one (a
    table schema that allows more settings let ``fooBar`` and ``foo_bar``, or ``supportedTools``,
    generate a module defining one constant twice)."""
    settings = table.value.get("settings")
    if not isinstance(settings, Mapping):
        return
    taken: dict[str, str] = {}
    if "builtinLibrary" not in settings:  # generated with its default all the same
        taken[upper_snake("builtinLibrary")] = "generated by toolgen"
    for key in settings:
        if not isinstance(key, str):
            continue
        constant = upper_snake(key)
        where = _at(table, pointer_of(("settings", key)), key=True)
        if re.fullmatch(CONSTANT_NAME_PATTERN, constant) is None:
            yield Diagnostic(
                Code.SCHEMA_VIOLATION,
                f"setting {describe(key)} makes the constant name {describe(constant)}, which is"
                " no UPPER_SNAKE_CASE identifier (write the key in camelCase: letters and digits)",
                **where,
            )
            continue
        other = "generated by toolgen" if constant in reserved else taken.get(constant)
        if other is not None:
            yield Diagnostic(
                Code.DUPLICATE_CONSTANT,
                f"setting {describe(key)} makes the constant name {constant}, which is already"
                f" {other}",
                **where,
            )
        else:
            line = f" on line {where['line']}" if where["line"] else ""
            taken[constant] = f"made by setting {describe(key)}{line}"

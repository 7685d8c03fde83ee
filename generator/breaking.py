"""``toolgen breaking``: what the working tree breaks for consumers since an older revision.

Pure: both sides arrive validated (``Side``); the result is ``Diagnostic`` records, each with a
``subject`` (an id, a constant, a code or an adapter instance path) that, with the code, is what
an acknowledgement names. Compared:

- the registry: a built-in id removed or renamed, a tool leaving a cohort or no longer providing a
  capability, a capability leaving the vocabulary, a cohort, map or settings constant removed, a
  settings constant's value changed; a type name (the schema's root ``title`` or a ``$defs`` key,
  which both packages export) removed or renamed;
- the runtime diagnostic codes (the generated ``DiagnosticCode`` enum at the baseline, read with
  ``ast``, against the code table now);
- the third-party adapter schema (``$defs/ThirdPartyToolManifest`` with its ``$ref`` and ``allOf``
  resolved), walked along instance paths (``items``, ``additionalProperties``, ``oneOf``/``anyOf``
  and the branches of ``if``/``then``/``else`` included): a property newly required, an
  ``enum``/``const`` (one set of admitted values) narrowed, a subschema newly ``false``, an ``if``
  or ``not`` condition added or changed, a
  ``type`` narrowed or alternatives changed, a ``pattern`` added or changed, a limit tightened,
  ``additionalProperties`` closed, a property removed from a closed object: each makes
  an adapter that was valid before invalid now.

Additions (a tool, a cohort member, a capability, an optional property, a widened limit, ...) are
``SAFE_ADDITION`` notes. Breaking records are errors unless the table's ``acknowledgedBreaking``
list names their code and subject: then they are warnings. An acknowledgement that names nothing
is ``ACKNOWLEDGEMENT_UNMATCHED``: an error when it is new, a warning when the baseline already
carried it (the change it named is older than the baseline: time to remove it).

Records are located in the working tree: registry changes at the row (or the section) of
``tools.yaml``, schema changes at the schema node, acknowledgements at their entry.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from generator.diagnostics import (
    MAX_SHOWN_CHARS,
    Code,
    Diagnostic,
    Severity,
    describe,
    pointer_of,
    sanitize,
)
from generator.ir import Registry
from generator.load import Loaded
from generator.schemas import MAX_REF_CHAIN, EffectiveSchema, effective_schema, resolve_local_ref
from generator.validate import THIRD_PARTY_DEF

ACKNOWLEDGEMENTS = "acknowledgedBreaking"
# How deep the adapter schema is compared (properties, items, branches): a path of
# ``schemas.MAX_REF_CHAIN`` ``$ref``s and then some inline nesting. Past it the comparison
# stops with an error saying so (at 32 it stopped silently: a change 40 levels down was
# "0 breaking", exit 0).
_MAX_DEPTH = MAX_REF_CHAIN + 32

# Limits whose lowering (upper bounds) or raising (lower bounds) refuses values accepted before.
_UPPER_LIMITS = ("maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum")
_LOWER_LIMITS = ("minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum")


def json_key(value: Any) -> object:
    """A key equal for two JSON values exactly when JSON Schema calls them equal, as the
    generated validators compare them: ``true`` is not ``1`` (Python's ``==`` said it was, so
    ``const: 1`` changed to ``const: true`` was no change), ``1`` is ``1.0``, objects compare
    without their key order."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, float):
        return ("n", str(int(value)) if value.is_integer() else repr(value))
    if isinstance(value, int):
        return ("n", str(value))
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("z",)
    if isinstance(value, list | tuple):
        return ("a", tuple(json_key(item) for item in value))
    if isinstance(value, Mapping):
        return ("o", frozenset((str(name), json_key(item)) for name, item in value.items()))
    return ("?", repr(value))


def shown_json(value: Any) -> str:
    """A value as JSON text for a message (``true``, ``null``, ``"a"``; Python's ``True`` and
    ``None`` were shown), sanitized and clipped."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return sanitize(text, MAX_SHOWN_CHARS)


@dataclass(frozen=True)
class Side:
    """One revision's validated sources."""

    manifest: Loaded
    table: Loaded
    registry: Registry
    runtime_codes: tuple[str, ...] | None


def _at(loaded: Loaded, pointer: str) -> dict[str, Any]:
    """Where ``pointer`` starts: at its key when it is a mapping's value (a section header such as
    ``tools:`` reads better than the first row), else at the node."""
    position = loaded.key_position_of(pointer) or loaded.position_of(pointer)
    line, column = position if position else (None, None)
    return {"source": loaded.source, "line": line, "column": column, "pointer": pointer}


def _record(code: Code, subject: str, message: str, where: dict[str, Any]) -> Diagnostic:
    severity = Severity.INFO if code is Code.SAFE_ADDITION else Severity.ERROR
    return Diagnostic(code, message, severity=severity, subject=subject, **where)


def compare(
    old: Side, new: Side, codes_source: str, current_codes: tuple[str, ...]
) -> list[Diagnostic]:
    """Every breaking and additive change from ``old`` to ``new`` (not yet acknowledged)."""
    found = list(_registry_changes(old, new))
    if old.runtime_codes is not None:
        for name in old.runtime_codes:
            if name not in current_codes:
                found.append(
                    _record(
                        Code.BREAKING_RUNTIME_CODE_REMOVED,
                        name,
                        f"the runtime diagnostic code {describe(name)} was removed",
                        {"source": codes_source},
                    )
                )
    found.extend(_type_name_changes(old.manifest, new.manifest))
    found.extend(_schema_changes(old.manifest, new.manifest))
    return found


def _type_names(manifest: Loaded) -> dict[str, str]:
    """The type names the manifest schema gives both packages (Python models, TypeScript
    types): its root ``title`` and its ``$defs`` keys, each with the pointer that names it."""
    value = manifest.value if isinstance(manifest.value, dict) else {}
    names: dict[str, str] = {}
    title = value.get("title")
    if isinstance(title, str):
        names[title] = "/title"
    definitions = value.get("$defs")
    if isinstance(definitions, dict):
        for name in definitions:
            if isinstance(name, str):
                names.setdefault(name, pointer_of(("$defs", name)))
    return names


def _type_name_changes(old: Loaded, new: Loaded) -> Iterator[Diagnostic]:
    """A type name gone (removed or renamed) breaks every consumer importing it by name."""
    before, after = _type_names(old), _type_names(new)
    for name in before:
        if name not in after:
            yield _record(
                Code.BREAKING_TYPE_REMOVED,
                name,
                f"the type {describe(name)} was removed or renamed (consumers import it by name)",
                _at(new, "/$defs" if before[name] != "/title" else "/title"),
            )
    for name, pointer in after.items():
        if name not in before:
            yield _record(Code.SAFE_ADDITION, name, f"new type {describe(name)}", _at(new, pointer))


def _row_pointer(registry: Registry, identifier: str) -> str:
    return pointer_of(("tools", registry.ids.index(identifier)))


def _registry_changes(old: Side, new: Side) -> Iterator[Diagnostic]:
    before, after, table = old.registry, new.registry, new.table
    for identifier in before.ids:
        if identifier not in after.ids:
            yield _record(
                Code.BREAKING_TOOL_REMOVED,
                identifier,
                f"the built-in tool {describe(identifier)} was removed or renamed",
                _at(table, "/tools"),
            )
    for identifier in after.ids:
        if identifier not in before.ids:
            yield _record(
                Code.SAFE_ADDITION,
                identifier,
                f"new built-in tool {describe(identifier)}",
                _at(table, _row_pointer(after, identifier)),
            )
    kept = [identifier for identifier in before.ids if identifier in after.ids]
    yield from _cohort_changes(before, after, table, kept)
    yield from _category_changes(before, after, table, kept)
    yield from _removed_constants(before, after, table)
    yield from _capability_changes(old, new, kept)


def _cohort_changes(
    before: Registry, after: Registry, table: Loaded, kept: list[str]
) -> Iterator[Diagnostic]:
    cohorts_now = {cohort.name: cohort for cohort in after.cohorts}
    for cohort in before.cohorts:
        now = cohorts_now.get(cohort.name)
        if now is None:
            yield _record(
                Code.BREAKING_COHORT_REMOVED,
                cohort.name,
                f"the cohort {cohort.name} was removed",
                _at(table, "/cohorts"),
            )
            continue
        for identifier in kept:
            was, is_ = identifier in cohort.members, identifier in now.members
            if was == is_:
                continue
            row = _row_pointer(after, identifier)
            yield _record(
                Code.BREAKING_COHORT_LEFT if was else Code.SAFE_ADDITION,
                f"{identifier}/{cohort.name}",
                f"{describe(identifier)} {'left' if was else 'joined'} {cohort.name}",
                _at(table, f"{row}{pointer_of((now.field,))}"),
            )


def _category_changes(
    before: Registry, after: Registry, table: Loaded, kept: list[str]
) -> Iterator[Diagnostic]:
    """A tool still there whose ``category`` changed (given, dropped or moved): consumers group
    and show tools by it, and a tool moved into or out of the inert category stops or starts
    being detected, launched and routed."""
    old_rows = {tool.id: tool.manifest for tool in before.tools}
    new_rows = {tool.id: tool.manifest for tool in after.tools}
    for identifier in kept:
        was, is_ = old_rows[identifier].get("category"), new_rows[identifier].get("category")
        if was == is_:
            continue
        row = _row_pointer(after, identifier)
        yield _record(
            Code.BREAKING_CATEGORY_CHANGED,
            f"{identifier}/category",
            f"{describe(identifier)} moved from {_category_shown(was)} to {_category_shown(is_)}",
            _at(table, row if is_ is None else f"{row}/category"),
        )


def _category_shown(category: object) -> str:
    return "no category" if category is None else describe(category)


def _capability_changes(old: Side, new: Side, kept: list[str]) -> Iterator[Diagnostic]:
    before, after = old.registry, new.registry
    for capability in before.capabilities:
        if capability not in after.capabilities:
            yield _record(
                Code.BREAKING_CAPABILITY_REMOVED,
                capability,
                f"the capability {describe(capability)} left the vocabulary",
                _at(new.manifest, "/$defs/Capability"),
            )
    for capability in after.capabilities:
        if capability not in before.capabilities:
            yield _record(
                Code.SAFE_ADDITION,
                capability,
                f"new capability {describe(capability)}",
                _at(new.manifest, "/$defs/Capability"),
            )
    old_providers = dict(before.capability_providers)
    new_providers = dict(after.capability_providers)
    for capability in dict.fromkeys((*before.capabilities, *after.capabilities)):
        for identifier in kept:
            was = identifier in old_providers.get(capability, ())
            is_ = identifier in new_providers.get(capability, ())
            if was != is_:
                yield _record(
                    Code.BREAKING_CAPABILITY_LEFT if was else Code.SAFE_ADDITION,
                    f"{identifier}/{capability}",
                    f"{describe(identifier)} {'no longer provides' if was else 'now provides'}"
                    f" {describe(capability)}",
                    _at(new.table, f"{_row_pointer(after, identifier)}/capabilities"),
                )


def _removed_constants(before: Registry, after: Registry, table: Loaded) -> Iterator[Diagnostic]:
    maps_now = {lookup.name for lookup in after.maps}
    for lookup in before.maps:
        if lookup.name not in maps_now:
            yield _record(
                Code.BREAKING_MAP_REMOVED,
                lookup.name,
                f"the map {lookup.name} was removed",
                _at(table, "/maps"),
            )
    settings_now = {setting.constant: setting for setting in after.settings}
    for setting in before.settings:
        now = settings_now.get(setting.constant)
        if now is None:
            yield _record(
                Code.BREAKING_CONSTANT_REMOVED,
                setting.constant,
                f"the settings constant {setting.constant} was removed",
                _at(table, "/settings"),
            )
        elif json_key(now.value) != json_key(setting.value):
            # A consumer may rely on the value itself (the folder adapters are read from, the
            # size limit an adapter was written to): any change is reported, a raised limit too.
            yield _record(
                Code.BREAKING_CONSTANT_CHANGED,
                setting.constant,
                f"the settings constant {setting.constant} changed from"
                f" {shown_json(setting.value)} to {shown_json(now.value)}",
                _at(table, f"/settings/{now.key}"),
            )
    for name in sorted(
        ({c.name for c in after.cohorts} - {c.name for c in before.cohorts})
        | (maps_now - {m.name for m in before.maps})
    ):
        section = "/cohorts" if name in {c.name for c in after.cohorts} else "/maps"
        yield _record(Code.SAFE_ADDITION, name, f"new constant {name}", _at(table, section))


# --- the adapter schema -------------------------------------------------------------------------


def _types(node: EffectiveSchema) -> set[str] | None:
    declared = node.keywords.get("type")
    if declared is None:
        return None
    found = {declared} if isinstance(declared, str) else set(declared)
    if "number" in found:
        found.add("integer")
    return found


def _schema_changes(old: Loaded, new: Loaded) -> Iterator[Diagnostic]:
    pointer = f"/$defs/{THIRD_PARTY_DEF}"
    old_entry = resolve_local_ref(old.value, f"#{pointer}")
    new_entry = resolve_local_ref(new.value, f"#{pointer}")
    if old_entry is None or new_entry is None:
        return
    yield from _walk(
        effective_schema(old_entry, old.value, pointer),
        effective_schema(new_entry, new.value, pointer),
        (),
        _Walk(old.value, new.value, new),
    )


@dataclass(frozen=True)
class _Walk:
    old_root: Mapping[str, Any]
    new_root: Mapping[str, Any]
    new: Loaded
    # The (old, new) schema nodes compared so far, by pointer: a node reached again by another
    # path (``D0: {l: $ref D1, r: $ref D1}``, and so on down) is compared once, its changes
    # reported at the first path. Walking every path was exponential: 22 such levels made
    # 4,194,304 records of one change and took three minutes; 32 would never end.
    compared: set[tuple[str, str]] = dataclasses.field(default_factory=set)

    def record(self, code: Code, path: tuple[str, ...], pointer: str, message: str) -> Diagnostic:
        subject = "/" + "/".join(path)
        shown = f"{subject}: {message}"
        return _record(code, subject, shown, _at(self.new, pointer))


def _walk(
    old: EffectiveSchema,
    new: EffectiveSchema,
    path: tuple[str, ...],
    walk: _Walk,
    depth: int = 0,
    *,
    outer: EffectiveSchema | None = None,
) -> Iterator[Diagnostic]:
    """Compare ``old`` with ``new`` at ``path``; ``outer`` is the baseline's node when these are
    its ``then``/``else`` branches (they describe the same object)."""
    if (old.pointer, new.pointer) in walk.compared:
        return
    if depth > _MAX_DEPTH:
        yield walk.record(
            Code.SCHEMA_UNSUPPORTED,
            path,
            new.pointer,
            f"nested more than {_MAX_DEPTH} levels deep: not compared below here",
        )
        return
    walk.compared.add((old.pointer, new.pointer))
    yield from _compare_keywords(old, new, path, walk)
    yield from _compare_object(old, new, path, walk, depth, outer=outer)
    old_items, new_items = old.keywords.get("items"), new.keywords.get("items")
    if isinstance(new_items, Mapping | bool):
        yield from _walk_raw(
            True if old_items is None else old_items,
            new_items,
            (f"{old.pointer}/items", f"{new.pointer}/items"),
            (*path, "*"),
            walk=walk,
            depth=depth + 1,
        )
    yield from _conditional(old, new, path, walk, depth)
    yield from _negation(old, new, path, walk)
    for keyword in ("oneOf", "anyOf"):
        before, after = old.keywords.get(keyword), new.keywords.get(keyword)
        if after is None:
            continue
        if not isinstance(before, list) or not isinstance(after, list) or len(before) != len(after):
            yield walk.record(
                Code.BREAKING_SCHEMA_TYPE_CHANGED,
                path,
                f"{new.pointer}/{keyword}",
                f"the {keyword} alternatives changed",
            )
            continue
        for index, (first, second) in enumerate(zip(before, after, strict=True)):
            yield from _walk(
                effective_schema(first, walk.old_root, f"{old.pointer}/{keyword}/{index}"),
                effective_schema(second, walk.new_root, f"{new.pointer}/{keyword}/{index}"),
                path,
                walk,
                depth + 1,
            )


# The pointer standing for a baseline that accepted any value at a place (``true``).
_ANY_VALUE = "/(any value)"


def _walk_raw(
    old: Any,
    new: Any,
    pointers: tuple[str, str],
    path: tuple[str, ...],
    *,
    walk: _Walk,
    depth: int,
    outer: EffectiveSchema | None = None,
) -> Iterator[Diagnostic]:
    """Compare two subschemas as written: a ``false`` schema accepts nothing, so one newly
    ``false`` refuses whatever was accepted there; else their effective schemas are walked."""
    if new is False:
        if old is not False:
            yield walk.record(
                Code.BREAKING_SCHEMA_TYPE_CHANGED, path, pointers[1], "no longer accepts any value"
            )
        return
    if old is True:
        # The baseline accepted any value here (no ``items``, an open object, no branch): one
        # node however it is reached, so a recursive definition new there is compared once.
        # Its pointer grew by a step per level (``…/additionalProperties/…``), so every level
        # was new: 96 levels of the same records, then SCHEMA_UNSUPPORTED.
        pointers = (_ANY_VALUE, pointers[1])
    yield from _walk(
        effective_schema(old, walk.old_root, pointers[0]),
        effective_schema(new, walk.new_root, pointers[1]),
        path,
        walk,
        depth,
        outer=outer,
    )


def _origin(
    root: Mapping[str, Any],
    pointer: str,
    keyword: str,
    depth: int = 0,
    known: dict[str, str] | None = None,
) -> str:
    """Where ``keyword`` of the effective schema at ``pointer`` is written: the node itself, else
    the ``$ref`` target or ``allOf`` member it was merged from (the node's own keywords win).
    Each node is searched once per call (``known``): a part reached by many routes (``B<n>:
    allOf [$ref B<n-1>, $ref B<n-1>]`` beside the part holding ``if``) was searched once per
    route, 2**n times (24 levels did not finish in two minutes)."""
    known = {} if known is None else known
    if pointer in known:
        return known[pointer]
    known[pointer] = pointer  # while searching: a route back here finds nothing new
    node = resolve_local_ref(root, f"#{pointer}")
    if not isinstance(node, Mapping) or keyword in node or depth > _MAX_DEPTH:
        return pointer
    candidates = [f"{pointer}/allOf/{i}" for i in range(len(node.get("allOf", ())))][::-1]
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        candidates.append(ref[1:])
    for candidate in candidates:
        target = resolve_local_ref(root, f"#{candidate}")
        if isinstance(target, Mapping):
            found = _origin(root, candidate, keyword, depth + 1, known)
            if keyword in (resolve_local_ref(root, f"#{found}") or {}):
                known[pointer] = found
                return found
    return pointer


def _conditional(
    old: EffectiveSchema, new: EffectiveSchema, path: tuple[str, ...], walk: _Walk, depth: int
) -> Iterator[Diagnostic]:
    """``if``/``then``/``else``: with the same condition each branch is walked like the node
    itself (a branch added or narrowed refuses what it did not before); a changed or added
    condition may apply a branch to instances it did not apply to, so it is reported."""
    if "then" not in new.keywords and "else" not in new.keywords:
        return
    if "if" not in new.keywords:
        return  # without ``if``, ``then``/``else`` are ignored
    old_at = _origin(walk.old_root, old.pointer, "if")
    new_at = _origin(walk.new_root, new.pointer, "if")
    if "if" not in old.keywords or json_key(new.keywords["if"]) != json_key(old.keywords["if"]):
        verb = "changed" if "if" in old.keywords else "added"
        yield walk.record(
            Code.BREAKING_SCHEMA_TYPE_CHANGED,
            path,
            f"{new_at}/if",
            f"the if/then/else condition {verb}",
        )
        return
    for branch in ("then", "else"):
        if branch in new.keywords:
            yield from _walk_raw(
                old.keywords.get(branch, True),
                new.keywords[branch],
                (f"{old_at}/{branch}", f"{new_at}/{branch}"),
                path,
                walk=walk,
                depth=depth + 1,
                outer=old,
            )


def _negation(
    old: EffectiveSchema, new: EffectiveSchema, path: tuple[str, ...], walk: _Walk
) -> Iterator[Diagnostic]:
    """``not``: a subschema that now accepts more refuses more, so an added or changed ``not``
    may refuse adapters valid before (``not: {required: [hookPackage]}``); it is reported as a
    changed ``if`` condition is. One removed refuses nothing."""
    if "not" not in new.keywords:
        return
    if "not" in old.keywords and json_key(new.keywords["not"]) == json_key(old.keywords["not"]):
        return
    verb = "changed" if "not" in old.keywords else "added"
    yield walk.record(
        Code.BREAKING_SCHEMA_TYPE_CHANGED,
        path,
        f"{_origin(walk.new_root, new.pointer, 'not')}/not",
        f"the not condition {verb}",
    )


def _compare_keywords(
    old: EffectiveSchema, new: EffectiveSchema, path: tuple[str, ...], walk: _Walk
) -> Iterator[Diagnostic]:
    before, after = _types(old), _types(new)
    if after is not None and (before is None or not before <= after):
        lost = "any type" if before is None else ", ".join(sorted(before - after))
        yield walk.record(
            Code.BREAKING_SCHEMA_TYPE_CHANGED,
            path,
            f"{new.pointer}/type",
            f"no longer accepts {lost}",
        )
    old_values, new_values = _allowed(old), _allowed(new)
    if new_values is not None:
        keyword = "enum" if "enum" in new.keywords else "const"
        if old_values is None:
            lost = "every other value"
        else:
            old_keys = {json_key(value) for value in old_values}
            new_keys = {json_key(value) for value in new_values}
            missing = [value for value in old_values if json_key(value) not in new_keys]
            added = [value for value in new_values if json_key(value) not in old_keys]
            if added:
                yield walk.record(
                    Code.SAFE_ADDITION,
                    path,
                    f"{new.pointer}/{keyword}",
                    f"now also accepts {', '.join(shown_json(v) for v in added)}",
                )
            lost = ", ".join(shown_json(value) for value in missing)
        if lost:
            yield walk.record(
                Code.BREAKING_SCHEMA_ENUM_NARROWED,
                path,
                f"{new.pointer}/{keyword}",
                f"{keyword} no longer accepts {lost}",
            )
    if "pattern" in new.keywords and new.keywords["pattern"] != old.keywords.get("pattern"):
        verb = "changed" if "pattern" in old.keywords else "added"
        yield walk.record(
            Code.BREAKING_SCHEMA_PATTERN_CHANGED,
            path,
            f"{new.pointer}/pattern",
            f"pattern {verb}: {describe(new.keywords['pattern'])}",
        )
    yield from _limits(old, new, path, walk)


def _allowed(node: EffectiveSchema) -> list[Any] | None:
    """The values ``enum`` and ``const`` together admit (both must hold), or None: any value.
    Compared as one set, so ``const: a`` widened to ``enum: [a, b]`` is an addition."""
    values: list[Any] | None = None
    enum = node.keywords.get("enum")
    if isinstance(enum, list):
        values = list(enum)
    if "const" in node.keywords:
        const = node.keywords["const"]
        kept = values is None or json_key(const) in {json_key(value) for value in values}
        values = [const] if kept else []
    return values


def _limits(
    old: EffectiveSchema, new: EffectiveSchema, path: tuple[str, ...], walk: _Walk
) -> Iterator[Diagnostic]:
    for keyword in (*_UPPER_LIMITS, *_LOWER_LIMITS):
        after = new.keywords.get(keyword)
        if not isinstance(after, int | float):
            continue
        before = old.keywords.get(keyword)
        upper = keyword in _UPPER_LIMITS
        if isinstance(before, int | float) and (after >= before if upper else after <= before):
            continue
        was = "none" if before is None else str(before)
        yield walk.record(
            Code.BREAKING_SCHEMA_LIMIT_TIGHTENED,
            path,
            f"{new.pointer}/{keyword}",
            f"{keyword} tightened from {was} to {after}",
        )
    if new.keywords.get("uniqueItems") is True and old.keywords.get("uniqueItems") is not True:
        yield walk.record(
            Code.BREAKING_SCHEMA_LIMIT_TIGHTENED,
            path,
            f"{new.pointer}/uniqueItems",
            "uniqueItems added",
        )


def _closed(node: EffectiveSchema) -> bool:
    return node.keywords.get("additionalProperties") is False


def _compare_object(
    old: EffectiveSchema,
    new: EffectiveSchema,
    path: tuple[str, ...],
    walk: _Walk,
    depth: int,
    *,
    outer: EffectiveSchema | None = None,
) -> Iterator[Diagnostic]:
    if _closed(new) and not _closed(old):
        yield walk.record(
            Code.BREAKING_SCHEMA_CLOSED,
            path,
            f"{new.pointer}/additionalProperties",
            "additionalProperties closed: unknown properties are now refused",
        )
    for name in sorted(new.required - old.required):
        where = new.properties.get(name, (None, f"{new.pointer}/required"))[1]
        yield walk.record(
            Code.BREAKING_SCHEMA_REQUIRED_ADDED, (*path, name), where, "is now required"
        )
    for name, (_, old_pointer) in old.properties.items():
        if name not in new.properties and _closed(new):
            yield walk.record(
                Code.BREAKING_SCHEMA_PROPERTY_REMOVED,
                (*path, name),
                f"{new.pointer}/properties",
                f"removed from a closed object (was at {old_pointer})",
            )
    yield from _other_properties(old, new, path, walk, depth)
    for name, (sub, pointer) in new.properties.items():
        if name not in old.properties:
            if sub is False:
                yield walk.record(
                    Code.BREAKING_SCHEMA_TYPE_CHANGED,
                    (*path, name),
                    pointer,
                    "no longer accepts any value",
                )
            elif name not in new.required:
                yield from _new_property(
                    old, (sub, pointer), (*path, name), walk, depth, outer=outer
                )
            continue
        yield from _walk_raw(
            old.properties[name][0],
            sub,
            (old.properties[name][1], pointer),
            (*path, name),
            walk=walk,
            depth=depth + 1,
        )


def _new_property(
    old: EffectiveSchema,
    declared: tuple[Any, str],
    path: tuple[str, ...],
    walk: _Walk,
    depth: int,
    *,
    outer: EffectiveSchema | None = None,
) -> Iterator[Diagnostic]:
    """An optional property the baseline did not name: an addition where the baseline's object
    was closed (no adapter held it). Where it was open, an adapter could hold any value there
    (or any its ``additionalProperties`` schema admitted), so the new subschema is compared with
    that: ``notes: {type: string}`` added to an open object refuses ``"notes": 5``. In a
    ``then``/``else`` branch (``outer`` is the baseline's node it belongs to) what the branch
    did not name, the object accepted as ``outer`` said: its declaration of the property, else
    its ``additionalProperties``."""
    sub, pointer = declared
    before: Any = old.keywords.get("additionalProperties", True)
    was = f"{_origin(walk.old_root, old.pointer, 'additionalProperties')}/additionalProperties"
    if outer is not None and before is True:
        if path[-1] in outer.properties:
            before, was = outer.properties[path[-1]]
        else:
            before = outer.keywords.get("additionalProperties", True)
            was = (
                f"{_origin(walk.old_root, outer.pointer, 'additionalProperties')}"
                "/additionalProperties"
            )
    if before is not False:
        found = list(
            _walk_raw(
                before,
                sub,
                (was, pointer),
                path,
                walk=walk,
                depth=depth + 1,
            )
        )
        if any(record.code is not Code.SAFE_ADDITION for record in found):
            yield from found
            return
    yield walk.record(Code.SAFE_ADDITION, path, pointer, "new property")


def _other_properties(
    old: EffectiveSchema, new: EffectiveSchema, path: tuple[str, ...], walk: _Walk, depth: int
) -> Iterator[Diagnostic]:
    """``additionalProperties`` given as a schema: every property no ``properties`` entry names
    must now satisfy it (``additionalProperties: {type: boolean}`` where any value was accepted);
    compared with the baseline's (none: any value). One newly ``false`` is ``_compare_object``'s
    ``…_CLOSED``; one that was ``false`` admitted no such property, so nothing of it breaks."""
    after = new.keywords.get("additionalProperties")
    before = old.keywords.get("additionalProperties", True)
    if not isinstance(after, Mapping):
        return
    where = _origin(walk.new_root, new.pointer, "additionalProperties")
    if before is not False:
        was = _origin(walk.old_root, old.pointer, "additionalProperties")
        yield from _walk_raw(
            before,
            after,
            (f"{was}/additionalProperties", f"{where}/additionalProperties"),
            (*path, "*"),
            walk=walk,
            depth=depth + 1,
        )
    # A property the baseline named and the schema no longer does is now held to it too (the
    # baseline closed or not: the property was accepted under its own schema).
    for name, (sub, pointer) in old.properties.items():
        if name not in new.properties:
            yield from _walk_raw(
                sub,
                after,
                (pointer, f"{where}/additionalProperties"),
                (*path, name),
                walk=walk,
                depth=depth + 1,
            )


# --- acknowledgements ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Acknowledgement:
    code: str
    subject: str
    pointer: str


def acknowledgements(table: Loaded) -> list[Acknowledgement]:
    entries = table.value.get(ACKNOWLEDGEMENTS, []) if isinstance(table.value, Mapping) else []
    return [
        Acknowledgement(
            str(entry.get("code")), str(entry.get("subject")), f"/{ACKNOWLEDGEMENTS}/{i}"
        )
        for i, entry in enumerate(entries)
        if isinstance(entry, Mapping)
    ]


def acknowledge(
    found: list[Diagnostic], table: Loaded, inherited: list[Acknowledgement]
) -> list[Diagnostic]:
    """Breaking records an acknowledgement names become warnings; unmatched ones are reported."""
    entries = acknowledgements(table)
    named = {(entry.code, entry.subject) for entry in entries}
    matched: set[tuple[str, str]] = set()
    result: list[Diagnostic] = []
    for diagnostic in found:
        key = (diagnostic.code.value, diagnostic.subject or "")
        if diagnostic.severity is Severity.ERROR and key in named:
            matched.add(key)
            result.append(
                dataclasses.replace(
                    diagnostic,
                    severity=Severity.WARNING,
                    message=f"acknowledged: {diagnostic.message}",
                )
            )
        else:
            result.append(diagnostic)
    old = {(entry.code, entry.subject) for entry in inherited}
    for entry in entries:
        key = (entry.code, entry.subject)
        if key in matched:
            continue
        stale = key in old
        result.append(
            Diagnostic(
                Code.ACKNOWLEDGEMENT_UNMATCHED,
                f"{describe(entry.code)} for {describe(entry.subject)} names no change"
                + (" (the baseline already carried it: remove it)" if stale else ""),
                severity=Severity.WARNING if stale else Severity.ERROR,
                subject=entry.subject,
                **_at(table, entry.pointer),
            )
        )
    return result

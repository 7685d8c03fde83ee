"""JSON Schema validation with ECMA-262 ``pattern`` semantics.

JSON Schema defines ``pattern`` as an ECMA-262 regular expression. ``jsonschema`` evaluates it with
Python's ``re``, where ``$`` also matches before a trailing newline (so ``"codex\\n"`` would pass
``^[a-z]+$``) and ``\\d``/``\\w`` match non-ASCII characters. This module swaps in ``regress``, an
ECMA-262 engine, for every keyword that evaluates a pattern: ``pattern``, ``patternProperties`` and
``additionalProperties`` (which must know which keys a pattern already covers).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import regress
from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


@functools.lru_cache(maxsize=1024)
def compile_pattern(pattern: str) -> Any:
    """Compile with the Unicode flag, as JSON Schema asks; raises ``regress.RegressError``."""
    return regress.Regex(pattern, "u")


def pattern_error(pattern: str) -> str | None:
    """Why ``pattern`` is not a valid ECMA-262 (Unicode mode) expression, or ``None``."""
    try:
        compile_pattern(pattern)
    except regress.RegressError as error:
        return str(error)
    return None


def ecma_search(pattern: str, text: str) -> bool:
    """True when ``pattern`` matches somewhere in ``text`` (ECMA ``RegExp.prototype.test``)."""
    try:
        return compile_pattern(pattern).find(text) is not None
    except UnicodeEncodeError:
        # A lone surrogate cannot be handed to the engine; such a string matches no pattern.
        return False


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_search(pattern, instance):
        yield ValidationError(f"does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if ecma_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def additional_keys(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """Keys of ``instance`` covered by neither ``properties`` nor ``patternProperties``."""
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key
        for key in instance
        if key not in properties and not any(ecma_search(pattern, key) for pattern in patterns)
    ]


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras = additional_keys(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif additional is False:
        # One error per key, located at the key, so each unknown property gets its own line.
        for extra in extras:
            yield ValidationError("unknown property", path=[extra])


EcmaDraft202012Validator: Any = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    },
)


def _without_dialect(schema: Mapping[str, Any]) -> dict[str, Any]:
    # jsonschema re-picks the validator class from `$schema` whenever a `$ref` enters a resource
    # that declares one, which would silently swap back to Python-`re` patterns. Every resource
    # here is draft 2020-12 (validate.py checks that), so the declaration can go.
    return {key: value for key, value in schema.items() if key != "$schema"}


def ecma_validator(
    schema: Mapping[str, Any],
    *,
    resources: tuple[Mapping[str, Any], ...] = (),
    skip_ref: tuple[str, Callable[[Any], bool]] | None = None,
) -> Any:
    """A draft 2020-12 validator with ECMA-262 patterns for ``schema``, also across ``$ref``s into
    ``resources`` (other schemas, found by their ``$id``).

    ``skip_ref`` is ``(ref, known_valid)``: a ``$ref`` spelled exactly ``ref`` yields no error for
    an instance ``known_valid`` accepts, without resolving or walking it; it must only accept
    what the referenced schema accepts (any other instance is checked as usual)."""
    registry: Registry[Any] = Registry().with_resources(
        (str(other["$id"]), Resource.from_contents(_without_dialect(other), DRAFT202012))
        for other in resources
        if isinstance(other.get("$id"), str)
    )
    cls = EcmaDraft202012Validator if skip_ref is None else _skipping_validator(*skip_ref)
    return cls(_without_dialect(schema), registry=registry)


def _skipping_validator(skipped: str, known_valid: Callable[[Any], bool]) -> Any:
    def _ref(
        validator: Any, ref: str, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[ValidationError]:
        if ref == skipped and known_valid(instance):
            return
        # jsonschema's own `$ref` keyword, whose behaviour this keeps for every other instance.
        yield from validator._validate_reference(ref=ref, instance=instance)

    return validators.extend(EcmaDraft202012Validator, {"$ref": _ref})  # type: ignore[no-untyped-call]


def ecma_validator_for_def(root: Mapping[str, Any], name: str) -> Any:
    """A validator for ``root["$defs"][name]`` whose references resolve against ``root``."""
    return ecma_validator({"$ref": f"{root['$id']}#/$defs/{name}"}, resources=(root,))

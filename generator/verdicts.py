"""Fast verdicts ("is this value valid?") from toolgen's compiled validators, for stages that would
otherwise ask ``jsonschema`` the same question value after value.

- ``manifest_verdict(manifest_schema)``: true when the validator compiled from the manifest
  schema (``validate.validator_source``, the very ``validator.py`` the project ships) finds no
  violation in a value. ``validate`` lets ``jsonschema`` skip a table row it accepts and checks
  every other row as before, so a failing row is reported exactly as it always was.
- ``branch_verdicts(schema, pointers)``: the same for subschemas of ``schema`` named by JSON
  pointer (the branches of its unions), compiled together into one module.

Both are used only to say "valid": a value one rejects is still judged by ``jsonschema``, so
where the two could differ (the compiled validators also refuse lone surrogates) the answer is
``jsonschema``'s. A fast path never changes an outcome, only its cost: a schema the compiler
refuses, or whose compiled module Python cannot compile or run (nested beyond CPython's static
block limit, say: the format stage reports ``validator.py`` then, as it always did), has no
verdicts (``None``: ``jsonschema`` judges everything), and a value whose check raises is not
known to be valid.

Compiled modules import the generated package's ``diagnostics`` and
``schema_runtime``: they are rendered from the packaged templates (which take nothing from the
project) and executed once per process under a private package name no project module can take.
"""

from __future__ import annotations

import functools
import json
import sys
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from generator.validator_compiler import compile_validators

if TYPE_CHECKING:
    from generator.ir import Registry

# A private package holding the rendered runtime modules the compiled validators import.
PACKAGE = "_toolgen_verdicts"
# The compiled validator's entry point for the manifest root (``validate.VALIDATOR_ENTRY_POINTS``).
_MANIFEST_ENTRY = "validate_tool_manifest"

Verdict = Callable[[Any], bool]


def manifest_verdict(manifest_schema: Mapping[str, Any]) -> Verdict | None:
    """True for a value the compiled manifest validator accepts."""
    try:
        return _manifest_verdict(json.dumps(manifest_schema, sort_keys=False))
    except Exception:  # no verdicts: see the module's contract
        return None


def branch_verdicts(
    schema: Mapping[str, Any], pointers: tuple[str, ...]
) -> dict[str, Verdict] | None:
    """``{pointer: verdict}`` for subschemas of ``schema`` (each pointer names one)."""
    if not pointers:
        return {}
    try:
        return _branch_verdicts(json.dumps(schema, sort_keys=False), pointers)
    except Exception:  # no verdicts: see the module's contract
        return None


@functools.lru_cache(maxsize=8)
def _manifest_verdict(schema_json: str) -> Verdict:
    from generator.validate import validator_source  # noqa: PLC0415 - validate imports this module

    namespace = _execute(validator_source(json.loads(schema_json)))
    return _verdict(namespace[_MANIFEST_ENTRY])


@functools.lru_cache(maxsize=8)
def _branch_verdicts(schema_json: str, pointers: tuple[str, ...]) -> dict[str, Verdict]:
    names = {f"verdict_{index}": pointer for index, pointer in enumerate(pointers)}
    namespace = _execute(compile_validators(json.loads(schema_json), names))
    return {pointer: _verdict(namespace[name]) for name, pointer in names.items()}


def _verdict(validate: Callable[[Any, int], tuple[Any, ...]]) -> Verdict:
    def verdict(value: Any) -> bool:
        try:
            # A limit of 0: an invalid value stops at its first violation (the answer is all
            # that is wanted here); a valid one returns no record.
            return not validate(value, 0)
        except Exception:  # not known to be valid (RecursionError, mostly)
            return False

    return verdict


def _execute(source: str) -> dict[str, Any]:
    """The namespace of a compiled validator module (its imports are relative: ``.diagnostics``)."""
    _runtime_package()
    namespace: dict[str, Any] = {"__name__": f"{PACKAGE}.validator", "__package__": PACKAGE}
    exec(compile(source, f"<{PACKAGE}.validator>", "exec"), namespace)  # noqa: S102 - our own code
    return namespace


@functools.cache
def _runtime_package() -> None:
    """Render and execute ``diagnostics`` and ``schema_runtime`` as submodules of ``PACKAGE``."""
    from generator import render, views  # noqa: PLC0415 - views imports validate, which imports us

    environment = render.make_environment()
    package = types.ModuleType(PACKAGE, "Runtime modules for toolgen's compiled verdicts.")
    package.__path__ = []
    sys.modules[PACKAGE] = package
    # The views of these two modules read nothing from the registry.
    no_registry = cast("Registry", None)
    for name, context in (
        ("diagnostics", views.python_diagnostics(no_registry)),
        ("schema_runtime", views.no_context(no_registry)),
    ):
        text = environment.get_template(f"python/{name}.py.jinja").render(context)
        module = types.ModuleType(f"{PACKAGE}.{name}")
        module.__package__ = PACKAGE
        sys.modules[module.__name__] = module
        exec(compile(text, f"<{module.__name__}>", "exec"), module.__dict__)  # noqa: S102
        setattr(package, name, module)

"""Fast verdicts for table rows: the compiled manifest validator answers "valid" for most rows.

``validate_table`` checks the table with ``jsonschema`` so that every diagnostic is built from
its error records; on a large table that is most of its time, almost all of it spent confirming
valid rows against the manifest schema. ``row_verdict(manifest_schema)`` returns a function
``value -> bool`` that is true only when the manifest validator toolgen compiles from that schema
(``validate.validator_source``, the very ``validator.py`` the project ships) finds no violation;
``validate`` then lets ``jsonschema`` skip such a row and checks every other row as before, so a
failing row is reported exactly as it always was.

The compiled module imports the generated package's ``diagnostics`` and ``schema_runtime``: they
are rendered from the packaged templates (which take nothing from the project) and executed once
per process under a private package name that no project module can take.
"""

from __future__ import annotations

import functools
import json
import sys
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from generator.validator_compiler import CompileError

if TYPE_CHECKING:
    from generator.ir import Registry

# A private package holding the rendered runtime modules the compiled validators import.
PACKAGE = "_toolgen_row_check"
# The compiled validator's entry point for the manifest root (``validate.VALIDATOR_ENTRY_POINTS``).
_ENTRY = "validate_tool_manifest"

Verdict = Callable[[Any], bool]


def row_verdict(manifest_schema: Mapping[str, Any]) -> Verdict | None:
    """True for a value the compiled manifest validator accepts; ``None`` when the schema cannot
    be compiled (then every row goes to ``jsonschema``)."""
    try:
        return _verdict(json.dumps(manifest_schema, sort_keys=False))
    except CompileError:
        return None


@functools.lru_cache(maxsize=8)
def _verdict(schema_json: str) -> Verdict:
    from generator.validate import validator_source  # noqa: PLC0415 - validate imports this module

    source = validator_source(json.loads(schema_json))
    namespace: dict[str, Any] = {"__name__": f"{PACKAGE}.validator", "__package__": PACKAGE}
    _runtime_package()
    exec(compile(source, f"<{PACKAGE}.validator>", "exec"), namespace)  # noqa: S102 - our own code
    validate: Callable[[Any, int], tuple[Any, ...]] = namespace[_ENTRY]

    def verdict(value: Any) -> bool:
        try:
            # A limit of 0: an invalid value stops at its first violation (the answer is all
            # that is wanted here); a valid one returns no record.
            return not validate(value, 0)
        except RecursionError:
            return False  # too deep to judge here: jsonschema reports it as it always has

    return verdict


@functools.cache
def _runtime_package() -> None:
    """Render and execute ``diagnostics`` and ``schema_runtime`` as submodules of ``PACKAGE``."""
    from generator import render, views  # noqa: PLC0415 - only when rows are checked

    environment = render.make_environment()
    package = types.ModuleType(PACKAGE, "Runtime modules for toolgen's row checks.")
    package.__path__ = []
    sys.modules[PACKAGE] = package
    # The diagnostics view reads nothing from the registry (its codes are the generator's own).
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

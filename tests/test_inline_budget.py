"""Both validator backends expand ``$ref`` targets inline only within bounds (``plan.
MAX_INLINED_TARGET`` per target, ``plan.MAX_INLINED_NODES`` per function), so the generated code
grows linearly with the schema. Inlining by depth alone grew each function as fan-out ** depth:
definitions referring to the next through four properties, twelve levels deep, made 17.9 MB of
Python and 38 MB of TypeScript (eight properties over 48 levels: killed for memory)."""

from __future__ import annotations

import json
from typing import Any

from generator.plan import build_plan, expanded_sizes
from generator.ts_validator import typescript_validators
from generator.validator_compiler import python_validators

from .conftest import REPO


def _chain(levels: int, fan_out: int) -> dict[str, Any]:
    """Definitions each holding ``fan_out`` properties that all refer to the next one."""
    definitions: dict[str, Any] = {}
    for level in range(levels):
        following = {"$ref": f"#/$defs/D{level + 1}"} if level + 1 < levels else {"type": "string"}
        definitions[f"D{level}"] = {
            "type": "object",
            "properties": {f"p{n}": following for n in range(fan_out)},
        }
    return {"title": "Chain", "$ref": "#/$defs/D0", "$defs": definitions}


def test_a_wide_deep_chain_compiles_to_code_linear_in_the_schema() -> None:
    plan = build_plan(_chain(12, 4), {"validate": ""})
    python = python_validators(plan, package="tool_registry")
    typescript = typescript_validators(plan)
    assert len(python) < 1_000_000, len(python)
    assert len(typescript) < 1_000_000, len(typescript)
    # Four times the levels: about four times the code, not four times the exponent.
    longer = build_plan(_chain(48, 4), {"validate": ""})
    assert len(python_validators(longer, package="tool_registry")) < 6 * len(python)


def test_the_chain_still_validates_every_level() -> None:
    schema = _chain(12, 4)
    plan = build_plan(schema, {"validate": ""})
    namespace: dict[str, Any] = {}
    exec(compile(python_validators(plan, package="tool_registry"), "<chain>", "exec"), namespace)  # noqa: S102 - our own compiler's output
    document: Any = "leaf"
    for _ in range(12):
        document = {"p0": document, "p3": document}
    assert namespace["validate"](document) == ()
    broken = json.loads(json.dumps(document))
    place = broken
    for _ in range(10):
        place = place["p3"]
    place["p3"]["p0"] = 5  # the eleventh level holds a number where a string belongs
    found = namespace["validate"](broken)
    assert [(d.pointer, d.keyword) for d in found] == [("/p3" * 11 + "/p0", "type")]


def test_the_manifest_schema_is_inlined_well_within_the_bounds() -> None:
    # Its largest target (the third-party root, expanding the root) is 64 nodes: the bounds
    # change nothing in the generated validators (the golden files hold them byte for byte).
    schema = json.loads((REPO / "schema/tool-manifest.schema.json").read_text(encoding="utf-8"))
    plan = build_plan(schema, {"a": "", "b": "/$defs/ThirdPartyToolManifest"})
    assert max(expanded_sizes(plan).values()) <= 64

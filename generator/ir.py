"""IR stage: frozen dataclasses that are everything the templates may see.

``build_ir`` takes validated documents and derives the cohorts, maps and capability routing the
table declares. It is pure and assumes validation passed; templates never look at raw YAML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.config import DEFAULT_PACKAGE, Package
from generator.naming import capability_constant, upper_snake
from generator.schemas import canonical_order, resolve_local_ref

JsonValue = Any


@dataclass(frozen=True)
class Tool:
    """One row, its fields in the schema's property order (YAML key order does not matter)."""

    id: str
    manifest: Mapping[str, JsonValue]


@dataclass(frozen=True)
class Cohort:
    """The ids of the rows whose boolean ``field`` is true, in row order."""

    name: str
    field: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class LookupMap:
    """``field`` of every row, keyed by id, in row order."""

    name: str
    field: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Setting:
    key: str
    constant: str
    value: str | int


@dataclass(frozen=True)
class Registry:
    tools: tuple[Tool, ...]
    cohorts: tuple[Cohort, ...]
    maps: tuple[LookupMap, ...]
    capabilities: tuple[str, ...]
    capability_providers: tuple[tuple[str, tuple[str, ...]], ...]
    settings: tuple[Setting, ...]
    # Built-in ids a launcher may start: launchable and not inert (an mcp-server), in row order.
    launchable: tuple[str, ...]
    manifest_schema: Mapping[str, JsonValue]
    table_schema: Mapping[str, JsonValue]
    # The generated packages' names and versions (``[tool.toolgen]``; the pipeline sets it).
    package: Package = DEFAULT_PACKAGE

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(tool.id for tool in self.tools)

    @property
    def capability_constants(self) -> tuple[tuple[str, str], ...]:
        """``(constant name, capability)`` for every capability, in vocabulary order."""
        return tuple((capability_constant(c), c) for c in self.capabilities)

    def setting(self, key: str) -> Setting:
        return next(setting for setting in self.settings if setting.key == key)


DEFAULT_BUILTIN_LIBRARY = "builtin"
# The category of declarative entries that nothing runs (detection, launch, routing, hooks).
INERT_CATEGORY = "mcp-server"


def _library_stamp(
    row: Mapping[str, JsonValue], library: str, manifest_schema: Mapping[str, JsonValue]
) -> dict[str, JsonValue]:
    if "library" in row or "library" not in manifest_schema.get("properties", {}):
        return {}
    return {"library": library}


def capability_vocabulary(manifest_schema: Mapping[str, JsonValue]) -> tuple[str, ...]:
    """The closed capability vocabulary, read from ``$defs/Capability`` in the schema."""
    capability = resolve_local_ref(manifest_schema, "#/$defs/Capability") or {}
    return tuple(capability.get("enum", ()))


def _integral(value: JsonValue) -> JsonValue:
    """``65536.0`` is the integer 65536 to JSON Schema and to the constants both languages render:
    the docs show it so too (they printed ``65536.0`` beside code holding ``65536``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def build_ir(
    table: Mapping[str, JsonValue],
    manifest_schema: Mapping[str, JsonValue],
    table_schema: Mapping[str, JsonValue],
) -> Registry:
    table = canonical_order(table, table_schema, table_schema)
    library = table["settings"].get("builtinLibrary", DEFAULT_BUILTIN_LIBRARY)
    # Every row of the table is a built-in tool; third-party loaders stamp `builtin: false`.
    # A row without a library belongs to the table's built-in library (when the schema has one).
    stamp: dict[str, JsonValue] = {"builtin": True}
    rows = canonical_order(
        [
            {**row, **stamp, **_library_stamp(row, library, manifest_schema)}
            for row in table["tools"]
        ],
        {"items": manifest_schema},
        manifest_schema,
    )
    tools = tuple(Tool(row["id"], row) for row in rows)
    cohorts = tuple(
        Cohort(d["name"], d["field"], tuple(t.id for t in tools if t.manifest[d["field"]] is True))
        for d in table["cohorts"]
    )
    maps = tuple(
        LookupMap(d["name"], d["field"], tuple((t.id, t.manifest[d["field"]]) for t in tools))
        for d in table["maps"]
    )
    capabilities = capability_vocabulary(manifest_schema)
    providers = tuple(
        (
            capability,
            tuple(
                t.id
                for t in tools
                if capability in t.manifest.get("capabilities", {}).get("provides", ())
            ),
        )
        for capability in capabilities
    )
    settings = tuple(
        Setting(key, upper_snake(key), _integral(value))
        for key, value in {**table["settings"], "builtinLibrary": library}.items()
    )
    launchable = tuple(
        t.id
        for t in tools
        if t.manifest["launchable"] is True and t.manifest.get("category") != INERT_CATEGORY
    )
    return Registry(
        tools,
        cohorts,
        maps,
        capabilities,
        providers,
        settings,
        launchable,
        manifest_schema,
        table_schema,
    )

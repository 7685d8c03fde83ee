"""View functions: ``Registry`` -> the context one template renders (pure).

Anything heavier than a loop or a condition happens here, in Python, so templates stay boring.
Values reach a context already rendered as language literals by ``literals`` (or as trusted names
the validators have constrained: constant names, setting keys, schema titles).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from generator import (
    diagnostics,
    editor_schema,
    literals,
    lookalikes,
    markdown,
    model_builder,
    runtime_codes,
    shapes,
    validate,
)
from generator import python_models as models_adapter
from generator import ts_types as ts_type_emitter
from generator.ir import INERT_CATEGORY, Registry
from generator.naming import GENERATED_CONSTANTS
from generator.schemas import (
    effective_schema,
    property_order,
    property_schema,
    resolve_local_ref,
)

Context = dict[str, Any]


@functools.lru_cache(maxsize=8)
def _models_source(schema_json: str) -> str:
    return models_adapter.generate_models(json.loads(schema_json))


@functools.lru_cache(maxsize=8)
def _shapes(schema_json: str) -> shapes.Shapes:
    return shapes.resolve(json.loads(schema_json))


def clear_caches() -> None:
    """Forget memoised generator output (benchmarks use it to time cold runs)."""
    _models_source.cache_clear()
    _shapes.cache_clear()
    validate.clear_caches()


def models_source(registry: Registry) -> str:
    # datamodel-code-generator takes most of a run's time; two targets need its output.
    return _models_source(json.dumps(registry.manifest_schema, sort_keys=False))


def manifest_shapes(registry: Registry) -> shapes.Shapes:
    """The manifest schema's shapes, resolved once per schema: what the loader's builders and
    ``types.ts`` are both emitted from."""
    return _shapes(json.dumps(registry.manifest_schema, sort_keys=False))


def no_context(registry: Registry) -> Context:
    return {}


def python_models(registry: Registry) -> Context:
    return {"models": models_source(registry)}


def _tables(registry: Registry) -> Context:
    """What both languages' constant modules list: ids, cohorts, maps, capabilities, settings."""
    return {
        "manifest_type": str(registry.manifest_schema["title"]),
        "ids": registry.ids,
        "cohorts": registry.cohorts,
        "maps": registry.maps,
        "capabilities": registry.capabilities,
        "capability_providers": registry.capability_providers,
        "capability_constants": registry.capability_constants,
        "launchable": registry.launchable,
        "inert_category": INERT_CATEGORY,
        "settings": registry.settings,
    }


def python_constants(registry: Registry) -> Context:
    tables = _tables(registry)
    renderer = models_adapter.PythonValueRenderer(
        registry.manifest_schema, models_adapter.defined_classes(models_source(registry))
    )
    manifests = [renderer.render(tool.manifest) for tool in registry.tools]
    imports = sorted({*renderer.used_classes, "Capability", tables["manifest_type"]})
    return {**tables, "manifests": manifests, "model_imports": imports}


def _common_names(registry: Registry) -> Context:
    return {
        "cohorts": [cohort.name for cohort in registry.cohorts],
        "maps": [lookup.name for lookup in registry.maps],
        "settings": [setting.constant for setting in registry.settings],
        "capability_constants": [name for name, _ in registry.capability_constants],
        "prefix_constant": registry.setting("hookPackagePrefix").constant,
        "manifest_type": str(registry.manifest_schema["title"]),
    }


# What the package's static modules export besides the table's constants and the models.
# Module -> the public names the package re-exports from it, loaded on first use (module
# ``__getattr__``): a consumer that wants constants pays for no validator, loader or subprocess.
# Every name a docstring or the README tells a consumer to use is here (tests hold the package's
# docstrings to ``__all__``).
LAZY_PYTHON_EXPORTS: dict[str, tuple[str, ...]] = {
    "detection": (
        "DetectionDeps",
        "DetectionResult",
        "HomeNotAbsoluteError",
        "NotRunError",
        "detect_all",
        "detect_tool",
    ),
    "diagnostics": ("Diagnostic", "DiagnosticCode", "Severity", "shown", "shown_value"),
    "loader": (
        "FileReport",
        "FileState",
        "LoadResult",
        "NoHomeFolderError",
        "NotARegularFileError",
        "ParsedManifest",
        "default_adapters_dir",
        "load_manifest_files",
        "load_third_party_manifests",
        "parse_third_party_manifest",
        "read_regular_file",
    ),
    "lookalikes": ("lookalike_keys",),
    "prompt_args": ("PromptArgError", "apply_prompt_arg_template", "check_prompt_arg_template"),
    "registry": (
        "Catalog",
        "CatalogTool",
        "ToolRegistry",
        "UnknownCapabilityError",
        "UnknownCohortError",
        "get_tool_registry",
    ),
    "launch": (
        "NotLaunchableError",
        "NotLaunchableReason",
        "ensure_launchable",
        "is_launchable",
        "not_launchable_reason",
    ),
    "validator": ("validate_third_party_manifest", "validate_tool_manifest"),
}
# Names ``constants`` defines whatever the table declares, besides ``GENERATED_CONSTANTS``.
PYTHON_CONSTANTS_EXPORTS = ("CohortName", "ToolId", "is_capability", "is_cohort_name", "is_tool_id")
_FIXED_PYTHON_EXPORTS = (
    *GENERATED_CONSTANTS,
    *PYTHON_CONSTANTS_EXPORTS,
    "UnknownToolError",
    "hook_package_for",
    "hook_package_of",
    *(name for names in LAZY_PYTHON_EXPORTS.values() for name in names),
)


def _isort_key(name: str) -> tuple[int, str]:
    # The order ruff's RUF022 expects: CONSTANTS, then Classes, then functions.
    rank = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return rank, name


def python_init(registry: Registry) -> Context:
    names = _common_names(registry)
    # A model name that is only another name for ``str`` (a schema's string ``$defs`` entry)
    # stays in ``models``: exported, ``help(tool_registry)`` would print all of ``str``'s docs.
    source = models_source(registry)
    models = sorted(models_adapter.defined_classes(source) - models_adapter.builtin_aliases(source))
    exports = [
        *_FIXED_PYTHON_EXPORTS,
        *names["cohorts"],
        *names["maps"],
        *names["settings"],
        *names["capability_constants"],
        *models,
    ]
    return {
        **names,
        "models": models,
        "exports": sorted(exports, key=_isort_key),
        "lazy": [
            (module, sorted(found, key=_isort_key)) for module, found in LAZY_PYTHON_EXPORTS.items()
        ],
    }


def python_pyproject(registry: Registry) -> Context:
    return {"name": registry.package.python_name, "version": registry.package.python_version}


# The @types/node the repository's package.json pins (a test holds the two equal).
TYPES_NODE_VERSION = "20.19.43"
PACKAGE_DESCRIPTION = "The tool registry generated by toolgen: ids, manifests, cohorts and helpers."


def ts_package(registry: Registry) -> Context:
    """``package.json`` of the TypeScript output as an ES-module package whose entry point is
    the build's ``dist/index.js`` (and its declarations), for NodeNext and Bundler resolution."""
    entry = {"types": "./dist/index.d.ts", "default": "./dist/index.js"}
    document = {
        "//": literals.HEADER_TS.removeprefix("// "),
        "name": registry.package.typescript_name,
        "version": registry.package.typescript_version,
        "description": PACKAGE_DESCRIPTION,
        "type": "module",
        "sideEffects": False,
        "exports": {".": entry, "./package.json": "./package.json"},
        "main": entry["default"],
        "types": entry["types"],
        "files": ["dist"],
        "engines": {"node": ">=20"},
        # The loader and detection use node's standard library: building (and type-checking a
        # consumer of) the declarations needs node's types, at the version this repository pins.
        "devDependencies": {"@types/node": TYPES_NODE_VERSION},
    }
    return {"package_json": literals.json_text(document)}


def python_hook_packages(registry: Registry) -> Context:
    return _common_names(registry)


def ts_types(registry: Registry) -> Context:
    return {
        "declarations": [
            text for _, text in ts_type_emitter.declarations(manifest_shapes(registry))
        ]
    }


def ts_tools(registry: Registry) -> Context:
    manifests = [literals.ts_value(dict(tool.manifest), 1) for tool in registry.tools]
    return {**_tables(registry), "manifests": manifests}


def ts_launch(registry: Registry) -> Context:
    return {"inert_category": INERT_CATEGORY}


def ts_hook_packages(registry: Registry) -> Context:
    return _common_names(registry)


def editor_table_schema(registry: Registry) -> Context:
    bundled = editor_schema.bundle_draft07(registry.table_schema, registry.manifest_schema)
    return {"schema_json": literals.json_text(bundled)}


def python_diagnostics(registry: Registry) -> Context:
    return {
        "codes": runtime_codes.RUNTIME_CODES,
        "hidden_ranges": diagnostics.HIDDEN_RANGES,
    }


def ts_diagnostics(registry: Registry) -> Context:
    """The same code table and hidden ranges as the Python diagnostics module."""
    return python_diagnostics(registry)


def python_validator(registry: Registry) -> Context:
    return {"source": validate.validator_source(registry.manifest_schema)}


def _third_party_class(registry: Registry) -> str | None:
    """The model class of an adapter (``ThirdPartyToolManifest``) when it is a subclass of the
    manifest class, so ``parse_third_party_manifest`` can hand one out; else ``None`` (it then
    hands out the manifest class the loader builds)."""
    subclasses = models_adapter.subclasses(models_source(registry))
    title = str(registry.manifest_schema["title"])
    entry = validate.THIRD_PARTY_DEF
    return entry if title in subclasses.get(entry, ()) else None


def ts_validator(registry: Registry) -> Context:
    return {"source": validate.ts_validator_source(registry.manifest_schema)}


def python_loader(registry: Registry) -> Context:
    schema = registry.manifest_schema
    entry = schema["$defs"][validate.THIRD_PARTY_DEF]
    known = models_adapter.dataclass_fields(models_source(registry))
    builder_entry, builder, classes = model_builder.builder_source(
        manifest_shapes(registry), validate.THIRD_PARTY_DEF, known
    )
    fields = property_order(entry, schema)
    deprecated = []
    for name in fields:
        sub = property_schema(entry, schema, name) or {}
        if sub.get("deprecated") is True:
            deprecated.append((name, str(sub.get("description", "see the schema"))))
    return {
        "manifest_class": str(schema["title"]),
        "third_party_class": _third_party_class(registry),
        "builder_entry": builder_entry,
        "builder_source": builder,
        "builder_classes": classes,
        "known_fields": sorted(fields),
        "deprecated_fields": deprecated,
        "adapters_dir_constant": registry.setting("defaultAdaptersDir").constant,
        "env_var_constant": registry.setting("adaptersDirEnvVar").constant,
        "max_bytes_constant": registry.setting("manifestMaxBytes").constant,
        "hook_prefix_constant": registry.setting("hookPackagePrefix").constant,
    }


def python_lookalikes(registry: Registry) -> Context:
    names = [str(tool.manifest["displayName"]) for tool in registry.tools]
    return {
        "ignorable": lookalikes.invisible_ranges(),
        "space": lookalikes.property_ranges("White_Space"),
        "confusables": sorted(lookalikes.runtime_tables(names).items()),
        "settle_rounds": lookalikes.SETTLE_ROUNDS,
    }


def ts_lookalikes(registry: Registry) -> Context:
    """The Python module's tables plus what JavaScript lacks: full case folding."""
    return {**python_lookalikes(registry), "casefold_extra": lookalikes.casefold_extra()}


def ts_loader(registry: Registry) -> Context:
    """The Python loader's field tables (known and deprecated top-level properties) and the hook
    package prefix's constant."""
    context = python_loader(registry)
    keys = ("manifest_class", "known_fields", "deprecated_fields", "hook_prefix_constant")
    return {key: context[key] for key in keys}


def python_registry(registry: Registry) -> Context:
    return {
        "manifest_class": str(registry.manifest_schema["title"]),
        "cohorts": registry.cohorts,
        "inert_category": INERT_CATEGORY,
    }


def ts_registry(registry: Registry) -> Context:
    """The Python registry module's cohort table and inert category."""
    context = python_registry(registry)
    return {key: context[key] for key in ("manifest_class", "cohorts", "inert_category")}


def python_detection(registry: Registry) -> Context:
    return {"manifest_class": str(registry.manifest_schema["title"])}


def root_type(registry: Registry) -> Context:
    """The root type's name (the schema's ``title``) and nothing else: ``detection.ts`` and
    ``index.ts`` name it (its guard is ``is`` + the name), never ``ToolManifest`` as such."""
    return {"manifest_class": str(registry.manifest_schema["title"])}


# --- the Markdown reference (generated/docs/) ---------------------------------------------------


def _md_value(value: Any) -> str:
    """A table cell for a row's value: scalars and lists as code spans, objects as compact JSON."""
    if isinstance(value, list | tuple):
        return ", ".join(_md_value(item) for item in value) if value else "(none)"
    if isinstance(value, dict):
        return markdown.md_code(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return markdown.md_code(value)


# A non-object ``$defs`` entry is spelled out where a type first reaches it; reached again in the
# same type, it is shown by its name when it refers to itself or its text is longer than this, so
# a type's text grows with the schema, not with the number of routes through it
# (``D<n>: anyOf [D<n-1>, D<n-1>]`` doubled at each level).
_MOST_INLINED = 200


def _schema_type(
    schema: Any,
    root: Any,
    pointer: str,
    linked: dict[str, str],
    spelled: dict[str, str | None] | None = None,
) -> str:
    """A readable type: a link to a documented object, ``array of …``, ``one of …``.
    ``spelled`` holds the text of each ``$ref`` spelled out so far (``None`` while it is)."""
    if not isinstance(schema, dict):
        return "any"
    spelled = {} if spelled is None else spelled
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.rsplit("/", 1)[1]
        target = effective_schema(schema, root, pointer)
        if "properties" in (resolve_local_ref(root, ref) or {}) or target.properties:
            linked.setdefault(name, ref)
            return f"[{markdown.md_text(name)}](#{_anchor(root, name)})"
        if ref not in spelled:
            spelled[ref] = None
            text = _schema_type(resolve_local_ref(root, ref), root, ref[1:], linked, spelled)
            spelled[ref] = text
            return text
        known = spelled[ref]
        return markdown.md_code(name) if known is None or len(known) > _MOST_INLINED else known
    node = effective_schema(schema, root, pointer)
    keywords = node.keywords
    if "const" in keywords:
        return markdown.md_code(json.dumps(keywords["const"], ensure_ascii=False))
    if "enum" in keywords:
        values = ", ".join(
            markdown.md_code(json.dumps(v, ensure_ascii=False)) for v in keywords["enum"]
        )
        return f"one of {values}"
    for keyword in ("oneOf", "anyOf"):
        if isinstance(keywords.get(keyword), list):
            return " or ".join(
                _schema_type(member, root, f"{pointer}/{keyword}/{i}", linked, spelled)
                for i, member in enumerate(keywords[keyword])
            )
    declared = keywords.get("type", "any")
    if declared == "array":
        items = _schema_type(keywords.get("items"), root, f"{pointer}/items", linked, spelled)
        return f"array of {items}"
    if isinstance(declared, list):
        return " or ".join(markdown.md_text(str(t)) for t in declared)
    return markdown.md_text(str(declared))


_CONSTRAINTS = (
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minItems", "at least {} items"),
    ("maxItems", "at most {} items"),
    ("minimum", "≥ {}"),
    ("maximum", "≤ {}"),
)


def _number(value: Any) -> Any:
    """A limit as the reference shows it: JSON Schema's ``5.0`` is the integer ``5``."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


def _constraints(schema: Any, root: Any, pointer: str) -> str:
    node = effective_schema(schema, root, pointer)
    keywords = dict(node.keywords)
    if keywords.get("type") == "array" and isinstance(keywords.get("items"), dict):
        items = effective_schema(keywords["items"], root, f"{pointer}/items").keywords
        keywords.update({f"items.{k}": v for k, v in items.items()})
    parts = [text.format(_number(keywords[key])) for key, text in _CONSTRAINTS if key in keywords]
    parts += [
        f"each item {text.format(_number(keywords['items.' + key]))}"
        for key, text in _CONSTRAINTS
        if "items." + key in keywords
    ]
    shown = [markdown.md_text(part) for part in parts]
    if keywords.get("uniqueItems") is True:
        shown.append("items unique")
    for key, label in (("pattern", "pattern"), ("items.pattern", "each item matches")):
        if key in keywords:
            shown.append(f"{label} {markdown.md_pattern(str(keywords[key]))}")
    if keywords.get("additionalProperties") is False:
        shown.append("no other properties")
    if keywords.get("deprecated") is True:
        shown.append("**deprecated**")
    return "; ".join(shown) or "—"


def _anchor(root: Any, name: str) -> str:
    """The explicit anchor (``<a id>``) of the type ``name``'s section: ``type-`` and the name in
    lower case, so no heading's slug is it (a ``$defs`` entry ``Capabilities`` linked to
    ``#capabilities``, the providers section above it, before). Names alike once lower-cased and
    stripped to letters, digits and ``_`` are told apart by ``-2``, ``-3``, … in key order (no
    stripped name holds a ``-``)."""

    def stripped(text: str) -> str:
        return "".join(c for c in text.lower() if c.isalnum() or c == "_")

    definitions = root.get("$defs") if isinstance(root, Mapping) else None
    keys = [key for key in definitions or () if isinstance(key, str)]
    alike = [key for key in keys if stripped(key) == stripped(name)]
    place = alike.index(name) + 1 if name in alike else 1
    return f"type-{stripped(name)}" + (f"-{place}" if place > 1 else "")


def _object_fields(
    schema: Any, root: Any, pointer: str, linked: dict[str, str]
) -> list[dict[str, str]]:
    node = effective_schema(schema, root, pointer)
    return [
        {
            "name": markdown.md_code(name),
            "type": _schema_type(sub, root, where, linked),
            "required": "yes" if name in node.required else "no",
            "constraints": _constraints(sub, root, where),
            "description": markdown.md_text(
                effective_schema(sub, root, where).keywords.get("description", "")
                or (sub.get("description", "") if isinstance(sub, dict) else "")
            ),
        }
        for name, (sub, where) in node.properties.items()
    ]


def _adapter_format(registry: Registry) -> list[dict[str, Any]]:
    """The adapter entry's fields, then every object it reaches, each documented once."""
    root = registry.manifest_schema
    entry_pointer = f"/$defs/{validate.THIRD_PARTY_DEF}"
    linked: dict[str, str] = {}
    sections = [
        {
            "name": markdown.md_text(validate.THIRD_PARTY_DEF),
            "anchor": _anchor(root, validate.THIRD_PARTY_DEF),
            "description": markdown.md_text(
                root["$defs"][validate.THIRD_PARTY_DEF].get("description", "")
            ),
            "fields": _object_fields(
                root["$defs"][validate.THIRD_PARTY_DEF], root, entry_pointer, linked
            ),
        }
    ]
    done: set[str] = set()
    while len(done) < len(linked):
        name = next(n for n in linked if n not in done)
        done.add(name)
        ref = linked[name]
        target = resolve_local_ref(root, ref) or {}
        sections.append(
            {
                "name": markdown.md_text(name),
                "anchor": _anchor(root, name),
                "description": markdown.md_text(target.get("description", "")),
                "fields": _object_fields(target, root, ref[1:], linked),
            }
        )
    return sections


def docs_reference(registry: Registry) -> Context:
    root = registry.manifest_schema
    columns = [
        name
        for name in property_order(root, root)
        if name != "builtin" and any(name in tool.manifest for tool in registry.tools)
    ]
    entry = root["$defs"][validate.THIRD_PARTY_DEF]
    examples = entry.get("examples", []) if isinstance(entry, dict) else []
    return {
        "columns": [markdown.md_code(name) for name in columns],
        "rows": [
            [_md_value(tool.manifest[name]) if name in tool.manifest else "" for name in columns]
            for tool in registry.tools
        ],
        "cohorts": [
            {
                "name": markdown.md_code(cohort.name),
                "field": markdown.md_code(cohort.field),
                "members": _md_value(cohort.members),
            }
            for cohort in registry.cohorts
        ],
        "maps": [
            {
                "name": markdown.md_code(lookup.name),
                "field": markdown.md_code(lookup.field),
                "entries": [(markdown.md_code(k), markdown.md_code(v)) for k, v in lookup.entries],
            }
            for lookup in registry.maps
        ],
        "capabilities": [
            (markdown.md_code(capability), _md_value(providers))
            for capability, providers in registry.capability_providers
        ],
        "settings": [
            (markdown.md_code(s.constant), markdown.md_code(s.key), markdown.md_code(s.value))
            for s in registry.settings
        ],
        "adapter_sections": _adapter_format(registry),
        "examples": [
            markdown.fenced(json.dumps(example, indent=2, ensure_ascii=True), "json")
            for example in examples
        ],
        "example_pointer": markdown.md_code(f"/$defs/{validate.THIRD_PARTY_DEF}/examples"),
        "build_codes": [
            (markdown.md_code(code.value), markdown.md_authored(diagnostics.MEANINGS[code]))
            for code in diagnostics.Code
        ],
        "runtime_codes": [
            (markdown.md_code(code.name), code.severity, markdown.md_authored(code.meaning))
            for code in runtime_codes.RUNTIME_CODES
        ],
    }

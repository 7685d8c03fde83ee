"""View functions: ``Registry`` -> the context one template renders (pure).

Anything heavier than a loop or a condition happens here, in Python, so templates stay boring.
Values reach a context already rendered as language literals by ``literals`` (or as trusted names
the validators have constrained: constant names, setting keys, schema titles).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from generator import (
    diagnostics,
    editor_schema,
    literals,
    lookalikes,
    model_builder,
    runtime_codes,
    validate,
)
from generator import python_models as models_adapter
from generator import ts_types as ts_type_emitter
from generator.ir import INERT_CATEGORY, Registry
from generator.naming import GENERATED_CONSTANTS
from generator.schemas import property_order, property_schema

Context = dict[str, Any]


@functools.lru_cache(maxsize=8)
def _models_source(schema_json: str) -> str:
    return models_adapter.generate_models(json.loads(schema_json))


def clear_caches() -> None:
    """Forget memoised generator output (benchmarks use it to time cold runs)."""
    _models_source.cache_clear()
    validate.clear_caches()


def models_source(registry: Registry) -> str:
    # datamodel-code-generator takes most of a run's time; two targets need its output.
    return _models_source(json.dumps(registry.manifest_schema, sort_keys=False))


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
LAZY_PYTHON_EXPORTS: dict[str, tuple[str, ...]] = {
    "detection": ("DetectionDeps", "DetectionResult", "detect_all"),
    "diagnostics": ("Diagnostic", "DiagnosticCode", "Severity"),
    "loader": (
        "FileReport",
        "FileState",
        "LoadResult",
        "load_manifest_files",
        "load_third_party_manifests",
    ),
    "prompt_args": ("PromptArgError", "apply_prompt_arg_template"),
    "registry": ("ToolRegistry", "get_tool_registry"),
    "launch": (
        "NotLaunchableError",
        "NotLaunchableReason",
        "ensure_launchable",
        "is_launchable",
        "not_launchable_reason",
    ),
    "validator": ("validate_third_party_manifest", "validate_tool_manifest"),
}
_FIXED_PYTHON_EXPORTS = (
    *GENERATED_CONSTANTS,
    "ToolId",
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
    models = sorted(models_adapter.defined_classes(models_source(registry)))
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


def python_hook_packages(registry: Registry) -> Context:
    return _common_names(registry)


def ts_types(registry: Registry) -> Context:
    return {
        "declarations": [text for _, text in ts_type_emitter.declarations(registry.manifest_schema)]
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


def python_validator(registry: Registry) -> Context:
    return {"source": validate.validator_source(registry.manifest_schema)}


def python_loader(registry: Registry) -> Context:
    schema = registry.manifest_schema
    entry = schema["$defs"][validate.THIRD_PARTY_DEF]
    known = models_adapter.defined_classes(models_source(registry))
    builder_entry, builder, classes = model_builder.builder_source(schema, entry, known)
    fields = property_order(entry, schema)
    deprecated = []
    for name in fields:
        sub = property_schema(entry, schema, name) or {}
        if sub.get("deprecated") is True:
            deprecated.append((name, str(sub.get("description", "see the schema"))))
    return {
        "manifest_class": str(schema["title"]),
        "builder_entry": builder_entry,
        "builder_source": builder,
        "builder_classes": classes,
        "known_fields": sorted(fields),
        "deprecated_fields": deprecated,
        "adapters_dir_constant": registry.setting("defaultAdaptersDir").constant,
        "env_var_constant": registry.setting("adaptersDirEnvVar").constant,
        "max_bytes_constant": registry.setting("manifestMaxBytes").constant,
    }


def python_lookalikes(registry: Registry) -> Context:
    names = [str(tool.manifest["displayName"]) for tool in registry.tools]
    return {
        "ignorable": lookalikes.invisible_ranges(),
        "space": lookalikes.property_ranges("White_Space"),
        "confusables": sorted(lookalikes.runtime_tables(names).items()),
    }


def python_registry(registry: Registry) -> Context:
    return {
        "manifest_class": str(registry.manifest_schema["title"]),
        "cohorts": registry.cohorts,
        "inert_category": INERT_CATEGORY,
    }


def python_detection(registry: Registry) -> Context:
    return {"manifest_class": str(registry.manifest_schema["title"])}

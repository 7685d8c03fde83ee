"""The core: sources on disk -> ``{relative output path: text}``, or diagnostics. Never writes.

``generate``, ``check`` and the tests are all sinks over ``build_outputs``, so they cannot
disagree about what the sources produce.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

import jinja2

from generator import render, type_names, views
from generator.baseline import RUNTIME_CODES_CLASS, RUNTIME_CODES_FILE, read_baseline
from generator.breaking import Side, acknowledge, acknowledgements, compare
from generator.config import Config
from generator.diagnostics import (
    Code,
    Diagnostic,
    Severity,
    describe,
    has_errors,
    limited,
    pointer_of,
    sanitize,
)
from generator.editor_schema import EditorSchemaError
from generator.format import FormatError, normalize_newlines, start_formatting
from generator.ir import Registry, build_ir
from generator.literals import UnportableKeyError, UnsafeIdentifierError
from generator.load import (
    MAX_NESTING,
    Loaded,
    parse_json,
    parse_source,
    parse_yaml,
    read_bytes,
    read_text,
    refuse_null_document,
)
from generator.python_models import ModelError
from generator.readme import ReadmeError, regenerated
from generator.runtime_codes import RUNTIME_CODES
from generator.stamp import render_stamp, stamp_path
from generator.targets import TARGETS, Target
from generator.ts_types import TsTypeError
from generator.validate import (
    check_manifest_schema,
    check_schema_document,
    check_table_schema_patterns,
    check_table_schema_refs,
    validate_table,
)


@dataclass(frozen=True)
class BuildResult:
    outputs: dict[str, str] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def load_sources(config: Config, table_text: str | None = None) -> tuple[Loaded, Loaded, Loaded]:
    """The three sources; ``table_text`` stands for the table file's text when given (``add-tool``
    judges the table it would write before writing it)."""
    return read_sources(config, table_text)[0]


def read_sources(
    config: Config, table_text: str | None = None
) -> tuple[tuple[Loaded, Loaded, Loaded], dict[str, bytes]]:
    """``load_sources``, and the bytes each source was parsed from (``{key: bytes}``; a file
    that could not be read is left out, ``table_text`` stands as its UTF-8 bytes). The stamp
    fingerprints these bytes, not the files as they are once the outputs are rendered: a source
    saved while ``generate`` ran (an editor, a watcher) was recorded as the input of outputs
    made from its older text, so the fast ``check`` called them current."""
    read: dict[str, bytes] = {}

    def parsed(key: str, parse: Callable[[str, str], Loaded]) -> Loaded:
        data, problems = read_bytes(config.path(key), config.relative(key))
        if data is None:
            return Loaded(config.relative(key), None, diagnostics=problems)
        read[key] = data
        return refuse_null_document(parse_source(data, config.relative(key), parse), key)

    if table_text is None:
        table = parsed("table", parse_yaml)
    else:
        read["table"] = table_text.encode("utf-8")
        table = refuse_null_document(parse_yaml(table_text, config.relative("table")), "table")
    loaded = (parsed("schema", parse_json), parsed("table_schema", parse_json), table)
    return loaded, read


def validate_sources(
    manifest: Loaded, table_schema: Loaded, table: Loaded, *, samples: bool = True
) -> list[Diagnostic]:
    """Every independent problem at once: each file's own problems, the schemas' soundness, and
    the table against the schemas. Only what makes a check impossible skips it: the table is
    checked when it parsed and both schemas are sound (its refused values, placeholders in the
    parsed table, are skipped by the checks, so they are reported once, by the loader).
    ``samples``: the schema's examples and defaults are checked too (not by ``breaking``)."""
    found = [*manifest.diagnostics, *table_schema.diagnostics, *table.diagnostics]
    schema_problems: list[Diagnostic] = []
    if manifest.value is not None:
        schema_problems.extend(check_manifest_schema(manifest, samples=samples))
    if table_schema.value is not None:
        table_schema_problems = check_schema_document(table_schema)
        if not table_schema_problems and isinstance(manifest.value, Mapping):
            table_schema_problems = check_table_schema_refs(table_schema, manifest.value)
        if not table_schema_problems:
            table_schema_problems = check_table_schema_patterns(table_schema)
        schema_problems.extend(limited(table_schema_problems, table_schema.source))
    found.extend(schema_problems)
    usable = (
        manifest.value is not None
        and table_schema.value is not None
        and not has_errors(schema_problems)
    )
    if usable and table.value is not None:
        found.extend(validate_table(table, manifest.value, table_schema.value))
    return found


def _output_path(config: Config, target: Target) -> str:
    return f"{config.relative(target.root)}/{target.path}"


def build_outputs(
    config: Config,
    targets: tuple[Target, ...] = TARGETS,
    environment: jinja2.Environment | None = None,
    table_text: str | None = None,
) -> BuildResult:
    """Every output, or the diagnostics saying why not. Sources are bounded where they are read
    (``load.MAX_NESTING``) and in-place ``$ref`` cycles are refused (``validate``), so no stage
    should recurse without end; should a hostile schema still exhaust the stack somewhere, that
    is a located diagnostic on the schema, never an internal error."""
    try:
        return _build_outputs(config, targets, environment, table_text)
    except RecursionError:
        message = (
            "the schemas nest or refer to themselves too deeply to process (at most"
            f" {MAX_NESTING} levels; no $ref cycle may avoid descending into the value)"
        )
        return BuildResult(
            diagnostics=(Diagnostic(Code.SCHEMA_INVALID, message, config.relative("schema")),)
        )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while valid sources become outputs, as it was afterwards.
    That stage allocates a great many long-lived, acyclic objects (the IR, every rendered row):
    each full collection walked them and the table again, about 5% of ``generate`` on a
    10,000-row table, and found next to nothing (peak memory is the same with it paused).
    Reference counting still frees everything else at once. Loading and validating keep the
    collector: a table that fails everywhere leaves cyclic ``jsonschema`` errors behind."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _build_outputs(
    config: Config,
    targets: tuple[Target, ...],
    environment: jinja2.Environment | None,
    table_text: str | None,
) -> BuildResult:
    (manifest, table_schema, table), read = read_sources(config, table_text)
    diagnostics = validate_sources(manifest, table_schema, table)
    if has_errors(diagnostics):
        return BuildResult(diagnostics=tuple(diagnostics))
    with _collector_paused():
        registry = replace(
            build_ir(table.value, manifest.value, table_schema.value), package=config.package
        )
        # Targets a setting turns off (the TypeScript package files) are not outputs at all.
        active = tuple(target for target in targets if target.when(registry))
        return _generate(
            config,
            active,
            environment,
            table_text,
            registry=registry,
            diagnostics=diagnostics,
            manifest=manifest,
            table_schema=table_schema,
            read=read,
        )


def _generate(
    config: Config,
    targets: tuple[Target, ...],
    environment: jinja2.Environment | None,
    table_text: str | None,
    *,
    registry: Registry,
    diagnostics: list[Diagnostic],
    manifest: Loaded | None = None,
    table_schema: Loaded | None = None,
    read: Mapping[str, bytes] | None = None,
) -> BuildResult:
    """The outputs of sources that passed validation (``diagnostics``: their warnings); an
    emitter's refusal of a schema node is located there (``manifest``, ``table_schema``)."""
    environment = environment or render.make_environment()
    paths = [_output_path(config, target) for target in targets]
    rendered: dict[int, str] = {}
    failures: dict[int, Diagnostic] = {}

    def render_each(indexes: list[int]) -> None:
        for index in indexes:
            try:
                rendered[index] = render.render_target(registry, targets[index], environment)
            except _GENERATION_ERRORS as error:
                step = f"rendering {targets[index].template}"
                failures[index] = _generation_failed(
                    paths[index], step, error, manifest, table_schema
                )

    # The models module before the rest: datamodel-code-generator renames a class whose name its
    # own imports take (``Literal``, ``Sequence``), and the templates reading the classes would
    # then fail on the name (a GENERATION_FAILED blaming another type). That is a type name the
    # generated code already uses, reported as the others are, at the name in the schema.
    models = [index for index, target in enumerate(targets) if target.view is views.python_models]
    render_each(models)
    if manifest is not None and not failures:
        clashes = _models_import_collisions(manifest, {paths[i]: rendered[i] for i in models})
        if clashes:
            return BuildResult(diagnostics=(*diagnostics, *clashes))
    # The Python files first: ruff formats them while the other files render.
    python = [index for index, target in enumerate(targets) if target.is_python]
    render_each([index for index in python if index not in models])
    pending = start_formatting({} if failures else {paths[i]: rendered[i] for i in python})
    try:
        render_each([index for index, target in enumerate(targets) if not target.is_python])
    except BaseException:
        pending.discard()
        raise
    if failures:
        pending.discard()
        return BuildResult(diagnostics=(*diagnostics, *(failures[i] for i in sorted(failures))))
    try:
        formatted = pending.result()
    except FormatError as error:
        failure = _generation_failed(error.path, "formatting", error)
        return BuildResult(diagnostics=(*diagnostics, failure))
    outputs = {
        path: formatted[path] if path in formatted else normalize_newlines(rendered[index])
        for index, path in enumerate(paths)
    }
    # After formatting: every Python module has parsed (one that does not is the formatter's
    # GENERATION_FAILED), so the names it binds can be read.
    collisions = _type_name_collisions(manifest, outputs) if manifest is not None else []
    if collisions:
        return BuildResult(diagnostics=(*diagnostics, *collisions))
    readme = _readme_output(config)
    if isinstance(readme, Diagnostic):
        return BuildResult(diagnostics=(*diagnostics, readme))
    if readme is not None:
        outputs[config.relative("readme")] = readme
    # The stamp vouches for the sources as they were read (``read_sources``), not as they are now.
    given = dict(read) if read is not None else {}
    if table_text is not None:
        given["table"] = table_text.encode("utf-8")
    outputs[stamp_path(config)] = render_stamp(config, outputs, given)
    return BuildResult(outputs, tuple(diagnostics))


def _models_import_collisions(manifest: Loaded, models: dict[str, str]) -> list[Diagnostic]:
    """The schema's type names the models module (as datamodel-code-generator wrote it, before
    formatting) imports; nothing when it does not parse (formatting names that failure)."""
    try:
        return _type_name_collisions(manifest, models)
    except SyntaxError:
        return []


def _type_name_collisions(manifest: Loaded, rendered: dict[str, str]) -> list[Diagnostic]:
    """The schema's type names (the root ``title``, each ``$defs`` key) that a generated module
    already uses for something else (``type_names``): generating would succeed and the output
    would shadow a builtin, an import or a runtime name, or fail to compile. Each is located at
    the name in the schema."""
    python = type_names.python_names_in_use(
        {path: text for path, text in rendered.items() if path.endswith(".py")}
    )
    typescript = type_names.typescript_names_in_use(
        {path: text for path, text in rendered.items() if path.endswith(".ts")}
    )
    schema = manifest.value
    defs = schema.get("$defs")
    named = [("/title", schema.get("title"), False)] + [
        (f"/$defs{pointer_of((name,))}", name, True) for name in defs if isinstance(defs, dict)
    ]
    found: list[Diagnostic] = []
    for pointer, name, is_key in named:
        if not isinstance(name, str):
            continue
        users = [f"{where} (Python)" for where in [python.get(name)] if where is not None]
        users += [f"{where} (TypeScript)" for where in [typescript.get(name)] if where is not None]
        if not users:
            continue
        position = (manifest.key_position_of(pointer) if is_key else None) or manifest.position_of(
            pointer
        )
        line, column = position if position else (None, None)
        found.append(
            Diagnostic(
                Code.SCHEMA_UNSUPPORTED,
                f"type name {describe(name)} is already a name of the generated code"
                f" ({', '.join(sanitize(user, 200) for user in users)}): the class and type it"
                " would make shadow it there; rename it",
                manifest.source,
                line,
                column,
                pointer,
            )
        )
    return found


def _readme_output(config: Config) -> str | Diagnostic | None:
    """The README with its code table regenerated; ``None`` without a README or markers. A
    README that is there but not a regular file (a FIFO, a folder) is refused as ``UNREADABLE``,
    never taken for an absent one (nor opened)."""
    path = config.path("readme")
    if not path.exists():
        return None
    text, problems = read_text(path, config.relative("readme"), keep_bom=True)
    if text is None:
        return problems[0]
    try:
        return regenerated(text)
    except ReadmeError as error:
        return Diagnostic(
            Code.GENERATION_FAILED, str(error), config.relative("readme"), error.line, error.column
        )


# What a schema the generator cannot express, or a broken template, raises while rendering.
_GENERATION_ERRORS = (
    ModelError,
    TsTypeError,
    EditorSchemaError,
    UnsafeIdentifierError,
    UnportableKeyError,
    jinja2.TemplateError,
)


def _generation_failed(
    path: str,
    step: str,
    error: Exception,
    manifest: Loaded | None = None,
    table_schema: Loaded | None = None,
) -> Diagnostic:
    message = f"{step} failed: {type(error).__name__}: {error}"
    pointer = getattr(error, "pointer", None)
    # The schema holding the node (the editor schema's emitter also names table schema nodes).
    schema = table_schema if getattr(error, "in_table", False) else manifest
    if schema is not None and isinstance(pointer, str):
        # A schema node an emitter cannot express: located at that node (the output named).
        found = schema.position_of(pointer)
        line, column = found if found else (None, None)
        return Diagnostic(
            Code.GENERATION_FAILED,
            sanitize(f"{path}: {message}", 500),
            schema.source,
            line,
            column,
            pointer,
        )
    return Diagnostic(Code.GENERATION_FAILED, sanitize(message, 500), path)


def output_roots(config: Config, targets: tuple[Target, ...] = TARGETS) -> list[str]:
    return sorted({config.relative(target.root) for target in targets})


def breaking_changes(config: Config, against: str) -> list[Diagnostic]:
    """``toolgen breaking``: the working tree's sources against the baseline's, acknowledgements
    applied; or the diagnostics that make either side impossible to compare (each side is
    validated with its own schemas). Raises ``BaselineError`` when the baseline cannot be read."""
    current = load_sources(config)
    # Examples and defaults a change left behind are generation's to report: this reports the
    # change itself.
    found = validate_sources(*current, samples=False)
    if has_errors(found):
        return found
    old = read_baseline(config, against)
    old_found = validate_sources(old.manifest, old.table_schema, old.table, samples=False)
    if has_errors(old_found):
        # Located at the first invalid file of the baseline (it had no location: `<input>`).
        first = next(d.source for d in old_found if d.severity is Severity.ERROR)
        return [
            *old_found,
            Diagnostic(
                Code.BASELINE_UNREADABLE,
                f"the sources at {sanitize(against)} are invalid: nothing was compared",
                first,
            ),
        ]
    if old.runtime_codes_unreadable is not None:
        return [
            Diagnostic(
                Code.BASELINE_UNREADABLE,
                f"the runtime diagnostic codes at {sanitize(against)} cannot be read (not UTF-8"
                f" Python with a class {RUNTIME_CODES_CLASS}): nothing was compared",
                old.runtime_codes_unreadable,
            )
        ]
    manifest, table_schema, table = current
    sides = [
        Side(
            loaded_manifest,
            loaded_table,
            build_ir(loaded_table.value, loaded_manifest.value, loaded_schema.value),
            codes,
        )
        for loaded_manifest, loaded_schema, loaded_table, codes in (
            (old.manifest, old.table_schema, old.table, old.runtime_codes),
            (manifest, table_schema, table, None),
        )
    ]
    codes_source = f"{config.relative('python_out')}/{RUNTIME_CODES_FILE}"
    changes = compare(sides[0], sides[1], codes_source, tuple(c.name for c in RUNTIME_CODES))
    return acknowledge(changes, table, acknowledgements(old.table))

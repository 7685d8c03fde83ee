"""Adapter around datamodel-code-generator: the manifest schema -> frozen dataclass models.

All settings that shape the output are fixed here (model type, target Python, no timestamp, no
formatter of its own: ``format`` runs the pinned ruff on the result like every other Python file),
so the bytes depend only on the schema and the pinned version. ``PythonValueRenderer`` renders a
JSON value as a call to those classes, choosing the class from the schema the value matches.

Two rules hold the adapter's output to the rest of the generator:

- A schema ``default`` is an annotation only (editors show it), in both languages: it is dropped
  before datamodel-code-generator sees the schema, so an optional field is ``= None`` in Python
  as it is ``undefined`` in TypeScript (a manifest never silently carries a value it did not
  state, and the loader's models equal the TypeScript view).
- Every string literal of the result is rewritten by ``literals.py_str`` (datamodel-code-generator
  writes enum members raw), so everything outside printable ASCII is escaped as in every other
  generated file; any other token outside printable ASCII (a comment, a name) is a
  ``ModelError``.
"""

from __future__ import annotations

import ast
import io
import json
import tempfile
import tokenize
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from datamodel_code_generator import (  # type: ignore[attr-defined]
    DataModelType,
    InputFileType,
    LiteralType,
    PythonVersion,
    generate,
)
from datamodel_code_generator.format import Formatter

from generator import verdicts
from generator.diagnostics import pointer_of
from generator.ecma import ecma_validator
from generator.literals import (
    HEADER_PYTHON,
    identifier,
    py_docstring,
    py_scalar,
    py_str,
    python_keyword_argument,
)
from generator.schemas import description, iter_subschemas, property_schema, resolve_local_ref

# datamodel-code-generator's built-in formatter reads the ``[tool]`` table of the pyproject.toml
# nearest its ``settings_path`` or any folder above it (the current folder by default):
# ``[tool.datamodel-codegen]``, ``[tool.ruff]``, ``[tool.black]`` or ``[tool.isort]`` settings
# there wrap imports and calls with trailing commas that ruff then keeps, so ``models.py``
# depended on where toolgen ran, or where it is installed, and on settings no fingerprint
# records. The line length is fixed here (ruff's, which lays the file out afterwards), and the
# formatter is pointed at a fresh folder holding an empty pyproject.toml: the nearest one it
# finds is that, wherever toolgen runs or is installed (a broken one in the caller's folder
# failed the run).
MODELS_LINE_LENGTH = 100
_NO_SETTINGS = "# toolgen: no formatter settings but those passed in\n"


class ModelError(Exception):
    """The schema uses a shape the Python renderer cannot name (reported as GENERATION_FAILED);
    ``pointer`` locates it in the schema when known."""

    def __init__(self, message: str, pointer: str | None = None) -> None:
        super().__init__(message)
        self.pointer = pointer
        # While a value is rendered: the steps from the failing node up to the nearest node
        # whose pointer is known (a ``$ref`` target, the root), innermost first.
        self.trail: list[str] = []

    def within(self, step: str) -> ModelError:
        """The error, one step further from the node it is about (``/items``, ``/oneOf/1``)."""
        if self.pointer is None:
            self.trail.append(step)
        return self

    def at(self, base: str) -> ModelError:
        """The error located: ``base`` is the pointer of the node the trail starts from."""
        if self.pointer is None:
            self.pointer = base + "".join(reversed(self.trail))
        return self


def _generate(manifest_schema: Mapping[str, Any], settings: Path) -> object:
    """datamodel-code-generator's output for the schema, every setting that shapes it fixed."""
    return generate(
        json.dumps(without_defaults(manifest_schema), sort_keys=False),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.DataclassesDataclass,
        frozen_dataclasses=True,
        keyword_only=True,
        use_generic_container_types=True,
        use_union_operator=True,
        use_exact_imports=True,
        enum_field_as_literal=LiteralType.All,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        custom_file_header=HEADER_PYTHON,
        formatters=[Formatter.BUILTIN],
        builtin_format_line_length=MODELS_LINE_LENGTH,
        settings_path=settings,
    )


def generate_models(manifest_schema: Mapping[str, Any]) -> str:
    """Source of ``models.py``: one frozen, keyword-only dataclass per object schema."""
    try:
        with tempfile.TemporaryDirectory(prefix="toolgen-models-") as settings:
            Path(settings, "pyproject.toml").write_text(_NO_SETTINGS, encoding="utf-8")
            result = _generate(manifest_schema, Path(settings))
    except Exception as error:  # a third-party generator: any failure is a located finding
        raise ModelError(
            f"datamodel-code-generator failed: {type(error).__name__}: {error}"
        ) from error
    if not isinstance(result, str):
        raise ModelError("datamodel-code-generator returned several modules; expected one")
    return with_docstrings(escaped_literals(result), manifest_schema)


def with_docstrings(source: str, root: Mapping[str, Any]) -> str:
    """``source`` with a docstring in every class whose schema (the root for its title, else
    its ``$defs`` entry) or fields carry a ``description``: the class's own, then one
    paragraph per described field (``name: text``), as ``help()`` and editors show them. The
    text reaches the code only through ``literals.py_docstring``."""
    definitions = root.get("$defs", {})
    inserts: list[tuple[int, str]] = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef) or not node.body:
            continue
        schema = root if node.name == root.get("title") else definitions.get(node.name)
        if not isinstance(schema, Mapping):
            continue
        paragraphs = [text] if (text := description(schema, root)) else []
        for member in node.body:
            if not (isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name)):
                continue
            name = member.target.id
            sub = schema.get("properties", {}).get(name) or property_schema(schema, root, name)
            if text := description(sub, root):
                paragraphs.append(f"{name}: {text}")
        if paragraphs:
            first = node.body[0]
            inserts.append((first.lineno - 1, py_docstring(paragraphs, first.col_offset)))
    lines = source.splitlines(keepends=True)
    for index, docstring in sorted(inserts, reverse=True):
        lines.insert(index, docstring)
    return "".join(lines)


def without_defaults(schema: Mapping[str, Any]) -> Any:
    """A copy of ``schema`` with the ``default`` keyword removed from every schema object (a
    property *named* ``default`` stays)."""
    copy = json.loads(json.dumps(schema))
    for _, sub in iter_subschemas(copy):
        cast(dict[str, Any], sub).pop("default", None)
    return copy


def _printable_ascii(text: str) -> bool:
    return all(0x20 <= ord(char) < 0x7F or char in "\n\t" for char in text)


def escaped_literals(source: str) -> str:
    """``source`` with every string literal that holds anything outside printable ASCII
    rewritten as ``py_str`` spells it; raises ``ModelError`` for any other such token."""
    if _printable_ascii(source):
        return source
    lines = source.splitlines(keepends=True)
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as error:
        raise ModelError(f"datamodel-code-generator wrote invalid Python: {error}") from error
    for token in tokens:
        if _printable_ascii(token.string):
            continue
        value = ast.literal_eval(token.string) if token.type == tokenize.STRING else None
        if not isinstance(value, str):
            raise ModelError(
                f"datamodel-code-generator wrote a token outside printable ASCII at line"
                f" {token.start[0]}: {ascii(token.string)[:80]}"
            )
        edits.append((token.start, token.end, py_str(value)))
    for (row, column), (end_row, end_column), text in reversed(edits):
        if row != end_row:
            raise ModelError(f"a multi-line string literal at line {row} holds non-ASCII text")
        line = lines[row - 1]
        lines[row - 1] = line[:column] + text + line[end_column:]
    return "".join(lines)


def defined_classes(models_source: str) -> set[str]:
    """Names bound at the top of the models module (classes and type aliases)."""
    names: set[str] = set()
    for node in ast.parse(models_source).body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def subclasses(models_source: str) -> dict[str, tuple[str, ...]]:
    """Each class the models module defines -> the names of its bases."""
    return {
        node.name: tuple(base.id for base in node.bases if isinstance(base, ast.Name))
        for node in ast.parse(models_source).body
        if isinstance(node, ast.ClassDef)
    }


def dataclass_fields(models_source: str) -> dict[str, tuple[str, ...]]:
    """Each class the models module defines -> its fields in the order ``dataclasses.fields``
    gives them: its bases' first (the last base's first, as ``dataclasses`` walks the MRO), then
    its own annotated names; a field a class declares again keeps the place its base gave it.
    The loader's builders write an instance's fields in this order (``model_builder``)."""
    found: dict[str, tuple[str, ...]] = {}
    module = ast.parse(models_source)
    pseudo = _pseudo_field_markers(module)
    for node in module.body:
        if not isinstance(node, ast.ClassDef):
            continue
        names: dict[str, None] = {}
        for base in reversed(node.bases):
            if isinstance(base, ast.Name):
                names.update(dict.fromkeys(found.get(base.id, ())))
        for member in node.body:
            if (
                isinstance(member, ast.AnnAssign)
                and isinstance(member.target, ast.Name)
                and not _is_pseudo_field(member.annotation, pseudo)
            ):
                names[member.target.id] = None
        found[node.name] = tuple(names)
    return found


# What ``dataclasses`` does not make a field of: ``typing.ClassVar`` and ``dataclasses.KW_ONLY``.
_PSEUDO_FIELD_MARKERS = frozenset({("typing", "ClassVar"), ("dataclasses", "KW_ONLY")})


def _pseudo_field_markers(module: ast.Module) -> set[str]:
    """The names the models module binds to ``typing.ClassVar`` or ``dataclasses.KW_ONLY`` by a
    ``from`` import (``ClassVar``, or the alias it is imported as); a name the module binds to
    anything else (a class ``ClassVar`` made from a ``$defs`` entry) is none."""
    return {
        alias.asname or alias.name
        for node in module.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if (node.module, alias.name) in _PSEUDO_FIELD_MARKERS
    }


def _is_pseudo_field(annotation: ast.expr, markers: set[str]) -> bool:
    """Whether ``dataclasses`` reads ``annotation`` as a class variable or the keyword-only
    marker: ``ClassVar``, ``ClassVar[...]``, ``typing.ClassVar[...]``, ``KW_ONLY`` (the models
    module postpones annotations, so a quoted one is a field, as ``dataclasses`` reads it). The
    annotation's head is compared, never its text: ``ClassVariant | None`` (a field typed by a
    ``$defs`` entry ``ClassVariant``) is a field, as it is to ``dataclasses``."""
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if isinstance(head, ast.Name):
        return head.id in markers
    return (
        isinstance(head, ast.Attribute)
        and isinstance(head.value, ast.Name)
        and (head.value.id, head.attr) in _PSEUDO_FIELD_MARKERS
    )


# Builtin types a generated alias may stand for (``Arg: TypeAlias = str``).
_BUILTIN_TYPES = frozenset({"str", "int", "float", "bool", "bytes", "object"})


def builtin_aliases(models_source: str) -> set[str]:
    """Names the models module binds to a builtin type itself (``X: TypeAlias = str``): they
    add nothing to the package surface but that type's documentation."""
    return {
        node.target.id
        for node in ast.parse(models_source).body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and isinstance(node.value, ast.Name)
        and node.value.id in _BUILTIN_TYPES
    }


class PythonValueRenderer:
    """Renders validated JSON values as constructor calls of the generated dataclasses."""

    def __init__(self, root: Mapping[str, Any], known_classes: set[str]) -> None:
        self._root = root
        self._validator = ecma_validator(root)
        self._known = known_classes
        self.used_classes: set[str] = set()
        # A validator per union branch, made once (id -> (branch, validator); the branch is kept
        # so its id stays its own).
        self._branch_validators: dict[int, tuple[Mapping[str, Any], Any]] = {}
        # Worked out once per renderer, not per row: each $ref's target and class name, and each
        # property name checked as a keyword argument.
        self._refs: dict[str, tuple[Mapping[str, Any], str]] = {}
        self._arguments: dict[str, str] = {}
        # id(union branch) -> (branch, its compiled verdict), made at the first union met.
        self._fast: dict[int, tuple[Mapping[str, Any], verdicts.Verdict]] | None = None

    def _compiled(self, branch: Mapping[str, Any]) -> verdicts.Verdict | None:
        """The compiled verdict for a union branch of the root (all compiled together, once)."""
        if self._fast is None:
            at = {
                id(member): (member, f"{pointer}/{union}/{index}")
                for pointer, sub in iter_subschemas(self._root)
                for union in ("oneOf", "anyOf")
                if isinstance(sub.get(union), list)
                for index, member in enumerate(sub[union])
                # A pointer the compiler would percent-decode could name another subschema.
                if isinstance(member, Mapping) and "%" not in pointer
            }
            found = verdicts.branch_verdicts(self._root, tuple(p for _, p in at.values()))
            self._fast = {
                key: (member, found[p]) for key, (member, p) in at.items() if found is not None
            }
        known = self._fast.get(id(branch))
        return known[1] if known is not None else None

    def _matches(self, branch: Mapping[str, Any], value: Any) -> bool:
        fast = self._compiled(branch)
        if fast is not None and fast(value):
            return True  # the compiled validator accepts only what jsonschema accepts
        known = self._branch_validators.get(id(branch))
        if known is None:
            known = (branch, self._validator.evolve(schema=branch))
            self._branch_validators[id(branch)] = known
        return bool(known[1].is_valid(value))

    def render(
        self, value: Any, schema: Mapping[str, Any] | bool | None = None, name: str | None = None
    ) -> str:
        if schema is None:
            try:
                return self.render(value, self._root, str(self._root["title"]))
            except ModelError as error:
                raise error.at("") from None
        if isinstance(schema, bool):  # `true` admits any value, as `{}` does (`false` none)
            schema = {}
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._render_ref(value, ref)
        for union in ("oneOf", "anyOf"):
            if union in schema:
                return self._render_union(value, schema[union], union)
        if isinstance(value, str):  # most values: py_scalar's answer without its type tests
            return py_str(value)
        if isinstance(value, Mapping):
            return self._render_object(value, schema, name)
        if isinstance(value, list):
            items = schema.get("items", {})
            try:
                rendered = [self.render(item, items, None) for item in value]
            except ModelError as error:
                raise error.within("/items") from None
            return "(" + "".join(f"{item}, " for item in rendered) + ")"
        return py_scalar(value)

    def _render_ref(self, value: Any, ref: str) -> str:
        resolved = self._refs.get(ref)
        if resolved is None:
            target = resolve_local_ref(self._root, ref)
            if target is None:
                raise ModelError(f"unresolvable $ref {ref!r}")
            name = str(self._root["title"]) if ref == "#" else ref.rsplit("/", 1)[-1]
            resolved = self._refs[ref] = (target, name)
        try:
            return self.render(value, *resolved)
        except ModelError as error:
            raise error.at(ref[1:]) from None  # a local ``$ref``: its fragment's pointer

    def _render_union(self, value: Any, branches: list[Any], union: str) -> str:
        index = next((i for i, b in enumerate(branches) if self._matches(b, value)), None)
        if index is None:
            raise ModelError("value matches no branch of a union")
        try:
            return self.render(value, branches[index], None)
        except ModelError as error:
            raise error.within(f"/{union}/{index}") from None

    def _render_object(
        self, value: Mapping[str, Any], schema: Mapping[str, Any], name: str | None
    ) -> str:
        if name is None or name not in self._known:
            raise ModelError("an object schema must be a named $defs entry to become a class")
        properties = schema.get("properties", {})
        arguments = []
        for key, item in value.items():
            try:
                rendered = self.render(item, properties.get(key, {}), None)
            except ModelError as error:
                raise error.within(pointer_of(("properties", key))) from None
            arguments.append(f"{self._argument(key)}={rendered}")
        self.used_classes.add(name)
        return f"{identifier(name)}(" + ", ".join(arguments) + ")"

    def _argument(self, key: str) -> str:
        checked = self._arguments.get(key)
        if checked is None:
            checked = self._arguments[key] = python_keyword_argument(key)
        return checked

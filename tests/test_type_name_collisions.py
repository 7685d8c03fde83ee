"""A type name of the manifest schema (its root ``title``, a ``$defs`` key) that the generated code
already uses for something else is refused before anything is written.

``generate`` used to succeed for each of these and write a package that shadowed a name:
``$defs/TypeError`` made ``parse_third_party_manifest(value, source=3)`` raise the model class's
``TypeError.__init__() takes 1 positional argument``, ``Mapping`` replaced ``collections.abc``'s in
``loader.py`` and ``constants.py``, ``Diagnostic`` replaced the runtime record in the package's
``__init__.py`` (and ``index.ts`` silently exported the runtime's), ``ToolId`` made ``index.ts``
export two (tsc TS2308), and mypy --strict failed on each.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.type_names import python_names_in_use, typescript_names_in_use

from .conftest import compile_typescript, probe_python

SCHEMA = Path("schema") / "tool-manifest.schema.json"


def _add_definition(project: Path, name: str) -> None:
    """A new object ``$defs`` entry ``name``, used by an optional root property."""
    path = project / SCHEMA
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"][name] = {"type": "object", "properties": {"note": {"type": "string"}}}
    schema["properties"]["extra"] = {"$ref": f"#/$defs/{name}"}
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _refused_at(project: Path, run_cli: Callable[..., tuple[int, str, str]], pointer: str) -> str:
    """``generate --format json`` refuses ``project`` with one located ``SCHEMA_UNSUPPORTED``
    record at ``pointer``; its message."""
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    diagnostics = json.loads(out)["diagnostics"]
    assert [(d["code"], d["pointer"]) for d in diagnostics] == [("SCHEMA_UNSUPPORTED", pointer)]
    assert diagnostics[0]["line"] is not None
    return str(diagnostics[0]["message"])


@pytest.mark.parametrize(
    ("name", "user"),
    [
        ("TypeError", "builtins (Python)"),
        ("Mapping", "tool_registry/constants.py (Python)"),
        ("Any", "tool_registry/__init__.py (Python)"),
        ("Diagnostic", "generated/typescript/diagnostics.ts (TypeScript)"),
        ("ToolId", "generated/typescript/tools.ts (TypeScript)"),
    ],
)
def test_a_defs_name_the_generated_code_already_uses_is_refused(
    project: Path, run_cli: Callable[..., tuple[int, str, str]], name: str, user: str
) -> None:
    _add_definition(project, name)
    before = _snapshot(project / "generated")
    message = _refused_at(project, run_cli, f"/$defs/{name}")
    assert user in message
    assert _snapshot(project / "generated") == before


def test_a_defs_name_nothing_else_uses_still_generates(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # `Path` and `Record` are no name of the generated modules (a global TypeScript type is
    # shadowed only inside types.ts, which does not use it).
    _add_definition(project, "Record")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err


def test_names_in_use_are_read_from_every_binding_form() -> None:
    python = python_names_in_use(
        {
            "p/models.py": "from typing import Optional\nclass Model: ...\n",
            "p/other.py": (
                "import os.path\nfrom .models import Model\nfrom typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from .x import Hidden\nA, (B, C) = 1, (2, 3)\n"
                "def f(): inner = 1\nclass K: member = 1\ntry:\n    import y as Z\n"
                "except ImportError:\n    pass\n"
            ),
        }
    )
    for name in ("Optional", "os", "TYPE_CHECKING", "Hidden", "A", "B", "C", "f", "K", "Z", "len"):
        assert name in python, name
    for name in ("Model", "inner", "member"):
        assert name not in python, name
    typescript = typescript_names_in_use(
        {
            "t/types.ts": "export interface Own {}\n",
            "t/a.ts": (
                "export const A = 1;\nexport type B = string;\nexport function C() {}\n"
                "export { D, type E, F as G } from './x.js';\nconst local = 1;\n"
            ),
        }
    )
    assert set(typescript) == {"A", "B", "C", "D", "E", "G"}


@pytest.mark.parametrize("name", ["foo", "fooBar", "Foo_bar", "ToolManifest"])
def test_a_defs_name_datamodel_code_generator_would_rename_is_refused_at_its_key(
    project: Path, run_cli: Callable[..., tuple[int, str, str]], name: str
) -> None:
    # The class became `Foo`/`FooBar` (or, for the root's own title, `ToolManifest` and
    # `RootModel`), so rendering failed with "an object schema must be a named $defs entry to
    # become a class": a named $defs entry, wrongly described, at a render step.
    _add_definition(project, name)
    assert "named $defs entry" not in _refused_at(project, run_cli, f"/$defs/{name}")


def test_a_title_datamodel_code_generator_would_rename_is_refused_at_the_title(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # `toolManifest` became the class `ToolManifest`: the failure was reported at
    # generated/python/tool_registry/constants.py, with no location in the schema.
    path = project / SCHEMA
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["title"] = "toolManifest"
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    diagnostics = json.loads(out)["diagnostics"]
    assert [(d["code"], d["source"], d["pointer"]) for d in diagnostics] == [
        ("SCHEMA_UNSUPPORTED", str(SCHEMA), "/title")
    ]


def test_a_root_title_other_than_tool_manifest_compiles_in_both_languages(
    project: Path, run_cli: Callable[..., tuple[int, str, str]], tmp_path: Path
) -> None:
    # The title names the root type in both packages. The Python templates took it from the
    # schema; the TypeScript ones spelled ToolManifest, so generate succeeded and wrote a
    # package tsc refused (TS2305 in loader.ts, registry.ts, detection.ts and index.ts).
    path = project / SCHEMA
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["title"] = "AgentManifest"
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    code, _, err = run_cli("generate", "--project", str(project))
    assert code == 0, err
    folder = project / "generated/typescript"
    compiled = compile_typescript(tmp_path, sorted(folder.glob("*.ts")))
    assert compiled.returncode == 0, compiled.stdout
    probe = (
        "from tool_registry import BUILTIN_TOOL_MANIFESTS\n"
        "from tool_registry.models import AgentManifest\n"
        "import json\n"
        "print(json.dumps(all(isinstance(m, AgentManifest) for m in BUILTIN_TOOL_MANIFESTS)))\n"
    )
    assert probe_python(project / "generated/python", probe) is True
    index = (folder / "index.ts").read_text()
    assert "isAgentManifest," in index and "isToolManifest" not in index


def test_a_defs_name_datamodel_code_generator_gives_another_type_says_so(
    project: Path, run_cli: Callable[..., tuple[int, str, str]]
) -> None:
    # datamodel-code-generator names the items of the array property promptArgTemplate
    # PromptArgTemplateItem; a $defs entry of that name lost its class to it, and generation
    # failed saying the object "must be a named $defs entry", which it is.
    _add_definition(project, "PromptArgTemplateItem")
    before = _snapshot(project / "generated")
    code, out, _ = run_cli("generate", "--project", str(project), "--format", "json")
    assert code == 1
    diagnostics = json.loads(out)["diagnostics"]
    assert diagnostics and all(d["pointer"] == "/$defs/PromptArgTemplateItem" for d in diagnostics)
    for diagnostic in diagnostics:
        assert "must be a named $defs entry" not in diagnostic["message"]
        assert "datamodel-code-generator" in diagnostic["message"], diagnostic["message"]
        assert "rename" in diagnostic["message"]
    assert _snapshot(project / "generated") == before

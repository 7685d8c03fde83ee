"""Schema ``description``s reach the generated code as documentation, and only as documentation:
each becomes the docstring of its Python model (the class's own, then one paragraph per described
field) and the JSDoc of its TypeScript type or member, as ``help()`` and the TypeScript language
service read them back. Hostile descriptions (comment terminators, quotes, backslashes, JSDoc
tags, line separators, bidi controls, NUL, astral characters, an over-long word) are read back
exactly (ASCII white space aside: wrapping re-lays it) and never end the comment or the string."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from generator.config import load_config
from generator.pipeline import build_outputs

from .conftest import REPO, install_node_types, node_executable, probe_python

COMPILERS = {
    "5.9": REPO / "node_modules/typescript/bin/tsc",
    "7": REPO / "node_modules/typescript-7/bin/tsc",
}
# Where in the schema -> a hostile description.
HOSTILE = {
    "": 'Root */ export const pwned = 1; /* """ + pwned + """ `${pwned}` </script> @deprecated',
    "/properties/id": "id\u202eevil\u2028next\u0000nul \U0001f600 caf\u00e9 \\u0041 ends in \\",
    "/$defs/PathDetect": '"""\nimport os\nos.system("pwned")\n""" ends with a quote "',
    "/$defs/PathDetect/properties/binaryName": "x" * 150 + '*/\\\\\\"' + "\u00e9" * 40,
    "/$defs/McpServer/properties/url": "*/\n/** @type {pwned} */ {@link pwned} '''\r\ttab",
}
DOCUMENTED = {  # where -> (type, member) as the generated code names them
    "": ("ToolManifest", None),
    "/properties/id": ("ToolManifest", "id"),
    "/$defs/PathDetect": ("PathDetect", None),
    "/$defs/PathDetect/properties/binaryName": ("PathDetect", "binaryName"),
    "/$defs/McpServer/properties/url": ("McpServer", "url"),
}


def _normalised(text: str) -> str:
    # Wrapping re-lays ASCII white space and cuts a word longer than a line; nothing else
    # changes (U+2028 is content: shown escaped).
    return re.sub(r"[ \t\r\n]+", "", text)


def _at(schema: Any, pointer: str) -> dict[str, Any]:
    node = schema
    for part in pointer.split("/")[1:]:
        node = node[part]
    return cast(dict[str, Any], node)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("descriptions")
    shutil.copytree(REPO / "schema", project / "schema")
    schema_file = project / "schema/tool-manifest.schema.json"
    schema = json.loads(schema_file.read_text())
    for pointer, text in HOSTILE.items():
        _at(schema, pointer)["description"] = text
    schema_file.write_text(json.dumps(schema, indent=2))
    (project / "pyproject.toml").write_text("[tool.toolgen]\ntypescript_package = true\n")
    result = build_outputs(load_config(project))
    assert result.ok, result.diagnostics
    for relative, text in result.outputs.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text)
    return project / "generated"


def test_python_docstrings_carry_the_descriptions(generated: Path) -> None:
    models = generated / "python/tool_registry/models.py"
    assert models.read_text().isascii()
    # Lint stays clean whatever the text (line length, escapes), under the project's rules.
    lint = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--config",
            str(REPO / "pyproject.toml"),
            str(models),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout
    docs = cast(
        dict[str, Any],
        probe_python(
            generated / "python",
            "import json, tool_registry.models as m\n"
            "print(json.dumps({'docs': {n: getattr(m, n).__doc__ for n in"
            " ('ToolManifest', 'PathDetect', 'McpServer')},"
            " 'names': sorted(n for n in vars(m) if 'pwned' in n or n == 'os')}))",
        ),
    )
    assert docs["names"] == []
    for pointer, (owner, member) in DOCUMENTED.items():
        text = _normalised(HOSTILE[pointer])
        expected = text if member is None else f"{member}:{text}"
        assert expected in _normalised(docs["docs"][owner]), pointer
    # The class's own description comes first.
    assert _normalised(docs["docs"]["ToolManifest"]).startswith(_normalised(HOSTILE[""]))


TS_DOCS = """\
const ts = require(process.argv[2]);
const file = process.argv[3];
const program = ts.createProgram([file], { noEmit: true, target: ts.ScriptTarget.ES2022 });
const checker = program.getTypeChecker();
const found = {};
const tags = [];
function record(name, node) {
  const symbol = checker.getSymbolAtLocation(node.name);
  found[name] = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  tags.push(...symbol.getJsDocTags().map((tag) => name + ": @" + tag.name));
}
ts.forEachChild(program.getSourceFile(file), (node) => {
  if (!ts.isInterfaceDeclaration(node) && !ts.isTypeAliasDeclaration(node)) return;
  record(node.name.text, node);
  const members = ts.isInterfaceDeclaration(node) ? node.members : [];
  for (const member of members) record(node.name.text + "." + member.name.text, member);
});
console.log(JSON.stringify({ found, tags }));
"""


def _unescaped(doc: str) -> str:
    """The JSDoc text with the generator's escapes undone (``\\uXXXX``, ``\\u{X}``, ``\\c``)."""

    def one(match: re.Match[str]) -> str:
        code = match.group(1) or match.group(2)
        return chr(int(code, 16)) if code else match.group(3)

    return re.sub(r"\\(?:u\{([0-9a-f]+)\}|u([0-9a-f]{4})|(.))", one, doc, flags=re.S)


def test_typescript_jsdoc_carries_the_descriptions(generated: Path, tmp_path: Path) -> None:
    types = generated / "typescript/types.ts"
    text = types.read_text()
    assert text.isascii()
    script = tmp_path / "docs.cjs"
    script.write_text(TS_DOCS)
    library = REPO / "node_modules/typescript/lib/typescript.js"
    result = subprocess.run(
        [node_executable(), str(script), str(library), str(types)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    read = json.loads(result.stdout)
    assert read["tags"] == []  # "@deprecated" and "@type" in the text made no tag
    for pointer, (owner, member) in DOCUMENTED.items():
        doc = read["found"][owner if member is None else f"{owner}.{member}"]
        assert _normalised(_unescaped(doc)) == _normalised(HOSTILE[pointer]), pointer


@pytest.mark.parametrize("compiler", sorted(COMPILERS))
def test_no_description_escapes_into_typescript_code(
    generated: Path, compiler: str, tmp_path: Path
) -> None:
    source = tmp_path / "src"
    shutil.copytree(generated / "typescript", source)
    install_node_types(tmp_path)  # the package's tsconfig asks for node's types
    out = tmp_path / "out"
    build = subprocess.run(
        [
            node_executable(),
            str(COMPILERS[compiler]),
            "-p",
            str(source),
            "--outDir",
            str(out),
            "--removeComments",
            # The package references node's types; a copy outside the repository finds them
            # only through the pinned @types the tests installed.
            "--typeRoots",
            str(REPO / "node_modules" / "@types"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stdout
    emitted = "".join(path.read_text() for path in sorted(out.glob("*.*s")))
    assert "ToolManifest" in emitted and "pwned" not in emitted

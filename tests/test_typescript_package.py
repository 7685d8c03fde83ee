"""The TypeScript output as an npm package (``typescript_package = true``): the README's flow
(`tsc -p generated/typescript`, then `npm pack`) runs as written with both pinned compilers
(TypeScript 5.9 and the native 7), and a consumer project imports the package *by name*, under
``NodeNext`` resolution (installed from the packed tarball, built and run with node) and under
``Bundler`` resolution (linked as a workspace package), type-checked by both compilers. The
values node prints are the generated Python's."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from .conftest import REPO, install_node_types, node_executable, probe_python

COMPILERS = {
    "5.9": REPO / "node_modules/typescript/bin/tsc",
    "7": REPO / "node_modules/typescript-7/bin/tsc",
}
CASES = {
    "main": REPO,  # the committed generated/typescript is configured as a package
    "special_keys": REPO / "tests/golden/special_keys",  # a scoped name and a pre-release
}

CONSUMER = """\
import {
  CAPABILITIES, COHORT_NAMES, COHORTS, SUPPORTED_TOOLS, isCapability, isCohortName, isToolId,
  type Capability, type CohortName, type ToolId, type ThirdPartyToolManifest,
} from "PACKAGE";

const candidates: readonly unknown[] = [...SUPPORTED_TOOLS, "no-such-tool", 42, null];
const ids: ToolId[] = candidates.filter(isToolId);
const capabilities: Capability[] = [...CAPABILITIES, "telepathy"].filter(isCapability);
const cohorts: CohortName[] = [...COHORT_NAMES, "NO_COHORT"].filter(isCohortName);
const first: unknown = candidates[0];
if (isToolId(first)) {
  const narrowed: ToolId = first;
  void narrowed;
}
// @ts-expect-error: an unknown value is no ToolId until a guard narrows it
const unchecked: ToolId = candidates[0];
// @ts-expect-error: the types come with the package
const broken: ThirdPartyToolManifest = { id: "x" };
export const unused = [unchecked, broken];
console.log(JSON.stringify({ ids, capabilities, cohorts, members: COHORTS }));
"""


def _compiler(version: str) -> Path:
    path = COMPILERS[version]
    if not path.exists():
        pytest.fail(f"TypeScript {version} is missing: run `make test`, which installs it")
    return path


def _run(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(arguments, cwd=cwd, capture_output=True, text=True, check=False)


def _readme_flow() -> list[list[str]]:
    """The commands of the README's ``typescript-package`` flow."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- readme-flow:typescript-package -->\n```sh\n", 1)[1]
    return [shlex.split(line) for line in block.split("```", 1)[0].splitlines() if line.strip()]


def _packed(case: Path, work: Path, compiler: str) -> tuple[Path, Path, str]:
    """The README's flow on a copy of ``case``: (the built package folder, the tarball, the
    package's name)."""
    project = work / "project"
    shutil.copytree(case / "generated/typescript", project / "generated/typescript")
    install_node_types(project)
    tarball: Path | None = None
    programs = {
        "tsc": [node_executable(), str(_compiler(compiler))],
        "npm": [shutil.which("npm") or "npm"],
    }
    commands = _readme_flow()
    assert [command[0] for command in commands] == ["tsc", "npm"]
    for program, *arguments in commands:
        result = _run([*programs[program], *arguments], project)
        assert result.returncode == 0, (program, arguments, result.stdout, result.stderr)
        if arguments[:1] == ["pack"]:
            tarball = project / result.stdout.strip().splitlines()[-1]
    package = project / "generated/typescript"
    assert tarball is not None and tarball.is_file()
    for module in ("index", "tools", "types"):
        assert (package / f"dist/{module}.js").is_file()
        assert (package / f"dist/{module}.d.ts").is_file()
    name = json.loads((package / "package.json").read_text())["name"]
    return package, tarball, name


def test_the_package_declares_the_pinned_node_types() -> None:
    declared = json.loads((REPO / "generated/typescript/package.json").read_text())
    pinned = json.loads((REPO / "package.json").read_text())["devDependencies"]["@types/node"]
    assert declared["devDependencies"] == {"@types/node": pinned}


def _consumer(folder: Path, name: str, options: dict[str, object]) -> Path:
    folder.mkdir(parents=True)
    install_node_types(folder)
    (folder / "package.json").write_text('{"private": true, "type": "module"}\n')
    (folder / "main.ts").write_text(CONSUMER.replace("PACKAGE", name))
    strict = {
        "target": "ES2022",
        "strict": True,
        "noUncheckedIndexedAccess": True,
        "exactOptionalPropertyTypes": True,
        "verbatimModuleSyntax": True,
        "skipLibCheck": False,
        "types": [],
    }
    config = {"compilerOptions": {**strict, **options}, "files": ["main.ts"]}
    (folder / "tsconfig.json").write_text(json.dumps(config))
    return folder / "node_modules" / name


def _install_tarball(tarball: Path, destination: Path) -> None:
    """What `npm install` of the tarball puts in node_modules: its ``package/`` folder."""
    with tarfile.open(tarball) as archive:
        archive.extractall(destination.parent / ".unpacked", filter="data")
    destination.parent.mkdir(parents=True, exist_ok=True)
    (destination.parent / ".unpacked/package").rename(destination)


def _expected(case: Path) -> object:
    """What the consumer prints, from the case's generated Python."""
    return probe_python(
        case / "generated/python",
        "import json, tool_registry as t\n"
        "print(json.dumps({'ids': t.SUPPORTED_TOOLS, 'capabilities': t.CAPABILITIES,"
        " 'cohorts': t.COHORT_NAMES, 'members': {n: getattr(t, n) for n in t.COHORT_NAMES}}))",
    )


@pytest.mark.parametrize("compiler", sorted(COMPILERS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_package_builds_packs_and_imports_by_name(
    case: str, compiler: str, tmp_path: Path
) -> None:
    package, tarball, name = _packed(CASES[case], tmp_path, compiler)
    tsc = [node_executable(), str(_compiler(compiler))]

    # NodeNext: installed from the tarball (what publishing ships), built, run by node.
    nodenext = tmp_path / "nodenext"
    installed = _consumer(
        nodenext, name, {"module": "NodeNext", "moduleResolution": "NodeNext", "outDir": "out"}
    )
    _install_tarball(tarball, installed)
    assert not (installed / "generated").exists() and (installed / "dist/index.d.ts").is_file()
    for version in sorted(COMPILERS):
        checked = _run([node_executable(), str(_compiler(version)), "-p", "."], nodenext)
        assert checked.returncode == 0, (version, checked.stdout, checked.stderr)
    built = _run([*tsc, "-p", "."], nodenext)
    assert built.returncode == 0, built.stdout
    ran = _run([node_executable(), "out/main.js"], nodenext)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == _expected(CASES[case])

    # Bundler: the built folder linked into node_modules, as a workspace package is.
    bundler = tmp_path / "bundler"
    linked = _consumer(
        bundler, name, {"module": "ESNext", "moduleResolution": "Bundler", "noEmit": True}
    )
    linked.parent.mkdir(parents=True, exist_ok=True)
    linked.symlink_to(package, target_is_directory=True)
    for version in sorted(COMPILERS):
        checked = _run([node_executable(), str(_compiler(version)), "-p", "."], bundler)
        assert checked.returncode == 0, (version, checked.stdout, checked.stderr)


def test_a_consumer_type_error_fails_the_build(tmp_path: Path) -> None:
    """The consumer checks above would pass vacuously if the package's types were `any`."""
    _, tarball, name = _packed(REPO, tmp_path, "7")
    consumer = tmp_path / "consumer"
    installed = _consumer(consumer, name, {"module": "NodeNext", "moduleResolution": "NodeNext"})
    _install_tarball(tarball, installed)
    (consumer / "main.ts").write_text(
        f'import {{ type ToolId }} from "{name}";\nexport const id: ToolId = "no-such-tool";\n'
    )
    for version in sorted(COMPILERS):
        checked = _run([node_executable(), str(_compiler(version)), "-p", "."], consumer)
        assert checked.returncode != 0 and "no-such-tool" in checked.stdout, checked.stdout


def test_without_the_setting_there_is_no_package(tmp_path: Path) -> None:
    """The setting is what adds package.json and tsconfig.json; the minimal golden case has
    none, and its other files are those of a package-less project."""
    minimal = REPO / "tests/golden/minimal/generated/typescript"
    assert not (minimal / "package.json").exists() and not (minimal / "tsconfig.json").exists()
    assert (REPO / "generated/typescript/package.json").is_file()


REQUIRER = """\
const registry = require("NAME");
const refused = {};
for (const path of ["NAME/dist/loader.js", "NAME/dist/index.js", "NAME/loader", "NAME/tools.ts"]) {
  try {
    require(path);
  } catch (error) {
    refused[path.slice("NAME".length)] = error.code;
  }
}
console.log(JSON.stringify({ isToolId: typeof registry.isToolId, refused }));
"""


def test_commonjs_and_internal_paths_are_what_the_readme_says(tmp_path: Path) -> None:
    """An ES-module package: `require` loads it where node can require ES modules (20.19+,
    22.12+), as the README says, and no internal file is reachable through `exports`."""
    _, tarball, name = _packed(REPO, tmp_path, "7")
    consumer = tmp_path / "commonjs"
    installed = _consumer(consumer, name, {"module": "NodeNext", "moduleResolution": "NodeNext"})
    _install_tarball(tarball, installed)
    (consumer / "main.cjs").write_text(REQUIRER.replace("NAME", name))
    version = _run([node_executable(), "--version"], consumer).stdout.strip().lstrip("v")
    major, minor = (int(part) for part in version.split(".")[:2])
    ran = _run([node_executable(), "main.cjs"], consumer)
    if not ((20, 19) <= (major, minor) < (21, 0) or (major, minor) >= (22, 12)):
        assert ran.returncode != 0 and "ERR_REQUIRE_ESM" in ran.stderr, ran.stderr
        return
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {
        "isToolId": "function",
        "refused": dict.fromkeys(
            ["/dist/loader.js", "/dist/index.js", "/loader", "/tools.ts"],
            "ERR_PACKAGE_PATH_NOT_EXPORTED",
        ),
    }
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert "`require` loads it where node can require ES modules (20.19+, 22.12+" in readme


def test_a_commonjs_consumer_type_checks_as_the_readme_says(tmp_path: Path) -> None:
    """README, "The TypeScript package": in a CommonJS file, ``import x = require(...)`` and an
    ``import`` statement of the package compile under ``NodeNext`` (the second not under
    ``verbatimModuleSyntax``); under ``Node16`` they are TS1471 and TS1479, with both compilers."""
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    sentence = readme.split("TypeScript types such a `require` under `NodeNext`: ", 1)[1]
    sentence = sentence.split(". `exports`", 1)[0]
    require_form, import_form = re.findall(r"`(import [^`]+)`", sentence)
    assert "under `Node16` the first is error TS1471 and the second TS1479" in sentence
    _, tarball, name = _packed(REPO, tmp_path, "7")
    consumer = tmp_path / "commonjs"
    installed = _consumer(consumer, name, {})
    _install_tarball(tarball, installed)
    (consumer / "package.json").write_text('{"private": true}\n')  # CommonJS
    forms = {
        require_form: f"{require_form.replace('tool-registry', name)};\n"
        "console.log(registry.isToolId('codex'));\n",
        import_form: f"{import_form.replace('tool-registry', name)};\n"
        "console.log(isToolId('codex'));\n",
    }
    expected = {
        (require_form, "NodeNext", True): None,
        (require_form, "NodeNext", False): None,
        (import_form, "NodeNext", False): None,
        (import_form, "NodeNext", True): "TS1286",  # verbatimModuleSyntax refuses ES syntax
        (require_form, "Node16", False): "TS1471",
        (import_form, "Node16", False): "TS1479",
    }
    for (form, module, verbatim), error in expected.items():
        (consumer / "main.cts").write_text(forms[form])
        options = {"module": module, "moduleResolution": module, "noEmit": True}
        config = json.loads((consumer / "tsconfig.json").read_text())
        config["compilerOptions"].update(options, verbatimModuleSyntax=verbatim)
        config["files"] = ["main.cts"]
        (consumer / "tsconfig.json").write_text(json.dumps(config))
        for version in sorted(COMPILERS):
            checked = _run([node_executable(), str(_compiler(version)), "-p", "."], consumer)
            outcome = (form, module, verbatim, version)
            if error is None:
                assert checked.returncode == 0, (outcome, checked.stdout)
            else:
                assert checked.returncode != 0 and f"error {error}:" in checked.stdout, (
                    outcome,
                    checked.stdout,
                )

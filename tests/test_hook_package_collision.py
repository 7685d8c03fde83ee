"""A third-party adapter cannot claim a built-in tool's hook package, named (``hookPackage``) or
by default (the prefix and its id, when a built-in names that package): a host installing or
removing the adapter's hooks would install or remove the built-in's. The loader refuses it as
``HOOK_PACKAGE_COLLISION`` at the member that names it, in both languages alike."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tool_registry import BUILTIN_TOOL_MANIFESTS, hook_package_of, load_third_party_manifests

from .conftest import REPO, build_typescript, node_executable

BASE = json.loads((REPO / "tests/vectors/base-manifest.json").read_text(encoding="utf-8"))
BUILTIN = BUILTIN_TOOL_MANIFESTS[0]

RUNNER = """\
import { loadThirdPartyManifests } from "./index.js";
const result = loadThirdPartyManifests(process.argv[2], {});
process.stdout.write(JSON.stringify(result.files.map((file) => [file.source, file.accepted,
  file.diagnostics.map((d) => [d.code, d.pointer, d.found, d.expected])])));
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "adapters"
    folder.mkdir()
    adapters: dict[str, dict[str, Any]] = {
        "named.json": {**BASE, "id": "named", "hookPackage": hook_package_of(BUILTIN)},
        "own.json": {**BASE, "id": "own", "hookPackage": "@acme/own-hooks"},
        "default.json": {**BASE, "id": "plain"},
    }
    for name, document in adapters.items():
        (folder / name).write_text(json.dumps(document), encoding="utf-8")
    return folder


def _python(folder: Path) -> list[list[Any]]:
    result = load_third_party_manifests(str(folder))
    return [
        [
            file.source,
            file.accepted,
            [[d.code.value, d.pointer, d.found, d.expected] for d in file.diagnostics],
        ]
        for file in result.files
    ]


def test_an_adapter_naming_a_built_in_s_hook_package_is_refused(tmp_path: Path) -> None:
    found = {
        source: (accepted, records) for source, accepted, records in _python(_folder(tmp_path))
    }
    package = hook_package_of(BUILTIN)
    assert found["named.json"] == (
        False,
        [["HOOK_PACKAGE_COLLISION", "/hookPackage", f'"{package}"', f'"{BUILTIN.id}"']],
    )
    assert found["own.json"] == (True, [])
    assert found["default.json"] == (True, [])


def test_typescript_refuses_it_alike(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = build_typescript(tmp_path / "build", REPO / "generated/typescript")
    runner = out / "hook-collision.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    completed = subprocess.run(
        [node_executable(), str(runner), str(folder)], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == _python(folder)


def test_a_default_package_a_built_in_names_is_refused_at_the_id(tmp_path: Path) -> None:
    """A built-in row may name a package that is another id's default: an adapter with that id
    and no ``hookPackage`` would claim it by default."""
    from tool_registry import loader
    from tool_registry.constants import HOOK_PACKAGE_PREFIX

    owners = dict(loader._BUILTIN_HOOK_PACKAGES)
    try:  # as if the first built-in row named "sidekick"'s default package as its own
        loader._BUILTIN_HOOK_PACKAGES[HOOK_PACKAGE_PREFIX + "sidekick"] = BUILTIN.id
        folder = tmp_path / "adapters"
        folder.mkdir()
        (folder / "sidekick.json").write_text(json.dumps({**BASE, "id": "sidekick"}))
        (file,) = load_third_party_manifests(str(folder)).files
        assert not file.accepted
        assert [(d.code.value, d.pointer) for d in file.diagnostics] == [
            ("HOOK_PACKAGE_COLLISION", "/id")
        ]
    finally:
        loader._BUILTIN_HOOK_PACKAGES.clear()
        loader._BUILTIN_HOOK_PACKAGES.update(owners)

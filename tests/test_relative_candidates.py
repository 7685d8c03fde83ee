"""A candidate path is a full path or ``~/...``: a relative one (``bin/x``, on Windows also
``\\x`` or ``C:x``) would be found from the working folder, and its ``--version`` run. The schema
refuses one in the table, and detection, in both languages, looks for none: not from a manifest
that skipped validation, not from a host's resolver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    DetectionDeps,
    detect_all,
    validate_tool_manifest,
)
from tool_registry.models import CandidatePaths, CandidatesDetect
from tool_registry.registry import ToolRegistry

from .conftest import REPO, build_typescript, run_js
from .test_detection_hardening import a_tool
from .test_loader import manifest

FULL = ["/usr/bin/x", "~/x", "C:\\Program Files\\x.exe", "C:/x", "\\\\server\\share\\x.exe"]
RELATIVE = ["bin/x", "x", "./x", "~x", "C:x", "\\x", "..\\x"]


def _candidates(*paths: str) -> dict[str, Any]:
    return {"kind": "candidates", "paths": {"linux": list(paths)}}


def test_the_schema_takes_full_paths_and_home_paths() -> None:
    assert validate_tool_manifest(manifest(detect=_candidates(*FULL))) == ()


@pytest.mark.parametrize("path", RELATIVE)
def test_the_schema_refuses_a_relative_candidate(path: str) -> None:
    (record,) = validate_tool_manifest(manifest(detect=_candidates("/usr/bin/x", path)))
    assert (record.pointer, record.keyword) == ("/detect/paths/linux/1", "pattern")


def _deps(platform: str = "linux", **overrides: Any) -> DetectionDeps:
    """Detection on ``platform`` under the home ``/h``, nothing on PATH, no pointer read."""
    arguments: dict[str, Any] = {
        "which": lambda _name: None,
        "read_text": lambda _path: None,
        "home": lambda: "/h",
        "platform": lambda: platform,
    }
    return DetectionDeps(**{**arguments, **overrides})


def _probed(tool: Any, platform: str, resolvers: dict[str, Any] | None = None) -> list[str]:
    """The paths detection asks ``is_file`` about (none exists: nothing is run)."""
    asked: list[str] = []

    def is_file(path: str) -> bool:
        asked.append(path)
        return False

    deps = _deps(platform, is_file=is_file)
    (result,) = detect_all(ToolRegistry(tools=(tool,), resolvers=resolvers or {}), deps)
    assert result.installed is False
    return asked


def test_a_table_candidate_that_is_no_full_path_is_not_looked_for() -> None:
    """A built-in's manifest built in code skips the schema: detection holds the rule itself."""
    listed = CandidatePaths(
        linux=["bin/x", "~/y", "/z", "C:\\w"],
        win32=["\\x", "C:x", "x\\y", "C:\\a", "//srv/b", "\\\\srv\\c", "~/d"],
    )
    tool = a_tool(detect=CandidatesDetect(kind="candidates", paths=listed))
    assert _probed(tool, "linux") == ["/h/y", "/z"]
    assert _probed(tool, "win32") == ["C:\\a", "//srv/b", "\\\\srv\\c", "/h/d"]


RESOLVED: list[Any] = ["rel/x", "~/y", "/abs/z", "C:\\w", "\\v", 5, None]


def test_a_resolver_s_relative_paths_are_not_looked_for() -> None:
    tool = a_tool(detect=CandidatesDetect(kind="candidates"))
    resolvers = {tool.id: lambda _deps: RESOLVED}
    assert _probed(tool, "linux", resolvers) == ["/abs/z"]
    assert _probed(tool, "win32", resolvers) == ["C:\\w"]


RESOLVER_PROBE = """\
import { detectAll, getToolRegistry, validateToolManifest } from "./index.js";
const out = {};
for (const platform of ["linux", "win32"]) {
  const asked = [];
  // Every other candidates tool resolves to nothing: only the first one's paths are asked for.
  const resolvers = Object.fromEntries(OTHERS.map((id) => [id, () => []]));
  resolvers[PROBED] = () => RESOLVED;
  const registry = getToolRegistry(FOLDER, { resolvers });
  const results = await detectAll(registry, {
    which: () => null,
    isFile: (path) => { asked.push(path); return false; },
    readText: () => null,
    home: () => "/h",
    platform: () => platform,
    runVersion: async () => null,
  });
  const result = results.find((r) => r.id === PROBED);
  out[platform] = [asked, result.installed];
}
out.schema = RELATIVE.map((path) => validateToolManifest(MANIFEST(path)).map((d) => [d.pointer, d.keyword]));
out.full = validateToolManifest(MANIFEST(FULL[0], ...FULL.slice(1))).length;
console.log(JSON.stringify(out));
"""


def test_typescript_holds_the_same_rule(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "ts", REPO / "generated" / "typescript")
    document = manifest(detect=_candidates("/usr/bin/x"))
    probed, *others = [
        tool.id for tool in BUILTIN_TOOL_MANIFESTS if isinstance(tool.detect, CandidatesDetect)
    ]
    body = (
        RESOLVER_PROBE.replace("FOLDER", json.dumps(str(tmp_path / "none")))
        .replace("OTHERS", json.dumps(others))
        .replace("PROBED", json.dumps(probed))
        .replace("RESOLVED", json.dumps(RESOLVED))
        .replace("RELATIVE", json.dumps(RELATIVE))
        .replace("FULL", json.dumps(FULL))
        .replace(
            "MANIFEST",
            f"((...paths) => ({{ ...{json.dumps(document)},"
            ' detect: { kind: "candidates", paths: { linux: ["/usr/bin/x", ...paths] } } }))',
        )
    )
    found = run_js(out, body)
    assert found["linux"] == [["/abs/z"], False]
    assert found["win32"] == [["C:\\w"], False]
    assert found["schema"] == [[["/detect/paths/linux/1", "pattern"]]] * len(RELATIVE)
    assert found["full"] == 0


# On Windows ``~/`` then a drive is no path under the home folder: Python's ``os.path.join``
# (``ntpath``) drops the home for a drive it is given (``join("C:\\Users\\me", "D:x")`` is
# ``D:x``), a file of drive D's working folder, so the schema's ``~/`` let a relative one in.
HOME_DRIVE = ["~/D:x", "~/d:\\y", "~/C:/z", "~/e"]


def test_a_home_candidate_naming_a_drive_is_not_looked_for_on_windows() -> None:
    listed = CandidatePaths(linux=list(HOME_DRIVE), win32=list(HOME_DRIVE))
    tool = a_tool(detect=CandidatesDetect(kind="candidates", paths=listed))
    assert _probed(tool, "win32") == ["/h/e"]
    # Elsewhere ``C:x`` is a name like any other, under the home folder.
    assert _probed(tool, "linux") == ["/h/D:x", "/h/d:\\y", "/h/C:/z", "/h/e"]


HOME_DRIVE_PROBE = """\
import { detectTool, getToolRegistry } from "./index.js";
const registry = getToolRegistry(FOLDER);
const out = {};
for (const platform of ["linux", "win32"]) {
  const asked = [];
  const tool = { ...TOOL, detect: { kind: "candidates", paths: { [platform]: PATHS } } };
  await detectTool(tool, registry, {
    which: () => null,
    isFile: (path) => { asked.push(path); return false; },
    readText: () => null,
    home: () => "/h",
    platform: () => platform,
    runVersion: async () => null,
  });
  out[platform] = asked;
}
console.log(JSON.stringify(out));
"""


def test_typescript_refuses_a_home_candidate_naming_a_drive_on_windows(tmp_path: Path) -> None:
    out = build_typescript(tmp_path / "ts", REPO / "generated" / "typescript")
    tool = {
        "id": "fixture-tool",
        "displayName": "Fixture Tool",
        "hookPointer": ".fixture/pointer.json",
        "builtin": True,
    }
    body = (
        HOME_DRIVE_PROBE.replace("FOLDER", json.dumps(str(tmp_path / "none")))
        .replace("TOOL", json.dumps(tool))
        .replace("PATHS", json.dumps(HOME_DRIVE))
    )
    found = run_js(out, body)
    assert found == {"linux": ["/h/D:x", "/h/d:\\y", "/h/C:/z", "/h/e"], "win32": ["/h/e"]}


class _Recoded(str):
    """Text whose own ``encode`` (which ``subprocess`` and ``os.fsencode`` call) names another
    file than its characters do."""

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        return b"./evil"


def test_a_resolver_s_str_subclass_is_probed_and_run_as_the_text_checked() -> None:
    """``_full_path`` reads a ``str`` subclass by ``str``'s own methods, but the path went on to
    ``is_file`` (which stats the characters) and to ``--version`` (``subprocess`` encodes the
    executable with the object's ``encode``): ``/bin/x`` was checked and found, and ``./evil``
    run from the working folder. What is probed and run is a plain copy of the text checked."""
    tool = a_tool(detect=CandidatesDetect(kind="candidates"))
    seen: list[tuple[type, str]] = []

    def run_version(path: str, _timeout: float) -> str | None:
        seen.append((type(path), path))
        return None

    deps = _deps(is_file=lambda path: True, run_version=run_version)
    registry = ToolRegistry(tools=(tool,), resolvers={tool.id: lambda _deps: [_Recoded("/bin/x")]})
    (result,) = detect_all(registry, deps)
    assert seen == [(str, "/bin/x")]
    assert type(result.path) is str


def test_a_table_str_subclass_is_probed_as_the_text_checked() -> None:
    listed = CandidatePaths(linux=[_Recoded("/bin/y")])
    tool = a_tool(detect=CandidatesDetect(kind="candidates", paths=listed))
    seen: list[tuple[type, str]] = []

    def is_file(path: str) -> bool:
        seen.append((type(path), path))
        return False

    detect_all(ToolRegistry(tools=(tool,)), _deps(is_file=is_file))
    assert seen == [(str, "/bin/y")]

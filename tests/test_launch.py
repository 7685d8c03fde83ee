"""Issue #10: the launch guard, in Python (from the registry and a detection) and TypeScript
(from the generated built-in constants)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from tool_registry import (
    BUILTIN_TOOL_MANIFESTS,
    LAUNCHABLE_TOOLS,
    DetectionDeps,
    NotLaunchableError,
    NotLaunchableReason,
    ToolRegistry,
    detect_all,
    ensure_launchable,
    get_tool_registry,
    is_launchable,
)
from tool_registry.detection import DetectionResult

from .conftest import REPO, build_typescript, run_node
from .test_catalog_grants import mcp
from .test_loader import manifest, put

Reason = NotLaunchableReason


def deps(found: set[str], calls: list[str] | None = None) -> DetectionDeps:
    def which(name: str) -> str | None:
        if calls is not None:
            calls.append(name)
        return f"/bin/{name}" if name in found else None

    return DetectionDeps(
        which=which,
        is_file=lambda path: False,
        run_version=lambda path, timeout: pytest.fail("the guard never runs --version"),
        read_text=lambda path: None,
        home=lambda: "/home/u",
        platform=lambda: "linux",
    )


@pytest.fixture
def registry(tmp_path: Path) -> ToolRegistry:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "a.json", manifest())
    put(folder, "z.json", manifest(id="zed", displayName="Zed", launchable=False))
    put(folder, "m.json", mcp())
    # The host grants aider (and zed) something: an adapter granted nothing is never launched.
    return get_tool_registry(folder, grants={"aider": ["headless-task"], "zed": ["headless-task"]})


def reason(
    registry: ToolRegistry,
    tool_id: object,
    *,
    detection: DetectionResult | Iterable[DetectionResult] | None = None,
    deps: DetectionDeps | None = None,
) -> Reason | None:
    try:
        ensure_launchable(registry, tool_id, detection=detection, deps=deps)  # type: ignore[arg-type]
    except NotLaunchableError as error:
        return error.code
    return None


def test_an_installed_launchable_tool_passes(registry: ToolRegistry) -> None:
    tool = ensure_launchable(registry, "aider", deps=deps({"aider"}))
    assert tool.id == "aider"
    assert is_launchable(registry, "claude-code", deps=deps({"claude"}))


@pytest.mark.parametrize(
    ("tool_id", "expected"),
    [
        ("nope", Reason.UNKNOWN_TOOL),
        ("files-mcp", Reason.INERT),
        ("zed", Reason.NOT_LAUNCHABLE),
        ("aider", Reason.NOT_INSTALLED),
        ("codex-desktop", Reason.INSTALL_UNKNOWN),  # candidates without paths: cannot tell
    ],
)
def test_each_refusal_has_its_code(registry: ToolRegistry, tool_id: str, expected: Reason) -> None:
    calls: list[str] = []
    assert reason(registry, tool_id, deps=deps(set(), calls)) is expected
    assert not is_launchable(registry, tool_id, deps=deps(set()))
    if expected in (Reason.UNKNOWN_TOOL, Reason.INERT, Reason.NOT_LAUNCHABLE):
        assert calls == []  # decided before any probe


def forbidden_deps() -> DetectionDeps:
    """Deps whose every probe fails the test: nothing may be detected."""

    def never(*args: object) -> NoReturn:
        pytest.fail("a probe ran for a tool the guard had to refuse first")

    return DetectionDeps(
        which=never,
        is_file=never,
        run_version=never,
        read_text=never,
        home=never,
        platform=never,
    )


@pytest.mark.parametrize(
    "grants",
    [
        None,
        {},
        {"aider": []},
        {"aider": ["no-such-capability"]},  # a typo names no capability
        {"zed": ["headless-task"]},  # another adapter's grant
        {"Aider": ["headless-task"]},  # ids are exact
    ],
    ids=["no-grants", "empty", "empty-list", "unknown-capability", "other-id", "other-case"],
)
def test_a_third_party_adapter_the_host_granted_nothing_is_not_granted(
    tmp_path: Path, grants: dict[str, list[str]] | None
) -> None:
    """A dropped adapter saying ``launchable: true`` was approved although the host granted it
    nothing. It is refused before any detection, whether detection would probe or was given."""
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "a.json", manifest())
    put(folder, "z.json", manifest(id="zed", displayName="Zed"))
    registry = get_tool_registry(folder, grants=grants)
    assert reason(registry, "aider", deps=forbidden_deps()) is Reason.NOT_GRANTED
    assert not is_launchable(registry, "aider", deps=forbidden_deps())
    installed = DetectionResult("aider", "Aider", True, "/bin/aider", None, False, "")
    assert reason(registry, "aider", detection=installed) is Reason.NOT_GRANTED
    with pytest.raises(NotLaunchableError) as caught:
        ensure_launchable(registry, "aider", detection=installed)
    assert caught.value.code is Reason.NOT_GRANTED
    # A refreshed registry keeps the host's grants, and the same answer.
    assert reason(registry.refresh(), "aider", detection=installed) is Reason.NOT_GRANTED


def test_earlier_refusals_come_before_not_granted(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "z.json", manifest(id="zed", displayName="Zed", launchable=False))
    put(folder, "m.json", mcp())
    registry = get_tool_registry(folder)
    assert reason(registry, "zed", deps=forbidden_deps()) is Reason.NOT_LAUNCHABLE
    assert reason(registry, "files-mcp", deps=forbidden_deps()) is Reason.INERT
    assert reason(registry, "nope", deps=forbidden_deps()) is Reason.UNKNOWN_TOOL


def test_a_granted_adapter_goes_on_to_detection(tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    put(folder, "a.json", manifest())
    # Naming the adapter with any capability of the vocabulary is the host's decision, even one
    # the adapter does not claim.
    for granted in (["headless-task"], ["resumable"], ["no-such-capability", "headless-task"]):
        registry = get_tool_registry(folder, grants={"aider": granted})
        calls: list[str] = []
        assert reason(registry, "aider", deps=deps({"aider"}, calls)) is None
        assert calls == ["aider"]
        assert reason(registry, "aider", deps=deps(set())) is Reason.NOT_INSTALLED
        assert ensure_launchable(registry, "aider", deps=deps({"aider"})).id == "aider"


def test_built_ins_need_no_grant(tmp_path: Path) -> None:
    registry = get_tool_registry(tmp_path)  # no grants at all
    for tool_id in LAUNCHABLE_TOOLS:
        tool = next(t for t in BUILTIN_TOOL_MANIFESTS if t.id == tool_id)
        if tool.detect is not None and tool.detect.kind == "path":
            binary = tool.detect.binaryName
            assert reason(registry, tool_id, deps=deps({binary})) is None, tool_id
            assert reason(registry, tool_id, deps=deps(set())) is Reason.NOT_INSTALLED, tool_id


def test_a_given_detection_is_used_instead_of_probing(registry: ToolRegistry) -> None:
    results = detect_all(registry, deps({"aider"}))
    never = DetectionDeps(which=lambda name: pytest.fail("no probe with a detection given"))
    assert reason(registry, "aider", detection=results, deps=never) is None
    (aider,) = [r for r in results if r.id == "aider"]
    assert reason(registry, "aider", detection=aider, deps=never) is None
    gone = DetectionResult("aider", "Aider", False, None, None, False, "")
    assert reason(registry, "aider", detection=gone, deps=never) is Reason.NOT_INSTALLED
    # A detection of another tool says nothing about this one.
    assert reason(registry, "aider", detection=results[0], deps=never) is Reason.INSTALL_UNKNOWN


@pytest.mark.parametrize("installed", ["no", "false", 0, 1, [], "yes"])
def test_a_given_detection_must_say_true_false_or_none(
    registry: ToolRegistry, installed: object
) -> None:
    """A hand-made result's ``installed`` is read as exactly True, False or None: ``"no"`` read
    as a truth value would approve the launch (TypeScript refuses it as well)."""
    never = DetectionDeps(which=lambda name: pytest.fail("no probe with a detection given"))
    odd = DetectionResult("aider", "Aider", installed, None, None, False, "")  # type: ignore[arg-type]
    for given in (odd, [odd], (odd,)):
        with pytest.raises(TypeError, match="installed must be True, False or None"):
            ensure_launchable(registry, "aider", detection=given, deps=never)


class SneakyResult(DetectionResult):
    """A detection result whose fields are properties: reading them runs the caller's code (and
    could answer True to the guard while the stored value says False)."""

    reads: list[str] = []  # noqa: RUF012 - a record of the reads, shared on purpose

    def __getattribute__(self, name: str) -> object:
        SneakyResult.reads.append(name)
        if name == "installed":
            return True
        return object.__getattribute__(self, name)


def test_a_detection_results_fields_are_read_without_running_its_methods(
    registry: ToolRegistry,
) -> None:
    never = DetectionDeps(which=lambda name: pytest.fail("no probe with a detection given"))
    sneaky = SneakyResult("aider", "Aider", False, None, None, False, "")
    SneakyResult.reads.clear()
    assert reason(registry, "aider", detection=sneaky, deps=never) is Reason.NOT_INSTALLED
    assert reason(registry, "aider", detection=[sneaky], deps=never) is Reason.NOT_INSTALLED
    assert SneakyResult.reads == []
    # A result whose fields were never set is no detection of this tool, and none is probed.
    bare = SneakyResult.__new__(SneakyResult)
    assert reason(registry, "aider", detection=bare, deps=never) is Reason.INSTALL_UNKNOWN


def test_an_endless_detection_is_read_only_as_far_as_the_registry_has_tools(
    registry: ToolRegistry,
) -> None:
    """Detection gives one result per tool: past that many, nothing more is read (an endless
    iterable of other tools' results ends as INSTALL_UNKNOWN instead of running forever)."""
    never = DetectionDeps(which=lambda name: pytest.fail("no probe with a detection given"))
    other = DetectionResult("cursor", "Cursor", True, None, None, False, "")
    read = 0

    def endless() -> Iterator[DetectionResult]:
        nonlocal read
        while True:
            read += 1
            yield other

    assert reason(registry, "aider", detection=endless(), deps=never) is Reason.INSTALL_UNKNOWN
    assert read <= len(registry.tools)


class LoudClass:
    """Not a detection result, and every attribute read fails the test (``__class__`` too)."""

    def __getattribute__(self, name: str) -> NoReturn:
        pytest.fail(f"the guard read {name} of a caller's object")


@pytest.mark.parametrize("given", [[LoudClass()], "aider", [None], 5])
def test_a_given_detection_of_the_wrong_type_is_a_type_error(
    registry: ToolRegistry, given: object
) -> None:
    never = DetectionDeps(which=lambda name: pytest.fail("no probe with a detection given"))
    with pytest.raises(TypeError, match="detection"):
        ensure_launchable(registry, "aider", detection=given, deps=never)  # type: ignore[arg-type]


def test_hostile_ids_never_raise_anything_else(registry: ToolRegistry) -> None:
    for tool_id in ("", "\x1b[2J", "a" * 10_000, None, 3):
        assert reason(registry, tool_id) is Reason.UNKNOWN_TOOL
    with pytest.raises(NotLaunchableError) as caught:
        ensure_launchable(registry, "\x1b[31m" + "x" * 500)
    assert "\x1b" not in str(caught.value) and len(caught.value.tool_id) < 100


def test_launchable_tools_constant() -> None:
    expected = tuple(
        t.id for t in BUILTIN_TOOL_MANIFESTS if t.launchable and t.category != "mcp-server"
    )
    assert expected == LAUNCHABLE_TOOLS


LAUNCH_CHECKS = """\
import { ensureLaunchable, isLaunchable, NotLaunchableError, LAUNCHABLE_TOOLS } from "./index.js";

function code(id: string, installed?: boolean | null): string | null {
  try {
    ensureLaunchable(id, installed);
    return null;
  } catch (error) {
    return error instanceof NotLaunchableError ? error.code : "OTHER";
  }
}
const first = LAUNCHABLE_TOOLS[0] ?? "";
console.log(JSON.stringify({
  launchable: LAUNCHABLE_TOOLS,
  ok: code(first),
  okInstalled: code(first, true),
  unknown: code("aider"),
  proto: code("__proto__"),
  notInstalled: code(first, false),
  installUnknown: code(first, null),
  isLaunchable: isLaunchable(first),
}));
"""


def test_typescript_guard_under_node(tmp_path: Path) -> None:
    out = build_typescript(
        tmp_path, REPO / "generated/typescript", {"launch-checks.ts": LAUNCH_CHECKS}
    )
    result = run_node(out / "launch-checks.js")
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    assert facts == {
        "launchable": list(LAUNCHABLE_TOOLS),
        "ok": None,
        "okInstalled": None,
        "unknown": "UNKNOWN_TOOL",
        "proto": "UNKNOWN_TOOL",
        "notInstalled": "NOT_INSTALLED",
        "installUnknown": "INSTALL_UNKNOWN",
        "isLaunchable": True,
    }


GOLDEN_CHECKS = """\
import { ensureLaunchable, NotLaunchableError } from "./index.js";

function code(id: string): string | null {
  try {
    ensureLaunchable(id, true);
    return null;
  } catch (error) {
    return error instanceof NotLaunchableError ? error.code : "OTHER";
  }
}
console.log(JSON.stringify({ aider: code("aider"), zed: code("zed"), files: code("files") }));
"""


def test_typescript_guard_refuses_inert_and_unlaunchable_builtins(tmp_path: Path) -> None:
    # The minimal golden table has a non-launchable built-in (zed) and an inert one (files).
    generated = REPO / "tests/golden/minimal/generated/typescript"
    out = build_typescript(tmp_path, generated, {"golden-checks.ts": GOLDEN_CHECKS})
    result = run_node(out / "golden-checks.js")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"aider": None, "zed": "NOT_LAUNCHABLE", "files": "INERT"}

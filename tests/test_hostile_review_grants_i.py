"""Hostile review (session i) of grants, categories, the launch guard and prompt arguments: each
test holds one finding to the README's promise or to the other language's verdict."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from tool_registry import (
    DetectionDeps,
    PromptArgError,
    apply_prompt_arg_template,
    detect_all,
    detect_tool,
    ensure_launchable,
    get_tool_registry,
    is_launchable,
    not_launchable_reason,
)

from .conftest import REPO, build_typescript, run_js
from .test_hostile_review_paths import RECORDING_DETECTION_DEPS_JS


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(
        tmp_path_factory.mktemp("ts-review-grants-i"), REPO / "generated" / "typescript"
    )


# -- prompt arguments: a bound limits the work while the template is read ----------------------


class _Entries(tuple[str, ...]):
    """A tuple subclass: read through ``tuple``'s own methods, so it is copied to be read."""


@pytest.mark.parametrize("kind", [list, _Entries])
def test_a_template_of_too_many_entries_is_refused_before_it_is_copied(kind: type) -> None:
    # 1,000,000 entries: copying them (a list, then a tuple) cost 16 MB before the count was
    # compared with the bound; TypeScript refuses such an array before reading an element.
    template = kind(["x"] * 1_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(PromptArgError) as raised:
            apply_prompt_arg_template(template, "p")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (raised.value.code, raised.value.index) == ("ARGUMENTS_TOO_LONG", 131_072)
    assert peak < 1_000_000, f"{peak} bytes allocated to refuse the template"


# -- detect_tool: a program an adapter names is run only when the host asks ---------------------

AIDER = {
    "id": "aider",
    "displayName": "Aider",
    "category": "cli-agent",
    "launchable": True,
    "hookCapable": False,
    "hookPointer": ".aider/hive-mind-install.json",
    "detect": {"kind": "path", "binaryName": "aider"},
    "capabilities": {"provides": ["headless-task"]},
}


@pytest.fixture
def adapters(tmp_path: Path) -> Path:
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "aider.json").write_text(json.dumps(AIDER), encoding="utf-8")
    return folder


def test_detect_tool_runs_no_program_a_dropped_adapter_names_by_default(adapters: Path) -> None:
    # ``detect_tool(tool, registry, deps)`` ran the ``--version`` of the binary an adapter the host
    # granted nothing names (its default was ``probe_version=True``), although ``detect_all`` and
    # the launch guard run no third-party program unless the host asks.
    registry = get_tool_registry(adapters)
    ran: list[str] = []

    def run_version(path: str, _timeout: float) -> str:
        ran.append(path)
        return "1.0"

    deps = DetectionDeps(
        which=lambda name: "/usr/bin/" + name,
        is_file=lambda _path: False,
        home=lambda: "/home/u",
        platform=lambda: "linux",
        run_version=run_version,
        read_text=lambda _path: None,
    )
    aider, claude = registry.get("aider"), registry.get("claude-code")
    assert aider is not None and claude is not None
    result = detect_tool(aider, registry, deps)
    assert (result.installed, result.version, ran) == (True, None, [])
    assert detect_tool(claude, registry, deps).version == "1.0"  # a built-in's is probed
    assert detect_tool(aider, registry, deps, probe_version=True).version == "1.0"
    assert ran == ["/usr/bin/claude", "/usr/bin/aider"]
    with pytest.raises(TypeError, match="probe_version must be True, False or None"):
        detect_tool(aider, registry, deps, probe_version="no")  # type: ignore[arg-type]


DETECT_TOOL_DEFAULT = (
    """
import { getToolRegistry, detectTool } from "./index.js";
const registry = getToolRegistry(process.argv[2]);
"""
    + RECORDING_DETECTION_DEPS_JS
    + """const aider = registry.get("aider");
const result = await detectTool(aider, registry, deps);
const out = [result.installed, result.version, [...ran]];
out.push((await detectTool(registry.get("claude-code"), registry, deps)).version);
out.push((await detectTool(aider, registry, deps, true)).version);
out.push(ran);
process.stdout.write(JSON.stringify(out));
"""
)


def test_typescript_detect_tool_runs_no_program_a_dropped_adapter_names_by_default(
    out: Path, adapters: Path
) -> None:
    assert run_js(out, DETECT_TOOL_DEFAULT, str(adapters)) == [
        True,
        None,
        [],
        "1.0",
        "1.0",
        ["/usr/bin/claude", "/usr/bin/aider"],
    ]


# -- a registry of the wrong type is a TypeError, not an AttributeError -------------------------


@pytest.mark.parametrize("registry", [None, {}, 5, "codex"])
def test_the_launch_guard_and_detection_refuse_what_is_no_registry(registry: object) -> None:
    # ``ensure_launchable(None, "codex")`` and ``detect_all(None)`` raised ``AttributeError``
    # (TypeScript's ``detectAll(null)`` is a ``TypeError``), and ``ensure_launchable({}, ...)``
    # answered ``UNKNOWN_TOOL`` from a dict's ``get``.
    for guard in (ensure_launchable, is_launchable, not_launchable_reason):
        with pytest.raises(TypeError, match="registry must be a ToolRegistry"):
            guard(registry, "codex")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="registry must be a ToolRegistry"):
        detect_all(registry)  # type: ignore[arg-type]


# -- TypeScript grants: the bound is kept while the keys are read -------------------------------

PROXY_GRANTS = """
import { getToolRegistry } from "./index.js";
const keys = Array.from({ length: 100000 }, (_, index) => "tool-" + index);
keys.push("aider");
let asked = 0;
const grants = new Proxy({}, {
  ownKeys: () => keys,
  getOwnPropertyDescriptor: () => {
    asked += 1;
    return { value: ["headless-task"], enumerable: true, configurable: true, writable: true };
  },
  get: () => ["headless-task"],
});
const registry = getToolRegistry(process.argv[2], { grants });
process.stdout.write(JSON.stringify([asked, registry.providersOf("headless-task").includes("aider")]));
"""


def test_typescript_grants_of_too_many_ids_are_refused_before_each_is_asked_about(
    out: Path, adapters: Path
) -> None:
    # ``Object.keys`` asked a Proxy's ``getOwnPropertyDescriptor`` about each of 100,001 keys
    # before the count met the bound of 1,000 (Python stops reading at the 1,001st id).
    asked, routed = run_js(out, PROXY_GRANTS, str(adapters))
    assert routed is False
    assert asked <= 1001, f"{asked} keys looked at"

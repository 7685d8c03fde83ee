"""Issue #10: inert MCP entries. The schema refuses every field that would let the registry run
one, its server description obeys the safe-string rules, and detection and routing never touch
it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    CAPABILITIES,
    CAPABILITY_PROVIDERS,
    DetectionDeps,
    DiagnosticCode,
    detect_all,
    get_tool_registry,
    validate_third_party_manifest,
    validate_tool_manifest,
)
from tool_registry.detection import detect_tool

from .test_catalog_grants import mcp
from .test_loader import manifest, put

Code = DiagnosticCode


def findings(document: dict[str, Any]) -> list[tuple[DiagnosticCode, str]]:
    return [(d.code, d.pointer) for d in validate_third_party_manifest(document)]


def test_a_stdio_and_an_http_server_are_valid() -> None:
    assert findings(mcp()) == []
    assert (
        findings(mcp(mcpServer={"transport": "http", "url": "https://mcp.example:8443/v1"})) == []
    )
    assert validate_tool_manifest(mcp()) == ()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("detect", {"kind": "path", "binaryName": "files-mcp"}),
        ("promptArgTemplate", ["{prompt}"]),
        ("hookPackage", "files-hooks"),
        ("capabilities", {"provides": []}),
        ("capabilities", {"provides": ["headless-task"]}),
        ("launchable", True),
        ("hookCapable", True),
    ],
)
def test_the_schema_refuses_each_executable_field(field: str, value: object) -> None:
    assert (Code.SCHEMA_VIOLATION, f"/{field}") in findings(mcp(**{field: value}))
    assert f"/{field}" in [d.pointer for d in validate_tool_manifest(mcp(**{field: value}))]


def test_an_mcp_server_needs_its_description_and_others_may_not_have_one() -> None:
    assert (Code.SCHEMA_VIOLATION, "") in findings(mcp(mcpServer=None))
    server = {"transport": "stdio", "command": "x"}
    assert (Code.SCHEMA_VIOLATION, "/mcpServer") in findings(manifest(mcpServer=server))
    # Every other manifest still needs detect.
    assert (Code.SCHEMA_VIOLATION, "") in findings(manifest(detect=None))


@pytest.mark.parametrize(
    ("server", "code", "pointer"),
    [
        ({"transport": "stdio"}, Code.SCHEMA_VIOLATION, "/mcpServer"),
        ({"transport": "http"}, Code.SCHEMA_VIOLATION, "/mcpServer"),
        (
            {"transport": "ws", "url": "https://a.example"},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/transport",
        ),
        (
            {"transport": "stdio", "command": "x", "url": "https://a"},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/url",
        ),
        (
            {"transport": "http", "url": "https://a.example", "command": "x"},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/command",
        ),
        (
            {"transport": "http", "url": "https://a.example", "args": []},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/args",
        ),
        (
            {"transport": "stdio", "command": "srv; rm -rf ~"},
            Code.UNSAFE_STRING,
            "/mcpServer/command",
        ),
        ({"transport": "stdio", "command": "$(evil)"}, Code.UNSAFE_STRING, "/mcpServer/command"),
        ({"transport": "stdio", "command": "../bin/srv"}, Code.UNSAFE_STRING, "/mcpServer/command"),
        ({"transport": "stdio", "command": "-srv"}, Code.SCHEMA_VIOLATION, "/mcpServer/command"),
        ({"transport": "stdio", "command": "my srv"}, Code.SCHEMA_VIOLATION, "/mcpServer/command"),
        (
            {"transport": "stdio", "command": "s", "args": ["/etc/passwd"]},
            Code.UNSAFE_STRING,
            "/mcpServer/args/0",
        ),
        (
            {"transport": "stdio", "command": "s", "args": ["ok", "a/../b"]},
            Code.UNSAFE_STRING,
            "/mcpServer/args/1",
        ),
        (
            {"transport": "stdio", "command": "s", "args": ["C:x"]},
            Code.UNSAFE_STRING,
            "/mcpServer/args/0",
        ),
        (
            {"transport": "stdio", "command": "s", "args": ["a|b"]},
            Code.UNSAFE_STRING,
            "/mcpServer/args/0",
        ),
        (
            {"transport": "stdio", "command": "s", "args": ["a\nb"]},
            Code.UNSAFE_STRING,
            "/mcpServer/args/0",
        ),
        ({"transport": "http", "url": "http://a.example"}, Code.SCHEMA_VIOLATION, "/mcpServer/url"),
        (
            {"transport": "http", "url": "https://user:pw@a.example"},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/url",
        ),
        (
            {"transport": "http", "url": "https://a.example/x?a=1&b=2"},
            Code.UNSAFE_STRING,
            "/mcpServer/url",
        ),
        (
            {"transport": "http", "url": "https://a.example/$(x)"},
            Code.UNSAFE_STRING,
            "/mcpServer/url",
        ),
        (
            {"transport": "http", "url": "https://a.example/ x"},
            Code.SCHEMA_VIOLATION,
            "/mcpServer/url",
        ),
    ],
)
def test_server_descriptions_obey_the_safe_string_rules(
    folder: Path, server: dict[str, Any], code: DiagnosticCode, pointer: str
) -> None:
    put(folder, "m.json", mcp(mcpServer=server))
    result = get_tool_registry(folder)
    assert result.get("files-mcp") is None
    assert (code, pointer) in [(d.code, d.pointer) for d in result.diagnostics]


def test_an_absolute_program_path_is_allowed_but_not_in_arguments() -> None:
    assert findings(mcp(mcpServer={"transport": "stdio", "command": "/opt/mcp/srv"})) == []


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "adapters"
    path.mkdir()
    return path


class Tripwire:
    """Detection dependencies that fail the test when asked about anything the inert entry
    names, and answer harmlessly for every other tool."""

    def __init__(self, secrets: set[str]) -> None:
        self.secrets = secrets
        self.calls: list[str] = []

    def check(self, value: str) -> None:
        self.calls.append(value)
        assert not any(secret in value for secret in self.secrets), value

    def deps(self) -> DetectionDeps:
        def which(name: str) -> str | None:
            self.check(name)
            return None

        def is_file(path: str) -> bool:
            self.check(path)
            return False

        def run_version(path: str, timeout: float) -> str | None:
            self.check(path)
            return None

        def read_text(path: str) -> str | None:
            self.check(path)
            return None

        return DetectionDeps(
            which=which,
            is_file=is_file,
            run_version=run_version,
            read_text=read_text,
            home=lambda: "/home/u",
            platform=lambda: "linux",
        )


def test_detection_never_touches_an_inert_entry(folder: Path) -> None:
    put(
        folder,
        "m.json",
        mcp(
            hookPointer=".tripwire/pointer.json",
            mcpServer={"transport": "stdio", "command": "tripwire-srv"},
        ),
    )
    put(folder, "a.json", manifest())
    registry = get_tool_registry(folder, grants={"aider": list(CAPABILITIES)})
    wire = Tripwire({"tripwire"})
    results = detect_all(registry, wire.deps(), probe_third_party_versions=True)
    assert "files-mcp" not in [r.id for r in results]
    assert "aider" in [r.id for r in results] and wire.calls  # the others were probed
    # Asked directly, detection answers without a single dependency call.
    tool = registry.get("files-mcp")
    assert tool is not None
    before = len(wire.calls)
    result = detect_tool(tool, registry, wire.deps())
    assert len(wire.calls) == before
    assert (result.installed, result.path, result.hooks_installed) == (None, None, False)


def test_routing_never_includes_an_inert_entry(folder: Path) -> None:
    put(folder, "m.json", mcp())
    # A host granting everything to the entry still routes nothing to it.
    registry = get_tool_registry(folder, grants={"files-mcp": list(CAPABILITIES)})
    assert registry.granted["files-mcp"] == frozenset()
    for capability in CAPABILITIES:
        assert "files-mcp" not in registry.providers_of(capability)
        assert "files-mcp" not in registry.capability_providers[capability]
        assert "files-mcp" not in CAPABILITY_PROVIDERS[capability]
    assert "files-mcp" not in registry.cohort("LAUNCH_COHORT")
    assert "files-mcp" not in registry.cohort("HOOKS_COHORT")
    assert registry.diagnostics == ()

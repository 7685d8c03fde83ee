"""Issue #10: libraries and categories, the sanitized catalog, capabilities granted by the host
(not claimed by a file), the capability constants, and category-scoped loading."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import tool_registry
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_registry import (
    BUILTIN_LIBRARY,
    BUILTIN_TOOL_MANIFESTS,
    CAPABILITIES,
    CAPABILITY_PROVIDERS,
    DiagnosticCode,
    Severity,
    get_tool_registry,
)

from .test_loader import manifest, put

REPO = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((REPO / "schema/tool-manifest.schema.json").read_text())


def mcp(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "id": "files-mcp",
        "displayName": "Files MCP",
        "launchable": False,
        "hookCapable": False,
        "hookPointer": ".files-mcp/none.json",
        "category": "mcp-server",
        "library": "mcp-pack",
        "mcpServer": {"transport": "stdio", "command": "files-mcp", "args": ["--root", "data"]},
    }
    document.update(changes)
    return {k: v for k, v in document.items() if v is not None}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "adapters"
    path.mkdir()
    return path


# --- 1. libraries and categories --------------------------------------------------------------


def test_category_vocabulary_has_mcp_server() -> None:
    assert "mcp-server" in SCHEMA["properties"]["category"]["enum"]


def test_builtins_belong_to_the_tables_library() -> None:
    assert BUILTIN_LIBRARY == "waggle"
    assert {tool.library for tool in BUILTIN_TOOL_MANIFESTS} == {BUILTIN_LIBRARY}


@pytest.mark.parametrize("library", ["Acme", "-acme", "acme-", "acme pack", "a/b", "a" * 65])
def test_a_library_is_kebab_case(folder: Path, library: str) -> None:
    put(folder, "a.json", manifest(library=library))
    registry = get_tool_registry(folder)
    assert registry.get("aider") is None
    assert registry.diagnostics[0].pointer == "/library"


def test_libraries_share_categories_and_span_several(folder: Path) -> None:
    put(folder, "a.json", manifest(id="aider", category="cli-agent", library="pack-one"))
    put(
        folder,
        "b.json",
        manifest(id="bolt", displayName="Bolt", category="cli-agent", library="pack-two"),
    )
    put(
        folder,
        "c.json",
        manifest(id="canvas", displayName="Canvas", category="desktop-app", library="pack-one"),
    )
    catalog = get_tool_registry(folder).catalog()
    layout = {
        c["category"]: {lib["library"]: [t["id"] for t in lib["tools"]] for lib in c["libraries"]}
        for c in catalog["categories"]
    }
    assert layout["cli-agent"]["pack-one"] == ["aider"]
    assert layout["cli-agent"]["pack-two"] == ["bolt"]
    assert layout["desktop-app"]["pack-one"] == ["canvas"]
    assert "claude-code" in layout["cli-agent"][BUILTIN_LIBRARY]


# --- 2. the catalog ---------------------------------------------------------------------------


def test_catalog_shape_and_order(folder: Path) -> None:
    put(folder, "zz-aider.json", manifest(category="cli-agent", library="aider-pack"))
    put(folder, "nocat.json", manifest(id="plain", displayName="Plain"))
    put(folder, "files.json", mcp())
    catalog = get_tool_registry(folder, grants={"aider": ["headless-task"]}).catalog()
    assert json.loads(json.dumps(catalog)) == catalog
    names = [c["category"] for c in catalog["categories"]]
    assert names == ["cli-agent", "desktop-app", "mcp-server", None]
    cli = catalog["categories"][0]["libraries"]
    assert [lib["library"] for lib in cli] == ["aider-pack", BUILTIN_LIBRARY]
    (aider,) = cli[0]["tools"]
    assert aider == {
        "id": "aider",
        "displayName": "Aider",
        "builtin": False,
        "inert": False,
        "claimed": ["headless-task"],
        "granted": ["headless-task"],
        "notGranted": [],
        "source": "zz-aider.json",
    }
    builtin_ids = [t["id"] for t in cli[1]["tools"]]
    assert builtin_ids == [t.id for t in BUILTIN_TOOL_MANIFESTS if t.category == "cli-agent"]
    assert all(t["builtin"] and t["source"] is None for t in cli[1]["tools"])
    (files,) = catalog["categories"][2]["libraries"][0]["tools"]
    assert files["inert"] is True and files["transport"] == "stdio"
    assert files["claimed"] == files["granted"] == []
    (plain,) = catalog["categories"][3]["libraries"][0]["tools"]
    assert plain["id"] == "plain" and catalog["categories"][3]["libraries"][0]["library"] is None
    # Deterministic: the same folder gives the same bytes.
    again = get_tool_registry(folder, grants={"aider": ["headless-task"]}).catalog()
    assert json.dumps(again) == json.dumps(catalog)


SENTINEL = "QZX"  # never in an id (lower case), a library, a capability or a fixed catalog word
_SAFE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=0, max_size=12)
_HOSTILE = st.text(max_size=20).filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s))
_SECRET: st.SearchStrategy[str] = st.builds(
    lambda body: SENTINEL + body, st.one_of(_SAFE, _HOSTILE)
)


@st.composite
def adapter_documents(draw: st.DrawFn, index: int) -> dict[str, Any]:
    def secret() -> str:
        return draw(_SECRET)

    tool_id = f"tool-{index}"
    display = draw(st.text(alphabet="abcdefgh ", min_size=1, max_size=10)) + f" {index}"
    if draw(st.booleans()):
        transport = draw(st.sampled_from(["stdio", "http"]))
        server: dict[str, Any] = {"transport": transport}
        if transport == "stdio":
            server["command"] = secret()
            server["args"] = [secret() for _ in range(draw(st.integers(0, 3)))]
        else:
            server["url"] = "https://" + secret().lower() + ".example/" + secret()
        return mcp(id=tool_id, displayName=display, hookPointer=secret(), mcpServer=server)
    document = manifest(
        id=tool_id,
        displayName=display,
        hookPointer=secret(),
        detect={"kind": "path", "binaryName": secret()},
        promptArgTemplate=[secret(), "{prompt}"],
        category=draw(st.sampled_from(["cli-agent", "desktop-app", None])),
        capabilities={"provides": draw(st.lists(st.sampled_from(CAPABILITIES), unique=True))},
    )
    if draw(st.booleans()):
        document["hookPackage"] = secret().lower()
    return document


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_the_catalog_never_shows_paths_commands_or_urls(
    data: st.DataObject, tmp_path: Path
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    count = data.draw(st.integers(1, 4))
    documents = [data.draw(adapter_documents(index)) for index in range(count)]
    for index, document in enumerate(documents):
        put(folder, f"adapter-{index}.json", document)
    grants = {f"tool-{i}": list(CAPABILITIES) for i in range(count) if data.draw(st.booleans())}
    registry = get_tool_registry(folder, grants=grants)
    text = json.dumps(registry.catalog())
    assert SENTINEL not in text and SENTINEL.lower() not in text
    assert str(folder) not in text and "resolver" not in text.lower()


def test_the_catalog_holds_no_callable_or_path(folder: Path) -> None:
    put(folder, "files.json", mcp(mcpServer={"transport": "http", "url": "https://mcp.example/x"}))
    registry = get_tool_registry(folder, resolvers={"cursor": lambda deps: ["/opt/cursor"]})

    def walk(value: object) -> None:
        assert isinstance(value, (dict, list, str, bool, type(None)))
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    catalog = registry.catalog()
    walk(catalog)
    text = json.dumps(catalog)
    for fragment in ("/opt/cursor", "mcp.example", "hive-mind-install", "/Applications", "claude"):
        assert fragment not in text.replace("claude-code", "").replace(
            "claude-desktop", ""
        ).replace("Claude", "")


def test_catalog_sanitizes_what_it_shows(folder: Path) -> None:
    # The schema refuses invisible characters in display names; a backslash passes, and is shown
    # doubled so that it cannot pass for an escape.
    put(folder, "a.json", manifest(displayName="Ai\\u200ddr"))
    catalog = get_tool_registry(folder).catalog()
    shown_names = [
        t["displayName"]
        for c in catalog["categories"]
        for lib in c["libraries"]
        for t in lib["tools"]
    ]
    assert "Ai\\\\u200ddr" in shown_names


# --- 4. capabilities are granted, not claimed -------------------------------------------------


def test_ungranted_claims_route_nothing_and_give_one_notice(folder: Path) -> None:
    put(folder, "a.json", manifest(capabilities={"provides": ["headless-task", "resumable"]}))
    put(
        folder,
        "z.json",
        manifest(id="zed", displayName="Zed", capabilities={"provides": ["resumable"]}),
    )
    registry = get_tool_registry(folder)
    for capability in CAPABILITIES:
        assert registry.providers_of(capability) == CAPABILITY_PROVIDERS[capability]
    assert registry.capability_providers == {k: tuple(v) for k, v in CAPABILITY_PROVIDERS.items()}
    notices = [d for d in registry.diagnostics if d.code is DiagnosticCode.CAPABILITY_NOT_GRANTED]
    assert [(d.source, d.pointer, d.severity) for d in notices] == [
        ("a.json", "/capabilities/provides", Severity.WARNING),
        ("z.json", "/capabilities/provides", Severity.WARNING),
    ]
    assert "headless-task, resumable" in notices[0].found


def test_a_grant_routes_only_what_was_claimed_and_granted(folder: Path) -> None:
    put(folder, "a.json", manifest(capabilities={"provides": ["headless-task", "resumable"]}))
    registry = get_tool_registry(
        folder, grants={"aider": ["headless-task", "structured-progress"], "cursor": []}
    )
    assert registry.providers_of("headless-task")[-1] == "aider"
    assert "aider" not in registry.providers_of("resumable")
    assert "aider" not in registry.providers_of("structured-progress")  # granted, not claimed
    assert registry.granted["aider"] == frozenset({"headless-task"})
    # Built-ins are granted by the table whatever the host passes for them.
    assert "cursor" in registry.providers_of("interactive-launch")
    (notice,) = [d for d in registry.diagnostics if d.code is DiagnosticCode.CAPABILITY_NOT_GRANTED]
    assert notice.found == "resumable"
    assert registry.capability_providers["headless-task"][-1] == "aider"


def test_a_full_grant_gives_no_notice(folder: Path) -> None:
    put(folder, "a.json", manifest())
    registry = get_tool_registry(folder, grants={"aider": ("headless-task",)})
    assert registry.diagnostics == ()


@pytest.mark.parametrize(
    "grants", [{"aider": "headless-task"}, {1: ["headless-task"]}, {"aider": [1, None]}]
)
def test_odd_grants_grant_nothing_and_never_raise(folder: Path, grants: Any) -> None:
    put(folder, "a.json", manifest())
    registry = get_tool_registry(folder, grants=grants)
    assert "aider" not in registry.providers_of("headless-task")


def test_notices_stay_bounded_and_sanitized(folder: Path) -> None:
    for index in range(30):
        put(
            folder,
            f"a{index:02}.json",
            manifest(
                id=f"t{index}",
                displayName=f"T {index}",
                capabilities={"provides": list(CAPABILITIES)},
            ),
        )
    registry = get_tool_registry(folder)
    notices = [d for d in registry.diagnostics if d.code is DiagnosticCode.CAPABILITY_NOT_GRANTED]
    assert len(notices) == 30  # one per adapter, never one per capability
    assert all(len(d.found) <= 80 for d in notices)


def test_capability_constants_are_the_strings_plugins_declare() -> None:
    # Stability: each constant's value is the exact string a manifest declares; renaming or
    # removing a capability (or its constant) fails here.
    expected = {
        "CAP_INTERACTIVE_LAUNCH": "interactive-launch",
        "CAP_HEADLESS_TASK": "headless-task",
        "CAP_STRUCTURED_PROGRESS": "structured-progress",
        "CAP_RESUMABLE": "resumable",
    }
    for name, value in expected.items():
        assert getattr(tool_registry, name) == value
        assert name in tool_registry.__all__
        assert value in CAPABILITIES
    assert SCHEMA["$defs"]["Capability"]["enum"] == list(expected.values())
    constants = {n for n in tool_registry.__all__ if n.startswith("CAP_")}
    assert constants == set(expected)


def test_typescript_has_the_same_capability_constants() -> None:
    text = (REPO / "generated/typescript/tools.ts").read_text()
    for capability in CAPABILITIES:
        name = "CAP_" + capability.upper().replace("-", "_")
        assert f'export const {name} = "{capability}" satisfies Capability;' in text


# --- 5. category-scoped loading ---------------------------------------------------------------

_CATEGORIES = ["cli-agent", "desktop-app", "mcp-server"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_category_scoped_load_equals_the_full_load_filtered(
    data: st.DataObject, tmp_path: Path
) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    for index in range(data.draw(st.integers(0, 6))):
        tool_id = data.draw(st.sampled_from(["a", "b", "c", "d", "cursor"])) + f"-{index % 3}"
        category = data.draw(st.sampled_from([*_CATEGORIES, None]))
        if category == "mcp-server":
            document = mcp(id=tool_id, displayName=f"M {index}")
        else:
            document = manifest(id=tool_id, displayName=f"T {index}", category=category)
        put(folder, f"{index}.json", document if data.draw(st.booleans()) else {"id": tool_id})
    chosen = data.draw(st.lists(st.sampled_from([*_CATEGORIES, "nope"]), unique=True))
    grants = {"a-0": ["headless-task"], "b-1": ["headless-task"]}
    full = get_tool_registry(folder, grants=grants)
    scoped = get_tool_registry(folder, grants=grants, categories=chosen)
    kept = [tool for tool in full.tools if tool.category in chosen]
    assert scoped.tools == tuple(kept)
    assert {k: v for k, v in full.granted.items() if k in scoped.ids} == dict(scoped.granted)
    for capability in CAPABILITIES:
        expected = tuple(i for i in full.providers_of(capability) if i in scoped.ids)
        assert scoped.providers_of(capability) == expected
    full_catalog = full.catalog()["categories"]
    assert scoped.catalog()["categories"] == [c for c in full_catalog if c["category"] in chosen]
    assert scoped.files == full.files  # conflicts are decided over the whole folder
    granted_notice = DiagnosticCode.CAPABILITY_NOT_GRANTED
    kept_sources = {full.sources.get(tool.id) for tool in kept}
    full_notices = [d for d in full.diagnostics if d.code is granted_notice]
    assert [d for d in scoped.diagnostics if d.code is granted_notice] == [
        d for d in full_notices if d.source in kept_sources
    ]
    assert [d for d in scoped.diagnostics if d.code is not granted_notice] == [
        d for d in full.diagnostics if d.code is not granted_notice
    ]


def test_duplicates_across_categories_are_still_conflicts(folder: Path) -> None:
    put(folder, "a.json", manifest(category="cli-agent"))
    put(folder, "b.json", manifest(category="desktop-app", displayName="Other"))
    scoped = get_tool_registry(folder, categories=["cli-agent"])
    assert scoped.get("aider") is None
    assert [d.code for d in scoped.diagnostics] == [DiagnosticCode.DUPLICATE_ID] * 2


def test_accepted_entries_keep_their_secrets_out_of_the_catalog(folder: Path) -> None:
    # The property test's fixed point: entries that do load, each holding the sentinel in every
    # path, command, argument and URL field, and none of it reaches the catalog.
    s = SENTINEL
    put(
        folder,
        "a.json",
        manifest(
            hookPointer=f"{s}/p.json",
            detect={"kind": "path", "binaryName": f"{s}bin"},
            promptArgTemplate=[f"{s}", "{prompt}"],
            hookPackage=f"{s.lower()}-hooks",
        ),
    )
    put(
        folder,
        "b.json",
        mcp(
            id="b",
            displayName="B",
            hookPointer=f"{s}/q.json",
            mcpServer={
                "transport": "stdio",
                "command": f"/opt/{s}/srv",
                "args": [f"--{s}", f"{s}.cfg"],
            },
        ),
    )
    put(
        folder,
        "c.json",
        mcp(
            id="c",
            displayName="C",
            mcpServer={"transport": "http", "url": f"https://{s.lower()}.example/{s}?k={s}"},
        ),
    )
    registry = get_tool_registry(folder, grants={"aider": ["headless-task"]})
    assert registry.diagnostics == ()
    assert {"aider", "b", "c"} <= set(registry.ids)
    text = json.dumps(registry.catalog())
    assert s not in text and s.lower() not in text


def test_the_catalog_is_typed_as_it_is_built(folder: Path) -> None:
    """``Catalog`` and ``CatalogTool`` (TypedDicts, as TypeScript's interfaces) name exactly the
    keys ``catalog()`` returns: every required key on every tool, ``transport`` only where it is."""
    from tool_registry import Catalog, CatalogTool

    put(folder, "a.json", manifest())
    put(folder, "m.json", mcp())
    catalog = get_tool_registry(folder).catalog()
    assert set(catalog) == set(Catalog.__annotations__)
    tools = [
        tool
        for category in catalog["categories"]
        for library in category["libraries"]
        for tool in library["tools"]
    ]
    assert CatalogTool.__required_keys__ == set(CatalogTool.__annotations__) - {"transport"}
    for tool in tools:
        assert CatalogTool.__required_keys__ <= set(tool) <= set(CatalogTool.__annotations__)
    assert any("transport" in tool for tool in tools)

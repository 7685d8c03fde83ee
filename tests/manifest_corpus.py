"""A reproducible corpus of tool manifests for the cross-language tests.

``corpus(size, seed)`` gives valid manifests (command-line agents, desktop apps, inert MCP
servers) with 0-4 random edits each: values replaced by hostile ones (shell metacharacters,
traversal, bidi controls, astral characters at and past length limits, lone surrogates, wrong
types), members deleted or added under hostile names (``__proto__``, ``constructor``, keys with
``/`` and ``~``), items appended; about 3% are not objects at all. Same seed, same documents.
"""

from __future__ import annotations

import copy
import random
from typing import Any

VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    7,
    1.5,
    "",
    "x",
    "codex",
    "a;b",
    "../x",
    "/abs",
    "--flag",
    "\u0663",
    "Ai\u202eder",
    "x" * 300,
    "\U0001f600" * 80,
    "\U0001f600" * 81,
    "a\ud800",
    "\udc00b",
    "\ud83d\ude00",
    "caf\u00e9",
    "\u200bcodex",
    "{prompt}",
    "https://example.invalid/x",
    [],
    {},
    [1, 1],
    ["headless-task", "headless-task"],
    ["headless-task", "teleport", 3],
    {"kind": "path"},
    {"kind": "path", "binaryName": "tool"},
    {"kind": "candidates", "paths": {"linux": ["/opt/x"]}},
    {"kind": "teleport"},
    {"provides": ["resumable"]},
    {"transport": "stdio", "command": "server"},
    {"transport": "http", "url": "http://insecure"},
]
KEYS = [
    "__proto__",
    "constructor",
    "toString",
    "a/b~c",
    "extra",
    "\ud800key",
    "\u202eid",
    "kind",
    "id",
]


def base_manifest(index: int) -> dict[str, Any]:
    """A valid manifest: a command-line agent, a desktop app, or an (inert) MCP server."""
    if index % 3 == 2:
        return {
            "id": f"server-{index}",
            "displayName": f"Server {index}",
            "launchable": False,
            "hookCapable": False,
            "hookPointer": f".server-{index}/hook.json",
            "category": "mcp-server",
            "mcpServer": {"transport": "stdio", "command": "server", "args": ["--port", "1"]},
        }
    return {
        "id": f"tool-{index}",
        "displayName": f"Tool {index}",
        "launchable": True,
        "hookCapable": index % 2 == 0,
        "hookPointer": f".tool-{index}/hook.json",
        "detect": {"kind": "path", "binaryName": f"tool{index}"},
        "promptArgTemplate": ["--print", "{prompt}"],
        "capabilities": {"provides": ["headless-task", "resumable"]},
        "category": ["cli-agent", "desktop-app"][index % 3],
    }


def mutate(document: Any, chooser: random.Random) -> Any:
    """One edit at a random depth: replace a value, delete or add a member, append an item."""
    node = document
    while isinstance(node, dict | list) and node and chooser.random() < 0.6:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = chooser.choice(keys)
        if not isinstance(node[key], dict | list):
            break
        node = node[key]
    value = copy.deepcopy(chooser.choice(VALUES))
    if isinstance(node, dict):
        action = chooser.choice(["replace", "replace", "delete", "add"])
        if action == "add" or not node:
            node[chooser.choice(KEYS)] = value
        elif action == "delete":
            del node[chooser.choice(list(node))]
        else:
            node[chooser.choice(list(node))] = value
    elif isinstance(node, list):
        node.append(value)
    return document


def corpus(size: int, seed: int) -> list[Any]:
    chooser = random.Random(seed)
    documents: list[Any] = []
    for index in range(size):
        document: Any = base_manifest(index)
        for _ in range(chooser.randint(0, 4)):
            document = mutate(document, chooser)
        if chooser.random() < 0.03:
            document = copy.deepcopy(chooser.choice(VALUES))  # not an object at all
        documents.append(document)
    return documents

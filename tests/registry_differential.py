"""Drive both generated runtimes over the same registry-and-detection scenarios and list every
disagreement.

A scenario names an adapter folder (written once per batch, read by both loaders for real),
the host's ``grants``, ``categories`` and ``resolvers`` (odd shapes included: strings, mappings,
numbers, sets, spelled ``{"$set": [...]}`` in the job), fake detection dependencies, and the
capabilities and cohort names to ask about. The fake dependencies answer from tables, the same
in both languages: ``which`` by name, ``is_file`` by exact path or suffix, ``run_version`` and
``read_text`` by the first matching suffix, ``home`` and ``platform`` by one answer; an answer is
a value (``{"v": ...}``) or a raised error of a kind (``{"throw": "oserror" | "timeout" |
"notregular" | "runtime"}``). Every call a fake gets is logged, so the two runtimes must not only
answer alike but ask alike.

Compared: the registry's ids, diagnostics (every field), sources, grants, cohorts, capability
providers, ``providers_of`` / ``cohort`` answers (or the error's class name), the catalog, every
field of every ``detect_all`` result and of ``detect_tool`` without the version probe (what
``ensure_launchable`` reads), the launch guard's reason for each built-in, and the call logs.
The one tolerated difference is the README's: a ``DETECTION_FAILED`` record names node's error
where Python names its exception type, so only its step (``version``, ``probe``, ``hook
pointer``) is compared.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tool_registry import (
    DetectionDeps,
    NotARegularFileError,
    detect_all,
    detect_tool,
    get_tool_registry,
    not_launchable_reason,
)
from tool_registry.detection import DetectionResult
from tool_registry.registry import ToolRegistry

from .conftest import REPO, build_typescript, node_executable
from .manifest_corpus import mutate
from .parse_differential import record

RUNNER = REPO / "tests" / "ts" / "registry-differential-runner.ts"

CAPS = ["headless-task", "interactive-launch", "resumable", "structured-progress"]
BUILTIN_BINARIES = ["claude", "codex", "hermes", "openclaw"]
CANDIDATE_TOOLS = ["claude-desktop", "cursor", "codex-desktop"]
HOMES = [
    "/home/u",
    "/home/u/",
    "",
    "/",
    "relative/home",
    "/h\u00e9me/\u202eu",
    "//",
    "/home//u//",
    "~",
    "C:\\Users\\u",
    "/home/u\x1b[31m",
]
PLATFORMS = [
    "linux",
    "darwin",
    "win32",
    "freebsd",
    "Linux",
    "",
    "__class__",
    "__doc__",
    "__dict__",
    "__module__",
    "constructor",
    "toString",
    "__proto__",
    "hasOwnProperty",
]
VERSIONS: list[Any] = [
    "1.2.3",
    "  v1.0\nsecond line\n",
    "\x1b[31mred\x1b[0m 2.0",
    "x" * 5000,
    "a\x00b",
    "\r\n",
    "",
    "\u2028line",
    "\x1c1.0\x1c",
    "\ufeff1.0\ufeff",
    "1.0\x85",
    "\x85",
    "\u180e1\u200b",
    "\ud800",
    "tool \u202e1.0",
    "\U0001f600" * 100,
    "\t\v\f 3.0 \u3000",
    None,
]
POINTER_TEXTS: list[str] = [
    '{"backup": "b"}',
    '{"backup": "/abs/b"}',
    '{"backup": "~/b"}',
    '{"backup": "../b"}',
    '{"backup": "~b"}',
    '{"backup": ""}',
    '{"backup": "a\\u0000b"}',
    '{"backup": "x", "backup": "y"}',
    '{"backup": "\\ud800"}',
    '{"backup": "ok", "x": "\\udc00"}',
    '{"backup": "a\ud800"}',
    '{"backup": "ok", "x": "\udc00"}',
    '\ufeff{"backup": "b"}',
    '\ufeff\ufeff{"backup": "b"}',
    '{"backup": NaN}',
    '{"backup": "b", "n": NaN}',
    '{"backup": "b", "n": Infinity}',
    '{"backup": "b", "n": 1e400}',
    '{"backup": "b", "n": 123456789012345678901234567890}',
    '{"backup": "b", "n": -0.0}',
    '{"__proto__": {"backup": "p"}}',
    '{"__proto__": "x", "backup": "b"}',
    '{"constructor": 1, "backup": "b"}',
    "[]",
    '"backup"',
    "null",
    "",
    '{"backup": 5}',
    '{"backup": ["b"]}',
    ' \n{"backup":"b"}\t ',
    '{"backup":"b"}x',
    '{"backup":"b",}',
    "[" * 2000 + "]" * 2000,
    '{"backup": "b", "d": ' + "[" * 200 + "]" * 200 + "}",
    '{"backup": "b", "pad": "' + "x" * 70000 + '"}',
    '{"backup":"b"}' + " " * (65536 - 14),
    '{"backup":"b"}' + " " * (65536 - 13),
    '{"backup":"b", "p": "' + "\U0001f600" * 40000 + '"}',
    '{"backup":"b", "p": "' + "\U0001f600" * 16000 + '"}',
    '{"Backup": "b"}',
    '{"backup": "\\/abs"}',
    '{"backup": "b\\n"}',
    '{"backup": "sub/../b"}',
    '{"backup": "\u202eb"}',
    '{"backup": "C:\\\\b"}',
    "{'backup': 'b'}",
]
ERRORS = ["oserror", "timeout", "notregular", "runtime"]


def _answer(chooser: random.Random, values: list[Any], throws: list[str]) -> dict[str, Any]:
    if throws and chooser.random() < 0.15:
        return {
            "throw": chooser.choice(throws),
            "text": chooser.choice(["boom", "\x1b[2J", "x" * 200]),
        }
    if chooser.random() < 0.04:
        return {"v": chooser.choice([5, ["a"], True])}  # a fake breaking its contract
    return {"v": chooser.choice(values)}


def _manifest(index: int, chooser: random.Random) -> dict[str, Any]:
    category = chooser.choice([None, "cli-agent", "cli-agent", "desktop-app", "mcp-server"])
    library = chooser.choice([None, None, "aider-pack", "zeta", "alpha", "a-b", "waggle"])
    document: dict[str, Any] = {
        "id": f"tool-{index}",
        "displayName": f"Tool {index}",
        "launchable": chooser.random() < 0.8,
        "hookCapable": chooser.random() < 0.5,
        "hookPointer": chooser.choice(
            [
                f".tool-{index}/hook.json",
                "hook.json",
                ".a/b/c.json",
                ".claude/hive-mind-install.json",
            ]
        ),
    }
    if category is not None:
        document["category"] = category
    if library is not None:
        document["library"] = library
    if category == "mcp-server":
        document["launchable"] = document["hookCapable"] = False
        document["mcpServer"] = chooser.choice(
            [
                {"transport": "stdio", "command": "server", "args": ["--port", "1"]},
                {"transport": "http", "url": "https://example.invalid/mcp"},
            ]
        )
    else:
        binary = chooser.choice([f"tool{index}", "claude", "shared", "tool.exe", "a-b_c"])
        document["detect"] = {"kind": "path", "binaryName": binary}
        document["promptArgTemplate"] = ["--print", "{prompt}"]
        if chooser.random() < 0.8:
            provides = chooser.sample(CAPS, chooser.randint(1, 4))
            document["capabilities"] = {"provides": provides}
    if chooser.random() < 0.15:
        document = mutate(document, chooser)
    return document


def adapter_folder(folder: Path, chooser: random.Random) -> None:
    """0-7 adapter files: mostly valid, some edited into hostile ones, some claiming one id."""
    folder.mkdir(parents=True)
    for number in range(chooser.randint(0, 7)):
        index = chooser.randint(0, 9)  # a small id pool: duplicate ids happen
        document = _manifest(index, chooser)
        name = chooser.choice([f"a{number}.json", f"{index}-{number}.json", f"\u00e9{number}.json"])
        text = json.dumps(document, ensure_ascii=True)
        if chooser.random() < 0.05:
            text = text[: len(text) // 2]
        (folder / name).write_text(text, encoding="utf-8")


def _grant_value(chooser: random.Random) -> Any:
    caps = [*CAPS, "teleport", "HEADLESS-TASK"]
    return chooser.choice(
        [
            chooser.sample(caps, chooser.randint(0, 3)),
            [*chooser.sample(caps, 2), 5, None, ["headless-task"]],
            {"$set": chooser.sample(caps, chooser.randint(0, 3))},
            "headless-task",
            {"headless-task": True},
            {},
            [],
            5,
            None,
            True,
            2.5,
        ]
    )


def _grants(chooser: random.Random) -> Any:
    roll = chooser.random()
    if roll < 0.1:
        return None
    if roll < 0.15:
        return chooser.choice([[], "tool-1", 5, [["tool-1", ["headless-task"]]], {"$set": ["a"]}])
    ids = [f"tool-{chooser.randint(0, 9)}" for _ in range(chooser.randint(0, 6))]
    ids += chooser.sample(["claude-code", "__proto__", "constructor", "", "TOOL-1"], 1)
    return {tool_id: _grant_value(chooser) for tool_id in ids}


def _categories(chooser: random.Random) -> Any:
    return chooser.choice(
        [
            None,
            None,
            None,
            ["cli-agent"],
            ["cli-agent", "mcp-server"],
            "desktop-app",
            {"$set": ["mcp-server", "desktop-app"]},
            [],
            ["teleport", 5, None],
            {"cli-agent": 1},
            5,
        ]
    )


def _resolvers(chooser: random.Random) -> Any:
    if chooser.random() < 0.6:
        return None
    resolvers: dict[str, Any] = {}
    for tool_id in chooser.sample([*CANDIDATE_TOOLS, "tool-1", "claude-code", "__proto__"], 2):
        resolvers[tool_id] = chooser.choice(
            [
                {"v": ["/opt/x", "~/y", "relative/z"]},
                {"v": []},
                {"v": "ab"},
                {"v": None},
                {"throw": "runtime", "text": "resolver failed"},
                {"value": 5},
                {"value": "not callable"},
            ]
        )
    return resolvers


def _deps(chooser: random.Random) -> dict[str, Any]:
    names = [*BUILTIN_BINARIES, *(f"tool{i}" for i in range(10)), "shared", "tool.exe", "a-b_c"]
    paths = [None, "/usr/bin/x", "", "relative/x", "/p q/\u202ex", "/bin/\x1b[0m", "/usr/bin/x"]
    table = {
        name: _answer(chooser, paths, ["oserror", "runtime"])
        for name in chooser.sample(names, chooser.randint(0, len(names)))
    }
    suffixes = ["Cursor", "cursor", ".exe", "/b", "b", "/p", "Claude", ".AppImage", "x", "/y", "z"]
    version_rules = [
        [suffix, _answer(chooser, VERSIONS, ERRORS)]
        for suffix in chooser.sample(
            ["x", "/x", "z", "y", "Cursor", "claude"], chooser.randint(0, 4)
        )
    ]
    pointer_rules = [
        [suffix, _answer(chooser, [*POINTER_TEXTS, None], ERRORS)]
        for suffix in chooser.sample(
            ["hive-mind-install.json", "hook.json", "c.json", ".json", "install.json"],
            chooser.randint(0, 4),
        )
    ]
    return {
        "which": {"table": table, "default": _answer(chooser, paths, ["runtime"])},
        "isFile": {
            "exact": chooser.sample(["/opt/x", "/usr/bin/x", "b", "/abs/b", "/b", "//b"], 2),
            "suffixes": chooser.sample(suffixes, chooser.randint(0, 4)),
            "throwSuffixes": chooser.sample(suffixes, chooser.choice([0, 0, 0, 1])),
            "default": chooser.random() < 0.2,
        },
        "runVersion": {"rules": version_rules, "default": _answer(chooser, VERSIONS, ERRORS)},
        "readText": {
            "rules": pointer_rules,
            "default": _answer(chooser, [*POINTER_TEXTS, None, None], ERRORS),
        },
        "home": _answer(chooser, HOMES, ["runtime"]),
        "platform": _answer(chooser, PLATFORMS, ["runtime"]),
    }


def scenario(folders: int, chooser: random.Random) -> dict[str, Any]:
    """One reproducible scenario over one of ``folders`` adapter folders."""
    return {
        "folder": chooser.randrange(folders),
        "grants": _grants(chooser),
        "categories": _categories(chooser),
        "resolvers": _resolvers(chooser),
        "deps": _deps(chooser),
        "probe": chooser.random() < 0.5,
        "providers": chooser.sample([*CAPS, "teleport", "", 5, None, "__proto__"], 3),
        "cohorts": chooser.sample(
            ["LAUNCH_COHORT", "HOOKS_COHORT", "launch_cohort", "", 5, "__proto__"], 3
        ),
    }


def revived(value: Any) -> Any:
    """``{"$set": [...]}`` as a ``set``, anything else as it is (lists and dicts walked)."""
    if isinstance(value, list):
        return [revived(item) for item in value]
    if isinstance(value, dict):
        if list(value) == ["$set"]:
            return {revived(item) for item in value["$set"]}
        return {key: revived(item) for key, item in value.items()}
    return value


def _thrown(kind: str, text: str) -> Exception:
    """The error a fake dependency raises, as Python spells each kind."""
    if kind == "oserror":
        return FileNotFoundError(2, "No such file or directory", text)
    if kind == "timeout":
        return subprocess.TimeoutExpired([text, "--version"], 5.0)
    if kind == "notregular":
        return NotARegularFileError(text, "a FIFO")
    return RuntimeError(text)


def _answered(spec: dict[str, Any], log: list[list[Any]], call: list[Any]) -> Any:
    log.append(call)
    if "throw" in spec:
        raise _thrown(spec["throw"], spec.get("text", "boom"))
    return copy.deepcopy(spec["v"])


def _ruled(rules: list[list[Any]], fallback: dict[str, Any], path: Any) -> dict[str, Any]:
    for suffix, item in rules:
        if isinstance(path, str) and path.endswith(suffix):
            return item  # type: ignore[no-any-return]
    return fallback


def fake_deps(spec: dict[str, Any], log: list[list[Any]]) -> DetectionDeps:
    """Dependencies answering from ``spec``'s tables, logging every call."""

    def which(name: str) -> Any:
        table = spec["which"]["table"]
        chosen = (
            table[name] if isinstance(name, str) and name in table else spec["which"]["default"]
        )
        return _answered(chosen, log, ["which", name])

    def is_file(path: str) -> bool:
        log.append(["isFile", path])
        rules = spec["isFile"]
        if any(path.endswith(suffix) for suffix in rules["throwSuffixes"]):
            raise _thrown("oserror", path)
        return (
            path in rules["exact"]
            or any(path.endswith(suffix) for suffix in rules["suffixes"])
            or rules["default"]
        )

    def run_version(path: str, _timeout: float) -> Any:
        rules = spec["runVersion"]
        return _answered(_ruled(rules["rules"], rules["default"], path), log, ["runVersion", path])

    def read_text(path: str) -> Any:
        rules = spec["readText"]
        return _answered(_ruled(rules["rules"], rules["default"], path), log, ["readText", path])

    return DetectionDeps(
        which=which,
        is_file=is_file,
        run_version=run_version,
        read_text=read_text,
        home=lambda: _answered(spec["home"], log, ["home"]),
        platform=lambda: _answered(spec["platform"], log, ["platform"]),
    )


def _result(result: DetectionResult) -> dict[str, Any]:
    return {
        "id": result.id,
        "displayName": result.display_name,
        "installed": result.installed,
        "path": result.path,
        "version": result.version,
        "hooksInstalled": result.hooks_installed,
        "pointerPath": result.pointer_path,
        "diagnostic": None if result.diagnostic is None else record(result.diagnostic),
    }


def _attempt(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except Exception as error:
        return {"error": type(error).__name__}


def _resolver(spec: dict[str, Any], tool_id: str, log: list[list[Any]]) -> Any:
    if "value" in spec:
        return spec["value"]
    return lambda *_args: _answered(spec, log, ["resolver", tool_id])


def python_outcome(case: dict[str, Any], folder: Path) -> Any:
    """One scenario through the Python runtime, as the runner reports TypeScript's."""
    log: list[list[Any]] = []
    resolvers = case["resolvers"]
    try:
        registry: ToolRegistry = get_tool_registry(
            folder,
            grants=revived(case["grants"]),
            categories=revived(case["categories"]),
            resolvers=None
            if resolvers is None
            else {tool_id: _resolver(spec, tool_id, log) for tool_id, spec in resolvers.items()},
        )
    except Exception as error:
        return {"registry": {"error": type(error).__name__}}
    deps = fake_deps(case["deps"], log)
    everything = detect_all(registry, deps, probe_third_party_versions=case["probe"])
    all_log = list(log)
    log.clear()
    unprobed = [
        _result(detect_tool(tool, registry, deps, probe_version=False)) for tool in registry.tools
    ]
    unprobed_log = list(log)
    launch = None
    if case["categories"] is None:
        launch = []
        for tool in registry.tools:
            if tool.builtin is True:
                reason = not_launchable_reason(registry, tool.id, detection=everything)
                launch.append([tool.id, None if reason is None else reason.value])
    outcome = {
        "registry": {
            "ids": registry.ids,
            "diagnostics": [record(d) for d in registry.diagnostics],
            "sources": dict(registry.sources),
            "granted": {tool_id: sorted(caps) for tool_id, caps in registry.granted.items()},
            "cohorts": registry.cohorts,
            "capabilityProviders": registry.capability_providers,
            "providers": [
                _attempt(functools.partial(registry.providers_of, c)) for c in case["providers"]
            ],
            "cohort": [_attempt(functools.partial(registry.cohort, c)) for c in case["cohorts"]],
            "catalog": registry.catalog(),
        },
        "detectAll": [_result(result) for result in everything],
        "detectAllLog": all_log,
        "unprobed": unprobed,
        "unprobedLog": unprobed_log,
        "launch": launch,
    }
    return json.loads(json.dumps(outcome))


def normalised(outcome: Any) -> Any:
    """``outcome`` with each ``DETECTION_FAILED`` record's ``found`` cut to its step and its
    message dropped: the README's known difference (node's error code against Python's
    exception type) lies in the rest."""
    if isinstance(outcome, list):
        return [normalised(item) for item in outcome]
    if isinstance(outcome, dict):
        if outcome.get("code") == "DETECTION_FAILED" and isinstance(outcome.get("found"), str):
            return {**outcome, "found": outcome["found"].split(":")[0], "message": None}
        return {key: normalised(item) for key, item in outcome.items()}
    return outcome


class TsRegistry:
    """The generated TypeScript compiled once (with the runner); ``run`` answers one batch of
    scenarios in one node process."""

    def __init__(self, work_dir: Path, out: Path) -> None:
        self.work_dir = work_dir
        self.out = out

    @classmethod
    def build(
        cls, work_dir: Path, generated_ts: Path = REPO / "generated" / "typescript"
    ) -> TsRegistry:
        runner = RUNNER.read_text(encoding="utf-8")
        return cls(
            work_dir, build_typescript(work_dir / "build", generated_ts, {"runner.ts": runner})
        )

    def run(self, folders: list[Path], scenarios: list[dict[str, Any]]) -> list[Any]:
        job_file = self.work_dir / "job.json"
        result_file = self.work_dir / "result.json"
        job = {"folders": [str(folder) for folder in folders], "scenarios": scenarios}
        job_file.write_text(json.dumps(job), encoding="utf-8")
        done = subprocess.run(
            [node_executable(), str(self.out / "runner.js"), str(job_file), str(result_file)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outcomes: list[Any] = json.loads(result_file.read_text(encoding="utf-8"))
        return outcomes


def batch(
    folder_root: Path, seed: int, folders: int, scenarios: int
) -> tuple[list[Path], list[Any]]:
    """``folders`` adapter folders written under ``folder_root`` and ``scenarios`` over them."""
    chooser = random.Random(seed)
    paths = []
    for number in range(folders):
        path = folder_root / f"adapters-{number}"
        adapter_folder(path, chooser)
        paths.append(path)
    return paths, [scenario(folders, chooser) for _ in range(scenarios)]


def disagreements(folders: list[Path], scenarios: list[Any], typescript: list[Any]) -> list[str]:
    """Every scenario the two runtimes answer differently, with the first differing part."""
    problems = []
    for index, (case, outcome) in enumerate(zip(scenarios, typescript, strict=True)):
        mine = normalised(python_outcome(case, folders[case["folder"]]))
        theirs = normalised(outcome)
        if mine != theirs:
            problems.append(_explain(index, case, mine, theirs))
    return problems


def _first_difference(mine: Any, theirs: Any, where: str = "") -> str:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            if mine.get(key, "<absent>") != theirs.get(key, "<absent>"):
                return _first_difference(
                    mine.get(key, "<absent>"), theirs.get(key, "<absent>"), f"{where}/{key}"
                )
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for number, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}/{number}")
    return (
        f"{where}\n    python:     {json.dumps(mine, ensure_ascii=True)[:600]}"
        f"\n    typescript: {json.dumps(theirs, ensure_ascii=True)[:600]}"
    )


def _explain(index: int, case: Any, mine: Any, theirs: Any) -> str:
    return (
        f"scenario {index}: {json.dumps(case, ensure_ascii=True)[:800]}\n  at "
        + _first_difference(mine, theirs)
    )

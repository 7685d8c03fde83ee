"""Hostile review n: the runtime's README contract under hostile environments and arguments,
held in both languages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, build_typescript, node_executable
from .test_loader import manifest

GENERATED_TS = REPO / "generated" / "typescript"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_typescript(tmp_path_factory.mktemp("ts-hostile-review-n"), GENERATED_TS)


def _node(out: Path, name: str, code: str, env: dict[str, str]) -> Any:
    script = out / name
    script.write_text(code, encoding="utf-8")
    result = subprocess.run(
        [node_executable(), str(script)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=out,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _python(code: str, env: dict[str, str]) -> Any:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "PYTHONPATH": str(REPO / "generated" / "python")},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.skipif(
    sys.platform.startswith("win"), reason="HOME is the home folder outside Windows"
)
def test_a_home_longer_than_path_max_is_the_home_folder_python_reads(
    out: Path, tmp_path: Path
) -> None:
    # Node's os.homedir() copies HOME into a buffer of PATH_MAX bytes and throws (ENOBUFS) for a
    # longer value: TypeScript had no home folder (the default folder UNREADABLE, every hook
    # pointer unread) where Python, reading HOME, dropped its trailing slashes and loaded the
    # adapters under it.
    home = tmp_path / "home"
    folder = home / ".waggle" / "adapters"
    folder.mkdir(parents=True)
    (folder / "a.json").write_text(json.dumps(manifest()), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "WAGGLE_ADAPTERS_DIR"} | {
        "HOME": str(home) + "/" * 5000
    }
    typescript = _node(
        out,
        "hostile-review-n-home.mjs",
        'import { getToolRegistry, defaultAdaptersDir, diagnosticAsJson } from "./index.js";\n'
        "const registry = getToolRegistry();\n"
        "console.log(JSON.stringify({folder: defaultAdaptersDir(), ids: registry.ids,"
        " diagnostics: registry.diagnostics.map((d) => diagnosticAsJson(d))}));\n",
        env,
    )
    python = _python(
        "import json\n"
        "from tool_registry import get_tool_registry, default_adapters_dir\n"
        "registry = get_tool_registry()\n"
        "print(json.dumps({'folder': default_adapters_dir(), 'ids': list(registry.ids),"
        " 'diagnostics': [d.as_json() for d in registry.diagnostics]}))\n",
        env,
    )
    assert python["folder"] == str(folder)
    assert manifest()["id"] in python["ids"]
    assert typescript == python


@pytest.mark.skipif(
    sys.platform.startswith("win"), reason="HOME is the home folder outside Windows"
)
def test_detection_reads_hook_pointers_under_a_home_longer_than_path_max(
    out: Path, tmp_path: Path
) -> None:
    # The same HOME gave every TypeScript result the pointer path ~/.claude/... and a
    # HomeNotAbsoluteError, where Python read the pointer under the home folder.
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "hive-mind-install.json").write_text(
        json.dumps({"backup": str(home / "backup")}), encoding="utf-8"
    )
    (home / "backup").write_text("x", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "WAGGLE_ADAPTERS_DIR"} | {
        "HOME": str(home) + "/" * 5000,
        "PATH": "",
    }
    empty = tmp_path / "adapters"
    empty.mkdir()
    typescript = _node(
        out,
        "hostile-review-n-detect.mjs",
        'import { getToolRegistry, detectAll, detectionResultAsJson } from "./index.js";\n'
        f"const registry = getToolRegistry({json.dumps(str(empty))});\n"
        "const results = await detectAll(registry);\n"
        "console.log(JSON.stringify(results.map((r) => detectionResultAsJson(r))));\n",
        env,
    )
    python = _python(
        "import json\n"
        "from tool_registry import get_tool_registry, detect_all\n"
        f"registry = get_tool_registry({str(empty)!r})\n"
        "print(json.dumps([r.as_json() for r in detect_all(registry)]))\n",
        env,
    )
    claude = next(result for result in python if result["id"] == "claude-code")
    assert claude["pointerPath"] == str(home / ".claude" / "hive-mind-install.json")
    assert claude["hooksInstalled"] is True
    assert typescript == python

"""Benchmark: the generated TypeScript validator and loader beside ajv and a bare loop, in node.

Compiles ``generated/typescript`` with the pinned tsc into a temporary folder, writes the three
10,000-manifest corpora of ``runtime_bench`` (valid, invalid, mixed: about 70% valid; split by
the Python validator's verdict, which the TypeScript one equals record for record) and a folder of
adapter files, then runs ``bench/ts_bench.mjs`` once: one node process, paired rounds, medians and
the median of the per-round ratios. Contenders: our ``validateToolManifest`` /
``validateThirdPartyManifest`` (every violation, escaped records), ajv's compiled validators
(draft 2020-12, strict, ``allErrors: true`` and ``false``), our ``loadThirdPartyManifests``
against a bare ``readdirSync`` + ``readFileSync`` + ``JSON.parse`` loop. Run from the repository:
``.venv/bin/python bench/ts_bench.py`` (``--size``, ``--rounds``). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_args import at_least_one  # beside this file (bench/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from runtime_bench import corpus, split_corpora  # noqa: E402
from tool_registry import validate_tool_manifest  # noqa: E402


def node_executable() -> str:
    found = shutil.which("node")
    if found is None:
        raise SystemExit("ts_bench: node is not on PATH")
    return found


def compile_typescript(out: Path) -> None:
    # The repository's own strict options (what `make lint` checks), emitting JavaScript.
    options = json.loads((ROOT / "tsconfig.json").read_text(encoding="utf-8"))["compilerOptions"]
    # Type packages (node's) resolve from the repository, not from the scratch folder.
    typeroots = [str(ROOT / "node_modules/@types")]
    options = {**options, "noEmit": False, "outDir": str(out), "typeRoots": typeroots}
    config = {"compilerOptions": options, "include": [str(ROOT / "generated/typescript/*.ts")]}
    tsconfig = out.parent / "tsconfig.json"
    tsconfig.write_text(json.dumps(config), encoding="utf-8")
    (out.parent / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    tsc = ROOT / "node_modules/typescript/bin/tsc"
    subprocess.run([node_executable(), str(tsc), "-p", str(tsconfig)], check=True)
    (out / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=at_least_one, default=10_000)
    parser.add_argument("--rounds", type=at_least_one, default=7)
    parser.add_argument("--no-loader", action="store_true", help="time the validator only")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        build = work / "build"
        build.mkdir()
        compile_typescript(build)
        corpora = split_corpora(options.size, lambda d: not validate_tool_manifest(d), seed=7)
        corpora_file = work / "corpora.json"
        corpora_file.write_text(json.dumps(corpora), encoding="utf-8")
        adapters = ""
        if not options.no_loader:
            folder = work / "adapters"
            folder.mkdir()
            for index, document in enumerate(corpus(options.size, seed=99)):
                text = json.dumps(document, indent=2)
                (folder / f"tool-{index:05d}.json").write_text(text, encoding="utf-8")
            adapters = str(folder)
        subprocess.run(
            [
                node_executable(),
                str(ROOT / "bench/ts_bench.mjs"),
                str(build),
                str(corpora_file),
                adapters,
                str(options.rounds),
            ],
            cwd=ROOT,
            check=True,
        )


if __name__ == "__main__":
    main()

"""Import the generated runtime package of a project (the loader, registry and detection).

``toolgen validate|registry|detect`` must apply exactly the rules the project ships, so they run
the generated ``tool_registry`` package from the project's Python output folder, not a copy
inside the generator. Each folder is imported once, under a private module name, so two projects
(or a test's copy and the repository) never share module state.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = "tool_registry"


class RuntimeMissingError(Exception):
    """The generated package is absent or does not import (run ``toolgen generate``)."""


def import_runtime(python_out: Path) -> ModuleType:
    package_dir = python_out / PACKAGE
    init = package_dir / "__init__.py"
    if not init.is_file():
        raise RuntimeMissingError(f"{init} is missing; run `toolgen generate`")
    # The path's bytes (os.fsencode): a folder named by bytes that are not UTF-8, or any
    # non-ASCII name under a C locale, is text holding surrogate escapes, which str.encode refused.
    digest = hashlib.sha256(os.fsencode(package_dir.resolve())).hexdigest()[:16]
    name = f"_toolgen_runtime_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(package_dir)]
    )
    if spec is None or spec.loader is None:
        raise RuntimeMissingError(f"{init} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        _load_every_name(module)
    except Exception as error:
        for loaded in [key for key in sys.modules if key == name or key.startswith(f"{name}.")]:
            del sys.modules[loaded]
        raise RuntimeMissingError(
            f"{package_dir} does not import: {type(error).__name__}: {error}; run `toolgen"
            " generate` (or `toolgen check` to see what changed)"
        ) from error
    return module


# What the runtime commands call: validate, registry and catalog, detect.
_COMMAND_NAMES = ("load_manifest_files", "get_tool_registry", "detect_all")


def _load_every_name(module: ModuleType) -> None:
    """Resolve every exported name now. The package loads its runtime modules on first use
    (PEP 562), so a broken ``loader.py`` (a merge conflict's markers, a hand edit) surfaced
    mid-command as an internal error asking to be reported; here it is a missing runtime."""
    exported = getattr(module, "__all__", ())
    for attribute in (*_COMMAND_NAMES, *(n for n in exported if isinstance(n, str))):
        getattr(module, attribute)

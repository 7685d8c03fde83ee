"""Import the generated runtime package of a project (the loader, registry and detection).

``toolgen validate|registry|detect`` must apply exactly the rules the project ships, so they run
the generated ``tool_registry`` package from the project's Python output folder, not a copy
inside the generator. Each folder is imported once, under a private module name, so two projects
(or a test's copy and the repository) never share module state.
"""

from __future__ import annotations

import hashlib
import importlib.util
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
    digest = hashlib.sha256(str(package_dir.resolve()).encode()).hexdigest()[:16]
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
    except Exception as error:
        del sys.modules[name]
        raise RuntimeMissingError(f"{init} does not import: {type(error).__name__}") from error
    return module

"""Name conversions shared by validation and rendering (pure)."""

from __future__ import annotations

import re

# Constants every generated registry defines whatever the table declares (both languages); a
# cohort or map may not take these names.
GENERATED_CONSTANTS = frozenset(
    {
        "SUPPORTED_TOOLS",
        "BUILTIN_TOOL_MANIFESTS",
        "BUILTIN_TOOL_MANIFESTS_BY_ID",
        "CAPABILITIES",
        "CAPABILITY_PROVIDERS",
        "COHORT_NAMES",
        "COHORTS",
        "LAUNCHABLE_TOOLS",
    }
)

# Names a table's constant would shadow or clash with outside tools.ts and constants.py: the
# package's __init__.py imports typing's TYPE_CHECKING beside the constants, and index.ts
# re-exports prompt-args.ts with `export *` beside tools.ts (two such exports of one name do
# not compile).
RUNTIME_NAMES = frozenset({"TYPE_CHECKING", "PROMPT_ARG_ERROR_CODES"})

_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def upper_snake(camel: str) -> str:
    """``manifestMaxBytes`` -> ``MANIFEST_MAX_BYTES``: how a setting key becomes a constant name."""
    return _WORD_BOUNDARY.sub("_", camel).upper()


def capability_constant(capability: str) -> str:
    """``headless-task`` -> ``CAP_HEADLESS_TASK``: ASCII letters and digits, ``_`` between runs."""
    words = re.findall(r"[A-Z0-9]+", upper_snake(capability).upper())
    return "CAP_" + "_".join(words) if words else "CAP_"

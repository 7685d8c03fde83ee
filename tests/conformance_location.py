"""Where the JSON-Schema-Test-Suite lives; it is not part of the repository.

The first of these settings that is given decides, and nothing else is tried after it:

1. ``TOOLGEN_CONFORMANCE_DIR``: a checkout of the suite (the folder holding ``tests/draft2020-12``);
2. ``TOOLGEN_SHARED``: a shared-data folder holding ``conformance/json-schema-test-suite``;
3. otherwise ``../shared`` beside the repository, laid out like ``TOOLGEN_SHARED``.

When the chosen place holds no suite, the conformance tests are skipped with one reason that names
the place and these settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

CONFORMANCE_DIR_VARIABLE = "TOOLGEN_CONFORMANCE_DIR"
SHARED_VARIABLE = "TOOLGEN_SHARED"
SUITE_IN_SHARED = Path("conformance/json-schema-test-suite")
DRAFT_IN_SUITE = Path("tests/draft2020-12")
# Besides the draft's own files, the conformance tests read this one (ECMA-262 patterns).
REGEX_FILE = Path("optional/ecmascript-regex.json")


@dataclass(frozen=True)
class SuiteLocation:
    draft_dir: Path  # the suite's tests/draft2020-12 folder (it may not exist)
    origin: str  # which setting chose it, for the skip reason

    @property
    def present(self) -> bool:
        return any(self.draft_dir.glob("*.json")) and (self.draft_dir / REGEX_FILE).is_file()

    def skip_reason(self) -> str:
        return (
            f"JSON-Schema-Test-Suite not found at {self.draft_dir} ({self.origin}); set "
            f"{CONFORMANCE_DIR_VARIABLE} to a checkout of the suite, or {SHARED_VARIABLE} to a "
            f"folder holding {SUITE_IN_SHARED.as_posix()}, to run the conformance tests"
        )


def locate_suite(environ: Mapping[str, str], repo: Path) -> SuiteLocation:
    suite_dir = environ.get(CONFORMANCE_DIR_VARIABLE)
    if suite_dir:
        return SuiteLocation(Path(suite_dir) / DRAFT_IN_SUITE, f"from {CONFORMANCE_DIR_VARIABLE}")
    shared = environ.get(SHARED_VARIABLE)
    if shared:
        return SuiteLocation(
            Path(shared) / SUITE_IN_SHARED / DRAFT_IN_SUITE, f"from {SHARED_VARIABLE}"
        )
    return SuiteLocation(
        repo.parent / "shared" / SUITE_IN_SHARED / DRAFT_IN_SUITE,
        "the default: ../shared beside the repository",
    )

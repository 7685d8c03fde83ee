"""Where toolgen reads and writes: the ``[tool.toolgen]`` table of a project's ``pyproject.toml``.

Paths are relative to the folder holding ``pyproject.toml``; sources may lie outside it, outputs
may not. Output folders are owned by toolgen:
``generate`` deletes files in them that no target produces (caches such as ``__pycache__`` and the
artefacts of building the generated package aside: see ``emit``).
So every rule about where outputs lie is checked on *resolved* paths (symlinks followed, ``..``
collapsed): a lexical check would let ``x/../generated/tools.yaml`` or a symlinked output folder
point generate's deletions at a source or at files outside the project.

Messages quote configuration text with ``describe``/``sanitize``: a key or path in
``pyproject.toml`` is input like any other and must not reach a terminal or a CI log raw.

Besides paths, the table holds the generated packages' metadata (``PACKAGE_DEFAULTS``): the
Python distribution's name and version, whether the TypeScript output is an npm package
(``package.json``), and that package's name and version. Each is checked against its registry's
rules here (PEP 508 names and canonical PEP 440 versions, npm names and SemVer 2.0), so only
plain ASCII in a known alphabet ever reaches a template; a refused value is a usage error that
names the file, line and column of the key.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

from generator.files import read_file
from generator.outputs import VCS_NAMES

DEFAULTS = {
    "schema": "schema/tool-manifest.schema.json",
    "table": "schema/tools.yaml",
    "table_schema": "schema/tools-table.schema.json",
    "python_out": "generated/python",
    "typescript_out": "generated/typescript",
    "editor_schema_out": "generated/schema",
    "docs_out": "generated/docs",
    # A file whose marked region (the runtime code table) generate rewrites; optional.
    "readme": "README.md",
}
OUTPUT_KEYS = ("python_out", "typescript_out", "editor_schema_out", "docs_out")
# Files toolgen reads; none may lie inside an output folder, where generate deletes.
SOURCE_KEYS = ("schema", "table", "table_schema", "readme")


class ConfigError(Exception):
    """The configuration cannot be used (a usage error: exit code 2)."""


class Package(NamedTuple):
    """The generated packages' metadata; the defaults are what toolgen always wrote."""

    python_name: str = "tool-registry"
    python_version: str = "0.1.0"
    # Whether the TypeScript output folder is an npm package (package.json, tsconfig.json).
    typescript: bool = False
    typescript_name: str = "tool-registry"
    typescript_version: str = "0.1.0"


# ``[tool.toolgen]`` key -> the ``Package`` field it sets.
PACKAGE_KEYS = {
    "python_package_name": "python_name",
    "python_package_version": "python_version",
    "typescript_package": "typescript",
    "typescript_package_name": "typescript_name",
    "typescript_package_version": "typescript_version",
}

# PEP 508 distribution names (ASCII letters, digits, ``._-``; alphanumeric at both ends).
_PYTHON_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
# A PEP 440 public version in canonical form (what pip shows and an index accepts as is).
_N = r"(?:0|[1-9][0-9]*)"
_PYTHON_VERSION = re.compile(
    rf"(?:[1-9][0-9]*!)?{_N}(?:\.{_N})*(?:(?:a|b|rc){_N})?(?:\.post{_N})?(?:\.dev{_N})?"
)
# npm names: lowercase and URL-safe, optionally scoped, at most 214 characters, never starting
# with ``.`` or ``_`` (validate-npm-package-name's rules for new packages; those also refuse
# ``~'!()*`` after the scope, so ``~`` is allowed in the scope only).
_NPM_NAME = re.compile(r"(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._-]*")
_NPM_RESERVED = frozenset({"node_modules", "favicon.ico"})
MAX_NPM_NAME = 214
# SemVer 2.0.0 (the regular expression semver.org gives, without a leading ``v``).
_ID = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_SEMVER = re.compile(
    rf"{_N}\.{_N}\.{_N}(?:-{_ID}(?:\.{_ID})*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
MAX_VERSION = 100


def _valid_package_value(field: str, value: object) -> str | None:
    """Why ``value`` cannot be the ``Package`` field ``field``; ``None`` when it can."""
    if field == "typescript":
        return None if isinstance(value, bool) else "must be true or false"
    if not isinstance(value, str):
        return "must be a string"
    if field == "python_name":
        ok = _PYTHON_NAME.fullmatch(value) is not None
        rule = "a PEP 508 distribution name (ASCII letters, digits, '.', '_', '-')"
    elif field == "python_version":
        ok = len(value) <= MAX_VERSION and _PYTHON_VERSION.fullmatch(value) is not None
        rule = "a canonical PEP 440 version such as 1.2.0, 1.2.0rc1 or 1.2.0.post1"
    elif field == "typescript_name":
        ok = (
            len(value) <= MAX_NPM_NAME
            and _NPM_NAME.fullmatch(value) is not None
            and value not in _NPM_RESERVED
        )
        rule = f"an npm package name (lowercase, URL-safe, optionally @scope/, <= {MAX_NPM_NAME})"
    else:
        ok = len(value) <= MAX_VERSION and _SEMVER.fullmatch(value) is not None
        rule = "a SemVer 2.0 version such as 1.2.0 or 1.2.0-rc.1"
    return None if ok else f"must be {rule}"


DEFAULT_PACKAGE = Package()


class Config(NamedTuple):
    project_dir: Path
    paths: dict[str, str]
    package: Package = DEFAULT_PACKAGE

    def path(self, key: str) -> Path:
        return self.project_dir / self.paths[key]

    def relative(self, key: str) -> str:
        return self.paths[key]


def find_project(start: Path) -> Path:
    """The nearest folder at or above ``start`` whose ``pyproject.toml`` has ``[tool.toolgen]``;
    ``start`` itself when there is none (``load_config`` then reports what is missing). A
    ``pyproject.toml`` that does not parse (TOML, UTF-8) but names toolgen is taken for one that
    does, so ``load_config`` reports why it does not parse: skipping it, toolgen ran on the
    project above (a monorepo's root), writing there, as if the nearer one had no table."""
    for folder in (start.resolve(), *start.resolve().parents):
        if _declares_toolgen(folder / "pyproject.toml"):
            return folder
    return start


def _declares_toolgen(pyproject: Path) -> bool:
    try:
        data = read_file(pyproject)
    except OSError:
        return False
    try:
        tool = tomllib.loads(data.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return b"toolgen" in data
    return isinstance(tool, dict) and "toolgen" in tool


# Messages are built only on failure: ``diagnostics`` is imported then, not on every run (the fast
# ``check`` reads the configuration and should not pay for it).
MAX_SHOWN_PATH = 300


def describe(value: object, limit: int = 80) -> str:
    from generator.diagnostics import describe as describe_  # noqa: PLC0415

    return describe_(value, limit)


def sanitize(text: str, limit: int = 80) -> str:
    from generator.diagnostics import sanitize as sanitize_  # noqa: PLC0415

    return sanitize_(text, limit)


class _Shown:
    """A path quoted in a message, sanitized only when the message is built."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def __format__(self, spec: str) -> str:
        return format(sanitize(str(self._path), MAX_SHOWN_PATH), spec)


class _At:
    """``pyproject.toml`` in a message, located at a ``[tool.toolgen]`` key where the file's text
    shows it (``file:line:col``; a key left at its default is not in the file: ``file``)."""

    def __init__(self, where: _Shown, pyproject: Path) -> None:
        self.file = where
        self._pyproject = pyproject

    def __call__(self, *keys: str) -> str:
        for key in keys:
            place = _key_location(self._pyproject, key)
            if place is not None:
                return f"{self.file}:{place[0]}:{place[1]}"
        return f"{self.file}"


def _read_pyproject(pyproject: Path, where: _Shown) -> dict[str, Any]:
    """The parsed ``pyproject.toml``; a ``ConfigError`` located at ``file:line:col`` where the
    file does not decode or parse."""
    try:
        text = read_file(pyproject).decode("utf-8")
        return tomllib.loads(text)
    except FileNotFoundError as error:
        raise ConfigError(f"{where}: not found (use --project to point at the project)") from error
    except UnicodeDecodeError as error:
        # Located as a source file's encoding problem is (a byte offset, not a codec's text),
        # at the line and column of the first byte that does not decode.
        line, column = _line_and_column(error.object[: error.start].decode("utf-8", "replace"))
        message = f"not valid UTF-8 (byte offset {error.start})"
        raise ConfigError(f"{where}:{line}:{column}: {message}") from error
    except tomllib.TOMLDecodeError as error:
        # tomllib ends its message with the position: shown as file:line:col instead, as every
        # other located finding is ("at end of document": where the text ends).
        reason = str(error)
        place = _TOML_POSITION.search(reason)
        if place is None:
            raise ConfigError(f"{where}: not valid TOML: {sanitize(reason)}") from error
        if place["line"] is not None:
            line, column = int(place["line"]), int(place["column"])
        else:
            line, column = _line_and_column(text)
        message = f"not valid TOML: {sanitize(reason[: place.start()])}"
        if text.startswith("\ufeff") and (line, column) == (1, 1):
            # An editor's byte order mark: tomllib (and pip) read it as a stray character.
            message += " (a byte order mark starts the file: save it as UTF-8 without one)"
        raise ConfigError(f"{where}:{line}:{column}: {message}") from error
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigError(f"{where}: cannot read: {sanitize(reason)}") from error
    except RecursionError as error:  # tomllib parses nested arrays and tables recursively
        raise ConfigError(f"{where}: cannot read: nested too deeply") from error


def _path_problem(value: object) -> str | None:
    """Why a path setting's value names no file here, or ``None``."""
    if not isinstance(value, str) or not value or Path(value).is_absolute():
        return "must be a relative path"
    if "\0" in value:
        return "must not contain a NUL character"
    if "\\" in value:
        # A separator on Windows, part of a name elsewhere: one pyproject.toml would name
        # different files on different machines.
        return "must separate folders with / (a backslash separates them on Windows only)"
    try:
        named = os.fsencode(value)
    except UnicodeEncodeError:
        named = None
    if named != value.encode("utf-8", "surrogateescape"):
        # pyproject.toml is UTF-8, and so are the names it means. Under a locale of another
        # encoding Python names files otherwise: in ASCII (a C locale without UTF-8 mode) every
        # use of the path failed as an internal error, and in Latin-1 "py ü" named another
        # folder than a UTF-8 machine's (the outputs then went missing there).
        encoding = sys.getfilesystemencoding()
        return (
            f"cannot be named in the file system encoding Python uses here ({encoding}) as it"
            " is in UTF-8: run toolgen under a UTF-8 locale (LC_ALL=C.UTF-8) or with PYTHONUTF8=1"
        )
    return None


def _line_and_column(before: str) -> tuple[int, int]:
    """The 1-based line and column just after ``before``, the text that precedes a position."""
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def load_config(project_dir: Path) -> Config:
    """Read ``[tool.toolgen]``; keys left out take their defaults."""
    pyproject = project_dir / "pyproject.toml"
    where = _Shown(pyproject)
    document = _read_pyproject(pyproject, where)
    tool = document.get("tool", {})
    section = tool.get("toolgen", {}) if isinstance(tool, dict) else None
    if not isinstance(section, dict):
        # Located at the value that is no table: ``tool.toolgen``, else ``tool`` itself.
        dotted = ["tool", "toolgen"] if isinstance(tool, dict) else ["tool"]
        place = _dotted_location(pyproject, dotted)
        located = f"{where}:{place[0]}:{place[1]}" if place else f"{where}"
        raise ConfigError(f"{located}: [tool.toolgen] must be a table")
    unknown = sorted(set(section) - set(DEFAULTS) - set(PACKAGE_KEYS))
    if unknown:
        names = ", ".join(describe(key) for key in unknown[:10])
        more = f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
        # Located at the first unknown key the file's text shows plainly.
        places = sorted(p for p in (_key_location(pyproject, key) for key in unknown) if p)
        located = f"{where}:{places[0][0]}:{places[0][1]}" if places else f"{where}"
        raise ConfigError(f"{located}: unknown [tool.toolgen] keys: {names}{more}")
    package = _package(where, pyproject, section)
    paths = dict(DEFAULTS)
    for key, value in section.items():
        if key in PACKAGE_KEYS:
            continue
        problem = _path_problem(value)
        if problem is not None:
            place = _key_location(pyproject, key)
            located = f"{where}:{place[0]}:{place[1]}" if place else f"{where}"
            raise ConfigError(f"{located}: tool.toolgen.{key} {problem}")
        paths[key] = Path(value).as_posix()
    _check_placement(_At(where, pyproject), project_dir, paths)
    return Config(project_dir, paths, package)


def _package(where: _Shown, pyproject: Path, section: dict[str, object]) -> Package:
    """The package settings of ``section``; a refused value is a ``ConfigError`` located at its
    key (``pyproject.toml:LINE:COL``) when the key can be found in the file's text."""
    chosen: dict[str, Any] = {}
    for key, field in PACKAGE_KEYS.items():
        if key not in section:
            continue
        value = section[key]
        problem = _valid_package_value(field, value)
        if problem is not None:
            place = _key_location(pyproject, key)
            located = f"{where}:{place[0]}:{place[1]}" if place else f"{where}"
            raise ConfigError(f"{located}: tool.toolgen.{key} = {describe(value)} {problem}")
        chosen[field] = value
    package = Package(**chosen)
    for name_key, problem in _file_name_problems(package):
        # Where the name is the default, the version is the long one.
        key = name_key if name_key in section else _PAIRED_KEY[name_key]
        place = _key_location(pyproject, key)
        located = f"{where}:{place[0]}:{place[1]}" if place else f"{where}"
        raise ConfigError(f"{located}: tool.toolgen.{key} = {describe(section[key])} {problem}")
    return package


# The longest file name building a package writes, from its name and version: the wheel
# (``name-version-py3-none-any.whl``) and npm's tarball (``name-version.tgz``, a scope's ``@``
# dropped and its ``/`` a ``-``). A name and a version each within its rules can together make
# one longer than a file system's 255 bytes (``pip wheel``, ``npm pack``: ENAMETOOLONG).
MAX_FILE_NAME = 255
_PAIRED_KEY = {
    "python_package_name": "python_package_version",
    "typescript_package_name": "typescript_package_version",
}


def _file_name_problems(package: Package) -> list[tuple[str, str]]:
    wheel = f"{package.python_name}-{package.python_version}-py3-none-any.whl"
    tarball = f"{package.typescript_name.removeprefix('@').replace('/', '-')}"
    tarball = f"{tarball}-{package.typescript_version}.tgz"
    problems = []
    if len(wheel) > MAX_FILE_NAME:
        problems.append(
            (
                "python_package_name",
                f"must be short enough, with python_package_version, for the wheel's file name"
                f" (name-version-py3-none-any.whl: {len(wheel)} characters; at most"
                f" {MAX_FILE_NAME})",
            )
        )
    if package.typescript and len(tarball) > MAX_FILE_NAME:
        problems.append(
            (
                "typescript_package_name",
                f"must be short enough, with typescript_package_version, for the npm tarball's"
                f" file name (name-version.tgz: {len(tarball)} characters; at most"
                f" {MAX_FILE_NAME})",
            )
        )
    return problems


# A table header, and a key (bare, quoted, or dotted from ``tool``) at the start of a line.
# Possessive quantifiers: a long line of white space costs linear time, not quadratic (the
# adjacent ``\s*`` of a failing match were tried in every split).
_HEADER = re.compile(r"\s*+\[\[?+\s*+([^\[\]]*+)\]\]?+\s*+(?:#.*)?$")
_PART = r"""\s*+(?:[A-Za-z0-9_-]++|"[^"]*+"|'[^']*+')\s*+"""


# Where tomllib's message says it stopped: "... (at line 3, column 7)".
_TOML_POSITION = re.compile(
    r" \((?:at line (?P<line>[0-9]+), column (?P<column>[0-9]+)|at end of document)\)$"
)


def _key_location(pyproject: Path, key: str) -> tuple[int, int] | None:
    """1-based line and column of ``key`` in ``[tool.toolgen]``, as written in the file (a
    header ``[tool.toolgen]`` then ``key = ...``, or ``tool.toolgen.key = ...`` at the top);
    ``None`` when the text does not show it plainly. Only for messages: tomllib has read the
    value already, and reports no positions."""
    return _dotted_location(pyproject, ["tool", "toolgen", key])


def _dotted_location(pyproject: Path, dotted: list[str]) -> tuple[int, int] | None:
    """``_key_location`` of the key whose full dotted name is ``dotted``."""
    try:
        lines = read_file(pyproject).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None

    def plain(dotted: str) -> list[str]:
        return [part.strip().strip("\"'") for part in re.findall(_PART, dotted)]

    table: list[str] = []
    assignment = re.compile(rf"(\s*+)((?:{_PART}\.)*+{_PART})=")
    for number, line in enumerate(lines, start=1):
        header = _HEADER.match(line)
        if header is not None:
            table = plain(header.group(1))
            continue
        found = assignment.match(line)
        if found is not None and [*table, *plain(found.group(2))] == dotted:
            return number, len(found.group(1)) + 1
    return None


def _exists(path: Path) -> bool:
    """Whether anything (a dangling symlink too) is at ``path``."""
    try:
        return path.is_symlink() or path.exists()
    except OSError:
        return False


def _is_folder(path: Path) -> bool | None:
    """``True`` for a folder, ``False`` for anything else that exists, ``None`` when absent."""
    try:
        return path.is_dir() if path.exists() else None
    except OSError:
        return None


# What a path below an output folder may add to it: the longest file a target writes there,
# staged as ``.NAME.XXXXXXXX.tmp`` (a single component, well within any NAME_MAX).
_OUTPUT_PATH_RESERVE = "x" * 128


def _check_path_length(at: _At, key: str, real: Path, spelled: str) -> None:
    """The system can name the path (and, for an output folder, the files generate writes in
    it): a component longer than NAME_MAX or a path longer than PATH_MAX made every later stat,
    read and write of it an ``OSError`` outside any handler (an internal error)."""
    probe = real if key == "readme" else real / _OUTPUT_PATH_RESERVE
    reason = _too_long(probe)
    if reason is not None:
        raise ConfigError(
            f"{at(key)}: tool.toolgen.{key} = {describe(spelled, MAX_SHOWN_PATH)} is a path"
            f" too long for this system ({reason})"
        )


def _too_long(path: Path) -> str | None:
    """Why the system cannot name ``path`` (absolute), or ``None``: the limits are those of the
    file system holding its nearest existing ancestor, since the folders below may not exist
    yet (a lookup stops at the first missing one, so ``stat`` alone misses a long name there)."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            return sanitize(error.strerror or str(error))
    existing = path
    while not _exists(existing) and existing != existing.parent:
        existing = existing.parent
    try:
        name_max = os.pathconf(existing, "PC_NAME_MAX")
        path_max = os.pathconf(existing, "PC_PATH_MAX")
    except (AttributeError, OSError, ValueError):  # no pathconf (Windows), or no such limit
        return None
    for part in path.relative_to(existing).parts:
        if len(os.fsencode(part)) > name_max:
            return f"a name longer than {name_max} bytes"
    if len(os.fsencode(path)) >= path_max:
        return f"a path of {path_max} bytes or more (PATH_MAX)"
    return None


def _check_version_control(
    at: _At, project: Path, real: dict[str, Path], paths: dict[str, str]
) -> None:
    """No output folder is, lies in or holds at its top a version control folder (``.git``, a
    file in a worktree or submodule): generate would delete it as orphans."""
    for key in OUTPUT_KEYS:
        inside = VCS_NAMES.intersection(real[key].relative_to(project).parts)
        held = sorted(name for name in VCS_NAMES if _exists(real[key] / name))
        if inside or held:
            what = "lies in" if inside else f"holds ({held[0]})"
            raise ConfigError(
                f"{at(key)}: output folder {describe(paths[key], MAX_SHOWN_PATH)} {what} version"
                " control data, symlinks followed; generate would delete it"
            )


def _check_readme_is_no_source(at: _At, sources: dict[str, Path], paths: dict[str, str]) -> None:
    """``generate`` rewrites the README's marked region: a source named as the README (markers
    in a YAML comment) had a Markdown table written into it, and no longer parsed."""
    for key, source in sources.items():
        if key != "readme" and source == sources["readme"]:
            raise ConfigError(
                f"{at('readme')}: tool.toolgen.readme = {describe(paths['readme'], MAX_SHOWN_PATH)}"
                " is"
                f" the source {key}, symlinks followed; generate would rewrite it"
            )


def _check_placement(at: _At, project_dir: Path, paths: dict[str, str]) -> None:
    """On resolved paths: outputs (and the README, which generate rewrites) lie inside the
    project's real path, output folders do not overlap, and no source lies in an output folder
    (generate deletes there). Sources may otherwise lie anywhere (a shared schema).

    Then the output folders and the README are *normalised in place*: ``paths`` holds their
    resolved, project-relative POSIX spelling (``../proj/generated/python`` and
    ``./generated//python`` both become ``generated/python``; a README symlinked to
    ``docs/README.md`` becomes that file, so generate writes through the link). Every later
    stage (output paths, the formatter's scratch folder, the stamp, emit's fence) sees one
    spelling, so the output bytes cannot depend on how the configuration spells a path."""
    try:
        project = project_dir.resolve()
        real = {key: (project_dir / value).resolve() for key, value in paths.items()}
    except (OSError, RuntimeError) as error:  # RuntimeError: a symlink loop (Python 3.11)
        raise ConfigError(
            f"{at.file}: cannot resolve a configured path: {sanitize(str(error))}"
        ) from error
    for key in (*OUTPUT_KEYS, "readme"):
        if not real[key].is_relative_to(project) or (key != "readme" and real[key] == project):
            raise ConfigError(
                f"{at(key)}: tool.toolgen.{key} = {describe(paths[key], MAX_SHOWN_PATH)} must stay"
                " inside the project (and not be its root), symlinks followed"
            )
    for index, first in enumerate(OUTPUT_KEYS):
        for second in OUTPUT_KEYS[index + 1 :]:
            a, b = real[first], real[second]
            if a == b or a.is_relative_to(b) or b.is_relative_to(a):
                raise ConfigError(
                    f"{at(second, first)}: output folders"
                    f" {describe(paths[first], MAX_SHOWN_PATH)} and"
                    f" {describe(paths[second], MAX_SHOWN_PATH)} overlap, symlinks followed"
                )
    _check_version_control(at, project, real, paths)
    sources = {key: real[key] for key in SOURCE_KEYS}
    sources["pyproject.toml"] = (project_dir / "pyproject.toml").resolve()
    for key in OUTPUT_KEYS:
        for source_key, source in sources.items():
            if source.is_relative_to(real[key]):
                raise ConfigError(
                    f"{at(key)}: output folder {describe(paths[key], MAX_SHOWN_PATH)} contains the"
                    f" source {source_key} ({describe(paths.get(source_key, source_key))}),"
                    " symlinks followed; generate would delete it"
                )
    _check_readme_is_no_source(at, sources, paths)
    for key in (*OUTPUT_KEYS, "readme"):
        _check_path_length(at, key, real[key], paths[key])
        wrong = "a folder, not a file" if key == "readme" else "an existing file, not a folder"
        if _is_folder(real[key]) is (key == "readme"):
            raise ConfigError(
                f"{at(key)}: tool.toolgen.{key} = {describe(paths[key], MAX_SHOWN_PATH)} is {wrong}"
            )
    for key in (*OUTPUT_KEYS, "readme"):
        paths[key] = real[key].relative_to(project).as_posix()

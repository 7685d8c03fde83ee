"""Command line: ``toolgen generate|check|breaking|add-tool`` (build time) and
``toolgen validate|registry|catalog|detect`` (the generated runtime). The only module that prints
(and, for ``add-tool`` on a terminal, asks for missing fields).

Exit codes: 0 success, 1 findings (invalid input, drift, generation failure, a rejected adapter
file for ``validate``), 2 usage error (bad arguments or configuration, generated runtime
missing), 130 Ctrl-C, 128 + the signal's number for SIGTERM (143) and SIGHUP (129).
``registry``, ``catalog`` and ``detect`` exit 0 whatever the adapters folder holds: they report.
Diagnostics go to stderr in ``text`` format, to stdout as workflow commands in ``github`` format
and as one JSON object in ``json`` format; ``check`` prints its unified diffs to stdout in
``text`` format, to stderr in ``github`` format (stdout holds workflow commands only) and inside
the object in ``json`` format; printed diffs are escaped (``diagnostics.shown_diff``).

Output streams are made robust before anything is printed: text that the terminal's encoding
cannot represent is written as backslash escapes (never a ``UnicodeEncodeError``), and a reader
that goes away early (``toolgen ... | head -1``) silently ends the output without changing the
exit code: the stream is pointed at the null device, so neither later writes nor the
interpreter's final flush raise ``BrokenPipeError``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from generator import __version__
from generator.config import Config, ConfigError, find_project, load_config
from generator.outputs import staged_leftovers
from generator.project_lock import project_lock
from generator.stamp import fast_check, output_folders, stamp_path, tolerate_stale_stamp
from generator.workflow_commands import LegacyCommandGuard

if TYPE_CHECKING:
    from generator.diagnostics import Diagnostic

# Only what the fast ``check`` needs is imported above; the diagnostics, the pipeline (jinja2,
# datamodel-code-generator, jsonschema, ruff), emit and the runtime are imported where used.

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
# Ctrl-C: 128 + SIGINT, as a shell reports a command SIGINT ended.
EXIT_INTERRUPTED = 130


class _UsageError(Exception):
    """Bad arguments or configuration (exit 2); the message is shown after ``toolgen: ``, already
    escaped."""


class _ArgumentsRefused(SystemExit):
    """argparse refused the command line (exit 2); ``message`` is its reason, escaped."""

    def __init__(self, message: str) -> None:
        super().__init__(EXIT_USAGE)
        self.message = message


class _Parser(argparse.ArgumentParser):
    """argparse, with its error messages escaped: they quote the command line (``unrecognized
    arguments: …``), which may hold ANSI escapes, line breaks or a forged ``::error`` line."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        shown = sanitize(message, 1000)
        print(f"{self.prog}: error: {shown}", file=sys.stderr)
        raise _ArgumentsRefused(shown)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="toolgen", description="Generate the tool registry from schema/.")
    parser.add_argument("--version", action="version", version=f"toolgen {__version__}")
    common = _Parser(add_help=False)
    common.add_argument(
        "--project",
        type=_project_folder,
        default=None,
        help="folder holding pyproject.toml (default: the nearest one with [tool.toolgen] at or"
        " above the current folder)",
    )
    common.add_argument(
        "--format", choices=("text", "json", "github"), default="text", help="diagnostics format"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("generate", parents=[common], help="write every generated file")
    check = commands.add_parser(
        "check", parents=[common], help="exit 1 with a diff when generated files drift"
    )
    check.add_argument(
        "--full",
        action="store_true",
        help="always regenerate and compare bytes (default: skip regenerating when the stamp's"
        " fingerprints of every input and output match)",
    )
    breaking = commands.add_parser(
        "breaking",
        parents=[common],
        help="exit 1 when the sources break consumers since an older revision",
    )
    breaking.add_argument(
        "--against",
        required=True,
        metavar="REF",
        help="a git revision (branch, tag, commit) or a folder holding an older copy of the"
        " project",
    )
    _add_tool_parser(commands, common)
    validate = commands.add_parser(
        "validate", parents=[common], help="apply the adapter loader's rules to files"
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", type=_named_file, help="adapter JSON files"
    )
    for name, text in (
        ("registry", "print the merged registry and the loader's diagnostics"),
        ("catalog", "print the sanitized catalog: categories, libraries, tools, capabilities"),
        ("detect", "detect every tool of the merged registry"),
    ):
        command = commands.add_parser(name, parents=[common], help=text)
        command.add_argument(
            "--adapters-dir",
            type=_named_folder,
            default=None,
            help="folder of third-party adapter files (default: the loader's default)",
        )
        if name == "detect":
            command.add_argument(
                "--probe-versions",
                action="store_true",
                help="also run third-party tools' `--version` (built-ins always are)",
            )
    return parser


def sanitize(text: str, limit: int = 80) -> str:
    """``diagnostics.sanitize``, imported when first needed (the fast check never is)."""
    from generator.diagnostics import sanitize as sanitize_  # noqa: PLC0415

    return sanitize_(text, limit)


def _line(text: str) -> str:
    """``diagnostics.unforgeable``: a printed line that starts (after white space) with input
    never reads as a workflow command."""
    from generator.diagnostics import unforgeable  # noqa: PLC0415

    return unforgeable(text)


def _add_tool_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    add = commands.add_parser(
        "add-tool",
        parents=[common],
        help="append a validated row to tools.yaml and regenerate",
    )
    add.add_argument("id", metavar="ID", help="the new tool's id (kebab-case)")
    add.add_argument("--display-name", help="human-readable name")
    add.add_argument("--detect", choices=("path", "candidates"), help="how to find the tool")
    add.add_argument("--binary", help="executable looked up on PATH (with --detect path)")
    add.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="PLATFORM=PATH",
        help="a candidate executable (with --detect candidates); repeatable",
    )
    add.add_argument(
        "--capability", action="append", default=[], help="a capability it provides; repeatable"
    )
    add.add_argument(
        "--launchable", action=argparse.BooleanOptionalAction, help="the product can launch it"
    )
    add.add_argument(
        "--hook-capable", action=argparse.BooleanOptionalAction, help="a hook package exists"
    )
    add.add_argument("--hook-pointer", help="hook pointer file, relative to the home folder")
    add.add_argument("--category", help="kind of tool")
    add.add_argument("--after", metavar="ID", help="insert after this row (default: at the end)")


# The project folder of the running command, once configured: workflow commands name files
# from the workspace (``_workflow_file``).
_annotated_project: list[Path] = []


def _from_workspace(path: str) -> str | None:
    """``path`` relative to the workflow's workspace (``GITHUB_WORKSPACE``), or ``None`` outside
    a workflow, outside the workspace, or where nothing is. The folders are resolved (a
    workspace under a linked folder), the file's own name is kept: a linked adapter is
    annotated where it is listed, not where its link points."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if not workspace or not path:
        return None
    try:
        absolute = os.path.abspath(path)
        if not os.path.lexists(absolute):
            return None
        folder, name = os.path.split(absolute)
        named = os.path.join(os.path.realpath(folder), name)
        relative = os.path.relpath(named, os.path.realpath(workspace))
    except (OSError, ValueError):  # a workspace on another drive, a NUL in the setting
        return None
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return Path(relative).as_posix()


def _workflow_file_from_here(path: str) -> str:
    """A path given from the working folder (``validate``'s files, an adapters folder's) as a
    workflow command's ``file``: from the workspace inside a workflow (``_workflow_file``)."""
    return _from_workspace(path) or path


def _workflow_file(source: str) -> str:
    """A diagnostic's source (a path relative to the project) as a workflow command's ``file``.
    The Actions runner resolves ``file`` from the workspace (``GITHUB_WORKSPACE``), so inside a
    workflow a project in a subfolder of the repository (``--project packages/registry``) names
    ``packages/registry/schema/tools.yaml``, where ``schema/tools.yaml`` would annotate no file
    (or another one). Outside a workflow, and for a source that is no file inside the workspace
    (``REF:schema/tools.yaml``, a source beside the checkout), the source as it is."""
    if not _annotated_project or not source or os.path.isabs(source):
        return source
    try:
        project = os.path.realpath(_annotated_project[-1])
    except (OSError, ValueError):
        return source
    return _from_workspace(os.path.join(project, source)) or source


def _report(diagnostics: Sequence[Diagnostic], output_format: str, **extra: object) -> None:
    import dataclasses  # noqa: PLC0415

    from generator.diagnostics import render_github, render_json, render_text, sort_key  # noqa: PLC0415

    ordered = sorted(diagnostics, key=sort_key)
    if output_format == "json":
        print(render_json(ordered, **extra))
        return
    if output_format == "github":
        # Workflow commands are read from standard output (the documented channel).
        for diagnostic in ordered:
            source = _workflow_file(diagnostic.source)
            if source != diagnostic.source:
                diagnostic = dataclasses.replace(diagnostic, source=source)  # noqa: PLW2901
            print(render_github(diagnostic))
        return
    for diagnostic in ordered:
        print(render_text(diagnostic), file=sys.stderr)


class _GuardedStream:
    """A text stream whose reader may close early or whose device may fail: after a broken pipe
    or any other write error (``ENOSPC`` on a full disk, ``EIO``), output is dropped. A missing
    stream (``sys.stdout`` is ``None`` when descriptor 1 was closed: ``toolgen generate >&-``)
    drops everything. Output trouble never changes the exit code or becomes an internal error.
    No ``##[`` is written (``workflow_commands``): whatever a print site quotes, no line of the
    output can be a legacy workflow command."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self.broken = stream is None
        self.written = False  # anything printed (kept, or dropped by a broken stream)
        self._unforgeable = LegacyCommandGuard()

    def write(self, text: str) -> int:
        self.written = self.written or bool(text)
        if not self.broken and self._stream is not None:
            try:
                self._stream.write(self._unforgeable(text))
            except (OSError, ValueError):  # ValueError: a stream closed under us
                self._divert()
        return len(text)

    def flush(self) -> None:
        if not self.broken and self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._divert()

    def _divert(self) -> None:
        # Whatever is still buffered is flushed again at interpreter exit; with the descriptor on
        # the null device that flush succeeds instead of printing "Exception ignored ...".
        self.broken = True
        if self._stream is None:
            return
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self._stream.fileno())
            finally:
                os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def _robust_streams() -> Iterator[None]:
    """Escape what the streams' encoding cannot show; survive a reader that closes early, a full
    device and a closed descriptor."""
    originals = (sys.stdout, sys.stderr)
    for stream in originals:
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors="backslashreplace")
    guarded = [_GuardedStream(stream) for stream in originals]
    sys.stdout, sys.stderr = (cast(TextIO, stream) for stream in guarded)
    try:
        yield
    finally:
        for stream in guarded:
            stream.flush()
        sys.stdout, sys.stderr = originals


class _Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: raised like Ctrl-C's ``KeyboardInterrupt`` (not an
    ``Exception``, so nothing that handles errors swallows it)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _raise_terminated(number: int, _frame: object) -> None:
    raise _Terminated(number)


@contextlib.contextmanager
def _termination_unwinds() -> Iterator[None]:
    """SIGTERM and SIGHUP (what ``timeout``, a cancelled CI job and a closed terminal send)
    raise ``_Terminated`` while the command runs. Their default action ended the process at
    once: while ``generate`` staged its files, that left ``.NAME.XXXXXXXX.tmp`` files (and folders
    made for them) behind; unwinding runs the clean-up Ctrl-C runs. A signal the caller set to
    be ignored (``nohup``'s SIGHUP) or handles itself is left alone, and so is a thread other than
    the main one, where handlers cannot be set."""
    installed: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is signal.SIG_DFL:
                installed[number] = signal.signal(number, _raise_terminated)
    try:
        yield
    finally:
        for number, previous in installed.items():
            signal.signal(number, previous)


def _debugging() -> bool:
    """``TOOLGEN_DEBUG`` is set to anything but empty or ``0``: tracebacks are shown."""
    return os.environ.get("TOOLGEN_DEBUG", "") not in ("", "0")


def _asks_for_json(argv: Sequence[str]) -> bool:
    """Whether the command line asks for ``--format json`` (read without argparse, for when
    argparse refused it): the option spelled out, with ``=`` or as an abbreviation argparse
    takes (``--form json``)."""
    for index, argument in enumerate(argv):
        option, equals, value = argument.partition("=")
        if len(option) < 4 or not "--format".startswith(option):
            continue
        if (value if equals else (argv[index + 1] if index + 1 < len(argv) else "")) == "json":
            return True
    return False


def _json_outcome(asked: bool, kind: str, message: str) -> None:
    """With ``--format json``, an outcome that is no command's result (a usage error, an
    interrupt, an internal error) is still one JSON object on stdout: the documented
    ``diagnostics`` (none) and ``summary``, and ``error`` saying what happened. Nothing is added
    when the command already printed its object."""
    written = getattr(sys.stdout, "written", False)
    if not asked or written:
        return
    from generator.diagnostics import render_json  # noqa: PLC0415

    print(render_json([], error={"kind": kind, "message": message}))


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _annotated_project.clear()  # set once this run is configured (``_run``)
    with _robust_streams(), _termination_unwinds():
        try:
            arguments = _parser().parse_args(argv)  # exits 0 for --help and --version
        except _ArgumentsRefused as refused:
            _json_outcome(_asks_for_json(argv), "usage", refused.message)
            return EXIT_USAGE
        return _outcome(arguments, arguments.format == "json")


def _outcome(arguments: argparse.Namespace, json_asked: bool) -> int:
    """The command's exit code; a usage error, an interrupt or an internal error is reported on
    stderr (and, with ``--format json``, as an object on stdout) instead of raised."""
    try:
        return _run(arguments)
    except _UsageError as error:
        print(f"toolgen: {error}", file=sys.stderr)
        _json_outcome(json_asked, "usage", str(error))
        return EXIT_USAGE
    except KeyboardInterrupt:
        # generate's renames hold Ctrl-C back (``emit``): files are all old or all new.
        if _debugging():
            raise
        print("toolgen: interrupted", file=sys.stderr)
        _json_outcome(json_asked, "interrupted", "interrupted")
        return EXIT_INTERRUPTED
    except _Terminated as signalled:
        # The code a shell reports for a command the signal ended (143 for SIGTERM), as
        # before: only the clean-up on the way out is new.
        if _debugging():
            raise
        print("toolgen: terminated", file=sys.stderr)
        _json_outcome(json_asked, "terminated", "terminated")
        return 128 + signalled.number
    except Exception as error:  # last resort: a bug must not show users a traceback
        # TOOLGEN_DEBUG=1 (any value but empty or 0: `TOOLGEN_DEBUG=0` means off).
        if _debugging():
            raise
        message = f"internal error: {type(error).__name__}: {sanitize(str(error), 300)}"
        print(
            f"toolgen: {message} (set TOOLGEN_DEBUG=1 for a traceback, and please report it)",
            file=sys.stderr,
        )
        _json_outcome(json_asked, "internal", message)
        return EXIT_FINDINGS


def _run_runtime(config: Config, arguments: argparse.Namespace) -> int:
    """A command of the project's generated package (exit 2 when it has not been generated)."""
    from generator.runtime import RuntimeMissingError, import_runtime  # noqa: PLC0415

    try:
        runtime = import_runtime(config.path("python_out"))
    except RuntimeMissingError as error:
        raise _UsageError(sanitize(str(error), 300)) from error
    return RUNTIME_COMMANDS[arguments.command](runtime, arguments)


def _named_folder(value: str) -> str:
    """A folder option's value; an empty one (``--adapters-dir "$UNSET"``) is refused: it names
    no folder, and would quietly be the current folder (``--project``) or no adapters at all."""
    if not value:
        raise argparse.ArgumentTypeError("an empty value names no folder")
    return value


def _named_file(value: str) -> str:
    """A ``validate`` file; an empty one (``"$UNSET"``) names no file (its records would be
    about ``<input>``, its verdict about nothing)."""
    if not value:
        raise argparse.ArgumentTypeError("an empty value names no file")
    return value


def _project_folder(value: str) -> Path:
    """``--project``'s folder (``_named_folder``)."""
    return Path(_named_folder(value))


def _project(arguments: argparse.Namespace) -> Path:
    """``--project``, else the project found from the current folder (``ConfigError`` when that
    folder was deleted or cannot be read)."""
    if arguments.project is not None:
        project = cast(Path, arguments.project)
        # `--project path/to/pyproject.toml` read "pyproject.toml/pyproject.toml: cannot read:
        # Not a directory": say what is wrong with the argument itself.
        if _is_a_non_folder(project):
            hint = " (name the folder holding it)" if project.name == "pyproject.toml" else ""
            raise ConfigError(f"--project {sanitize(str(project), 300)} is not a folder{hint}")
        return project
    try:
        return find_project(Path.cwd())
    except OSError as error:
        reason = sanitize(error.strerror or str(error))
        raise ConfigError(f"the current folder cannot be used ({reason}); use --project") from error


def _is_a_non_folder(path: Path) -> bool:
    """Whether ``path`` is something other than a folder (a file, a FIFO); ``False`` when it is
    missing or cannot be examined (reading the configuration then says why)."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):  # a name too long, a NUL character
        return False


def _run(arguments: argparse.Namespace) -> int:
    try:
        config = load_config(_project(arguments))
    except ConfigError as error:
        # Messages quote configuration text already; sanitizing the whole line again is cheap
        # insurance that nothing from pyproject.toml reaches a terminal or CI log raw.
        raise _UsageError(sanitize(str(error), 1000)) from error
    _annotated_project[:] = [config.project_dir]
    if arguments.command in RUNTIME_COMMANDS:
        return _run_runtime(config, arguments)
    if arguments.command in ("breaking", "add-tool"):
        return (
            _breaking(config, arguments)
            if arguments.command == "breaking"
            else _add_tool(config, arguments)
        )
    if arguments.command == "check":
        # Shared with other checks, exclusive of a generate or add-tool writing: a check waits
        # for such a run instead of comparing outputs it has half renamed.
        with project_lock(config.project_dir, shared=True):
            return _generate_or_check(config, arguments)
    return _generate_or_check(config, arguments)


def _generate_or_check(config: Config, arguments: argparse.Namespace) -> int:
    if arguments.command == "check" and not arguments.full and _up_to_date(config, arguments):
        return EXIT_OK
    # Regenerating needs the heavy machinery (jinja2, datamodel-code-generator, jsonschema,
    # ruff): imported only now, so the fast path above never pays for it.
    from generator.emit import compare_outputs, write_outputs  # noqa: PLC0415
    from generator.pipeline import build_outputs  # noqa: PLC0415

    _require_current_folder()
    result = build_outputs(config)
    if not result.ok:
        _report(result.diagnostics, arguments.format)
        _count_line(result.diagnostics, arguments.format)
        return EXIT_FINDINGS
    roots = output_folders(config)
    if arguments.command == "generate":
        changed, failures = write_outputs(config.project_dir, result.outputs, roots)
        _report([*result.diagnostics, *failures], arguments.format, changed=changed)
        if arguments.format == "text":
            print(f"toolgen: {len(result.outputs)} files, {len(changed)} changed", file=sys.stderr)
        _count_line([*result.diagnostics, *failures], arguments.format)
        return EXIT_FINDINGS if failures else EXIT_OK
    expected = tolerate_stale_stamp(config, result.outputs)
    differences = compare_outputs(config.project_dir, expected.outputs, roots)
    # Only when nothing else differs: beside drift, "every generated file is current" is false.
    if expected.stale and not differences and arguments.format == "text":
        print(
            f"toolgen: {sanitize(stamp_path(config), 300)} is stale (inputs changed:"
            f" {expected.stale}) but every generated file is current; `toolgen generate`"
            " refreshes it",
            file=sys.stderr,
        )
    if arguments.format != "json":
        # Text: the diffs are the output (stdout). GitHub: stdout holds workflow commands only,
        # so the diffs go to stderr. Either way escaped (``shown_diff``): no diff line can be
        # taken for a workflow command or rewrite the terminal.
        from generator.diagnostics import shown_diff  # noqa: PLC0415

        stream = sys.stdout if arguments.format == "text" else sys.stderr
        for difference in differences:
            stream.write(shown_diff(difference.diff))
    found = [*result.diagnostics, *(d.diagnostic for d in differences)]
    leftovers = staged_leftovers(config.project_dir, expected.outputs)
    extra: dict[str, object] = {"leftovers": leftovers} if leftovers else {}
    if expected.stale_inputs:
        # What text output says in a line: the committed stamp vouches for inputs that changed
        # (its outputs are compared byte for byte all the same), so the fast path missed.
        stale = {"path": stamp_path(config), "inputsChanged": list(expected.stale_inputs)}
        extra["staleStamp"] = stale
    _report(
        found, arguments.format, diffs={d.diagnostic.source: d.diff for d in differences}, **extra
    )
    _mention_leftovers(leftovers, arguments.format)
    if arguments.format == "text" and not differences:
        print(f"toolgen: {len(result.outputs)} files up to date", file=sys.stderr)
    _count_line(found, arguments.format)
    return EXIT_FINDINGS if differences else EXIT_OK


def _require_current_folder() -> None:
    """Rendering runs datamodel-code-generator, which reads the current folder (``Path.cwd()``):
    run from a folder deleted meanwhile (``--project`` naming the project), every module was a
    ``GENERATION_FAILED`` saying only ``FileNotFoundError``. A usage error says what to do."""
    try:
        os.getcwd()
    except OSError as error:
        reason = sanitize(error.strerror or type(error).__name__)
        raise _UsageError(
            f"the current folder cannot be used ({reason}), and generating needs one"
            " (datamodel-code-generator reads it): run toolgen from a folder that exists"
        ) from error


def _mention_leftovers(leftovers: Sequence[str], output_format: str) -> None:
    """Name the temporary files a killed ``generate`` left beside its outputs: not drift (the
    outputs are what they are), and ``check`` writes nothing, so only said (on stderr: in
    ``github`` format stdout holds workflow commands only; ``json`` carries ``leftovers``)."""
    if output_format == "json":
        return
    for relative in leftovers:
        print(
            f"toolgen: {sanitize(relative, 300)}: a temporary file an interrupted `toolgen"
            " generate` left (not drift); `toolgen generate` removes it",
            file=sys.stderr,
        )


def _up_to_date(config: Config, arguments: argparse.Namespace) -> bool:
    """The fast check: ``True`` (reported) when the stamp vouches for every output; otherwise
    the caller regenerates, and in text format the reason is shown first."""
    verdict = fast_check(config)
    if verdict.up_to_date:
        # The stamp counts every file of the output folders, so a leftover can only lie beside
        # the README.
        leftovers = staged_leftovers(config.project_dir, [config.relative("readme")])
        extra: dict[str, object] = {"leftovers": leftovers} if leftovers else {}
        if arguments.format != "text":  # text reports nothing but the lines below
            _report([], arguments.format, diffs={}, **extra)
        if arguments.format == "text":
            message = f"{verdict.files} files up to date (fingerprints match the stamp)"
            print(f"toolgen: {message}", file=sys.stderr)
        _mention_leftovers(leftovers, arguments.format)
        return True
    if arguments.format == "text":
        from generator.diagnostics import MAX_SHOWN_PATH, sanitize  # noqa: PLC0415

        # The reason may name a file found in an output folder: shown sanitized.
        reason = sanitize(verdict.reason, MAX_SHOWN_PATH)
        print(f"toolgen: regenerating to compare ({reason})", file=sys.stderr)
    return False


def _breaking(config: Config, arguments: argparse.Namespace) -> int:
    from generator.baseline import BaselineError  # noqa: PLC0415
    from generator.diagnostics import Code, Severity, has_errors  # noqa: PLC0415
    from generator.pipeline import breaking_changes  # noqa: PLC0415

    try:
        found = breaking_changes(config, arguments.against)
    except BaselineError as error:
        raise _UsageError(sanitize(str(error), 300)) from error
    _report(found, arguments.format)
    if arguments.format == "text":
        breaking = [d for d in found if d.code.value.startswith("BREAKING_")]
        acknowledged = sum(d.severity is not Severity.ERROR for d in breaking)
        safe = sum(d.code is Code.SAFE_ADDITION for d in found)
        # A baseline read only in part was compared only in part: the counts say so.
        partial = any(d.code is Code.BASELINE_UNREADABLE for d in found)
        print(
            f"toolgen: {len(breaking)} breaking ({acknowledged} acknowledged), {safe} safe"
            + (
                "; the baseline was not read in full, so not all of it was compared"
                if partial
                else ""
            ),
            file=sys.stderr,
        )
    _count_line(found, arguments.format)
    return EXIT_FINDINGS if has_errors(found) else EXIT_OK


# add-tool's required options: (attribute, option, prompt)
_ADD_TOOL_REQUIRED = (
    ("display_name", "--display-name", "display name"),
    ("launchable", "--launchable/--no-launchable", "launchable? [y/n]"),
    ("hook_capable", "--hook-capable/--no-hook-capable", "hook capable? [y/n]"),
    ("hook_pointer", "--hook-pointer", "hook pointer file (relative to the home folder)"),
    ("detect", "--detect", "detect kind [path/candidates]"),
)


def _missing(arguments: argparse.Namespace) -> list[tuple[str, str, str]]:
    missing = [entry for entry in _ADD_TOOL_REQUIRED if getattr(arguments, entry[0]) is None]
    if arguments.detect == "path" and arguments.binary is None:
        missing.append(("binary", "--binary", "executable name on PATH"))
    return missing


def _interactive() -> bool:
    """Whether standard input is a terminal to ask on (``sys.stdin`` is ``None`` when
    descriptor 0 was closed: ``toolgen add-tool ID <&-``)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):  # a stream closed under us
        return False


def _prompt(arguments: argparse.Namespace) -> bool:
    """Ask for each missing field on a terminal; ``False`` when input ends early."""
    while missing := _missing(arguments):
        attribute, _, question = missing[0]
        # The question goes to stderr, as the diagnostics do: stdout holds the command's output
        # (the JSON object of `--format json > report.json`), which a question would corrupt.
        print(f"{question}: ", end="", file=sys.stderr, flush=True)
        try:
            answer = input().strip()
        except EOFError:
            return False
        if attribute in ("launchable", "hook_capable"):
            if answer.lower() in ("y", "yes", "n", "no"):
                setattr(arguments, attribute, answer.lower().startswith("y"))
        elif attribute == "detect":
            if answer in ("path", "candidates"):
                arguments.detect = answer
        elif answer:
            setattr(arguments, attribute, answer)
    return True


# add-tool's text options and the attribute each is stored in.
_ADD_TOOL_TEXT = (
    ("ID", "id"),
    ("--display-name", "display_name"),
    ("--binary", "binary"),
    ("--path", "path"),
    ("--capability", "capability"),
    ("--hook-pointer", "hook_pointer"),
    ("--category", "category"),
    ("--after", "after"),
)


def _refuse_undecodable(arguments: argparse.Namespace) -> None:
    """``AddToolError`` for an option whose bytes were not UTF-8 (the command line or a
    terminal's answer in another encoding): Python keeps such bytes as lone surrogates, which
    validation then reported as a ``LONE_SURROGATE`` in tools.yaml with advice about YAML
    escapes, for text the user never wrote there."""
    from generator.add_tool import AddToolError  # noqa: PLC0415
    from generator.diagnostics import describe  # noqa: PLC0415

    for option, attribute in _ADD_TOOL_TEXT:
        value = getattr(arguments, attribute)
        texts = value if isinstance(value, list) else [value]
        recovered = [_utf8_argument(text) for text in texts]
        for text, utf8 in zip(texts, recovered, strict=True):
            if utf8 is _NOT_UTF8:
                raise AddToolError(
                    f"{option} {describe(text)} is not UTF-8 text (check the terminal's or"
                    " the shell's encoding)"
                )
        setattr(arguments, attribute, recovered if isinstance(value, list) else recovered[0])


_NOT_UTF8 = object()


def _utf8_argument(text: object) -> object:
    """An option's text as the UTF-8 its bytes are, or ``_NOT_UTF8`` when they are not. Python
    decodes the command line in the locale's encoding, so under another one ``--display-name
    Ä`` (UTF-8 on the command line) read as lone surrogates (ASCII: a C locale without UTF-8
    mode) or as ``Ã\x84`` (Latin-1), which went into tools.yaml: the bytes (``os.fsencode``)
    are decoded again, as UTF-8."""
    if not isinstance(text, str) or text.isascii():
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        return _NOT_UTF8


def _add_tool_fields(arguments: argparse.Namespace) -> dict[str, Any]:
    """The row's fields from the options; ``AddToolError`` for options that contradict."""
    from generator.add_tool import AddToolError  # noqa: PLC0415
    from generator.diagnostics import describe  # noqa: PLC0415

    _refuse_undecodable(arguments)
    detect: dict[str, Any] = {"kind": arguments.detect}
    if arguments.detect == "path":
        if arguments.path:
            raise AddToolError("--path goes with --detect candidates")
        detect["binaryName"] = arguments.binary
    else:
        if arguments.binary is not None:
            raise AddToolError("--binary goes with --detect path")
        paths: dict[str, list[str]] = {}
        for entry in arguments.path:
            platform, separator, path = entry.partition("=")
            if not separator or not platform or not path:
                raise AddToolError(f"--path {describe(entry)} is not PLATFORM=PATH")
            paths.setdefault(platform, []).append(path)
        if paths:
            detect["paths"] = paths
    fields: dict[str, Any] = {
        "displayName": arguments.display_name,
        "launchable": arguments.launchable,
        "hookCapable": arguments.hook_capable,
        "hookPointer": arguments.hook_pointer,
        "detect": detect,
    }
    if arguments.capability:
        fields["capabilities"] = {"provides": list(arguments.capability)}
    if arguments.category is not None:
        fields["category"] = arguments.category
    return fields


def _add_tool(config: Config, arguments: argparse.Namespace) -> int:
    from generator.add_tool import AddToolError, insert_row, new_row  # noqa: PLC0415
    from generator.diagnostics import MAX_SHOWN_PATH  # noqa: PLC0415
    from generator.emit import write_outputs  # noqa: PLC0415
    from generator.load import read_text  # noqa: PLC0415
    from generator.pipeline import build_outputs, load_sources  # noqa: PLC0415
    from generator.schemas import property_order  # noqa: PLC0415

    if _missing(arguments) and _interactive() and not _prompt(arguments):
        raise _UsageError("add-tool: input ended before every missing field was given")
    missing = _missing(arguments)
    if missing:
        options = ", ".join(option for _, option, _ in missing)
        raise _UsageError(f"add-tool: missing {options} (no terminal to ask)")
    manifest, _, table = load_sources(config)
    if manifest.value is None or table.value is None:
        found = [*manifest.diagnostics, *table.diagnostics]
        _report(found, arguments.format)
        _count_line(found, arguments.format)
        return EXIT_FINDINGS
    try:
        fields = _add_tool_fields(arguments)  # first: it reads the options' bytes as UTF-8
        row = new_row(arguments.id, fields, property_order(manifest.value, manifest.value))
        text, _ = read_text(config.path("table"), config.relative("table"), keep_bom=True)
        new_text = insert_row(text or "", table, row, arguments.after)
    except AddToolError as error:
        raise _UsageError(f"add-tool: {sanitize(str(error), 300)}") from error
    _require_current_folder()
    result = build_outputs(config, table_text=new_text)
    if not result.ok:
        _report(result.diagnostics, arguments.format)
        _count_line(result.diagnostics, arguments.format)
        return EXIT_FINDINGS
    # The new table is written with the outputs, as one set (``emit.write_outputs``): when any
    # file cannot be written, the table keeps every byte it had.
    table_path = config.relative("table")
    # The table must still hold what the row was spliced into: a concurrent add-tool (or an
    # editor) that wrote it meanwhile would otherwise lose its change to this write.
    changed, failures = write_outputs(
        config.project_dir,
        result.outputs,
        output_folders(config),
        {table_path: new_text},
        read_as={table_path: text},
    )
    changed = sorted(changed, key=lambda path: path != table_path)  # the table first
    joined = [
        str(cohort["name"])
        for cohort in table.value.get("cohorts", [])
        if isinstance(cohort, dict) and row.get(str(cohort.get("field"))) is True
    ]
    provides = list(row.get("capabilities", {}).get("provides", []))
    summary = {
        "id": arguments.id,
        "changed": changed,
        "cohorts": joined,
        "capabilities": provides,
    }
    if arguments.format == "json":
        _report(failures, "json", **summary)
    elif failures:
        _report(failures, arguments.format)
        if table_path not in changed and arguments.format == "text":
            print(
                f"toolgen: add-tool: {sanitize(table_path, MAX_SHOWN_PATH)} unchanged",
                file=sys.stderr,
            )
        _count_line(failures, arguments.format)
    else:
        _report(failures, arguments.format)
        _print_added(arguments, table_path, summary)
    return EXIT_FINDINGS if failures else EXIT_OK


def _print_added(arguments: argparse.Namespace, table_path: str, summary: dict[str, Any]) -> None:
    """add-tool's account of a row added: the id, cohorts, capabilities and files written."""
    from generator.diagnostics import MAX_SHOWN_PATH, describe  # noqa: PLC0415

    joined, provides = summary["cohorts"], summary["capabilities"]
    out = _listing(arguments.format)
    added = f"added {sanitize(arguments.id)} to {sanitize(table_path, MAX_SHOWN_PATH)}"
    print(_line(added), file=out)
    print(f"  new constants: ToolId and SUPPORTED_TOOLS gain {describe(arguments.id)}", file=out)
    print(f"  cohorts joined: {', '.join(sanitize(c) for c in joined) or '(none)'}", file=out)
    capabilities = ", ".join(sanitize(c) for c in provides) or "(none)"
    print(f"  capabilities provided: {capabilities}", file=out)
    print("  files written:", file=out)
    for path in summary["changed"]:
        print(_line(f"    {sanitize(path, MAX_SHOWN_PATH)}"), file=out)


def _listing(output_format: str) -> TextIO:
    """Where a command's own lines go (add-tool's summary, the runtime commands' listings):
    stdout in ``text`` format; stderr in ``github`` format, whose stdout holds workflow commands
    only (as ``check``'s diffs do)."""
    return sys.stdout if output_format == "text" else sys.stderr


def _count_line(diagnostics: Sequence[Diagnostic], output_format: str) -> None:
    """Text output ends with the count of what was reported (json carries ``summary``)."""
    from generator.diagnostics import render_count  # noqa: PLC0415

    line = render_count(diagnostics)
    if output_format == "text" and line is not None:
        print(f"toolgen: {line}", file=sys.stderr)


def _print_runtime_diagnostics(
    diagnostics: Sequence[Any], output_format: str, in_folder: dict[str, str] | None = None
) -> None:
    """Runtime records: ``render()`` lines on stderr, or workflow commands on stdout.

    A workflow command's ``file`` is a path the runner finds from the working folder: given the
    paths of a folder command's files (``registry``, ``catalog``, ``detect``), a record about one
    of the folder's files names it by its path (the folder joined with the file name its source
    is), and a record about no file (a tool's detection, the folder or its setting) names none,
    where ``file=codex-desktop`` or ``file=aider.json`` would point at what is not there: its
    message begins with its source instead. For ``validate`` the source is the path as given."""
    from generator.diagnostics import github_escape  # noqa: PLC0415

    for diagnostic in diagnostics:
        if output_format != "github":
            print(_line(diagnostic.render()), file=sys.stderr)
            continue
        properties = [f"title={diagnostic.code.value}"]
        path = diagnostic.source if in_folder is None else in_folder.get(diagnostic.source)
        message = diagnostic.message
        if path:
            path = _workflow_file_from_here(path)
            properties.insert(0, "file=" + github_escape(path, is_property=True))
        elif diagnostic.source:  # what it is about, said in the message as text output says it
            message = f"{diagnostic.source}: {message}"
        message = github_escape(message, is_property=False)
        print(f"::{diagnostic.severity.value} {','.join(properties)}::{message}")


def _adapter_paths(
    runtime: ModuleType, arguments: argparse.Namespace, registry: Any
) -> dict[str, str]:
    """``{file name: its path}`` for the files the registry's load read, in the folder it read
    (``--adapters-dir``, else the default folder; empty when that names no folder)."""
    from generator.diagnostics import sanitize  # noqa: PLC0415

    folder = arguments.adapters_dir
    if folder is None:
        try:
            folder = runtime.default_adapters_dir()
        except runtime.NoHomeFolderError:  # no folder to name: the load read nothing there
            return {}
    paths: dict[str, str] = {}
    for state in registry.refreshed:
        name = state.source
        path = os.path.join(folder, name)
        # A name shown as it is, and there: an escaped name (``\u001b``) names no file.
        if isinstance(name, str) and sanitize(name) == name and os.path.lexists(path):
            paths[name] = path
    return paths


def _print_json(document: object) -> None:
    from generator.diagnostics import json_text  # noqa: PLC0415

    print(json_text(document))


def _shown_path(path: str) -> str:
    """A path from the command line as the text its bytes are in UTF-8 (bytes that are not
    UTF-8 kept as surrogate escapes, which the records show escaped): under a locale of another
    encoding (Latin-1) Python decoded a UTF-8 name's bytes one by one, and the records named a
    file the user never wrote."""
    if path.isascii():
        return path
    try:
        return os.fsencode(path).decode("utf-8", "surrogateescape")
    except UnicodeError:
        return path


def _distinct_entries(paths: list[str]) -> list[str]:
    """``paths`` without a later name of a folder entry named before (``a.json a.json``,
    ``./a.json``, ``dir//a.json``, or through a symlinked folder): a folder holds an entry once,
    so a file named twice was reported as claiming its id against itself. Two entries of one
    file (a symlink beside its target) stay two claims, as the loader counts them in a folder."""
    seen: set[tuple[str, str]] = set()
    distinct: list[str] = []
    for path in paths:
        folder, name = os.path.split(path)
        try:
            entry = (os.path.realpath(folder or os.curdir), name)
        except (OSError, ValueError):
            entry = ("", path)  # a folder that cannot be resolved: only the same text is the same
        if name and entry in seen:
            continue
        seen.add(entry)
        distinct.append(path)
    return distinct


def _validate(runtime: ModuleType, arguments: argparse.Namespace) -> int:
    files = _distinct_entries(arguments.files)
    result = runtime.load_manifest_files((_shown_path(path), path) for path in files)
    rejected = any(not report.accepted for report in result.files)
    if arguments.format == "json":
        _print_json({"files": [report.as_json() for report in result.files]})
        return EXIT_FINDINGS if rejected else EXIT_OK
    _print_runtime_diagnostics(result.diagnostics, arguments.format)
    for report in result.files:
        verdict = f"accepted ({report.id})" if report.accepted else "rejected"
        print(_line(f"{report.source}: {verdict}"), file=_listing(arguments.format))
    return EXIT_FINDINGS if rejected else EXIT_OK


def _registry(runtime: ModuleType, arguments: argparse.Namespace) -> int:
    registry = runtime.get_tool_registry(arguments.adapters_dir)
    if arguments.format == "json":
        tools = [_manifest_json(tool) for tool in registry.tools]
        diagnostics = [d.as_json() for d in registry.diagnostics]
        _print_json({"tools": tools, "diagnostics": diagnostics})
        return EXIT_OK
    in_folder = _adapter_paths(runtime, arguments, registry)
    _print_runtime_diagnostics(registry.diagnostics, arguments.format, in_folder)
    for tool in registry.tools:
        origin = "built-in" if tool.builtin else "third-party"
        print(
            _line(f"{tool.id}\t{sanitize(tool.displayName)}\t{origin}"),
            file=_listing(arguments.format),
        )
    return EXIT_OK


def _catalog(runtime: ModuleType, arguments: argparse.Namespace) -> int:
    registry = runtime.get_tool_registry(arguments.adapters_dir)
    catalog = registry.catalog()
    if arguments.format == "json":
        _print_json(catalog)
        return EXIT_OK
    _print_runtime_diagnostics(
        registry.diagnostics, arguments.format, _adapter_paths(runtime, arguments, registry)
    )
    out = _listing(arguments.format)
    for category in catalog["categories"]:
        print(_line(sanitize(str(category["category"] or "(no category)"))), file=out)
        for library in category["libraries"]:
            print(_line(f"  {sanitize(str(library['library'] or '(no library)'))}"), file=out)
            for tool in library["tools"]:
                origin = "built-in" if tool["builtin"] else f"third-party ({tool['source']})"
                kind = "inert" if tool["inert"] else ", ".join(tool["granted"]) or "-"
                pending = ", ".join(tool["notGranted"])
                suffix = f"; not granted: {pending}" if pending else ""
                print(
                    _line(
                        f"    {tool['id']}\t{sanitize(tool['displayName'])}\t{sanitize(origin)}\t"
                        f"{kind}{suffix}"
                    ),
                    file=out,
                )
    return EXIT_OK


def _manifest_json(tool: Any) -> dict[str, Any]:
    """A manifest as JSON: absent optional fields left out (tuples serialise as arrays)."""
    import dataclasses  # noqa: PLC0415

    present: dict[str, Any] = dataclasses.asdict(
        tool, dict_factory=lambda items: {key: value for key, value in items if value is not None}
    )
    return present


def _detect(runtime: ModuleType, arguments: argparse.Namespace) -> int:
    registry = runtime.get_tool_registry(arguments.adapters_dir)
    results = runtime.detect_all(registry, probe_third_party_versions=arguments.probe_versions)
    if arguments.format == "json":
        _print_json(
            {
                "results": [result.as_json() for result in results],
                "diagnostics": [d.as_json() for d in registry.diagnostics],
            }
        )
        return EXIT_OK
    in_folder = _adapter_paths(runtime, arguments, registry)
    _print_runtime_diagnostics(registry.diagnostics, arguments.format, in_folder)
    for result in results:
        state = {True: "installed", False: "not installed", None: "unknown"}[result.installed]
        hooks = "hooks installed" if result.hooks_installed else "no hooks"
        version = f" {result.version}" if result.version else ""
        where = f" at {sanitize(result.path)}" if result.path else ""
        print(
            _line(f"{result.id}: {state}{where}{version}; {hooks}"), file=_listing(arguments.format)
        )
        if result.diagnostic is not None:
            _print_runtime_diagnostics([result.diagnostic], arguments.format, in_folder)
    return EXIT_OK


RUNTIME_COMMANDS: dict[str, Callable[[ModuleType, argparse.Namespace], int]] = {
    "validate": _validate,
    "registry": _registry,
    "catalog": _catalog,
    "detect": _detect,
}

"""``pypto-check PATH... [-- mypy options]``: mypy with the PyPTO plugin, config or not.

Uses the project's mypy config when it enables the plugin; otherwise runs with a generated
config that does (and nothing else), so it works in a project with no mypy setup.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from mypy.version import __version__ as mypy_version

from .. import config
from .. import mypy_output as records
from ..calls import coverage
from ..fix import fix_command
from ..versions import TARGET_PYPTO, pypto_stubs_version
from . import agent_hook, coverage_report, environment, formats, options, signal_first
from ..knowledge.codes import TABLE, lookup
from .catalogue import explain, list_codes
from .project_config import PLUGIN, find_config

# Kernels have no return annotation (PyPTO forbids one), so also check untyped helpers. torch is
# not analysed (host calls are read from the source; analysing torch costs a minute per cold run).
# Signal first (no config, no --all) also leaves None-ness unchecked: 0.2.0 never fails on
# ``x: pypto.Tensor = None`` or ``kwargs.get("x")`` passed on (docs/configuration.md).
_GENERATED = (
    f"[mypy]\nplugins = {PLUGIN}\ncheck_untyped_defs = True\n{{strictness}}\n"
    "[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n"
)
_SIGNAL_FIRST_OPTIONS = "strict_optional = False\n"
# What the machine outputs and signal first need from mypy: exact spans and codes, one line each.
_PARSEABLE = ["--show-column-numbers", "--show-error-end", "--show-error-codes", "--no-pretty"]


def console_entry() -> None:
    """The ``pypto-check`` command: :func:`main`, then leave without tearing down what the check
    built, as mypy's own command does. Python frees every object at a normal exit: after an
    in-process mypy run that is millions of them (a quarter of the command's CPU on 170 files of
    real PyPTO code, docs/validation.md). Output is flushed first; an exception leaves as usual."""
    status = main()
    _leave(status)


def _leave(status: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (pypto-check | head): nothing left to say there
            pass
    os._exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    opts = options.parse(list(sys.argv[1:] if argv is None else argv))
    if opts.version:
        return _version(opts)
    if opts.list_codes:
        sys.stdout.write(list_codes())
        return 0
    if opts.explain is not None:
        doc = lookup(opts.explain)
        if doc is None:
            sys.stderr.write(
                f"pypto-check: unknown code {opts.explain!r}; known: {', '.join(row.name for row in TABLE)}\n"
            )
            return 2
        sys.stdout.write(explain(doc))
        return 0
    if opts.hook is not None:
        sys.stdout.write(agent_hook.run(opts.hook, sys.stdin.read(), main, opts.mypy_args))
        return 0
    problem = environment.problem(opts.mypy_args)
    if problem is not None:
        return _emit(opts, formats.Report(2, [], fatal=[f"pypto-check: {problem}"]))
    return _check(opts)


def _version(opts: options.Options) -> int:
    """The versions, with the PyPTO release the config pypto-check would use targets."""
    given = next((a.split("=", 1)[1] for a in opts.mypy_args if a.startswith("--config-file=")), None)
    if "--config-file" in opts.mypy_args[:-1]:
        given = opts.mypy_args[opts.mypy_args.index("--config-file") + 1]
    found, enabled = find_config(Path.cwd()) if given is None else (Path(given), True)
    try:
        release = config.load(str(found) if found is not None and enabled else None).release
    except config.ConfigError as err:
        sys.stderr.write(f"{given or _shown(found or Path())}: error: {err}\n")
        return 2
    where = given or _shown(found or Path())
    verified = "" if release == TARGET_PYPTO else f" (pypto_version in {where}; verified on {TARGET_PYPTO})"
    print(f"pypto-check {pypto_stubs_version()} (pypto-stubs), mypy {mypy_version}, targets PyPTO {release}{verified}")
    return 0


def _check(opts: options.Options) -> int:
    with tempfile.TemporaryDirectory(prefix="pypto-check-") as tmp:
        config_args, user_config, warning = check_config(Path.cwd(), Path(tmp), opts.mypy_args, show_all=opts.show_all)
        if warning is not None:
            sys.stderr.write(warning + "\n")
        return _run(opts, config_args, user_config=user_config)


def check_config(root: Path, scratch: Path, mypy_args: Sequence[str] = (), *,
                 show_all: bool = False) -> tuple[list[str], bool, str | None]:
    """The config a check in ``root`` runs with: the mypy arguments that name it (a generated
    config, written in ``scratch``, when no config there enables the plugin; signal first, with no
    config and no ``--all``, leaves None-ness unchecked), whether it is the user's (then nothing is
    hidden), and a warning to show. One place for pypto-check and pypto-lsp."""
    if "--config-file" in mypy_args or any(a.startswith("--config-file=") for a in mypy_args):
        return [], True, None
    config, enabled = find_config(root)
    if config is not None and enabled:
        return ["--config-file", _shown(config)], True, None
    warning = None
    if config is not None:
        warning = (
            f"pypto-check: {config} does not enable the plugin; checking with the plugin only. "
            f'Add plugins = ["{PLUGIN}"] to it to combine both.'
        )
    generated = scratch / "mypy.ini"
    strictness = _SIGNAL_FIRST_OPTIONS if config is None and not show_all else ""
    generated.write_text(_GENERATED.replace("{strictness}", strictness), encoding="utf-8")
    return ["--config-file", str(generated)], config is not None, warning


def shown_records(found: list[records.Record], source_line: Callable[[str, int], str | None], *, user_config: bool,
                  show_all: bool = False, traced: Callable[[str, int], bool] | None = None,
                  ) -> tuple[list[records.Record], list[records.Record]]:
    """What a check shows and what it hides (signal first, without a user config and ``--all``):
    the one filter of pypto-check and pypto-lsp. ``traced``: is a line in a kernel's trace
    (signal_first.traced_lines)."""
    if user_config or show_all:
        return found, []
    return signal_first.split(found, source_line, traced)


def _shown(path: Path) -> str:
    # Messages about the config name it as the user would (mypy.ini, not /abs/path/mypy.ini).
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _run(opts: options.Options, config_args: list[str], *, user_config: bool) -> int:
    filtered = not (user_config or opts.show_all)
    if opts.fix or opts.diff:
        # what remains is listed as a check lists it: signal first
        keep = signal_first.finding_shown(Path.cwd()) if filtered else None
        return fix_command(opts.paths, [*config_args, *opts.mypy_args], write=opts.fix, only=opts.fix_only,
                           styles=opts.fix_styles, shown=keep, hidden_line=formats.hidden_line)
    args = [*config_args, *opts.paths, *opts.mypy_args]
    kernels: list[coverage_report.Entry] | None = None
    if opts.coverage:
        # Every module checked (none from the cache), and in this process, where the coverage is
        # collected: not in mypy's workers (--num-workers, num_workers in a config, or
        # MYPY_NUM_WORKERS; last on the line, this wins), so every kernel is recorded.
        args += ["--no-incremental", "--num-workers", "0"]
    if opts.output == "text" and not filtered:
        # mypy's own output, untouched.
        stdout, stderr, status, kernels = _mypy_covered(["--show-error-codes", *args], opts.coverage)
        sys.stdout.write(stdout)
        sys.stderr.write(stderr)
        if kernels is not None and status != 2:
            sys.stdout.write("".join(line + "\n" for line in coverage_report.text(kernels)))
        return status
    stdout, stderr, status, kernels = _mypy_covered([*args, *_PARSEABLE], opts.coverage)
    parsed = records.parse(stdout)
    shown, hidden = shown_records(parsed.records, signal_first.SourceLines(Path.cwd()), user_config=user_config,
                                  show_all=opts.show_all, traced=signal_first.traced_lines(Path.cwd()))
    fatal: list[str] = []
    if status == 2 or (status != 0 and not parsed.records):
        fatal = [*parsed.other, *stderr.splitlines()]
        status = 2
    elif stderr and opts.output == "text":
        sys.stderr.write(stderr)
    if status != 2:
        status = 1 if any(r.severity == "error" for r in shown) else 0
    report = formats.Report(status, shown, hidden=sum(r.severity == "error" for r in hidden), fatal=fatal)
    if kernels is not None and status != 2:
        report.coverage = [e.to_json() for e in kernels]
    if opts.output == "text":
        code = _text(opts, report, parsed, stderr)
        if kernels is not None and status != 2:
            sys.stdout.write("".join(line + "\n" for line in coverage_report.text(kernels)))
        return code
    return _emit(opts, report)


def _mypy_covered(args: list[str], covered: bool) -> tuple[str, str, int, list[coverage_report.Entry] | None]:
    if not covered:
        return (*_mypy(args), None)
    with coverage.collecting() as collector:
        stdout, stderr, status = _mypy(args)
    return stdout, stderr, status, coverage_report.entries(collector)


def _mypy(args: list[str]) -> tuple[str, str, int]:
    # The plugin reports a bad [pypto-stubs] section on sys.stderr itself (then exits 2):
    # keep that with mypy's own stderr, so it reaches the JSON/SARIF report too.
    plugin_stderr = io.StringIO()
    with contextlib.redirect_stderr(plugin_stderr):
        stdout, stderr, status, twice = records.run(args)
    said = "".join(
        f'pypto-check: {t.path} is a source of its own folder ("{t.first}") and a module its neighbours '
        f'import ("{t.second}"): checked once, as "{t.second}"\n' for t in twice)
    return stdout, said + plugin_stderr.getvalue() + stderr, status


def _text(opts: options.Options, report: formats.Report, parsed: records.Output, stderr: str) -> int:
    ends = "--show-error-end" in opts.mypy_args
    columns = ends or "--show-column-numbers" in opts.mypy_args  # as mypy: an end implies columns
    out = [line for rec in report.records for line in rec.render(columns, ends)]
    out += parsed.other
    if report.status == 2:
        sys.stdout.write("".join(line + "\n" for line in out))
        sys.stderr.write(stderr)
        return 2
    closing = records.summary(report.records, parsed.checked)
    if closing is not None:
        out.append(closing)
    if report.hidden:
        out.append(formats.hidden_line(report.hidden))
    sys.stdout.write("".join(line + "\n" for line in out))
    return report.status


def _emit(opts: options.Options, report: formats.Report) -> int:
    if opts.output == "json":
        sys.stdout.write(formats.to_json(report))
    elif opts.output == "github":
        sys.stdout.write(formats.to_github(report))
    elif opts.output == "sarif":
        sys.stdout.write(formats.to_sarif(report))
    else:
        sys.stderr.write("".join(line + "\n" for line in report.fatal))
    return report.status


if __name__ == "__main__":
    raise SystemExit(main())

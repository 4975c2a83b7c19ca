"""pypto-check's own options (argparse); mypy's go after ``--``, except a documented few."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from ..fix import FIXABLE, STYLES
from .agent_hook import AGENTS
from .catalogue import list_codes

OUTPUTS = ("text", "json", "github", "sarif")

# mypy options pypto-check accepts before "--" (they are common in CI lines); value-taking ones
# take "--opt value" and "--opt=value".
PASSTHROUGH_FLAGS = ("--no-incremental", "--show-column-numbers", "--show-error-end", "--strict")
PASSTHROUGH_VALUES = ("--config-file", "--cache-dir", "--python-version", "--num-workers")

_EPILOG = """\
outputs (--output):
  text    mypy's own lines (file:line: error: message  [code]) and its summary
  json    one object: {"version": 1, "status": N, "errors": [{"path", "line", "column",
          "end_line", "end_column", "severity", "code", "message", "notes": [...]}],
          "hidden": N, "fatal": ["..."]}; columns 1-based, ends inclusive
  github  GitHub Actions workflow commands (::error file=...,line=...,col=...,title=CODE::msg)
  sarif   SARIF 2.1.0, one rule per pypto-* code (GitHub code scanning and other viewers)

signal first: with no mypy config (and no --config-file), only the pypto-* findings and the
mypy errors about PyPTO itself are shown, and a line counts the hidden rest; --all shows them.
With a mypy config everything is shown, as mypy would.

mypy options: put them after "--" (pypto-check k.py -- --strict). Accepted before it too:
  {passthrough}

exit status: 0 nothing to report, 1 findings shown, 2 usage, config or fatal error

codes (pypto-check --explain CODE):
{codes}"""


@dataclass
class Options:
    paths: list[str]
    output: str = "text"
    show_all: bool = False
    mypy_args: list[str] = field(default_factory=list)
    version: bool = False
    list_codes: bool = False
    explain: str | None = None
    fix: bool = False  # write the fixes
    diff: bool = False  # print them as a unified diff, write nothing
    fix_only: frozenset[str] | None = None  # the codes to fix (None: every fixable one)
    fix_styles: tuple[str, ...] = ()  # style rewrites after the fixes (operators, subscript)
    coverage: bool = False  # list every kernel with how it was checked
    hook: str | None = None  # answer a coding agent's post-edit hook ("claude", "opencode")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message} (mypy options go after --; see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    passthrough = " ".join([*PASSTHROUGH_FLAGS, *(f"{v} VALUE" for v in PASSTHROUGH_VALUES)])
    parser = _Parser(
        prog="pypto-check",
        description="Type-check PyPTO kernels with mypy and the pypto-stubs plugin, config or not.",
        epilog=_EPILOG.replace("{passthrough}", passthrough).replace("{codes}", list_codes().rstrip("\n")),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check")
    parser.add_argument("-o", "--output", choices=OUTPUTS, default="text", help="output format (default: text)")
    parser.add_argument("--all", dest="show_all", action="store_true",
                        help="show every mypy error, also without a mypy config")
    parser.add_argument("--version", action="store_true", help="pypto-stubs, mypy and targeted PyPTO versions")
    parser.add_argument("--list-codes", action="store_true", help="list the pypto-* error codes")
    parser.add_argument("--explain", metavar="CODE", help="what CODE catches, with a bad and a fixed snippet")
    parser.add_argument("--coverage", action="store_true",
                        help="also list every kernel with how it was checked: declared shapes, the tensors of "
                             "N call sites, or shapes unknown and why (runs mypy without its cache)")
    parser.add_argument("--hook", choices=AGENTS, metavar="AGENT",
                        help="a coding agent's post-edit hook (claude, opencode): read the hook's JSON on "
                             "standard input, check the edited file, answer block (with the findings) or allow")
    mypy = parser.add_argument_group("mypy options accepted before --")
    for flag in PASSTHROUGH_FLAGS:
        mypy.add_argument(flag, dest=_dest(flag), action="store_true", help=argparse.SUPPRESS)
    for flag in PASSTHROUGH_VALUES:
        mypy.add_argument(flag, dest=_dest(flag), metavar="VALUE", help=argparse.SUPPRESS)
    add_fix_options(parser)
    return parser


def add_fix_options(parser: argparse.ArgumentParser) -> None:
    """The rewrite options, in one place."""
    fixes = parser.add_argument_group("fixes")
    fixes.add_argument("--fix", action="store_true", help="apply the fixes that have one correct form")
    fixes.add_argument("--diff", action="store_true", help="print those fixes as a diff, write nothing")
    fixes.add_argument("--fix-only", metavar="CODE,...", help=f"fix only these codes ({', '.join(FIXABLE)})")
    fixes.add_argument("--fix-style", metavar="STYLE,...",
                       help=f"also rewrite valid code into a preferred form ({', '.join(STYLES)}); "
                            "kept only where the checker's answers and types stay the same")


def _fix_codes(parser: argparse.ArgumentParser, raw: str | None) -> frozenset[str] | None:
    if raw is None:
        return None
    codes = frozenset(c.strip() for c in raw.split(",") if c.strip())
    unknown = sorted(codes - set(FIXABLE))
    if unknown or not codes:
        parser.exit(2, f"pypto-check: --fix-only takes fixable codes ({', '.join(FIXABLE)}), not {', '.join(unknown) or raw!r}\n")
    return codes


def _fix_styles(parser: argparse.ArgumentParser, raw: str | None) -> tuple[str, ...]:
    if raw is None:
        return ()
    styles = tuple(dict.fromkeys(s.strip() for s in raw.split(",") if s.strip()))
    if "ones" in styles:
        # A row sum as a matmul with a ones vector accumulates in another dtype, needs a cube tile
        # the kernel may not set, and covers sum only: not the same kernel, so not a rewrite.
        parser.exit(2, "pypto-check: --fix-style ones is not offered: the ones-vector matmul is not equivalent "
                       "to the reduction (other dtype, a cube tile); see the reduce-align note\n")
    unknown = [s for s in styles if s not in STYLES]
    if unknown or not styles:
        parser.exit(2, f"pypto-check: --fix-style takes {', '.join(STYLES)}, not {', '.join(unknown) or repr(raw)}\n")
    return styles


def _dest(flag: str) -> str:
    return "mypy_" + flag.lstrip("-").replace("-", "_")


def parse(argv: Sequence[str]) -> Options:
    """Exits with status 2 (argparse's) on a usage error."""
    args = list(argv)
    mypy_args: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, mypy_args = args[:cut], args[cut + 1:]
    parser = build_parser()
    ns = parser.parse_args(args)
    styles = _fix_styles(parser, ns.fix_style)
    if styles and not (ns.fix or ns.diff):
        parser.exit(2, "pypto-check: --fix-style needs --fix or --diff\n")
    if ns.fix and ns.diff:
        parser.exit(2, "pypto-check: --fix writes the fixes and --diff only shows them: give one\n")
    if ns.coverage and (ns.fix or ns.diff):
        parser.exit(2, "pypto-check: --coverage reports, --fix/--diff rewrite: give one\n")
    if ns.fix_only is not None and not (ns.fix or ns.diff):
        parser.exit(2, "pypto-check: --fix-only needs --fix or --diff\n")
    before: list[str] = []
    for flag in PASSTHROUGH_FLAGS:
        if getattr(ns, _dest(flag)):
            before.append(flag)
    for flag in PASSTHROUGH_VALUES:
        value = getattr(ns, _dest(flag))
        if value is not None:
            before += [flag, value]
    opts = Options(
        paths=list(ns.paths),
        output=ns.output,
        show_all=ns.show_all,
        mypy_args=before + mypy_args,
        version=ns.version,
        list_codes=ns.list_codes,
        explain=ns.explain,
        fix=ns.fix,
        diff=ns.diff,
        fix_only=_fix_codes(parser, ns.fix_only),
        fix_styles=styles,
        coverage=ns.coverage,
        hook=ns.hook,
    )
    if opts.hook is not None and (opts.paths or opts.fix or opts.diff or opts.coverage):
        parser.exit(2, "pypto-check: --hook reads the edited file from the hook's JSON on standard input: "
                       "give no PATH, --fix, --diff or --coverage\n")
    if not (opts.paths or opts.version or opts.list_codes or opts.explain or mypy_args or opts.hook):
        parser.error("give at least one PATH to check")
    return opts

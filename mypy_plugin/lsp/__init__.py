"""``pypto-lsp``: a language server that shows what the checker knows in the editor: its findings
as you type, the shape, dtype and tiles of a tensor on hover and as inlay hints, and the fixes of
``pypto-check --fix`` as code actions (docs/editor.md). It runs mypy's fine-grained engine with
the plugin in its own process (:mod:`.engine`). Needs the ``lsp`` extra: ``pip install "pypto-stubs[lsp]"``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..versions import pypto_stubs_version


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pypto-lsp", description="The PyPTO checker as a language server (stdio).")
    parser.add_argument("--stdio", action="store_true", help="talk over stdin and stdout (the default and only way)")
    parser.add_argument("--log-file", help="also append the server's log to this file")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--shapes", nargs="+", metavar="PATH",
                        help="print what hovers and inlay hints would show for these files (or folders) as text: "
                             "each kernel's and helper's tensor parameters and tensor assignments with their shape "
                             "and dtype, then exit (needs no lsp extra)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.version:
        print(f"pypto-lsp {pypto_stubs_version()}")
        return 0
    if args.shapes:
        from .shapes import run  # the engine and the hints only: no pygls

        return run(args.shapes, [])
    try:
        from .features import make_server
    except ImportError as err:  # pygls is an optional dependency
        sys.stderr.write(f'pypto-lsp: {err}; install the extra: pip install "pypto-stubs[lsp]"\n')
        return 2
    server = make_server()
    server.log_file = args.log_file
    # The protocol owns stdout: anything else that prints (mypy, the plugin) goes to stderr.
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    server.start_io(stdin, stdout)
    return 0

#!/usr/bin/env python3
"""The plugin changes nothing on code that does not use PyPTO: N modules of Python's own standard
library, copied into a temporary directory, checked by plain mypy and by mypy with the plugin;
the two outputs must be identical, line for line.

    python scripts/plain_mypy_equality.py [-n 54] [--flags=--strict]

Exit status 0 when identical, 1 with a diff otherwise. CI runs a few modules of it
(tests/plugin/test_module_options.py).
"""

from __future__ import annotations

import argparse
import difflib
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

# Pure-Python stdlib modules of all sizes and styles (typed and untyped, classes, closures,
# redefinitions). The first CI_SHARE are what CI checks: a global allow_redefinition changed
# mypy's answers on each of them.
MODULES = [
    "code", "copy", "gettext", "textwrap", "colorsys", "bisect", "fnmatch", "glob", "shlex", "string", "keyword", "heapq",
    "graphlib", "numbers", "secrets", "stat", "this", "base64", "calendar", "cmd",
    "codeop", "csv", "dis", "filecmp", "fileinput", "fractions", "ftplib", "getopt",
    "gzip", "hmac", "imaplib", "ipaddress", "linecache", "mimetypes", "netrc",
    "ntpath", "opcode", "operator", "optparse", "pprint", "quopri", "random", "sched",
    "selectors", "statistics", "struct", "tabnanny", "tempfile", "timeit", "tokenize", "uu",
    "wave", "webbrowser", "zipapp",
]

CI_SHARE = 4


def run_mypy(corpus: Path, plugin: bool, flags: list[str]) -> str:
    cfg = corpus / ("with_plugin.ini" if plugin else "plain.ini")
    cfg.write_text("[mypy]\n" + ("plugins = mypy_plugin\n" if plugin else ""))
    cache = corpus / (".cache_plugin" if plugin else ".cache_plain")
    files = sorted(str(p.name) for p in corpus.glob("std_*.py"))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(cfg), "--cache-dir", str(cache),
         "--no-incremental", "--show-error-codes", *flags, *files],
        cwd=corpus, capture_output=True, text=True, check=False,
    )
    return proc.stdout + proc.stderr


def copy_corpus(n: int, dest: Path) -> list[str]:
    lib = Path(sysconfig.get_paths()["stdlib"])
    taken: list[str] = []
    for name in MODULES:
        src = lib / f"{name}.py"
        if src.is_file():
            # A new name: a file named like a stdlib module would shadow typeshed's stub.
            shutil.copy(src, dest / f"std_{name}.py")
            taken.append(name)
        if len(taken) == n:
            break
    return taken


def compare(n: int, flags: list[str]) -> tuple[bool, str, int]:
    """(identical, diff or the shared output, number of modules)."""
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp)
        taken = copy_corpus(n, corpus)
        plain = run_mypy(corpus, False, flags)
        with_plugin = run_mypy(corpus, True, flags)
    if plain == with_plugin:
        return True, plain, len(taken)
    diff = "".join(difflib.unified_diff(plain.splitlines(True), with_plugin.splitlines(True),
                                        "plain mypy", "mypy with the plugin"))
    return False, diff, len(taken)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=len(MODULES), help="number of stdlib modules (default: all listed)")
    ap.add_argument("--flags", default="", help="extra mypy flags for both runs, e.g. --flags=--strict")
    args = ap.parse_args(argv)
    same, text, count = compare(args.n, shlex.split(args.flags))
    summary = text.strip().splitlines()[-1] if text.strip() else ""
    if same:
        print(f"identical on {count} stdlib modules ({summary})")
        return 0
    print(f"DIFFERENT on {count} stdlib modules:\n{text}")
    return 1


if __name__ == "__main__":
    sys.exit(main())

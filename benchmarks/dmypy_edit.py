#!/usr/bin/env python3
"""What a one-line edit costs the mypy daemon: its own CPU for ``dmypy check`` after each edit.

    python benchmarks/dmypy_edit.py PROJECT CONFIG.ini TARGET... --edit FILE [--edits 3] [--python PY]

PROJECT is a directory ``run.py --workdir`` or ``instructions.py --workdir`` kept (a generated
project or ``corpus``). The daemon is started with CONFIG, checks the TARGETs once (initial) and
once more unchanged; then each edit changes one integer literal of FILE (the first ``name = <int>``
statement inside a function: a one-line edit of a kernel or a test) and runs ``dmypy check``; the
file is put back and checked once more. For each command: the daemon's CPU (user + sys, from
``/proc/<pid>/stat`` before and after: the client's start-up is not the daemon's work), the
client's wall time and mypy's summary line; and the daemon's peak RSS (VmHWM). ``--python``
measures another venv's mypy (with ``PYTHONPATH`` in the environment, another copy of the plugin).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

import run  # noqa: E402  (run.py puts this directory on sys.path)

_LITERAL = re.compile(r"^([ \t]+\w+ = )(\d+)$", re.M)


def edit_once(path: Path, text: str, step: int) -> str:
    """``text`` with the first indented ``name = <int>`` statement's value increased by ``step``."""
    m = _LITERAL.search(text)
    if m is None:
        raise SystemExit(f"{path}: no indented 'name = <int>' line to edit")
    new = text[:m.start(2)] + str(int(m.group(2)) + step) + text[m.end(2):]
    run.write_seen(path, new)  # (a same-size edit within a second would go unseen)
    return new


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=Path)
    ap.add_argument("config")
    ap.add_argument("targets", nargs="+")
    ap.add_argument("--edit", required=True, help="the file edited (relative to PROJECT)")
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    proj = args.project.resolve()
    status, cache, log = proj / ".dmypy-edit.json", proj / ".dmypy-edit-cache", proj / ".dmypy-edit.log"
    shutil.rmtree(cache, ignore_errors=True)
    base = [args.python, "-m", "mypy.dmypy", "--status-file", str(status)]
    target = proj / args.edit
    original = target.read_text()
    pid = None
    rows: list[tuple[str, float, float, str]] = []

    def daemon(label: str, cmd: list[str]) -> None:
        before = run.proc_cpu_s(pid)
        r = run.run_measured([*base, *cmd], proj)
        cpu = run.proc_cpu_s(pid) - before
        rows.append((label, cpu, r["wall"], run.summary_line(r["out"])))
        print(f"{label:28s} daemon CPU {cpu:7.2f} s  wall {r['wall']:7.2f} s  {rows[-1][3]}", file=sys.stderr, flush=True)

    try:
        r = run.run_measured([*base, "start", "--log-file", str(log), "--", "--config-file", args.config,
                              "--cache-dir", str(cache)], proj)
        if r["rc"] != 0:
            raise SystemExit(f"dmypy start failed: {r['out']}")
        pid = json.loads(status.read_text())["pid"]
        daemon("initial check", ["check", *args.targets])
        daemon("no-change check", ["check", *args.targets])
        text = original
        for i in range(args.edits):
            text = edit_once(target, text, 1)
            daemon(f"one-line edit {i + 1} + check", ["check", *args.targets])
        run.write_seen(target, original)
        daemon("revert + check", ["check", *args.targets])
        hwm = run.proc_hwm_mib(pid)
    finally:
        target.write_text(original)
        run.stop_daemon(base, proj, pid, timeout=300, wait_s=10.0)
        shutil.rmtree(cache, ignore_errors=True)
    print(f"| step | daemon CPU | client wall | mypy |\n|---|---|---|---|")
    for label, cpu, wall, summary in rows:
        print(f"| {label} | {cpu:.2f} s | {wall:.2f} s | {summary} |")
    print(f"\ndaemon peak RSS (VmHWM): {hwm:.0f} MiB")


if __name__ == "__main__":
    main()

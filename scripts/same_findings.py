#!/usr/bin/env python3
"""Two installs of the plugin give the same findings, line for line: cold, warm and daemon runs.

    python scripts/same_findings.py --before /path/to/old-venv/bin/python [--after PY]
        [--corpus DIR] [-n 100 1000] [--no-examples] [--no-dmypy] [--workers N] [--keep DIR]

For a cost change (a memo, a cache, a pass skipped) the output must not move. Each project --
the examples, a copy of a directory of real code (``--corpus``, as ``benchmarks/run.py`` checks
it), the generated benchmark at each N -- is checked by both interpreters' mypy with the plugin:

- ``cold``: a fresh cache;
- ``warm``: the same cache again, nothing changed; then ``warm-edit``: after a one-line edit of a
  module (a new module-level name) and ``warm-revert`` after undoing it;
- ``dmypy``: a daemon's first ``check``, after the same edit, and after undoing it.

Every output of ``--before`` must equal the same step's output of ``--after``. Exit status 0 when
all do, 1 with a diff otherwise. Prints a markdown table of the steps and the error counts.

``--workers N`` runs the ``--after`` side's mypy steps in mypy's parallel mode (``--num-workers N``:
worker processes check modules that do not depend on each other), so that one install, given as
both ``--before`` and ``--after``, shows that parallel runs find what a single process finds, cold,
warm and after edits (the daemon has no parallel mode: its steps run as before). Workers report
files in the order they finish, so then each file's lines are compared, in their own order.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import run  # noqa: E402  (benchmarks/run.py: the projects and their configurations)

EDIT = "\n_SAME_FINDINGS_EDIT: int = 1\n"


def mypy(py: str, proj: Path, cache: Path, targets: list[str], workers: int = 0) -> str:
    parallel = ["--num-workers", str(workers)] if workers else []
    proc = subprocess.run([py, "-m", "mypy", "--config-file", "plugin.ini", "--cache-dir", str(cache), *parallel,
                           *targets],
                          cwd=proj, capture_output=True, text=True, env=_env())
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def by_file(output: str) -> dict[str, list[str]]:
    """Each file's lines of mypy's output, in their order (the summary line under "")."""
    found: dict[str, list[str]] = {}
    for line in output.splitlines():
        path = line.split(":", 1)[0] if ":" in line and not line.startswith("Found ") else ""
        found.setdefault(path, []).append(line)
    return found


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYPTO_STUBS_DEBUG", None)  # what users get: an internal failure degrades, it does not raise
    return env


def edited_file(proj: Path, targets: list[str]) -> Path:
    """The module the edit goes into: the first (by name) that mentions pypto."""
    for target in targets:
        for path in sorted((proj / target).rglob("*.py")) if (proj / target).is_dir() else [proj / target]:
            if "pypto" in path.read_text():
                return path
    raise RuntimeError("no module mentions pypto")


def daemon_steps(py: str, proj: Path, targets: list[str], edit: Path) -> dict[str, str]:
    status, cache = proj / ".same-dmypy.json", proj / ".same-dmypy-cache"
    base = [py, "-m", "mypy.dmypy", "--status-file", str(status)]
    original = edit.read_text()
    out: dict[str, str] = {}
    pid = None

    def check() -> str:
        # A crash is an answer too (mypy 2.4.1's daemon crashes on some edits with no plugin at
        # all): both installs must give the same one.
        proc = subprocess.run([*base, "check", *targets], cwd=proj, capture_output=True, text=True, env=_env())
        if proc.returncode in (0, 1):
            return proc.stdout
        # (its traceback names the venv's typeshed: the same crash in both installs reads the same)
        venv = os.path.dirname(os.path.dirname(os.path.abspath(py)))
        return f"{proc.stdout}{proc.stderr}exit {proc.returncode}\n".replace(venv, "VENV")

    try:
        subprocess.run([*base, "start", "--", "--config-file", "plugin.ini", "--cache-dir", str(cache)],
                       cwd=proj, check=True, capture_output=True, env=_env())
        pid = json.loads(status.read_text())["pid"]
        out["dmypy"] = check()
        edit.write_text(original + EDIT)
        out["dmypy-edit"] = check()
        edit.write_text(original)
        out["dmypy-revert"] = check()
    finally:
        edit.write_text(original)
        run.stop_daemon(base, proj, pid)
        shutil.rmtree(cache, ignore_errors=True)
    return out


def steps(py: str, proj: Path, targets: list[str], dmypy: bool, workers: int = 0) -> dict[str, str]:
    cache = Path(tempfile.mkdtemp(prefix=".same-cache-", dir=proj))
    edit = edited_file(proj, targets)
    original = edit.read_text()
    out: dict[str, str] = {}
    try:
        out["cold"] = mypy(py, proj, cache, targets, workers)
        out["warm"] = mypy(py, proj, cache, targets, workers)
        edit.write_text(original + EDIT)
        out["warm-edit"] = mypy(py, proj, cache, targets, workers)
        edit.write_text(original)
        out["warm-revert"] = mypy(py, proj, cache, targets, workers)
    finally:
        edit.write_text(original)
        shutil.rmtree(cache, ignore_errors=True)
    if dmypy:
        out.update(daemon_steps(py, proj, targets, edit))
    return out


def projects(args: argparse.Namespace, work: Path) -> list[tuple[str, Path, list[str]]]:
    found: list[tuple[str, Path, list[str]]] = []
    if args.examples:
        proj, targets = run.write_corpus_project(ROOT / "examples", work / "examples")
        found.append(("examples", proj, targets))
    if args.corpus:
        proj, targets = run.write_corpus_project(args.corpus, work / "corpus")
        found.append((f"corpus ({args.corpus.name})", proj, targets))
    for n in args.sizes:
        run.write_project(n, work / f"n{n}", args.seed)
        found.append((f"N={n}", work / f"n{n}", list(run.TARGETS_DIRS)))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="interpreter of the install to compare against")
    ap.add_argument("--after", default=sys.executable, help="interpreter of the install under test (this one)")
    ap.add_argument("--corpus", type=Path, help="a directory of real code (sub-directories are targets)")
    ap.add_argument("-n", "--sizes", type=int, nargs="*", default=[100], help="generated benchmark sizes")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--no-examples", dest="examples", action="store_false")
    ap.add_argument("--no-dmypy", dest="dmypy", action="store_false")
    ap.add_argument("--workers", type=int, default=0,
                    help="run the --after side's mypy steps with --num-workers N (0: one process)")
    ap.add_argument("--keep", type=Path, help="keep the projects (and both outputs) here")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="same-findings-"))
    work.mkdir(parents=True, exist_ok=True)
    failed = False
    rows = ["| project | step | errors (before) | errors (after) | same |", "|---|---|---|---|---|"]
    try:
        for label, proj, targets in projects(args, work):
            before = steps(args.before, proj, targets, args.dmypy)
            after = steps(args.after, proj, targets, args.dmypy, args.workers)
            for step, old in before.items():
                new = after[step]
                same = old == new or bool(args.workers) and by_file(old) == by_file(new)
                failed = failed or not same
                rows.append(f"| {label} | {step} | {run.summary_line(old)} | {run.summary_line(new)} | "
                            f"{'yes' if same else '**no**'} |")
                if not same:
                    sys.stderr.write(f"--- {label} {step}: before / after differ\n")
                    sys.stderr.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                               "before", "after", n=1))
                if args.keep:
                    (proj / f"{step}.before.txt").write_text(old)
                    (proj / f"{step}.after.txt").write_text(new)
            print(f"{label}: done", file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A compile server for the oracle: imports torch and pypto once, then runs each driver in a
forked child, so a compile costs the compile and not the 3-6 s import.

Protocol (one JSON object per line): stdin ``{"driver": PATH, "timeout": SECONDS}``, stdout
``{"rc": N, "stdout": TEXT, "stderr": TEXT, "plog": PATH or ""}``. EOF on stdin ends the server.

Each child is what ``python DRIVER`` would be, started from the state right after ``import torch,
pypto`` (the server never compiles anything itself): its own session (a timeout kills its whole
group), the driver's directory as cwd and ``sys.path[0]``, ``runpy`` as ``__main__``, stdout and
stderr to files. ``rc`` follows ``subprocess``: the exit status, ``-N`` for a signal, 124 for a
timeout. PyPTO fixes its log directory at import (``$HOME/ascend/log/debug/plog``, the server's
HOME) and names each log file by the writing process' pid: ``plog`` is the child's file.
"""

from __future__ import annotations

import glob
import json
import os
import runpy
import signal
import sys
import tempfile
import time


def _child(driver: str, out_dir: str) -> None:
    os.setsid()
    for fd, name in ((1, "stdout"), (2, "stderr")):
        target = os.open(os.path.join(out_dir, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    os.chdir(os.path.dirname(driver))
    sys.path[0] = os.path.dirname(driver)
    sys.argv = [driver]
    status = 0
    try:
        runpy.run_path(driver, run_name="__main__")
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int) and stop.code is not None:
            print(stop.code, file=sys.stderr)
    except BaseException:  # as the interpreter would: the traceback on stderr, status 1
        import traceback

        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _wait(pid: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return 124
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _read(path: str) -> str:
    try:
        with open(path, errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""


def main() -> None:
    import pypto  # noqa: F401  (the point of the server: imported once)
    import torch  # noqa: F401

    plog_dir = os.path.join(os.environ.get("HOME", ""), "ascend", "log", "debug", "plog")
    protocol = sys.stdout
    print(json.dumps({"ready": True}), file=protocol, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        out_dir = tempfile.mkdtemp(prefix="zygote-")
        protocol.flush()
        pid = os.fork()
        if pid == 0:
            _child(os.path.abspath(request["driver"]), out_dir)
        rc = _wait(pid, float(request["timeout"]))
        logs = sorted(glob.glob(os.path.join(plog_dir, f"pypto-log-{pid}_*.log")))
        reply = {"rc": rc, "stdout": _read(os.path.join(out_dir, "stdout")),
                 "stderr": _read(os.path.join(out_dir, "stderr")), "plog": logs[0] if logs else ""}
        for name in ("stdout", "stderr"):
            try:
                os.remove(os.path.join(out_dir, name))
            except OSError:
                pass
        os.rmdir(out_dir)
        print(json.dumps(reply), file=protocol, flush=True)


if __name__ == "__main__":
    main()

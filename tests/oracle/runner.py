"""Run generated kernels through the real PyPTO 0.2.0 compiler (SIM mode) and through our checker.

Compiler side: each case is written as a module ``case_NNNN.py`` (the kernel only) plus a driver
``run_NNNN.py`` (torch tensors of the annotated shapes/dtypes, one call). Each driver runs alone,
with a timeout, as ``python run_NNNN.py`` would: in a forked child of a compile server that
imported torch and pypto once (``zygote.py``; a compile then costs the compile, not the 3-6 s
import), or with ``PYPTO_ORACLE_FORK=0`` in its own process with its own HOME. Either way the
framework log of that process (the only place a pass-stage failure is explained) is found.

Checker side: ONE mypy invocation over all kernel modules.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import atexit
import glob
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any

from .generator import Case


@functools.cache
def have_pypto() -> bool:
    """pypto 0.2.0 and torch import (asked once per session: the import takes seconds). In a
    subprocess: a broken native library must skip the oracle tests, not take pytest down."""
    try:
        p = subprocess.run([sys.executable, "-c", "import pypto, torch"], capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0

ANSI = re.compile(r"\x1b\[[0-9;]*m")

# (pattern in the root-cause text, our code). Order matters: first match wins.
CODE_RULES: list[tuple[str, str]] = [
    (r"Reduce op: the tileShape of last axis", "pypto-reduce-align"),
    (r"tile shape not set", "pypto-tile-missing"),
    (r"Invalid tile values: kL0=0", "pypto-tile-missing"),
    (r"K-dimension valid shape mismatch", "pypto-matmul-k"),
    (r"has no attribute 'T'", "pypto-transpose"),
    (r"'Tensor' object has no attribute", "pypto-no-method"),
    (r"Tensor\.\w+\(\) takes|where\(\) takes \d+ positional", "pypto-no-method"),
    (r"The dtype of input tensors are not same", "pypto-dtype-mismatch"),
    (r"shape not support binary operation|Only allow to expand one axis|"
     r"must match the size of tensor b \(\d+\) at non-singleton", "pypto-broadcast"),
    (r"Shape size not match|Invalid dstshape|capacity % x == 0|Their size actually are", "pypto-reshape"),
    (r"The number of slice in key \(\d+\) must match the length of input Tensor|"
     r"Assemble: src and dest requires same shape", "pypto-out-shape"),
    (r"TileShape dim num should same to input|Tile shape size \d+ is not matched the output shape size",
     "pypto-tile-rank"),
    (r"Non-FP8 inputs require identical dtypes|Unsupported output data type|unsupported dtype", "pypto-matmul-dtype"),
    (r"Tensor dimension mismatch|batchSize invalid", "pypto-matmul-rank"),
    (r"Axis is not in the reasonable range|Transpose dim \d+ is invalid|The value in dim is out of range", "pypto-axis"),
    (r"Return statements are not allowed|Return annotation is not allowed|Non-tensor parameters must come after|"
     r"function nested is not allowed|ValueError: Invalid value type", "pypto-kernel-signature"),
    (r"Empty tensor\.", "pypto-use-after-move"),
    (r"FwkOp tile shape's last dim is not aligned", "pypto-reshape-align"),
    (r"Compare\(\): incompatible function arguments", "pypto-compare-int"),
    (r"NameError: name '\w+' is not defined", "pypto-kernel-scope"),
    (r"jit\(\) got an unexpected keyword argument|IndexError: map::at", "pypto-jit-keyword"),
    (r"While is not supported by the PTO parser", "pypto-kernel-while"),
    (r"lhs\.size\(\):\d+, rhs\.size\(\):\d+, func Add, file tensor_offset", "pypto-view-rank"),
    (r"\b[mkn] must have (?:exactly 2|2 or 3) elements", "pypto-cube-tile-entries"),
    (r"Errcode: F21003!", "pypto-host-creation"),
    # a dynamic dim (-1 while tracing): a builtin that needs its value, a whole-tensor op on it
    (r"Not concrete value|'SymbolicScalar' object cannot be interpreted as an integer|"
     r"bad operand type for abs\(\): 'SymbolicScalar'|unsupported operand type\(s\) for divmod\(\): 'SymbolicScalar'|"
     r"type SymbolicScalar doesn't define __round__", "pypto-not-concrete"),
    # a shape list holding the symbol (the native function wants ints; each probed)
    (r"(?:View|Reshape|Expand|Full)\(\): incompatible function arguments", "pypto-not-concrete"),
    (r"Cannot convert symbols to int", "pypto-not-concrete"),
    (r"__init__\(\): incompatible constructor arguments\. The following argument types are supported: "
     r"1\. pypto\.pypto_impl\.CubeTile\(\)", "pypto-not-concrete"),  # a cube tile entry that is the symbol  # a slice whose extent is the symbol
    (r"The shape size of tensor must less than or equal to INT32_MAX|operand\d dim\[\d+\] = -1, must be > 0|"
     r"The input shape should > 0", "pypto-dynamic-dim"),
    # an op built on a dtype it does not take (the texts of scripts/probe_op_dtypes.py's rejections)
    (r"Errcode: \w+! (?:The datatype is not supported|This datatype is not supported|The datatype is only support|"
     r"CeilDiv only supports same data type|Inputs datatype not supported|Unsurpported Dtype|`\w+` only supports)",
     "pypto-op-dtype"),
    # the call of a kernel (host cases): 0.2.0's argument binding
    (r"not all tensors are contiguous", "pypto-call-layout"),
    # runtime_debug_mode=3 (on the decorator, or set globally): the call's tensors against the annotations
    (r"ValueError: The number of dimensions of \d+\w+ input tensor", "pypto-call-rank"),
    (r"ValueError: The shape of \d+\w+ input tensor", "pypto-call-shape"),
    (r"ValueError: The dtype of \d+\w+ input tensor", "pypto-call-dtype"),
    (r"Expected at least \d+ tensor argument|Too many positional arguments|Unknown keyword argument|"
     r"Missing required non-tensor argument|must not be a torch\.Tensor|object has no attribute 'device'",
     "pypto-call-args"),
]
# FC4000/FC4001 cube-tile messages other than "kL0=0" (checked after CODE_RULES)
CUBE_RULE = re.compile(r"Errcode: FC400[01]|Invalid L1/L0 relation|must be aligned to 16 elements|"
                       r"must be 32-byte aligned|memory not aligned when transA")

MARKER = re.compile(r"ERROR\s+(\S+?\.py):(\d+):(\d+):")


@dataclass
class CompilerVerdict:
    status: str  # "OK" | "REJECT" | "CRASH" | "TIMEOUT"
    code: str | None = None  # our code family, None = uncovered (or OK)
    line: int | None = None  # from the parser's file:line:col marker
    candidates: list[int] = field(default_factory=list)  # lines the error may sit on when there is no marker
    text: str = ""  # root-cause text (first line)
    plog: str = ""
    stage: str = ""
    file: str = ""  # the file the marker names (its basename; packages: which module)

    @property
    def accepted(self) -> bool:
        return self.status == "OK"

    def short(self) -> str:
        if self.status == "OK":
            return "OK"
        where = f"line {self.line}" if self.line else f"lines {self.candidates}"
        return f"{self.status} {self.code or 'UNCOVERED'} @ {where}: {self.text[:140]}"


LISTING = re.compile(r"^\s*\d+ \| |^Traceback|^During handling|^\s*(lib|pypto_impl)\S*\(")


def _collect(lines: list[str], i: int, first: str) -> str:
    """The message starting at lines[i] (given as `first`) plus its continuation lines."""
    msg = [first.strip()]
    for extra in lines[i + 1:i + 8]:
        e = extra.strip()
        if not e or LISTING.search(extra) or MARKER.search(extra) or e.startswith("location:"):
            if e.startswith("location:"):
                continue
            break
        msg.append(e)
    return " ".join(msg)


def marker_file(text: str) -> str:
    """The basename of the file the first parser marker names ("" without one)."""
    m = MARKER.search(ANSI.sub("", text))
    return os.path.basename(m.group(1)) if m else ""


def _root_cause(text: str) -> tuple[str, int | None, str]:
    """(message, marker line, stage) of the FIRST failure in a compiler log (later ones are cascades)."""
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if "Record function" in ln and "failed:" in ln:
            msg = _collect(lines, i, ln.split("failed:", 1)[1])
            marker = None
            for later in lines[i:]:
                m = MARKER.search(later)
                if m:
                    marker = int(m.group(2))
                    break
            return msg, marker, "trace"
    # failures in EndFunction (the passes) are rendered as "INTERNAL BUG file:1:0: ..." with no useful line
    for i, ln in enumerate(lines):
        m = re.search(r"INTERNAL BUG\s+\S+?\.py:\d+:\d+: (.*)$", ln)
        if m:
            return _collect(lines, i, m.group(1)), None, "compile"
    for i, ln in enumerate(lines):
        m = re.match(r"^(?:[\w.]*\.)?(?:Rendered)?ParserError: (\w+: .*)$", ln.strip())
        if m:
            marker = None
            for later in lines:
                mm = MARKER.search(later)
                if mm:
                    marker = int(mm.group(2))
                    break
            return _collect(lines, i, m.group(1)), marker, "parse"
    for i, ln in enumerate(lines):
        if re.search(r"Errcode: ([A-Z0-9]+)!", ln):
            return _collect(lines, i, ln), None, "compile"
    for ln in reversed(lines):
        m = re.match(r"^(?:[\w.]*\.)?(\w+(?:Error|Exception)): (.*)$", ln.strip())
        if m:
            return f"{m.group(1)}: {m.group(2)}", None, "python"
    tail = [x for x in lines if x.strip()][-1:] or [""]
    return tail[0][:300], None, "unknown"


def map_code(msg: str, plog: str = "") -> str | None:
    for pat, code in CODE_RULES:
        if re.search(pat, msg):
            return code
    if CUBE_RULE.search(msg):
        return "pypto-cube-tile"
    if plog:  # a pass failure: FFFFFF "Run pass failed." is explained only in the framework log
        for pat, code in CODE_RULES:
            if re.search(pat, plog):
                return code
    return None


def plog_first_error(home: str) -> str:
    return _plog_error_in(sorted(glob.glob(os.path.join(home, "ascend", "log", "debug", "plog", "pypto-log-*.log"))))


def classify(case: Case, out: str, rc: int, plog: str) -> CompilerVerdict:
    text = ANSI.sub("", out)
    if rc == 0 and "ORACLE_OK" in text:
        return CompilerVerdict("OK")
    cands = case.op_lines()
    if rc == 124 and text.startswith("TIMEOUT"):
        return CompilerVerdict("TIMEOUT", None, None, cands, "timeout")
    if rc < 0 and "Record function" not in text:
        # a native crash with no Python error: only the generator knows what it wrote
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(rc)
        f = case.features
        code = None
        if f.get("axis_kind") == "oor_neg":
            code = "pypto-axis"  # rule: reduce-negative-axis: a negative out-of-range axis crashes (with or without a tile)
        elif f.get("reduction") and f.get("tile") == "none":
            code = "pypto-tile-missing"  # rule: reduce-without-tile-crashes: a reduction with no vec tile
        return CompilerVerdict("CRASH", code, None, cands, f"process killed by {name}", plog, "native")
    msg, marker, stage = _root_cause(text)
    code = map_code(msg, plog)
    if code == "pypto-kernel-signature" and marker is None:
        cands = [case.def_line] + cands  # signature errors carry no marker; the def line is the cause
    return CompilerVerdict("REJECT", code, marker, cands if marker is None else [], msg, plog, stage,
                           marker_file(text[max(text.find("Record function"), 0):]) if marker is not None else "")


def _plog_error_in(paths: list[str]) -> str:
    for f in paths:
        try:
            with open(f, errors="replace") as fh:
                for line in fh:
                    if "[ERROR]" in line:
                        return re.sub(r"^\[ERROR\] PYPTO\(\d+\):\S+ \S+ ", "", line.strip())
        except OSError:
            pass
    return ""


# ---- compile servers (zygote.py): torch and pypto imported once per server, a fork per driver ----

_ZYGOTE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "zygote.py")
_idle: dict[str, queue.SimpleQueue[subprocess.Popen[str]]] = {}
_all: list[subprocess.Popen[str]] = []
_pool_lock = threading.Lock()


def _use_zygotes() -> bool:
    return os.environ.get("PYPTO_ORACLE_FORK", "1") != "0" and hasattr(os, "fork")


def _start_zygote(python: str) -> subprocess.Popen[str] | None:
    home = tempfile.mkdtemp(prefix="pypto-zygote-")
    env = dict(os.environ, HOME=home, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    with open(os.path.join(home, "server.err"), "w") as err:
        p = subprocess.Popen([python, _ZYGOTE], cwd=home, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=err, text=True, errors="replace", start_new_session=True)
    assert p.stdout is not None
    if p.stdout.readline().strip() != '{"ready": true}':
        p.kill()
        return None
    with _pool_lock:
        _all.append(p)
    return p


@atexit.register
def _stop_zygotes() -> None:
    for p in _all:
        if p.poll() is None and p.stdin is not None:
            try:
                p.stdin.close()
                p.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                p.kill()


def _run_in_zygote(python: str, driver: str, timeout: int) -> tuple[str, int, str] | None:
    """As :func:`_run_subprocess`, in a forked child of a compile server; None when no server
    could be used (the caller then starts a process)."""
    with _pool_lock:
        idle = _idle.setdefault(python, queue.SimpleQueue())
    try:
        server: subprocess.Popen[str] | None = idle.get_nowait()
    except queue.Empty:
        server = _start_zygote(python)
    if server is None or server.stdin is None or server.stdout is None:
        return None
    try:
        server.stdin.write(json.dumps({"driver": os.path.abspath(driver), "timeout": timeout}) + "\n")
        server.stdin.flush()
        reply = json.loads(server.stdout.readline())
    except (OSError, ValueError):
        server.kill()
        return None
    idle.put(server)
    rc = int(reply["rc"])
    if rc == 124:
        return "TIMEOUT\n" + reply["stderr"] + reply["stdout"], 124, ""
    return reply["stderr"] + "\n" + reply["stdout"], rc, _plog_error_in([reply["plog"]] if reply["plog"] else [])


def _run_one(args: tuple[str, str, str, int]) -> tuple[str, int, str]:
    """(stderr + stdout, return code, first plog error) of ``python DRIVER`` (each driver alone,
    as its own process would run it: in a compile server unless PYPTO_ORACLE_FORK=0)."""
    python, driver, home, timeout = args
    if _use_zygotes():
        result = _run_in_zygote(python, driver, timeout)
        if result is not None:
            return result
    return _run_subprocess(args)


def _run_subprocess(args: tuple[str, str, str, int]) -> tuple[str, int, str]:
    python, driver, home, timeout = args
    env = dict(os.environ, HOME=home, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    p = subprocess.Popen([python, os.path.basename(driver)], cwd=os.path.dirname(driver), env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                         start_new_session=True)
    try:
        so, se = p.communicate(timeout=timeout)
        return se + "\n" + so, p.returncode, plog_first_error(home)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        so, se = p.communicate()
        return "TIMEOUT\n" + se + so, 124, ""


def write_cases(cases: list[Case], workdir: str) -> list[str]:
    """Writes case_NNNN.py (kernel) and run_NNNN.py (driver); returns the kernel paths."""
    os.makedirs(workdir, exist_ok=True)
    paths = []
    for i, c in enumerate(cases):
        mod = f"case_{i:04d}"
        path = os.path.join(workdir, mod + ".py")
        write = getattr(c, "write", None)  # a package case writes its folder and names what to check
        if write is not None:
            path = write(workdir, mod)
        else:
            with open(path, "w") as f:
                f.write(c.render())
        with open(os.path.join(workdir, f"run_{i:04d}.py"), "w") as f:
            f.write(c.host_call(mod))
        paths.append(path)
    return paths


def run_compiler(cases: list[Case], workdir: str, python: str | None = None, jobs: int = 2,
                 timeout: int = 120, progress: Any = None) -> list[CompilerVerdict]:
    python = python or sys.executable
    write_cases(cases, workdir)
    jobs_args = []
    for i in range(len(cases)):
        home = os.path.join(workdir, f"home_{i:04d}")
        os.makedirs(home, exist_ok=True)
        jobs_args.append((python, os.path.join(workdir, f"run_{i:04d}.py"), home, timeout))
    results: list[CompilerVerdict | None] = [None] * len(cases)
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(_run_one, a): i for i, a in enumerate(jobs_args)}
        for n, fut in enumerate(cf.as_completed(futs)):
            i = futs[fut]
            out, rc, plog = fut.result()
            with open(os.path.join(workdir, f"log_{i:04d}.txt"), "w") as fh:
                fh.write(f"rc={rc}\nplog: {plog}\n{out}")
            results[i] = classify(cases[i], out, rc, plog)
            if progress:
                progress(n + 1, len(cases))
    return [r for r in results if r is not None]


# --- checker ----------------------------------------------------------------------------------

CHECK_LINE = re.compile(r"^(?P<file>[^:]+\.py):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>error|note): (?P<msg>.*?)"
                        r"(?:  \[(?P<code>[\w-]+)\])?$")


# The note of a finding inside a helper (rule: helper-runs-in-the-trace), one per call of the chain,
# innermost first; host calls of a kernel say "the call at" and are not helper calls.
VIA_NOTE = re.compile(r"with the tensors of the call of \w+ at \S+?:(\d+):")


@dataclass
class CheckerError:
    line: int
    code: str
    msg: str
    via: tuple[int, ...] = ()  # the lines of the helper calls its notes name, innermost first


def run_checker(paths: list[str], workdir: str, python: str | None = None) -> tuple[list[list[CheckerError]], str]:
    """One mypy run (plugin on) over all kernel modules; errors per path, plus the raw output."""
    python = python or sys.executable
    ini = os.path.join(workdir, "mypy-oracle.ini")
    with open(ini, "w") as f:
        # host cases import torch: its types are not needed (the plugin reads torch calls from the source)
        f.write("[mypy]\nplugins = mypy_plugin\n[mypy-torch.*]\nfollow_imports = skip\nignore_missing_imports = True\n")
    cmd = [python, "-m", "mypy", "--config-file", ini, "--no-incremental", "--show-error-codes",
           "--show-column-numbers", "--no-error-summary", "--hide-error-context", "--no-pretty",
           "--cache-dir", os.path.join(workdir, ".mypy_cache"), *[os.path.basename(p) for p in paths]]
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    p = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, env=env, timeout=1200)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed (rc={p.returncode}):\n{p.stdout}\n{p.stderr}")
    index = {os.path.basename(x): i for i, x in enumerate(paths)}
    per: list[list[CheckerError]] = [[] for _ in paths]
    last: tuple[int, CheckerError] | None = None  # notes follow their error, on its line
    for ln in p.stdout.splitlines():
        m = CHECK_LINE.match(ln.strip())
        i = index.get(os.path.basename(m.group("file"))) if m else None
        if not m or i is None:
            continue
        if m.group("sev") == "note":
            via = VIA_NOTE.match(m.group("msg"))
            if via and last is not None and last[0] == i and last[1].line == int(m.group("line")):
                last[1].via += (int(via.group(1)),)
            continue
        last = (i, CheckerError(int(m.group("line")), m.group("code") or "", m.group("msg")))
        per[i].append(last[1])
    return per, p.stdout


# --- single files (regression kernels) ----------------------------------------------------------

def _host_call_for_source(src: str, module: str) -> str:
    """A driver for a kernel module written by hand: reads the literal shapes/dtypes of the first jit
    function's annotations (call or subscript form)."""
    import ast

    from .generator import TORCH_DT

    tree = ast.parse(src)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    out = ["import torch", f"import {module} as m", ""]
    args = []
    for a in fn.args.args:
        ann = a.annotation
        items: list[ast.expr] = []
        if isinstance(ann, ast.Call):
            items = list(ann.args)
        elif isinstance(ann, ast.Subscript):
            sl = ann.slice
            items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        if not items:
            args.append("2.0")
            continue
        shape = ast.literal_eval(items[0])
        dt = "FP32"
        for it in items[1:]:
            if isinstance(it, ast.Attribute) and it.attr.startswith("DT_"):
                dt = it.attr[3:]
        out.append(f"{a.arg} = torch.ones({list(shape)!r}, dtype={TORCH_DT[dt]})")
        args.append(a.arg)
    out.append(f"m.{fn.name}({', '.join(args)})")
    out.append('print("ORACLE_OK", flush=True)')
    return "\n".join(out) + "\n"


def compile_file(path: str, workdir: str, python: str | None = None, timeout: int = 120,
                 debug3: bool = False) -> CompilerVerdict:
    """Compiles one hand-written kernel module (SIM mode must be in its jit decorator); a module
    with a ``run()`` host function is run through it (debug3: with runtime_debug_mode=3)."""
    import shutil

    from .generator import Case

    python = python or sys.executable
    os.makedirs(workdir, exist_ok=True)
    mod = "k_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]) + ("_d3" if debug3 else "")
    shutil.copy(path, os.path.join(workdir, mod + ".py"))
    with open(path) as f:
        src = f.read()
    driver = os.path.join(workdir, "run_" + mod + ".py")
    with open(driver, "w") as f:
        if re.search(r"^def run\(\)", src, re.M):  # a host case: its own run() builds the tensors and calls
            mode = "pypto.set_debug_options(runtime_debug_mode=3)\n" if debug3 else ""
            f.write(f"import pypto\n{mode}import {mod} as m\n\nm.run()\nprint(\"ORACLE_OK\", flush=True)\n")
        else:
            f.write(_host_call_for_source(src, mod))
    home = os.path.join(workdir, "home_" + mod)
    os.makedirs(home, exist_ok=True)
    out, rc, plog = _run_one((python, driver, home, timeout))
    # lines of the kernel body, as candidates for an error without a marker
    body_lines = [i for i, ln in enumerate(src.splitlines(), 1) if ln.startswith("    ") and ln.strip()
                  and not ln.strip().startswith(("#", "pypto.set_"))]
    dummy = Case("file", [], [])
    dummy.stmt_lines = [(ln, "op", "") for ln in body_lines]
    v = classify(dummy, out, rc, plog)
    if v.code == "pypto-jit-keyword":  # raised by the decorator when the module is imported
        v.candidates = [i for i, ln in enumerate(src.splitlines(), 1) if ln.startswith("@") and "jit(" in ln]
    elif v.code == "pypto-kernel-signature" and v.line is None:  # raised by the def (its annotations) on import
        v.candidates = [i for i, ln in enumerate(src.splitlines(), 1) if ln.lstrip().startswith("def ")]
    return v

#!/usr/bin/env python3
"""Benchmark mypy with the pypto-stubs plugin against mypy with the stubs only.

Run it with the interpreter of a venv where ``pypto-stubs`` is installed (non-editable):

    /work/bench-venv/bin/python benchmarks/run.py                 # N = 50 200 1000
    /work/bench-venv/bin/python benchmarks/run.py -n 50 200 --oracle-python /work/oracle-venv/bin/python

For each N it generates a project (``gen_kernels.py``: N kernel modules and N host modules
that call the kernels with ``torch.randn(...)``) in a temp dir and measures:

* ``mypy`` cold (fresh ``--cache-dir``) and warm (same cache, nothing changed): CPU time (user +
  sys), wall time and peak RSS of the mypy process (``os.wait4`` rusage of that one child),
  median of ``--repeat`` runs, configurations alternating run by run, for: ``stubs`` (no
  plugin), ``annotations`` (the plugin's annotation reading only), ``plugin`` and
  ``plugin-ast`` (the plugin on mypy's Python-ast parser, the route it used to force), and
  ``pypto-check`` (the command users run, given the plugin's config: what it adds to mypy);
  mypy reads a small stand-in for torch (``typings/``), not the real package;
* ``dmypy`` (plugin, and stubs for reference): start, initial ``check``, then a one-line edit
  of a literal in one kernel module timed with ``dmypy recheck`` and with
  ``dmypy check kernels hosts``, and an edit of a ``Final`` in the shared ``dims.py`` (fan-out);
  the daemon's peak RSS (VmHWM);
* optionally (``--corpus DIR``), stubs vs plugin on a copy of a directory of real code;
* optionally (``--oracle-python``), the real PyPTO 0.2.0 compiler in SIM mode on one buggy
  kernel (time to its first error) and on one clean kernel (time to a successful compile).

Prints a markdown report; ``--json FILE`` also writes the raw figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_kernels  # noqa: E402

# Kernels have no return annotation (PyPTO forbids one): check untyped defs like pypto-check.
# The host modules import torch, which mypy must not analyse (it would dwarf the kernels, and
# a no-change dmypy check took over 40 s with the installed torch under follow_imports=skip): mypy reads the small
# stand-in gen_kernels writes to typings/ instead (mypy_path comes before site-packages).
FAKE_TORCH = "mypy_path = typings\n"
STUBS_INI = "[mypy]\ncheck_untyped_defs = True\n" + FAKE_TORCH
PLUGIN_INI = "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n" + FAKE_TORCH
# The annotation reading alone (no op hooks): splits the plugin's cost, see annotations_only_plugin.py.
ANNOTATIONS_INI = f"[mypy]\nplugins = {HERE / 'annotations_only_plugin.py'}\ncheck_untyped_defs = True\n" + FAKE_TORCH

CLI = "pypto-check"  # the configuration run through the command, not `python -m mypy`
CONFIGS = {
    # name: (config file, extra mypy args)
    "stubs": ("stubs.ini", []),
    "annotations": ("annotations.ini", []),
    "plugin": ("plugin.ini", []),
    # The plugin on mypy's Python-ast parser (its transform_source route; what it forced before).
    "plugin-ast": ("plugin.ini", ["--no-native-parser"]),
    # The plugin without the host-call checks ([pypto-stubs] host_calls = false): their cost.
    "plugin-no-calls": ("plugin-no-calls.ini", []),
    # The command users run (the plugin's config given to it): what it adds to mypy + plugin.
    CLI: ("plugin.ini", []),
}
TARGETS_DIRS = ["kernels", "hosts"]

# The cost targets of the issue on cost (cold, flat in N, the daemon); warm runs are reported only.
COLD_LIMIT = 2.2
FLAT_SPREAD = 1.10  # "flat": the largest cold CPU ratio within 10% of the smallest, over the sizes run
DAEMON_LIMIT = 2.0
TARGETS = [
    f"plugin / stubs-only <= {COLD_LIMIT}x cold (CPU, and wall where the noise allows)",
    f"that cold CPU ratio flat over the sizes run (largest <= {FLAT_SPREAD:.2f} x smallest)",
    f"dmypy check after a one-line edit <= {DAEMON_LIMIT}x stubs-only's (wall and daemon CPU)",
    "warm runs: reported, no target",
]


# --- process measurement ------------------------------------------------------------------
def run_measured(cmd: list[str], cwd: Path, timeout: float = 3600) -> dict:
    """Run ``cmd``; wall time, CPU time (user + sys) and peak RSS (MiB) of that process alone
    (its threads included; a daemon's work is not: it is another process), exit code, output."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mib": ru.ru_maxrss / 1024.0, "rc": p.returncode,
            "out": text}


def summary_line(text: str) -> str:
    for line in reversed(text.strip().splitlines()):
        if line.startswith(("Found ", "Success")):
            return line
    return text.strip().splitlines()[-1] if text.strip() else ""


def n_errors(text: str) -> int:
    m = re.search(r"Found (\d+) errors?", text)
    return int(m.group(1)) if m else 0


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


# --- mypy ---------------------------------------------------------------------------------
def mypy_cmd(py: str, cfg: str, cache: Path, extra: list[str], targets: list[str] | None = None) -> list[str]:
    return [py, "-m", "mypy", "--config-file", cfg, "--cache-dir", str(cache), *extra,
            *(TARGETS_DIRS if targets is None else targets)]


def command(py: str, name: str, cfg: str, cache: Path, extra: list[str]) -> list[str]:
    if name == CLI:
        return [py, "-m", "mypy_plugin.cli", "--cache-dir", str(cache), *TARGETS_DIRS, "--", "--config-file", cfg,
                *extra]
    return mypy_cmd(py, cfg, cache, extra)


def bench_mypy(py: str, proj: Path, repeat: int, log, configs: dict = CONFIGS) -> dict:
    res: dict[str, dict] = {name: {"cold": [], "warm": [], "cold_cpu": [], "warm_cpu": [], "cold_rss": [],
                                   "warm_rss": []} for name in configs}
    caches: dict[str, Path] = {}
    # Cold runs, interleaved so that machine noise hits every configuration alike.
    for rep in range(repeat):
        for name, (cfg, extra) in configs.items():
            cache = proj / f".cache-{name}-{rep}"
            shutil.rmtree(cache, ignore_errors=True)
            r = run_measured(command(py, name, cfg, cache, extra), proj)
            if r["rc"] not in (0, 1):
                raise RuntimeError(f"mypy ({name}) crashed:\n{r['out'][-3000:]}")
            res[name]["cold"].append(r["wall"])
            res[name]["cold_cpu"].append(r["cpu"])
            res[name]["cold_rss"].append(r["rss_mib"])
            res[name]["summary"] = summary_line(r["out"])
            res[name]["errors"] = n_errors(r["out"])
            res[name]["output"] = r["out"]
            caches[name] = cache
            log(f"    cold {name:11s} {r['wall']:7.2f} s  cpu {r['cpu']:6.2f} s  {r['rss_mib']:6.0f} MiB  "
                f"{res[name]['summary']}")
    # Warm runs: same cache as the last cold run, no change.
    for rep in range(repeat):
        for name, (cfg, extra) in configs.items():
            r = run_measured(command(py, name, cfg, caches[name], extra), proj)
            res[name]["warm"].append(r["wall"])
            res[name]["warm_cpu"].append(r["cpu"])
            res[name]["warm_rss"].append(r["rss_mib"])
            if summary_line(r["out"]) != res[name]["summary"]:
                res[name]["warm_mismatch"] = summary_line(r["out"])
            log(f"    warm {name:11s} {r['wall']:7.2f} s  cpu {r['cpu']:6.2f} s  {r['rss_mib']:6.0f} MiB  "
                f"{summary_line(r['out'])}")
    for name in configs:
        shutil.rmtree(caches[name], ignore_errors=True)
        for rep in range(repeat):
            shutil.rmtree(proj / f".cache-{name}-{rep}", ignore_errors=True)
    return res


def plugin_recall(output: str, manifest: dict) -> dict:
    """Seeded bugs the plugin reported (per file), and errors in files with no seeded bug."""
    buggy = {k["path"] for k in manifest["kernels"] if k["bug"]}
    shown_in: list[str] = []  # the file each pypto error belongs to, in order
    moved = True  # the last error was already moved by its note (or there is none yet)
    for line in output.splitlines():
        m = re.match(r"(\S+?\.py):\d+: error: .*\[(pypto-[\w-]+)\]$", line.strip())
        if m:
            shown_in.append(m.group(1))
            moved = False
            continue
        # A kernel of another module traced with a host call's tensors: the error is shown at the
        # call, and its note names the kernel's line, where the seeded bug is.
        at = re.match(r"\S+?\.py:\d+: note: at (\S+?\.py):\d+, in kernel ", line.strip())
        if at and not moved:
            shown_in[-1] = at.group(1)
            moved = True
    flagged = set(shown_in)
    return {
        "seeded_bugs": sum(1 for k in manifest["kernels"] if k["bug"]),
        "buggy_files": len(buggy),
        "buggy_files_flagged": len(buggy & flagged),
        "clean_files_flagged": sorted(flagged - buggy),
        "missed_files": sorted(buggy - flagged),
    }


# --- dmypy --------------------------------------------------------------------------------
def stop_daemon(base: list[str], proj: Path, pid: int | None, timeout: float = 120, wait_s: float = 5.0) -> None:
    """``dmypy stop``, then wait up to ``wait_s`` for the daemon this run started to exit, and kill
    it by its own pid if it has not."""
    subprocess.run([*base, "stop"], cwd=proj, capture_output=True, timeout=timeout)
    if pid is None:
        return
    for _ in range(int(wait_s * 10)):
        if not Path(f"/proc/{pid}").exists():
            return
        time.sleep(0.1)
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


def proc_hwm_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def proc_cpu_s(pid: int | None) -> float:
    """CPU time (user + sys) a live process has used so far: the daemon's share of a command."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def write_seen(path: Path, text: str) -> None:
    """Write an edit the daemon is sure to see. mypy's file watcher (mypy/fswatcher.py) hashes a
    file again only when its size or the whole second of its mtime changed: an edit of the same
    size within the second of the one before would go unseen, and its check would time nothing.
    So the mtime is moved past the second of the one before."""
    before = path.stat().st_mtime_ns
    path.write_text(text)
    if path.stat().st_mtime_ns // 10**9 <= before // 10**9:
        later = (before // 10**9 + 1) * 10**9
        os.utime(path, ns=(later, later))


def set_eps(path: Path, value: str) -> None:
    text = path.read_text()
    new = re.sub(r"^EPS = .*$", f"EPS = {value}", text, count=1, flags=re.M)
    assert new != text or f"EPS = {value}" in text
    write_seen(path, new)


def set_dims(path: Path, name: str, value: int) -> None:
    text = path.read_text()
    write_seen(path, re.sub(rf"^{name}: Final = \d+$", f"{name}: Final = {value}", text, count=1, flags=re.M))


def bench_dmypy(py: str, proj: Path, cfg: str, edit_file: str, edits: int, log) -> dict:
    status = proj / f".dmypy-{cfg}.json"
    cache = proj / f".cache-dmypy-{cfg}"
    shutil.rmtree(cache, ignore_errors=True)
    base = [py, "-m", "mypy.dmypy", "--status-file", str(status)]
    res: dict = {}
    pid = None

    def daemon(cmd: list[str]) -> dict:
        before = proc_cpu_s(pid)
        r = run_measured([*base, *cmd], proj)
        r["daemon_cpu"] = proc_cpu_s(pid) - before
        if r["rc"] not in (0, 1) or not summary_line(r["out"]).startswith(("Found ", "Success")):
            log_tail = (proj / f".dmypy-{cfg}.log").read_text()[-2000:]
            raise RuntimeError(f"dmypy {' '.join(cmd)} failed (rc={r['rc']}): {r['out'][-2000:]}\nlog: {log_tail}")
        return r
    target = proj / edit_file
    original = target.read_text()
    dims = proj / "kernels" / "dims.py"
    dims_original = dims.read_text()
    try:
        r = run_measured([*base, "start", "--log-file", str(proj / f".dmypy-{cfg}.log"), "--",
                          "--config-file", cfg, "--cache-dir", str(cache)], proj)
        if r["rc"] != 0:
            raise RuntimeError(f"dmypy start failed: {r['out']}")
        res["start"] = r["wall"]
        pid = json.loads(status.read_text())["pid"]
        r = daemon(["check", *TARGETS_DIRS])
        res["initial"] = r["wall"]
        res["initial_summary"] = summary_line(r["out"])
        log(f"    dmypy[{cfg}] start {res['start']:.2f} s, initial check {r['wall']:.2f} s  {res['initial_summary']}")
        # No-change check (what an editor does on every save of an unchanged tree).
        r = daemon(["check", *TARGETS_DIRS])
        res["nochange_check"] = r["wall"]
        rech, chk, rech_cpu, chk_cpu = [], [], [], []
        for i in range(edits):
            # one-line edit of a literal in one kernel module, then `dmypy recheck` (re-checks the
            # files of the last check; the daemon finds the change by stat + hash). `recheck
            # --update FILE` is not usable here: with follow_imports=normal (the default) the
            # mypy 2.4.1 daemon dies on an assertion in cmd_recheck.
            set_eps(target, f"{2 * i + 2}e-06")
            r = daemon(["recheck"])
            rech.append(r["wall"])
            rech_cpu.append(r["daemon_cpu"])
            # another one-line edit, then a plain `check kernels` (what editors run)
            set_eps(target, f"{2 * i + 3}e-06")
            r = daemon(["check", *TARGETS_DIRS])
            chk.append(r["wall"])
            chk_cpu.append(r["daemon_cpu"])
            if summary_line(r["out"]) != res["initial_summary"]:
                res["edit_summary_mismatch"] = summary_line(r["out"])
        res["recheck"] = rech
        res["recheck_cpu"] = rech_cpu
        res["check_after_edit_cpu"] = chk_cpu
        # Untimed sanity check that the daemon sees edits: one added type error must show up.
        write_seen(target, target.read_text() + '\n_BENCH_EDIT_SEEN: int = "edit"\n')
        seen = n_errors(daemon(["recheck"])["out"])
        write_seen(target, original)
        daemon(["check", *TARGETS_DIRS])
        res["edit_seen"] = seen == n_errors(res["initial_summary"]) + 1
        if not res["edit_seen"]:
            log(f"    WARNING: dmypy[{cfg}] did not report the sanity edit ({seen} errors)")
        res["check_after_edit"] = chk
        log(f"    dmypy[{cfg}] recheck {', '.join(f'{x:.3f}' for x in rech)} s; "
            f"check after edit {', '.join(f'{x:.3f}' for x in chk)} s")
        # Fan-out: change a Final dim in the shared dims.py (imported by ~60% of the modules), and back.
        fan = []
        for value in (24, 16):
            set_dims(dims, "SEQ", value)
            r = daemon(["check", *TARGETS_DIRS])
            fan.append(r["wall"])
        res["fanout_dims"] = fan
        log(f"    dmypy[{cfg}] dims.py SEQ edit + check {fan[0]:.2f} s, revert + check {fan[1]:.2f} s")
        res["daemon_hwm_mib"] = proc_hwm_mib(pid)
    finally:
        target.write_text(original)
        dims.write_text(dims_original)
        stop_daemon(base, proj, pid)
        shutil.rmtree(cache, ignore_errors=True)
    return res


# --- the real compiler (optional) -----------------------------------------------------------
TORCH_DT = {"FP32": "torch.float32", "FP16": "torch.float16", "BF16": "torch.bfloat16",
            "INT32": "torch.int32", "INT8": "torch.int8"}

HOST = '''\
import time
_t0 = time.perf_counter()
import json, sys
sys.path.insert(0, {root!r})
import torch, pypto
_t_import = time.perf_counter()
{module}

_args = [{tensors}]
_t_call = time.perf_counter()
try:
    {kernel}(*_args)
    _verdict = "OK"
except BaseException as e:  # the compiler's first error
    _verdict = "ERROR " + type(e).__name__ + ": " + " ".join(str(e).split())[:240]
_t_end = time.perf_counter()
print("ORACLE_RESULT " + json.dumps({{"verdict": _verdict, "import_s": _t_import - _t0,
      "call_s": _t_end - _t_call, "in_process_s": _t_end - _t0}}), flush=True)
'''


def oracle_script(proj: Path, kernel: dict) -> str:
    src = (proj / kernel["path"]).read_text()
    src = src.replace("@pypto.frontend.jit\n",
                      '@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})\n')
    tensors = ", ".join(f"torch.ones({p['shape']!r}, dtype={TORCH_DT[p['dtype']]})" for p in kernel["params"])
    return HOST.format(root=str(proj), module=src, tensors=tensors, kernel=kernel["kernel"])


def pick_oracle_kernels(manifest: dict) -> tuple[dict | None, dict | None]:
    plain = [k for k in manifest["kernels"] if k["template"] not in ("factory", "helper")]
    bad = None
    for kind in ("reduce-align", "matmul-k", "transpose", "broadcast", "reshape"):
        bad = next((k for k in plain if k["bug"] == kind), None)
        if bad:
            break
    good = None
    if bad is not None:
        good = next((k for k in plain if not k["bug"] and k["template"] == bad["template"]), None)
    return bad, good


def bench_oracle(oracle_py: str, py: str, proj: Path, manifest: dict, log) -> dict | None:
    probe = subprocess.run([oracle_py, "-c", "import pypto"], capture_output=True, timeout=300)
    if probe.returncode != 0:
        log(f"  oracle: `{oracle_py} -c 'import pypto'` failed; skipped")
        return None
    bad, good = pick_oracle_kernels(manifest)
    out: dict = {}
    for label, k in (("buggy", bad), ("clean", good)):
        if k is None:
            continue
        script = proj / f"oracle_{label}.py"
        script.write_text(oracle_script(proj, k))
        r = run_measured([oracle_py, str(script)], proj, timeout=600)
        m = re.search(r"^ORACLE_RESULT (.*)$", r["out"], flags=re.M)
        info = json.loads(m.group(1)) if m else {"verdict": f"rc={r['rc']} (no result line)", "import_s": float("nan"),
                                                 "call_s": float("nan"), "in_process_s": float("nan")}
        # The tracer logs the root cause ("Record function K failed: ...") before the exception
        # that surfaces (often a secondary F21004), as shared/oracle/harness.py notes.
        root = re.search(r"Record function \S+ failed: (.*)$", re.sub(r"\x1b\[[0-9;]*m", "", r["out"]), flags=re.M)
        if root and info["verdict"].startswith("ERROR"):
            info["surfaced"] = info["verdict"]
            info["verdict"] = "ERROR " + root.group(1).strip()
            nxt = r["out"][root.end():].strip().splitlines()
            if nxt and "Errcode" in root.group(1):
                info["verdict"] += " " + nxt[0].strip()[:160]
        info.update({"kernel": f"{k['path']}::{k['kernel']}", "bug": k["bug"], "wall": r["wall"],
                     "rss_mib": r["rss_mib"]})
        # The plugin on the same single file, cold cache (what `pypto-check FILE` costs).
        cache = proj / ".cache-single"
        shutil.rmtree(cache, ignore_errors=True)
        rm = run_measured([py, "-m", "mypy", "--config-file", "plugin.ini", "--cache-dir", str(cache), k["path"]], proj)
        shutil.rmtree(cache, ignore_errors=True)
        info["plugin_single_file_cold"] = rm["wall"]
        info["plugin_single_file_summary"] = summary_line(rm["out"])
        out[label] = info
        log(f"  oracle {label}: {info['kernel']} ({k['bug'] or 'no bug'}): total {r['wall']:.1f} s "
            f"(import torch+pypto {info['import_s']:.1f} s, kernel call {info['call_s']:.1f} s) -> {info['verdict'][:120]}")
        log(f"         plugin on that file, cold: {rm['wall']:.2f} s -> {info['plugin_single_file_summary']}")
    return out


# --- report -------------------------------------------------------------------------------
def fmt_s(x: float) -> str:
    return f"{x:.2f} s" if x >= 0.1 else f"{x * 1000:.0f} ms"


def spread(xs: list[float]) -> str:
    """(max - min) / median, in percent: how noisy the runs of one cell were."""
    return f"{100 * (max(xs) - min(xs)) / med(xs):.0f}%" if len(xs) > 1 and med(xs) > 0 else "-"


def report(results: list[dict], oracle: dict | None, meta: dict, corpus: dict | None = None) -> str:
    L: list[str] = []
    L.append(f"Machine: {meta['machine']}; Python {meta['python']}; mypy {meta['mypy']}")
    L.append("Config: `check_untyped_defs = True` everywhere (as `pypto-check`); mypy reads a 20-line "
             "stand-in for torch (`mypy_path = typings`), not the real package; \"stubs\" = no plugin, \"plugin\" = `plugins = mypy_plugin`, both on "
             "mypy's default (native) parser; \"plugin-ast\" = the plugin with `--no-native-parser` (the "
             "Python-ast parser it used to force); \"annotations\" = the plugin's annotation reading only; "
             "\"pypto-check\" = the command, given the plugin's config (what it adds to mypy + plugin). "
             "CPU = user + sys of the mypy process; every figure is the median of the runs shown; "
             "configurations alternate run by run.")
    L.append("")
    for phase in ("cold", "warm"):
        L.append(f"{phase.capitalize()} runs (`{'fresh --cache-dir' if phase == 'cold' else 'same cache, no change'}`):")
        L.append("")
        L.append("| N modules + host modules (kernels, lines) | stubs CPU | plugin CPU | **plugin / stubs CPU** "
                 "| stubs wall | plugin wall | plugin / stubs wall | plugin-ast / stubs CPU | annotations / stubs CPU "
                 "| pypto-check / stubs CPU | spread of runs (stubs / plugin CPU) |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in results:
            m = r["mypy"]
            cpu = {k: med(v[f"{phase}_cpu"]) for k, v in m.items()}
            wall = {k: med(v[phase]) for k, v in m.items()}

            def ratio(name: str, fig: dict = cpu) -> str:
                return f"{fig[name] / fig['stubs']:.2f}x" if name in fig else "-"
            L.append(f"| {r['n']} + {r.get('hosts', 0)} ({r['kernels']}, {r['lines']}) | {fmt_s(cpu['stubs'])} "
                     f"| {fmt_s(cpu['plugin'])} | **{ratio('plugin')}** | {fmt_s(wall['stubs'])} "
                     f"| {fmt_s(wall['plugin'])} | {ratio('plugin', wall)} | {ratio('plugin-ast')} "
                     f"| {ratio('annotations')} | {ratio(CLI)} | {spread(m['stubs'][f'{phase}_cpu'])} / "
                     f"{spread(m['plugin'][f'{phase}_cpu'])} |")
        L.append("")
    L.append("Runs per cell: " + ", ".join(f"N={r['n']}: {r['repeat']}" for r in results) + ".")
    L.append("")
    L.append("Where the cold CPU time goes (each step adds to the one before):")
    L.append("")
    L.append("| N | stubs | + annotations read (mypy checks bodies with precise types) | + op hooks, checks, flows (plugin) "
             "| plugin on the Python-ast parser (before) |")
    L.append("|---|---|---|---|---|")
    for r in results:
        c = {k: med(v["cold_cpu"]) for k, v in r["mypy"].items()}
        ann = (f"{fmt_s(c['annotations'])} (+{c['annotations'] - c['stubs']:.2f} s)" if "annotations" in c else "-")
        plug = (f"{fmt_s(c['plugin'])} (+{c['plugin'] - c.get('annotations', c['stubs']):.2f} s)")
        ast_ = f"{fmt_s(c['plugin-ast'])}" if "plugin-ast" in c else "-"
        L.append(f"| {r['n']} | {fmt_s(c['stubs'])} | {ann} | {plug} | {ast_} |")
    L.append("")
    L.append("peak RSS, cold (max of runs): " + "; ".join(
        f"N={r['n']}: " + ", ".join(f"{k} {max(v['cold_rss']):.0f} MiB" for k, v in r["mypy"].items())
        for r in results))
    L.append("")
    L.append("dmypy (daemon; wall time of the client command, and the daemon's own CPU time for the "
             "command from /proc) details, plugin vs stubs-only:")
    L.append("")
    L.append("| N | config | start | initial check | no-change check | recheck (runs) | check after edit (runs) "
             "| daemon CPU, median: recheck / check after edit "
             "| dims.py Final edit + check / revert + check | daemon peak RSS |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        for cfg, d in r.get("dmypy", {}).items():
            L.append(f"| {r['n']} | {cfg.replace('.ini', '')} | {fmt_s(d['start'])} | {fmt_s(d['initial'])} "
                     f"| {fmt_s(d['nochange_check'])} "
                     f"| {', '.join(fmt_s(x) for x in d['recheck'])} "
                     f"| {', '.join(fmt_s(x) for x in d['check_after_edit'])} "
                     f"| {fmt_s(med(d['recheck_cpu']))} / {fmt_s(med(d['check_after_edit_cpu']))} "
                     f"| {fmt_s(d['fanout_dims'][0])} / {fmt_s(d['fanout_dims'][1])} | {d['daemon_hwm_mib']:.0f} MiB |")
    L.append("")
    L.append("Findings (mypy output summary) and the plugin against the seeded bugs:")
    L.append("")
    for r in results:
        m = r["mypy"]
        rc = r["recall"]
        L.append(f"- N={r['n']}: stubs: {m['stubs']['summary']} (the call-form annotations are `valid-type` errors "
                 f"without the plugin); plugin: {m['plugin']['summary']}"
                 + (f" (plugin-ast: {m['plugin-ast']['summary']})" if "plugin-ast" in m else "")
                 + f"; seeded bugs {rc['seeded_bugs']} in {rc['buggy_files']} files, plugin flagged "
                 f"{rc['buggy_files_flagged']} of those files; missed: {', '.join(rc['missed_files']) or 'none'}; "
                 f"flagged without a seeded bug: {', '.join(rc['clean_files_flagged']) or 'none'}")
    if corpus:
        L.append("")
        L.append(f"Real code ({corpus['label']}; {corpus['files']} files; config: {corpus['config']}):")
        L.append("")
        L.append("| phase | stubs CPU | plugin CPU | **plugin / stubs CPU** | stubs wall | plugin wall | plugin / stubs wall "
                 "| plugin-ast / stubs CPU | pypto-check / stubs CPU | spread (stubs / plugin CPU) |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        m = corpus["mypy"]
        for phase in ("cold", "warm"):
            cpu = {k: med(v[f"{phase}_cpu"]) for k, v in m.items()}
            wall = {k: med(v[phase]) for k, v in m.items()}
            ast_ = f"{cpu['plugin-ast'] / cpu['stubs']:.2f}x" if "plugin-ast" in cpu else "-"
            cli = f"{cpu[CLI] / cpu['stubs']:.2f}x" if CLI in cpu else "-"
            L.append(f"| {phase} | {fmt_s(cpu['stubs'])} | {fmt_s(cpu['plugin'])} | **{cpu['plugin'] / cpu['stubs']:.2f}x** "
                     f"| {fmt_s(wall['stubs'])} | {fmt_s(wall['plugin'])} | {wall['plugin'] / wall['stubs']:.2f}x | {ast_} | {cli} "
                     f"| {spread(m['stubs'][f'{phase}_cpu'])} / {spread(m['plugin'][f'{phase}_cpu'])} |")
        L.append("")
        L.append(f"- stubs: {m['stubs']['summary']}; plugin: {m['plugin']['summary']}; runs per cell: {corpus['repeat']}")
    if oracle:
        L.append("")
        L.append("Real compiler (PyPTO 0.2.0, SIM mode, one process per kernel):")
        L.append("")
        L.append("| kernel | seeded bug | compiler total wall | import torch+pypto | kernel call (trace+compile) | compiler verdict | plugin, that file alone, cold | plugin verdict |")
        L.append("|---|---|---|---|---|---|---|---|")
        for label in ("buggy", "clean"):
            o = oracle.get(label)
            if not o:
                continue
            L.append(f"| `{o['kernel']}` | {o['bug'] or '-'} | {fmt_s(o['wall'])} | {fmt_s(o['import_s'])} | {fmt_s(o['call_s'])} "
                     f"| {o['verdict'][:100]} | {fmt_s(o['plugin_single_file_cold'])} | {o['plugin_single_file_summary']} |")
    L.append("")
    L.append("Targets:")
    for t in TARGETS:
        L.append(f"- {t}")
    L.append("")
    L.append("Verdicts:")
    cold_ratios = []
    for r in results:
        m = r["mypy"]
        for phase in ("cold", "warm"):
            for kind, key in (("CPU", f"{phase}_cpu"), ("wall", phase)):
                ratio = med(m["plugin"][key]) / med(m["stubs"][key])
                verdict = f" -> {'PASS' if ratio <= COLD_LIMIT else 'FAIL'} (<= {COLD_LIMIT}x)" if phase == "cold" else ""
                L.append(f"- N={r['n']} {phase} {kind}: plugin / stubs = {ratio:.2f}x{verdict}")
                if phase == "cold" and kind == "CPU":
                    cold_ratios.append(ratio)
        dp = r.get("dmypy", {}).get("plugin.ini")
        ds = r.get("dmypy", {}).get("stubs.ini")
        if dp and ds:
            for label, key in (("check after a one-line edit", "check_after_edit"), ("recheck", "recheck")):
                for kind, k in (("wall", key), ("daemon CPU", f"{key}_cpu")):
                    # (daemon CPU counts 10 ms clock ticks: each side is taken as at least one)
                    floor = 0.01 if kind == "daemon CPU" else 1e-9
                    ratio = max(med(dp[k]), floor) / max(med(ds[k]), floor)
                    L.append(f"- N={r['n']} dmypy {label}, {kind}: {fmt_s(med(dp[k]))} / {fmt_s(med(ds[k]))} = "
                             f"{ratio:.2f}x -> {'PASS' if ratio <= DAEMON_LIMIT else 'FAIL'} (<= {DAEMON_LIMIT}x)")
    if len(cold_ratios) > 1:
        widest = max(cold_ratios) / min(cold_ratios)
        L.append(f"- cold CPU ratio over N: {', '.join(f'{x:.2f}x' for x in cold_ratios)}; largest / smallest = "
                 f"{widest:.2f} -> {'PASS' if widest <= FLAT_SPREAD else 'FAIL'} (<= {FLAT_SPREAD:.2f})")
    # Growth: the marginal cost per added module between consecutive sizes (a fixed start-up
    # cost dominates small N, so time / N is not a linearity test).
    for a, b in zip(results, results[1:]):
        parts = []
        for name in ("stubs", "plugin"):
            for phase in ("cold", "warm"):
                d = (med(b["mypy"][name][f"{phase}_cpu"]) - med(a["mypy"][name][f"{phase}_cpu"])) / (b["n"] - a["n"])
                parts.append(f"{name} {phase} {1000 * d:.2f}")
        L.append(f"- marginal CPU ms per added module (+ its host module), N={a['n']} -> {b['n']}: " + "; ".join(parts))
    return "\n".join(L)


CORPUS_INI = ("[mypy]\n{plugin}check_untyped_defs = True\nignore_missing_imports = True\n\n"
              "[mypy-torch,torch.*,numpy,numpy.*]\nfollow_imports = skip\n")


def write_corpus_project(src: Path, work: Path) -> tuple[Path, list[str]]:
    """A copy of a directory of real code with every configuration's ini file, and the mypy
    targets: each sub-directory of flat scripts (no packages) is a target of its own."""
    proj = work / "corpus"
    shutil.rmtree(proj, ignore_errors=True)
    shutil.copytree(src, proj / "src", ignore=shutil.ignore_patterns(".*", "*.ini", "__pycache__"))
    (proj / "stubs.ini").write_text(CORPUS_INI.format(plugin=""))
    (proj / "plugin.ini").write_text(CORPUS_INI.format(plugin="plugins = mypy_plugin\n"))
    (proj / "plugin-no-calls.ini").write_text(CORPUS_INI.format(plugin="plugins = mypy_plugin\n")
                                              + "\n[pypto-stubs]\nhost_calls = false\n")
    (proj / "annotations.ini").write_text(CORPUS_INI.format(plugin=f"plugins = {HERE / 'annotations_only_plugin.py'}\n"))
    targets = sorted(str(d.relative_to(proj)) for d in (proj / "src").iterdir()
                     if d.is_dir() and any(d.glob("*.py"))) or ["src"]
    return proj, targets


def bench_corpus(py: str, src: Path, work: Path, repeat: int, configs: dict, log) -> dict:
    """stubs vs plugin on a copy of real code (a directory of .py files, e.g. the public PyPTO code)."""
    proj, targets = write_corpus_project(src, work)
    files = sum(1 for _ in (proj / "src").rglob("*.py"))
    global TARGETS_DIRS
    saved, TARGETS_DIRS = TARGETS_DIRS, targets
    try:
        log(f"corpus {src}: {files} files")
        res = bench_mypy(py, proj, repeat, log, configs)
    finally:
        TARGETS_DIRS = saved
        shutil.rmtree(proj, ignore_errors=True)
    for v in res.values():
        v.pop("output", None)
    return {"label": src.name, "files": files, "repeat": repeat, "mypy": res,
            "config": "`check_untyped_defs`, `ignore_missing_imports`, torch and numpy `follow_imports = skip`"}


def write_project(n: int, proj: Path, seed: int) -> dict:
    """The generated project of size ``n`` with every configuration's ini file; its manifest."""
    manifest = gen_kernels.generate(n, proj, seed=seed)
    (proj / "stubs.ini").write_text(STUBS_INI)
    (proj / "plugin.ini").write_text(PLUGIN_INI)
    (proj / "plugin-no-calls.ini").write_text(PLUGIN_INI + "\n[pypto-stubs]\nhost_calls = false\n")
    (proj / "annotations.ini").write_text(ANNOTATIONS_INI)
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--sizes", type=int, nargs="*", default=[50, 200, 1000], help="sizes (none: --corpus only)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per cell (medians are reported)")
    ap.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS),
                    help="mypy configurations to measure (stubs and plugin are always included)")
    ap.add_argument("--corpus", type=Path, help="also measure stubs vs plugin on a copy of this directory of real code")
    ap.add_argument("--no-dmypy", action="store_true", help="skip the daemon measurements")
    ap.add_argument("--edits", type=int, default=3, help="dmypy edits (each: recheck, then check)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--python", default=sys.executable, help="interpreter whose mypy/pypto-stubs are measured")
    ap.add_argument("--oracle-python", help="interpreter with pypto 0.2.0 + torch (optional)")
    ap.add_argument("--no-dmypy-stubs", action="store_true", help="skip the stubs-only dmypy reference")
    ap.add_argument("--workdir", type=Path, help="keep the generated projects here (default: a temp dir, removed)")
    ap.add_argument("--json", type=Path, help="also write the raw figures here")
    args = ap.parse_args()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    ver = subprocess.run([args.python, "-m", "mypy", "--version"], capture_output=True, text=True).stdout.strip()
    probe = subprocess.run([args.python, "-c", "import mypy_plugin, os, sysconfig; "
                            "print(os.path.isdir(os.path.join(sysconfig.get_paths()['purelib'], 'pypto-stubs')))"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or "True" not in probe.stdout:
        sys.exit(f"{args.python}: mypy_plugin / pypto-stubs are not installed (pip install . , not -e)")
    meta = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "mypy": ver,
    }
    root = args.workdir or Path(tempfile.mkdtemp(prefix="pypto-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    results: list[dict] = []
    oracle = None
    corpus = None
    configs = {k: v for k, v in CONFIGS.items() if k in {"stubs", "plugin", *args.configs}}
    try:
        if args.corpus:
            corpus = bench_corpus(args.python, args.corpus, root, args.repeat, configs, log)
        for n in args.sizes:
            proj = root / f"n{n}"
            manifest = write_project(n, proj, args.seed)
            repeat = args.repeat
            log(f"N={n}: {manifest['n_kernels']} kernels, {manifest['n_buggy']} with a seeded bug, "
                f"{manifest['lines']} lines, {manifest['host_modules']} host modules; {repeat} run(s) per cell")
            r = {"n": n, "kernels": manifest["n_kernels"], "lines": manifest["lines"] + manifest["host_lines"],
                 "hosts": manifest["host_modules"], "repeat": repeat}
            r["mypy"] = bench_mypy(args.python, proj, repeat, log, configs)
            r["recall"] = plugin_recall(r["mypy"]["plugin"]["output"], manifest)
            edit_file = manifest["kernels"][len(manifest["kernels"]) // 2]["path"]
            r["dmypy_edit_file"] = edit_file
            r["dmypy"] = {}
            cfgs = [] if args.no_dmypy else ["plugin.ini"] + ([] if args.no_dmypy_stubs else ["stubs.ini"])
            for cfg in cfgs:
                r["dmypy"][cfg] = bench_dmypy(args.python, proj, cfg, edit_file, args.edits, log)
            for name in configs:
                r["mypy"][name].pop("output", None)
            results.append(r)
            if args.oracle_python and oracle is None:
                oracle = bench_oracle(args.oracle_python, args.python, proj, manifest, log)
            if not args.workdir:
                shutil.rmtree(proj, ignore_errors=True)
    finally:
        if not args.workdir:
            shutil.rmtree(root, ignore_errors=True)
    if args.json:  # (first: the figures survive a report that fails)
        args.json.write_text(json.dumps({"meta": meta, "results": results, "oracle": oracle, "corpus": corpus}, indent=1))
    text = report(results, oracle, meta, corpus)
    print(text)


if __name__ == "__main__":
    main()

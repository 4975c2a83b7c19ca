#!/usr/bin/env python3
"""Where the plugin's cold CPU goes: one in-process cold mypy run, split by thread CPU time.

    python benchmarks/cost_split.py PROJECT_DIR CONFIG.ini [TARGET ...]   # targets: kernels hosts

PROJECT_DIR is a project ``run.py --workdir`` kept (or any directory with the config). Prints
the process CPU (user + sys), the main thread's CPU, the parser threads' (the rest), and inside
those: the source rewrite (``native_parse`` calls it in the parser threads), the native parse
itself, and the time inside each kind of plugin hook (outermost hook call only: a hook that
makes mypy check a kernel copy counts that checking too). What is left on the main thread is
mypy's own work. ``--profile FUNC`` (``module.function`` or ``module.Class.method``, repeatable) also times those plugin
functions. Not a benchmark (timers cost a little): a split, to compare configurations.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

_HOOK_GETTERS = ("get_type_analyze_hook", "get_function_hook", "get_method_hook", "get_attribute_hook",
                 "get_function_signature_hook", "get_method_signature_hook")


class Timers:
    def __init__(self) -> None:
        self.cpu: collections.defaultdict[str, float] = collections.defaultdict(float)
        self.calls: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        self._active: set[str] = set()  # main thread only: outermost calls

    def add(self, key: str, seconds: float) -> None:
        with self._lock:
            self.cpu[key] += seconds
            self.calls[key] += 1

    def wrap(self, key: str, func: Callable[..., Any], main_thread: bool = True) -> Callable[..., Any]:
        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if main_thread and key in self._active:
                return func(*args, **kwargs)
            if main_thread:
                self._active.add(key)
            start = time.thread_time()
            try:
                return func(*args, **kwargs)
            finally:
                if main_thread:
                    self._active.discard(key)
                self.add(key, time.thread_time() - start)
        return timed


def _patch_plugin(timers: Timers) -> None:
    import ast_serialize
    from mypy_plugin import main as plugin_main
    from mypy_plugin.rewrite import native_parse

    if hasattr(native_parse, "rewrite_for_parser"):
        native_parse.rewrite_for_parser = timers.wrap("threads: source rewrite", native_parse.rewrite_for_parser, False)
    ast_serialize.parse = timers.wrap("threads: native parse (and the wrapper's checks)", ast_serialize.parse, False)
    hook_kinds = {"get_type_analyze_hook": "type-analyze", "get_function_hook": "function",
                  "get_method_hook": "method", "get_attribute_hook": "attribute",
                  "get_function_signature_hook": "function-signature", "get_method_signature_hook": "method-signature"}
    for getter in _HOOK_GETTERS:
        base = getattr(plugin_main.PyptoPlugin, getter, None)
        if base is None:
            continue

        def make(base: Callable[..., Any], kind: str) -> Callable[..., Any]:
            lookup = timers.wrap("main: get_*_hook (choosing the hook)", base)

            def get(self: Any, fullname: str) -> Any:
                hook = lookup(self, fullname)
                if hook is None:
                    return None
                name = getattr(hook, "__qualname__", "?").split(".<locals>")[0]
                return timers.wrap(f"main: {kind} hook {name}", hook)
            return get
        setattr(plugin_main.PyptoPlugin, getter, make(base, hook_kinds[getter]))
    plugin_main.PyptoPlugin.report_config_data = timers.wrap(  # type: ignore[method-assign]
        "main: report_config_data", plugin_main.PyptoPlugin.report_config_data)


def _patch_functions(timers: Timers, names: list[str]) -> None:
    for spec in names:
        module_name, _, attr = spec.rpartition(".")
        owner: Any = None
        try:
            owner = importlib.import_module(module_name)
        except ModuleNotFoundError:  # module.Class.method
            module_name, _, cls = module_name.rpartition(".")
            owner = getattr(importlib.import_module(module_name), cls)
        func = getattr(owner, attr)
        timed = timers.wrap(f"  [{spec}]", func)
        for other in list(sys.modules.values()):  # the importers' names too
            if getattr(other, "__name__", "").startswith("mypy_plugin") and getattr(other, attr, None) is func:
                setattr(other, attr, timed)
        setattr(owner, attr, timed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", type=os.path.abspath)
    ap.add_argument("config")
    ap.add_argument("targets", nargs="*", default=["kernels", "hosts"])
    ap.add_argument("--profile", action="append", default=[], metavar="FUNC")
    args = ap.parse_args()
    os.environ.pop("PYPTO_STUBS_DEBUG", None)  # the debug switch adds the full rewrite guard
    os.chdir(args.project)
    import mypy.api
    timers = Timers()
    _patch_plugin(timers)
    _patch_functions(timers, args.profile)
    cache = tempfile.mkdtemp(prefix="cost-split-")
    try:
        r0, m0 = resource.getrusage(resource.RUSAGE_SELF), time.thread_time()
        out, _, _ = mypy.api.run(["--config-file", args.config, "--cache-dir", cache, *args.targets])
        r1, m1 = resource.getrusage(resource.RUSAGE_SELF), time.thread_time()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    main_cpu = m1 - m0
    hooks = sum(v for k, v in timers.cpu.items() if k.startswith("main:"))
    print(f"{args.config}: {out.splitlines()[-1] if out else ''}")
    print(f"process CPU {cpu:.2f} s = main thread {main_cpu:.2f} s (plugin hooks {hooks:.2f} s, mypy "
          f"{main_cpu - hooks:.2f} s) + parser threads {cpu - main_cpu:.2f} s")
    for key, seconds in sorted(timers.cpu.items(), key=lambda kv: -kv[1]):
        print(f"  {key:70s} {seconds:7.2f} s  x{timers.calls[key]}")


if __name__ == "__main__":
    main()

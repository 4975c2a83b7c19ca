"""The mypy options a PyPTO module needs, applied to that module only (never to the rest).

Kernels rebind names to tensors of other shapes (``t = pypto.reshape(t, ...)``: mypy's
``allow_redefinition``), and kernels are often nested in unannotated test functions, whose
bodies mypy skips (``check_untyped_defs``). Setting either globally changes mypy's answers on
code that never uses PyPTO, so the plugin sets them on the module's own ``Options``:

- a module that imports pypto gets a copy of its own from the ``# mypy:`` line the source rewrite
  appends to it (``rewrite/module_marker.INLINE_OPTIONS``: mypy's native parser reads it from the
  rewritten text); every other module keeps mypy's shared options. On mypy's Python-ast parser,
  which reads ``# mypy:`` lines before the rewrite, one catch-all per-module section
  (``[mypy-*.*]``, empty, added at load) gives every module a copy instead: mypy then builds a
  new one at every lookup, which costs a sixth of a warm run (why it is not the default);
- while mypy analyzes a tensor annotation or the module marker (the type-analyze hook, before
  the module is type checked), the plugin sets the two options on that module's copy.

A module that does not import pypto (its tensor types re-exported by another module) keeps
mypy's options on the native parser: add ``import pypto`` to it (its call-form annotations need
it too). mypy computes a module's cache key from the global options, not from this copy, so cached
results stay valid; the change is a function of the module's source and of the plugin (part of
the cache key), so cold, warm and daemon runs agree. (On the Python-ast parser, a module with a
section of its own, ``[mypy-kernels.attn]``, shares mypy's cached copy: the first warm run after
a cold one rechecks it once, then the cache holds.)
"""

from __future__ import annotations

from typing import Final

from mypy.options import Options

_EVERY_MODULE: Final = "*.*"  # an "unstructured" glob: matched by every module name


def prepare(options: Options) -> None:
    """Called at plugin load, before mypy builds its per-module option cache."""
    if getattr(options, "_per_module_cache", None) is None and _EVERY_MODULE not in options.per_module_options:
        # A new dict, not an edit in place: dmypy compares the options it was started with
        # (a snapshot that shares this dict) to the next run's, and would restart every run.
        options.per_module_options = {**options.per_module_options, _EVERY_MODULE: {}}


class ModuleOptions:
    def __init__(self, global_options: Options, rebind: bool) -> None:
        self.global_options = global_options
        self.rebind = rebind

    def apply(self, api: object) -> None:
        """``api`` is mypy's TypeAnalyser for the module that has a tensor annotation."""
        options = getattr(api, "options", None)
        semanal = getattr(api, "api", None)
        if not isinstance(options, Options) or options is self.global_options:
            return  # no copy of its own (mypy internals moved): change nothing rather than everything
        is_stub = getattr(semanal, "is_stub_file", True)
        if is_stub is not False:
            return  # the stubs themselves, or no way to tell
        options.check_untyped_defs = True
        # mypy refuses allow_redefinition without local_partial_types (on by default).
        if self.rebind and options.local_partial_types:
            options.allow_redefinition = True

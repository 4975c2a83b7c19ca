"""Modules imported when first used, not when mypy loads the plugin.

A warm run (every module fresh in mypy's cache) calls none of the checking hooks, yet importing
them all cost more than the rest of the plugin's part of that run. :func:`lazy` gives the module
object at once; its code runs at the first attribute read (``importlib.util.LazyLoader``), and from
then on it is the plain module. Only what mypy's main thread uses goes through here: the source
rewrite runs in mypy's parser threads and is imported as usual.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module ``name`` (absolute), loaded now if its package already loaded it, else on first use."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    parent_name, _, child = name.rpartition(".")
    parent = importlib.import_module(parent_name) if parent_name else None
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return importlib.import_module(name)  # (raises as a plain import would)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if parent is not None:
        setattr(parent, child, module)  # as the import system binds a submodule on its package
    return module

"""Keeps mypy on its native parser: the source rewrite runs inside ``ast_serialize.parse``.

mypy 2.4 honours ``Options.transform_source`` only in its (slower) Python-ast parser. Its native
parser calls the module attribute ``ast_serialize.parse(fnam, source, ...)`` from
``mypy.nativeparse.parse_to_binary_ast``; being an attribute lookup, even the compiled caller
sees a wrapper put there. The wrapper hands the rewritten source to the real function and puts
back the hash of the *original* bytes (mypy compares it with the file's hash to decide whether a
cached module is fresh). Every path that parses -- cold, warm re-parse of stale dependents,
dmypy, ``--num-workers`` workers -- goes through that one function.

The wrapper is process-wide, but it only rewrites for builds whose options this plugin saw:
mypy passes ``options.always_true`` (a list owned by that build's ``Options`` and shared by its
per-module copies) to every call, and the wrapper looks its identity up. Another build in the same
process without the plugin (an in-process ``mypy.api.run``) is left alone.

Internals, so guarded: mypy's version, then a probe parse through ``mypy.nativeparse`` that must
reach the wrapper, come back rewritten and carry the original hash. Otherwise the caller falls back
to the Python-ast parser with ``transform_source`` (one line on stderr says so).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, Final

from mypy.options import Options
from mypy.util import decode_python_encoding, hash_digest

from . import parse_count, parsed_trees
from .transform import rewrite_for_parser

TESTED_MYPY: Final = "2.4."  # the call site, result tuple and hash key were read in 2.4.1
_MARK: Final = "__pypto_stubs_original__"
_PROBE_NAME: Final = "<pypto-stubs native parser probe>.py"
_PROBE_SOURCE: Final = "import pypto\n\ndef k(x: pypto.Tensor([8, 16], pypto.DT_FP32)) -> None: ...\n"

# id(options.always_true) -> that list: kept alive so that its id is never reused by another list.
_builds: dict[int, list[str]] = {}
_lock: Final = threading.Lock()
_outcome: list[str | None] = []  # [] before the first attempt, then [None] (usable) or [reason]
rewritten_files: set[str] = set()  # files the wrapper rewrote in this process (the probe, and tests, read it)


def _registered(always_true: object) -> bool:
    return _builds.get(id(always_true)) is always_true


def register(options: Options) -> None:
    """Rewrite in the parses of this build (its options and any per-module override lists)."""
    lists = [options.always_true]
    for overrides in options.per_module_options.values():
        value = overrides.get("always_true")
        if isinstance(value, list):
            lists.append(value)
    for value in lists:
        _builds[id(value)] = value


def _original_bytes(fnam: str, source: object) -> bytes | None:
    if source is None:
        try:
            with open(fnam, "rb") as f:
                return f.read()
        except OSError:
            return None  # the real parse reports it
    if isinstance(source, str):
        try:
            return source.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return source if isinstance(source, bytes) else None


# mypy parses files in threads; CPython's ast module keeps one recursion counter per interpreter,
# so two threads building trees at once can corrupt it ("SystemError: AST constructor recursion
# depth mismatch", CPython issue 106905, seen here on 3.11): one rewrite at a time.
_REWRITE_LOCK: Final = threading.Lock()


def _make_wrapper(original: Callable[..., Any]) -> Callable[..., Any]:
    def parse(fnam: str, source: object = None, *args: Any, **kwargs: Any) -> Any:
        parse_count.parsed(fnam if isinstance(fnam, str) else None)
        if not _registered(kwargs.get("always_true")):
            return original(fnam, source, *args, **kwargs)
        data = _original_bytes(fnam, source)
        # Fast path: a file that never mentions pypto is the real parser's alone.
        if data is None or b"pypto" not in data:
            return original(fnam, source, *args, **kwargs)
        try:
            text = source if isinstance(source, str) else decode_python_encoding(data)
        except Exception:  # undecodable: the real parse reports it
            return original(fnam, source, *args, **kwargs)
        # the text itself if unchanged; the parse (a module that may call its own kernels) and
        # what its calls may call are left for its host evaluation. Not the probe's: nothing
        # evaluates it, and keeping its summary imports the tracer in a run that checks nothing.
        keep = None if fnam == _PROBE_NAME else (lambda tree, walk: parsed_trees.keep(fnam, data, text, tree, walk))
        with _REWRITE_LOCK:
            new_text, unparsed = rewrite_for_parser(text, keep=keep)
        if new_text is text or not isinstance(new_text, str):
            return original(fnam, source, *args, **kwargs)
        try:
            result = original(fnam, new_text, *args, **kwargs)
        except ValueError:
            return original(fnam, source, *args, **kwargs)
        if unparsed and result[1]:
            return original(fnam, source, *args, **kwargs)  # the rewrite does not parse: as written
        # Freshness is judged on the file as written, not on what the parser was given.
        result[4]["source_hash"] = hash_digest(data)
        rewritten_files.add(fnam)
        return result

    setattr(parse, _MARK, original)
    return parse


def _probe() -> str | None:
    """Why the wrapped native parser cannot be used (None: it can)."""
    import mypy.nativeparse
    from mypy.version import __version__

    if not __version__.startswith(TESTED_MYPY):
        return f"mypy {__version__} is not {TESTED_MYPY}x"
    options = Options()
    register(options)
    try:
        tree, _, _ = mypy.nativeparse.native_parse(_PROBE_NAME, options, _PROBE_SOURCE)
        raw = tree.raw_data
        if _PROBE_NAME not in rewritten_files:
            return "ast_serialize.parse is no longer what mypy.nativeparse calls"
        if raw is None or raw.source_hash != hash_digest(_PROBE_SOURCE.encode("utf-8")):
            return "the native parser's source_hash is not where it was"
    except Exception as err:  # any change of shape: fall back, never crash mypy
        return f"the native parser changed ({type(err).__name__}: {err})"
    finally:
        _builds.pop(id(options.always_true), None)
    return None


def _install() -> str | None:
    try:
        import ast_serialize
    except ImportError:
        return "mypy's native parser (ast_serialize) is not installed"
    current = getattr(ast_serialize, "parse", None)
    if not callable(current):
        return "ast_serialize.parse is missing"
    if not hasattr(current, _MARK):
        ast_serialize.parse = _make_wrapper(current)
    reason = _probe()
    if reason is not None and hasattr(ast_serialize.parse, _MARK):
        ast_serialize.parse = getattr(ast_serialize.parse, _MARK)
    return reason


def enable(options: Options) -> bool:
    """Wrap the native parser (once per process) for this build; False: use the fallback."""
    with _lock:
        if not _outcome:
            reason = _install()
            _outcome.append(reason)
            if reason is not None:
                sys.stderr.write(f"pypto-stubs: {reason}; using mypy's slower Python-ast parser instead\n")
        if _outcome[0] is not None:
            return False
        register(options)
        return True

"""Source rewrite applied as mypy parses each file (``Options.transform_source``).

Real PyPTO code annotates parameters in the call form ``pypto.Tensor([8, 64], pypto.DT_FP32)``,
which mypy's parser drops (and then reports ``valid-type``). This rewrite turns each tensor
annotation into the subscript form mypy can read, keeping every line where it is and, in the
common cases, every column too:

- ``Tensor([8, 64], DT, format=F)`` -> ``Tensor[[8, 64], DT,        F]``; ``name=``/``device=``...
  become ``None``; ``Tensor()`` -> bare ``Tensor``; ``Tensor((8, 16), DT)`` -> ``Tensor[[8, 16], DT]``.
- ``Tensor[{'shape': [8, 16], 'dtype': DT}]`` -> ``Tensor[          [8, 16],          DT ]``;
  a tensor name (``"x"``) becomes ``0`` (mypy would read a string as a forward reference).
- A dim that is an expression (``n * 2``, ``cfg.get("rows", 8)``) becomes the string
  ``'=n * 2'`` for the type hook; a shape it cannot read (``[*S, 8]``, ``{**SPEC}``,
  ``x.shape``) becomes ``...`` and an item it cannot read "some dtype".
- A shape or dtype that is a module-level alias (``_QKG = [...]``, ``HALF = pypto.DT_FP16``)
  is inlined (that line's later columns shift), and so is a kernel factory's own, bound once
  before the kernel's ``def`` and never changed (``local_aliases.py``).
- UPPER_CASE module constants holding an int or a tuple of ints, bound once and never rebound
  in the module (no star import), get their value as their declared type
  (``ROWS: _PyptoStubsConst[8] = 8`` is an int that knows it is 8, not ``Final``: other modules
  may still assign it), so mypy records their values in the module interface: other modules see
  them, and a changed value rechecks its users in incremental and daemon runs.
- ``s: dtype``, a closure parameter used as a (scalar) parameter's annotation, reads as ``Any``.
- A jit kernel with annotated parameters and no return annotation gets
  ``-> _PyptoStubsKernelReturn`` (None; ``kernel_returns.py``), for ``--strict``.
- ``; from typing import ForwardRef as _PyptoStubsConst`` (and ``Any``) is appended to a simple
  module-level statement.
- A module that imports pypto gets ``# mypy: check-untyped-defs`` as a new last line: its own copy
  of mypy's options, for the PyPTO module options (``module_marker.INLINE_OPTIONS``).

Every replacement keeps the line breaks of the text it replaces, and the result is re-parsed
and compared with the input (:mod:`rewrite_guard`): if it does not parse, or any statement,
name or constant moved line or changed, or anything raises, the input is returned unchanged
(``PYPTO_STUBS_DEBUG=1`` raises instead).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Final

from . import edit_proof, module_marker, parse_count, reparse_guard
from .annotation_edits import EXPR_PREFIX, AnnotationRewriter, annotation_sites
from .annotation_items import PyptoNames
from .kernel_returns import KERNEL_RETURN_ALIAS, add_kernel_returns
from .local_constants import local_constants
from .module_constants import ModuleConstants
from .name_bindings import Walk
from .source_text import SourceText

__all__ = ["EXPR_PREFIX", "rewrite_for_parser", "rewrite_source", "rewrite_unchecked", "transform_source"]

# Cheap test before parsing: a tensor annotation (any form), a pypto Tensor imported under
# another name, a module-level UPPER_CASE binding (at a line start, for any line break), or a
# jit decorator (its kernels get their None return).
_WORTH_PARSING: Final = re.compile(
    r"ensor[\s)]*[(\[]|ensor\s+as\s|(?:^|\r)_?[A-Z][A-Z0-9_]*[ \t]*=|\bjit\b|" + module_marker.IMPORT_LINE,
    re.MULTILINE,
)


def rewrite_unchecked(source: str, tree: ast.Module | None = None) -> tuple[str, ast.Module]:
    """(rewritten source, the parsed input), without the guard: for the fuzz suite and
    :func:`rewrite_source`, which passes the tree it parsed (the rewrite only reads it). Raises
    on a source that does not parse."""
    if tree is None:
        tree = reparse_guard.parse(source)
    out, _ = _rewrite(source, tree)
    return out, tree


def _rewrite(source: str, tree: ast.Module, keep: Callable[[ast.Module, Walk], None] | None = None
             ) -> tuple[str, bool]:
    """(rewritten source, whether :mod:`edit_proof` proves its edits in place); ``keep`` gets the
    tree and its walk, for the host evaluation (:mod:`parsed_trees`)."""
    src = SourceText(source)
    walk = Walk(tree)  # one walk serves the constants, the pypto names, the kernels and the calls
    if keep is not None:
        keep(tree, walk)
    consts = ModuleConstants(tree, walk)
    names = PyptoNames(walk.definitions)
    rewriter = AnnotationRewriter(src, consts, names)
    sites = annotation_sites(tree)
    for site in sites:
        rewriter.annotation(site)
    rewriter.annotate_constants()
    rewriter.annotate_local_constants(local_constants(tree, consts, frozenset(names.imported), walk))
    if add_kernel_returns(src, walk.definitions):
        rewriter.need_marker(KERNEL_RETURN_ALIAS)
    marker, own_options = module_marker.wanted(walk.definitions, (site.node for site in sites), names.is_tensor)
    if marker:  # a module importing pypto with no tensor annotation: its options (module_marker.py)
        rewriter.need_marker(module_marker.ALIAS)
    if own_options and not source.endswith(module_marker.INLINE_OPTIONS + "\n"):  # (a rewritten text stays)
        src.append_line(module_marker.INLINE_OPTIONS, edit_proof.INLINE_CONFIG)  # its own options copy
    digest = ""
    if module_marker.digest_wanted(walk.definitions):  # its bodies may be read by other modules' checks
        rewriter.need_marker(module_marker.DIGEST_ALIAS)
        digest = module_marker.digest_declaration(source)
    rewriter.add_imports(tree, (module_marker.DECLARATION if marker else "") + digest)
    out = src.apply()
    if out is None:
        return source, False
    return out, edit_proof.proven(src, rewriter.spans)


def rewrite_source(source: str) -> str:
    """The rewritten source; the input itself when there is nothing to do or anything fails."""
    return _guarded(source, parser_checks=False)[0]


def rewrite_for_parser(source: str, keep: Callable[[ast.Module, Walk], None] | None = None) -> tuple[str, bool]:
    """As :func:`rewrite_source`, for a caller that parses the result itself: (text, whether
    the caller must take the input instead if the text does not parse). A rewrite whose edits
    are proven in place (:mod:`edit_proof`) skips the guard's second parse and comparison.
    ``keep`` is given the parse of ``source`` and its walk (:func:`parsed_trees.keep`)."""
    return _guarded(source, parser_checks=True, keep=keep)


def _guarded(source: str, parser_checks: bool, keep: Callable[[ast.Module, Walk], None] | None = None
             ) -> tuple[str, bool]:
    if "pypto" not in source or not _WORTH_PARSING.search(source):
        return source, False
    try:
        tree = reparse_guard.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source, False  # mypy reports the syntax error itself
    try:
        out, proven = _rewrite(source, tree, keep)
        if out == source:
            return source, False
        if proven and parser_checks and not reparse_guard.debug():
            return out, True
        reparse_guard.check(tree, out)  # (under the debug switch, a proven rewrite too)
    except Exception:  # never break mypy's parser: any failure leaves the file as written
        if reparse_guard.debug():
            raise
        return source, False
    return out, False


def transform_source(source: object) -> object:
    """``Options.transform_source``: mypy may hand over ``str`` or ``bytes``."""
    parse_count.parsed(None)
    if isinstance(source, bytes):
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError:
            return source
        out = rewrite_source(text)
        return source if out is text else out.encode("utf-8")
    if isinstance(source, str):
        return rewrite_source(source)
    return source

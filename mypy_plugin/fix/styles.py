"""``--fix-style``: rewrite valid code into a preferred form, kept per file only when the checker
proves it changes nothing: the same errors before and after, and for ``operators`` each rewritten
call's first operand a PyPTO tensor (so ``a + b`` runs ``Tensor.__add__``, which is ``pypto.add``)
and each outermost operation of the type its call had."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

import libcst as cst
from mypy import build
from mypy.main import process_options
from mypy.nodes import CallExpr, Expression, MemberExpr, OpExpr
from mypy.types import Type

from .apply import Outcome
from .locate import Located
from .style_rewrites import Rewritten, operators, subscript

Rewrite = Callable[[Located, str, frozenset[tuple[int, int]]], "Rewritten | None"]
STYLES: Final[dict[str, Rewrite]] = {
    "operators": operators,
    "subscript": subscript,
}
_TENSOR: Final = "pypto.Tensor["
_OPS: Final = frozenset({"add", "sub", "mul", "div"})

Seen = dict[tuple[int, int], tuple[Expression, str]]  # (line, column) -> the call or operation, its type


def restyle(targets: Sequence[str], mypy_args: Sequence[str], style: str, outcome: Outcome) -> int:
    """Apply ``style`` to every checked file (on top of ``outcome``'s fixes); how many rewrites."""
    sources, _options = process_options([*mypy_args, *targets])
    keys = {os.path.abspath(p): p for p in outcome.texts}
    count = 0
    for source in sources:
        if source.path is None or not source.path.endswith(".py"):
            continue
        key = keys.get(os.path.abspath(source.path), source.path)
        before = outcome.texts[key][1] if key in outcome.texts else Path(key).read_bytes().decode("utf-8")
        after, n = _restyled(targets, mypy_args, key, before, STYLES[style])
        if n:
            outcome.texts[key] = (outcome.texts.get(key, (before, ""))[0], after)
            count += n
    return count


def _restyled(targets: Sequence[str], mypy_args: Sequence[str], path: str, before: str, rewrite: Rewrite) -> tuple[str, int]:
    """The file rewritten where the checker confirms it. The calls whose first operand is not a
    PyPTO tensor are left first (``pypto.add(2.0, x)`` is not ``2.0 + x``, which is
    ``x.__radd__``); a second try leaves out the rewrites whose type changed."""
    try:
        loc = Located.parse(before)
    except cst.ParserSyntaxError:
        return before, 0
    pypto = loc.pypto_name()
    candidates = None if pypto is None else rewrite(loc, pypto, frozenset())
    if pypto is None or candidates is None:
        return before, 0
    with tempfile.TemporaryDirectory(prefix="pypto-style-") as tmp:
        errors, seen, types = _check(targets, mypy_args, path, before, Path(tmp) / "before.py")
        skip = frozenset(where for where in candidates.calls if candidates.outer and not _tensor_first(seen, types, where))
        for attempt in range(2):
            rewritten = rewrite(loc, pypto, skip)
            after = before if rewritten is None else rewritten.module.code
            if rewritten is None or after == before or after.count("\n") != before.count("\n"):
                return before, 0
            errors_after, seen_after, _types = _check(targets, mypy_args, path, after, Path(tmp) / f"after{attempt}.py")
            if errors_after != errors:
                return before, 0  # the checker answers otherwise: not this file
            changed = frozenset(old for old, new in rewritten.outer if not _same(seen.get(old), seen_after.get(new)))
            if not changed:
                return after, len(rewritten.calls)
            skip |= changed
    return before, 0


def _tensor_first(seen: Seen, types: dict[Expression, Type], where: tuple[int, int]) -> bool:
    call = seen.get(where)
    if call is None or not isinstance(call[0], CallExpr) or not call[0].args:
        return False
    first = types.get(call[0].args[0])
    return first is not None and str(first).startswith(_TENSOR)


def _same(was: tuple[Expression, str] | None, now: tuple[Expression, str] | None) -> bool:
    """The operation has the type its call had (shape and dtype, as the checker reveals them)."""
    return was is not None and now is not None and isinstance(now[0], OpExpr) and was[1] == now[1]


def _check(targets: Sequence[str], mypy_args: Sequence[str], path: str, text: str,
           shadow: Path) -> tuple[list[str], Seen, dict[Expression, Type]]:
    """One in-process mypy build with ``text`` as ``path``: its errors, and the type of each
    ``pypto.add/sub/mul/div`` call and outermost ``+ - * /`` operation by its (line, column)."""
    shadow.write_text(text, encoding="utf-8")
    sources, options = process_options([*mypy_args, *targets])
    options.export_types = True
    options.incremental = False  # the cache would be taken for the shadow (same path)
    options.show_column_numbers = False  # a rewrite moves columns, not lines
    options.shadow_file = [[path, str(shadow)]]
    result = build.build(sources, options)
    # mypy's traverser is compiled (no subclass here) and the module's own type map is freed after
    # the build: the exported map of the whole build is searched. Only a tensor-typed call or
    # operation at a rewritten position counts, which stub files do not have.
    seen: Seen = {}
    inner = {id(e.left) for e in result.types if isinstance(e, OpExpr)}
    for e, typ in result.types.items():
        if isinstance(e, CallExpr) and isinstance(e.callee, MemberExpr) and e.callee.name in _OPS \
                or isinstance(e, OpExpr) and e.op in "+-*/" and id(e) not in inner:
            seen[(e.line, e.column)] = (e, str(typ))
    return result.errors, seen, result.types

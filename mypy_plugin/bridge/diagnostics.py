"""Every message the plugin prints: one function per diagnostic, text and note together."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

from mypy.errorcodes import ErrorCode
from mypy.errors import ErrorInfo
from mypy.nodes import CallExpr, Context, MemberExpr
from mypy.plugin import CheckerPluginInterface

from .. import config, errorcodes
from ..debug import degrade
from ..knowledge.codes.op_codes import NO_METHOD, TRANSPOSE
from ..knowledge.findings import Finding
from ..knowledge.members import MISSING
from ..knowledge.ops import TensorVal
from ..knowledge.shapes import fmt_shape
from ..versions import TARGET_PYPTO
from .expr_text import expr_text, operand_text


def describe(val: TensorVal | None) -> str:
    """``[8, 64] DT_FP32`` for a message, or "a tensor" when nothing is known."""
    return "a tensor" if val is None else f"{fmt_shape(val.shape)} {val.dtype or '?'}"




def _named_release(text: str) -> str:
    """The texts are written for the verified release, TARGET_PYPTO; a user who targets another one
    (``pypto_version``) reads its number instead (the checks that hold only on 0.2.0 are off there)."""
    release = config.active().release
    return text if release == TARGET_PYPTO else text.replace(TARGET_PYPTO, release)


def report(
    api: CheckerPluginInterface, finding: Finding, ctx: Context, *, op: str = "", unwatched: bool = False,
    once: bool = False,
) -> ErrorInfo | None:
    """Report a finding and its note: the one way every check's finding reaches mypy. ``op``
    prefixes the message with the op's name (``pypto.matmul: ...``) unless it already starts with
    it. ``unwatched``: from an operator hook, where mypy tries ``float.__add__`` and
    ``Tensor.__radd__`` under an error watcher and takes any error as "this method does not apply"
    (it would print "Unsupported operand types" instead of ours). ``once``: from a hook mypy may
    call again for the same expression (see :func:`_already_reported`). Returns mypy's record of
    the error (the one already out, for ``once``), None when nothing was reported."""
    code = errorcodes.error_code(finding.code)
    if code is None:  # a finding whose code is not in the table is a bug: loud in debug mode
        degrade(KeyError(f"unknown error code {finding.code.name!r} (not in the code table)"))
        return None
    if once:
        out = _already_reported(api, code, ctx)
        if out is not None:
            return out
    message = finding.message if not op or finding.message.startswith(op) else f"{op}: {finding.message}"
    message, note = _named_release(message), _named_release(finding.note) if finding.note else finding.note
    with outside_watchers(api) if unwatched else contextlib.nullcontext():
        info = api.fail(message, ctx, code=code)
        if note and info is not None:
            # Tied to its error, so the same ignore comment or disabled code hides both.
            api.msg.note(note, ctx, code=code, parent_error=info)
    return info if isinstance(info, ErrorInfo) else None


def error_levels(api: object) -> list[list[ErrorInfo]]:
    """mypy's records of the errors and notes reported so far in this file, then (outermost first)
    those of each kernel or helper copy being checked for a call, which go out with its call's
    note when the copy is done. mypy internals: if they move, none."""
    errors = getattr(getattr(api, "msg", None), "errors", None)
    infos = getattr(errors, "error_info_map", {}).get(getattr(errors, "file", None), [])
    levels = [list(infos)]
    for watcher in COPY_WATCHERS:
        filtered = getattr(watcher, "filtered_errors", None)
        levels.append(list(filtered()) if callable(filtered) else [])
    return levels


def current_errors(api: object) -> list[ErrorInfo]:
    """The errors of the innermost level (:func:`error_levels`): this check's own so far."""
    return error_levels(api)[-1]


@contextlib.contextmanager
def at_level(api: object, level: int) -> Iterator[None]:
    """Errors reported here go to ``level`` of :func:`error_levels` (0: the file's), past mypy's own
    watchers and the copies' inside it. mypy.errors.Errors._watchers is internal; if it moves,
    report as usual."""
    watchers = getattr(getattr(getattr(api, "msg", None), "errors", None), "_watchers", None)
    if not isinstance(watchers, list):
        yield
        return
    keep = COPY_WATCHERS[:level]
    saved = list(watchers)
    watchers[:] = [w for w in saved if any(w is c for c in keep)]
    try:
        yield
    finally:
        watchers[:] = saved


def silenced(api: object, info: ErrorInfo) -> bool:
    """Does an ignore comment on its line, or a disabled code, keep this error out of the output?
    (mypy internals; if they move: not silenced.)"""
    errors = getattr(getattr(api, "msg", None), "errors", None)
    if errors is None:
        return False
    try:
        ignores = errors.ignored_lines.get(errors.file, {})
        return any(bool(errors.is_ignored_error(line, info, ignores)) for line in info.origin_span)
    except Exception:  # noqa: BLE001 (internals moved: count it as shown)
        return False


def _already_reported(api: CheckerPluginInterface, code: ErrorCode, ctx: Context) -> ErrorInfo | None:
    """Is an error with this code out already on this very expression? mypy checks an operator
    once per item of a union operand, and tries the reflected method when the first one fails:
    each would report the same root cause again, with the other item's shapes. (mypy internals:
    if they move, every report goes out.) In a kernel (or helper) copy checked for a call: its own
    findings so far; what another copy reported at the same span is another call's finding
    (specialize.py keeps both)."""
    for info in current_errors(api):
        if (
            getattr(info, "code", None) is code
            and getattr(info, "line", None) == ctx.line
            and getattr(info, "column", None) == ctx.column
            and getattr(info, "end_line", None) in (ctx.end_line, None)
            and getattr(info, "end_column", None) in (ctx.end_column, None)
        ):
            return info
    return None


# The error watchers that collect a kernel copy's findings (calls.specialize pushes them): an
# operator hook that reports past mypy's own watchers (report(unwatched=True)) must still report
# into these.
COPY_WATCHERS: list[object] = []


@contextlib.contextmanager
def outside_watchers(api: object) -> Iterator[None]:
    """Errors reported here reach the output even while mypy tries an expression under its error
    watchers (operator fallbacks, overload matching), except into a kernel copy's own watcher.
    mypy.errors.Errors._watchers is internal; if it moves, report as usual."""
    watchers = getattr(getattr(getattr(api, "msg", None), "errors", None), "_watchers", None)
    if not isinstance(watchers, list) or not watchers:
        yield
        return
    saved = list(watchers)
    watchers[:] = [w for w in saved if any(w is c for c in COPY_WATCHERS)]
    try:
        yield
    finally:
        watchers[:] = saved


def _fill_receiver(template: str, ctx: Context) -> str:
    """A missing member's fix with ``{x}`` as the receiver of ``r.abs()`` / ``r.ndim`` is written:
    bare as a call's argument (``pypto.abs(h * 2.0)``), parenthesized where it is an operand or a
    receiver itself (``(h * 2.0).amax(dim)``); ``<the tensor>`` when it cannot be spelled."""
    node: object = ctx
    if isinstance(node, CallExpr):
        node = node.callee
    receiver = node.expr if isinstance(node, MemberExpr) else None
    bare = expr_text(receiver) if receiver is not None else None
    operand = operand_text(receiver) if receiver is not None else None
    if bare is None or operand is None:
        bare = operand = "<the tensor>"
    parts = template.split("{x}")
    out = parts[0]
    for before, after in zip(parts, parts[1:]):
        argument = before.endswith(("(", ", ")) and after.startswith((")", ","))
        out += (bare if argument else operand) + after
    return out


def no_method(api: CheckerPluginInterface, name: str, receiver: str, ctx: Context) -> None:
    member = MISSING.get(name)
    fix = _fill_receiver(member.fix, ctx) if member is not None else ""
    call = member.spelled if member is not None else f".{name}()"
    if member is not None and member.broken_args is not None:
        message = (
            f'"Tensor{call}" is broken in PyPTO 0.2.0 (receiver: {receiver}): it passes '
            f"{member.broken_args} arguments to pypto.{name} and fails with TypeError"
        )
    else:
        message = f'PyPTO tensors have no "{call}" (receiver: {receiver}); it fails at trace time with AttributeError'
    report(api, Finding(NO_METHOD, message, f"Use {fix}" if fix else None), ctx, once=True)


def transpose_attr(
    api: CheckerPluginInterface, receiver: str, expr: str | None, rank: int | None, matmul_fix: str | None,
    ctx: Context,
) -> None:
    """``expr``: the tensor ``.T`` is read on, as written (None: a form expr_text does not spell)."""
    if matmul_fix is not None:
        note = f"let the matmul transpose it: {matmul_fix}"
    else:
        swap = "0, 1" if rank is None or rank < 2 else f"{rank - 2}, {rank - 1}"
        dims_of = expr if expr is not None else "the tensor"
        rank_text = "the tensor's rank" if rank is None else f"rank {rank} (as many entries as {dims_of} has dims)"
        note = (
            f"use pypto.transpose({expr if expr is not None else '<the tensor>'}, {swap}); it needs a vec tile of "
            f"{rank_text}; as a matmul operand, pass a_trans=True / b_trans=True to pypto.matmul instead"
        )
    message = (
        f'PyPTO tensors have no ".T" ({expr if expr is not None else "receiver"}: {receiver}); it fails at trace '
        "time with AttributeError"
    )
    report(api, Finding(TRANSPOSE, message, note), ctx, once=True)

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
from ..knowledge.findings import Finding
from ..knowledge import member_findings
from ..knowledge.ops import TensorVal
from ..versions import TARGET_PYPTO
from .expr_text import expr_text, operand_text


def describe(val: TensorVal | None) -> str:
    """``[8, 64] DT_FP32`` for a message, or "a tensor" when nothing is known."""
    return member_findings.describe(val)


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


def _receiver_texts(ctx: Context) -> tuple[str | None, str | None]:
    """The receiver of ``r.abs()`` / ``r.ndim`` as written: bare, and as an operand."""
    node: object = ctx
    if isinstance(node, CallExpr):
        node = node.callee
    receiver = node.expr if isinstance(node, MemberExpr) else None
    return (expr_text(receiver), operand_text(receiver)) if receiver is not None else (None, None)


def no_method(api: CheckerPluginInterface, name: str, receiver: str, ctx: Context) -> None:
    report(api, member_findings.no_method(name, receiver, *_receiver_texts(ctx)), ctx, once=True)


def transpose_attr(
    api: CheckerPluginInterface, receiver: str, expr: str | None, rank: int | None, matmul_fix: str | None,
    ctx: Context,
) -> None:
    """``expr``: the tensor ``.T`` is read on, as written (None: a form expr_text does not spell)."""
    report(api, member_findings.transpose(receiver, expr, rank, matmul_fix), ctx, once=True)

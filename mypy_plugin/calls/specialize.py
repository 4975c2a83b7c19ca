"""A kernel checked again with the tensors of one host call: the same hooks and rules, on a copy
(rule: traced-with-call-tensors).

mypy itself checks a function body once per value of a value-restricted type variable, on a copy
made by its TransformVisitor; this does the same with the parameters' types replaced by the
call's tensors. Lines are kept, so a finding lands on the kernel's own line; only ``pypto-*``
findings are kept (the rest of mypy's answers stay the declared pass's), each with a note that
names the call. Only a kernel whose body is in the module being checked is copied (module-level,
or nested in one of its functions): an edit of either the kernel or the call then rechecks that
one module (cold, incremental and daemon runs agree).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mypy.errors import ErrorInfo
from mypy.nodes import Context, FuncDef, MypyFile, ReturnStmt
from mypy.types import CallableType, Type

from .. import insight
from ..bridge import diagnostics
from ..bridge.diagnostics import outside_watchers
from ..bridge.tensor_types import tensor_type
from ..host.call_check import fmt_binding
from ..kernel import copies as kernel_copies
from ..kernel.body_walk import assignment_counts, statements
from ..knowledge.values import TensorVal
from . import copy_memo, coverage

CALL_NOTE = "with the tensors of the call"  # how the note of a copy's finding starts (helpers.py too)
_active: list[FuncDef] = []  # functions being checked again: a kernel, then the helpers it calls
_MAX_DEPTH = 8  # helpers calling helpers; a recursive helper is not entered again


def check(api: object, func: FuncDef, replaced: Mapping[int, TensorVal | Type], note: str | Callable[[str], str],
          typ: CallableType | None = None, entry: kernel_copies.Entry | None = None) -> list[Type] | None:
    """Check ``func`` again with the types of the parameters at the indices of ``replaced`` (in
    ``typ``, the function's signature by default), entered with ``entry`` (a helper: the caller's
    tiles and values); report its new ``pypto-*`` findings with ``note`` (which names the call).
    Returns the types of the copy's ``return`` expressions (None when it was not checked)."""
    module = getattr(api, "tree", None)
    check_item = getattr(api, "check_func_item", None)
    msg = getattr(api, "msg", None)
    named = getattr(api, "named_generic_type", None)
    typ = typ if typ is not None else func.type if isinstance(func.type, CallableType) else None
    if not isinstance(module, MypyFile) or check_item is None or msg is None or named is None or typ is None:
        return None
    if func in _active or len(_active) >= _MAX_DEPTH:
        copy_memo.refused()
        return None
    deferred = bool(getattr(api, "current_node_deferred", False))
    arg_types: list[Type] = list(typ.arg_types)
    # A parameter the body binds again keeps its declared type: mypy does not narrow a copy's
    # parameter on assignment (``x = pypto.cast(x, FP32)`` stayed the call's dtype).
    rebound = assignment_counts(func)
    names = typ.arg_names
    replaced = {i: v for i, v in replaced.items() if not (i < len(names) and names[i] in rebound)}
    for i, v in replaced.items():
        arg_types[i] = tensor_type(v, named) if isinstance(v, TensorVal) else v
    # One check per distinct copy (copy_memo.py); op coverage records per kernel: not shared then.
    types = copy_memo.types_key(arg_types)
    collecting = coverage.active() is not None
    at_entry = copy_memo.entry_key(entry, with_root=collecting)
    record = None if types is None else copy_memo.lookup(api, func, types, at_entry, _active, _MAX_DEPTH,
                                                         shared=not collecting)
    if record is not None and insight.is_recording() and record.seen is None:
        record = None  # made while tools recorded nothing: what the copy showed is checked again
    if record is not None:
        copy_memo.used(record, func)
        infos, returned = record.infos, record.returned
        if isinstance(record.seen, insight.CopySeen):
            insight.copy_checked(api, func, record.seen, note)  # for tools: what this call's copy saw
    else:
        infos, returned, complete, seen = _check_copy(api, func, typ.copy_modified(arg_types=arg_types), entry, note)
        if types is not None and complete is not None and not deferred:
            copy_memo.store(api, func, types, at_entry, complete, list(_active), infos, returned, seen,
                            shared=not collecting)
    if deferred:
        return None  # mypy checks the caller again: report then
    # Outside mypy's watchers: the hook may run while mypy tries an overload of the decorator.
    # (An enclosing copy's watcher still collects them: a helper's finding inside a kernel
    # checked with a host call's tensors gets both notes, the call chain.)
    with outside_watchers(api):
        _report(api, infos, note if callable(note) else _same(note))
    return returned


def _check_copy(api: Any, func: FuncDef, typ: CallableType, entry: kernel_copies.Entry | None,
                note: str | Callable[[str], str]
                ) -> tuple[list[ErrorInfo], list[Type], copy_memo.Frame | None, insight.CopySeen | None]:
    """mypy checks a copy of ``func`` as ``typ``: its errors (not reported), the types its
    ``return`` expressions have, what the check depended on (None: mypy deferred something while
    checking it, so the answer may not be final, or it cannot answer another call) and what tools
    were shown of it."""
    copy = kernel_copies.make(func, entry)
    _active.append(func)
    frame = copy_memo.begin(func, copy)
    deferrals = len(getattr(api, "deferred_nodes", ()))
    try:
        with api.msg.filter_errors(save_filtered_errors=True) as watcher:
            diagnostics.COPY_WATCHERS.append(watcher)
            api.check_func_item(copy, type_override=typ, name=func.name)
            returned = _returned(api, copy)
            seen = insight.copy_checked(api, func, copy, note)  # for tools: what this copy saw
    finally:
        if diagnostics.COPY_WATCHERS:
            diagnostics.COPY_WATCHERS.pop()
        _active.pop()
        copy_memo.end(frame)
        kernel_copies.forget(copy)
    final = isinstance(getattr(api, "deferred_nodes", None), list) and len(api.deferred_nodes) == deferrals
    reusable = final and copy_memo.self_contained(frame, copy)
    return watcher.filtered_errors(), returned, frame if reusable else None, seen


def _returned(api: object, copy: FuncDef) -> list[Type]:
    """The type of each ``return`` expression of the copy just checked (a bare return: none)."""
    lookup = getattr(api, "lookup_type_or_none", None)
    if lookup is None:
        return []
    found: list[Type] = []
    for s in statements(copy.body.body):
        if isinstance(s, ReturnStmt) and s.expr is not None:
            t = lookup(s.expr)
            if not isinstance(t, Type):
                return []
            found.append(t)
    return found


def call_note(api: object, call_line: int, via: Sequence[str], names: Sequence[str],
              vals: Sequence[TensorVal]) -> str:
    path = getattr(api, "path", "") or ""
    where = f"{Path(path).name}:{call_line}" + "".join(f" (through {v})" for v in via)
    return f"{CALL_NOTE} at {where}: {fmt_binding(list(names), tuple(vals))}"


def _same(note: str) -> Callable[[str], str]:
    """The call's note, whatever the finding's code (a host call's tensors: no tiles in it)."""
    return lambda _code: note


def _span(e: ErrorInfo) -> tuple[object, ...]:
    return (e.code, e.line, e.column, e.end_line, e.end_column)


def _declared(errors: list[ErrorInfo]) -> set[tuple[object, ...]]:
    """The spans of the findings the declared pass made (no call's note under them)."""
    from_calls = {id(n.parent_error) for n in errors if n.severity == "note" and n.parent_error is not None
                  and n.message.startswith(CALL_NOTE)}
    return {_span(e) for e in errors if e.severity == "error" and id(e) not in from_calls}


def _report(api: object, infos: list[ErrorInfo], call_note: Callable[[str], str]) -> None:
    found = [i for i in infos if i.severity == "error" and i.code is not None and i.code.code.startswith("pypto-")]
    if not found:
        return  # (most copies: nothing to report, and the module's errors need not be read)
    msg = getattr(api, "msg")
    path = getattr(api, "path", "")
    errors = list(msg.errors.error_info_map.get(path, ()))
    existing = {(e.line, e.message) for e in errors}
    # One root cause, one finding: the same check failing on the same expression with the
    # declared shapes (its message names other dims) is not a second finding (issue 38).
    declared = _declared(errors + diagnostics.current_errors(api))
    for info in found:
        code = info.code
        assert code is not None
        if (info.line, info.message) in existing or _span(info) in declared:
            continue  # the declared shapes already show it
        existing.add((info.line, info.message))
        ctx = Context(line=info.line, column=info.column)
        ctx.end_line, ctx.end_column = info.end_line, info.end_column  # the span the copy reported
        reported = getattr(api, "fail")(info.message, ctx, code=code)
        for note in infos:
            if note.parent_error is info and note.severity == "note":
                msg.note(note.message, ctx, code=code, parent_error=reported)
        msg.note(call_note(code.code), ctx, code=code, parent_error=reported)

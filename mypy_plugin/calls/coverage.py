"""How each kernel was checked, for ``pypto-check --coverage``: recorded while mypy runs in the
same process (off unless :func:`collecting` is active; the CLI runs mypy without its cache then,
so every module is checked and recorded).

A kernel is checked with *declared* shapes when every tensor parameter's shape and dtype are
known from its annotation; else with the tensors of each *call site* in its module that the host
code proves; else its shapes are *unknown*, with the reason.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..bridge import folding
from ..knowledge.shapes import is_dynamic
from ..knowledge.values import TensorVal


@dataclass
class Kernel:
    path: str
    line: int
    name: str
    fullname: str = ""  # the kernel function's (what :data:`folding.UNREAD` is keyed by)
    # "x: shape from the runtime tensor", ... ([] = declared; None: its definition was not
    # checked in this run, only calls of it: not listed)
    unknown: list[str] | None = None
    # (line, helper calls, tensors) of each call the kernel was checked with: a constant loop at
    # one line checks it once per tensor set.
    call_sites: set[tuple[object, ...]] = field(default_factory=set)
    calls_elsewhere: int = 0  # calls in other modules whose tensors are not proven (a proven one is a site)
    unproven_calls: int = 0  # calls whose tensors the host code does not prove
    rejected_calls: int = 0  # calls with a pypto-call-* finding that stops the trace
    known_elsewhere: int = 0  # calls in other modules whose tensors are all known (boundary checked)
    unproven_why: list[str] = field(default_factory=list)  # "line 24: why" of each unproven call

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.name}"


# An op call: (path, line, column, how messages name the op).
OpId = tuple[str, int, int, str]
REACHED = ""  # an op's status when it was checked with known inputs (and its tile, if it needs one)
# (a check's name, the facts it missed at one call; empty: it ran): knowledge.checks.reads
CheckReads = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass
class OpSeen:
    """What the passes over one op call gave: the old measure (REACHED when every input shape and
    tile was known in some pass, else why not) and, per check, the facts it missed in the pass
    that missed the fewest (empty: it ran in some pass)."""

    known: str
    checks: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def add(self, known: str, checks: CheckReads) -> None:
        if self.known != REACHED:
            self.known = known
        for name, missing in checks:
            before = self.checks.get(name)
            if before is None or len(missing) < len(before):
                self.checks[name] = missing

    @property
    def reached(self) -> bool:
        """Every check that applies ran (in some pass)."""
        return all(not missing for missing in self.checks.values())

    @property
    def skipped(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(name, missing) for name, missing in self.checks.items() if missing]


@dataclass
class Collector:
    kernels: dict[tuple[str, int, str], Kernel] = field(default_factory=dict)
    # "path:line:name" of a kernel (or a helper's own pass) -> op call -> what its passes gave
    ops: dict[str, dict[OpId, OpSeen]] = field(default_factory=dict)
    # "path:line:name" of a function -> the helpers it calls ("path:line:name")
    calls: dict[str, set[str]] = field(default_factory=dict)
    # a function's fullname -> the module constants it needed and mypy keeps no value of
    unread: dict[str, set[str]] = field(default_factory=dict)

    def kernel(self, path: str, line: int, name: str) -> Kernel:
        k = self.kernels.get((path, line, name))
        if k is None:
            k = self.kernels[(path, line, name)] = Kernel(path, line, name)
        return k


_active: list[Collector] = []


@contextlib.contextmanager
def collecting() -> Iterator[Collector]:
    collector = Collector()
    _active.append(collector)
    folding.UNREAD = collector.unread
    try:
        yield collector
    finally:
        _active.remove(collector)
        folding.UNREAD = _active[-1].unread if _active else None


def active() -> Collector | None:
    return _active[-1] if _active else None


def concrete(v: TensorVal) -> bool:
    """Shape and dtype known (a dynamic dim counts: the frontend traces it as -1 whatever the
    tensor is): a kernel checked with such tensors, an op reached with such inputs."""
    return v.dtype is not None and v.shape is not None and all(isinstance(d, int) or is_dynamic(d) for d in v.shape)


def unknown_parts(params: list[tuple[str, TensorVal]]) -> list[str]:
    """What the annotations leave to the runtime tensors, per tensor parameter."""
    out: list[str] = []
    for name, v in params:
        missing = []
        if v.shape is None:
            missing.append("shape")
        elif any(not isinstance(d, int) for d in v.shape):
            missing.append("dims " + ", ".join(str(i) for i, d in enumerate(v.shape) if not isinstance(d, int)))
        if v.dtype is None:
            missing.append("dtype")
        if missing:
            out.append(f"{name}: {' and '.join(missing)} from the runtime tensor")
    return out


def kernel_defined(path: str, line: int, name: str, params: list[tuple[str, TensorVal]] | None,
                   fullname: str = "") -> None:
    c = active()
    if c is None:
        return
    k = c.kernel(path, line, name)
    k.fullname = fullname
    k.unknown = unknown_parts(params) if params is not None else ["its parameters are not read (*args, or a tensor after a non-tensor)"]


def call_seen(path: str, line: int, name: str, *, specialized: tuple[object, ...] | None,
              same_module: bool, rejected: bool = False, known: bool = False, why: str = "") -> None:
    """``known``: a call elsewhere whose tensors are all known; ``why``: "line N: the cause" of a
    call in the kernel's module whose tensors are not proven."""
    c = active()
    if c is None:
        return
    k = c.kernel(path, line, name)
    if specialized is not None:
        k.call_sites.add(specialized)
    elif not same_module:
        k.calls_elsewhere += 1
        k.known_elsewhere += known
    elif rejected:
        k.rejected_calls += 1
    else:
        k.unproven_calls += 1
        if why:
            k.unproven_why.append(why)


def op_seen(owner: str, op: OpId, status: str, checks: CheckReads = ()) -> None:
    """An op call checked in ``owner``'s check (a kernel's, with every copy and helper copy
    rooted in it): ``status`` the old measure (REACHED wins over any reason), ``checks`` what
    each of its checks missed in this pass."""
    c = active()
    if c is None:
        return
    seen = c.ops.setdefault(owner, {})
    entry = seen.get(op)
    if entry is None:
        seen[op] = OpSeen(status, dict(checks))
    else:
        entry.add(status, checks)


def helper_called(caller: str, helper: str) -> None:
    c = active()
    if c is not None:
        c.calls.setdefault(caller, set()).add(helper)

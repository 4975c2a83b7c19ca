"""What the parts of a trace share: the path's bindings and tiles, the options, the findings, the
loader of other modules. :class:`Tracing` is the base the expression, call and statement tracers
build on; one instance traces one function body (helpers it calls get their own)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from ..knowledge.findings import Finding
from ..knowledge.op_call import Call
from ..knowledge.values import Result
from ..knowledge.tiles import TileState
from .arguments import Actual
from .modules import TracedModule
from ..knowledge.values import TensorVal
from .values import Class, Value


@dataclass(frozen=True)
class Options:
    """The run's options the op checks read (from ``[pypto-stubs]``)."""

    reduce_align_rule: bool = True
    reduce_align_fallback: str = "tile"
    dynamic_dim_rule: bool = True


@dataclass(frozen=True)
class Traced:
    """One finding of a trace: where (the module and the node's span), what, and the helper calls
    it was reached through (``("rows at common.py:12", ...)``, outermost first)."""

    module: str
    path: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    finding: Finding
    label: str  # the op's name, which prefixes the message ("pypto.matmul"): as the hooks report it
    via: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        m = self.finding.message
        return m if not self.label or m.startswith(self.label) else f"{self.label}: {m}"


@dataclass(frozen=True)
class OpRecord:
    """One op call a trace checked (for ``--coverage``): where, the call as its checks saw it, the
    operands' values and the result."""

    path: str
    line: int
    column: int
    call: Call
    operands: tuple[Value, ...]
    result: Result


Loader = Callable[[str], "TracedModule | None"]


@dataclass
class Shared:
    """What every body of one trace shares: options, loader, the findings, memo and constants."""

    options: Options
    loader: Loader
    findings: list[Traced] = field(default_factory=list)
    constants: dict[tuple[str, str], Value] = field(default_factory=dict)
    memo: dict[tuple[object, ...], tuple[tuple[Traced, ...], Value, TileState]] = field(default_factory=dict)
    loaded: dict[str, TracedModule | None] = field(default_factory=dict)
    deferred: list[Callable[[bool], None]] = field(default_factory=list)  # checks that need vec_set
    ops: list[OpRecord] | None = None  # op calls checked on a reported path (None: not recorded)
    budget: int = 20_000  # statements traced in all (loops and helpers multiply them)
    # Called with each node and its value (for the language server's hover; None: not asked).
    observe: Callable[[TracedModule, ast.expr, Value], None] | None = None


class Tracing:
    """The path's state and the services every part of the tracer uses."""

    def __init__(self, shared: Shared, module: TracedModule, tiles: TileState, vec_set: bool | None,
                 via: tuple[str, ...] = (), depth: int = 0) -> None:
        self.shared = shared
        self.module = module
        self.env: dict[str, Value] = {}
        self.locals_: frozenset[str] = frozenset()
        self.tiles = tiles
        self.vec_set = vec_set  # a vec tile is set somewhere in the kernel (None: decided at the end)
        self.via = via
        self.depth = depth
        self.silent = 0  # > 0 while a loop body is walked to its fixed point: nothing is reported

    @property
    def constants(self) -> dict[tuple[str, str], Value]:
        return self.shared.constants

    def load(self, module: str) -> TracedModule | None:
        if module not in self.shared.loaded:
            self.shared.loaded[module] = self.shared.loader(module)
        return self.shared.loaded[module]

    def seen(self, node: ast.expr, value: Value) -> None:
        if self.shared.observe is not None and not self.silent:
            self.shared.observe(self.module, node, value)

    def report(self, node: ast.AST, finding: Finding, label: str = "") -> None:
        if self.silent:
            return
        self.shared.findings.append(Traced(
            self.module.name, self.module.path, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
            getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None), finding, label, self.via))

    # What the expression tracer (a subclass) implements, for the parts below it.
    def expr(self, node: ast.expr) -> Value:
        raise NotImplementedError

    def attribute(self, base: Value, attr: str, node: ast.expr) -> Value:
        raise NotImplementedError

    def write(self, dest: TensorVal, dest_node: ast.expr, keys: list[object] | None, value: Value,
              where: ast.AST) -> None:
        raise NotImplementedError

    def construct(self, cls: Class, actuals: list[Actual]) -> Value:
        raise NotImplementedError

    def has_op(self, name: str) -> bool:
        raise NotImplementedError

    def apply(self, op: str, method: bool, actuals: list[Actual], node: ast.AST,
              keys: list[object] | None = None) -> Value:
        raise NotImplementedError

    def spend(self) -> bool:
        """One statement more; False once the trace's budget is spent (the rest is unknown)."""
        self.shared.budget -= 1
        return self.shared.budget >= 0

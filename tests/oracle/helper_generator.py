"""Hypothesis strategies for helper kernels: a jit kernel that calls plain helper functions, one to
three levels deep, which run as Python inside the kernel's trace (rule: helper-runs-in-the-trace).

The tile setting is global state, so where a tile is set is the point of each case (its ``plan``):
- ``kernel``: the kernel sets the tile, the innermost helper's op runs under it;
- ``helper``: a helper (at some depth) sets it before the op;
- ``override``: the kernel sets one tile, a helper another, and the op runs under the helper's;
- ``kernel_after``: the helper's op runs under the kernel's tile, then the kernel sets another one
  for its own reduction after the call;
- ``helper_after``: the helper sets the tile, and the kernel's reduction after the call runs under it;
- ``none``: no tile at all.
Matmul cases do the same with the cube tile. Tiles are literals, module constants, list arithmetic
(``[8] * len(a.shape)``, ``[1] * (rank - 1) + [64]``), comprehensions with an item assignment, and
lists or ints passed as helper parameters (``helper_tiles.py``). Helper parameters are unannotated,
partly annotated (``x: pypto.Tensor, eps, hidden``) or annotated.

Each case is meant to compile or to fail at one op (its ``site``), about half each. The generator's
prediction (``expect``) only keeps that mix and pins the structure in tests: the compiler decides.
The compiler's marker names the kernel's line that calls the outermost helper (``blame_line``); the
checker names the helper's op (``site_line``), and ``trace_lines`` maps one onto the other.

Forms the checker does not follow yet (``GAPS``, each pinned by a known-gap regression kernel) are
generated only with ``gaps=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from .generator import BYTES, JIT, TORCH_DT, Case, _param_src, reduce_shape, shapes
from .helper_tiles import GAPS, Chain, Helper, TileSpec, cube_stmts, vec_stmts

__all__ = ["GAPS", "Helper", "HelperCase", "generate_helpers", "helper_cases"]

FLOATS = ["FP32", "FP16", "BF16"]
REDUCE_DT = ["FP32", "FP16", "BF16", "INT8", "INT32"]
REDUCTIONS = ("sum", "amax", "amin")
# ops whose result has the input's shape (a kernel writes it, or reduces the input after the call)
SAME_SHAPE = ("center", "layernorm", "softmax", "elementwise")
NAMES = {1: ["core"], 2: ["block", "core"], 3: ["forward", "block", "core"]}


@dataclass
class HelperCase(Case):
    helpers: list[Helper] = field(default_factory=list)  # outermost first
    host: list[str] = field(default_factory=list)  # body of run(): one call of the kernel
    plan: str = ""
    site: tuple[str, int] | None = None  # (function, body index) of the op meant to fail; None: meant to compile
    expect: str = "OK"  # the generator's prediction (not a verdict)
    # filled by render()
    lines_of: dict[str, list[int]] = field(default_factory=dict)  # function -> line of each statement
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)  # helper -> (def line, last line)
    call_lines: list[int] = field(default_factory=list)  # kernel lines calling the outermost helper

    def render(self) -> str:
        lines = ["import pypto", "import torch"] + ([""] + self.pre if self.pre else [])
        self.lines_of, self.spans = {}, {}
        for h in reversed(self.helpers):  # innermost first: each defined before its caller
            lines += ["", "", f"def {h.name}({', '.join(h.params)}){h.ret}:"]
            start = len(lines)
            self.lines_of[h.name] = []
            for _, src in h.body:
                lines.append("    " + src)
                self.lines_of[h.name].append(len(lines))
            self.spans[h.name] = (start, len(lines))
        lines += ["", "", JIT]
        lines.append(f"def {self.name}({', '.join(_param_src(n, s, d, self.ann) for n, s, d in self.params)}):")
        self.def_line = len(lines)
        self.stmt_lines, self.lines_of[self.name] = [], []
        for role, src in self.body:
            lines.append("    " + src)
            self.stmt_lines.append((len(lines), role, src))
            self.lines_of[self.name].append(len(lines))
        outer = self.helpers[0].name
        self.call_lines = [ln for ln, _, src in self.stmt_lines if f"{outer}(" in src]
        lines += ["", "", "def run() -> None:"] + ["    " + h for h in self.host] + [""]
        self.source = "\n".join(lines)
        return self.source

    def op_lines(self) -> list[int]:
        """Lines that may run an op (candidates for an error without a marker): the kernel's and
        every helper's statements except tile setters and list building."""
        out = [ln for ln, role, _ in self.stmt_lines if role not in ("tile", "cube", "list")]
        for h in self.helpers:
            out += [ln for ln, (role, _) in zip(self.lines_of[h.name], h.body) if role not in ("tile", "cube", "list")]
        return sorted(out)

    def trace_lines(self, line: int) -> set[int]:
        """A line inside a helper stands for the kernel lines that call the outermost helper (the
        compiler's marker names those); any other line for itself."""
        if any(a <= line <= b for a, b in self.spans.values()):
            return set(self.call_lines)
        return {line}

    @property
    def site_line(self) -> int | None:
        return None if self.site is None else self.lines_of[self.site[0]][self.site[1]]

    @property
    def blame_line(self) -> int | None:
        """The line the compiler's marker should name for the site."""
        if self.site is None or self.site[0] == self.name:
            return self.site_line
        return self.call_lines[0]

    def host_call(self, module: str) -> str:
        return "\n".join(["import pypto", f"import {module} as m", "", "m.run()", 'print("ORACLE_OK", flush=True)', ""])


# --- the prediction ------------------------------------------------------------------------------

def verdict(op: str, dt: str, rank: int, tile: list[int] | None) -> str:
    """What 0.2.0 says about ``op`` on a rank-``rank`` ``dt`` tensor under ``tile`` (rules:
    vec-tile-required, vec-tile-rank, reduce-last-axis-32-byte, reduce-in-fp32: softmax)."""
    if tile is None:
        return "pypto-tile-missing"
    if len(tile) < rank:
        return "pypto-tile-rank"
    if op == "elementwise":
        return "OK"
    align = 8 if op == "softmax" else 32 // BYTES[dt]
    return "OK" if tile[rank - 1] % align == 0 else "pypto-reduce-align"


def _tile(draw: Any, op: str, dt: str, rank: int, good: bool) -> list[int]:
    """A vec tile that ``op`` accepts (good) or rejects; reductions never get a short tile (it
    reads past the tile list: undefined behaviour)."""
    c = draw(st.sampled_from([1, 2, 4, 8]))
    if op == "elementwise":
        last = draw(st.sampled_from([4, 8, 12, 16, 32]))
        return [c] * (rank - 1) + [last] if good else [c] * (rank - 2) + [last]
    align = 8 if op == "softmax" else 32 // BYTES[dt]
    if good:
        last = align * draw(st.sampled_from([k for k in (1, 2, 4) if align * k <= 128]))
    else:
        last = draw(st.sampled_from([v for v in (align // 2, align // 4, align + align // 2, 12, 20) if v and v % align]))
    return [c] * (rank - 1) + [last]


# --- the innermost helper's op --------------------------------------------------------------------

def _ops(draw: Any, op: str, dt: str, keepdim: bool) -> tuple[list[tuple[str, str]], int, list[str]]:
    """(statements, index of the op that may fail, extra parameters it reads) on the parameter x."""
    kd = f", keepdim={keepdim}" if keepdim or draw(st.booleans()) else ""
    if op in REDUCTIONS:
        expr = draw(st.sampled_from([f"x.{op}(-1{kd})", f"pypto.{op}(x, -1{kd})"]))
        if draw(st.booleans()):
            return [("op", f"s = {expr}"), ("op", "return s")], 0, []
        return [("op", f"return {expr}")], 0, []
    if op == "center":
        red = draw(st.sampled_from(REDUCTIONS))
        return [("op", f"m = x.{red}(-1, keepdim=True)"), ("op", "return x - m")], 0, []
    if op == "layernorm":
        return [("op", "mean = x.sum(-1, keepdim=True) / hidden"), ("op", "return (x - mean) + eps")], 0, ["eps", "hidden"]
    if op == "softmax":
        return [("op", draw(st.sampled_from(["return pypto.softmax(x, -1)", "return x.softmax(-1)"])))], 0, []
    forms = ["return x * scale", "return x + x"] + (
        ["return pypto.exp(x)", "return pypto.sigmoid(x) * scale"] if dt in FLOATS else [])
    src = draw(st.sampled_from(forms))
    return [("op", src)], 0, ["scale"] if "scale" in src else []


@st.composite
def vec_helper_case(draw: Any, gaps: bool = False) -> HelperCase:
    plan = draw(st.sampled_from(["kernel"] * 3 + ["helper"] * 3 + ["override"] * 3 + ["kernel_after"] * 2
                                + ["helper_after"] * 2 + ["none"]))
    after = plan in ("kernel_after", "helper_after")
    op = draw(st.sampled_from(["sum", "amax", "amin", "center", "layernorm", "softmax", "elementwise"]))
    if plan == "helper_after" or (after and op not in SAME_SHAPE):
        op = "elementwise"  # runs under the tile meant for the kernel's reduction after the call
    bad = plan == "none" or draw(st.integers(0, 4)) < 2  # 40%: the plan "none" adds its own bad cases
    dt = draw(st.sampled_from(FLOATS if op in ("layernorm", "softmax") else REDUCE_DT))
    short = op == "elementwise" and bad and plan in ("kernel", "helper", "override")  # a tile short of the rank
    a = draw(shapes(2 if short else 1, 3, 2048))
    rank, levels, keepdim = len(a), draw(st.integers(1, 3)), draw(st.booleans())
    depth = draw(st.integers(0, levels - 1))
    ops, site_index, extras = _ops(draw, op, dt, keepdim)
    chain = Chain(draw, NAMES[levels], a, dt, gaps, extras)
    if plan == "helper_after" and depth > 0:
        if not gaps:
            depth = 0
        else:
            chain.gaps_used.append("inner_setter_after")
    kernel: list[tuple[str, str]] = []
    feats: dict[str, Any] = {"plan": plan, "op": op, "dt": dt, "levels": levels, "depth": depth}
    red = draw(st.sampled_from(REDUCTIONS))  # the kernel's reduction after the call
    if not after:
        tile = None if plan == "none" else _tile(draw, op, dt, rank, not bad)
        expect = verdict(op, dt, rank, tile)
        if plan in ("kernel", "override"):  # the override's kernel tile is meant for the other verdict
            first = tile if plan == "kernel" else _tile(draw, op, dt, rank, bad)
            kernel += vec_stmts(draw, TileSpec(first or [], "kernel", "a"), chain)
        if plan in ("helper", "override"):
            chain.set_at(depth, vec_stmts(draw, TileSpec(tile or [], "helper", "x", depth), chain))
        if plan == "none":
            feats.update(reduction=op != "elementwise", tile="none")  # a reduction with no tile crashes
        elif not short:
            chain.pre_op_from = 0 if plan == "kernel" else depth
    else:
        after_tile = _tile(draw, red, dt, rank, not bad)
        expect = verdict(red, dt, rank, after_tile)
        if plan == "kernel_after":
            # an elementwise op takes any tile: the first one is then meant for the other verdict
            first = _tile(draw, red, dt, rank, bad) if op == "elementwise" else _tile(draw, op, dt, rank, True)
            kernel += vec_stmts(draw, TileSpec(first, "kernel", "a"), chain)
            chain.pre_op_from = 0
        else:
            if draw(st.booleans()):  # a kernel tile the helper replaces
                kernel += vec_stmts(draw, TileSpec(_tile(draw, red, dt, rank, bad), "kernel", "a"), chain)
            chain.set_at(depth, vec_stmts(draw, TileSpec(after_tile, "helper", "x", depth), chain))
            chain.pre_op_from = depth
    helpers = chain.helpers(ops)
    kernel += chain.kernel_lists
    call = chain.call("a")
    params: list[tuple[str, Any, str]] = [("a", a, dt)]
    if not after:
        kernel.append(("write", f"out[:] = {call}"))
        params.append(("out", reduce_shape(a, -1, keepdim) if op in REDUCTIONS else list(a), dt))
        site = (helpers[-1].name, len(helpers[-1].body) - len(ops) + site_index)
    else:
        on_result = gaps and draw(st.integers(0, 3)) == 0  # the kernel reduces what the helper returned
        if on_result:
            chain.gaps_used.append("op_on_result")
            kernel.append(("op", f"t = {call}"))
        else:
            kernel.append(("write", f"o1[:] = {call}"))
            params.append(("o1", list(a), dt))
        if plan == "kernel_after":
            kernel += vec_stmts(draw, TileSpec(after_tile, "kernel", "a", name="tile_after"), chain)
        src, kd2 = "t" if on_result else "a", draw(st.booleans())
        expr = draw(st.sampled_from([f"{src}.{red}(-1, keepdim={kd2})", f"pypto.{red}({src}, -1, keepdim={kd2})"]))
        kernel.append(("write", f"out[:] = {expr}"))
        params.append(("out", reduce_shape(a, -1, kd2), dt))
        site = ("k", len(kernel) - 1)
        feats.update(after_op=red, on_result=on_result)
    return _finish(draw, "helper-vec", plan, params, kernel, chain, helpers, site, expect, feats)


@st.composite
def matmul_helper_case(draw: Any, gaps: bool = False) -> HelperCase:
    """A matmul in the innermost helper under a cube tile set in the kernel, in a helper, in both,
    from list parameters, or nowhere (rules: cube-tile-required, cube-tile-alignment, cube-l1-l0)."""
    plan = draw(st.sampled_from(["kernel", "kernel", "helper", "helper", "override", "override", "param", "none"]))
    bad = plan == "none" or draw(st.integers(0, 4)) < 2  # 40%: the plan "none" adds its own bad cases
    dt = draw(st.sampled_from(["FP16", "FP16", "BF16", "FP32"]))
    m, k, n = draw(st.sampled_from([8, 16, 32])), draw(st.sampled_from([16, 32, 64])), draw(st.sampled_from([16, 32]))
    levels = draw(st.integers(1, 3))
    kind = "none" if plan == "none" else draw(st.sampled_from(["k8", "n8", "l1"])) if bad else "good"
    second = draw(st.integers(0, 3)) == 0  # a vector op on the product: needs the kernel's vec tile
    mm = draw(st.sampled_from(["pypto.matmul(x, y, pypto.DT_FP32)", "x.matmul(y, pypto.DT_FP32)"]))
    ops = [("op", f"r = {mm}"), ("op", "return r * scale")] if second else [("op", f"return {mm}")]
    chain = Chain(draw, NAMES[levels], [m, k], dt, gaps, ["scale"] if second else [], tensors=("x", "y"))
    depth = draw(st.integers(0, levels - 1)) if plan != "param" else 0
    kernel: list[tuple[str, str]] = []
    if second:
        kernel.append(("tile", f"pypto.set_vec_tile_shapes({min(m, 16)}, {n})"))
    if plan in ("kernel", "override"):  # the override's kernel tile is meant for the other verdict
        other = "good" if bad else draw(st.sampled_from(["k8", "n8", "l1"]))
        kernel += cube_stmts(draw, kind if plan == "kernel" else other, "kernel", chain)
    if plan in ("helper", "override", "param"):
        chain.set_at(depth, cube_stmts(draw, kind, "param" if plan == "param" else "helper", chain))
    helpers = chain.helpers(ops)
    kernel += chain.kernel_lists
    kernel.append(("write", f"out[:] = {chain.call('a', 'b')}"))
    params: list[tuple[str, Any, str]] = [("a", [m, k], dt), ("b", [k, n], dt), ("out", [m, n], "FP32")]
    expect = {"good": "OK", "none": "pypto-tile-missing"}.get(kind, "pypto-cube-tile")
    site = (helpers[-1].name, len(helpers[-1].body) - len(ops))
    feats = {"plan": plan, "op": "matmul", "dt": dt, "levels": levels, "depth": depth, "cube": kind}
    return _finish(draw, "helper-matmul", plan, params, kernel, chain, helpers, site, expect, feats)


def _torch(shape: list[int], dt: str) -> str:
    return f"torch.ones({', '.join(map(str, shape))}, dtype={TORCH_DT[dt]})"


def _finish(draw: Any, family: str, plan: str, params: list[tuple[str, Any, str]], kernel: list[tuple[str, str]],
            chain: Chain, helpers: list[Helper], site: tuple[str, int], expect: str,
            feats: dict[str, Any]) -> HelperCase:
    feats.update(forms=chain.forms, gaps=sorted(set(chain.gaps_used)), expect=expect)
    host = [f"k({', '.join(_torch(s, d) for _, s, d in params)})"]
    case = HelperCase(family, params, kernel, ann=draw(st.sampled_from(["call", "call", "sub"])), pre=chain.pre,
                      features=feats, helpers=helpers, host=host, plan=plan,
                      site=None if expect == "OK" else site, expect=expect)
    case.render()
    return case


@st.composite
def helper_cases(draw: Any, gaps: bool = False) -> HelperCase:
    """Vector cases three times as often as matmul cases."""
    strategy = draw(st.sampled_from([vec_helper_case(gaps)] * 3 + [matmul_helper_case(gaps)]))
    case: HelperCase = draw(strategy)
    return case


# The (family, plan) of each kernel in turn: every share has each plan, whatever its size.
ROTATION = [("helper-vec", "kernel"), ("helper-vec", "helper"), ("helper-matmul", "kernel"), ("helper-vec", "override"),
            ("helper-vec", "kernel_after"), ("helper-vec", "helper_after"), ("helper-matmul", "helper"),
            ("helper-vec", "helper"), ("helper-vec", "override"), ("helper-matmul", "override"),
            ("helper-vec", "kernel"), ("helper-vec", "none"), ("helper-matmul", "param"),
            ("helper-vec", "helper_after"), ("helper-vec", "kernel_after"), ("helper-matmul", "none")]


def _signature(c: HelperCase) -> tuple[Any, ...]:
    f = c.features
    return (c.family, c.plan, f["op"], f["dt"], f["levels"], tuple(f["forms"]), c.expect)


def generate_helpers(n: int, seed: int = 0, gaps: bool = False) -> list[HelperCase]:
    """n distinct helper kernels, deterministic for a given seed (no database): the plans in turn
    (``ROTATION``), unlike ones first (hypothesis draws runs of near copies); with ``gaps`` also
    the forms listed in ``GAPS``."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    pool: dict[str, HelperCase] = {}

    @hseed(seed)
    @settings(max_examples=n * 5 + 40, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(helper_cases(gaps))
    def collect(c: HelperCase) -> None:
        pool.setdefault(c.source, c)

    collect()
    left = list(pool.values())
    out: list[HelperCase] = []
    taken: set[tuple[Any, ...]] = set()
    for i in range(n):
        if not left:
            break
        family, plan = ROTATION[i % len(ROTATION)]
        ranked = sorted(range(len(left)), key=lambda j: ((left[j].family, left[j].plan) != (family, plan),
                                                         _signature(left[j]) in taken, j))
        c = left.pop(ranked[0])
        taken.add(_signature(c))
        out.append(c)
    for i, c in enumerate(out):
        c.features["index"] = i
    return out

"""Hypothesis strategies for helper kernels: a jit kernel that calls plain helper functions, one to
three levels deep, which run as Python inside the kernel's trace (rule: helper-runs-in-the-trace).

The tile setting is global state, so where a tile is set is the point of each case (its ``plan``):
- ``kernel``: the kernel sets the tile, the innermost helper's op runs under it;
- ``helper``: a helper (at some depth) sets it before the op;
- ``override``: the kernel sets one tile, a helper another, and the op runs under the helper's;
- ``twice``: the kernel calls the helper twice, under two tiles of its own;
- ``sibling``: a first helper sets the tile, the op of a second helper called after it runs under it;
- ``kernel_after``: the helper's op runs under the kernel's tile, then the kernel sets another one
  for its own reduction after the call;
- ``helper_after``: the helper sets the tile, and the kernel's reduction after the call runs under it;
- ``none``: no tile at all.
Matmul cases do the same with the cube tile (``param``: three list parameters). How tiles are
written and passed is ``helper_tiles.py``; helper parameters are unannotated, partly annotated
(``x: pypto.Tensor, eps, hidden``) or annotated.

Each case is meant to compile or to fail at one op (its ``site``), about half each. The generator's
prediction (``expect``) only keeps that mix and pins the structure in tests: the compiler decides.
The compiler's marker names a kernel line (``blame_line``: the call of the outermost helper, or the
kernel's own op); the checker names the helper's op (``site_line``). Forms the checker does not
follow yet (``GAPS``, each pinned by known-gap regression kernels) come only with ``gaps=True``.
``@pypto.frontend.function`` helpers are not generated: 0.2.0 fails on them with an unrelated
``not enough values to unpack``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .generator import BYTES, TORCH_DT, reduce_shape, shapes
from .helper_case import HelperCase
from .helper_tiles import GAPS, Chain, Helper, TileSpec, cube_stmts, vec_stmts

__all__ = ["GAPS", "Helper", "HelperCase", "generate_helpers", "helper_cases", "verdict"]

FLOATS = ["FP32", "FP16", "BF16"]
REDUCE_DT = ["FP32", "FP16", "BF16", "INT8", "INT32"]
REDUCTIONS = ("sum", "amax", "amin")
NAMES = {1: ["core"], 2: ["block", "core"], 3: ["forward", "block", "core"]}
VEC_PLANS = ["kernel", "helper", "override", "twice", "sibling", "kernel_after", "helper_after", "none"]
MM_PLANS = ["kernel", "helper", "override", "param", "none"]
Stmts = list[tuple[str, str]]


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


def _ops(draw: Any, op: str, dt: str, keepdim: bool, rank: int) -> tuple[Stmts, list[str]]:
    """The innermost helper's statements on its parameter x (the first runs the op that may
    fail), and the extra parameters they read."""
    kd = f", keepdim={keepdim}" if keepdim or draw(st.booleans()) else ""
    if op in REDUCTIONS:
        expr = draw(st.sampled_from([f"x.{op}(-1{kd})", f"pypto.{op}(x, -1{kd})"]))
        if draw(st.booleans()):
            return [("op", f"s = {expr}"), ("op", "return s")], []
        return [("op", f"return {expr}")], []
    if op == "center":
        red = draw(st.sampled_from(REDUCTIONS))
        return [("op", f"m = x.{red}(-1, keepdim=True)"), ("op", "return x - m")], []
    if op == "layernorm":  # sometimes with a [1, C] or [C] gamma (on 3-D it would expand two axes)
        last = "return (x - mean) * gamma + eps" if rank <= 2 and draw(st.booleans()) else "return (x - mean) + eps"
        return [("op", "mean = x.sum(-1, keepdim=True) / hidden"), ("op", last)], ["eps", "hidden"]
    if op == "softmax":
        return [("op", draw(st.sampled_from(["return pypto.softmax(x, -1)", "return x.softmax(-1)"])))], []
    forms = ["return x * scale", "return x + x"] + (
        ["return pypto.exp(x)", "return pypto.sigmoid(x) * scale"] if dt in FLOATS else [])
    src = draw(st.sampled_from(forms))
    return [("op", src)], ["scale"] if "scale" in src else []


def _kernel_tile(draw: Any, tile: list[int], chain: Chain, name: str = "tile") -> Stmts:
    return vec_stmts(draw, TileSpec(tile, "kernel", "a", name=name), chain)


def _setup_chain(draw: Any, a: list[int], dt: str, gaps: bool, tile: list[int]) -> tuple[Chain, list[Helper]]:
    """The first helper of the plan ``sibling``: sets ``tile`` (itself, or a helper it calls) and
    scales its input."""
    levels = draw(st.integers(1, 2))
    setup = Chain(draw, ["prepare", "setup"][-levels:], a, dt, gaps, [], const="TILE_S")
    setup.set_at(levels - 1, vec_stmts(draw, TileSpec(tile, "helper", "x", levels - 1, after=True), setup))
    return setup, setup.helpers([("op", "return x * 2.0" if dt in FLOATS else "return x + x")])


@st.composite
def vec_helper_case(draw: Any, gaps: bool = False) -> HelperCase:
    plan = draw(st.sampled_from(VEC_PLANS))
    after = plan in ("kernel_after", "helper_after")
    op = draw(st.sampled_from(["sum", "amax", "amin", "center", "layernorm", "softmax", "elementwise"]))
    if plan == "helper_after" or (after and op in REDUCTIONS):
        op = "elementwise"  # runs under the tile meant for the kernel's reduction after the call
    if plan == "sibling" and op == "elementwise":
        op = "sum"  # the first helper's elementwise op runs under the same tile
    bad = plan == "none" or draw(st.integers(0, 4)) < 2  # 40%: the plan "none" adds its own bad cases
    dt = draw(st.sampled_from(FLOATS if op in ("layernorm", "softmax") else REDUCE_DT))
    short = op == "elementwise" and bad and plan in ("kernel", "helper", "override", "twice")  # a tile short of the rank
    a = draw(shapes(2 if short else 1, 3, 2048))
    rank, levels, keepdim = len(a), draw(st.integers(1, 3)), draw(st.booleans())
    depth = draw(st.integers(0, levels - 1))
    ops, extras = _ops(draw, op, dt, keepdim, rank)
    tensors = ("a", "g") if "gamma" in ops[-1][1] else ("a",)
    chain = Chain(draw, NAMES[levels], a, dt, gaps, extras, tensors=("x", "gamma")[:len(tensors)])
    kernel: Stmts = []
    extra: list[Helper] = []
    feats: dict[str, Any] = {"plan": plan, "op": op, "dt": dt, "levels": levels, "depth": depth}
    result = reduce_shape(a, -1, keepdim) if op in REDUCTIONS else list(a)
    red = draw(st.sampled_from(REDUCTIONS))  # the kernel's reduction after the call
    tile = None if plan == "none" else _tile(draw, red if after else op, dt, rank, not bad)
    expect = verdict(red if after else op, dt, rank, tile)
    first_bad = plan == "twice" and bad and draw(st.booleans())  # which of the two calls fails
    first: list[int] | None = None  # the kernel's tile before the call
    if plan == "kernel":
        first = tile
    elif plan == "twice":
        first = _tile(draw, op, dt, rank, not first_bad)
        expect = verdict(op, dt, rank, first) if first_bad else expect
    elif plan == "kernel_after":  # the helper's op runs under it; an elementwise op takes any tile
        first = _tile(draw, red, dt, rank, bad) if op == "elementwise" else _tile(draw, op, dt, rank, True)
    elif plan == "override" or (plan in ("helper_after", "sibling") and draw(st.booleans())):
        first = _tile(draw, red if after else op, dt, rank, bad)  # replaced: meant for the other verdict
    if first is not None:
        kernel += _kernel_tile(draw, first, chain)
    if plan in ("helper", "override", "helper_after") and tile is not None:
        spec = TileSpec(tile, "helper", "x", depth, after=plan == "helper_after")
        chain.set_at(depth, vec_stmts(draw, spec, chain))
    if plan != "none" and not short:
        chain.pre_op_from = depth if plan in ("helper", "override", "helper_after") else 0
    if plan == "sibling" and tile is not None:
        setup, extra = _setup_chain(draw, a, dt, gaps, tile)
        kernel += setup.kernel_lists + [("write", f"o1[:] = {setup.call('a')}")]
        chain.pre += setup.pre
        chain.forms += setup.forms
        chain.gaps_used += setup.gaps_used
    helpers = chain.helpers(ops)
    kernel += chain.kernel_lists
    params: list[tuple[str, Any, str]] = [("a", a, dt)]
    if len(tensors) == 2:
        params.append(("g", draw(st.sampled_from([[1, a[-1]], [a[-1]]])) if rank > 1 else [a[-1]], dt))
    site: tuple[str, int] = (helpers[-1].name, len(helpers[-1].body) - len(ops))
    first_call = 0
    if plan == "sibling":
        params.append(("o1", list(a), dt))
    if plan == "twice":
        kernel.append(("write", f"o1[:] = {chain.call(*tensors)}"))
        params.append(("o1", result, dt))
        first_call = len(kernel) - 1
        if not first_bad:
            kernel += _kernel_tile(draw, tile or [], chain, name="tile_after")
    if not after:
        blame = first_call if first_bad else len(kernel)
        kernel.append(("write", f"out[:] = {chain.call(*tensors)}"))
        params.append(("out", result, dt))
        if plan == "none":
            feats.update(reduction=op != "elementwise", tile="none")  # a reduction with no tile crashes
    else:
        on_result = draw(st.integers(0, 1 if gaps else 2)) == 0  # the kernel reduces what the helper returned
        if on_result and any(h.ret for h in helpers):  # its annotation hides the tensor: a known gap
            if gaps:
                chain.gaps_used.append("annotated_result")
            else:
                for h in helpers:
                    h.ret = ""
        if on_result:
            kernel.append(("op", f"t = {chain.call(*tensors)}"))
        else:
            kernel.append(("write", f"o1[:] = {chain.call(*tensors)}"))
            params.append(("o1", list(a), dt))
        if plan == "kernel_after":
            kernel += _kernel_tile(draw, tile or [], chain, name="tile_after")
        src, kd2 = "t" if on_result else "a", draw(st.booleans())
        expr = draw(st.sampled_from([f"{src}.{red}(-1, keepdim={kd2})", f"pypto.{red}({src}, -1, keepdim={kd2})"]))
        blame = len(kernel)
        kernel.append(("write", f"out[:] = {expr}"))
        params.append(("out", reduce_shape(a, -1, kd2), dt))
        site = ("k", blame)
        feats.update(after_op=red, on_result=on_result)
    return _finish(draw, "helper-vec", plan, params, kernel, chain, extra + helpers[::-1], site, blame, expect, feats)


@st.composite
def matmul_helper_case(draw: Any, gaps: bool = False) -> HelperCase:
    """A matmul in the innermost helper under a cube tile set in the kernel, in a helper, in both,
    from list parameters, or nowhere (rules: cube-tile-required, cube-tile-alignment, cube-l1-l0)."""
    plan = draw(st.sampled_from(MM_PLANS))
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
    kernel: Stmts = []
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
    return _finish(draw, "helper-matmul", plan, params, kernel, chain, helpers[::-1], site, len(kernel) - 1,
                   expect, feats)


def _torch(shape: list[int], dt: str) -> str:
    return f"torch.ones({', '.join(map(str, shape))}, dtype={TORCH_DT[dt]})"


def _finish(draw: Any, family: str, plan: str, params: list[tuple[str, Any, str]], kernel: Stmts, chain: Chain,
            helpers: list[Helper], site: tuple[str, int], blame: int, expect: str,
            feats: dict[str, Any]) -> HelperCase:
    """The case, rendered; ``helpers`` in definition order (sometimes after the kernel)."""
    feats.update(forms=chain.forms, gaps=sorted(set(chain.gaps_used)), expect=expect)
    host = [f"k({', '.join(_torch(s, d) for _, s, d in params)})"]
    bad = expect != "OK"
    case = HelperCase(family, params, kernel, ann=draw(st.sampled_from(["call", "call", "sub"])),
                      pre=list(dict.fromkeys(chain.pre)), features=feats, helpers=helpers,
                      main=chain.names, after_kernel=draw(st.sampled_from([False] * 5 + [True])), host=host, plan=plan,
                      site=site if bad else None, blame=blame if bad else None, expect=expect)
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
            ("helper-vec", "kernel_after"), ("helper-vec", "twice"), ("helper-vec", "helper_after"),
            ("helper-matmul", "helper"), ("helper-vec", "sibling"), ("helper-vec", "helper"),
            ("helper-matmul", "override"), ("helper-vec", "none"), ("helper-vec", "override"),
            ("helper-matmul", "param"), ("helper-vec", "kernel"), ("helper-vec", "twice"),
            ("helper-vec", "helper_after"), ("helper-vec", "sibling"), ("helper-vec", "kernel_after"),
            ("helper-matmul", "none")]


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
    for i in range(min(n, len(left))):
        family, plan = ROTATION[i % len(ROTATION)]
        show_gap = gaps and i % 2 == 0  # a gap run shows its gap forms in every other kernel
        best = min(range(len(left)), key=lambda j: ((left[j].family, left[j].plan) != (family, plan),
                                                    show_gap and not left[j].features["gaps"],
                                                    _signature(left[j]) in taken, j))
        c = left.pop(best)
        taken.add(_signature(c))
        out.append(c)
    for i, c in enumerate(out):
        c.features["index"] = i
    return out

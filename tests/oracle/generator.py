"""Hypothesis strategies that build small PyPTO 0.2.0 jit kernels as real modules.

Each generated :class:`Case` is one kernel with one or two ops, so a rejection has one cause.
The generator keeps a tiny model of the shapes it writes (broadcasting, reductions, reshape,
transpose, matmul) only to size the ``out`` parameter; it never decides the verdict: the real
compiler does (``runner.py``) and the checker is compared with it (``compare.py``).

Known traps of the 0.2.0 compiler that the generator avoids on purpose (they would be
undefined behaviour, not a verdict):
- a last-axis reduction with a vec tile shorter than the tensor's rank reads past the end
  of the tile list (rule: vec-tile-rank);
- reusing a tensor after it was written to an output (rule: move-empties-source);
- dynamic dims (SIGFPE / INT32_MAX errors) and tiles big enough to overflow the UB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

DTYPES = ["FP32", "FP16", "BF16", "INT8", "INT32"]
FLOATS = ["FP32", "FP16", "BF16"]
BYTES = {"FP32": 4, "FP16": 2, "BF16": 2, "INT8": 1, "INT32": 4, "BOOL": 1, "INT16": 2}
DIMS = [1, 2, 4, 8, 16, 32, 64]
JIT = '@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})'

# (role, source) roles: "tile" / "cube" (tile setters), "op" (an op that can fail),
# "write" (out[:] = ...; an op when it contains an expression), "ret" (a return statement)


@dataclass
class Case:
    family: str
    params: list[tuple[str, Any, str]]  # (name, shape list, dtype name); shape None = a float scalar param
    body: list[tuple[str, str]]
    ann: str = "call"  # "call" | "sub" | "tuple" (call form with a tuple) | "nodtype" (FP32 only)
    pre: list[str] = field(default_factory=list)  # module-level lines
    ret_annotation: bool = False
    out_mismatch: str | None = None  # "shape" / "dtype": the generator wrote an out the result does not fit
    features: dict[str, Any] = field(default_factory=dict)
    name: str = "k"
    # filled by render()
    source: str = ""
    stmt_lines: list[tuple[int, str, str]] = field(default_factory=list)  # (line, role, source)
    def_line: int = 0

    def render(self) -> str:
        lines = ["import pypto", ""]
        lines += self.pre
        if self.pre:
            lines.append("")
        lines.append("")
        lines.append(JIT)
        sig = ", ".join(_param_src(n, s, d, self.ann) for n, s, d in self.params)
        ret = " -> None" if self.ret_annotation else ""
        lines.append(f"def {self.name}({sig}){ret}:")
        self.def_line = len(lines)
        self.stmt_lines = []
        for role, src in self.body:
            lines.append("    " + src)
            self.stmt_lines.append((len(lines), role, src))
        lines.append("")
        self.source = "\n".join(lines)
        return self.source

    def op_lines(self) -> list[int]:
        """Lines of statements that run an op (candidates for an error without a line marker)."""
        return [ln for ln, role, src in self.stmt_lines if role == "op" or (role == "write" and src != "out[:] = t")]

    def trace_lines(self, line: int) -> set[int]:
        """The kernel lines a checker finding on ``line`` stands for (helper kernels map a helper's
        line onto the kernel's call of it: helper_generator.py)."""
        return {line}

    def host_call(self, module: str) -> str:
        """A driver script: torch tensors of the annotated shapes/dtypes, one call of the kernel."""
        out = ["import torch", f"import {module} as m", ""]
        args = []
        rows = self.features.get("rows", 16)  # the size a call gives a DYNAMIC / dynamic("N") dim
        for n, s, d in self.params:
            if s is None:
                args.append("2.0")
                continue
            sizes = [rows if isinstance(x, str) else x for x in s]
            out.append(f"{n} = torch.ones({sizes!r}, dtype={TORCH_DT[d]})")
            args.append(n)
        out.append(f"m.{self.name}({', '.join(args)})")
        out.append('print("ORACLE_OK", flush=True)')
        return "\n".join(out) + "\n"

    def summary(self) -> str:
        sig = ", ".join(f"{n}{list(s) if s is not None else ''}:{d}" for n, s, d in self.params)
        body = "; ".join(src for _, src in self.body)
        return f"[{sig}] {body}"


TORCH_DT = {
    "FP32": "torch.float32", "FP16": "torch.float16", "BF16": "torch.bfloat16",
    "INT8": "torch.int8", "INT16": "torch.int16", "INT32": "torch.int32", "BOOL": "torch.bool",
}


def _param_src(name: str, shape: Any, dt: str, ann: str) -> str:
    if shape is None:
        return f"{name}: float"
    if any(isinstance(d, str) for d in shape):  # a dim written as source: pypto.DYNAMIC, N
        dims = "[" + ", ".join(str(d) for d in shape) + "]"
        return f"{name}: pypto.Tensor[{dims}, pypto.DT_{dt}]" if ann == "sub" else f"{name}: pypto.Tensor({dims}, pypto.DT_{dt})"
    if ann == "sub":
        return f"{name}: pypto.Tensor[{list(shape)!r}, pypto.DT_{dt}]"
    if ann == "tuple":
        return f"{name}: pypto.Tensor({tuple(shape)!r}, pypto.DT_{dt})"
    if ann == "nodtype" and dt == "FP32":
        return f"{name}: pypto.Tensor({list(shape)!r})"
    return f"{name}: pypto.Tensor({list(shape)!r}, pypto.DT_{dt})"


# ---------------------------------------------------------------------------------------------
# shape model (only to size `out`)

def broadcast(a: list[int], b: list[int]) -> list[int] | None:
    """numpy broadcasting plus 0.2.0's "each operand expands at most one axis"; None if rejected."""
    n = max(len(a), len(b))
    pa, pb = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    res = []
    for x, y in zip(pa, pb):
        if x != y and 1 not in (x, y):
            return None
        res.append(max(x, y))
    for p in (pa, pb):
        if sum(1 for x, r in zip(p, res) if x != r) > 1:
            return None
    return res


def reduce_shape(shape: list[int], axis: int, keepdim: bool) -> list[int] | None:
    r = len(shape)
    if not -r <= axis < r:
        return None
    ax = axis % r
    out = list(shape)
    out[ax] = 1
    if not keepdim and r > 1:
        del out[ax]
    return out


# ---------------------------------------------------------------------------------------------
# strategies

dims = st.sampled_from(DIMS)


@st.composite
def shapes(draw: Any, min_rank: int = 1, max_rank: int = 3, max_elems: int = 4096) -> list[int]:
    rank = draw(st.integers(min_rank, max_rank))
    while True:
        s = [draw(st.sampled_from([2, 4, 8, 16, 32, 64]) if i == rank - 1 else st.sampled_from([1, 2, 4, 8, 16]))
             for i in range(rank)]
        if math.prod(s) <= max_elems:
            return s
        # shrink the largest dim until small enough
        while math.prod(s) > max_elems:
            i = s.index(max(s))
            s[i] //= 2
        return s


@st.composite
def ann_forms(draw: Any, dtypes: list[str]) -> tuple[str, list[str]]:
    """Annotation form, plus optional module-level constants for it."""
    form = draw(st.sampled_from(["call", "call", "sub", "sub", "tuple", "nodtype"]))
    return form, []


def _tile_src(draw: Any, values: list[int], pre: list[str]) -> str:
    """pypto.set_vec_tile_shapes with literal ints, or through a module constant tuple."""
    if draw(st.integers(0, 4)) == 0:
        pre.append(f"TILE = {tuple(values)!r}")
        return "pypto.set_vec_tile_shapes(*TILE)"
    return f"pypto.set_vec_tile_shapes({', '.join(map(str, values))})"


@st.composite
def vec_tile(draw: Any, out_shape: list[int], pre: list[str], allow_short: bool = True,
             last_align: int | None = None, kind: str | None = None) -> tuple[str, str | None, list[int] | None]:
    """Returns (kind, statement or None, tile values). Kinds: none / full / long / short / aligned / unaligned."""
    r = len(out_shape)
    kinds = ["none", "full", "full", "full", "long"]
    if allow_short and r >= 2:
        kinds.append("short")
    if last_align is not None:
        kinds += ["aligned", "aligned", "unaligned", "unaligned"]
    k = kind or draw(st.sampled_from(kinds))
    if k == "none":
        return k, None, None
    vals = [min(d, 64) for d in out_shape]
    if k == "long":
        vals = [1] + vals
    elif k == "short":
        vals = vals[1:]
    elif k in ("aligned", "unaligned") and last_align is not None:
        if k == "aligned":
            vals[-1] = last_align * draw(st.sampled_from([1, 1, 2, 3, 4]))
        else:
            choices = [v for v in (last_align // 2, last_align // 4, last_align + last_align // 2, 4, 12, 20, 6)
                       if v > 0 and v % last_align != 0]
            vals[-1] = draw(st.sampled_from(choices))
    return k, _tile_src(draw, vals, pre), vals


def _write(draw: Any, expr: str, body: list[tuple[str, str]], role: str = "op") -> None:
    """out[:] = expr, or t = expr; out[:] = t."""
    if draw(st.booleans()):
        body.append(("write", f"out[:] = {expr}"))
    else:
        body.append((role, f"t = {expr}"))
        body.append(("write", "out[:] = t"))


@st.composite
def out_param(draw: Any, shape: list[int], dt: str, case_feats: dict[str, Any], allow_mismatch: bool = True
              ) -> tuple[tuple[str, list[int], str], str | None]:
    """The out parameter; sometimes (deliberately) of another shape or dtype than the result."""
    mism = draw(st.sampled_from([None] * 10 + ["shape", "dtype"])) if allow_mismatch else None
    if mism == "shape":
        s = list(shape)
        if len(s) >= 2 and s[-1] == 1:
            s = s[:-1]  # [8, 1] result into [8] out (like rule: write-unchecked)
        else:
            s[-1] = s[-1] * 2
        return ("out", s, dt), mism
    if mism == "dtype":
        other = {"FP32": "BF16", "FP16": "FP32", "BF16": "FP32", "INT8": "INT32", "INT32": "FP32", "BOOL": "FP32"}[dt]
        return ("out", list(shape), other), mism
    return ("out", list(shape), dt), None


# --- elementwise binary --------------------------------------------------------------------------

BIN_OPS = {  # name: (operator, functional, method, is_comparison)
    "add": ("+", "pypto.add", "add", False),
    "sub": ("-", "pypto.sub", "sub", False),
    "mul": ("*", "pypto.mul", "mul", False),
    "div": ("/", "pypto.div", "div", False),
    "maximum": (None, "pypto.maximum", "maximum", False),
    "minimum": (None, "pypto.minimum", None, False),
    "gt": (">", "pypto.gt", "greater", True),
    "lt": ("<", "pypto.lt", None, True),
    "ge": (">=", "pypto.ge", None, True),
    "eq": ("==", "pypto.eq", None, True),
}
REFLECT = {">": "<", "<": ">", ">=": "<=", "==": "=="}


def _other_shape(draw: Any, a: list[int], kind: str) -> list[int]:
    b = list(a)
    if kind == "same":
        return b
    if kind == "one_axis":  # a dim of b becomes 1
        idx = [i for i, d in enumerate(a) if d != 1]
        if idx:
            b[draw(st.sampled_from(idx))] = 1
        return b
    if kind == "drop":  # rank-pad: drop the leading dim
        return b[1:] if len(b) >= 2 else [1]
    if kind == "mismatch":  # a non-1 dim differs
        i = draw(st.integers(0, len(b) - 1))
        b[i] = {1: 4, 2: 4, 4: 8, 8: 4, 16: 8, 32: 16, 64: 32}[b[i]]
        return b
    if kind == "two_axes":  # b expands two axes
        idx = [i for i, d in enumerate(a) if d != 1]
        if len(idx) >= 2:
            for i in draw(st.permutations(idx))[:2]:
                b[i] = 1
        else:
            b = [1] * len(a)
            b[-1] = a[-1]
            b = [1, 1] + b[-1:]
        return b
    if kind == "outer":  # [8, 1] op [1, 16] (each side expands one axis)
        if len(a) >= 2:
            b = [1] * len(a)
            b[-1] = a[-1]
        return b
    raise AssertionError(kind)


@st.composite
def binary_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(DTYPES))
    a = draw(shapes(1, 3, 2048))
    kind = draw(st.sampled_from(["same", "same", "one_axis", "one_axis", "drop", "outer", "mismatch", "two_axes",
                                 "scalar_r", "scalar_l", "dtype"]))
    opname = draw(st.sampled_from(sorted(BIN_OPS)))
    oper, func, meth, is_cmp = BIN_OPS[opname]
    params: list[tuple[str, Any, str]] = [("a", a, dt)]
    feats: dict[str, Any] = {"op": opname, "kind": kind}
    if kind in ("scalar_r", "scalar_l"):
        # a Python int compared with a tensor fails at trace time with TypeError (Compare() gets no
        # Element): no check covers it, so comparisons only get float scalars
        scalar = draw(st.sampled_from(["2.0", "0.5"] if is_cmp else ["2.0", "0.5", "1", "3"]))
        if kind == "scalar_l" and oper is not None:
            expr = f"{scalar} {REFLECT.get(oper, oper)} a" if is_cmp else f"{scalar} {oper} a"
            style = "operator"
        else:
            style = draw(st.sampled_from([s for s, ok in (("operator", oper), ("functional", func), ("method", meth))
                                          if ok]))
            expr = {"operator": f"a {oper} {scalar}", "functional": f"{func}(a, {scalar})",
                    "method": f"a.{meth}({scalar})"}[style]
        res_shape: list[int] | None = a
    else:
        bdt = dt
        if kind == "dtype":
            bdt = draw(st.sampled_from([d for d in DTYPES if d != dt]))
            b = list(a)
        else:
            b = _other_shape(draw, a, kind)
        swap = draw(st.booleans())
        params.append(("b", b, bdt))
        x, y = ("b", "a") if swap else ("a", "b")
        style = draw(st.sampled_from([s for s, ok in (("operator", oper), ("functional", func), ("method", meth))
                                      if ok]))
        expr = {"operator": f"{x} {oper} {y}", "functional": f"{func}({x}, {y})",
                "method": f"{x}.{meth}({y})"}.get(style, "")
        sx, sy = (b, a) if swap else (a, b)
        res_shape = broadcast(sx, sy)
        if swap:
            dt = bdt
    feats["style"] = style
    out_dt = "BOOL" if is_cmp else dt
    shape_for_out = res_shape if res_shape is not None else a
    pre: list[str] = []
    tkind, tile, _ = draw(vec_tile(shape_for_out, pre))
    feats["tile"] = tkind
    body: list[tuple[str, str]] = []
    if tile:
        body.append(("tile", tile))
    _write(draw, expr, body)
    outp, mism = draw(out_param(shape_for_out, out_dt, feats))
    form, _ = draw(ann_forms(DTYPES))
    return Case("binary", params + [outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- unary / member access ---------------------------------------------------------------------

UNARY = ["pypto.exp(a)", "a.exp()", "pypto.sqrt(a)", "a.sqrt()", "pypto.abs(a)", "-a", "pypto.neg(a)",
         "a.sigmoid()", "pypto.reciprocal(a)", "a.relu()", "a ** 2", "pypto.rsqrt(a)"]
NO_METHOD = ["a.abs()", "a.neg()", "a.float()", "a.half()", "a.pow(2)", "a.mean(-1)", "a.max(-1)", "a.min(-1)",
             "a.cast(pypto.DT_FP16)", "a.clamp(0.0, 1.0)", "a.square()"]


@st.composite
def unary_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(FLOATS))
    a = draw(shapes(1, 3, 2048))
    bad = draw(st.integers(0, 3)) == 0
    expr = draw(st.sampled_from(NO_METHOD if bad else UNARY))
    pre: list[str] = []
    tkind, tile, _ = draw(vec_tile(a, pre))
    body: list[tuple[str, str]] = []
    if tile:
        body.append(("tile", tile))
    _write(draw, expr, body)
    feats = {"expr": expr, "tile": tkind}
    outp, mism = draw(out_param(a, dt, feats, allow_mismatch=not bad))
    form, _ = draw(ann_forms(FLOATS))
    return Case("unary", [("a", a, dt), outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- reductions ---------------------------------------------------------------------------------

@st.composite
def reduce_case(draw: Any) -> Case:
    op = draw(st.sampled_from(["sum", "sum", "amax", "amin", "var", "softmax"]))
    if op in ("var", "softmax"):
        dt = draw(st.sampled_from(FLOATS))
    else:
        dt = draw(st.sampled_from(DTYPES))
    a = draw(shapes(2 if op == "var" else 1, 3, 4096))
    r = len(a)
    axis_kind = draw(st.sampled_from(["last", "last", "last", "lastpos", "other", "oor", "oor_neg"]))
    if axis_kind == "other" and r == 1:
        axis_kind = "last"
    axis = {"last": -1, "lastpos": r - 1, "oor": r, "oor_neg": -r - 1}.get(axis_kind, None)
    if axis is None:
        axis = draw(st.integers(0, r - 2))
    keepdim = draw(st.booleans())
    style = draw(st.sampled_from(["method", "functional"]))
    if op == "softmax":
        expr = f"a.softmax({axis})" if style == "method" else f"pypto.softmax(a, {axis})"
        res = list(a)
    else:
        kd = f", keepdim={keepdim}" if keepdim or draw(st.booleans()) else ""
        if style == "method":
            expr = f"a.{op}({axis}{kd})"
        else:
            expr = f"pypto.{op}(a, {axis}{kd})"
        res = reduce_shape(a, axis, keepdim) or list(a)
    eff = 4 if op in ("var", "softmax") and dt in ("FP16", "BF16") else BYTES[dt]
    is_last = axis_kind in ("last", "lastpos")
    pre: list[str] = []
    # a last-axis reduction with a tile shorter than the rank is undefined behaviour in 0.2.0: never write one
    tkind, tile, tvals = draw(vec_tile(a, pre, allow_short=not is_last and axis_kind != "oor_neg",
                                       last_align=32 // eff))
    body: list[tuple[str, str]] = []
    if tile:
        body.append(("tile", tile))
    feats = {"op": op, "axis": axis, "axis_kind": axis_kind, "keepdim": keepdim, "tile": tkind, "tile_vals": tvals,
             "reduction": True, "style": style}
    second = keepdim and op != "softmax" and axis_kind != "oor" and axis_kind != "oor_neg" and draw(st.booleans())
    if second:  # broadcast the reduced tensor back: m = a.amax(-1, keepdim=True); out[:] = a - m
        body.append(("op", f"m = {expr}"))
        body.append(("write", "out[:] = a - m"))
        res = list(a)
        feats["second"] = True
    else:
        _write(draw, expr, body)
    outp, mism = draw(out_param(res, dt, feats))
    form, _ = draw(ann_forms(DTYPES))
    return Case("reduce", [("a", a, dt), outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- reshape / view ----------------------------------------------------------------------------

def _factorings(n: int, rank: int) -> list[list[int]]:
    if rank == 1:
        return [[n]]
    out = []
    for d in (1, 2, 4, 8, 16, 32, 64, 128):
        if n % d == 0:
            for rest in _factorings(n // d, rank - 1):
                out.append([d] + rest)
    return out


@st.composite
def reshape_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(DTYPES))
    a = draw(shapes(1, 3, 2048))
    n = math.prod(a)
    kind = draw(st.sampled_from(["ok", "ok", "minus1", "count", "view_ok", "view_rank"]))
    feats: dict[str, Any] = {"kind": kind}
    if kind in ("ok", "minus1", "count"):
        rank = draw(st.integers(1, 3))
        cands = [f for f in _factorings(n, rank) if max(f) <= 128] or [[n]]
        target = draw(st.sampled_from(cands))
        res = list(target)
        written = list(target)
        if kind == "minus1":
            written[draw(st.integers(0, rank - 1))] = -1
        elif kind == "count":
            i = draw(st.integers(0, rank - 1))
            written[i] = written[i] * 2 if written[i] < 64 or rank == 1 else written[i] // 2
            res = list(a)
        style = draw(st.sampled_from(["method", "functional"]))
        expr = f"a.reshape({written!r})" if style == "method" else f"pypto.reshape(a, {written!r})"
    else:
        if kind == "view_ok":
            res = [max(1, d // 2) for d in a]
            offs = [0] * len(a)
            expr = f"pypto.view(a, {res!r}, {offs!r})" if draw(st.booleans()) else f"a.view({res!r}, {offs!r})"
        else:
            res = [n] if len(a) > 1 else [1, n]
            expr = f"pypto.view(a, {res!r}, {[0] * len(res)!r})"
            res = list(a)
    pre: list[str] = []
    tkind, tile, _ = draw(vec_tile(res if len(res) >= len(a) else a, pre))
    feats["tile"] = tkind
    body: list[tuple[str, str]] = []
    if tile:
        body.append(("tile", tile))
    if draw(st.booleans()):
        body.append(("op", f"t = {expr}"))
        body.append(("write", "out[:] = t * 2" if dt.startswith("INT") else "out[:] = t * 2.0"))
        feats["second"] = True
    else:
        _write(draw, expr, body)
    outp, mism = draw(out_param(res, dt, feats))
    form, _ = draw(ann_forms(DTYPES))
    return Case("reshape", [("a", a, dt), outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- transpose -----------------------------------------------------------------------------------

@st.composite
def transpose_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(FLOATS + ["INT32"]))
    a = draw(shapes(2, 3, 2048))
    r = len(a)
    kind = draw(st.sampled_from(["ok", "ok", "ok", "neg", "oor", "T"]))
    if kind == "T" and r != 2:
        kind = "ok"
    if kind == "oor":
        d0, d1 = 0, r
    elif kind == "neg":
        d0, d1 = -1, -2
    else:
        d0, d1 = sorted(draw(st.permutations(list(range(r))))[:2])
    res = list(a)
    if kind != "oor":
        res[d0], res[d1] = res[d1], res[d0]
    if kind == "T":
        res = [a[1], a[0]]
        expr = "a.T"
    else:
        expr = draw(st.sampled_from([f"pypto.transpose(a, {d0}, {d1})", f"a.transpose({d0}, {d1})"]))
    pre: list[str] = []
    tkind, tile, _ = draw(vec_tile(a, pre))
    body: list[tuple[str, str]] = []
    if tile:
        body.append(("tile", tile))
    _write(draw, expr, body)
    feats = {"kind": kind, "tile": tkind, "dims": (d0, d1)}
    outp, mism = draw(out_param(res, dt, feats))
    form, _ = draw(ann_forms(DTYPES))
    return Case("transpose", [("a", a, dt), outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- matmul --------------------------------------------------------------------------------------

MM_DT = ["FP16", "FP16", "BF16", "FP32", "INT8"]


def _cube(dt: str, kind: str) -> str:
    m = 32 if dt == "INT8" else 16
    n = 32 if dt == "INT8" else 16
    if kind == "good":
        return f"pypto.set_cube_tile_shapes([{m}, {m}], [32, 32], [{n}, {n}])"
    if kind == "k8":
        return f"pypto.set_cube_tile_shapes([{m}, {m}], [8, 8], [{n}, {n}])"
    if kind == "l1":
        return f"pypto.set_cube_tile_shapes([{m}, {m}], [64, 32], [{n}, {n}])"
    if kind == "n8":
        return f"pypto.set_cube_tile_shapes([{m}, {m}], [32, 32], [8, 8])"
    raise AssertionError(kind)


@st.composite
def matmul_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(MM_DT))
    kind = draw(st.sampled_from(["ok", "ok", "ok", "ok", "ones", "ones", "k", "k", "rank", "batch", "dtype",
                                 "outdt", "T", "cube"]))
    M = draw(st.sampled_from([8, 16, 32]))
    K = draw(st.sampled_from([16, 32, 64]))
    N = draw(st.sampled_from([1, 16, 32])) if kind != "ones" else 1
    a_trans = draw(st.booleans()) if kind != "ones" else False
    b_trans = draw(st.booleans())
    feats: dict[str, Any] = {"kind": kind, "a_trans": a_trans, "b_trans": b_trans}
    a_shape = [K, M] if a_trans else [M, K]
    Kb = K
    if kind == "k":
        Kb = {16: 32, 32: 64, 64: 16}[K]
    b_shape = [N, Kb] if b_trans else [Kb, N]
    batch: list[int] = []
    if kind == "batch":
        batch = [draw(st.sampled_from([1, 2]))]
    if kind in ("batch", "rank") or (kind == "ok" and draw(st.integers(0, 4)) == 0):
        batch = batch or [2]
    a_full = batch + a_shape
    b_full = (batch if kind != "rank" else []) + b_shape
    if kind == "batch" and draw(st.booleans()):
        b_full = [1] + b_shape
    bdt = dt
    if kind == "dtype":
        bdt = draw(st.sampled_from([d for d in MM_DT if d != dt]))
    out_dtype = "INT32" if dt == "INT8" else draw(st.sampled_from(["FP32", "FP32", dt]))
    if kind == "outdt":
        out_dtype = "INT8"
    res = batch + [M, N]
    style = draw(st.sampled_from(["functional", "functional", "method", "operator"]))
    flags = (", a_trans=True" if a_trans else "") + (", b_trans=True" if b_trans else "")
    params: list[tuple[str, Any, str]] = [("a", a_full, dt)]
    body: list[tuple[str, str]] = []
    pre: list[str] = []
    cube_kind = "good"
    if kind == "cube":
        cube_kind = draw(st.sampled_from(["none", "k8", "l1", "n8"]))
    elif draw(st.integers(0, 9)) == 0:
        cube_kind = "none"
    feats["cube"] = cube_kind
    if cube_kind != "none":
        body.append(("cube", _cube(dt, cube_kind)))
    bname = "b"
    if kind == "ones":
        flags = ""
        b_trans_ones = draw(st.booleans())
        kb = K if draw(st.integers(0, 2)) else {16: 32, 32: 64, 64: 16}[K]  # sometimes the wrong length
        if b_trans_ones:
            ones_shape = [1, kb]
            flags = ", b_trans=True"
        else:
            ones_shape = [kb, 1]
        # pypto.full(..., DT_INT8) fails in codegen (F0EE49 "unsupported type ... int8_t", GenDupOp)
        if dt != "INT8" and draw(st.booleans()):
            body.insert(0, ("tile", _tile_src(draw, [M, K], pre)))
            body.append(("op", f"ones_v = pypto.full({ones_shape!r}, 1.0, pypto.DT_{dt})"))
        else:
            params.append(("ones_v", ones_shape, dt))
        bname = "ones_v"
        feats["ones"] = ones_shape
        style = "functional"
    else:
        params.append(("b", b_full, bdt))
    if kind == "T":
        # b is written as b.T: declare b the other way round
        b_trans = False
        flags = ", a_trans=True" if a_trans else ""
        params[-1] = ("b", batch + [N, K], bdt)
        bname = "b.T"
    if style == "operator" and not a_trans and not b_trans and kind not in ("outdt",):
        expr = f"a @ {bname}"
        if dt == "INT8":
            out_dtype = "INT32"
        elif kind != "dtype":
            out_dtype = bdt
    elif style == "method":
        expr = f"a.matmul({bname}, pypto.DT_{out_dtype}{flags})"
    else:
        style = "functional"
        expr = f"pypto.matmul(a, {bname}, pypto.DT_{out_dtype}{flags})"
    feats["style"] = style
    second = draw(st.integers(0, 4)) == 0 and out_dtype != "INT8"
    if second:  # a vector op on the result: needs a vec tile
        if draw(st.booleans()):
            body.insert(0, ("tile", _tile_src(draw, [min(d, 64) for d in res], pre)))
        body.append(("op", f"t = {expr}"))
        body.append(("write", "out[:] = t * 2" if out_dtype == "INT32" else "out[:] = t * 2.0"))
        feats["second"] = True
    else:
        _write(draw, expr, body)
    outp, mism = draw(out_param(res, out_dtype if out_dtype != "INT8" else "INT8", feats))
    form, _ = draw(ann_forms(MM_DT))
    return Case("matmul", params + [outp], body, ann=form, pre=pre, out_mismatch=mism, features=feats)


# --- kernel signature ------------------------------------------------------------------------------

@st.composite
def signature_case(draw: Any) -> Case:
    dt = draw(st.sampled_from(FLOATS))
    a = draw(shapes(1, 2, 1024))
    kind = draw(st.sampled_from(["ret_ann", "return", "order", "scalar_ok"]))
    pre: list[str] = []
    body: list[tuple[str, str]] = [("tile", _tile_src(draw, [min(d, 64) for d in a], pre))]
    params: list[tuple[str, Any, str]] = [("a", a, dt), ("out", a, dt)]
    if kind in ("order", "scalar_ok"):
        body.append(("write", "out[:] = a * scale"))
        if kind == "order":
            params.insert(0, ("scale", None, "float"))
        else:
            params.append(("scale", None, "float"))
    else:
        body.append(("write", "out[:] = a + a"))
    if kind == "return":
        body.append(("ret", "return"))
    form, _ = draw(ann_forms(FLOATS))
    return Case("signature", params, body, ann=form, pre=pre, ret_annotation=(kind == "ret_ann"),
                features={"kind": kind})


# --- a DYNAMIC dim (traced as -1: rules dynamic-dim-whole-tensor-op, dynamic-dim-not-concrete) ----

DYNAMIC_WHOLE = ["x * 2.0", "x + x", "pypto.exp(x)", "pypto.maximum(x, x)", "-x", "pypto.sigmoid(x)",
                 "pypto.softmax(x, -1)", "pypto.where(x > 0.0, x, 0.0)", "pypto.exp2(x)", "pypto.sign(x)",
                 "pypto.cast(x, pypto.DT_FP32)"]
DYNAMIC_SCALAR = ["rows = min(x.shape[0], 8)", "rows = max(8, x.shape[0])", "flag = bool(x.shape[0])",
                  "rows = int(x.shape[0] // 8)", "n, c = x.shape\n    rows = min(n, 8)",
                  "rows = x.shape[0].min(8)", "rows = x.shape[0] if x.shape[0] > 8 else 8",
                  "total = sum([x.shape[0], 8])", "if x.shape[0] > 4:\n        pass",
                  "if x.shape[0] > 4 and x.shape[0] < 64:\n        pass",
                  # shape lists must be ints (rule: dynamic-dim-in-shape-list); valid_shape,
                  # pypto.tensor and an inplace reshape take the symbol
                  "v = pypto.view(x, [x.shape[0], x.shape[1]], [0, 0])",
                  "z = pypto.zeros(x.shape[0], 8, dtype=pypto.DT_FP32)",
                  "r = pypto.reshape(x, [x.shape[0] * x.shape[1]])",
                  "r = pypto.reshape(x, [x.shape[0] * x.shape[1]], inplace=True)",
                  "b = pypto.tensor([x.shape[0], 8], pypto.DT_FP32)",
                  "v = pypto.view(x, [8, x.shape[1]], [0, 0], valid_shape=[x.shape[0].min(8), x.shape[1]])",
                  # a slice's extent must be an int (rule: dynamic-dim-slice-extent)
                  "v = x[:, 0:8]", "v = x[-8:, 0:8]", "v = x[0:8, 0:8]"]


@st.composite
def dynamic_case(draw: Any) -> Case:
    """A [DYNAMIC, C] (or frontend.dynamic("N")) kernel: a whole-tensor op, or a builtin on the dim
    before the loop over static views that real kernels use, or just that loop."""
    dt = draw(st.sampled_from(["FP32", "FP16"]))
    cols = draw(st.sampled_from([16, 32, 64]))
    symbol = draw(st.booleans())
    dim = "N" if symbol else draw(st.sampled_from(["pypto.DYNAMIC", "pypto.DYN"]))
    pre = ['N = pypto.frontend.dynamic("N")'] if symbol else []
    body: list[tuple[str, str]] = [("tile", f"pypto.set_vec_tile_shapes(8, {cols})")]
    kind = draw(st.sampled_from(["whole", "whole", "scalar", "scalar", "loop"]))
    feats: dict[str, Any] = {"kind": kind, "rows": 16}
    if kind == "whole":
        expr = draw(st.sampled_from(DYNAMIC_WHOLE))
        if expr.startswith("pypto.cast") and dt == "FP16":
            expr = "pypto.cast(x, pypto.DT_FP16)"
        feats["expr"] = expr
        body.append(("write", f"out[:] = {expr}"))
    else:
        if kind == "scalar":
            stmt = draw(st.sampled_from(DYNAMIC_SCALAR))
            feats["expr"] = stmt
            first, *rest = stmt.split("\n")
            body.append(("op", first))
            body += [("op", line.strip()) if not line.startswith("        ") else ("op", line[4:]) for line in rest]
        body += [("op", "for i in pypto.loop(x.shape[0] // 8):"),
                 ("op", f"    xs = pypto.view(x, [8, {cols}], [i * 8, 0])"),
                 ("op", "    pypto.assemble(xs * 2.0, [i * 8, 0], out)")]
    form = draw(st.sampled_from(["call", "sub"]))
    return Case("dynamic", [("x", [dim, cols], dt), ("out", [dim, cols], dt)], body, ann=form, pre=pre,
                features=feats)


FAMILIES = {
    "binary": binary_case(),
    "unary": unary_case(),
    "reduce": reduce_case(),
    "reshape": reshape_case(),
    "transpose": transpose_case(),
    "matmul": matmul_case(),
    "signature": signature_case(),
    "dynamic": dynamic_case(),
}
WEIGHTS = {"binary": 5, "unary": 2, "reduce": 6, "reshape": 2, "transpose": 2, "matmul": 5, "signature": 1,
           "dynamic": 2}
# The families whose findings ``pypto-check --fix`` can fix (members PyPTO lacks, unaligned reduce
# tiles, .T, ones vectors, return annotations): a fixer run gets many more fixed kernels per kernel.
FIXABLE_WEIGHTS = {"unary": 4, "reduce": 4, "transpose": 3, "matmul": 2, "signature": 2}


@st.composite
def cases(draw: Any, weights: dict[str, int] | None = None) -> Case:
    fam = draw(st.sampled_from([f for f, w in (weights or WEIGHTS).items() for _ in range(w)]))
    return draw(FAMILIES[fam])


def generate(n: int, seed: int = 0, weights: dict[str, int] | None = None) -> list[Case]:
    """n distinct cases, deterministic for a given seed (hypothesis with a fixed seed, no database);
    ``weights`` (family -> weight) replaces :data:`WEIGHTS`."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[Case] = []
    seen: set[str] = set()

    @hseed(seed)
    @settings(max_examples=n * 3, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(cases(weights))
    def collect(c: Case) -> None:
        if len(out) >= n:
            return
        key = c.render()
        if key not in seen:
            seen.add(key)
            out.append(c)

    collect()
    for i, c in enumerate(out):
        c.features["index"] = i
    return out

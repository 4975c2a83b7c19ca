"""The ways a helper kernel writes its tiles, and the helper chain that carries them (for
``helper_generator.py``).

A vec tile is written as a literal, a module constant, list arithmetic on the kernel's tensor
(``[8] * len(a.shape)`` then ``tile[-1] = 16``; ``[1] * (rank - 1) + [64]``) or on the helper's
own parameter (``x.dim``), a comprehension with an item assignment, or passed to a helper: a list
(``tile_shape``: a literal, inline arithmetic or a variable), the last entry (``width``) or the
rank (``rank``). A cube tile is a literal, local lists, or three list parameters.

Forms the checker does not follow yet are generated only with ``gaps=True`` (``GAPS``: each has
a known-gap regression kernel in ``regressions/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

# Both now followed by the checker (their regression kernels are ordinary ones); ``--gaps`` still
# draws them often, which is how their agreement is measured.
GAPS: dict[str, tuple[str, ...]] = {
    # a tile a helper builds from its tensor parameter's shape (x.dim) is followed inside the
    # helper, not in its effect on the kernel's (or a next helper's) ops after the call
    "shape_tile_after": ("helper_shape_tile_reaches_kernel.py",),
    # a helper annotated ``-> pypto.Tensor`` gives the kernel a tensor of unknown shape and dtype
    "annotated_result": ("helper_annotated_result_reduced_in_kernel.py",),
}
# Gaps of earlier rounds, fixed in the checker, whose forms are now generated as any other: a tile
# from the helper's own parameter (helper_tile_from_param_shape.py), a list variable passed to a
# helper (helper_tile_list_variable.py, helper_tile_list_passed_on.py), a tile set two helpers down
# reaching the kernel after the call (helper_inner_setter_reaches_kernel*.py), an op on an
# unannotated helper's result (helper_result_reduced_in_kernel.py).

CUBE = {"good": ([16, 16], [32, 32], [16, 16]), "k8": ([16, 16], [8, 8], [16, 16]),
        "n8": ([16, 16], [32, 32], [8, 8]), "l1": ([16, 16], [64, 32], [16, 16])}
# the type a fully annotated helper gives each parameter
ANNOTATION = {"scale": "float", "eps": "float", "hidden": "int", "width": "int", "rank": "int",
              "tile_shape": "list[int]", "m_tile": "list[int]", "k_tile": "list[int]", "n_tile": "list[int]"}


@dataclass
class Helper:
    name: str
    params: list[str]  # parameter sources, e.g. "x", "x: pypto.Tensor", "tile_shape: list[int]"
    body: list[tuple[str, str]]  # (role, source): tile / cube / list / op / call
    ret: str = ""  # " -> pypto.Tensor" when annotated


@dataclass
class TileSpec:
    vals: list[int]  # the tile; the leading entries are equal, so every form can write it
    scope: str  # "kernel" (tensor a, static) | "helper" (the helper's parameter x)
    tensor: str
    depth: int = 0  # the helper that sets it
    name: str = "tile"  # the local list's name
    after: bool = False  # it must reach the kernel's (or a next helper's) ops after the call


@dataclass
class Chain:
    """The helpers a kernel calls, outermost first: each has the same parameters and passes
    them on; the innermost runs the op. ``args`` are the kernel's arguments for the extras."""

    draw: Any
    names: list[str]
    shape: list[int]
    dt: str
    gaps: bool
    extras: list[str]
    tensors: tuple[str, ...] = ("x",)
    sets: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # depth -> tile statements
    args: dict[str, str] = field(default_factory=dict)
    pre: list[str] = field(default_factory=list)  # module constants
    kernel_lists: list[tuple[str, str]] = field(default_factory=list)  # kernel statements before the call
    forms: list[str] = field(default_factory=list)
    gaps_used: list[str] = field(default_factory=list)
    pre_op_from: int = 99  # helpers at this depth or deeper run an elementwise op before the next call
    const: str = "TILE_H"  # the module constant a helper's tile may be

    def __post_init__(self) -> None:
        floats = self.dt in ("FP32", "FP16", "BF16")
        self.args.update({"scale": "2.0" if floats else "2", "eps": "1e-6", "hidden": str(self.shape[-1])})

    def set_at(self, depth: int, stmts: list[tuple[str, str]]) -> None:
        self.sets.setdefault(depth, []).extend(stmts)

    def params(self) -> list[str]:
        return list(self.tensors) + self.extras + [p for p in ANNOTATION if p in self.args and p not in
                                                   ("scale", "eps", "hidden")]

    def _param_src(self, p: str, ann: str) -> str:
        if p in self.tensors:
            return f"{p}: pypto.Tensor" if ann != "none" else p
        return f"{p}: {ANNOTATION[p]}" if ann == "full" else p

    def _args(self, values: dict[str, str]) -> str:
        keyword = self.draw(st.booleans())
        out = [values[p] for p in self.tensors]
        out += [f"{p}={values[p]}" if keyword else values[p] for p in self.params()[len(self.tensors):]]
        return ", ".join(out)

    def helpers(self, ops: list[tuple[str, str]]) -> list[Helper]:
        out = []
        last = len(self.names) - 1
        for i, name in enumerate(self.names):
            ann = self.draw(st.sampled_from(["none", "none", "partial", "full"]))
            body = list(self.sets.get(i, []))
            if i < last:
                values = {p: p for p in self.params()}
                if i >= self.pre_op_from and self.draw(st.booleans()):
                    body.append(("op", "h = x * 2.0" if self.dt in ("FP32", "FP16", "BF16") else "h = x + x"))
                    values["x"] = "h"
                body.append(("call", f"return {self.names[i + 1]}({self._args(values)})"))
            else:
                body += ops
            params = [self._param_src(p, ann) for p in self.params()]
            out.append(Helper(name, params, body, " -> pypto.Tensor" if ann == "full" else ""))
        return out

    def call(self, *tensors: str) -> str:
        return f"{self.names[0]}({self._args(dict(self.args, **dict(zip(self.tensors, tensors))))})"


def vec_stmts(draw: Any, spec: TileSpec, chain: Chain) -> list[tuple[str, str]]:
    """Statements that set ``spec.vals`` as the vec tile (helper forms may add parameters)."""
    vals, t, name = spec.vals, spec.tensor, spec.name
    c, last, n = vals[0] if len(vals) > 1 else 1, vals[-1], len(vals)
    set_ = "pypto.set_vec_tile_shapes"
    forms = ["literal", "literal", "const"]
    if spec.scope == "kernel":
        forms += ["mul_len", "arith", "inline", "comp"]
    else:
        forms += ["const_arith", "comp_lit", "param_int", "param_rank", "param_list", "param_list"]
        if not spec.after or chain.gaps:  # (a gap run is there to show the gaps: their forms come often)
            forms += ["shape", "shape"]
    form = draw(st.sampled_from(forms))
    chain.forms.append(f"{spec.scope}:{form}")
    if form == "shape":  # from the helper's tensor parameter
        if spec.after:
            chain.gaps_used.append("shape_tile_after")
        form = draw(st.sampled_from(["mul_len", "arith", "inline", "comp"]))
    rank = f"{t}.dim" if draw(st.booleans()) else f"len({t}.shape)"
    short = 1 + len(chain.shape) - n  # 1, or 2 for a tile one entry short of the rank
    within = rank if short == 1 else f"{rank} - 1"  # the list's length
    count = rank if short == 1 else f"({within})"
    if form == "literal":
        return [("tile", f"{set_}({', '.join(map(str, vals))})")]
    if form == "const":
        const = chain.const if spec.scope == "helper" else name.upper()
        chain.pre.append(f"{const} = {tuple(vals)!r}")
        return [("tile", f"{set_}(*{const})")]
    if form == "mul_len":
        return [("list", f"{name} = [{c}] * {count}"), ("list", f"{name}[-1] = {last}"), ("tile", f"{set_}(*{name})")]
    if form == "arith":
        return [("list", f"rank = {rank}"),
                ("tile", f"{set_}(*([{c}] * (rank - {short}) + [{last}]))")]
    if form == "inline":
        return [("tile", f"{set_}(*([{c}] * ({rank} - {short}) + [{last}]))")]
    if form == "comp":
        return [("list", f"{name} = [{c} for _ in range({within})]"), ("list", f"{name}[-1] = {last}"),
                ("tile", f"{set_}(*{name})")]
    if form == "const_arith":
        return [("list", f"{name} = [{c}] * {n}"), ("list", f"{name}[-1] = {last}"), ("tile", f"{set_}(*{name})")]
    if form == "comp_lit":
        return [("list", f"{name} = [{c} for _ in range({n})]"), ("list", f"{name}[-1] = {last}"),
                ("tile", f"{set_}(*{name})")]
    if form == "param_int":
        chain.args["width"] = str(last)
        lead = ", ".join(map(str, vals[:-1]))
        return [("tile", f"{set_}({lead}, width)" if lead else f"{set_}(width)")]
    if form == "param_rank":
        chain.args["rank"] = draw(st.sampled_from(["a.dim", "len(a.shape)", str(len(chain.shape))]))
        return [("tile", f"{set_}(*([{c}] * (rank - {short}) + [{last}]))")]
    # param_list: the kernel passes the list (a literal, inline arithmetic, or a local variable)
    arg = draw(st.sampled_from(["literal", "arith", "local"]))
    if arg == "local":
        chain.kernel_lists += [("list", f"tile_shape = [{c}] * {n}"), ("list", f"tile_shape[-1] = {last}")]
        chain.args["tile_shape"] = "tile_shape"
    elif arg == "arith":
        chain.args["tile_shape"] = f"[{c}] * (a.dim - {short}) + [{last}]"
    else:
        chain.args["tile_shape"] = repr(list(vals))
    return [("tile", f"{set_}(*tile_shape)")]


def cube_stmts(draw: Any, kind: str, where: str, chain: Chain) -> list[tuple[str, str]]:
    """Statements that set the cube tile ``CUBE[kind]`` (``where``: kernel / helper / param)."""
    m, k, n = CUBE[kind]
    set_ = "pypto.set_cube_tile_shapes"
    if where == "param":
        for p, v in (("m_tile", m), ("k_tile", k), ("n_tile", n)):
            chain.args[p] = repr(v) if v[0] != v[1] or draw(st.booleans()) else f"[{v[0]}] * 2"
        chain.forms.append("helper:cube_param")
        return [("cube", f"{set_}(m_tile, k_tile, n_tile)")]
    form = draw(st.sampled_from(["literal", "literal", "locals"]))
    chain.forms.append(f"{where}:cube_{form}")
    if form == "literal":
        return [("cube", f"{set_}({m!r}, {k!r}, {n!r})")]
    out = []
    for p, v in (("mt", m), ("kt", k), ("nt", n)):
        src = repr(v) if v[0] != v[1] else draw(st.sampled_from([repr(v), f"[{v[0]}] * 2",
                                                                 f"[{v[0]} for _ in range(2)]"]))
        out.append(("list", f"{p} = {src}"))
    return out + [("cube", f"{set_}(mt, kt, nt)")]

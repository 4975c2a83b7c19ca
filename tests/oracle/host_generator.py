"""Hypothesis strategies for host cases: a kernel module that also builds torch tensors and calls it.

Two kinds (``HostCase.kind``):
- ``spec``: a kernel of the op families of ``generator.py`` whose tensor parameters are (partly)
  annotated ``pypto.Tensor([], DT)`` / ``pypto.Tensor()``, so 0.2.0 traces it with the shapes (and,
  with no dtype written, the dtypes) of the call's tensors: its op errors show only with them;
- ``boundary``: a static kernel called with a good, or a wrong (shape, rank, dtype, layout,
  keyword tensor, argument count, non-tensor) argument list.

The driver imports the module and runs its ``run()``: the compiler sees the very tensors the
checker reasoned about. Wrong shapes/dtypes are only ever as large or larger (in bytes) than the
annotation: a smaller buffer would be read past its end (undefined behaviour, not a verdict).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from .generator import FAMILIES, JIT, TORCH_DT, WEIGHTS, Case, _param_src, vec_tile

FLOAT_T = {"FP32", "FP16", "BF16"}


@dataclass
class HostCase(Case):
    kind: str = "spec"  # "spec" | "boundary"
    forms: list[str] = field(default_factory=list)  # per parameter: "static" | "empty" | "bare"
    host: list[str] = field(default_factory=list)  # body of run()
    call_index: int = -1  # which line of ``host`` calls the kernel (a construct may wrap it)
    parts: tuple[list[str], list[str], list[str]] = ([], [], [])  # tensor bindings, positional, keywords
    call_line: int = 0

    def render(self) -> str:
        lines = ["import pypto", "import torch", ""]
        lines += self.pre
        lines += ["", "", JIT]
        sig = ", ".join(_host_param_src(p, f, self.ann) for p, f in zip(self.params, self.forms))
        lines.append(f"def {self.name}({sig}):")
        self.def_line = len(lines)
        self.stmt_lines = []
        for role, src in self.body:
            lines.append("    " + src)
            self.stmt_lines.append((len(lines), role, src))
        lines += ["", "", "def run() -> None:"]
        self.call_line = len(lines) + 1 + (self.call_index % len(self.host))
        lines += ["    " + h for h in self.host]
        lines.append("")
        self.source = "\n".join(lines)
        return self.source

    def host_call(self, module: str, debug3: bool = False) -> str:
        """Driver: runs the module's host function (debug3: with 0.2.0's own argument check,
        runtime_debug_mode=3, which the default mode skips)."""
        mode = ["pypto.set_debug_options(runtime_debug_mode=3)"] if debug3 else []
        return "\n".join(["import pypto", *mode, f"import {module} as m", "", "m.run()",
                          'print("ORACLE_OK", flush=True)', ""])


def _host_param_src(p: tuple[str, Any, str], form: str, ann: str) -> str:
    name, shape, dt = p
    if shape is None or form == "static":
        return _param_src(name, shape, dt, ann)
    if form == "empty":
        return f"{name}: pypto.Tensor([], pypto.DT_{dt})"
    return f"{name}: pypto.Tensor()"


# --- torch tensors ----------------------------------------------------------------------------

@st.composite
def torch_expr(draw: Any, shape: list[int], dt: str) -> str:
    """A contiguous torch tensor of ``shape`` / ``dt``, built one of several ways."""
    tdt = TORCH_DT[dt]
    ways = ["zeros", "ones", "empty", "sized"]
    if dt in FLOAT_T:
        ways += ["randn", "randn"]
    if dt == "FP16":
        ways.append("half")
    if len(shape) == 2:
        ways.append("t_contiguous")
    ways.append("index")
    way = draw(st.sampled_from(ways))
    dims = ", ".join(map(str, shape))
    if way == "randn":
        return f"torch.randn({dims}, dtype={tdt})" if dt != "FP32" or draw(st.booleans()) else f"torch.randn({dims})"
    if way == "half":
        return f"torch.randn({dims}).half()"
    if way == "sized":
        return f"torch.zeros({list(shape)!r}, dtype={tdt})"
    if way == "t_contiguous":
        return f"torch.randn({shape[1]}, {shape[0]}, dtype={tdt}).t().contiguous()" if dt in FLOAT_T else \
            f"torch.zeros({shape[1]}, {shape[0]}, dtype={tdt}).t().contiguous()"
    if way == "index":
        return f"torch.ones(2, {dims}, dtype={tdt})[1]"
    return f"torch.{way}({dims}, dtype={tdt})"


def _tensor_params(case: Case) -> list[tuple[str, Any, str]]:
    return [p for p in case.params if p[1] is not None]


@st.composite
def _host_args(draw: Any, params: list[tuple[str, Any, str]], exprs: dict[str, str] | None = None,
               keywords: tuple[str, ...] = ()) -> tuple[list[str], list[str], list[str]]:
    """(statements binding tensors to names, positional arguments, keyword arguments)."""
    lines: list[str] = []
    args: list[str] = []
    kw: list[str] = []
    for p, shape, dt in params:
        if shape is None:
            args.append("2.0")
            continue
        e = (exprs or {}).get(p) or draw(torch_expr(shape, dt))
        if draw(st.booleans()):
            lines.append(f"{p} = {e}")
            e = p
        if p in keywords:
            kw.append(f"{p}={e}")
        else:
            args.append(e)
    return lines, args, kw


# --- kind (a): runtime shapes -------------------------------------------------------------------

# signature mistakes fail before any call; the dynamic family writes DYNAMIC dims, not call shapes
SPEC_FAMILIES = {f: w for f, w in WEIGHTS.items() if f not in ("signature", "dynamic")}


@st.composite
def spec_case(draw: Any) -> HostCase:
    fam = draw(st.sampled_from([f for f, w in SPEC_FAMILIES.items() for _ in range(w)]))
    c = draw(FAMILIES[fam])
    n = len(c.params)
    forms = [draw(st.sampled_from(["empty", "empty", "bare", "static"])) if s is not None else "static"
             for _, s, _ in c.params]
    if all(f == "static" for f in forms):
        forms[draw(st.integers(0, n - 1))] = "empty"
    # no dtype written with a static shape means FP32; with runtime shapes the tensor's dtype is taken
    h = HostCase(c.family, c.params, c.body, ann=c.ann, pre=c.pre, out_mismatch=c.out_mismatch,
                 features=dict(c.features, host="spec"), kind="spec", forms=forms)
    lines, args, _ = draw(_host_args(c.params))
    h.parts = (lines, args, [])
    h.host = lines + [f"{h.name}({', '.join(args)})"]
    return h


# --- kind (b): the boundary ------------------------------------------------------------------------

# boundary kinds, in turn (generate_host cycles through them: every share has each kind)
BOUNDARY = ["good", "shape", "rank", "dtype", "layout", "keyword", "few", "many", "non_tensor", "tensor_for_scalar",
            "good", "shape", "dtype"]
# the tensor's dtype for a wrong-dtype call, as large as the annotated one or larger (no overrun)
WIDER = {"FP32": ["INT32"], "FP16": ["FP32", "BF16", "INT32"], "BF16": ["FP16", "FP32"], "INT32": ["FP32"],
         "INT8": ["FP16", "INT32", "FP32"]}


def _wider_shape(draw: Any, s: list[int]) -> list[int]:
    out = list(s)
    i = draw(st.integers(0, len(s) - 1))
    out[i] = out[i] * 2
    return out


def _other_rank(draw: Any, s: list[int]) -> list[int]:
    """Same element count, other rank."""
    way = draw(st.sampled_from(["unsq", "flat", "split"]))
    if way == "flat" and len(s) > 1:
        return [math.prod(s)]
    if way == "split" and s[-1] >= 4:
        return s[:-1] + [2, s[-1] // 2]
    return [1] + s


@st.composite
def boundary_case(draw: Any, kind: str) -> HostCase:
    dt = draw(st.sampled_from(["FP32", "FP32", "FP16", "BF16", "INT32", "INT8"]))
    a = [draw(st.sampled_from([1, 2, 4, 8, 16])), draw(st.sampled_from([8, 16, 32, 64]))]
    if draw(st.integers(0, 3)) == 0:
        a = [draw(st.sampled_from([2, 4]))] + a
    two = draw(st.booleans())
    scalar = kind == "tensor_for_scalar" or draw(st.booleans())
    params: list[tuple[str, Any, str]] = [("x", a, dt)] + ([("y", a, dt)] if two else []) + [("out", a, dt)]
    pre: list[str] = []
    _, tile, _ = draw(vec_tile(a, pre, kind="full"))
    two_x = "x + y" if two else "x + x"
    rhs = f"({two_x}) * scale" if scalar else two_x
    body = [("tile", tile or ""), ("write", f"out[:] = {rhs}")]
    ann = draw(st.sampled_from(["call", "sub", "tuple"]))
    sig = params + ([("scale", None, "float")] if scalar else [])
    h = HostCase("boundary", sig, body, ann=ann, pre=pre, features={"host": kind, "tile": "full"},
                 kind="boundary", forms=["static"] * len(sig))
    tensors = [p for p in params]
    victim = draw(st.sampled_from([p[0] for p in tensors]))
    exprs: dict[str, str] = {}
    keywords: set[str] = set()
    call_params: list[tuple[str, Any, str]] = list(tensors)
    vshape = dict((p[0], p[1]) for p in tensors)[victim]
    if kind == "shape":
        exprs[victim] = draw(torch_expr(_wider_shape(draw, vshape), dt))
    elif kind == "rank":
        exprs[victim] = draw(torch_expr(_other_rank(draw, vshape), dt))
    elif kind == "dtype":
        exprs[victim] = draw(torch_expr(vshape, draw(st.sampled_from(WIDER[dt]))))
    elif kind == "layout":
        tdt = TORCH_DT[dt]
        if len(vshape) == 2 and draw(st.booleans()):
            exprs[victim] = f"torch.zeros({vshape[1]}, {vshape[0]}, dtype={tdt}).t()"
        else:
            # explicit slices (the Ellipsis form is pinned by regressions/host_layout_ellipsis_step_slice.py)
            lead = ", ".join([":"] * (len(vshape) - 1) + ["::2"])
            exprs[victim] = f"torch.zeros({', '.join(map(str, vshape[:-1] + [vshape[-1] * 2]))}, dtype={tdt})[{lead}]"
    elif kind == "keyword":
        keywords.add(tensors[-1][0])
    elif kind == "few":
        call_params = tensors[:-1]
    elif kind == "non_tensor":
        call_params = [(p if p[0] != victim else (p[0], None, "float")) for p in tensors]
    if scalar:
        call_params.append(("scale", None, "float"))
    lines, args, kw = draw(_host_args(call_params, exprs, tuple(keywords)))
    if kind == "many":
        args.append("3.0")
    elif kind == "tensor_for_scalar":
        args[-1] = f"torch.ones({a[-1]})"
    elif scalar and (kind == "keyword" or draw(st.booleans())):
        args.pop()
        kw.append("scale=2.0")
    h.parts = (lines, args, kw)
    h.host = lines + [f"{h.name}({', '.join(args + kw)})"]
    return h


# --- host constructs: the same tensors reach the call through control flow and scopes ---------
# Each wraps the call so that an evaluator that got the construct wrong would see another value
# at the call: a decoy (a tensor of another rank and dtype), or a call that never runs.

DECOY = "torch.zeros(3, dtype=torch.int8)"
CONSTRUCTS = ["plain", "loop_carry", "continue", "break", "comprehension", "match", "nested", "walrus",
              "short_circuit", "early_return", "copy", "try", "helper_list", "caller_args", "dict_value", "dict_kernel"]
# copies and views that keep the tensor's verdict: the real run decides what each one is
COPIES = ["{e}.clone()", "{e}.detach()", "{e}.contiguous()", "{e}.clone(memory_format=torch.contiguous_format)",
          "{e}.reshape({e}.shape)", "{e}.to({e}.dtype)", "{e}[:]", "torch.empty_like({e}).copy_({e})"]


def with_construct(case: HostCase, way: str, rng: random.Random) -> None:
    """Wrap the case's kernel call in a construct (``CONSTRUCTS``)."""
    lines, args, kw = case.parts
    case.host, case.call_index = _construct(rng, way, list(lines), case.name, args, kw)
    case.features["construct"] = way if case.call_index != -1 else "plain"


def _construct(rng: random.Random, way: str, lines: list[str], name: str, args: list[str], kw: list[str]
               ) -> tuple[list[str], int]:
    tensors = [i for i, a in enumerate(args) if not a.replace(".", "").isdigit()]
    if way == "plain" or not tensors:
        return lines + [f"{name}({', '.join(args + kw)})"], -1
    j = rng.choice(tensors)
    e = args[j]

    def call(v: str) -> str:
        return f"{name}({', '.join(args[:j] + [v] + args[j + 1:] + kw)})"

    if way == "loop_carry":  # the call reads what the previous iteration bound
        body = [f"_cur = {DECOY}", "for _i in range(2):", "    if _i == 1:", f"        {call('_cur')}",
                f"    _cur = {e}"]
        return lines + body, len(lines) + 3
    if way == "continue":
        body = ["for _mode in ('skip', 'run'):", "    _v = " + DECOY, "    if _mode == 'skip':", "        continue",
                f"    _v = {e}", f"    {call('_v')}"]
        return lines + body, len(lines) + 5
    if way == "break":
        body = ["for _j in range(3):", f"    {call(e)}", "    break"]
        return lines + body, len(lines) + 1
    if way == "comprehension":
        body = [f"_v = {DECOY}", f"_outs = [{call('_v')} for _v in [{e}]]"]
        return lines + body, len(lines) + 1
    if way == "match":
        body = [f"_v = {DECOY}", "match 'b':", "    case 'a':", "        _v = torch.zeros(5)", "    case 'b':",
                f"        _v = {e}", f"{call('_v')}"]
        return lines + body, len(lines) + 6
    if way == "nested":
        body = [f"_v = {e}", "def _go() -> None:", f"    {call('_v')}", "_go()", f"_v = {DECOY}"]
        return lines + body, len(lines) + 2
    if way == "walrus":
        body = [f"_w = {DECOY}", f"if (_w := {e}) is not None:", f"    {call('_w')}"]
        return lines + body, len(lines) + 2
    if way == "short_circuit":
        # mypy checks the arity of a call that never runs: not what this construct is about
        body = ["_DEBUG = False", f"_DEBUG and {call(DECOY)}  # type: ignore[call-arg]", f"{call(e)}"]
        return lines + body, len(lines) + 2
    if way == "early_return":
        body = ["def _run(skip: bool) -> None:", "    if skip:", "        return", f"    {call(e)}", "_run(False)"]
        return lines + body, len(lines) + 3
    if way == "copy":
        copy = rng.choice(COPIES).format(e=f"({e})" if not e.isidentifier() else e)
        return lines + [call(copy)], len(lines)
    if way == "try":
        body = [f"_v = {DECOY}", "try:", f"    _v = {e}", "    _n = len(range(0, 8, 0))", "except ValueError:",
                f"    {call('_v')}"]
        return lines + body, len(lines) + 5
    if way == "caller_args":  # a function whose tensor comes from its caller, the caller's caller's decoy
        body = [f"_v = {DECOY}", "def _go(v, w):", f"    {call('v')}", f"_go({e}, _v)", "_v = _go"]
        return lines + body, len(lines) + 2
    if way == "dict_value":  # a dict of the case's values, one of them changed before the call
        body = [f"_t = {{'a': {e}, 'b': {DECOY}}}", "_t['a'], _t['b'] = _t['b'], _t['a']", call("_t['b']")]
        return lines + body, len(lines) + 2
    if way == "dict_kernel":  # the kernel looked up in a dict, by a key from a loop over it
        body = ["_ks = {'j': " + name + ", 'k': " + name + "}", "for _key, _f in _ks.items():", "    if _key == 'k':",
                "        " + call(e).replace(f"{name}(", "_f(", 1)]
        return lines + body, len(lines) + 3
    # helper_list: a list the tensor is put in by a helper, read after the call
    body = ["def _fill(xs: list) -> None:", f"    xs.append({e})", "_xs: list = []", "_fill(_xs)", f"{call('_xs[0]')}"]
    return lines + body, len(lines) + 4


def _collect(strategy: Any, n: int, seed: int, seen: set[str]) -> list[HostCase]:
    """n distinct cases of one strategy, deterministic for a given seed (no database)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[HostCase] = []

    @hseed(seed)
    @settings(max_examples=n * 4 + 20, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(c: HostCase) -> None:
        if len(out) >= n:
            return
        key = c.render()
        if key not in seen:
            seen.add(key)
            out.append(c)

    collect()
    return out


def generate_host(n: int, seed: int = 0) -> list[HostCase]:
    """n distinct host cases, deterministic for a given seed: spec and boundary cases alternate,
    the boundary kinds in turn (every share has each kind)."""
    seen: set[str] = set()
    n_b = n // 2
    per_kind = {k: sum(1 for i in range(n_b) if BOUNDARY[i % len(BOUNDARY)] == k) for k in BOUNDARY}
    pools = {k: _collect(boundary_case(k), c, seed * 100 + j, seen) for j, (k, c) in enumerate(per_kind.items())}
    spec = _collect(spec_case(), n - n_b, seed * 100 + 99, seen)
    out: list[HostCase] = []
    for i in range(n):
        pool = spec if i % 2 == 0 else pools[BOUNDARY[(i // 2) % len(BOUNDARY)]]
        if pool:
            out.append(pool.pop(0))
    for i, c in enumerate(out):
        c.features["index"] = i
        # every share has each construct (hypothesis would favour the first one)
        with_construct(c, CONSTRUCTS[(i // 2) % len(CONSTRUCTS)], random.Random(seed * 100_003 + i))
    return out

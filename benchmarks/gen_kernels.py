#!/usr/bin/env python3
"""Generate a deterministic project of N PyPTO kernel modules for benchmarking.

    python benchmarks/gen_kernels.py N OUT_DIR [--seed S] [--bug-rate 0.1]

Layout of OUT_DIR:

    kernels/__init__.py
    kernels/dims.py                 shared dims (some ``Final``, some plain UPPER_CASE)
    kernels/<pkg>/__init__.py       pkg in attn, norm, mlp, moe, misc
    kernels/<pkg>/<name>_NNNN.py    N modules, 1-3 ``@pypto.frontend.jit`` kernels each
    hosts/host_<name>_NNNN.py       one per kernel module: calls each of its kernels with
                                    ``torch.randn(...)`` tensors of the annotated shapes
    typings/torch/__init__.pyi      a small stand-in for torch (``mypy_path = typings``)
    manifest.json                   every kernel: module, name, template, bug kind, params
                                    (shapes resolved to ints), the line of its one-line edit

Kernels mix call-form (``pypto.Tensor([R, C], dt)``) and subscript-form annotations,
module constants and constants imported from ``kernels/dims.py``, elementwise ops,
broadcasting, reductions under vec tiles, matmuls under cube tiles, slicing inside
``pypto.loop``, ``@pypto.frontend.function`` helpers and kernel factories with closure dims.
About ``--bug-rate`` of the kernels carry one real bug the PyPTO 0.2.0 compiler rejects
(misaligned reduction tile, matmul K mismatch, ``.T``, broadcast mismatch, bad reshape).
Only ``hosts/`` imports torch, and mypy reads a 20-line stand-in for it (``typings/``), never
the real package: the same work whether or not torch is installed in the measured venv.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import textwrap
from pathlib import Path

PACKAGES = ("attn", "norm", "mlp", "moe", "misc")

# kernels/dims.py: the names and values the modules may import.
DIMS = {
    "SEQ": 16,
    "HEAD_DIM": 32,
    "HEADS": 4,
    "HIDDEN": 64,
    "FFN": 128,
    "EXPERTS": 16,
    "TOPK": 4,
    "ROW_TILE": 8,
}
DIMS_FINAL = ("SEQ", "HEAD_DIM", "HIDDEN", "FFN")  # spelled `X: Final = v`; the rest plain

DIMS_SRC = '''\
"""Model dimensions shared by the kernels (some Final, some plain UPPER_CASE)."""

from typing import Final

{lines}
'''

DT_BYTES = {"FP32": 4, "FP16": 2, "BF16": 2}


class Module:
    """What one module knows: its constants (name -> int) and its source lines."""

    def __init__(self, rng: random.Random, pkg: str, imported: dict[str, int]) -> None:
        self.rng = rng
        self.pkg = pkg
        self.imported = imported  # constants imported from kernels.dims
        rows = rng.choice((8, 16, 32))
        cols = rng.choice((32, 64, 128))
        self.local = {
            "ROWS": rows,
            "COLS": cols,
            "TILE_R": rng.choice([t for t in (4, 8) if t <= rows]),
            "TILE_C": rng.choice([t for t in (16, 32) if t <= cols]),
            "BLOCK": rng.choice([b for b in (2, 4, 8) if b <= rows]),
        }
        self.consts = {**imported, **self.local}
        self.kernels: list[str] = []
        self.meta: list[dict] = []

    def v(self, name: str) -> int:
        return self.consts[name]

    def dim(self, name: str) -> str:
        """A dim by name: dims that this module did not import fall back to a local literal."""
        return name if name in self.consts else str(DIMS[name])

    def dval(self, name: str) -> int:
        return self.consts[name] if name in self.consts else DIMS[name]


def ann(form: str, shape: list[str], dtype: str) -> str:
    if form == "call":
        return f"pypto.Tensor([{', '.join(shape)}], pypto.DT_{dtype})"
    return f"pypto.Tensor[[{', '.join(shape)}], pypto.DT_{dtype}]"


def signature(name: str, params: list[tuple[str, list[str], str]], form: str) -> str:
    lines = [f"def {name}("]
    for pname, shape, dt in params:
        lines.append(f"    {pname}: {ann(form, shape, dt)},")
    lines.append("):")
    return "\n".join(lines)


def resolve(mod: Module, shape: list[str]) -> list[int]:
    env = {k: v for k, v in {**DIMS, **mod.consts}.items()}
    return [int(eval(s, {}, env)) for s in shape]  # noqa: S307 - our own expressions


# --- kernel templates ------------------------------------------------------------------
# Each returns (source, params, bug_kind or "", edit_marker_text). Kernel bodies are 10-40 lines.


def t_rms_norm(mod: Module, name: str, bug: bool, form: str):
    params = [("x", ["ROWS", "COLS"], "FP32"), ("residual", ["ROWS", "COLS"], "FP32"),
              ("gamma", ["1", "COLS"], "FP32"), ("out", ["ROWS", "COLS"], "FP32")]
    col_tile = "4" if bug else "TILE_C"
    body = f"""
    pypto.set_vec_tile_shapes(TILE_R, {col_tile})
    h = x + residual
    sq = h * h
    mean_sq = sq.sum(-1, keepdim=True) / COLS
    inv = pypto.rsqrt(mean_sq + EPS)
    normed = h * inv
    out[:] = normed * gamma
"""
    return params, body, ("reduce-align" if bug else "")


def t_softmax_rows(mod: Module, name: str, bug: bool, form: str):
    dt = mod.rng.choice(("BF16", "FP16"))
    params = [("x", ["ROWS", "COLS"], dt), ("mask", ["1", "COLS"], dt),
              ("probs", ["ROWS", "COLS"], dt), ("row_max", ["ROWS", "1"], dt)]
    col_tile = "8" if bug else "TILE_C"  # 8 x 2 bytes = 16 bytes: FC1001 for amax on 16-bit
    body = f"""
    pypto.set_vec_tile_shapes(TILE_R, {col_tile})
    logits = x + mask
    # softmax reduces in fp32 internally; amax reduces the 16-bit input itself.
    probs[:] = pypto.softmax(logits, -1)
    row_max[:] = logits.amax(-1, keepdim=True)
"""
    return params, body, ("reduce-align" if bug else "")


def t_attention(mod: Module, name: str, bug: bool, form: str):
    s, d = mod.dim("SEQ"), mod.dim("HEAD_DIM")
    params = [("q", [s, d], "FP16"), ("k", [s, d], "FP16"), ("v", [s, d], "FP16"),
              ("out", [s, d], "FP32")]
    kind = ""
    scores = "pypto.matmul(q, k, pypto.DT_FP32, b_trans=True)"
    if bug:
        kind = mod.rng.choice(("transpose", "matmul-k"))
        scores = "pypto.matmul(q, k.T, pypto.DT_FP32)" if kind == "transpose" else "pypto.matmul(q, k, pypto.DT_FP32)"
    body = f"""
    pypto.set_vec_tile_shapes({s}, {s})
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    scores = {scores}
    probs = pypto.softmax(scores * SCALE, -1)
    ctx = pypto.matmul(pypto.cast(probs, pypto.DT_FP16), v, pypto.DT_FP32)
    out[:] = ctx
"""
    return params, body, kind


def t_l2_norm(mod: Module, name: str, bug: bool, form: str):
    params = [("x", ["ROWS", "COLS"], "FP32"), ("out", ["ROWS", "COLS"], "FP32")]
    ones_rows = "COLS // 2" if bug else "COLS"
    body = f"""
    pypto.set_vec_tile_shapes(TILE_R, TILE_C)
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    mag = pypto.abs(x)
    # row sum of squares as a matmul with a ones vector
    ones_v = pypto.full([{ones_rows}, 1], 1.0, pypto.DT_FP32)
    row_sum = pypto.matmul(mag * mag, ones_v, pypto.DT_FP32)
    out[:] = x * pypto.rsqrt(row_sum + EPS)
"""
    return params, body, ("matmul-k" if bug else "")


def t_blocked(mod: Module, name: str, bug: bool, form: str):
    bias_shape = ["1", "COLS // 2"] if bug else ["1", "COLS"]
    params = [("x", ["ROWS", "COLS"], "FP32"), ("bias", bias_shape, "FP32"),
              ("scale", ["ROWS", "1"], "FP32"), ("out", ["ROWS", "COLS"], "FP32")]
    body = """
    pypto.set_vec_tile_shapes(BLOCK, COLS)
    for i in pypto.loop(ROWS // BLOCK):
        blk = x[i * BLOCK:(i + 1) * BLOCK, :]
        s = scale[i * BLOCK:(i + 1) * BLOCK, :]
        act = pypto.where(blk > 0.0, blk, 0.0)
        shifted = act + bias
        out[i * BLOCK:(i + 1) * BLOCK, :] = shifted * s
"""
    return params, body, ("broadcast" if bug else "")


def t_gated_mlp(mod: Module, name: str, bug: bool, form: str):
    hd, ff = mod.dim("HIDDEN"), mod.dim("FFN")
    down = [hd, hd] if bug else [ff, hd]
    params = [("x", ["ROWS", hd], "FP16"), ("w_gate", [hd, ff], "FP16"),
              ("w_up", [hd, ff], "FP16"), ("w_down", down, "FP16"),
              ("out", ["ROWS", hd], "FP32")]
    body = """
    pypto.set_vec_tile_shapes(TILE_R, 32)
    pypto.set_cube_tile_shapes([16, 16], [32, 64], [32, 32])
    g = pypto.matmul(x, w_gate, pypto.DT_FP32)
    u = pypto.matmul(x, w_up, pypto.DT_FP32)
    h = g * pypto.sigmoid(g) * u
    h16 = pypto.cast(h, pypto.DT_FP16)
    out[:] = pypto.matmul(h16, w_down, pypto.DT_FP32)
"""
    return params, body, ("matmul-k" if bug else "")


def t_layer_norm(mod: Module, name: str, bug: bool, form: str):
    hs = mod.dim("HEADS")
    # [1, 1, COLS] would need two expanded axes against [HEADS, ROWS, COLS] (rule: broadcast-one-axis).
    b_shape = ["1", "1", "COLS"] if bug else [hs, "1", "COLS"]
    params = [("x", [hs, "ROWS", "COLS"], "FP32"), ("w", [hs, "1", "COLS"], "FP32"),
              ("b", b_shape, "FP32"), ("out", [hs, "ROWS", "COLS"], "FP32")]
    body = """
    pypto.set_vec_tile_shapes(1, TILE_R, TILE_C)
    mu = x.sum(-1, keepdim=True) / COLS
    xc = x - mu
    var = (xc * xc).sum(-1, keepdim=True) / COLS
    y = xc * pypto.rsqrt(var + EPS)
    out[:] = y * w + b
"""
    return params, body, ("broadcast" if bug else "")


def t_router(mod: Module, name: str, bug: bool, form: str):
    e, k = mod.dim("EXPERTS"), mod.dim("TOPK")
    params = [("logits", ["ROWS", e], "FP32"), ("weights", ["ROWS", k], "FP32"),
              ("indices", ["ROWS", k], "INT32")]
    kind = ""
    tail = "top_v.sum(-1, keepdim=True)"
    if bug:
        kind = "axis"
        tail = "top_v.sum(2, keepdim=True)"
    body = f"""
    pypto.set_vec_tile_shapes(TILE_R, {e})
    probs = pypto.softmax(logits, -1)
    top_v, top_i = pypto.topk(probs, {k}, -1)
    denom = {tail}
    weights[:] = top_v / denom
    indices[:] = top_i
"""
    return params, body, kind


def t_merge_heads(mod: Module, name: str, bug: bool, form: str):
    hs, s, d = mod.dim("HEADS"), mod.dim("SEQ"), mod.dim("HEAD_DIM")
    params = [("x", [hs, s, d], "FP32"), ("out", [s, f"{hs} * {d}"], "FP32")]
    target = f"[{s}, {d}]" if bug else f"[{s}, -1]"
    body = f"""
    pypto.set_vec_tile_shapes(1, {s}, {d})
    t = pypto.transpose(x, 0, 1)
    pypto.set_vec_tile_shapes({s}, {hs}, {d})
    flat = t.reshape({target})
    out[:] = flat
"""
    return params, body, ("reshape" if bug else "")


TEMPLATES = {
    "rms_norm": t_rms_norm,
    "softmax_rows": t_softmax_rows,
    "attention": t_attention,
    "l2_norm": t_l2_norm,
    "blocked": t_blocked,
    "gated_mlp": t_gated_mlp,
    "layer_norm": t_layer_norm,
    "router": t_router,
    "merge_heads": t_merge_heads,
}
PKG_TEMPLATES = {
    "attn": ("attention", "merge_heads", "softmax_rows", "blocked"),
    "norm": ("rms_norm", "layer_norm", "l2_norm", "blocked"),
    "mlp": ("gated_mlp", "rms_norm", "blocked", "l2_norm"),
    "moe": ("router", "gated_mlp", "softmax_rows"),
    "misc": tuple(TEMPLATES),
}


def helper_kernel(mod: Module, name: str, bug: bool) -> tuple[str, list, str]:
    """A ``@pypto.frontend.function`` helper that sets the tiles, and a kernel that calls it."""
    col_tile = "4" if bug else "TILE_C"
    params = [("x", ["ROWS", "COLS"], "FP32"), ("mean", ["ROWS", "1"], "FP32"),
              ("var", ["ROWS", "1"], "FP32")]
    src = f"""\
@pypto.frontend.function
def _tiles_for_{name}():
    pypto.set_vec_tile_shapes(TILE_R, {col_tile})


@pypto.frontend.jit
{signature(name, params, "call")}
    _tiles_for_{name}()
    m = x.sum(-1, keepdim=True) / COLS
    d = x - m
    var[:] = (d * d).sum(-1, keepdim=True) / COLS
    mean[:] = m
"""
    return src, params, ("reduce-align" if bug else "")


def factory_kernel(mod: Module, name: str, bug: bool) -> tuple[str, list, str]:
    """A kernel factory: dims and dtype come from the closure."""
    tail = "gated.T" if bug else "gated - gated.amax(-1, keepdim=True)"
    src = f"""\
def make_{name}(rows: int, width: int, dtype: pypto.DataType, tile: tuple[int, int]):
    @pypto.frontend.jit()  # called: the annotations read the factory's variables (a bare jit is a NameError)
    def {name}(
        g: pypto.Tensor([rows, width], dtype),
        beta: pypto.Tensor([rows, 1], dtype),
        out: pypto.Tensor([rows, width], dtype),
    ):
        pypto.set_vec_tile_shapes(*tile)
        gated = pypto.sigmoid(g) * beta
        out[:] = {tail}

    return {name}


{name} = make_{name}(ROWS, COLS, pypto.DT_FP32, (TILE_R, TILE_C))
"""
    params = [("g", ["ROWS", "COLS"], "FP32"), ("beta", ["ROWS", "1"], "FP32"),
              ("out", ["ROWS", "COLS"], "FP32")]
    return src, params, ("transpose" if bug else "")


def make_module(rng: random.Random, pkg: str, idx: int, bug_rate: float) -> tuple[str, str, list[dict]]:
    import_dims = rng.random() < 0.6
    imported: dict[str, int] = {}
    if import_dims:
        names = sorted(rng.sample(sorted(DIMS), rng.randint(3, 6)))
        imported = {n: DIMS[n] for n in names}
    mod = Module(rng, pkg, imported)
    n_kernels = rng.choice((1, 2, 2, 3))
    templates = PKG_TEMPLATES[pkg]
    sources: list[str] = []
    metas: list[dict] = []
    for j in range(n_kernels):
        bug = rng.random() < bug_rate
        roll = rng.random()
        if roll < 0.1:
            kind = "helper"
            name = f"col_stats_{j}"
            src, params, bug_kind = helper_kernel(mod, name, bug)
        elif roll < 0.2:
            kind = "factory"
            name = f"gate_kernel_{j}"
            src, params, bug_kind = factory_kernel(mod, name, bug)
        else:
            kind = rng.choice(templates)
            name = f"{kind}_{j}"
            form = "call" if rng.random() < 0.7 else "sub"
            params, body, bug_kind = TEMPLATES[kind](mod, name, bug, form)
            body_src = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
            src = f"@pypto.frontend.jit\n{signature(name, params, form)}\n{body_src}\n"
        sources.append(src)
        metas.append({
            "kernel": name,
            "template": kind,
            "bug": bug_kind,
            "params": [{"name": p, "shape": resolve(mod, s), "dtype": dt} for p, s, dt in params],
        })

    module_name = f"{pkg}_{idx:04d}"
    head = [f'"""{pkg} kernels, module {idx} (generated by benchmarks/gen_kernels.py)."""', "", "import pypto"]
    if imported:
        head.append(f"from kernels.dims import {', '.join(sorted(imported))}")
    head.append("")
    for k, val in mod.local.items():
        head.append(f"{k} = {val}")
    head.append("EPS = 1e-06")
    head.append(f"SCALE = {rng.choice((0.125, 0.17677669529663687, 0.25))}")
    text = "\n".join(head) + "\n\n\n" + "\n\n".join(sources)
    lines = text.splitlines()
    eps_line = lines.index("EPS = 1e-06") + 1
    for m in metas:
        m["module"] = f"kernels.{pkg}.{module_name}"
        m["path"] = f"kernels/{pkg}/{module_name}.py"
        m["edit_line"] = eps_line
    return module_name, text, metas


TORCH_DT = {"FP32": "torch.float32", "FP16": "torch.float16", "BF16": "torch.bfloat16", "INT32": "torch.int32"}


def host_module(module: str, metas: list[dict]) -> str:
    """Host code calling every kernel of ``module`` with torch tensors of the annotated shapes."""
    names = sorted({m["kernel"] for m in metas})
    lines = [f'"""Host code for {module} (generated by benchmarks/gen_kernels.py)."""', "", "import torch", "",
             f"from {module} import {', '.join(names)}", ""]
    for m in metas:
        lines += ["", f"def run_{m['kernel']}() -> None:"]
        for p in m["params"]:
            dims = ", ".join(str(d) for d in p["shape"])
            if p["dtype"] == "INT32":
                lines.append(f"    {p['name']} = torch.randint(0, 4, ({dims},), dtype=torch.int32)")
            else:
                lines.append(f"    {p['name']} = torch.randn({dims}, dtype={TORCH_DT[p['dtype']]})")
        lines.append(f"    {m['kernel']}({', '.join(p['name'] for p in m['params'])})")
    return "\n".join(lines) + "\n"


# A stand-in for torch that mypy reads instead of the real package (``mypy_path = typings``):
# the real one would dwarf the kernels (and a no-change dmypy check took over 40 s on it).
FAKE_TORCH = '''\
"""The part of torch the generated host modules use (benchmark stand-in, not the real API)."""

class dtype: ...

float32: dtype
float16: dtype
bfloat16: dtype
int32: dtype

class Tensor:
    shape: tuple[int, ...]

def randn(*size: int, dtype: dtype | None = None) -> Tensor: ...
def randint(low: int, high: int, size: tuple[int, ...], dtype: dtype | None = None) -> Tensor: ...
'''


def generate(n: int, out: Path, seed: int = 1234, bug_rate: float = 0.1, hosts: bool = True) -> dict:
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    root = out / "kernels"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text('"""Generated PyPTO kernel project."""\n')
    dims_lines = [f"{k}: Final = {v}" if k in DIMS_FINAL else f"{k} = {v}" for k, v in DIMS.items()]
    (root / "dims.py").write_text(DIMS_SRC.format(lines="\n".join(dims_lines)))
    for pkg in PACKAGES:
        (root / pkg).mkdir()
        (root / pkg / "__init__.py").write_text(f'"""{pkg} kernels."""\n')
    kernels: list[dict] = []
    total_lines = host_lines = 0
    host_root = out / "hosts"
    if hosts:
        host_root.mkdir()
        (host_root / "__init__.py").write_text('"""Host code: torch tensors into the kernels."""\n')
        (out / "typings" / "torch").mkdir(parents=True)
        (out / "typings" / "torch" / "__init__.pyi").write_text(FAKE_TORCH)
    for i in range(n):
        pkg = PACKAGES[i % len(PACKAGES)]
        module_name, text, metas = make_module(rng, pkg, i, bug_rate)
        (root / pkg / f"{module_name}.py").write_text(text)
        total_lines += text.count("\n")
        kernels.extend(metas)
        if hosts:
            host = host_module(metas[0]["module"], metas)
            (host_root / f"host_{module_name}.py").write_text(host)
            host_lines += host.count("\n")
    manifest = {
        "n_modules": n,
        "seed": seed,
        "n_kernels": len(kernels),
        "n_buggy": sum(1 for k in kernels if k["bug"]),
        "lines": total_lines,
        "host_modules": n if hosts else 0,
        "host_lines": host_lines,
        "kernels": kernels,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of kernel modules")
    ap.add_argument("out", type=Path, help="output directory (replaced)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--bug-rate", type=float, default=0.1)
    ap.add_argument("--no-hosts", action="store_true", help="no hosts/ package")
    args = ap.parse_args()
    m = generate(args.n, args.out, args.seed, args.bug_rate, hosts=not args.no_hosts)
    print(f"{m['n_modules']} modules, {m['n_kernels']} kernels ({m['n_buggy']} with a bug), "
          f"{m['lines']} lines -> {args.out}")


if __name__ == "__main__":
    main()

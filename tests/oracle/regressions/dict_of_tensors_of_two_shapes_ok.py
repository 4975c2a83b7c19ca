# oracle: compiles (d[2] is b, [16, 16]; mypy types d = {} by its first item, a [2, 16], and d[2] read as [2, 16] + [16, 16]: a false pypto-broadcast, as in hicann/pypto 0.2.0's inverse_pto_min_length_unaligned)
# expect: OK
import pypto
import torch


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([2, 16], pypto.DT_FP32), b: pypto.Tensor([16, 16], pypto.DT_FP32),
      out: pypto.Tensor([16, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 16)
    d = {}
    d[1] = a
    d[2] = b  # type: ignore[assignment]
    parts = []
    parts.append(a)
    parts.append(b)  # type: ignore[arg-type]
    out[:] = d[2] + parts[1]


def run() -> None:
    k(torch.ones(2, 16), torch.ones(16, 16), torch.zeros(16, 16))

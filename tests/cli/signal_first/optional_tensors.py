# hidden: None-ness 0.2.0 never fails on (a None default, a dataclass field, kwargs.get(...))
from dataclasses import dataclass

import pypto
import torch


@dataclass
class Cfg:
    bias: pypto.Tensor = None
    rows: int = 8


def add_bias(x, bias: pypto.Tensor = None):
    return x if bias is None else pypto.add(x, bias)


def scaled(x, **kwargs):
    return pypto.mul(x, kwargs.get("w"))


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(a: pypto.Tensor([8, 64], pypto.DT_FP32), w: pypto.Tensor([8, 64], pypto.DT_FP32),
      out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = scaled(add_bias(a, w), w=w)


def run() -> None:
    Cfg()
    k(torch.ones(8, 64), torch.ones(8, 64), torch.zeros(8, 64))

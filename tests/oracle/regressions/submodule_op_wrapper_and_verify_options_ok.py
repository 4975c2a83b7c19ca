# oracle: compiles (pypto.operation exists in 0.2.0 with op_wrapper; set_verify_options takes a ** dict)
# expect: OK
import pypto
import torch
from pypto.operation import op_wrapper

OPTIONS = {"enable_pass_verify": False, "pass_verify_save_tensor": False}
pypto.set_verify_options(**OPTIONS)


@op_wrapper
def twice(t):
    return t


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = twice(x) * 2.0


def run() -> None:
    k(torch.ones(8, 64), torch.zeros(8, 64))

# oracle: OK (0.2.0 takes any annotation object with a to_tensor method as a tensor parameter: a TensorAnnotation held in a variable, as public code writes it)
# expect: OK
import pypto
import torch
from pypto.tensor import TensorAnnotation

X_def = TensorAnnotation((16, 64), pypto.DT_FP16, "X")
Y_def = TensorAnnotation((16, 64), pypto.DT_FP16, "Y")


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def k(X: X_def, Y: Y_def, out: pypto.Tensor([16, 64], pypto.DT_FP16)):  # type: ignore[valid-type]
    pypto.set_vec_tile_shapes(16, 64)
    out.move(pypto.add(X, Y))


def run() -> None:
    k(torch.randn(16, 64, dtype=torch.float16), torch.randn(16, 64, dtype=torch.float16),
      torch.empty(16, 64, dtype=torch.float16))

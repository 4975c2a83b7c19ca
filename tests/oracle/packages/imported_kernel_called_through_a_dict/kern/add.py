import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def add(x: pypto.Tensor([8, 64], pypto.DT_FP32), out: pypto.Tensor([8, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x + x

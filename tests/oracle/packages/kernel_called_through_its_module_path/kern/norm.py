import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def norm(x: pypto.Tensor(), out: pypto.Tensor()):
    pypto.set_vec_tile_shapes(8, 4)
    s = pypto.sum(x, -1, keepdim=True)
    out[:] = x / s

import pypto


def core(x: pypto.Tensor, y: pypto.Tensor):
    return x.matmul(y, pypto.DT_FP32)


def block(x: pypto.Tensor, y: pypto.Tensor) -> pypto.Tensor:
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [8, 8])
    return core(x, y)

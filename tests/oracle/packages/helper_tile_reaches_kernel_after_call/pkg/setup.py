import pypto


def scaled(x):
    pypto.set_vec_tile_shapes(8, 4)
    return x * 2.0

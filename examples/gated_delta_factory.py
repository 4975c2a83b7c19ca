"""A kernel factory as real code writes it: shapes and dtype come from the closure."""

import pypto


def make_gate_kernel(rows: int, width: int, dtype: pypto.DataType, tile: tuple[int, int]):
    @pypto.frontend.jit()  # called: it captures rows, width and dtype, which only the annotations read
    def gate_kernel(
        g: pypto.Tensor([rows, width], dtype),
        beta: pypto.Tensor([rows, 1], dtype),
        out: pypto.Tensor([rows, width], dtype),
    ):
        pypto.set_vec_tile_shapes(*tile)
        gated = pypto.sigmoid(g) * beta
        out[:] = gated - pypto.transpose(gated, 0, 1).transpose(0, 1)

    return gate_kernel

import pypto


def core(x, rank):
    m = x.amax(-1, keepdim=True)
    return x - m


class Layout:
    def forward(self, x: pypto.Tensor, rank: int) -> pypto.Tensor:
        pypto.set_vec_tile_shapes(*([1] * (rank - 1) + [12]))
        return core(x, rank)


LAYOUT = Layout()

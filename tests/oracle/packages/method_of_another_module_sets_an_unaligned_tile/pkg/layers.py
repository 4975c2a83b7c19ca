import pypto


class Layout:
    def __init__(self, rows):
        self.rows = rows

    def forward(self, x):
        pypto.set_vec_tile_shapes(self.rows, 12)
        return x + x


LAYOUT = Layout(8)

import pypto


class Layout:
    def __init__(self, rows, width):
        self.rows = rows
        self.width = width

    def tile(self):
        pypto.set_vec_tile_shapes(self.rows, self.width)


LAYOUT = Layout(8, 16)

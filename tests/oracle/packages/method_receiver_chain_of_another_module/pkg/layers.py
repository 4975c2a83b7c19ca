import pypto


class Layout:
    def __init__(self, rows, width):
        self.rows = rows
        self.width = width

    def tile(self):
        pypto.set_vec_tile_shapes(self.rows, self.width)


class Config:
    def __init__(self, layout: Layout):
        self.layout = layout


CFG = Config(Layout(8, 16))


def get_layout() -> Layout:
    return CFG.layout

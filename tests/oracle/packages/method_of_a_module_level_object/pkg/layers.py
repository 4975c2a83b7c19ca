import pypto

HEADS = 8
HEAD_DIM = 64


class HeadLayout:
    def __init__(self, heads, dim):
        self.heads = heads
        self.dim = dim

    def rows(self, x):
        return x.sum(-1, keepdim=True)


LAYOUT = HeadLayout(HEADS, HEAD_DIM)

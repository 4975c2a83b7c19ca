import pypto


def silu(x):
    return x * pypto.sigmoid(x)

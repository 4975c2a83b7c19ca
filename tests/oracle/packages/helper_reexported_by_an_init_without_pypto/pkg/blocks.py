import pypto
from pkg import core


def block(x):
    return core(x)

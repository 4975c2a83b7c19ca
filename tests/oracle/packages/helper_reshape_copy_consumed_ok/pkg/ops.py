import pypto


def flat(a):
    r = pypto.reshape(a, [64, 1])
    return r

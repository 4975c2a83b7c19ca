import pypto


def project(a: pypto.Tensor, b: pypto.Tensor):
    return pypto.matmul(a, b, pypto.DT_FP32, b_trans=True)


def scale(t):
    return t * 2

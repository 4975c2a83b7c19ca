import pypto


def rms_norm(x, hidden):
    ones = pypto.full([hidden, 1], 1.0, pypto.DT_FP32)
    ss = pypto.matmul(x * x, ones, pypto.DT_FP32)
    return x * pypto.rsqrt(ss + 1e-6)

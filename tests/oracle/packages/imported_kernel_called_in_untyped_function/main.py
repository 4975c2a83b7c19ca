# oracle: RuntimeError: Too many positional arguments: expected 2 tensor(s) and up to 0 non-tensor(s), got 3 total.
# expect: pypto-call-args 11
# checker: known gap (mypy skips the body of an unannotated function in a module that imports no pypto: no hook sees this call of another module's kernel)
import torch
from kern.add import add


def run():
    x = torch.ones(8, 64)
    out = torch.empty(8, 64)
    add(x, out, x)

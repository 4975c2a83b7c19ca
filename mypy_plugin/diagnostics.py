"""Every message the plugin prints: one function per diagnostic, text and note together."""

from __future__ import annotations

from mypy.errorcodes import ErrorCode
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface

from . import errorcodes as codes
from .knowledge.shapes import ShapeError


def report(api: CheckerPluginInterface, code: ErrorCode, message: str, note: str | None, ctx: Context) -> None:
    info = api.fail(message, ctx, code=code)
    if note and info is not None:
        # Tied to its error, so the same ignore comment or disabled code hides both.
        api.msg.note(note, ctx, code=code, parent_error=info)


def shape_error(api: CheckerPluginInterface, err: ShapeError, op: str, ctx: Context) -> None:
    code = codes.BY_NAME.get(err.code)
    if code is None:
        return
    message = err.message if err.message.startswith(op) else f"{op}: {err.message}"
    report(api, code, message, err.note, ctx)


NO_METHOD_FIX = {
    "abs": "pypto.abs(x)",
    "neg": "-x (or pypto.neg(x))",
    "pow": "x ** n (or pypto.pow(x, n))",
    "float": "pypto.cast(x, pypto.DT_FP32)",
    "half": "pypto.cast(x, pypto.DT_FP16)",
    "mean": "x.sum(dim, keepdim=True) / n",
    "max": "x.amax(dim)",
    "min": "x.amin(dim)",
    "cast": "pypto.cast(x, dtype)",
    "to": "pypto.cast(x, dtype)",
    "permute": "pypto.transpose(x, dim0, dim1)",
    "squeeze": "x.reshape([...]) without the size-1 dim",
    "expand": "x.expand_clone([...])",
    "numel": "the product of the dims of x.shape",
    "size": "x.shape[dim]",
    "ndim": "x.dim",
}


def no_method(api: CheckerPluginInterface, name: str, receiver: str, ctx: Context) -> None:
    fix = NO_METHOD_FIX.get(name, "")
    call = f".{name}" if name == "ndim" else f".{name}()"
    report(
        api,
        codes.NO_METHOD,
        f'PyPTO tensors have no "{call}" (receiver: {receiver}); it fails at trace time with AttributeError',
        f"Use {fix}" if fix else None,
        ctx,
    )


def transpose_attr(api: CheckerPluginInterface, receiver: str, expr: str, rank: int | None, ctx: Context) -> None:
    swap = "0, 1" if rank is None or rank < 2 else f"{rank - 2}, {rank - 1}"
    report(
        api,
        codes.TRANSPOSE,
        f'PyPTO tensors have no ".T" ({expr}: {receiver}); it fails at trace time with AttributeError',
        f"As a matmul operand, pass the flag instead: pypto.matmul(a, {expr}, out_dtype, b_trans=True) "
        f"(or a_trans=True for the left operand); elsewhere use pypto.transpose({expr}, {swap}), "
        f"with a vec tile of the tensor's rank set first",
        ctx,
    )

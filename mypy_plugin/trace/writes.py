"""Assignment targets: names, unpacking, items of local lists, and writes into tensors (``out[...] =
v``, ``out.move(v)``): checked as the write hook checks them when ``out`` is a parameter (an
output) or a region of a local buffer is written; a whole write into a local moves the value there."""

from __future__ import annotations

import ast

from ..knowledge.checks.out import Write, check_write, is_whole
from ..knowledge.values import TensorVal
from .calls import CallTracer
from .function_facts import BOUND, RETURNS_CALL, RETURNS_NAME, WRITTEN, FunctionFacts, whole_slice
from .values import UNKNOWN, Obj, Seq, Value, is_int


class WriteTracer(CallTracer):
    params: frozenset[str]  # the function's parameters (writes into them are writes into outputs)
    buffers: frozenset[str]  # locals every binding of which is a pypto.* call (local buffers)

    def _whole_output(self, targets: list[ast.expr]) -> TensorVal | None:
        """``out[:] = <call>`` into a parameter: the output's value (the call is moved into it)."""
        if len(targets) != 1 or not isinstance(targets[0], ast.Subscript):
            return None
        t = targets[0]
        if not isinstance(t.value, ast.Name) or t.value.id not in self.params:
            return None
        dest = self.env.get(t.value.id)
        if not isinstance(dest, TensorVal):
            return None
        return dest if whole_slice(t.slice) else None

    def moved_into_outputs(self, walked: FunctionFacts, params: dict[str, Value],
                           returned: tuple[bool, str | None] | None) -> None:
        """The calls an output receives whole through a name bound once (``t = pypto.reshape(...)``
        then ``out[:] = t``) or, when the caller moves this function's result into an output
        (``returned``), through a ``return``: a copy written into an output is that output (rule:
        copy-tile-32-byte), as the hooks' ``LocalBuffers`` sees it in a kernel's own body."""
        bound: dict[str, ast.expr] = {}
        moved: dict[str, tuple[bool, str | None]] = {}
        for kind, name, node in walked.moves:
            if kind == BOUND and node is not None:
                bound[name] = node
            elif kind == WRITTEN and isinstance(node, ast.Name):
                dest = params.get(name)
                if isinstance(dest, TensorVal):
                    moved[node.id] = (True, dest.dtype)
            elif returned is not None:
                if kind == RETURNS_CALL and node is not None:
                    self.into[id(node)] = returned
                elif kind == RETURNS_NAME:
                    moved[name] = returned
        for name, how in moved.items():
            value = bound.get(name)
            if walked.stores.get(name) == 1 and isinstance(value, ast.Call):
                self.into[id(value)] = how

    def assign(self, target: ast.expr, value: Value, stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
            self.seen(target, value)  # (a tool shows the value where the name is bound)
        elif isinstance(target, (ast.Tuple, ast.List)):
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            items = value.items if isinstance(value, Seq) and not starred and len(value.items) == len(target.elts) \
                else None
            for i, e in enumerate(target.elts):
                self.assign(e.value if isinstance(e, ast.Starred) else e, items[i] if items else UNKNOWN, stmt)
        elif isinstance(target, ast.Subscript):
            self.store_item(target, value, stmt)
        elif isinstance(target, ast.Attribute):
            base = self.expr(target.value)
            if isinstance(target.value, ast.Name) and isinstance(base, Obj):
                self.env[target.value.id] = base.with_attr(target.attr, value)  # ``self.heads = heads``
        elif isinstance(target, ast.Starred):
            self.assign(target.value, UNKNOWN, stmt)

    def store_item(self, target: ast.Subscript, value: Value, stmt: ast.stmt) -> None:
        base = self.expr(target.value)
        name = target.value.id if isinstance(target.value, ast.Name) else None
        if isinstance(base, TensorVal):
            keys = self.index_keys(target.slice)
            self.write(base, target.value, keys, value, stmt)
            if name is not None and name not in self.params and is_whole(keys) and isinstance(value, TensorVal):
                self.env[name] = value  # a whole write into a local moves the value there
            return
        index = self.expr(target.slice) if not isinstance(target.slice, ast.Slice) else UNKNOWN
        if name is not None and isinstance(base, Seq) and base.is_list:
            if is_int(index) and -len(base.items) <= index < len(base.items):  # type: ignore[operator]
                items = list(base.items)
                items[index] = value  # type: ignore[index]
                self.env[name] = Seq(tuple(items), True)
            else:
                self.env[name] = UNKNOWN

    def write(self, dest: TensorVal, dest_node: ast.expr, keys: list[object] | None, value: Value,
              where: ast.AST) -> None:
        """``out[keys] = value`` / ``out.move(value)``: checked when ``out`` is a parameter (an
        output), or a region of a local buffer is written."""
        name = dest_node.id if isinstance(dest_node, ast.Name) else None
        region = keys is not None and not is_whole(keys)
        if name is None or not (name in self.params or region and name in self.buffers):
            return
        if not isinstance(value, TensorVal) or keys is not None and any(k is None for k in keys):
            return
        for problem in check_write(Write(dest, keys, value, name)):
            self.report(where, problem)

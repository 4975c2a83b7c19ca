"""Source rewrite applied as mypy parses each file (``Options.transform_source``).

Real PyPTO code annotates parameters in the call form ``pypto.Tensor([8, 64], pypto.DT_FP32)``,
which mypy's parser drops (and then reports ``valid-type``). This rewrite turns each tensor
annotation into the subscript form mypy can read, keeping every line where it is and, in the
common cases, every column too:

- ``Tensor([8, 64], DT, format=F)`` -> ``Tensor[[8, 64], DT,        F]``; ``name=``/``device=``...
  become ``None``; ``Tensor()`` -> bare ``Tensor``; ``Tensor((8, 16), DT)`` -> ``Tensor[[8, 16], DT]``.
- ``Tensor[{'shape': [8, 16], 'dtype': DT}]`` -> ``Tensor[          [8, 16],          DT ]``;
  a tensor name (``"x"``) becomes ``0`` (mypy would read a string as a forward reference).
- A dim that is an expression (``n * 2``) becomes the string ``"=n * 2"`` for the type hook.
- A shape or dtype that is a module-level alias (``_QKG = [...]``, ``HALF = pypto.DT_FP16``)
  is inlined (that line's later columns shift).
- UPPER_CASE module constants holding an int or a tuple of ints are declared ``Final``, so mypy
  records their values in the module interface: other modules see them, and a changed value
  rechecks its users in incremental and daemon runs.
- ``s: dtype``, a closure parameter used as a (scalar) parameter's annotation, reads as ``Any``.
- ``from typing import Final as _PyptoStubsFinal`` (and ``Any``) is appended to the first import.

It runs inside mypy's parser, so it must never raise: any failure returns the source unchanged.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Final

from .module_constants import ModuleConstants, dotted

EXPR_PREFIX: Final = "="  # marks a dim kept as source text (never a valid type string)
FINAL_ALIAS: Final = "_PyptoStubsFinal"
ANY_ALIAS: Final = "_PyptoStubsAny"
_TENSOR_NAMES: Final = frozenset({"Tensor", "tensor"})
_POSITIONAL_KEYWORDS: Final = frozenset({"shape", "dtype", "format"})


def _tensor_aliases(tree: ast.Module) -> frozenset[str]:
    """Names bound to pypto.Tensor: ``Tensor``, ``tensor`` and ``from pypto import Tensor as PT``."""
    names = set(_TENSOR_NAMES)
    for n in tree.body:
        if isinstance(n, ast.ImportFrom) and n.module == "pypto":
            names.update(a.asname for a in n.names if a.name in _TENSOR_NAMES and a.asname)
    return frozenset(names)


_NEWLINE: Final = re.compile(b"\n")


@dataclass(frozen=True)
class _Edit:
    start: int  # byte offsets into the UTF-8 source
    end: int
    text: str


class _Source:
    def __init__(self, source: str) -> None:
        self.data = source.encode("utf-8")
        # ast columns are UTF-8 byte offsets within a line; lines end at b"\n" as in the tokenizer.
        self.line_starts = [0, *(m.end() for m in _NEWLINE.finditer(self.data))]
        self.edits: list[_Edit] = []

    def start(self, node: ast.expr | ast.stmt | ast.keyword) -> int:
        return self.line_starts[node.lineno - 1] + node.col_offset

    def end(self, node: ast.expr | ast.stmt | ast.keyword) -> int:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return self.line_starts[node.end_lineno - 1] + node.end_col_offset

    def text(self, node: ast.expr) -> str:
        return self.data[self.start(node):self.end(node)].decode("utf-8")

    def replace(self, start: int, end: int, text: str) -> None:
        self.edits.append(_Edit(start, end, text))

    def blank(self, start: int, end: int) -> None:
        """Spaces over [start, end), keeping newlines so lines stay put."""
        chunk = self.data[start:end].decode("utf-8", errors="replace")
        self.replace(start, end, "".join(c if c == "\n" else " " for c in chunk))

    def apply(self) -> str | None:
        edits = sorted(self.edits, key=lambda e: e.start)
        for a, b in zip(edits, edits[1:]):
            if b.start < a.end:
                return None  # overlapping edits: a shape we do not understand; leave the file alone
        parts: list[bytes] = []
        pos = 0
        for e in edits:
            parts += (self.data[pos:e.start], e.text.encode("utf-8"))
            pos = e.end
        parts.append(self.data[pos:])
        return b"".join(parts).decode("utf-8")


class _Rewriter:
    def __init__(self, src: _Source, consts: ModuleConstants, tensor_names: frozenset[str]) -> None:
        self.src = src
        self.consts = consts
        self.tensor_names = tensor_names
        self.imports: list[str] = []  # typing names the rewritten source needs
        self.params: frozenset[str] = frozenset()

    def _alias(self, name: str) -> ast.expr | None:
        return None if name in self.params else self.consts.alias(name)

    def _is_tensor_ref(self, node: ast.expr) -> bool:
        name = dotted(node)
        return name is not None and name.rsplit(".", 1)[-1] in self.tensor_names

    # --- annotations ---------------------------------------------------------------
    def annotation(self, node: ast.expr, enclosing_params: frozenset[str]) -> None:
        self.params = enclosing_params  # a module alias shadowed by one of these is not inlined
        if isinstance(node, ast.Call) and self._is_tensor_ref(node.func):
            self._call(node)
        elif isinstance(node, ast.Subscript) and self._is_tensor_ref(node.value):
            self._subscript(node)
        elif isinstance(node, ast.Name) and node.id in enclosing_params:
            # ``s: dtype`` in a kernel factory: a value (a closure parameter) used as an
            # annotation. Real kernels do this for scalar parameters; read it as Any.
            self.src.replace(self.src.start(node), self.src.end(node), ANY_ALIAS)
            self._need("Any", ANY_ALIAS)

    def _need(self, name: str, alias: str) -> None:
        entry = f"{name} as {alias}"
        if entry not in self.imports:
            self.imports.append(entry)

    def _call(self, node: ast.Call) -> None:
        src = self.src
        after_func = src.end(node.func)
        end = src.end(node)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            src.blank(after_func, end)  # *args / **kwargs: some tensor
            return
        if not node.args and not node.keywords:
            src.blank(after_func, end)  # Tensor(): the shape and dtype come from the runtime tensor
            return
        paren = src.data.index(b"(", after_func, end)
        src.replace(paren, paren + 1, "[")
        src.replace(end - 1, end, "]")
        for i, arg in enumerate(node.args):
            if i == 0:
                self._shape(arg)
            else:
                self._item(arg)
        for kw in node.keywords:
            kw_start = src.start(kw)
            if kw.arg in _POSITIONAL_KEYWORDS:
                src.blank(kw_start, src.start(kw.value))
                if kw.arg == "shape":
                    self._shape(kw.value)
                else:
                    self._item(kw.value)
            else:  # name=, data_ptr=, device=, ori_shape=: nothing the checker reads
                width = src.end(kw.value) - kw_start
                src.replace(kw_start, src.end(kw.value), "None".ljust(width))

    def _subscript(self, node: ast.Subscript) -> None:
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        for i, item in enumerate(items):
            if isinstance(item, ast.Dict):
                self._dict(item)
            elif i == 0:
                self._shape(item)
            else:
                self._item(item)

    def _dict(self, node: ast.Dict) -> None:
        src = self.src
        start, end = src.start(node), src.end(node)
        src.blank(start, start + 1)  # {
        src.blank(end - 1, end)  # }
        for key, value in zip(node.keys, node.values):
            if key is None:
                return
            src.blank(src.start(key), src.start(value))  # 'shape':
            if isinstance(key, ast.Constant) and key.value == "shape":
                self._shape(value)
            else:
                self._item(value)

    def _shape(self, node: ast.expr) -> None:
        src = self.src
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, (ast.List, ast.Tuple)):
                src.replace(src.start(node), src.end(node), "[" + ", ".join(self._dim_text(e) for e in alias.elts) + "]")
            return
        if isinstance(node, ast.Tuple):
            start, end = src.start(node), src.end(node)
            if src.data[start:start + 1] == b"(" and src.data[end - 1:end] == b")":
                src.replace(start, start + 1, "[")
                src.replace(end - 1, end, "]")
            else:
                return
        if isinstance(node, (ast.List, ast.Tuple)):
            for e in node.elts:
                text = self._dim_text(e)
                if text != src.text(e):
                    src.replace(src.start(e), src.end(e), text)

    def _dim_text(self, node: ast.expr) -> str:
        text = self.src.text(node)
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, ast.Attribute):  # _BH = pypto.DYNAMIC
                return self.src.text(alias)
        if isinstance(node, (ast.Name, ast.Attribute)) or (isinstance(node, ast.Constant) and not isinstance(node.value, str)):
            return text
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
            return text
        value = self.consts.int_value(node)
        if value is not None:
            return str(value)
        flat = " ".join(text.split())
        if '"' in flat:
            return text
        return f'"{EXPR_PREFIX}{flat}"'

    def _item(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # A tensor name ("x"): mypy would read it as a forward reference to a type named x.
            width = self.src.end(node) - self.src.start(node)
            self.src.replace(self.src.start(node), self.src.end(node), "0".ljust(width))
            return
        if isinstance(node, ast.Name):
            alias = self._alias(node.id)
            if isinstance(alias, ast.Attribute):  # HALF = pypto.DT_FP16
                self.src.replace(self.src.start(node), self.src.end(node), self.src.text(alias))

    # --- module constants ------------------------------------------------------------
    def finalize_constants(self) -> None:
        for stmt in self.consts.final_candidates():
            pos = self.src.end(stmt.targets[0])
            self.src.replace(pos, pos, f": {FINAL_ALIAS}")
            self._need("Final", FINAL_ALIAS)

    def add_imports(self, tree: ast.Module) -> None:
        """``; from typing import ...`` right after the first top-level import: no line moves,
        no column before it moves. (Without such an import, prefix the first statement.)"""
        if not self.imports:
            return
        text = f"from typing import {', '.join(self.imports)}"
        anchor = next((s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))), None)
        if anchor is not None:
            pos = self.src.end(anchor)
            self.src.replace(pos, pos, f"; {text}")
        elif tree.body:
            pos = self.src.start(tree.body[0])
            self.src.replace(pos, pos, f"{text}; ")


_COMPOUND: Final = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.ClassDef)


def _annotations(tree: ast.Module) -> list[tuple[ast.expr, frozenset[str]]]:
    """Every annotation, with the parameter names of the functions enclosing it. Annotations
    only sit on statements, so only statements are visited (not expressions)."""
    found: list[tuple[ast.expr, frozenset[str]]] = []

    def visit(stmts: list[ast.stmt], params: frozenset[str]) -> None:
        for child in stmts:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = child.args
                args = [x for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None]
                found.extend((x.annotation, params) for x in args if x.annotation is not None)
                if child.returns is not None:
                    found.append((child.returns, params))
                visit(child.body, params | {x.arg for x in args})
            elif isinstance(child, ast.AnnAssign):
                found.append((child.annotation, params))
            elif isinstance(child, _COMPOUND):
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(child, field, []), params)
                for handler in getattr(child, "handlers", []):
                    visit(handler.body, params)

    visit(tree.body, frozenset())
    return found


# Cheap test before parsing: a tensor annotation (any form) or a module-level UPPER_CASE binding.
_WORTH_PARSING: Final = re.compile(r"ensor\s*[(\[]|^_?[A-Z][A-Z0-9_]*\s*=", re.MULTILINE)


def rewrite_source(source: str) -> str:
    """The rewritten source; the input itself when there is nothing to do or anything fails."""
    if "pypto" not in source or not _WORTH_PARSING.search(source):
        return source
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
    try:
        src = _Source(source)
        rewriter = _Rewriter(src, ModuleConstants(tree), _tensor_aliases(tree))
        for node, params in _annotations(tree):
            rewriter.annotation(node, params)
        rewriter.finalize_constants()
        rewriter.add_imports(tree)
        out = src.apply()
    except Exception:  # never break mypy's parser
        return source
    return source if out is None else out


def transform_source(source: object) -> object:
    """``Options.transform_source``: mypy may hand over ``str`` or ``bytes``."""
    if isinstance(source, bytes):
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError:
            return source
        out = rewrite_source(text)
        return source if out is text else out.encode("utf-8")
    if isinstance(source, str):
        return rewrite_source(source)
    return source

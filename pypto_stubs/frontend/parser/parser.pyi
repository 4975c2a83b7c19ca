"""Internal: the parser's AST visitor (PyPTO 0.2.0), typed loosely."""

import ast
from typing import Any

DEFAULT_VISIT: set[str]

class NestedFunctionMarker:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

class Parser(ast.NodeVisitor):
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

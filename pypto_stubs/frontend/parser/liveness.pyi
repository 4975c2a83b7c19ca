"""Internal: the parser's liveness analysis (PyPTO 0.2.0), typed loosely."""

import ast
from typing import Any

class LivenessAnalyzer(ast.NodeVisitor):
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

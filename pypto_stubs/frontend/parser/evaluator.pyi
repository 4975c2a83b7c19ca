"""Internal: expression evaluation in the parser (PyPTO 0.2.0), typed loosely."""

from typing import Any

class ExprEvaluator:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

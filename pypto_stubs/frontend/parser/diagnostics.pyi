"""Internal: the parser's diagnostics (PyPTO 0.2.0), typed loosely."""

import enum
from typing import Any

from .error import RenderedParserError as RenderedParserError

PRIOR_CONTEXT_LINES: int
SUBSEQUENT_CONTEXT_LINES: int

class DiagnosticLevel(enum.IntEnum):
    BUG = 10
    ERROR = 20
    WARNING = 30
    INFO = 40
    DEBUG = 50

class Source:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

class Span:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

class DiagnosticItem:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

class DiagnosticContext:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

class Diagnostics:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def __getattr__(self, name: str) -> Any: ...

"""Internal: the parser's exceptions (PyPTO 0.2.0)."""

from typing import Any

class ParserError(Exception):
    node: Any
    def __init__(self, node: Any, msg: str | Exception) -> None: ...

class RenderedParserError(ParserError): ...

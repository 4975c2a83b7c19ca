"""The source rewrite that runs as mypy parses a file: call-form annotations
(``pypto.Tensor([8, 64], DT)``) into the subscript form, module constants, kernel returns.
Plain ``ast`` and text; mypy only in ``native_parse`` (the parser hook) and ``markers``."""

"""Between mypy and ``knowledge``: mypy's types and expressions as plain values (tensors, ints),
and findings as mypy messages."""

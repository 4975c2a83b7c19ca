"""``python -m mypy_plugin.cli``: the same as ``pypto-check``."""

from mypy_plugin.cli import console_entry

console_entry()

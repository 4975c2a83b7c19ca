"""``python -m mypy_plugin.cli``: the same as ``pypto-check``."""

from mypy_plugin.cli import main

raise SystemExit(main())

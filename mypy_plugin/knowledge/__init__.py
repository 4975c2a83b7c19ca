"""What PyPTO 0.2.0 does, as pure data and functions (no mypy imports here)."""

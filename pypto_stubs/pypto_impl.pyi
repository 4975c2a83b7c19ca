"""Partial stubs for ``pypto.pypto_impl`` (PyPTO 0.2.0), the pybind11 extension module.

The extension is large and kernels never use it directly (tests reach into it for
``ExternalError``, ``DeviceTensorData``, ``LogTopFolder`` ...): every name is ``Any``.
"""

from typing import Any

def __getattr__(name: str) -> Any: ...

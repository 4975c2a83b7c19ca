"""Stubs for ``pypto.cost_model`` (PyPTO 0.2.0): the cost model's host entry (internal)."""

from collections.abc import Sequence
from typing import Any

from pypto import from_torch as from_torch

__all__ = ["_cost_model_run_once_data_from_host"]

def _cost_model_run_once_data_from_host(inputs: Sequence[Any], outputs: Sequence[Any]) -> None: ...

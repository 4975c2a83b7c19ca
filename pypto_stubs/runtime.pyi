"""Stubs for ``pypto.runtime`` (PyPTO 0.2.0): device setup and host-side verification.

``pypto.RunMode``, ``pypto.verify`` and ``pypto.set_verify_golden_data`` are declared in
``pypto`` itself and only re-exported here.
"""

from pypto import RunMode as RunMode
from pypto import Tensor
from pypto import set_verify_golden_data as set_verify_golden_data
from pypto import verify as verify

def _device_init() -> None: ...  # pypto_impl.DeviceInit
def _device_fini() -> None: ...  # pypto_impl.DeviceFini
def _device_run_once_data_from_host(*args: Tensor) -> None: ...
def _device_synchronize() -> None: ...

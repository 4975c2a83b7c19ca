"""pytest plugin (entry point ``pytest11``): ``pytest --pypto-guard`` or ``pypto_guard = true``
in the pytest config turns the boundary guard on for the whole run. Off by default."""

from __future__ import annotations

import pytest

from . import disable, enable

_KEY = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--pypto-guard", action="store_true", default=False,
                     help="check every PyPTO jit kernel call against the kernel's annotations "
                          "(shape, rank, dtype, shared symbols, contiguity, arguments) before PyPTO runs it")
    parser.addini("pypto_guard", type="bool", default=False,
                  help="turn the PyPTO boundary guard on (like --pypto-guard)")


def pytest_configure(config: pytest.Config) -> None:
    on = bool(config.getoption("--pypto-guard")) or bool(config.getini("pypto_guard"))
    config.stash[_KEY] = on
    if on:
        enable()


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_KEY, False):
        disable()


def pytest_report_header(config: pytest.Config) -> str | None:
    return "pypto guard: on (kernel calls are checked against their annotations)" if config.stash.get(_KEY, False) else None

"""The whole suite runs with the plugin's debug switch on: an exception inside a hook fails the
test instead of degrading to "unknown" (a swallowed bug cannot hide). A test of the degrade
path switches it off for itself (``monkeypatch.delenv``, or ``env: [PYPTO_STUBS_DEBUG=0]`` in a
YAML case)."""

from __future__ import annotations

import os

import pytest

DEBUG_ENV = "PYPTO_STUBS_DEBUG"

# In-process mypy runs and subprocesses that inherit the environment.
os.environ.setdefault(DEBUG_ENV, "1")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # pytest-mypy-plugins runs mypy with only the case's own environment: add the switch there.
    for item in items:
        env = getattr(item, "environment_variables", None)
        if isinstance(env, dict):
            env.setdefault(DEBUG_ENV, os.environ[DEBUG_ENV])

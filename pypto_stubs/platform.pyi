"""Stubs for the module ``pypto.platform`` (PyPTO 0.2.0). ``pypto.platform`` as an attribute is the
``_Platform`` instance (the package's name shadows the module); ``from pypto.platform import
platform`` reaches the same object."""

from pypto import (
    platform as platform,
)

"""Stubs for ``pypto.frontend.parser`` (PyPTO 0.2.0), the JIT front end's AST parser.

An implementation package that kernels never touch (a few tests import its internals). ``jit``
and ``function`` are the decorators of :mod:`pypto.frontend`; the internal classes of the
submodules are typed loosely (``Any`` members).
"""

from pypto.frontend import function as function
from pypto.frontend import jit as jit

from . import context as context
from . import diagnostics as diagnostics
from . import entry as entry
from . import error as error
from . import evaluator as evaluator
from . import liveness as liveness
from . import parser as parser

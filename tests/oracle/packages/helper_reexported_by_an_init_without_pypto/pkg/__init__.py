from .ops import core

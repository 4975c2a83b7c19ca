"""Python dicts in host code: displays and comprehensions with keys the source proves, lookups,
the reading methods, ``d[k] = v`` (a dict of kernels, ``KERNELS[name](x, out)``, or of a test
case's values, ``case["shape"]``)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .values import UNKNOWN, DictVal, ListVal, Value

MISSING = object()  # a key the dict does not have


def hashable(key: Value) -> bool:
    """A key the walk can look up: a known scalar, dtype or tuple of them (not a list or tensor)."""
    if key is UNKNOWN or isinstance(key, ListVal) or isinstance(key, DictVal):
        return False
    if isinstance(key, tuple):
        return all(hashable(k) for k in key)
    return isinstance(key, Hashable)


def make(pairs: Sequence[tuple[Value, Value]]) -> Value:
    """A dict from its (key, value) pairs in order (a later key wins); UNKNOWN for a key the
    source does not prove."""
    items: dict[object, tuple[Value, Value]] = {}
    for key, value in pairs:
        if not hashable(key):
            return UNKNOWN
        if (type(key), key) not in items and key in {k for k, _ in items.values()}:
            return UNKNOWN  # 1, 1.0 and True are one key to Python, whose first spelling stays
        items[(type(key), key)] = (key, value)
    return DictVal(tuple(items.values()))


def lookup(d: DictVal, key: Value) -> object:
    """``d[key]``: the value, MISSING when the key is surely absent, UNKNOWN when not known."""
    if not hashable(key):
        return UNKNOWN
    for k, v in d.items:
        if type(k) is type(key) and k == key:
            return v
    if any(type(k) is not type(key) and k == key for k, _ in d.items):
        return UNKNOWN  # 1 == 1.0 == True: Python's lookup would find it
    return MISSING


def with_item(d: DictVal, key: Value, value: Value) -> Value:
    """``d[key] = value`` as a new dict (the walk follows the change; its aliases see it)."""
    return make([*d.items, (key, value)])


def method(d: DictVal, name: str, args: Sequence[Value], kwargs: dict[str, Value]) -> Value:
    """The dict methods that read: get, items, keys, values, copy; UNKNOWN for any other."""
    if kwargs:
        return UNKNOWN
    if name == "get" and 1 <= len(args) <= 2:
        found = lookup(d, args[0])
        return (args[1] if len(args) == 2 else None) if found is MISSING else found  # type: ignore[return-value]
    if args:
        return UNKNOWN
    if name == "items":
        return tuple((k, v) for k, v in d.items)
    if name == "keys":
        return tuple(k for k, _ in d.items)
    if name == "values":
        return tuple(v for _, v in d.items)
    if name == "copy":
        return DictVal(d.items)
    return UNKNOWN

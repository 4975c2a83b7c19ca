"""A scope's bindings as layers: a branch, a loop iteration or a comprehension writes into its own
layer over its parent's, so making one costs what it binds, not the size of the scope."""

from __future__ import annotations

from .values import Value


class Env:
    __slots__ = ("own", "parent")

    def __init__(self, parent: Env | None = None, own: dict[str, Value] | None = None) -> None:
        self.own: dict[str, Value] = {} if own is None else own
        self.parent = parent

    def get(self, name: str, default: Value = None) -> Value:
        env: Env | None = self
        while env is not None:
            own = env.own
            if name in own:
                return own[name]
            env = env.parent
        return default

    def __contains__(self, name: str) -> bool:
        env: Env | None = self
        while env is not None:
            if name in env.own:
                return True
            env = env.parent
        return False

    def __getitem__(self, name: str) -> Value:
        env: Env | None = self
        while env is not None:
            if name in env.own:
                return env.own[name]
            env = env.parent
        raise KeyError(name)

    def __setitem__(self, name: str, value: Value) -> None:
        self.own[name] = value

    def child(self) -> Env:
        return Env(self)

    def changes_since(self, ancestor: Env) -> dict[str, Value]:
        """The names bound in the layers from this one up to ``ancestor`` (excluded), innermost
        value first."""
        out: dict[str, Value] = {}
        env: Env | None = self
        while env is not None and env is not ancestor:
            for name, value in env.own.items():
                out.setdefault(name, value)
            env = env.parent
        return out

"""Immutable containers for the public surface of games and rounds (issue 13)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

__all__ = ["FrozenDict", "deep_freeze", "frozen_dict"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict that refuses every change (JSON-serialisable like a dict): a Game's Rules
    Submission's mappings, a Round's stakes and players.  Build one with :func:`frozen_dict`
    or :func:`deep_freeze`."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("this mapping is immutable (a Game's rules, a Round's public state)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # pickle and copy rebuild it through the constructor, never item by item
        return (type(self), (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))


def deep_freeze(value: Any) -> Any:
    """``value`` with every mapping a :class:`FrozenDict` and every list a tuple, deeply."""
    if isinstance(value, Mapping):
        frozen: FrozenDict[Any, Any] = FrozenDict()
        for k, v in value.items():
            dict.__setitem__(frozen, k, deep_freeze(v))
        return frozen
    if isinstance(value, list | tuple):
        return tuple(deep_freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return frozenset(deep_freeze(v) for v in value)
    return value


def frozen_dict(items: Mapping[K, V]) -> FrozenDict[K, V]:
    """A :class:`FrozenDict` copy of ``items`` (shallow)."""
    if isinstance(items, dict):
        # the constructor copies a dict in C (dict.__init__ stores the items without calling
        # the refusing __setitem__/update), in the same order as the loop below
        return FrozenDict(items)
    out: FrozenDict[K, V] = FrozenDict()
    for k, v in items.items():
        dict.__setitem__(out, k, v)
    return out

"""Typed dispatch of a round's actions: each action type to its verifier and its doer.

A :class:`~croupier.games.round.Round` subclass handles an action type ``T`` by the methods
``_verify_<x>(self, action: T)`` and ``_do_<x>(self, action: T)``; :func:`handlers_of` finds
them once per class, by the annotation of their ``action`` parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, get_type_hints

from croupier.core.errors import InvalidInput
from croupier.games.records import Action, Record, shown_value

__all__ = ["MALFORMED", "Doer", "Handlers", "Verifier", "handlers_of", "malformed"]

Verifier = Callable[[Any, Any], None]
Doer = Callable[[Any, Any], list[Record]]
Handlers = Mapping[type[Action], tuple[Verifier | None, Doer | None]]

MALFORMED = (ArithmeticError, AttributeError, LookupError, RecursionError, TypeError, ValueError)
"""What a verifier raises on an action whose fields were tampered with (refused as input)."""

_HANDLERS: dict[type, Handlers] = {}


def malformed(action: Action, exc: Exception) -> InvalidInput:
    """The refusal of an action a verifier could not read (one of :data:`MALFORMED`)."""
    return InvalidInput(
        f"{type(action).__name__} refused: malformed ({type(exc).__name__}: "
        f"{shown_value(str(exc))})"
    )


def handlers_of(cls: type) -> Handlers:
    """The action types ``cls`` knows, each with its verifier and its doer: the methods
    ``_verify_<x>(self, action: T)`` and ``_do_<x>(self, action: T)``, found by the type of their
    ``action`` parameter, once per class (typed dispatch: an action is handled by its type)."""
    known = _HANDLERS.get(cls)
    if known is not None:
        return known
    verifiers: dict[type[Action], Verifier] = {}
    doers: dict[type[Action], Doer] = {}
    for attr in dir(cls):
        if not attr.startswith(("_verify_", "_do_")):
            continue
        method = getattr(cls, attr)
        kind = get_type_hints(method).get("action") if callable(method) else None
        if not (isinstance(kind, type) and issubclass(kind, Action)):
            continue  # a helper (``_verify_players``), not an action's handler
        if attr.startswith("_verify_"):
            verifiers[kind] = method
        else:
            doers[kind] = method
    found = {k: (verifiers.get(k), doers.get(k)) for k in {*verifiers, *doers}}
    return _HANDLERS.setdefault(cls, MappingProxyType(found))

"""The optimal decisions as tables, built once from a game's exact solver, and the fast
strategies made of them: what every game's decision tables share (a card's dense index, the
tables kept in memory, loaded or built once per process).

Each game's tables are its own (:mod:`croupier.analysis.four_card_poker.decisions`,
:mod:`croupier.analysis.ultimate_texas_holdem.decisions`): every entry is the decision the
solver itself takes, from its own exact integer values and with its tie rule (on equal value,
the smaller wager), from the same checkpointed solve as the par sheets (one cache entry under
:func:`croupier.kernels.cache_dir` per game and table), kept in memory.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from croupier.core.cards import DECK, Card
from croupier.core.errors import InvalidInput

__all__ = ["I8", "I64", "Cards", "indices", "memo"]

T = TypeVar("T")

_INDEX = {id(card): card.index for card in DECK}
"""Each card of DECK's dense index, by the card's identity (a live card's identity is no other
live object's)."""

I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
Cards = Sequence[Card] | Sequence[int]


def indices(cards: Cards, n: int, what: str) -> list[int]:
    """The dense indices of ``n`` different cards (cards or indices), or the refusal naming
    ``what`` they should be."""
    out = [_INDEX.get(id(c)) or (c.index if isinstance(c, Card) else int(c)) for c in cards]
    # (n cards: each of 0..51 exactly when the least and the greatest are)
    if len(out) != n or len(set(out)) != n or min(out) < 0 or max(out) >= 52:
        raise InvalidInput(f"{what}: {n} different cards, not {list(cards)!r}")
    return out


_MEMO: dict[Any, Any] = {}
"""Tables already loaded or built in this process."""
_LOCK = threading.Lock()
"""Held while tables are loaded or built: threads that ask at once build them once."""


def memo(key: Hashable, build: Callable[[], T]) -> T:
    """The tables kept under ``key``, built by ``build`` on the first call in this process (once,
    whichever threads ask at once)."""
    with _LOCK:
        found: T | None = _MEMO.get(key)
        if found is None:
            found = _MEMO[key] = build()
        return found

"""A strategy's decisions as actions, each made once.

An action is immutable and checks its fields when it is made; the decisions a strategy returns
are few (a Play of one to four times the Ante, a fold, a check, at one of seven seats), so each
is made the first time it is asked for and the same action is returned after (the round checks
it again when it is applied, as it checks every action).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from croupier.core.cards import DECK, Card
from croupier.games.records import Check, Fold, Play

__all__ = ["check", "fold", "indices", "play"]

_INDEX = {id(card): card.index for card in DECK}
"""Each card of DECK's dense index (0..51), by the card's identity."""


def indices(cards: Iterable[Card]) -> list[int]:
    """``[c.index for c in cards]`` (DECK's cards looked up by identity, any other computed)."""
    return [_INDEX.get(id(c)) or c.index for c in cards]


@cache
def play(seat: int, multiple: int) -> Play:
    """``Play(seat=seat, multiple=multiple)``."""
    return Play(seat=seat, multiple=multiple)


@cache
def fold(seat: int) -> Fold:
    """``Fold(seat=seat)``."""
    return Fold(seat=seat)


@cache
def check(seat: int) -> Check:
    """``Check(seat=seat)``."""
    return Check(seat=seat)

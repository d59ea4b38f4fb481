"""Baccarat point counts, naturals and the third-card rules.

Sources: ../shared/regs/baccarat.md (digest of § 627a.1, § 631a.11 and its Table 1; the
Minibaccarat/Midibaccarat sections § 627a.10 / § 629a.10 use the same rules, which the digest
marks as unverified) and seed 002 (§ 541.1, § 543.1 definitions of natural and Dragon 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from croupier.core.cards import Card, Rank, format_cards
from croupier.core.errors import InvalidInput

__all__ = [
    "Outcome",
    "banker_draws",
    "banker_draws_points",
    "card_value",
    "is_dragon_7",
    "is_natural",
    "is_panda_8",
    "outcome",
    "player_draws",
    "player_draws_points",
    "point_count",
    "two_and_final_counts",
]


def card_value(card: Card | Rank | int) -> int:
    """Point value of a card: ace 1, two to nine face value, ten and picture cards 0."""
    if type(card) is Card:
        return _POINTS[card.rank]
    rank = int(card.rank) if isinstance(card, Card) else int(card)
    if rank == 14:
        return 1
    return rank if rank < 10 else 0


_POINTS = tuple(card_value(rank) for rank in range(15))
"""The point value by rank (``Rank`` 2..14 indexes it): :func:`card_value`'s rule as a table."""


def point_count(cards: Sequence[Card]) -> int:
    """Point count of a hand: the sum of the card values, less any multiple of ten."""
    total = 0
    for card in cards:
        total += _POINTS[card.rank] if type(card) is Card else card_value(card)
    return total % 10


def two_and_final_counts(cards: Sequence[Card]) -> tuple[int, int]:
    """(the point count of the first two cards, the point count of the hand), summed once."""
    values = [_POINTS[c.rank] if type(c) is Card else card_value(c) for c in cards]
    return sum(values[:2]) % 10, sum(values) % 10


def is_natural(cards: Sequence[Card]) -> bool:
    """A natural: a point count of 8 or 9 on the first two cards (§ 541.1, § 627a.1)."""
    return point_count(cards[:2]) >= 8


def player_draws(player_two: Sequence[Card], banker_two: Sequence[Card]) -> bool:
    """Whether the Player's Hand takes a third card (§ 631a.11(a)-(b)).

    No card is drawn when either hand is a natural; otherwise the Player draws on 0-5 and
    stands on 6 or 7.
    """
    _verify_two(player_two, "Player's Hand")
    _verify_two(banker_two, "Banker's Hand")
    return player_draws_points(point_count(player_two), point_count(banker_two))


def player_draws_points(player: int, banker: int) -> bool:
    """:func:`player_draws` on the two-card point counts."""
    if player >= 8 or banker >= 8:
        return False  # § 631a.11(a): a natural ends the drawing
    return player <= 5  # § 631a.11(b)


# § 631a.11(c)(2)(iii), Table 1: Banker count 3-6 against the value of the Player's third card.
_TABLE_1: dict[int, frozenset[int]] = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),  # stays only on a Player third card of 8
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


def banker_draws(
    player_two: Sequence[Card], banker_two: Sequence[Card], player_third: Card | None
) -> bool:
    """Whether the Banker's Hand takes a third card (§ 631a.11(a), (c) and Table 1).

    ``player_third`` is the Player's third card, or ``None`` when the Player stood.
    """
    _verify_two(player_two, "Player's Hand")
    _verify_two(banker_two, "Banker's Hand")
    third = None if player_third is None else card_value(player_third)
    return banker_draws_points(point_count(player_two), point_count(banker_two), third)


def banker_draws_points(player: int, banker: int, player_third: int | None) -> bool:
    """:func:`banker_draws` on the two-card point counts and the value of the Player's third
    card (``None`` when the Player stood)."""
    if player >= 8 or banker >= 8:
        return False  # § 631a.11(a)
    if player_third is None:
        return banker <= 5  # § 631a.11(c)(1)
    if banker <= 2:
        return True  # § 631a.11(c)(2)(i)
    if banker >= 7:
        return False  # § 631a.11(c)(2)(ii)
    return player_third in _TABLE_1[banker]  # § 631a.11(c)(2)(iii)


class Outcome(Enum):
    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"


def outcome(player: Sequence[Card], banker: Sequence[Card]) -> Outcome:
    """The higher point count wins; equal counts are a tie."""
    p, b = point_count(player), point_count(banker)
    if b > p:
        return Outcome.BANKER
    if p > b:
        return Outcome.PLAYER
    return Outcome.TIE


def is_dragon_7(player: Sequence[Card], banker: Sequence[Card]) -> bool:
    """Dragon 7: the Banker's three-card hand counts 7 and the Player's counts less (§ 541.1)."""
    return len(banker) == 3 and point_count(banker) == 7 and point_count(player) < 7


def is_panda_8(player: Sequence[Card], banker: Sequence[Card]) -> bool:
    """Panda 8: the Player's three-card hand counts 8 and the Banker's counts less (§ 627a.1)."""
    return len(player) == 3 and point_count(player) == 8 and point_count(banker) < 8


def _verify_two(cards: Sequence[Card], what: str) -> None:
    if len(cards) != 2:
        raise InvalidInput(f"{what} {format_cards(cards)!r} must be the first two cards")

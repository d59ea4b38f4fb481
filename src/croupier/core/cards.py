"""Cards: ranks, suits and the immutable :class:`Card`.

A card has a dense index ``0..51`` (``rank_index * 4 + suit_index``, deuces first, suits in
the order clubs, diamonds, hearts, spades) used by the batch kernels; ``Card.from_index`` and
``Card.index`` convert both ways.  Text is two characters, ``"As"``, ``"Th"``; ``"10h"`` is read
as well and ``str`` always writes ``"Th"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache

from croupier.core.errors import InvalidInput, shown_value

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    "verify_distinct",
]


class Rank(IntEnum):
    """Card ranks valued 2..14; the ace is 14 (it plays low only where a ranking says so)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self.value - 2]


class Suit(Enum):
    """The four suits; all suits are equal in rank in every game here (§ 641a.6(a))."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    order: int

    def __init__(self, value: str) -> None:
        self.order = "cdhs".index(value)  # the position 0..3 in the dense index, clubs first

    # A suit is one object and equal only to itself: hash it by identity (a C-level hash; the
    # default enum hash of its name is a Python call, paid on every card hashed).
    __hash__ = object.__hash__

    @property
    def index(self) -> int:
        return self.order

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.order < other.order


_RANK_SYMBOLS = "23456789TJQKA"
_SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. Ordered by rank, then suit (the order is for sorting only)."""

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise InvalidInput(f"card needs a Rank and a Suit, got {self.rank!r}, {self.suit!r}")

    @property
    def index(self) -> int:
        """Dense index 0..51: ``(rank - 2) * 4 + suit index``."""
        return (self.rank - 2) * 4 + self.suit.order

    @staticmethod
    def from_index(index: int) -> Card:
        if not 0 <= index < 52:
            raise InvalidInput(f"card index {index!r} is outside 0..51")
        return _ALL[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``"As"``, ``"Th"``, ``"10h"`` (case-insensitive rank, lower- or upper-case suit)."""
        return _parse(text.strip())

    def __str__(self) -> str:
        # A table lookup: an enum's ``value`` is a Python-level descriptor call.
        return _NAMES[(self.rank - 2) * 4 + self.suit.order]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@cache
def _parse(text: str) -> Card:
    body = text
    if len(body) == 3 and body[:2] == "10":
        body = "T" + body[2]
    if len(body) != 2:
        raise InvalidInput(f"card {text!r} is not a rank and a suit such as 'As', 'Th' or '10h'")
    rank_char, suit_char = body[0].upper(), body[1].lower()
    rank_pos = _RANK_SYMBOLS.find(rank_char)
    if rank_pos < 0:
        raise InvalidInput(
            f"card {text!r} has unknown rank {body[0]!r}; ranks are 2-9, T, J, Q, K, A"
        )
    try:
        suit = Suit(suit_char)
    except ValueError:
        raise InvalidInput(
            f"card {text!r} has unknown suit {body[1]!r}; suits are c, d, h, s"
        ) from None
    return Card(Rank(rank_pos + 2), suit)


_ALL: tuple[Card, ...] = tuple(Card(Rank(r), s) for r in range(2, 15) for s in _SUIT_ORDER)
DECK: tuple[Card, ...] = _ALL
"""The 52 cards in index order."""
_NAMES: tuple[str, ...] = tuple(f"{c.rank.symbol}{c.suit.value}" for c in _ALL)


def verify_distinct(cards: Sequence[Card], *, what: str = "hand") -> None:
    """Raise :class:`InvalidInput` naming every card that appears more than once."""
    seen: set[Card] = set()
    twice: list[str] = []
    for card in cards:
        if card in seen and str(card) not in twice:
            twice.append(str(card))
        seen.add(card)
    if twice:
        shown = " ".join(str(c) for c in cards)
        raise InvalidInput(f"{what} {shown!r} holds {', '.join(twice)} more than once")


def parse_cards(text: str | Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse ``"As Kd 7c"`` (spaces or commas) or a list of card strings.

    Every unreadable card is reported in one error; with ``distinct`` a repeated card is refused.
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    elif isinstance(text, Iterable) and not isinstance(text, bytes | bytearray | Mapping):
        tokens = [str(t) for t in text]
    else:
        raise InvalidInput(f"cards {shown_value(text)} are not text or a list of card strings")
    cards: list[Card] = []
    bad: list[str] = []
    for token in tokens:
        try:
            cards.append(Card.parse(token))
        except InvalidInput as exc:
            bad.append(exc.message)
    if bad:
        raise InvalidInput("; ".join(bad))
    if distinct:
        verify_distinct(cards)
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """``"As Kd 7c"``: the cards in order, one space apart."""
    if not isinstance(cards, Iterable) or isinstance(cards, str | bytes | bytearray | Mapping):
        raise InvalidInput(f"cards {shown_value(cards)} are not a sequence of cards")
    return " ".join(str(c) for c in cards)

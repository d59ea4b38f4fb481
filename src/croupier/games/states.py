"""The types of the round protocol: where a round stands and who acts (:mod:`.base`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import CardDealt, shown_value

__all__ = [
    "SEATS",
    "Actor",
    "ActorKind",
    "DealStep",
    "Phase",
    "StubCheck",
    "known_plan",
    "verify_seating",
]

SEATS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
"""Betting positions; seat 1 is the farthest to the dealer's left."""


class Phase(StrEnum):
    BETTING = "betting"
    COUNT_HELD = "count_held"
    """Bets closed, the dealer's progressive chip count differs from the sensors' (a
    supervisor recounts: :mod:`croupier.games.sensors`)."""
    DECLARING = "declaring"
    """A table whose cards croupier does not see: winning hands declared and verified
    (:mod:`croupier.games.declared`)."""
    DEALING = "dealing"
    STUB_COUNT = "stub_count"
    DECISIONS = "decisions"
    REVEAL = "reveal"
    SETTLEMENT = "settlement"
    OVER = "over"
    VOID = "void"


class ActorKind(Enum):
    SEAT = "seat"
    DEALER = "dealer"
    CHANCE = "chance"
    NOBODY = "nobody"


@dataclass(frozen=True, slots=True)
class Actor:
    kind: ActorKind
    seat: int | None = None

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.kind is ActorKind.SEAT else self.kind.value


NOBODY, CHANCE, DEALER_ACTOR = (
    Actor(k) for k in (ActorKind.NOBODY, ActorKind.CHANCE, ActorKind.DEALER)
)
SEAT_ACTORS = {seat: Actor(ActorKind.SEAT, seat) for seat in SEATS}
"""The actors a round names as the one to act (frozen: one of each serves every round)."""


class StubCheck(Enum):
    """Whether the dealer must count the stub this round (§ 641a.8(f): at least every 5 rounds
    when no counting shuffler is used; the table decides)."""

    REQUIRED = "required"
    NOT_REQUIRED = "not_required"


@dataclass(frozen=True, slots=True)
class DealStep:
    """One card of a dealing procedure: where it goes and whether face up."""

    to: str
    face_up: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        # the fields a CardDealt checks, checked once here: the card dealt by this step is
        # recorded without checking them again (:mod:`croupier.games._made`)
        CardDealt(card=DECK[0], to=self.to, face_up=self.face_up, note=self.note)


_SEATINGS: dict[tuple[object, ...], None] = {}
"""Seatings :func:`verify_seating` has allowed, by the boxes allowed, the section and the seats
and names (``int`` and ``str`` exactly): the same table seated the same way is not checked again
each round.  At most :data:`_SEATINGS_KEPT` are kept."""
_SEATINGS_KEPT = 256


def verify_seating(players: Mapping[int, str], boxes: int, section: str | None) -> None:
    """Refuse players that are not names at betting positions, or one player holding more than
    ``boxes`` boxes or boxes that are not adjacent (``section``: the game's rule)."""
    items = tuple(players.items())
    exact = all(type(s) is int and type(p) is str for s, p in items)
    key = (boxes, section, items) if exact and type(boxes) is int else None
    if key is not None and key in _SEATINGS:
        return
    _verify_seating(players, boxes, section)
    if key is not None and len(_SEATINGS) < _SEATINGS_KEPT:
        _SEATINGS[key] = None


def _verify_seating(players: Mapping[int, str], boxes: int, section: str | None) -> None:
    by_player: dict[str, list[int]] = {}
    for seat, player in players.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise InvalidInput(f"seat {shown_value(seat)} is not one of the betting positions 1-7")
        if not isinstance(player, str) or not player or len(player) > 200:
            raise InvalidInput(f"player {shown_value(player)} at seat {seat} is not a name")
        by_player.setdefault(player, []).append(seat)
    for player, seats in by_player.items():
        seats.sort()
        if len(seats) > boxes:
            raise IllegalAction(
                f"player {player!r} holds boxes {seats}; the Rules Submission allows "
                f"{boxes} adjacent box(es)",
                section=section,
            )
        if seats != list(range(seats[0], seats[0] + len(seats))):
            raise IllegalAction(
                f"player {player!r} holds boxes {seats}, which are not adjacent",
                section=section,
            )


_PLANS: dict[tuple[Hashable, ...], tuple[DealStep, ...]] = {}
"""The dealing procedures made so far, by their maker and its arguments (a few hundred at most:
the deal methods times the sets of wagering seats)."""


def known_plan(make: Callable[..., Sequence[DealStep]], *key: Hashable) -> tuple[DealStep, ...]:
    """``make(*key)``, made once: a dealing procedure is a pure function of what it is made of
    (the deal method, the wagering seats), and its steps are immutable."""
    found = _PLANS.get((make, *key))
    if found is None:
        found = _PLANS.setdefault((make, *key), tuple(make(*key)))
    return found

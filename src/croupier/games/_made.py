"""Records the engine makes from values already checked: the same frozen records, made without
checking their fields a second time.

Every record checks its fields when it is made (:func:`~croupier.games.records.validate_fields`),
so that what the store writes it can always read back.  Some records the round makes only copy
values that were checked on their way in, and whose types cannot have changed since:

* a :class:`~croupier.games.records.CardDealt` holds a card from the shoe (a shoe holds only
  cards: :class:`~croupier.table.shoe.Shoe` checks them when it is filled) and the recipient, face
  and
  note of a :class:`~croupier.games.states.DealStep` (checked as a ``CardDealt``'s when the step
  is made);
* a :class:`~croupier.games.records.WagerPlaced` copies a :class:`PlaceWager` that
  :meth:`~croupier.games.round.Round.apply` has just checked field by field;
* a :class:`~croupier.games.records.SeatSettling` names a seat of the round's own active seats;
  :class:`~croupier.games.records.Folded`, :class:`~croupier.games.records.Checked` and
  :class:`~croupier.games.records.NoMoreBetsCalled` copy a checked action's fields;
* a :class:`~croupier.games.records.HandShown` or :class:`~croupier.games.records.DealerRevealed`
  holds cards from the shoe and a :class:`~croupier.hands.HandRank` of them (its category's
  name and the cards that play);
* a :class:`~croupier.games.records.WagerSettled` or :class:`~croupier.games.records.PlayWagered`
  holds a seat and a wager in action and its stake (each checked when placed); the amounts the
  round computed (paid, returned, the Play's cents and multiple) and the pay line's name are
  checked here as the record's own check would pass them, and anything else goes to the
  record's constructor, which decides (and words the refusal).

These makers build exactly the record the class's constructor builds (equal, the same fields in
the same order, the same ``repr``, JSON and pickle); a test holds them to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from croupier.core.cards import Card
from croupier.games.records import (
    _VALIDATORS,
    INT_LIMIT,
    CardDealt,
    Checked,
    DealerRevealed,
    Folded,
    HandShown,
    NoMoreBetsCalled,
    PlaceWager,
    PlayWagered,
    Record,
    Result,
    SeatSettling,
    WagerPlaced,
    WagerSettled,
    validate_fields,
)
from croupier.games.states import DealStep
from croupier.hands import HandRank

__all__ = [
    "card_dealt",
    "cards_dealt",
    "checked",
    "checked_record",
    "dealer_revealed",
    "folded",
    "hand_shown",
    "made_record",
    "no_more_bets_called",
    "play_wagered",
    "seat_settling",
    "wager_placed",
    "wager_settled",
]

_LOW, _HIGH = -INT_LIMIT, INT_LIMIT
_LINE_LIMIT = 10_000
"""The longest text a record's field holds (:mod:`croupier.games.records`)."""

_new = object.__new__
_set = object.__setattr__  # a frozen record's fields, stored as its own __init__ stores them

R = TypeVar("R", bound=Record)
_RECORD_CHECK = Record.__post_init__
"""The shared field check of every record (a class with its own ``__post_init__`` has more)."""


def made_record(cls: type[R], fields: dict[str, object]) -> R:
    """``cls(**fields)`` of values whose checks have already passed (the caller says where):
    ``fields`` names every field of ``cls``, in the class's order, and becomes the record's
    own (a fresh dict, never used again by the caller: the record is frozen)."""
    if cls.__post_init__ is not _RECORD_CHECK:
        return cls(**fields)  # a class with checks of its own: its constructor decides
    record: R = _new(cls)
    _set(record, "__dict__", fields)
    return record


def checked_record(cls: type[R], fields: dict[str, object]) -> R:
    """``cls(**fields)``, its fields checked by the class's own check as its constructor checks
    them (the same refusal, raised after the fields are stored, as there); ``fields`` names
    every field of ``cls``, in the class's order, and becomes the record's own (as in
    :func:`made_record`).  Only the keyword call is saved."""
    if cls.__post_init__ is not _RECORD_CHECK:
        return cls(**fields)  # a class with checks of its own: its constructor decides
    record: R = _new(cls)
    _set(record, "__dict__", fields)
    validate = _VALIDATORS.get(cls)
    if validate is None:
        validate_fields(record)  # the class's first record: its check is made there
    else:
        validate(record)
    return record


def card_dealt(card: Card, step: DealStep) -> CardDealt:
    """``CardDealt(card=card, to=step.to, face_up=step.face_up, note=step.note)`` of a card from
    the shoe dealt by ``step``."""
    record: CardDealt = _new(CardDealt)
    _set(
        record,
        "__dict__",
        {"card": card, "to": step.to, "face_up": step.face_up, "note": step.note},
    )
    return record


def cards_dealt(cards: Iterable[Card], steps: Iterable[DealStep]) -> list[Record]:
    """:func:`card_dealt` of each card from the shoe and its step, in order: a dealing stage's
    records made in one call (as many cards as steps)."""
    made: list[Record] = []
    for card, step in zip(cards, steps, strict=True):
        record: CardDealt = _new(CardDealt)
        _set(
            record,
            "__dict__",
            {"card": card, "to": step.to, "face_up": step.face_up, "note": step.note},
        )
        made.append(record)
    return made


def wager_placed(action: PlaceWager) -> WagerPlaced:
    """The record of a checked :class:`PlaceWager`."""
    record: WagerPlaced = _new(WagerPlaced)
    _set(record, "__dict__", {"seat": action.seat, "wager": action.wager, "amount": action.amount})
    return record


def seat_settling(seat: int) -> SeatSettling:
    """``SeatSettling(seat=seat)`` of one of the round's active seats."""
    record: SeatSettling = _new(SeatSettling)
    _set(record, "__dict__", {"seat": seat})
    return record


def folded(seat: int) -> Folded:
    """``Folded(seat=seat)`` of a checked decision's seat."""
    record: Folded = _new(Folded)
    _set(record, "__dict__", {"seat": seat})
    return record


def checked(seat: int) -> Checked:
    """``Checked(seat=seat)`` of a checked decision's seat."""
    record: Checked = _new(Checked)
    _set(record, "__dict__", {"seat": seat})
    return record


def no_more_bets_called(chips: int | None) -> NoMoreBetsCalled:
    """The record of a checked :class:`~croupier.games.records.NoMoreBets`'s chip count."""
    record: NoMoreBetsCalled = _new(NoMoreBetsCalled)
    _set(record, "__dict__", {"progressive_chips": chips})
    return record


def hand_shown(seat: int, cards: tuple[Card, ...], rank: HandRank) -> HandShown:
    """``HandShown`` of a seat's cards from the shoe and their rank."""
    record: HandShown = _new(HandShown)
    _set(
        record,
        "__dict__",
        {"seat": seat, "cards": cards, "category": rank.category._value_, "best": rank.cards},
    )
    return record


def dealer_revealed(cards: tuple[Card, ...], rank: HandRank) -> DealerRevealed:
    """``DealerRevealed`` of the dealer's cards from the shoe and their rank."""
    record: DealerRevealed = _new(DealerRevealed)
    _set(
        record, "__dict__", {"cards": cards, "category": rank.category._value_, "best": rank.cards}
    )
    return record


def play_wagered(seat: int, wager: str, amount: int, multiple: int | None) -> PlayWagered:
    """``PlayWagered`` of a checked Play's seat, the wager's name and the cents computed."""
    if not (
        type(amount) is int
        and _LOW <= amount <= _HIGH
        and (multiple is None or (type(multiple) is int and _LOW <= multiple <= _HIGH))
    ):
        return PlayWagered(seat=seat, wager=wager, amount=amount, multiple=multiple)
    record: PlayWagered = _new(PlayWagered)
    _set(record, "__dict__", {"seat": seat, "wager": wager, "amount": amount, "multiple": multiple})
    return record


def wager_settled(
    seat: int, wager: str, stake: int, result: Result, paid: int, returned: int, line: str
) -> WagerSettled:
    """``WagerSettled`` of a wager in action at ``seat`` (its stake as placed), settled."""
    if not (
        type(paid) is int
        and _LOW <= paid <= _HIGH
        and type(returned) is int
        and _LOW <= returned <= _HIGH
        and type(line) is str
        and len(line) <= _LINE_LIMIT
        and type(result) is Result
    ):
        return WagerSettled(
            seat=seat,
            wager=wager,
            stake=stake,
            result=result,
            paid=paid,
            returned=returned,
            line=line,
        )
    record: WagerSettled = _new(WagerSettled)
    _set(
        record,
        "__dict__",
        {
            "seat": seat,
            "wager": wager,
            "stake": stake,
            "result": result,
            "paid": paid,
            "returned": returned,
            "line": line,
        },
    )
    return record

"""Records the engine makes from values already checked: the same frozen records, made without
checking their fields a second time.

Every record checks its fields when it is made (:func:`~croupier.games.records.validate_fields`),
so that what the store writes it can always read back.  Some records the round makes only copy
values that were checked on their way in, and whose types cannot have changed since:

* a :class:`~croupier.games.records.CardDealt` holds a card from the shoe (a shoe holds only
  cards: :class:`~croupier.shoe.Shoe` checks them when it is filled) and the recipient, face and
  note of a :class:`~croupier.games.states.DealStep` (checked as a ``CardDealt``'s when the step
  is made);
* a :class:`~croupier.games.records.WagerPlaced` copies a :class:`PlaceWager` that
  :meth:`~croupier.games.round.Round.apply` has just checked field by field;
* a :class:`~croupier.games.records.SeatSettling` names a seat of the round's own active seats.

These makers build exactly the record the class's constructor builds (equal, the same fields in
the same order, the same ``repr``, JSON and pickle); a test holds them to it.
"""

from __future__ import annotations

from croupier.cards import Card
from croupier.games.records import CardDealt, PlaceWager, SeatSettling, WagerPlaced
from croupier.games.states import DealStep

__all__ = ["card_dealt", "seat_settling", "wager_placed"]

_new = object.__new__


def card_dealt(card: Card, step: DealStep) -> CardDealt:
    """``CardDealt(card=card, to=step.to, face_up=step.face_up, note=step.note)`` of a card from
    the shoe dealt by ``step``."""
    record: CardDealt = _new(CardDealt)
    fields = record.__dict__
    fields["card"] = card
    fields["to"] = step.to
    fields["face_up"] = step.face_up
    fields["note"] = step.note
    return record


def wager_placed(action: PlaceWager) -> WagerPlaced:
    """The record of a checked :class:`PlaceWager`."""
    record: WagerPlaced = _new(WagerPlaced)
    fields = record.__dict__
    fields["seat"] = action.seat
    fields["wager"] = action.wager
    fields["amount"] = action.amount
    return record


def seat_settling(seat: int) -> SeatSettling:
    """``SeatSettling(seat=seat)`` of one of the round's active seats."""
    record: SeatSettling = _new(SeatSettling)
    record.__dict__["seat"] = seat
    return record

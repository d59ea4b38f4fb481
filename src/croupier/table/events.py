"""What a table records outside its rounds: the clock, how decks arrive, and table events.

:class:`TableEvent` is one thing the table did between (or around) rounds: opening, a deck
received, inspected, shuffled, cut or removed, a seat taken or left, a device out of order;
:class:`PlayedRound` is one round at the table with the events before it.
:mod:`croupier.table.table` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from croupier.core.errors import InvalidInput
from croupier.games.records import record_to_json
from croupier.table.shoe import BackColour

if TYPE_CHECKING:
    from collections.abc import Mapping

    from croupier.core.cards import Card
    from croupier.core.modes import PlayMode
    from croupier.games.base import Round, StubCheck
    from croupier.games.records import Record

__all__ = [
    "Clock",
    "DeckSupply",
    "Device",
    "ManualClock",
    "PlayedRound",
    "Spread",
    "StoredDeck",
    "StoredTable",
    "SystemClock",
    "TableEvent",
    "TableEventKind",
    "TableMemento",
    "shoe_order",
]


class Clock(Protocol):
    """The time source of deck changes (§ 641a.3(c)) and of every table event."""

    def now(self) -> datetime:
        """The current time; it never goes back."""
        ...


class SystemClock:
    """The wall clock, in UTC."""

    __slots__ = ()

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock moved by hand: for simulation and tests."""

    __slots__ = ("_now",)

    def __init__(self, start: datetime) -> None:
        if not isinstance(start, datetime):
            raise InvalidInput(f"clock start {start!r} is not a datetime")
        self._now = start

    def now(self) -> datetime:
        return self._now

    def advance(self, by: timedelta) -> datetime:
        """Move the clock forward by ``by``; returns the new time."""
        if not isinstance(by, timedelta) or by < timedelta(0):
            raise InvalidInput(f"clock step {by!r} is not a non-negative timedelta")
        self._now += by
        return self._now


class DeckSupply(Enum):
    """How decks arrive at the table."""

    INSPECTED = "inspected"
    """New decks, inspected, washed and shuffled at the table (§ 641a.4(a)-(d))."""
    PRESHUFFLED = "preshuffled"
    """Preinspected and preshuffled decks (§ 641a.4(e)): cut before their first round."""


class TableEventKind(StrEnum):
    """What a :class:`TableEvent` records."""

    OPENED = "opened"
    RECEIVED = "received"
    INSPECTED = "inspected"
    SHUFFLED = "shuffled"
    CUT = "cut"
    DECK_CHANGED = "deck_changed"
    DECK_REMOVED = "deck_removed"
    SEATED = "seated"
    LEFT = "left"
    SHUFFLER_JAMMED = "shuffler_jammed"
    SHUFFLER_COUNTED = "shuffler_counted"
    RESHUFFLE_ORDERED = "reshuffle_ordered"
    RECUT = "recut"
    RACK_CLEARED = "rack_cleared"
    DEVICE_OUT_OF_ORDER = "device_out_of_order"
    DEVICE_RESTORED = "device_restored"
    METHOD_CHANGED = "method_changed"


@dataclass(frozen=True, kw_only=True, slots=True)
class TableEvent:
    """Something the table did outside a round.

    ``round`` is the number of the round in progress, or else of the next round to begin (1 for
    the opening).  ``deck`` is the serial number of the deck concerned (the deck leaving, for a
    change or removal).
    """

    kind: TableEventKind
    at: datetime
    round: int
    section: str = ""
    back: BackColour | None = None
    deck: int | None = None
    position: int | None = None
    seat: int | None = None
    player: str | None = None
    by: str | None = None
    """Who directed it (a floorperson or above), where the rule asks for one."""
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(kind=self.kind.value, at=self.at.isoformat())
        data.update(back=self.back.value if self.back else None)
        return data


class Device(StrEnum):
    """The automated devices of a table (§ 641a.13(e)-(g))."""

    SHUFFLER = "shuffler"
    """An automated card shuffling device (counting or not)."""
    DEALING_SHOE = "dealing_shoe"
    """An automated dealing shoe, or a dealing shoe that reshuffles the cards itself."""


class Spread(StrEnum):
    """How idle cards are spread for the first player to arrive (§ 641a.5(f))."""

    FACE_DOWN = "face_down"
    FACE_UP = "face_up"
    """At a player's request."""


class StoredDeck(StrEnum):
    """What happens to the deck taken out of the shuffler after an idle spell (§ 641a.5(f)(2))."""

    DEALT = "dealt"
    """Dealt as it comes out: the shuffler stores one shuffled deck securely and its cards were
    secured, released and prepared for play by approved procedures (§ 641a.5(f)(2)(i)-(ii))."""
    SPREAD_AND_RESHUFFLED = "spread_and_reshuffled"
    """A player asked for it to be spread for inspection and reshuffled as well."""


@dataclass(frozen=True, slots=True)
class TableMemento:
    """A :class:`~croupier.table.table.Table`'s bookkeeping at one moment
    (:meth:`~croupier.table.table.Table.memento`)."""

    state: dict[str, Any]
    events: tuple[TableEvent, ...]
    history: tuple[PlayedRound, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredTable:
    """What a store holds of a table's past, read back after a restart
    (:meth:`~croupier.table.table.Table.reopen` takes it): the table's events in order and, from the
    rounds begun at it, what the decks' lives need."""

    events: tuple[TableEvent, ...]
    rounds_before: int
    """The number of the last round begun (0: none)."""
    last_back: BackColour | None
    """The back of the deck the last round dealt (``None``: no round begun)."""
    counted: Mapping[BackColour, int]
    """By back: the last round whose stub was counted."""
    dealt: frozenset[int]
    """Serial numbers of the decks a round has dealt."""
    last_deck_removed: bool
    """Whether the last round's void removed its deck (a stub count found cards missing)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PlayedRound:
    """One round at the table: the round, the cards it was dealt from, and the table events
    since the round before it began (seats, shuffles, cuts, deck changes)."""

    number: int
    round: Round
    back: BackColour
    deck: int
    """Serial number of the deck dealt."""
    _order: tuple[Card, ...]
    """Privileged: the stacked deck as it went into the shoe (after any cut), top card first.
    Never public (it is the shoe order); read it server side through :func:`shoe_order`."""
    cut_at: int | None
    stub_check: StubCheck
    started_at: datetime
    events: tuple[TableEvent, ...]

    @property
    def records(self) -> tuple[Record, ...]:
        return self.round.records

    @property
    def mode(self) -> PlayMode:
        return self.round.mode

    def to_json(self) -> dict[str, Any]:
        """The round's header and its public records; the shoe order is left out (it is kept
        server side, :func:`shoe_order`)."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        del data["round"], data["_order"]
        data.update(back=self.back.value, mode=self.mode.value)
        data.update(stub_check=self.stub_check.value, started_at=self.started_at.isoformat())
        data.update(events=[e.to_json() for e in self.events])
        data.update(records=[record_to_json(r) for r in self.round.records])
        return data


def shoe_order(played: PlayedRound) -> tuple[Card, ...]:
    """Privileged (server side: the store persists it apart from the public records, the audit
    checks a deal against it): the order the round's deck went into the shoe, top card first."""
    return played._order

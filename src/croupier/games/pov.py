"""Points of view on a round: who may see which card (Lichess-style ``Pov``).

Hidden information is a security boundary.  Every round offers :meth:`Round.view` and
:meth:`Round.records_for` for a :class:`Pov`:

==============  =============================================================================
``player(n)``   the player at seat ``n`` (``player(3, 4)`` for one player's adjacent boxes):
                their own cards, cards turned face up, every wager and meter
``dealer()``    cards turned face up, every wager and meter; never a face-down card (see below)
``supervisor``  every card dealt, burnt or discarded (the floor and surveillance see the
                layout); never the order of the cards still in the shoe nor the shuffler
``public()``    what an observer at the table sees: face-up cards, wagers, meters
==============  =============================================================================

A hand the dealer turns face up to settle it (``HandShown``: Three Card Poker, Four Card Poker,
Let It Ride, Ultimate Texas Hold 'Em, Mississippi Stud) is on the layout for the dealer, the
supervisor and an observer; another seat's player gets its seat and category only
(:class:`HandHidden`): a player's device never holds another player's cards.

No view ever holds the shoe's order or the shuffler's state: only the count of cards left.

A card becomes visible to everyone when it is turned face up: dealt face up (a dealer's up
card, the flop), or shown by a later record (``DealerRevealed``, a community card turned, a
hand shown, a baccarat hand turned or result announced).  The record stream for a point of view
(:func:`redact`) replaces each ``CardDealt`` / ``CardDiscarded`` that the viewer may not see by
a :class:`CardHidden` that names only where the card went; the stream for a viewer is
append-only (a later prefix never rewrites an earlier record), so the live server can number it.

The dealer: none of the chapter texts available to the project lets the dealer look at a
face-down card before the reveal (e.g. § 569.11(f): the dealer's two cards are turned at the
reveal; § 641a.11(c)(1): the dealer's hand is turned after the decisions); the dealer's point of
view therefore hides every face-down card, the dealer's own included.  Baccarat's first four
cards dealt face down (the Rules Submission's ``table.face_up = false``, § 627a.8(c)(2)) are
hidden from every view but the supervisor's until the round's ``HandTurned`` records turn them
(the Player's Hand called, then the Banker's cards), before any third card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput, shown_value
from croupier.core.frozen import frozen_dict
from croupier.games.records import (
    CardDealt,
    CardDiscarded,
    EnvyPaid,
    HandShown,
    Record,
    WagerSettled,
    field_names,
)
from croupier.games.reported_cards import CardCorrected, CardRefused

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = [
    "CardHidden",
    "HandHidden",
    "Pov",
    "PovKind",
    "RoundView",
    "Sightline",
    "layout_cards",
    "public_cards",
    "records_for",
    "redact",
    "seat_cards",
    "sightline",
    "supervisor_hands",
    "view",
]


class PovKind(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    PUBLIC = "public"


def _verify_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 7:
        raise InvalidInput(f"point of view seat {shown_value(seat)} is not a seat 1-7")


@dataclass(frozen=True, slots=True)
class Pov:
    """A point of view: ``Pov.player(3)``, ``Pov.dealer()``, ``Pov.supervisor()``,
    ``Pov.public()``."""

    kind: PovKind
    seats: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, PovKind):
            raise InvalidInput(f"point of view kind {self.kind!r} is not a PovKind")
        if not isinstance(self.seats, frozenset):
            raise InvalidInput(f"point of view seats {self.seats!r} are not a frozenset")
        for seat in self.seats:
            _verify_seat(seat)
        # A player's device with no seat in the round (``Pov.player()``) sees what the public
        # sees except the players' hands turned up: a player never holds another's cards.
        if self.kind is not PovKind.PLAYER and self.seats:
            raise InvalidInput("only a player's point of view names seats")

    @classmethod
    def player(cls, *seats: int) -> Pov:
        for seat in seats:
            _verify_seat(seat)  # before the set is made (an unhashable seat is refused here)
        return cls(PovKind.PLAYER, frozenset(seats))

    @classmethod
    def dealer(cls) -> Pov:
        return cls(PovKind.DEALER)

    @classmethod
    def supervisor(cls) -> Pov:
        return cls(PovKind.SUPERVISOR)

    @classmethod
    def public(cls) -> Pov:
        return cls(PovKind.PUBLIC)

    @classmethod
    def parse(cls, text: str) -> Pov:
        """``player:3`` (or ``player:3,4``), ``dealer``, ``supervisor``, ``public``."""
        if not isinstance(text, str) or len(text) > 40:
            raise InvalidInput(f"point of view {str(text)[:40]!r} is not understood")
        name, _, rest = text.partition(":")
        if name == "player":
            parts = rest.split(",")
            if not all(p.isascii() and p.isdigit() and len(p) == 1 for p in parts):
                raise InvalidInput(f"point of view {text!r}: seats are 1-7 (player:3)")
            return cls.player(*(int(p) for p in parts))
        for kind in (PovKind.DEALER, PovKind.SUPERVISOR, PovKind.PUBLIC):
            if text == kind.value:
                return cls(kind)
        raise InvalidInput(f"point of view {text!r} is not player:N, dealer, supervisor or public")

    def __str__(self) -> str:
        if self.kind is PovKind.PLAYER:
            return "player:" + ",".join(str(s) for s in sorted(self.seats))
        return self.kind.value

    def sees_dealt(self, record: CardDealt) -> bool:
        """Whether this viewer sees the card of ``record`` when it is dealt."""
        if self.kind is PovKind.SUPERVISOR or record.face_up:
            return True
        return (
            self.kind is PovKind.PLAYER
            and record.to.isascii()
            and record.to.isdigit()
            and int(record.to) in self.seats
        )


@dataclass(frozen=True, kw_only=True)
class CardHidden(Record):
    """A card left the shoe for ``to`` face down; this viewer may not see which (it stands
    for the ``was`` record: ``card_dealt`` or ``card_discarded``)."""

    kind: ClassVar[str] = "card_hidden"
    to: str
    was: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class HandHidden(Record):
    """The dealer turned over the hand of ``seat`` (``was``: ``hand_shown``) and announced its
    ``category``; this viewer, another seat's player, may not see its cards."""

    kind: ClassVar[str] = "hand_hidden"
    seat: int
    category: str
    was: str


@lru_cache(maxsize=1024)
def _card_hidden(to: str, was: str, note: str = "") -> CardHidden:
    """The one :class:`CardHidden` of these values: a record is frozen, so every viewer who may
    not see a card shares it.  A table's sightlines (each of its people's, kept between events)
    held one of their own for each face-down card, each an object the garbage collector scans
    (``benchmarks/bench_carried_state.py`` prints what a table holds; docs/performance.md)."""
    return CardHidden(to=to, was=was, note=note)


@lru_cache(maxsize=1024)
def _hand_hidden(seat: int, category: str, was: str) -> HandHidden:
    """The one :class:`HandHidden` of these values (shared as :func:`_card_hidden`'s)."""
    return HandHidden(seat=seat, category=category, was=was)


def redact(record: Record, pov: Pov) -> Record:
    """``record`` as ``pov`` may see it: a face-down card it may not see becomes a
    :class:`CardHidden`, another seat's shown hand a :class:`HandHidden`; every other record is
    public as it stands."""
    if isinstance(record, HandShown):
        # Face up on the layout (§ 641a.11(c)(1), § 569.11(h), § 571.11(h)): the dealer, the
        # floor and an observer at the table see it; another player's device never holds it.
        if pov.kind is not PovKind.PLAYER or record.seat in pov.seats:
            return record
        return _hand_hidden(record.seat, record.category, record.kind)
    if isinstance(record, CardDealt):
        if pov.sees_dealt(record):
            return record
        return _card_hidden(record.to, record.kind, record.note)
    if isinstance(record, CardDiscarded):
        if pov.kind is PovKind.SUPERVISOR:
            return record
        return _card_hidden("discard", record.kind, record.section)
    if isinstance(record, CardCorrected):
        # a misread corrected (issue 39): seen by whoever sees the card where it lies
        seen = CardDealt(card=record.card, to=record.to, face_up=record.face_up)
        return record if pov.sees_dealt(seen) else _card_hidden(record.to, record.kind)
    if isinstance(record, CardRefused) and pov.kind is not PovKind.SUPERVISOR:
        return _card_hidden("discard", record.kind, record.section)
    return record


def records_for(records: Iterable[Record], pov: Pov) -> tuple[Record, ...]:
    return tuple(redact(r, pov) for r in records)


def _cards_in(record: Record) -> list[Card]:
    out: list[Card] = []
    for name in field_names(record):
        value = getattr(record, name)
        if isinstance(value, Card):
            out.append(value)
        elif isinstance(value, tuple):
            out += [v for v in value if isinstance(v, Card)]
    return out


def public_cards(records: Iterable[Record]) -> list[Card]:
    """Every card shown face up by ``records`` (with repeats, for multi-deck shoes); give it
    the records as one viewer sees them (:func:`records_for`) for what that viewer may see."""
    out: list[Card] = []
    for r in records:
        if isinstance(r, CardDealt | CardCorrected):
            if r.face_up:
                out.append(r.card)
        elif not isinstance(r, CardDiscarded | CardHidden | CardRefused):
            out += _cards_in(r)
    return out


def _layout(
    records: tuple[Record, ...], seen: tuple[Record, ...], pov: Pov
) -> dict[str, list[str | None]]:
    """The cards on the layout by recipient, as ``pov`` sees them (``None``: face down);
    ``seen``: ``records`` as ``pov`` sees them (:func:`records_for`)."""
    dealt = [r for r in records if isinstance(r, CardDealt)]
    shown = [False] * len(dealt)
    for i, r in enumerate(dealt):
        shown[i] = pov.sees_dealt(r)
    for card in public_cards(seen):
        for i, r in enumerate(dealt):
            if not shown[i] and r.card == card:
                shown[i] = True
                break
    layout: dict[str, list[str | None]] = {}
    for i, r in enumerate(dealt):
        layout.setdefault(r.to, []).append(str(r.card) if shown[i] else None)
    for fixed in seen:  # a misread corrected: the card where it lies
        if isinstance(fixed, CardCorrected) and layout.get(fixed.to):
            layout[fixed.to][-1] = str(fixed.card)
    return layout


def _moves_layout(raw: Record, seen: Record) -> bool:
    """Whether ``raw`` (seen as ``seen``) can change a layout :func:`_layout` draws: a card
    dealt, a misread corrected, or a card it shows."""
    return (
        isinstance(raw, CardDealt) or isinstance(seen, CardCorrected) or bool(public_cards((seen,)))
    )


@dataclass(frozen=True, slots=True)
class Sightline:
    """What one point of view has seen of a round so far (:func:`sightline`): its first
    ``len(seen)`` records as that point of view sees them (:func:`records_for`), and the layout
    they show, with the count of records it was drawn from.

    A round's history only grows, and :func:`redact` sees one record at a time, so a viewer
    asked again after more records (a table's people, after each event) has only the new
    records redacted, and the layout drawn again only where one of them can change it."""

    last: Record | None
    """The last record of the history followed (checked: a line follows one history)."""
    seen: tuple[Record, ...]
    moved: int
    """The count of records up to the last one that can change the layout."""
    drawn: int
    """The count of records :attr:`layout` was drawn from."""
    layout: Mapping[str, tuple[str | None, ...]]


_UNSEEN = Sightline(last=None, seen=(), moved=0, drawn=-1, layout=frozen_dict({}))


def sightline(records: Sequence[Record], pov: Pov, known: Sightline | None = None) -> Sightline:
    """``pov``'s sight of ``records`` (a round's history), from ``known`` (its sight of a
    shorter prefix of the same history: only the records after it are redacted) where given;
    drawn afresh where ``known`` followed another history."""
    count = len(records)
    if known is None or len(known.seen) > count:
        known = _UNSEEN
    start = len(known.seen)
    if start and records[start - 1] is not known.last:
        known, start = _UNSEEN, 0
    if start == count and known.drawn >= known.moved:
        return known
    seen, moved = known.seen, known.moved
    if start < count:
        new = tuple(redact(r, pov) for r in records[start:])
        for i, (raw, shown) in enumerate(zip(records[start:], new, strict=True), start):
            if _moves_layout(raw, shown):
                moved = i + 1
        seen = seen + new
    drawn, layout = known.drawn, known.layout
    if drawn < moved:
        drawn = count
        cards = _layout(tuple(records), seen, pov)
        layout = frozen_dict({k: tuple(v) for k, v in cards.items()})
    return Sightline(
        last=records[-1] if records else None, seen=seen, moved=moved, drawn=drawn, layout=layout
    )


def seat_cards(rnd: Round, seat: int) -> tuple[Card, ...]:
    """The cards the player at ``seat`` holds (what ``Pov.player(seat)`` sees of its own
    hand); for house players' strategies and the terminal face."""
    return tuple(rnd._deal.hands.get(str(seat), ()))


def layout_cards(rnd: Round, to: str) -> list[Card]:
    """Privileged: the cards on the layout at ``to`` (a seat, the dealer, the board), face down
    or not (a copy): :func:`supervisor_hands` of one recipient; for house players' strategies."""
    return list(rnd._deal.hands.get(to, ()))


def supervisor_hands(rnd: Round) -> dict[str, list[Card]]:
    """Privileged: every card on the layout by recipient, face down or not (a copy).

    What ``Pov.supervisor()`` sees; for the server side only (store, table, scenario replays,
    analysis and tests), never for a player's or the public's connection."""
    return {k: list(v) for k, v in rnd._deal.hands.items()}


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return frozen_dict(mapping)


@dataclass(frozen=True, slots=True)
class SettledWager:
    seat: int
    wager: str
    stake: int
    result: str
    paid: int
    returned: int
    line: str


@dataclass(frozen=True, slots=True)
class RoundView:
    """What one point of view may know of a round, frozen; :meth:`to_json` is what the live
    server sends."""

    pov: Pov
    game: str
    mode: str
    phase: str
    to_act: str
    seq: int
    """Records so far (the stream's length)."""
    players: Mapping[int, str]
    stakes: Mapping[int, Mapping[str, int]]
    cards: Mapping[str, tuple[str | None, ...]]
    """Cards on the layout by recipient; ``None`` is a face-down card this viewer may not see."""
    meters: Mapping[str, int]
    cards_left: int
    settled: tuple[SettledWager, ...] = ()
    envy: tuple[tuple[int, int, str, int], ...] = field(default=())
    lights: Mapping[int, str] = field(default_factory=dict)
    """A sensor table's lights (issue 39): each seated position ``lit`` or ``dark``; public,
    in every view (§ 641a.7(d)(4): each player verifies that their wager was accepted)."""
    wager_lights: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    """Each position's light per progressive wager, where the game has several (Let It Ride's
    two devices, § 643a.2(c)(1)); empty otherwise (``lights`` says it all)."""
    records: tuple[Record, ...] = ()
    """The round's records as this viewer may see them (:func:`records_for`: the hand history
    the view was drawn from); not in :meth:`to_json`, which the hand history joins as JSON
    where it is sent."""

    def to_json(self) -> dict[str, Any]:
        data = {
            "pov": str(self.pov),
            "game": self.game,
            "mode": self.mode,
            "phase": self.phase,
            "to_act": self.to_act,
            "seq": self.seq,
            "players": {str(s): p for s, p in self.players.items()},
            "stakes": {str(s): dict(w) for s, w in self.stakes.items()},
            "cards": {k: list(v) for k, v in self.cards.items()},
            "meters": dict(self.meters),
            "cards_left": self.cards_left,
            "settled": [
                {
                    "seat": w.seat,
                    "wager": w.wager,
                    "stake": w.stake,
                    "result": w.result,
                    "paid": w.paid,
                    "returned": w.returned,
                    **({"line": w.line} if w.line else {}),
                }
                for w in self.settled
            ],
            "envy": [
                {"seat": s, "for_seat": f, "line": line, "amount": a} for s, f, line, a in self.envy
            ],
        }
        if self.lights:  # only a table with sensors has lights
            data["lights"] = {str(s): light for s, light in self.lights.items()}
        if self.wager_lights:
            data["wager_lights"] = {str(s): dict(w) for s, w in self.wager_lights.items()}
        json.dumps(data)  # JSON-safe by construction; fail loudly here, never on the wire
        return data


def _meter_names(rnd: Round) -> list[str]:
    names = [spec.name for _, spec in rnd.contribution_meters()]
    spec = rnd.game.meter_spec
    if spec is not None:
        names.append(spec.name)
    return sorted(set(names))


def view(rnd: Round, pov: Pov, line: Sightline | None = None) -> RoundView:
    """The frozen view of ``rnd`` for ``pov``; ``line``: ``pov``'s :func:`sightline` of the
    round's records now, where the round keeps it (:meth:`Round.view`)."""
    if not isinstance(pov, Pov):
        raise InvalidInput(f"point of view {pov!r} is not a Pov")
    records = tuple(rnd._records)
    if line is None:
        line = sightline(records, pov)
    settled = tuple(
        SettledWager(r.seat, r.wager, r.stake, r.result.value, r.paid, r.returned, r.line)
        for r in records
        if isinstance(r, WagerSettled)
    )
    envy = tuple((r.seat, r.for_seat, r.line, r.amount) for r in records if isinstance(r, EnvyPaid))
    return RoundView(
        pov=pov,
        game=rnd.game.slug,
        mode=rnd.mode.value,
        phase=rnd.phase.value,
        to_act=str(rnd.to_act()),
        seq=len(records),
        players=_frozen(rnd._players),
        stakes=_frozen({s: _frozen(w) for s, w in rnd._stakes.by_seat.items() if w}),
        cards=line.layout,
        meters=_frozen({name: rnd.meters.amount(name) for name in _meter_names(rnd)}),
        cards_left=rnd.cards_left,
        settled=settled,
        envy=envy,
        lights=_frozen({s: light.value for s, light in rnd.lights().items()}),
        wager_lights=_wager_lights(rnd),
        records=line.seen,
    )


def _wager_lights(rnd: Round) -> Mapping[int, Mapping[str, str]]:
    """The lights per wager, only where a position has more than one progressive device."""
    if len(rnd.sensed_wagers()) < 2:
        return _frozen({})
    lights = rnd.wager_lights().items()
    return _frozen({s: _frozen({w: x.value for w, x in by.items()}) for s, by in lights})

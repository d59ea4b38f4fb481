"""Irregularities and table events written in a scenario, so a dispute about one can be replayed.

A scenario's ``events`` list (JSON) names what happened during the round, in order::

    "events": [
      {"kind": "card_face_up_in_deck", "after_cards": 3},
      {"kind": "stub_count", "count": 40},
      {"kind": "leave", "seat": 2, "after_decisions": 1},
      {"kind": "collect_vig", "reason": "player_leaves", "seat": 3}
    ]

=========================  =================================================  ==================
kind                       what happened                                      §
=========================  =================================================  ==================
``card_face_up_in_deck``   a card found face up in the shoe while dealing:    § 641a.13(a)
                           the first is discarded, a second voids the round
``card_drawn_in_error``    a card drawn in error, face unseen: used as the    § 641a.13(b)
                           next card
``wrong_card_count``       a player or the dealer dealt a wrong number of     § 641a.13(c)
                           cards: void
``dealer_card_exposed``    a dealer card exposed before the reveal: void      § 641a.13(d)
``automated_shoe_jam``     the automated dealing shoe jams mid-round: void    § 641a.13(f)
``stub_count``             the dealer's count of the stub (``count``); a      § 641a.8(f)-(h)
                           short or long count voids the round and removes
                           the deck
``leave``                  the player at ``seat`` leaves mid-round: the       § 641a.7(b)
                           wagers are abandoned and lose
``void``                   a supervisor voids the round (``by``, ``reason``):  games/void.py
                           the wagers still open go back (``in_betting``:
                           while the bets are taken, before "no more bets")
``cut``                    before the deal: the cover card ``cut_at`` cards    § 641a.5(d)
                           in (``cards`` is then the stack before the cut)
``recut``                  a floorperson (``by``) has the cards cut again      § 641a.5(e)
``reshuffle_ordered``,     the table's procedures before the round, carried    § 641a.5(a), (b),
``shuffler_count``,        out at a table of the game: ``by``; ``count``;      (f), § 641a.13(g)
``idle``,                  ``spread``, ``stored``; ``device``; ``shuffle``,
``device_out_of_order``,   ``deal`` (another method deals the round)
``device_restored``,
``change_method``
``collect_vig``            after the round, deferred vigorish collected       § 541.13(g),
                           before the reshuffle or when the player at         § 543.13(g)
                           ``seat`` leaves (``reason``)
=========================  =================================================  ==================

The sections are Four Card Poker's; each game's round cites its own chapter's in the records.
An event happens at the first moment the round allows it once ``after_cards`` cards have left
the shoe (dealt or discarded), ``after_decisions`` player decisions have been made and the
round's history holds ``after_records`` records (all 0 by default; a round's export gives all
three, so its events come exactly where they came), and after the event before it (a
``stub_count`` listed before an event happens first).  A ``void`` with ``"in_betting": true``
happens once the seats' wagers are placed, before "no more bets" is called.  One the round
never allows is refused, naming it.  A scenario's ``stub_check`` (``"required"``) has the
dealer count the stub in the round even where no ``stub_count`` event says so (a round voided
before its count).
Verbal wagers accompanied by cash (§ 541.8(b)) are a seat's ``verbal`` wagers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.games.records import (
    AbandonWagers,
    Action,
    CardDealt,
    CardDiscarded,
    CountStub,
    IrregularityKind,
    Record,
    ReportIrregularity,
    VoidRound,
    record_to_json,
)
from croupier.games.round import ActorKind, Phase, StubCheck
from croupier.rules.submission import DealMethod, ShuffleMethod
from croupier.table.events import Device, Spread, StoredDeck

if TYPE_CHECKING:
    from croupier.core.cards import Card
    from croupier.games import Game, Round
    from croupier.table.table import Table

__all__ = [
    "EventKind",
    "ScenarioEvent",
    "VerbalWagerModel",
    "after_round",
    "cards_out",
    "parse_events",
    "place_verbal",
    "play_out",
    "stub_check",
]

MAX_EVENTS = 32


class EventKind(StrEnum):
    CARD_FACE_UP_IN_DECK = IrregularityKind.CARD_FACE_UP_IN_DECK.value
    CARD_DRAWN_IN_ERROR = IrregularityKind.CARD_DRAWN_IN_ERROR.value
    WRONG_CARD_COUNT = IrregularityKind.WRONG_CARD_COUNT.value
    DEALER_CARD_EXPOSED = IrregularityKind.DEALER_CARD_EXPOSED.value
    AUTOMATED_SHOE_JAM = IrregularityKind.AUTOMATED_SHOE_JAM.value
    STUB_COUNT = "stub_count"
    LEAVE = "leave"
    VOID = "void"
    CUT = "cut"
    RECUT = "recut"
    COLLECT_VIG = "collect_vig"
    # the table's procedures before the round (croupier.table.table.Table's methods)
    RESHUFFLE_ORDERED = "reshuffle_ordered"
    SHUFFLER_COUNT = "shuffler_count"
    IDLE = "idle"
    DEVICE_OUT_OF_ORDER = "device_out_of_order"
    DEVICE_RESTORED = "device_restored"
    CHANGE_METHOD = "change_method"


_Count = Annotated[int, Field(ge=0, le=8 * 52)]
_Person = Annotated[str, StringConstraints(min_length=1, max_length=80)]
_FIELDS: dict[EventKind, tuple[set[str], set[str]]] = {
    # kind: (required, allowed besides the timing)
    EventKind.STUB_COUNT: ({"count"}, {"count"}),
    EventKind.LEAVE: ({"seat"}, {"seat"}),
    EventKind.VOID: ({"by", "reason"}, {"by", "reason"}),
    EventKind.COLLECT_VIG: ({"reason"}, {"reason", "seat"}),
    EventKind.CUT: ({"cut_at"}, {"cut_at"}),
    EventKind.RECUT: ({"cut_at", "by"}, {"cut_at", "by"}),
    EventKind.RESHUFFLE_ORDERED: ({"by"}, {"by"}),
    EventKind.SHUFFLER_COUNT: ({"count"}, {"count"}),
    EventKind.IDLE: (set(), {"spread", "stored"}),
    EventKind.DEVICE_OUT_OF_ORDER: ({"device"}, {"device"}),
    EventKind.DEVICE_RESTORED: ({"device"}, {"device"}),
    EventKind.CHANGE_METHOD: (set(), {"shuffle", "deal"}),
}
_TABLE = (
    EventKind.RESHUFFLE_ORDERED,
    EventKind.SHUFFLER_COUNT,
    EventKind.IDLE,
    EventKind.DEVICE_OUT_OF_ORDER,
    EventKind.DEVICE_RESTORED,
    EventKind.CHANGE_METHOD,
)
_BEFORE_THE_DEAL = (EventKind.CUT, EventKind.RECUT, *_TABLE)


class ScenarioEvent(BaseModel):
    """One irregularity or table event of a scenario (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    kind: Annotated[EventKind, Field(strict=False)]  # the kind's name, as in JSON
    after_cards: _Count = 0
    """The event happens once this many cards have left the shoe (dealt or discarded)."""
    after_decisions: Annotated[int, Field(ge=0, le=64)] = 0
    """... and this many player decisions have been made."""
    after_records: Annotated[int, Field(ge=0, le=4096)] = 0
    """... and the round's history holds this many records (what an export writes, so the
    event comes exactly where it came: a card turned up moves no card out of the shoe)."""
    in_betting: bool = False
    """``void``: while the bets are still taken, before "no more bets" (no other timing)."""
    count: _Count | None = None
    """``stub_count``: the cards the dealer counted in the stub."""
    seat: Annotated[int, Field(ge=1, le=7)] | None = None
    """``leave``: the seat whose player leaves; ``collect_vig``: the seat whose marker goes."""
    cut_at: Annotated[int, Field(ge=1, le=8 * 52)] | None = None
    """``cut``, ``recut``: the cover card this many cards in from the top (§ 641a.5(d))."""
    by: _Person | None = None
    """``recut``, ``reshuffle_ordered``: the floorperson (or above); ``void``: the supervisor."""
    device: Annotated[Device, Field(strict=False)] | None = None
    """``device_out_of_order``, ``device_restored``: ``shuffler`` or ``dealing_shoe``."""
    shuffle: Annotated[ShuffleMethod, Field(strict=False)] | None = None
    """``change_method``: the new method of shuffling."""
    deal: Annotated[DealMethod, Field(strict=False)] | None = None
    """``change_method``: the new method of dealing."""
    spread: Annotated[Spread, Field(strict=False)] | None = None
    """``idle``: how the cards are spread (face down unless a player asks)."""
    stored: Annotated[StoredDeck, Field(strict=False)] | None = None
    """``idle``: whether the deck taken from the shuffler is also spread and reshuffled."""
    reason: _Person | None = None
    """``void``: why; ``collect_vig``: ``reshuffle`` or ``player_leaves``."""

    @model_validator(mode="after")
    def _fields_of_the_kind(self) -> ScenarioEvent:
        required, allowed = _FIELDS.get(self.kind, (set(), set()))
        names = ["count", "seat", "cut_at", "by", "reason", "device", "shuffle", "deal"]
        names += ["spread", "stored"]
        given = {f for f in names if getattr(self, f) is not None}
        missing, extra = sorted(required - given), sorted(given - allowed)
        if missing:
            raise ValueError(f"event {self.kind.value!r} needs {', '.join(missing)}")
        if extra:
            raise ValueError(f"event {self.kind.value!r} takes no {', '.join(extra)}")
        if self.kind is EventKind.COLLECT_VIG:
            if self.reason not in ("reshuffle", "player_leaves"):
                raise ValueError("collect_vig reason is 'reshuffle' or 'player_leaves'")
            if (self.reason == "player_leaves") != (self.seat is not None):
                raise ValueError("collect_vig names a seat exactly when the player leaves")
        timed = bool(self.after_cards or self.after_decisions or self.after_records)
        if self.kind is EventKind.COLLECT_VIG and timed:
            raise ValueError("collect_vig happens after the round: it takes no timing")
        if self.kind is EventKind.CHANGE_METHOD and self.shuffle is None and self.deal is None:
            raise ValueError("change_method needs shuffle or deal")
        if self.kind in _BEFORE_THE_DEAL and timed:
            raise ValueError(f"{self.kind.value} happens before the deal: it takes no timing")
        if self.in_betting and self.kind is not EventKind.VOID:
            raise ValueError("only a void happens in_betting")
        if self.in_betting and timed:
            raise ValueError("a void in_betting happens before the deal: it takes no timing")
        return self


class VerbalWagerModel(BaseModel):
    """A verbal wager accompanied by cash, confirmed by the dealer calling the game (§ 541.8(b))."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    amount: Annotated[int, Field(gt=0)]
    cash: Annotated[int, Field(gt=0)]
    confirmed_by: _Person


def parse_events(raw: object) -> list[ScenarioEvent]:
    """The scenario's ``events`` (a list of objects), checked; ``InvalidInput`` names each
    problem with the event's position."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        raise InvalidInput(f"scenario 'events' must be a list of at most {MAX_EVENTS} objects")
    events, problems = [], []
    for index, item in enumerate(raw, start=1):
        try:
            events.append(ScenarioEvent.model_validate(item))
        except ValidationError as exc:
            for err in exc.errors():
                where = ".".join(str(p) for p in err.get("loc", ()))
                msg = str(err.get("msg", "")).removeprefix("Value error, ")
                problems.append(f"events[{index}]{'.' + where if where else ''}: {msg}")
    if problems:
        raise InvalidInput("scenario: " + "; ".join(problems))
    return events


def stub_check(events: Sequence[ScenarioEvent]) -> StubCheck:
    """A scenario that gives the dealer's stub count has the round count its stub."""
    counts = any(e.kind is EventKind.STUB_COUNT for e in events)
    return StubCheck.REQUIRED if counts else StubCheck.NOT_REQUIRED


def place_verbal(rnd: Round, seat: int, verbal: object) -> None:
    """A seat's verbal wagers accompanied by cash (``{"banker": {"amount", "cash",
    "confirmed_by"}}``): accepted where the chapter allows them once the dealer calling the
    game confirms them (§ 541.8(b)); the poker chapters refuse them (§ 641a.7(a) and its
    counterparts)."""
    if not verbal:
        return
    if not isinstance(verbal, Mapping):
        raise InvalidInput(f"seat {seat}: 'verbal' must map wager names to verbal wagers")
    from croupier.table.table import regs_of

    regs = regs_of(rnd.game)
    if regs is not None and regs.no_verbal:
        raise IllegalAction(
            f"verbal wager at seat {seat} refused: verbal wagers accompanied by cash may not "
            f"be accepted at {rnd.game.slug}",
            section=regs.no_verbal,
        )
    from croupier.games.baccarat import VerbalWager

    for wager, raw in verbal.items():
        try:
            spec = VerbalWagerModel.model_validate(raw)
        except ValueError as exc:
            raise InvalidInput(f"seat {seat} verbal {wager!r}: {exc}") from None
        action = VerbalWager(
            seat=seat,
            wager=str(wager),
            amount=spec.amount,
            cash=spec.cash,
            confirmed_by=spec.confirmed_by,
        )
        rnd.apply(action)


# --------------------------------------------------------------------------------------------
# Playing a round with its events


def cards_out(records: Sequence[Record]) -> list[str]:
    """Who took each card that left the shoe, in order: a hand (``CardDealt.to``) or
    ``"face_up"`` for a card found face up and discarded (§ 641a.13(a))."""
    return [
        r.to if isinstance(r, CardDealt) else "face_up"
        for r in records
        if isinstance(r, CardDealt | CardDiscarded)
    ]


def _action(event: ScenarioEvent) -> Action:
    if event.kind is EventKind.LEAVE:
        assert event.seat is not None
        return AbandonWagers(seat=event.seat)
    if event.kind is EventKind.VOID:
        assert event.by is not None and event.reason is not None
        return VoidRound(by=event.by, reason=event.reason)
    return ReportIrregularity(kind=IrregularityKind(event.kind.value))


def in_round(events: Sequence[ScenarioEvent]) -> list[ScenarioEvent]:
    """The events that happen within the round after "no more bets" (not the cut before it,
    a void while the bets are taken, nor the collection of vigorish after it)."""
    outside = (EventKind.COLLECT_VIG, *_BEFORE_THE_DEAL)
    return [e for e in events if e.kind not in outside and not e.in_betting]


def void_in_betting(rnd: Round, events: Sequence[ScenarioEvent]) -> None:
    """Carry out the scenario's void while the bets are taken (``in_betting``), if it has one:
    the wagers placed go back and "no more bets" is never called."""
    for event in events:
        if event.in_betting:
            rnd.apply(_action(event))


def table_before(game: Game, events: Sequence[ScenarioEvent]) -> tuple[Game, list[dict[str, Any]]]:
    """The table's procedures the scenario lists before the round, carried out at a
    :class:`~croupier.table.table.Table` of the scenario's game (each refused as the table refuses
    it, with its section): a floorperson's reshuffle, the counting shuffler's count, idle cards
    re-inspected, a device out of order or restored, another method.  Returns the game the
    round is dealt by (another method changes it, § 641a.13(g)) and the table's events.  The
    shuffles these make are not the scenario's: its ``cards`` or hands are the deck as dealt."""
    before = [e for e in events if e.kind in _TABLE]
    if not before:
        return game, []
    from datetime import UTC, datetime

    from croupier.core.modes import PlayMode
    from croupier.table.shoe import SeededShuffler
    from croupier.table.table import ManualClock, Table

    clock = ManualClock(datetime(2000, 1, 1, tzinfo=UTC))
    # a dispute replay: training mode, which allows the seeded shuffler (croupier.core.modes)
    table = Table(game, shuffler=SeededShuffler(0), clock=clock, mode=PlayMode.TRAINING)
    mark = len(table.events)
    for event in before:
        _table_step(table, event)
    out = [e.to_json() for e in table.events[mark:]]
    return table.game, [{k: v for k, v in e.items() if k != "at" and v is not None} for e in out]


def _table_step(table: Table, event: ScenarioEvent) -> None:
    kind = event.kind
    if kind is EventKind.RESHUFFLE_ORDERED:
        assert event.by is not None
        table.order_reshuffle(by=event.by)
    elif kind is EventKind.SHUFFLER_COUNT:
        assert event.count is not None
        table.report_shuffler_count(event.count)
    elif kind is EventKind.IDLE:
        table.reinspect_idle(event.spread or Spread.FACE_DOWN, event.stored or StoredDeck.DEALT)
    elif kind is EventKind.DEVICE_OUT_OF_ORDER:
        assert event.device is not None
        table.device_out_of_order(event.device)
    elif kind is EventKind.DEVICE_RESTORED:
        assert event.device is not None
        table.device_restored(event.device)
    else:
        table.change_method(shuffle=event.shuffle, deal=event.deal)


def cut_stack(
    rnd_game: Game, stack: Sequence[Card] | None, events: Sequence[ScenarioEvent]
) -> tuple[list[Card], list[dict[str, Any]]]:
    """The stack after the scenario's ``cut`` and any ``recut`` (§ 641a.5(d)-(e)): ``cards``
    is then the stack as shuffled, before the cut.  Returns the order the shoe deals and the
    table's records of the cuts.  Refused where the chapter has no cut (an automated shuffle is
    dealt uncut, § 641a.5(c)(1); baccarat's cut is not in the texts at hand)."""
    cuts = [e for e in events if e.kind in (EventKind.CUT, EventKind.RECUT)]
    if not cuts:
        return list(stack or []), []
    if stack is None:
        raise InvalidInput(
            "scenario event 'cut' needs 'cards', the stack as shuffled before the cut, not hands"
        )
    from croupier.rules.submission import ShuffleMethod
    from croupier.table.shoe import cut
    from croupier.table.table import regs_of

    regs = regs_of(rnd_game)
    if regs is None:
        raise InvalidInput(f"scenario event 'cut': no cut procedure of {rnd_game.slug} is at hand")
    if rnd_game.rules.table.shuffle is not ShuffleMethod.MANUAL:
        raise IllegalAction(
            "scenario event 'cut' refused: cards shuffled by an automated device are dealt "
            "without a cut (a scenario's deck is shuffled as its Rules Submission says)",
            section=regs.no_cut,
        )
    if cuts[0].kind is not EventKind.CUT or any(e.kind is EventKind.CUT for e in cuts[1:]):
        raise InvalidInput("scenario: one 'cut' comes first; a 'recut' only follows it")
    order, records = list(stack), []
    for event in cuts:
        assert event.cut_at is not None
        order = list(cut(order, event.cut_at))
        section = regs.cut if event.kind is EventKind.CUT else regs.recut
        record = {"kind": event.kind.value, "cut_at": event.cut_at, "section": section}
        records.append(record | ({"by": event.by} if event.by else {}))
    return order, records


def play_out(
    rnd: Round,
    decisions: Mapping[int, Sequence[str]],
    events: Sequence[ScenarioEvent],
) -> None:
    """Play ``rnd`` (after "no more bets") to its end, one step at a time: each seat's
    ``decisions`` in the order asked, the dealer's regular steps, and ``events`` where they
    happen.  Refuses a decision never asked for, a seat asked with none left, and an event the
    round never allowed."""
    queues = {s: list(q) for s, q in decisions.items()}
    listed = in_round(events)
    pending = [e for e in listed if e.kind is not EventKind.STUB_COUNT]
    counts = [e for e in listed if e.kind is EventKind.STUB_COUNT]
    # an event waits for the stub counts listed before it (the order events happened in)
    waits = {
        id(e): sum(x.kind is EventKind.STUB_COUNT for x in listed[:i]) for i, e in enumerate(listed)
    }
    decided = counted = 0
    refused: dict[int, str] = {}

    def fire() -> None:
        while pending and not rnd.is_over:
            event = pending[0]
            out = len(cards_out(rnd.records))
            if out < event.after_cards or decided < event.after_decisions:
                return
            if len(rnd.records) < event.after_records or counted < waits[id(event)]:
                return
            action = _action(event)
            try:
                rnd.verify(action)
            except CroupierError as exc:
                refused[id(event)] = str(exc)
                return
            rnd.apply(action)
            pending.pop(0)

    steps = 0
    while True:
        fire()
        if rnd.is_over:
            break
        steps += 1
        if steps > 10_000:  # pragma: no cover - every step deals, decides or settles
            raise IllegalAction(f"the round does not end (phase {rnd.phase.value})")
        actor = rnd.to_act()
        if rnd.phase is Phase.STUB_COUNT and counts:
            count = counts.pop(0).count
            assert count is not None
            rnd.apply(CountStub(count=count))
            counted += 1
        elif actor.kind is ActorKind.SEAT and actor.seat is not None:
            queue = queues.get(actor.seat, [])
            if not queue:
                raise InvalidInput(
                    f"seat {actor.seat} must decide now (phase {rnd.phase.value}) but the "
                    "scenario gives it no decision left"
                )
            rnd.apply(rnd.parse_decision(actor.seat, queue.pop(0)))
            decided += 1
        else:
            rnd.apply(rnd.dealer_step())
    if pending or counts:
        missed = pending[0] if pending else counts[0]
        why = refused.get(id(missed), f"the round ended first (phase {rnd.phase.value})")
        raise InvalidInput(f"scenario event {missed.kind.value!r} never happened: {why}")
    leftover = {s: q for s, q in queues.items() if q}
    if leftover and rnd.phase is not Phase.VOID:
        raise InvalidInput(f"decisions never asked for: {leftover}")


def after_round(rnd: Round, events: Sequence[ScenarioEvent]) -> list[dict[str, Any]]:
    """The table's records after the round: deferred vigorish collected before the reshuffle
    (every marker) or when a player leaves (that seat's), § 541.13(g) / § 543.13(g)."""
    collect = [e for e in events if e.kind is EventKind.COLLECT_VIG]
    if not collect:
        return []
    from croupier.games.baccarat import CollectReason, VigLedger

    if not rnd.game.takes_vig:
        raise InvalidInput(
            f"scenario event 'collect_vig': {rnd.game.slug} collects no vigorish (a baccarat "
            "table with deferred vigorish does)"
        )
    ledger = VigLedger.of(rnd.game)
    ledger.record(rnd)
    out: list[Record] = []
    for event in collect:
        if event.reason == "reshuffle":
            out += ledger.collect_all(reason=CollectReason.RESHUFFLE)
        else:
            assert event.seat is not None
            out.append(ledger.collect(event.seat, reason=CollectReason.PLAYER_LEAVES))
    return [record_to_json(r) for r in out]

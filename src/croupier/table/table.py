"""Rounds in sequence at one table: seats, the shuffle and cut, deck life, stub counts.

A :class:`Table` holds a :class:`~croupier.games.base.Game`, an injected
:class:`~croupier.table.shoe.Shuffler` and :class:`Clock`, the progressive meters, the seated
players
and the deck(s) in service.  :meth:`Table.new_round` prepares the cards and returns the next
:class:`~croupier.games.base.Round` for the caller to play; :meth:`Table.play_round` plays one
with a strategy.  Everything the table does between rounds is a :class:`TableEvent`; each round
is kept in :attr:`Table.history` with the events that prepared it.

Between rounds (Four Card Poker's sections):

- opening, and each new deck: received, inspected unless preshuffled, shuffled (§ 641a.4);
- after each round: reshuffle (§ 641a.5(a)); two decks: the used one is shuffled into the
  shuffler and the other comes out, each deck every other round (§ 641a.3(b));
- a stub count that voids the round removes the deck; a new one comes (§ 641a.8(h));
- deck life: each deck changed at least every 4 hours dealt by hand, every 8 from a manual or
  automated shoe (§ 641a.3(c));
- the cut: after a manual shuffle or for a preshuffled deck, the cover card at least ten cards
  in (§ 641a.5(c)(2), (d)); an automated shuffle is dealt uncut (§ 641a.5(c)(1));
- the stub count: without a counting shuffler (§ 641a.5(b)), at least every 5 rounds
  (§ 641a.8(f), § 641a.9(d), § 641a.10(d)): the round gets ``StubCheck.REQUIRED``;
- seats 1-7: a player who has wagered stays seated (§ 641a.7(b)); adjacent boxes per the Rules
  Submission (§ 641a.7(e));
- two decks: the used deck leaves the discard rack for the shuffler before the other is dealt,
  one deck in the rack at a time (§ 641a.3(b)(4)); a dealing shoe that reshuffles the cards
  itself replaces the shuffle and cut (§ 641a.5(g)).

The procedures a person orders or a device reports (a floorperson's reshuffle or recut, the
counting shuffler's count, idle cards re-inspected, a device out of order and another method:
§ 641a.5(a), (b), (e), (f), § 641a.13(g)) are the table's own methods too; the clock and the
event types are in :mod:`croupier.table.events`.

The limits and sections are the game chapter's (:class:`TableRegs`): each game package
declares its own (``games/<game>/regs.py``) as its game class's attribute ``table_regs``.
Every call validates first: a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from croupier.core.cards import DECK, Card
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation, shown_value
from croupier.core.modes import (
    PlayMode,
    parse_stack,
    stacked_order,
    verify_mode,
    verify_shuffler,
    verify_stackable,
)
from croupier.games.base import SEATS, Game, Round, StubCheck
from croupier.games.play import play_out
from croupier.games.records import (
    AbandonWagers,
    Action,
    NoMoreBets,
    PlaceWager,
    RoundVoided,
    StubCounted,
)
from croupier.games.table_regs import TableRegs, deck_problems
from croupier.rules.progressive import MemoryMeters, MeterBank
from croupier.rules.submission import DealMethod, ShuffleMethod, TableRules
from croupier.table.events import (
    Clock,
    DeckSupply,
    Device,
    ManualClock,
    PlayedRound,
    Spread,
    StoredDeck,
    StoredTable,
    SystemClock,
    TableEvent,
    TableEventKind,
    TableMemento,
    shoe_order,
)
from croupier.table.shoe import (
    CUT_MIN_DEPTH,
    DECK_SIZE,
    BackColour,
    Deck,
    Shoe,
    Shuffler,
    TwoDeckRotation,
    cut,
)

__all__ = [
    "Clock",
    "DeckSupply",
    "Device",
    "ManualClock",
    "PlayedRound",
    "Spread",
    "StoredDeck",
    "StoredTable",
    "Strategy",
    "SystemClock",
    "Table",
    "TableEvent",
    "TableEventKind",
    "TableMemento",
    "TableRegs",
    "devices",
    "regs_of",
    "shoe_order",
]

Strategy = Callable[[Round, int], Action]
"""A player's decisions: ``strategy(round, seat)`` returns the action for ``seat`` now."""


# --------------------------------------------------------------------------------------------
# The chapter's table rules


def regs_of(game: Game) -> TableRegs | None:
    """The table rules of ``game``'s chapter (its class's ``table_regs``), or ``None``."""
    return game.table_regs


def _regs_for(game: Game, regs: TableRegs | None) -> TableRegs:
    if regs is not None:
        if not isinstance(regs, TableRegs):
            raise InvalidInput(f"table regs {shown_value(regs)} is not a TableRegs")
        return regs
    found = regs_of(game)
    if found is None:
        raise InvalidInput(
            "no table rules (deck life, stub counts, sections) "
            f"are known for {shown_value(game.slug)}; "
            "pass regs= or declare table_regs on the game"
        )
    return found


# --------------------------------------------------------------------------------------------
# The decks in service


@dataclass(slots=True)
class _DeckLife:
    """Internal: one deck in service."""

    serial: int
    since: datetime
    last_counted: int
    fresh: bool = True
    """Not yet dealt since it came to the table."""


def devices(rules: TableRules) -> frozenset[Device]:
    """The automated devices a table's method uses."""
    if not isinstance(rules, TableRules):
        raise InvalidInput(f"table rules {shown_value(rules)} are not a TableRules")
    used: set[Device] = set()
    if rules.shuffle in (ShuffleMethod.AUTOMATED, ShuffleMethod.COUNTING):
        used.add(Device.SHUFFLER)
    if rules.shuffle is ShuffleMethod.RESHUFFLING_SHOE or rules.deal is DealMethod.AUTOMATED_SHOE:
        used.add(Device.DEALING_SHOE)
    return frozenset(used)


def _verify_person(by: object, what: str, section: str) -> str:
    if not isinstance(by, str) or not by.strip():
        raise InvalidInput(
            f"{what}: by={shown_value(by)} must name the floorperson (or above) who directs it",
            section=section,
        )
    return by


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Table:
    """Rounds in sequence at one table (see the module docstring).

    ``shuffler`` makes every shuffle and drawn cut; ``clock`` times deck life and events;
    ``meters`` are shared by every round here (fresh in-memory meters by default).
    ``stub_every`` is the stub-count policy without a counting shuffler: no deck goes more than
    that many rounds between counts (1: every round; at most the chapter's limit, 5).
    ``backs`` are the back colours of the deck(s) in service; ``supply`` says how decks arrive.
    ``mode`` is :attr:`PlayMode.REAL` unless told otherwise: a real table refuses any shuffler
    but :class:`~croupier.table.shoe.SecureShuffler`; simulation and training tables say so in every
    round (``Round.mode`` and the round header, :meth:`PlayedRound.to_json`).
    """

    def __init__(
        self,
        game: Game,
        *,
        shuffler: Shuffler,
        clock: Clock | None = None,
        meters: MeterBank | None = None,
        stub_every: int | None = None,
        supply: DeckSupply = DeckSupply.INSPECTED,
        backs: Sequence[BackColour] = (BackColour.RED, BackColour.BLUE),
        design: str = "standard",
        regs: TableRegs | None = None,
        mode: PlayMode = PlayMode.REAL,
    ) -> None:
        if not isinstance(game, Game):
            raise InvalidInput(f"game {shown_value(game)} is not a Game")
        self.regs = _regs_for(game, regs)
        self.rules = game.rules.table
        every = self.regs.stub_rounds if stub_every is None else stub_every
        self._verify_config(every, supply, backs)
        # Real play (the default) shuffles only with the OS CSPRNG (:mod:`croupier.core.modes`).
        self._mode = verify_mode(mode)
        verify_shuffler(self._mode, shuffler)
        self.game = game
        self._submitted = game
        """The game as the Rules Submission has it (:meth:`change_method` may return to it)."""
        self.shuffler = shuffler
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.meters: MeterBank = meters if meters is not None else MemoryMeters()
        self.stub_every = every
        self.supply = supply
        self.design = design
        self._backs = tuple(backs[: self.rules.decks])
        self._seats: dict[int, str] = {}
        self._events: list[TableEvent] = []
        self._history: list[PlayedRound] = []
        self._rounds_before = 0
        """Rounds begun before a restart (the store restores a table from its events)."""
        self._life: dict[BackColour, _DeckLife] = {}
        self._serials = 0
        self._last_time: datetime | None = None
        now = self._now()
        self._last_time = now
        how = f"{self.rules.deal.value}, {self.rules.shuffle.value} shuffle"
        events = [self._ev(TableEventKind.OPENED, now, 1, self.regs.opening, how)]
        decks = [self._receive(back, now, 1, events, last_counted=0) for back in self._backs]
        self._single: Deck | None = None
        self._rotation: TwoDeckRotation | None = None
        if len(decks) == 1:
            self._single = decks[0]
        else:
            self._rotation = TwoDeckRotation(
                in_play=decks[0], in_shuffler=decks[1], automated_shuffler=True
            )
        self._events += events
        self._mark = 0
        self._after_done = 0
        """The last round whose cards have been gathered and reshuffled (or removed)."""
        self._shoe: Shoe | None = None
        """The shoe of the round in progress (a recut cuts it again, § 641a.5(e))."""
        self._out_of_order: set[Device] = set()
        self._stacked: tuple[Card, ...] = ()
        """Training: the cards the next round deals first (:meth:`stack_next`)."""

    def _verify_config(self, every: object, supply: object, backs: object) -> None:
        rules, regs = self.rules, self.regs
        # The one deck check (:func:`~croupier.games.table_regs.deck_problems`), at the
        # table's own level: whatever the game's check let through.
        problems = deck_problems(rules, regs.table_decks)
        if problems:
            raise RulesViolation(problems[0][0], section=problems[0][1])
        if rules.shuffle is ShuffleMethod.RESHUFFLING_SHOE and not regs.reshuffling_shoe:
            why = "a dealing shoe that reshuffles the cards itself: the chapter has no such device"
            raise RulesViolation(why, section=regs.shuffle)
        if not _is_int(every):
            raise InvalidInput(f"stub_every {shown_value(every)} is not a whole number of rounds")
        assert isinstance(every, int)
        if not 1 <= every <= regs.stub_rounds:
            raise RulesViolation(
                f"stub count every {every} rounds: the stub is counted at least once every "
                f"{regs.stub_rounds} rounds",
                section=regs.stub_count[rules.deal],
            )
        if not isinstance(supply, DeckSupply):
            raise InvalidInput(f"supply {shown_value(supply)} is not a DeckSupply")
        if not isinstance(backs, Sequence) or not all(isinstance(b, BackColour) for b in backs):
            raise InvalidInput(f"backs {shown_value(backs)} is not a sequence of BackColour")
        if len(backs) < rules.decks:
            raise InvalidInput(
                f"backs {shown_value(backs)} does not name {rules.decks} back colours"
            )
        if len(set(backs[: rules.decks])) < rules.decks:
            raise InvalidInput(
                f"two decks with backs {shown_value(backs)}: "
                "the backs of one deck must be of a different "
                "colour than the other",
                section=f"{regs.two_decks}(1)",
            )

    # -- state ---------------------------------------------------------------------------

    @property
    def mode(self) -> PlayMode:
        """Real play, simulation or training (:mod:`croupier.core.modes`)."""
        return self._mode

    @property
    def seats(self) -> dict[int, str]:
        """Seat -> player, for the seats taken."""
        return dict(self._seats)

    @property
    def events(self) -> tuple[TableEvent, ...]:
        """Every table event, in order (since the last :meth:`forget_played`)."""
        return tuple(self._events)

    @property
    def history(self) -> tuple[PlayedRound, ...]:
        """Every round begun here, in order (since the last :meth:`forget_played`)."""
        return tuple(self._history)

    @property
    def current(self) -> Round | None:
        """The round in progress, or ``None`` when the last one is over."""
        if self._history and not self._history[-1].round.is_over:
            return self._history[-1].round
        return None

    def memento(self) -> TableMemento:
        """The table's bookkeeping as it stands (seats, decks in service and their lives, the
        log, the rounds begun): :meth:`restore` puts it back when what changed it is undone
        (the live server's write that did not commit, :mod:`croupier.server.commit`)."""
        state = dict(vars(self))
        state.update(_seats=dict(self._seats), _out_of_order=set(self._out_of_order))
        state["_life"] = {back: replace(life) for back, life in self._life.items()}
        return TableMemento(state, tuple(self._events), tuple(self._history))

    def restore(self, memento: TableMemento) -> None:
        """Back to :meth:`memento`'s state: what happened since (a round begun, its shuffle,
        cut or deck change, a seat taken or left, rounds forgotten) is forgotten."""
        vars(self).update(memento.state)
        self._seats = dict(memento.state["_seats"])
        self._out_of_order = set(memento.state["_out_of_order"])
        self._life = {back: replace(life) for back, life in memento.state["_life"].items()}
        self._events, self._history = list(memento.events), list(memento.history)

    def verify_reopen(self, stored: StoredTable) -> datetime:
        """Refuse ``stored`` where it cannot be this table's past: no opening first, a deck in
        service never received, or the clock before the last stored event; returns the time
        now."""
        if not isinstance(stored, StoredTable):
            raise InvalidInput(f"stored {shown_value(stored)} is not a StoredTable")
        events = stored.events
        if not events or events[0].kind is not TableEventKind.OPENED:
            raise IllegalAction("the stored events have no opening to restore from")
        received = {e.back for e in events if e.kind is TableEventKind.RECEIVED}
        for back in self._life:
            if back not in received:
                raise IllegalAction(f"the stored events never received the {back.value} deck")
        at = self.clock.now()
        try:
            behind = at < events[-1].at
        except TypeError:
            raise InvalidInput(f"the clock reads {at!r}; the stored events are in UTC") from None
        if behind:
            raise IllegalAction(
                f"the clock reads {at}, before the last stored event ({events[-1].at})"
            )
        return at

    def reopen(self, stored: StoredTable) -> None:
        """Take up the stored past of this table (made fresh by its constructor) after a
        restart: its seats, its decks' serial numbers, lives and stub counts, the rounds begun
        (the next one is numbered after them) and its log.  The decks in service are shuffled
        afresh (an order held only in memory before the restart is never reused), recorded as
        a shuffle of each deck; a deck the last round's stub count condemned is replaced
        (§ 641a.8(h))."""
        at = self.verify_reopen(stored)
        events = stored.events
        seats: dict[int, str] = {}
        serial_of: dict[BackColour, int] = {}
        since: dict[BackColour, datetime] = {}
        for event in events:
            if event.kind is TableEventKind.SEATED and event.seat is not None and event.player:
                seats[event.seat] = event.player
            elif event.kind is TableEventKind.LEFT and event.seat is not None:
                seats.pop(event.seat, None)
            elif event.kind is TableEventKind.RECEIVED and event.back is not None:
                serial_of[event.back] = event.deck or 0
                since[event.back] = event.at
        life = self._life
        for back, state in life.items():
            state.serial, state.since = serial_of[back], since[back]
            state.last_counted = stored.counted.get(back, 0)
            state.fresh = state.serial not in stored.dealt
        self._serials = max([*serial_of.values(), self._serials])
        self._seats = seats
        self._rounds_before = self._after_done = stored.rounds_before
        self._last_time = at
        restored = list(events)
        number = self._rounds_before + 1
        last_back = stored.last_back
        rot = self._rotation
        if rot is not None and last_back is not None and rot.in_play.back is last_back:
            # the deck last dealt goes into the shuffler
            self._rotation = type(rot)(
                in_play=rot.in_shuffler, in_shuffler=rot.in_play, automated_shuffler=True
            )
        if stored.last_deck_removed and last_back is not None:
            # The last round's stub count condemned its deck: a new one comes (§ 641a.8(h)).
            section = self.regs.deck_removed[self.rules.deal]
            why = f"the stub count of round {self._rounds_before} found cards missing or extra"
            restored.append(
                self._ev(TableEventKind.DECK_REMOVED, at, number, section, why, back=last_back)
            )
            kept = life[last_back].last_counted
            self._set_deck(self._receive(last_back, at, number, restored, last_counted=kept))
        why = "restored after a restart: the deck is shuffled afresh"
        for back in self._backs:
            restored.append(
                self._ev(TableEventKind.SHUFFLED, at, number, self.regs.shuffle, why, back=back)
            )
        self._events = restored
        self._mark = len(events)

    def forget_played(self) -> int:
        """Let go of every round before the last one begun, and of the table events already
        handed to a round (:attr:`PlayedRound.events`); returns the rounds let go.  A live
        table calls it before each round: its store holds the rest, and a table playing for
        days must not hold every round in memory.  :attr:`rounds_played` and the round
        numbers go on from where they were; :attr:`history` and :attr:`events` start after
        what was forgotten."""
        drop = len(self._history) - 1
        if drop > 0:
            self._history = self._history[drop:]
            self._rounds_before += drop
        if self._mark:
            self._events, self._mark = self._events[self._mark :], 0
        return max(drop, 0)

    def resume(self, rnd: Round) -> None:
        """The round in progress as its committed records rebuilt it (the live server replays
        it from its persisted shoe when a later step was undone) takes its place."""
        current = self.current
        if current is None or tuple(current.records[: len(rnd.records)]) != tuple(rnd.records):
            raise IllegalAction("the rebuilt round is not the records of the round in progress")
        self._history[-1] = replace(self._history[-1], round=rnd)
        self._shoe = rnd._deal.shoe

    @property
    def rounds_played(self) -> int:
        """Rounds begun here, the one in progress included (and those before a restart,
        :meth:`croupier.store.TableEventStore.restore`)."""
        return self._rounds_before + len(self._history)

    def _next_back(self) -> BackColour:
        if self._rotation is None:
            return self._backs[0]
        if not self._history or self._after_done == self._history[-1].number:
            return self._rotation.in_play.back
        return self._rotation.in_shuffler.back

    @property
    def discard_rack(self) -> BackColour | None:
        """The back of the deck whose cards are in the discard rack, or ``None`` when it is
        empty: with two decks, the cards of only one deck are there at any time (§ 641a.3(b)(4)):
        the deck of the round in progress, or of the last round until its cards are gathered."""
        if not self._history or self._after_done == self._history[-1].number:
            return None
        return self._history[-1].back

    @property
    def out_of_order(self) -> frozenset[Device]:
        """The devices covered or signed out of order (§ 641a.13(g))."""
        return frozenset(self._out_of_order)

    def _now(self) -> datetime:
        now = self.clock.now()
        if not isinstance(now, datetime):
            raise InvalidInput(f"the clock read {shown_value(now)}, which is not a datetime")
        last = self._last_time
        if last is not None and ((now.tzinfo is None) != (last.tzinfo is None) or now < last):
            raise InvalidInput(
                f"the clock read {now.isoformat()}, which is not at or after the last table "
                f"event at {last.isoformat() if last else None} (naive and aware times differ)"
            )
        return now

    def _next_round_number(self) -> int:
        return self.rounds_played + 1

    def _event_round(self) -> int:
        """The round in progress, or the next one to begin."""
        return self.rounds_played if self.current is not None else self._next_round_number()

    # -- seats -----------------------------------------------------------------------------

    def _verify_seat(self, seat: object) -> int:
        if not _is_int(seat) or seat not in SEATS:
            raise InvalidInput(f"seat {shown_value(seat)} is not one of the betting positions 1-7")
        assert isinstance(seat, int)
        return seat

    def _verify_boxes(self, player: str, seats: list[int], what: str) -> None:
        boxes = self.rules.adjacent_boxes
        seats = sorted(seats)
        if len(seats) > boxes:
            raise IllegalAction(
                f"{what}: player {shown_value(player)} would "
                f"hold boxes {seats}; the Rules Submission "
                f"allows {boxes} adjacent box(es)",
                section=self.regs.adjacent_boxes,
            )
        if seats and seats != list(range(seats[0], seats[0] + len(seats))):
            raise IllegalAction(
                f"{what}: player {shown_value(player)} would "
                f"hold boxes {seats}, which are not adjacent",
                section=self.regs.adjacent_boxes,
            )

    def sit(self, seat: int, player: str) -> TableEvent:
        """Seat ``player`` at ``seat`` (from the next round when a round is in progress)."""
        seat = self._verify_seat(seat)
        if not isinstance(player, str) or not player.strip():
            raise InvalidInput(f"player {shown_value(player)} is not a name")
        taken = self._seats.get(seat)
        if taken is not None:
            raise IllegalAction(f"seat {seat} is taken by player {shown_value(taken)}")
        own = [s for s, p in self._seats.items() if p == player]
        self._verify_boxes(player, [*own, seat], f"seat {seat}")
        now = self._now()
        self._seats[seat] = player
        event = self._ev(TableEventKind.SEATED, now, self._event_round(), self.regs.seated)
        return self._log(replace(event, seat=seat, player=player))

    def leave(self, seat: int) -> TableEvent:
        """The player at ``seat`` leaves; refused while that seat has a wager in the round in
        progress (§ 641a.7(b): :meth:`player_left` abandons them) or when it would split the
        player's adjacent boxes."""
        seat = self._verify_seat(seat)
        player = self._seats.get(seat)
        if player is None:
            raise IllegalAction(f"seat {seat} is empty; nobody can leave it")
        current = self.current
        if current is not None and seat in current.active_seats:
            raise IllegalAction(
                f"player {shown_value(player)} at seat {seat} has wagered in round "
                f"{self.rounds_played} (phase {current.phase.value}) and stays seated until "
                "the round is complete",
                section=self.regs.seated,
            )
        rest = [s for s, p in self._seats.items() if p == player and s != seat]
        self._verify_boxes(player, rest, f"leaving seat {seat}")
        now = self._now()
        del self._seats[seat]
        if current is not None:
            current.unseat(seat)
        event = self._ev(TableEventKind.LEFT, now, self._event_round(), self.regs.seated)
        return self._log(replace(event, seat=seat, player=player))

    def _ev(
        self,
        kind: TableEventKind,
        at: datetime,
        number: int,
        section: str,
        detail: str = "",
        *,
        back: BackColour | None = None,
    ) -> TableEvent:
        """An event; a ``back`` brings the serial number of its deck."""
        deck = self._life[back].serial if back is not None else None
        return TableEvent(
            kind=kind, at=at, round=number, section=section, back=back, deck=deck, detail=detail
        )

    def _log(self, event: TableEvent) -> TableEvent:
        self._events.append(event)
        self._last_time = event.at
        return event

    # -- decks -----------------------------------------------------------------------------

    def _deck(self, back: BackColour) -> Deck:
        if self._rotation is None:
            assert self._single is not None
            return self._single
        rot = self._rotation
        return rot.in_play if rot.in_play.back is back else rot.in_shuffler

    def _set_deck(self, deck: Deck) -> None:
        if self._rotation is None:
            self._single = deck
            return
        rot = self._rotation
        in_play, in_shuffler = rot.in_play, rot.in_shuffler
        if in_play.back is deck.back:
            in_play = deck
        else:
            in_shuffler = deck
        self._rotation = TwoDeckRotation(
            in_play=in_play, in_shuffler=in_shuffler, automated_shuffler=True, rounds=rot.rounds
        )

    def _receive(
        self,
        back: BackColour,
        now: datetime,
        number: int,
        events: list[TableEvent],
        *,
        last_counted: int,
    ) -> Deck:
        """A new deck comes to the table: inspected (unless preshuffled) and shuffled."""
        self._serials += 1
        self._life[back] = _DeckLife(serial=self._serials, since=now, last_counted=last_counted)
        deck = Deck(back, self.design).shuffled(self.shuffler)
        regs, kind = self.regs, TableEventKind
        if self.supply is DeckSupply.PRESHUFFLED:
            why = "preinspected and preshuffled: cut before its first round"
            events.append(self._ev(kind.RECEIVED, now, number, regs.preshuffled, why, back=back))
            return deck
        inspection = regs.inspection if len(self._backs) == 1 else regs.two_deck_inspection
        shuffle = f"{self.rules.shuffle.value} shuffle of the new deck"
        events += [
            self._ev(kind.RECEIVED, now, number, regs.opening, back=back),
            self._ev(kind.INSPECTED, now, number, inspection, "spread, washed", back=back),
            self._ev(kind.SHUFFLED, now, number, regs.shuffle, shuffle, back=back),
        ]
        return deck

    def _change_due(self, back: BackColour, now: datetime) -> bool:
        limit, _ = self.regs.deck_life[self.rules.deal]
        return now - self._life[back].since >= limit

    def _removed_after_last(self) -> bool:
        if not self._history:
            return False
        return any(
            isinstance(r, RoundVoided) and r.deck_removed for r in self._history[-1].round.records
        )

    def _cut_required(self, back: BackColour, now: datetime) -> bool:
        """§ 641a.5(c): a manual shuffle, or a preshuffled deck about to be dealt first."""
        if self.rules.shuffle is ShuffleMethod.MANUAL:
            return True
        if self.rules.shuffle is ShuffleMethod.RESHUFFLING_SHOE:
            return False  # § 641a.5(g): the device's own procedure, in lieu of the cut
        if self.supply is not DeckSupply.PRESHUFFLED:
            return False
        replaced = self._rotation is None and self._removed_after_last()
        return self._life[back].fresh or replaced or self._change_due(back, now)

    def _verify_cut(self, cut_at: object, required: bool) -> None:
        if cut_at is None:
            return
        if not required:
            raise IllegalAction(
                f"cut at {shown_value(cut_at)} refused: cards "
                "shuffled by an automated card shuffling "
                "device are dealt without a cut",
                section=self.regs.no_cut,
            )
        if not _is_int(cut_at):
            raise InvalidInput(f"cut position {shown_value(cut_at)} is not a whole number of cards")
        assert isinstance(cut_at, int)
        cut(DECK, cut_at)  # refuses a cover card under ten cards or outside the deck

    def _after_round(self, now: datetime, number: int, events: list[TableEvent]) -> None:
        """Between rounds: note the stub count, remove a deck the count condemned, and
        reshuffle (two decks: rotate)."""
        if not self._history or self._after_done == self._history[-1].number:
            return
        last = self._history[-1]
        self._after_done = last.number
        life = self._life[last.back]
        if any(isinstance(r, StubCounted) for r in last.round.records):
            life.last_counted = last.number
        if self._removed_after_last():
            section = self.regs.deck_removed[self.rules.deal]
            why = f"the stub count of round {last.number} found cards missing or extra"
            events.append(
                self._ev(TableEventKind.DECK_REMOVED, now, number, section, why, back=last.back)
            )
            new = self._receive(last.back, now, number, events, last_counted=life.last_counted)
            if self._rotation is None:
                self._single = new
            else:
                rot = self._rotation
                self._rotation = TwoDeckRotation(
                    in_play=rot.in_shuffler,
                    in_shuffler=new,
                    automated_shuffler=True,
                    rounds=rot.rounds + 1,
                )
            return
        if self._rotation is None:
            assert self._single is not None
            self._single = self._single.shuffled(self.shuffler)
            section = self.regs.shuffle
            detail = f"{self.rules.shuffle.value} shuffle after round {last.number}"
            if self.rules.shuffle is ShuffleMethod.RESHUFFLING_SHOE:
                section = self.regs.reshuffling_shoe
                detail = f"the dealing shoe reshuffles the cards itself after round {last.number}"
        else:
            other = self._rotation.in_shuffler.back.value
            why = (
                f"the {last.back.value} deck leaves the discard rack for the shuffler before the "
                f"{other} deck is dealt: one deck in the rack at a time"
            )
            section = self.regs.one_deck_in_rack
            events.append(
                self._ev(TableEventKind.RACK_CLEARED, now, number, section, why, back=last.back)
            )
            self._rotation = self._rotation.rotate(self.shuffler)
            section = self.regs.two_deck_rotation
            detail = (
                f"after round {last.number} the {last.back.value} deck is shuffled and stored in "
                f"the shuffler; the {self._rotation.in_play.back.value} deck comes into play"
            )
        events.append(
            self._ev(TableEventKind.SHUFFLED, now, number, section, detail, back=last.back)
        )

    def _change_decks(self, now: datetime, number: int, events: list[TableEvent]) -> None:
        """§ 641a.3(c): replace each deck that has been in service for its limit."""
        limit, section = self.regs.deck_life[self.rules.deal]
        for back in self._backs:
            life = self._life[back]
            if not self._change_due(back, now):
                continue
            why = (
                f"in service since {life.since.isoformat()}, limit {limit / timedelta(hours=1):g} h"
            )
            events.append(
                self._ev(TableEventKind.DECK_CHANGED, now, number, section, why, back=back)
            )
            self._set_deck(self._receive(back, now, number, events, last_counted=life.last_counted))

    def _stub_check(self, back: BackColour, number: int) -> StubCheck:
        """§ 641a.8(f): count the stub when the deck in play would otherwise go past
        ``stub_every`` rounds without a count before its next use."""
        if self.rules.shuffle is ShuffleMethod.COUNTING:
            return StubCheck.NOT_REQUIRED
        since = number - self._life[back].last_counted
        due = since > self.stub_every - len(self._backs)
        return StubCheck.REQUIRED if due else StubCheck.NOT_REQUIRED

    # -- rounds ----------------------------------------------------------------------------

    def _verify_can_begin(self) -> None:
        current = self.current
        if current is not None:
            phase = current.phase.value
            raise IllegalAction(f"round {self.rounds_played} is unfinished (phase {phase})")
        if not self._seats:
            raise IllegalAction("no player is seated to wager", section=self.regs.seated)

    def new_round(self, *, cut_at: int | None = None) -> Round:
        """Prepare the cards and begin the next round; returns it for the caller to play.

        Between rounds the table reshuffles (two decks: rotates), replaces a removed deck or
        one past its life, cuts where required (the cover card ``cut_at`` cards in, or a
        position drawn from the shuffler) and decides whether the stub is counted this round.
        """
        self._verify_can_begin()
        self.verify_devices()
        now = self._now()
        back = self._next_back()
        cut_needed = self._cut_required(back, now)
        self._verify_cut(cut_at, cut_needed)
        # -- nothing is refused from here on
        number = self._next_round_number()
        fresh: list[TableEvent] = []
        self._after_round(now, number, fresh)
        self._change_decks(now, number, fresh)
        deck = self._deck(back)
        assert self._rotation is None or self._rotation.in_play.back is back
        life = self._life[back]
        position: int | None = None
        if cut_needed:
            position = cut_at
            if position is None:
                position = CUT_MIN_DEPTH + self.shuffler.randbelow(len(deck.cards) - CUT_MIN_DEPTH)
            deck = deck.cut(position)
            self._set_deck(deck)
            manual = self.rules.shuffle is ShuffleMethod.MANUAL
            why = f"{'shuffled manually' if manual else 'preshuffled'} ({self.regs.cut_required})"
            event = self._ev(TableEventKind.CUT, now, number, self.regs.cut, why, back=back)
            fresh.append(replace(event, position=position))
        if self._stacked:  # training: the stacked cards leave the deck first
            order = stacked_order(deck.cards, self._stacked, where="the next round's deck")
            deck, self._stacked = Deck(deck.back, deck.design, tuple(order)), ()
            self._set_deck(deck)
        life.fresh = False
        stub = self._stub_check(back, number)
        self._shoe = deck.shoe()
        played = self.game.new_round(
            shoe=self._shoe,
            meters=self.meters,
            players=dict(self._seats),
            stub_check=stub,
            mode=self._mode,
        )
        self._events += fresh
        events, self._mark = tuple(self._events[self._mark :]), len(self._events)
        self._last_time = now
        self._history.append(
            PlayedRound(
                number=number,
                round=played,
                back=back,
                deck=life.serial,
                _order=deck.cards,
                cut_at=position,
                stub_check=stub,
                started_at=now,
                events=events,
            )
        )
        return played

    def stack_next(self, cards: Sequence[Card] | str) -> None:
        """Training: the next round deals ``cards`` first (top first, in the order they leave
        the deck, burned cards included), the rest of its deck after them in the order the
        shuffle and cut left them.  A real table refuses
        (:func:`~croupier.core.modes.verify_stackable`), as does a stack the deck cannot hold
        (named):
        nothing changes."""
        verify_stackable(self._mode, "this table")
        stack = parse_stack(cards)
        stacked_order(DECK, stack, where="the next round's deck")  # refused now, not at the deal
        self._stacked = stack

    def report_shuffler_jam(self) -> TableEvent:
        """The automated shuffler jammed, stopped or failed to complete its shuffle between
        rounds: the cards in it are shuffled again (§ 641a.13(e) and its parallels)."""
        self._verify_can_begin()
        if self.rules.shuffle is ShuffleMethod.MANUAL:
            raise IllegalAction(
                "this table shuffles by hand: there is no shuffler to jam",
                section=self.regs.shuffler_jam or None,
            )
        now = self._now()
        number = self._next_round_number()
        back = self._next_back() if self._rotation is None else self._rotation.in_shuffler.back
        kind = TableEventKind
        jam = self._log(
            self._ev(kind.SHUFFLER_JAMMED, now, number, self.regs.shuffler_jam, back=back)
        )
        self._set_deck(self._deck(back).shuffled(self.shuffler))
        why = "the cards are shuffled again after the jam"
        self._log(self._ev(kind.SHUFFLED, now, number, self.regs.shuffler_jam, why, back=back))
        return jam

    # -- the procedures a person orders or a device reports, between rounds -----------------------
    # The procedures of § 641a.3(b)(4), § 641a.5(a), (b), (e)-(g) and § 641a.13(g), and their
    # counterparts in each chapter (the sections below are Four Card Poker's; every chapter gives
    # its own in its TableRegs: an empty field, the chapter has no such procedure in the texts at
    # hand, and the table refuses it).  Every one validates first: a refused call changes nothing.

    def _procedure_section(self, field: str, what: str) -> str:
        """The section of the procedure ``what`` at this table (refused where its chapter has none:
        the first check of every procedure)."""
        section: str = getattr(self.regs, field)
        if not section:
            raise IllegalAction(
                f"{what} refused: the {self.game.slug} chapter has no such procedure in the texts "
                "at hand"
            )
        return section

    def _verify_between_rounds(self, what: str, section: str) -> None:
        current = self.current
        if current is not None:
            raise IllegalAction(
                f"{what} refused: round {self.rounds_played} is in progress "
                f"(phase {current.phase.value})",
                section=section,
            )

    def _gather(self) -> int:
        """The last round's cards come back: reshuffled, rotated or removed as the next round would
        have it; returns the number of the next round."""
        number = self._next_round_number()
        events: list[TableEvent] = []
        self._after_round(self._now(), number, events)
        for event in events:
            self._log(event)
        return number

    def _log_now(
        self,
        kind: TableEventKind,
        section: str,
        detail: str,
        *,
        back: BackColour | None = None,
        by: str | None = None,
        position: int | None = None,
        seat: int | None = None,
        player: str | None = None,
    ) -> TableEvent:
        """Log an event now; a ``back`` brings the serial number of its deck."""
        event = self._ev(kind, self._now(), self._event_round(), section, detail, back=back)
        return self._log(replace(event, by=by, position=position, seat=seat, player=player))

    # -- # § 641a.5(a), (b): a reshuffle on a floorperson's order; the counting shuffler's count

    def order_reshuffle(self, *, by: str) -> TableEvent:
        """A floorperson or above directs the dealer to shuffle the cards (§ 641a.5(a)) between
        rounds: the deck to be dealt next is shuffled again (a manual shuffle is then cut)."""
        what = "a reshuffle"
        section = self._procedure_section("floor_reshuffle", what)
        _verify_person(by, what, section)
        self._verify_between_rounds(what, section)
        self._gather()
        back = self._next_back()
        order = self._log_now(TableEventKind.RESHUFFLE_ORDERED, section, "", back=back, by=by)
        self._set_deck(self._deck(back).shuffled(self.shuffler))
        how = f"{self.rules.shuffle.value} shuffle directed by {by}"
        self._log_now(TableEventKind.SHUFFLED, section, how, back=back)
        return order

    def report_shuffler_count(self, count: int) -> TableEvent:
        """The counting shuffler's count of the deck it has just shuffled (§ 641a.5(b)): not 52
        cards, and the deck is removed from the table; a new deck is received, inspected and
        shuffled in its place."""
        what = "a shuffler count"
        section = self._procedure_section("shuffler_count", what)
        if self.rules.shuffle is not ShuffleMethod.COUNTING:
            raise IllegalAction(
                f"{what} refused: this table's shuffle is {self.rules.shuffle.value}, not a "
                "shuffler that counts the cards",
                section=section,
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidInput(
                f"shuffler count {shown_value(count)} is not a whole number of cards"
            )
        self._verify_between_rounds(what, section)
        number = self._gather()
        back = self._next_back()
        detail = f"{count} cards counted after the shuffle, {DECK_SIZE} expected"
        counted = self._log_now(TableEventKind.SHUFFLER_COUNTED, section, detail, back=back)
        if count != DECK_SIZE:
            why = f"the shuffler counted {count} cards, not {DECK_SIZE}"
            self._log_now(TableEventKind.DECK_REMOVED, section, why, back=back)
            events: list[TableEvent] = []
            last_counted = self._life[back].last_counted
            new = self._receive(back, self._now(), number, events, last_counted=last_counted)
            for event in events:
                self._log(event)
            self._set_deck(new)
        return counted

    # -- # § 641a.5(e): the recut

    def recut(self, cut_at: int | None = None, *, by: str) -> TableEvent:
        """A floorperson or above has the cards of the round in progress cut again (§ 641a.5(e)):
        only after a cut and before any card is dealt.  The stack in the shoe is cut at ``cut_at``
        (the cover card at least ten cards in, § 641a.5(d); ``None``: a position drawn from the
        shuffler); the round's :class:`~croupier.self.PlayedRound` shows the new order."""
        what = "a recut"
        section = self._procedure_section("recut", what)
        _verify_person(by, what, section)
        current, shoe = self.current, self._shoe
        if current is None or shoe is None:
            raise IllegalAction(f"{what} refused: no round is in progress", section=section)
        played = self._history[-1]
        if played.cut_at is None:
            raise IllegalAction(
                f"{what} refused: the cards of round {played.number} were not cut "
                "(an automated shuffle is dealt uncut)",
                section=section,
            )
        if shoe.dealt or shoe.burned:
            raise IllegalAction(
                f"{what} refused: {len(shoe.dealt) + len(shoe.burned)} card(s) of round "
                f"{played.number} have been dealt",
                section=section,
            )
        if cut_at is None:
            cut_at = CUT_MIN_DEPTH + self.shuffler.randbelow(len(shoe) - CUT_MIN_DEPTH)
        order = cut(played._order, cut_at)  # refuses a cover card under ten cards in
        shoe.recut(cut_at)
        self._set_deck(self._deck(played.back).cut(cut_at))
        self._history[-1] = replace(played, _order=order, cut_at=cut_at)
        why = f"the cut of round {played.number} redone as directed by {by}"
        return self._log_now(
            TableEventKind.RECUT, section, why, back=played.back, by=by, position=cut_at
        )

    # -- # § 641a.5(f): cards left idle

    def reinspect_idle(
        self,
        spread: Spread = Spread.FACE_DOWN,
        stored: StoredDeck = StoredDeck.DEALT,
    ) -> TableEvent:
        """No gaming activity at the open table (§ 641a.5(f)): the cards come out of the dealing
        shoe and the discard rack and are spread (face down unless a player asks for face up) for
        the first player to arrive, then:

        - no automated shuffler ((f)(1)): washed, stacked and shuffled; cut before the next round;
        - an automated shuffler ((f)(2)): stacked into the shuffler and shuffled; with two decks the
          deck stored in the shuffler comes out and is dealt as it is (the shuffler stores one
          deck securely and approved procedures released it, § 641a.5(f)(2)(i)-(ii)), unless a
          player asks for it to be spread and reshuffled as well (``stored``).
        """
        what = "re-inspection of idle cards"
        section = self._procedure_section("idle", what)
        if not isinstance(spread, Spread):
            raise InvalidInput(f"spread {shown_value(spread)} is not a Spread")
        if not isinstance(stored, StoredDeck):
            raise InvalidInput(f"stored {shown_value(stored)} is not a StoredDeck")
        self._verify_between_rounds(what, section)
        self._gather()
        rotation = self._rotation
        if rotation is not None and not self._history:
            # Nothing dealt yet: the deck waiting to be dealt is the idle one; it goes into the
            # shuffler and the stored one comes out.
            self._rotation = replace(
                rotation, in_play=rotation.in_shuffler, in_shuffler=rotation.in_play
            )
        idle = self._next_back() if self._rotation is None else self._rotation.in_shuffler.back
        detail = (
            "no gaming activity: the cards taken from the dealing shoe and the discard rack are "
            f"spread {spread.value.replace('_', ' ')} for the first player to arrive"
        )
        event = self._log_now(TableEventKind.INSPECTED, section, detail, back=idle)
        manual = self.rules.shuffle is ShuffleMethod.MANUAL
        again = self._deck(idle).shuffled(self.shuffler)
        self._set_deck(again)
        if manual:
            how = "washed, stacked and shuffled by hand; cut before the next round"
            self._log_now(TableEventKind.SHUFFLED, self.regs.idle_manual, how, back=idle)
            return event
        how = "stacked into the automated shuffler and shuffled"
        self._log_now(TableEventKind.SHUFFLED, self.regs.idle_automated, how, back=idle)
        if self._rotation is not None and stored is StoredDeck.SPREAD_AND_RESHUFFLED:
            out = self._rotation.in_play.back
            asked = "a player asked for the deck taken from the shuffler to be spread"
            self._log_now(TableEventKind.INSPECTED, self.regs.idle_automated, asked, back=out)
            self._set_deck(self._deck(out).shuffled(self.shuffler))
            again_how = "reshuffled before it is dealt"
            self._log_now(TableEventKind.SHUFFLED, self.regs.idle_automated, again_how, back=out)
        return event

    # -- # § 641a.7(b): a player leaves mid-round

    def player_left(self, seat: int) -> TableEvent:
        """The player at ``seat`` left the table during the round after receiving cards: the
        wagers are abandoned and lose (§ 641a.7(b)); the round goes on for the others and the seat
        is free for the next round."""
        seat = self._verify_seat(seat)
        player = self._seats.get(seat)
        current = self.current
        if player is None or current is None:
            why = "the seat is empty" if player is None else "no round is in progress"
            raise IllegalAction(f"seat {seat}: {why}", section=self.regs.seated)
        current.apply(AbandonWagers(seat=seat))
        del self._seats[seat]
        why = "left mid-round: the wagers are abandoned and lose"
        return self._log_now(TableEventKind.LEFT, self.regs.seated, why, seat=seat, player=player)

    # -- # § 641a.13(g): a device out of order, and another method

    def _verify_device(self, device: object, what: str, section: str) -> Device:
        if not isinstance(device, Device):
            raise InvalidInput(f"device {shown_value(device)} is not a Device")
        used = devices(self.rules) | self._out_of_order
        if device not in used:
            raise IllegalAction(
                f"{what} refused: this table ({self.rules.shuffle.value} shuffle, "
                f"{self.rules.deal.value}) uses no {device.value.replace('_', ' ')}",
                section=section,
            )
        return device

    def device_out_of_order(self, device: Device) -> TableEvent:
        """A device that malfunctions and cannot be used is covered, or a sign saying it is out of
        order is placed on it (§ 641a.13(g)); no round begins while the table's method uses it."""
        what = "marking a device out of order"
        section = self._procedure_section("out_of_order", what)
        device = self._verify_device(device, what, section)
        self._verify_between_rounds(what, section)
        if device in self._out_of_order:
            raise IllegalAction(f"the {device.value} is already out of order", section=section)
        why = "covered, or signed out of order, before any other method is used"
        detail = f"{device.value}: {why}"
        event = self._log_now(TableEventKind.DEVICE_OUT_OF_ORDER, section, detail)
        self._out_of_order.add(device)
        return event

    def device_restored(self, device: Device) -> TableEvent:
        """The device is repaired and its cover or sign removed (§ 641a.13(g))."""
        what = "restoring a device"
        section = self._procedure_section("out_of_order", what)
        if not isinstance(device, Device):
            raise InvalidInput(f"device {shown_value(device)} is not a Device")
        self._verify_between_rounds(what, section)
        if device not in self._out_of_order:
            raise IllegalAction(f"the {device.value} is not out of order", section=section)
        detail = f"{device.value} in service"
        event = self._log_now(TableEventKind.DEVICE_RESTORED, section, detail)
        self._out_of_order.discard(device)
        return event

    def verify_devices(self) -> None:
        """Refuse a round whose method needs a device that is out of order (§ 641a.13(g))."""
        down = sorted(d.value for d in devices(self.rules) & self._out_of_order)
        if down:
            raise IllegalAction(
                f"the {' and '.join(down)} out of order: change the method of shuffling or dealing "
                "(change_method) or restore the device before the next round",
                section=self.regs.out_of_order or None,
            )

    def change_method(
        self, *, shuffle: ShuffleMethod | None = None, deal: DealMethod | None = None
    ) -> TableEvent:
        """Shuffle or deal another way (§ 641a.13(g)): allowed only once every device the current
        method uses and the new one does not is out of order, or to return to the Rules
        Submission's own method with its devices in service.  The new method is checked as the
        chapter checks a Rules Submission (e.g. dealing from the hand needs a shuffler)."""
        what = "another method of shuffling or dealing"
        section = self._procedure_section("out_of_order", what)
        if shuffle is not None and not isinstance(shuffle, ShuffleMethod):
            raise InvalidInput(f"shuffle {shown_value(shuffle)} is not a ShuffleMethod")
        if deal is not None and not isinstance(deal, DealMethod):
            raise InvalidInput(f"deal {shown_value(deal)} is not a DealMethod")
        self._verify_between_rounds(what, section)
        old = self.rules
        new = replace(old, shuffle=shuffle or old.shuffle, deal=deal or old.deal)
        if new == old:
            raise IllegalAction(
                f"{what}: the method is already {old.shuffle.value}, {old.deal.value}"
            )
        down = devices(new) & self._out_of_order
        if down:
            names = ", ".join(sorted(d.value for d in down))
            raise IllegalAction(f"{what} refused: the {names} is out of order", section=section)
        dropped = devices(old) - devices(new)
        submitted = new == self._submitted.rules.table
        if not submitted and (not dropped or not dropped <= self._out_of_order):
            raise IllegalAction(
                f"{what} refused: the Rules Submission's method ({old.shuffle.value} shuffle, "
                f"{old.deal.value}) is changed only when a device it uses is covered or signed out "
                "of order",
                section=section,
            )
        game = type(self.game)(replace(self.game.rules, table=new))
        problems = deck_problems(new, self.regs.table_decks)  # the one deck check, as the table's
        if problems:
            raise RulesViolation(problems[0][0], section=problems[0][1])
        self.game, self.rules = game, new
        detail = (
            f"{old.shuffle.value} shuffle, {old.deal.value} -> {new.shuffle.value} shuffle, "
            f"{new.deal.value}"
        )
        return self._log_now(TableEventKind.METHOD_CHANGED, section, detail)

    def play_round(
        self,
        strategy: Strategy,
        *,
        wagers: Mapping[int, Mapping[str, int]],
        cut_at: int | None = None,
    ) -> PlayedRound:
        """Begin a round, place ``wagers`` (seat -> wager -> cents), call "no more bets" and
        play it to the end, asking ``strategy(round, seat)`` for each decision.

        The wagers are checked on a trial round first, so a refused wager changes nothing.  An
        action the strategy returns that the round refuses raises, leaving the round in progress
        (unchanged by the refused action) for the caller.
        """
        if not callable(strategy):
            raise InvalidInput(f"strategy {shown_value(strategy)} is not callable")
        self._verify_can_begin()
        actions = self._wager_actions(wagers)
        self._trial(actions)
        played = self.new_round(cut_at=cut_at)
        for action in actions:
            played.apply(action)
        played.apply(NoMoreBets())
        play_out(played, strategy)
        return self._history[-1]

    def _wager_actions(self, wagers: object) -> list[PlaceWager]:
        if not isinstance(wagers, Mapping):
            raise InvalidInput(
                f"wagers {shown_value(wagers)} is not a mapping of seat -> wager -> cents"
            )
        actions: list[PlaceWager] = []
        for seat, placed in wagers.items():
            if not isinstance(placed, Mapping):
                raise InvalidInput(
                    f"wagers at seat {shown_value(seat)}: "
                    f"{shown_value(placed)} is not wager -> cents"
                )
            actions += [PlaceWager(seat=seat, wager=w, amount=a) for w, a in placed.items()]
        return actions

    def _trial(self, actions: list[PlaceWager]) -> None:
        """Apply the wagers and "no more bets" to a throwaway round with throwaway meters."""
        trial = self.game.new_round(shoe=Shoe(DECK), meters=MemoryMeters(), players=self.seats)
        for action in actions:
            trial.apply(action)
        trial.verify(NoMoreBets())

    def __repr__(self) -> str:
        return f"Table({self.game.slug}, {len(self._seats)} seated, {self.rounds_played} rounds)"

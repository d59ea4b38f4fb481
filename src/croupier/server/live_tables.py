"""The live tables' parts the floor and the streams share: a table in memory, its dealing
(the engine's :class:`croupier.table.table.Table`, a fresh shoe per round, or a baccarat table's one
shoe over many coups, :class:`croupier.server.live_shoe.LiveShoe`), the stream notifier, a
command's transaction, and the points of view an account has at a table.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import (
    PlayMode,
    parse_stack,
    stacked_order,
    verify_shuffler,
    verify_stackable,
)
from croupier.games import Game
from croupier.games.pov import Pov, redact
from croupier.games.records import Record, record_to_json
from croupier.games.round import SEATS, Round
from croupier.rules.progressive import MeterBank
from croupier.server.views import ViewPov
from croupier.store.codec import record_from_json
from croupier.table.shoe import Shoe, Shuffler, shoe_cards

__all__ = [
    "Dealing",
    "LiveTable",
    "Notifier",
    "ShoePerRound",
    "Txn",
    "event_for",
    "event_variant",
    "pov_variants",
]


class Notifier:
    """Wakes the streams waiting on a table when its events are committed (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, list[Callable[[], None]]] = {}

    def subscribe(self, stream: str, wake: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._waiters.setdefault(stream, []).append(wake)

        def cancel() -> None:
            with self._lock:
                waiters = self._waiters.get(stream, [])
                if wake in waiters:
                    waiters.remove(wake)

        return cancel

    def watched(self, stream: str) -> bool:
        """Whether a stream of this process waits on ``stream``."""
        with self._lock:
            return bool(self._waiters.get(stream))

    def notify(self, stream: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(stream, ()))
        for wake in waiters:
            wake()


class Dealing(Protocol):
    """Seats and the cards between rounds: :class:`~croupier.server.live_shoe.LiveShoe` where
    the game deals one shoe over many rounds (``Game.shoe_cut_card``: baccarat),
    :class:`croupier.table.table.Table` where the game's chapter gives its table procedures, else
    :class:`ShoePerRound`."""

    @property
    def seats(self) -> dict[int, str]: ...

    def sit(self, seat: int, player: str) -> object: ...

    def leave(self, seat: int) -> object: ...

    def new_round(self, *, cut_at: int | None = None) -> Round: ...

    def memento(self) -> Any:
        """The seats and the cards' bookkeeping as they stand (:meth:`restore` puts them
        back when the command that changed them does not commit)."""

    def restore(self, memento: Any) -> None: ...

    def resume(self, rnd: Round) -> None:
        """The round in progress, as its committed records rebuilt it, takes its place."""

    def forget_played(self) -> int:
        """Let go of the rounds before the last (the store holds them); the rounds let go."""

    def stack_next(self, cards: Sequence[Card]) -> None:
        """A training table only: the next round (the next coup) deals ``cards`` first (top
        first, in the order they leave the shoe); a stack the shoe cannot hold, or a real
        table, is refused and nothing changes (:func:`croupier.core.modes.stacked_order`)."""


class ShoePerRound:
    """A fresh shoe of the game's decks, shuffled by the injected shuffler, for each round
    (games whose chapter's deck procedures the table module does not yet know)."""

    def __init__(
        self, game: Game, shuffler: Shuffler, meters: MeterBank, mode: PlayMode = PlayMode.REAL
    ) -> None:
        verify_shuffler(mode, shuffler)
        self.game, self.shuffler, self.meters, self.mode = game, shuffler, meters, mode
        self._seats: dict[int, str] = {}
        self._current: Round | None = None
        self._stacked: tuple[Card, ...] = ()

    @property
    def seats(self) -> dict[int, str]:
        return dict(self._seats)

    def sit(self, seat: int, player: str) -> object:
        if isinstance(seat, bool) or seat not in SEATS:
            raise InvalidInput(f"seat {seat!r} is not one of the betting positions 1-7")
        if seat in self._seats:
            raise IllegalAction(f"seat {seat} is taken; choose another seat")
        self._seats[seat] = player
        return None

    def leave(self, seat: int) -> object:
        if seat not in self._seats:
            raise IllegalAction(f"seat {seat} is empty; nobody can leave it")
        rnd = self._current
        if rnd is not None and not rnd.is_over and seat in rnd.active_seats:
            raise IllegalAction(f"seat {seat} has wagered and stays seated until the round ends")
        del self._seats[seat]
        return None

    def memento(self) -> tuple[dict[int, str], Round | None, tuple[Card, ...]]:
        return dict(self._seats), self._current, self._stacked

    def restore(self, memento: tuple[dict[int, str], Round | None, tuple[Card, ...]]) -> None:
        seats, self._current, self._stacked = memento
        self._seats = dict(seats)

    def stack_next(self, cards: Sequence[Card]) -> None:
        verify_stackable(self.mode, "this table")
        stack = parse_stack(cards)
        stacked_order(shoe_cards(self.game.deck_count), stack, where="the next round's shoe")
        self._stacked = stack

    def resume(self, rnd: Round) -> None:
        self._current = rnd

    def forget_played(self) -> int:
        return 0  # only the current round is ever held

    def new_round(self, *, cut_at: int | None = None) -> Round:
        if not self._seats:
            raise IllegalAction("no player is seated to wager")
        decks = self.game.deck_count
        shoe = Shoe.shuffled(self.shuffler, decks=decks, cut_at=cut_at)
        if self._stacked:  # training: the stacked cards leave the shoe first
            order = self.shuffler.shuffle(shoe_cards(decks))
            order = stacked_order(order, self._stacked, where="the next round's shoe")
            shoe, self._stacked = Shoe(order, decks=decks), ()
        self._current = self.game.new_round(
            shoe=shoe, meters=self.meters, players=self._seats, mode=self.mode
        )
        return self._current


RECENT = 128
"""Committed events each table keeps in memory for its streams (between :data:`RECENT` and
twice as many): one to three minutes of a full table's events at a floor's pace (the money
oracle's rounds of four players have 27 to 168 events), so a page reconnecting after a short
break catches up without the database; a stream further behind reads it there.  Each kept
event is about two objects the garbage collector tracks, scanned at every full collection,
and lives until trimmed: a seven-seat table held 1,746 to 2,706 tracked objects more than
after its first round at 512, 664 to 1,017 at 128 (``benchmarks/bench_carried_state.py
--recent N``, docs/performance.md)."""


@dataclass
class LiveTable:
    """One table on the floor (in memory; its state is rebuilt from the database)."""

    id: str
    name: str
    game: Game
    table: Dealing
    status: str = "open"
    lock: threading.Lock = field(default_factory=threading.Lock)
    round: Round | None = None
    round_id: str | None = None
    stored: int = 0
    seq: int = 0
    held: str | None = None
    """Why the current round is held for a supervisor's void (a crash, a failed write)."""
    numbers: int = 0
    meters: tuple[str, ...] = ()
    """Every progressive meter the table's wagers move (linked by name with other tables)."""
    unposted: str | None = None
    """Why the table deals no round: stored before limits were required, it posts none for
    some wager it offers (:func:`croupier.server.postings.unposted_reason`)."""

    recent: dict[int, tuple[int, str, dict[str, Any], str | None]] = field(default_factory=dict)
    """The last :data:`RECENT` committed events by ``seq`` (the streams' reads)."""
    top: int = 0
    """The last ``seq`` published since this process loaded the table."""
    heard: int = 0
    """The last ``seq`` another server process committed, as its notification said
    (:mod:`croupier.server.table_sync`): past :attr:`seq`, this process's table is stale."""
    _recent_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _texts: dict[tuple[int, str], str] = field(default_factory=dict, repr=False)
    """Stream messages of the recent events by ``(seq, form)`` (:meth:`encoded`)."""

    def seats(self) -> dict[int, str]:
        return self.table.seats

    def adopt(self, fresh: LiveTable) -> None:
        """Take ``fresh``'s state (the table as another process left it, rebuilt from the
        database): its rules, dealing, status, round and numbers; the lock, the recent events
        and the streams' cache stay this object's."""
        self.name, self.game, self.table = fresh.name, fresh.game, fresh.table
        self.status = fresh.status
        self.round, self.round_id, self.stored = fresh.round, fresh.round_id, fresh.stored
        self.seq, self.held, self.numbers = fresh.seq, fresh.held, fresh.numbers
        self.meters, self.unposted = fresh.meters, fresh.unposted

    def published(
        self, events: list[tuple[int, str, dict[str, Any], str | None]]
    ) -> list[tuple[int, str, dict[str, Any], str | None]]:
        """Committed events (called after the commit, possibly out of order between two
        commands: a reader takes only an unbroken run from where it stands); those not
        published before (another server process's events may be read twice: at its
        notification and when this process rebuilds the table)."""
        new = []
        with self._recent_lock:
            for event in events:
                if event[0] in self.recent:
                    continue
                new.append(event)
                self.recent[event[0]] = event
                self.top = max(self.top, event[0])
            if events and len(self.recent) > 2 * RECENT:
                oldest = events[-1][0] - RECENT
                for seq in [s for s in self.recent if s <= oldest]:
                    del self.recent[seq]
            if len(self._texts) > 8 * RECENT:
                oldest = self.top - RECENT
                for key in [k for k in self._texts if k[0] <= oldest]:
                    del self._texts[key]
        return new

    def encoded(self, seq: int, form: str, encode: Callable[[], str]) -> str:
        """The stream message of event ``seq`` in the form ``form`` (:func:`event_variant`),
        encoded once for every connection that receives that form (the recent events this
        process published only: the cache stays within :data:`RECENT` events)."""
        if not self.top - RECENT < seq <= self.top:
            return encode()
        key = (seq, form)
        text = self._texts.get(key)
        if text is None:
            text = encode()
            with self._recent_lock:
                self._texts[key] = text
        return text

    def recent_events(
        self, since: int, limit: int
    ) -> list[tuple[int, str, dict[str, Any], str | None]] | None:
        """The committed events right after ``since`` held in memory; empty when the next one
        is not (the caller reads the database), ``None`` when nothing after ``since`` has been
        published (this process writes the table's events or hears of every event another
        process commits, :mod:`croupier.server.table_sync`: nothing is to be read)."""
        # nothing published since the load: the table held ``seq`` (a quiet table's streams
        # after a restart read nothing more, issue 38)
        if 0 < (self.top or self.seq) == since and self.heard <= since:
            return None
        out: list[tuple[int, str, dict[str, Any], str | None]] = []
        recent = self.recent
        seq = since + 1
        while len(out) < limit:
            event = recent.get(seq)
            if event is None:
                break
            out.append(event)
            seq += 1
        return out


@dataclass
class Txn:
    """One command's transaction: its connection, the events it emits (written with it by
    :class:`~croupier.server.event_log.EventLog`) and what its answer carries besides."""

    conn: Connection
    events: dict[str, list[tuple[str, dict[str, Any], str | None]]] = field(default_factory=dict)
    collected: list[Record] = field(default_factory=list)
    """Records of a table's shoe between rounds the command made (a baccarat marker collected
    when the player leaves: the command's answer holds them)."""
    placed: list[LiveTable] = field(default_factory=list)
    """The tables the command placed on the floor: taken off again where it does not commit
    (and only they: PostgreSQL's writers place other commands' tables meanwhile)."""
    holding: str | None = None
    """The table whose lock the command holds until it commits: its state as the command
    leaves it is what commits with the events (the other processes are told its list entry,
    :mod:`croupier.server.table_sync`)."""

    def emit(self, lt: LiveTable, type_: str, data: dict[str, Any]) -> None:
        """An event of ``lt``'s stream, of its current round (written when the command
        commits, numbered then)."""
        self.events.setdefault(lt.id, []).append((type_, data, lt.round_id))


_PUBLIC, _FULL, _SEATLESS = Pov.public(), Pov.supervisor(), Pov.player()
_SEAT_POVS = tuple((str(seat), Pov.player(seat)) for seat in SEATS)
"""The points of view :func:`pov_variants` redacts every record for, made once."""


def pov_variants(record: Record) -> dict[str, Any]:
    """The record as each kind of viewer sees it (``public``; ``full``, ``seats`` where they
    differ from ``public``), computed once for every connection that will receive it: the
    engine redacts (:func:`croupier.games.pov.redact`), each distinct form is encoded once."""
    public = redact(record, _PUBLIC)
    out: dict[str, Any] = {"public": record_to_json(public)}
    full = redact(record, _FULL)
    if full is not public and full != public:
        out["full"] = record_to_json(full)
    seats = {}
    for seat, pov in _SEAT_POVS:
        mine = redact(record, pov)
        if mine is not public and mine != public:
            seats[seat] = record_to_json(mine)
    if seats:
        out["seats"] = seats
    seatless = redact(record, _SEATLESS)
    if seatless is not public and seatless != public:
        out["player"] = record_to_json(seatless)
    return out


def event_variant(data: Mapping[str, Any], pov: ViewPov) -> tuple[str, Mapping[str, Any]]:
    """The form of a stored event's data that ``pov`` sees, and its name (the same name for
    every point of view that sees the same form: a message is encoded once per form)."""
    if "public" not in data:
        return "", data
    if pov.kind == "full" and "full" in data:
        return "full", data["full"]
    if pov.kind == "player" and not pov.seats:
        return ("player", data["player"]) if "player" in data else ("public", data["public"])
    if pov.kind == "player" and len(pov.seats) > 1:
        # One account at adjacent boxes: the engine's point of view of all its seats at once,
        # from the record as stored (one seat's form hides the other seat's shown hand).
        seats = sorted(pov.seats)
        record = record_from_json(data.get("full", data["public"]))
        seen = record_to_json(redact(record, Pov.player(*seats)))
        return "player:" + ",".join(str(s) for s in seats), seen
    if pov.kind == "player":
        (seat,) = pov.seats
        mine = data.get("seats", {}).get(str(seat))
        if mine is not None:
            return f"player:{seat}", mine
    return "public", data["public"]


def event_for(data: Mapping[str, Any], pov: ViewPov) -> dict[str, Any]:
    """A stored event's data as ``pov`` may see it."""
    return dict(event_variant(data, pov)[1])

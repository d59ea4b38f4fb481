"""Every round's hand history in a database: :class:`RoundStore` and :class:`TrackedRound`.

A round is stored with its id, game slug, Rules Submission (JSON), seat→player map, stub-check
setting and status (``open``, ``over``, ``void``), and its records in order, each committed as
it happens.  After a crash, :meth:`RoundStore.open_rounds` lists the rounds left unfinished;
:meth:`RoundStore.load` decodes their records, which :meth:`Round.rebuild
<croupier.games.round.Round.rebuild>` replays, and :meth:`RoundStore.resume` carries the round
on against the real meters.

Through :meth:`RoundStore.track`, each action is one transaction: the records it adds and, where
the round's meters are :class:`~croupier.store.SqlMeters` on the same database, the meter moves
it makes (with their ledger rows, marked with the round id) commit together or not at all.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, update

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.core.shapes import CardSource
from croupier.games import get_game
from croupier.games.base import Game
from croupier.games.rebuild import ReplayMeters
from croupier.games.records import (
    Action,
    CardDealt,
    CardDiscarded,
    MeterChanged,
    Record,
    RoundVoided,
    VoidRound,
    action_of,
)
from croupier.games.round import Actor, ActorKind, Phase, Round, StubCheck
from croupier.rules.progressive import MeterBank
from croupier.store.chain import GENESIS, header_payload, link, record_data, record_link
from croupier.store.codec import record_from_json, rules_to_json
from croupier.store.database import (
    DEFAULT_URL,
    Database,
    as_utc,
    meter_ledger,
    now,
    round_records,
    round_shoes,
    rounds,
    shared,
)
from croupier.store.prepared import Prepared
from croupier.store.shoes import PersistedShoe, capture
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import Shoe

__all__ = ["RoundStatus", "RoundStore", "StoredRound", "TrackedRound"]


class RoundStatus(StrEnum):
    OPEN = "open"
    OVER = "over"
    VOID = "void"


def status_of(rnd: Round) -> RoundStatus:
    if rnd.phase is Phase.VOID:
        return RoundStatus.VOID
    if rnd.phase is Phase.OVER:
        return RoundStatus.OVER
    return RoundStatus.OPEN


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredRound:
    """What the store knows of a round besides its records."""

    round_id: str
    game: str
    rules: dict[str, Any]
    """The Rules Submission as JSON (``get_game(rules)`` rebuilds the game)."""
    players: dict[int, str]
    stub_check: StubCheck
    mode: PlayMode
    """Real play, simulation or training: a stored simulated round never passes for real."""
    status: RoundStatus
    records: int
    created_at: datetime
    updated_at: datetime
    hash: str = ""
    """SHA-256 of the round's header: where its record chain starts."""
    head: str = ""
    """The hash of the last record (the header's where there is none)."""
    voided_by: str | None = None
    """The supervisor who voided the round from the store (:meth:`RoundStore.void`)."""
    void_reason: str | None = None


def _info(row: Any) -> StoredRound:
    return StoredRound(
        round_id=row.id,
        game=row.game,
        rules=json.loads(row.rules),
        players={int(seat): player for seat, player in json.loads(row.players).items()},
        stub_check=StubCheck(row.stub_check),
        mode=PlayMode(row.mode),
        status=RoundStatus(row.status),
        records=row.records,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        hash=row.hash,
        head=row.head,
        voided_by=row.voided_by,
        void_reason=row.void_reason,
    )


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{what} {value!r} must be non-empty text")
    return value


_INSERT_RECORDS = Prepared(insert(round_records))


@functools.cache
def _advance(columns: tuple[str, ...], *, open_only: bool) -> Prepared:
    """The guarded ``UPDATE rounds`` of an append (the round at the count and head this store
    wrote last; ``open_only``: still open), built and compiled once per set of columns
    (:class:`~croupier.store.prepared.Prepared`): parameters ``g_id``, ``g_records``,
    ``g_head`` (``g_status``) and ``v_<column>``."""
    guard = [
        rounds.c.id == bindparam("g_id"),
        rounds.c.records == bindparam("g_records"),
        rounds.c.head == bindparam("g_head"),
    ]
    if open_only:
        guard.append(rounds.c.status == bindparam("g_status"))
    return Prepared(update(rounds).where(*guard).values({c: bindparam(f"v_{c}") for c in columns}))


class RoundStore:
    """Rounds and their records in a database (SQLite file by default, any URL or Engine).

    Share an :class:`~sqlalchemy.Engine` (or a URL) with :class:`~croupier.store.SqlMeters`
    to keep meters and rounds in one database; an engine made here from a URL is disposed by
    :meth:`close` (or on leaving a ``with`` block).
    """

    def __init__(self, target: str | Engine = DEFAULT_URL) -> None:
        self._db = Database(target)
        self._heads: dict[str, tuple[int, str]] = {}
        """round id -> (records, head) as this store last wrote them (a guess to verify)."""

    @property
    def engine(self) -> Engine:
        return self._db.engine

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RoundStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def begin(
        self,
        round_id: str,
        game: Game,
        *,
        players: Mapping[int, str],
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        mode: PlayMode = PlayMode.SIMULATION,
    ) -> StoredRound:
        """Store a new open round with no records yet (and no persisted shoe: use
        :meth:`track` for a round to be dealt)."""
        with self._db.engine.begin() as conn:
            return self._begin(conn, round_id, game, players, stub_check, mode)

    def begin_in(
        self,
        conn: Connection,
        round_id: str,
        game: Game,
        players: Mapping[int, str],
        stub_check: StubCheck,
        mode: PlayMode,
        rules: Mapping[str, Any] | None = None,
    ) -> StoredRound:
        """:meth:`begin` in ``conn``'s transaction (the caller's: the live server writes a
        round's header with the rest of its command); ``rules``: the Rules Submission as JSON,
        default :func:`rules_to_json`."""
        return self._begin(conn, round_id, game, players, stub_check, mode, rules)

    def store_shoe_in(self, conn: Connection, round_id: str, shoe: PersistedShoe) -> None:
        """Store the card order ``round_id`` deals from, in ``conn``'s transaction."""
        self._store_shoe(conn, round_id, shoe)

    def append_in(
        self,
        conn: Connection,
        round_id: str,
        records: Sequence[Record],
        status: RoundStatus | None,
        expected: int | None,
        extra: Mapping[str, Any] | None = None,
    ) -> int:
        """:meth:`append` in ``conn``'s transaction; the count of records stored (``extra``:
        columns of the round's row stored with them, e.g. who voided it and why)."""
        return self._append(conn, round_id, records, status, expected, extra)

    def replay(self, round_id: str, conn: Connection | None = None) -> Round:
        """The open round as it stood: replayed from its records, dealing from its persisted
        shoe, on meters in memory (``conn``: read in that transaction, else a new one);
        ``IllegalAction`` when the records do not replay from that shoe."""
        return self._replay(round_id, conn)

    def _begin(
        self,
        conn: Connection,
        round_id: str,
        game: Game,
        players: Mapping[int, str],
        stub_check: StubCheck,
        mode: PlayMode,
        rules: Mapping[str, Any] | None = None,
    ) -> StoredRound:
        """Insert the round's header (``rules``: the Rules Submission as JSON, default
        :func:`rules_to_json`), in ``conn``'s transaction."""
        if not isinstance(round_id, str) or not round_id:
            raise InvalidInput(f"round id {round_id!r} must be non-empty text")
        at = now()
        if self._row(conn, round_id) is not None:
            raise IllegalAction(f"round {round_id!r} is already stored")
        rules = dict(rules) if rules is not None else rules_to_json(game.rules)
        seats = {str(s): p for s, p in sorted(players.items())}
        header = link(
            GENESIS,
            header_payload(
                round_id=round_id,
                game=game.slug,
                rules=rules,
                players=seats,
                stub_check=stub_check.value,
                mode=PlayMode(mode).value,
                created_at=at,
            ),
        )
        conn.execute(
            insert(rounds).values(
                id=round_id,
                game=game.slug,
                rules=json.dumps(rules, sort_keys=True),
                players=json.dumps(seats),
                stub_check=stub_check.value,
                mode=PlayMode(mode).value,
                status=RoundStatus.OPEN.value,
                records=0,
                created_at=at,
                updated_at=at,
                hash=header,
                head=header,
            )
        )
        return _info(self._row(conn, round_id))

    @staticmethod
    def _store_shoe(conn: Connection, round_id: str, shoe: PersistedShoe) -> None:
        conn.execute(
            insert(round_shoes).values(
                round_id=round_id,
                cards=shoe.text,
                taken=shoe.taken,
                decks=shoe.decks,
                stacked=shoe.stacked,
                nonce=shoe.nonce,
                commitment=shoe.commitment,
                created_at=now(),
            )
        )

    def append(
        self,
        round_id: str,
        records: Sequence[Record],
        *,
        status: RoundStatus | None = None,
        expected: int | None = None,
    ) -> int:
        """Append ``records`` (one transaction) and set the status if given; returns the count
        of records stored.  ``expected`` (the count already stored) guards against a second
        writer.  A round is made void only by the round itself or :meth:`void`."""
        if status is RoundStatus.VOID and not records:
            raise IllegalAction(
                f"round {round_id!r} is not marked void without reversing its wagers and "
                "contributions: use RoundStore.void(round_id, meters, by=..., reason=...)"
            )
        with self._db.engine.begin() as conn:
            return self._append(conn, round_id, records, status, expected)

    def finish(self, round_id: str, status: RoundStatus) -> None:
        """Mark a round over.  ``VOID`` is refused: a crashed round is voided by a supervisor
        with :meth:`void`, which returns its open wagers and reverses its contributions."""
        if status is RoundStatus.VOID:
            raise IllegalAction(
                f"round {round_id!r}: finish(..., VOID) would mark the round void without "
                "returning its wagers or reversing its contributions; use RoundStore.void"
            )
        found = status_of(self.rebuild(round_id))
        if found is not status:
            raise IllegalAction(
                f"round {round_id!r} is {found.value} by its records; it is not marked {status}"
            )
        self.append(round_id, (), status=status)

    def _append(
        self,
        conn: Connection,
        round_id: str,
        records: Sequence[Record],
        status: RoundStatus | None,
        expected: int | None,
        extra: Mapping[str, Any] | None = None,
    ) -> int:
        at = now()
        known = self._heads.get(round_id)
        if known is not None and (expected is None or known[0] == expected):
            # The count and head this store wrote last: one guarded UPDATE instead of reading
            # the round back (a stale guess, e.g. after a rolled-back batch, matches no row and
            # falls through to the read).
            count, head = known
            rows, values = self._chain(round_id, records, status, count, head, at, extra)
            guarded = _advance(tuple(values), open_only=bool(records))
            params = {f"v_{k}": v for k, v in values.items()}
            params.update(g_id=round_id, g_records=count, g_head=head)
            if records:
                params["g_status"] = RoundStatus.OPEN.value
            if guarded.count(conn, params) == 1:
                _INSERT_RECORDS.append(conn, rows)
                return self._remember(round_id, values)
        self._heads.pop(round_id, None)
        row = self._row(conn, round_id, lock=True)
        if row is None:
            raise IllegalAction(f"round {round_id!r} is not stored")
        count = row.records
        if expected is not None and count != expected:
            raise IllegalAction(
                f"round {round_id!r} has {count} stored records, {expected} expected: "
                "another writer changed it; resume it from the store"
            )
        if records and row.status != RoundStatus.OPEN.value:
            raise IllegalAction(f"round {round_id!r} is {row.status}; no records may follow")
        rows, values = self._chain(round_id, records, status, count, row.head, at, extra)
        _INSERT_RECORDS.append(conn, rows)
        conn.execute(update(rounds).where(rounds.c.id == round_id).values(**values))
        return self._remember(round_id, values)

    def _remember(self, round_id: str, values: Mapping[str, Any]) -> int:
        """Keep the count and head written for the next append (an open round only)."""
        if values.get("status", RoundStatus.OPEN.value) == RoundStatus.OPEN.value:
            self._heads[round_id] = (values["records"], values["head"])
        else:
            self._heads.pop(round_id, None)
        return int(values["records"])

    @staticmethod
    def _chain(
        round_id: str,
        records: Sequence[Record],
        status: RoundStatus | None,
        count: int,
        head: str,
        at: datetime,
        extra: Mapping[str, Any] | None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The record rows chained on from ``head`` and the round's new values."""
        rows = []
        for i, record in enumerate(records):
            data = record_data(record)
            head = record_link(head, round_id, count + i, data, at)
            rows.append(
                {
                    "round_id": round_id,
                    "seq": count + i,
                    "kind": record.kind,
                    "data": data,
                    "at": at,
                    "hash": head,
                }
            )
        values: dict[str, Any] = {
            "records": count + len(records),
            "updated_at": at,
            "head": head,
            **(extra or {}),
        }
        # A supervisor's void, however applied, names its supervisor and reason on the row.
        for rec in records:
            if isinstance(rec, RoundVoided) and rec.by and extra is None:
                values.update(voided_by=rec.by, void_reason=rec.reason)
        if status is not None:
            values["status"] = status.value
        return rows, values

    # -- reading ---------------------------------------------------------------------------

    @staticmethod
    def _row(conn: Connection, round_id: str, *, lock: bool = False) -> Any:
        query = select(rounds).where(rounds.c.id == round_id)
        if lock:
            query = query.with_for_update()
        return conn.execute(query).one_or_none()

    def info(self, round_id: str) -> StoredRound:
        with self._db.read() as conn:
            return self._info_in(conn, round_id)

    def _info_in(self, conn: Connection, round_id: str) -> StoredRound:
        row = self._row(conn, round_id)
        if row is None:
            raise IllegalAction(f"round {round_id!r} is not stored")
        return _info(row)

    def load(self, round_id: str) -> list[Record]:
        """The round's records, decoded back into the frozen record classes, in order."""
        with self._db.read() as conn:
            return self._load_in(conn, round_id)

    def _load_in(self, conn: Connection, round_id: str) -> list[Record]:
        if self._row(conn, round_id) is None:
            raise IllegalAction(f"round {round_id!r} is not stored")
        data = conn.execute(
            select(round_records.c.data)
            .where(round_records.c.round_id == round_id)
            .order_by(round_records.c.seq)
        ).scalars()
        return [record_from_json(json.loads(text)) for text in data]

    def shoe(self, round_id: str) -> PersistedShoe | None:
        """The order of the cards the round deals from, with its nonce (server side only:
        never part of a view, a recall or an export); ``None`` for a round stored without
        one (:meth:`begin`)."""
        with self._db.read() as conn:
            return self._shoe_in(conn, round_id)

    @staticmethod
    def _shoe_in(conn: Connection, round_id: str) -> PersistedShoe | None:
        row = conn.execute(
            select(round_shoes).where(round_shoes.c.round_id == round_id)
        ).one_or_none()
        if row is None:
            return None
        return PersistedShoe.parse(
            row.cards, taken=row.taken, decks=row.decks, stacked=bool(row.stacked), nonce=row.nonce
        )

    def open_rounds(self) -> list[StoredRound]:
        """Rounds neither over nor void (what a crash left behind), oldest first."""
        with self._db.read() as conn:
            rows = conn.execute(
                select(rounds)
                .where(rounds.c.status == RoundStatus.OPEN.value)
                .order_by(rounds.c.created_at, rounds.c.id)
            ).all()
        return [_info(row) for row in rows]

    def count(self, status: RoundStatus | None = None) -> int:
        query = select(func.count()).select_from(rounds)
        if status is not None:
            query = query.where(rounds.c.status == status.value)
        with self._db.read() as conn:
            return int(conn.execute(query).scalar_one())

    def game(self, round_id: str) -> Game:
        """The game under the Rules Submission the round was played under."""
        return get_game(self.info(round_id).rules)

    def rebuild(self, round_id: str) -> Round:
        """The round replayed from its stored records (meters in memory, each move starting
        where the meter's ledger, or else its record, says it stood: ReplayMeters)."""
        info = self.info(round_id)
        game = get_game(info.rules)
        records = self.load(round_id)
        with self._db.read() as conn:
            stood = self._meters_stood(conn, round_id, records)
        return Round.rebuild(
            game, records, players=info.players, stub_check=info.stub_check, meters_stood=stood
        )

    @staticmethod
    def _meters_stood(
        conn: Connection, round_id: str, records: Sequence[Record]
    ) -> list[Fraction] | None:
        """The exact amount each of the round's meter moves started from, from the meters'
        ledger in this database (``None`` where it does not hold them all: memory meters)."""
        rows = conn.execute(
            select(meter_ledger.c.before_exact)
            .where(meter_ledger.c.round_id == round_id, meter_ledger.c.reason != "created")
            .order_by(meter_ledger.c.id)
        ).scalars()
        stood = [Fraction(text) for text in rows]
        moves = sum(isinstance(r, MeterChanged) for r in records)
        return stood if stood and len(stood) == moves else None

    # -- rounds in play --------------------------------------------------------------------

    def track(self, round_id: str, rnd: Round) -> TrackedRound:
        """Persist ``rnd`` under ``round_id``: its records so far and the order of its shoe
        (apart, :meth:`shoe`) now, each later record as the returned wrapper applies it.  A
        round already stored (being resumed) must hold the stored records first; the rest
        are appended."""
        with self._db.engine.begin() as conn:
            row = self._row(conn, round_id)
            if row is None:
                persisted = capture(rnd)
                self._begin(conn, round_id, rnd.game, rnd.players, rnd.stub_check, rnd.mode)
                if persisted is not None:  # a reported shoe has no order to keep
                    self._store_shoe(conn, round_id, persisted)
                stored = 0
        if row is not None:
            stored = row.records
            if row.game != rnd.game.slug:
                raise IllegalAction(f"round {round_id!r} is {row.game}, not {rnd.game.slug}")
            if self.load(round_id) != list(rnd.records[:stored]):
                raise IllegalAction(
                    f"round {round_id!r}: the round's records differ from the stored ones"
                )
        rest = rnd.records[stored:]
        status = status_of(rnd)
        if rest or status is not RoundStatus.OPEN:
            with self._db.engine.begin() as conn:
                stored = self._append(conn, round_id, rest, status, stored)
        return TrackedRound(self, round_id, rnd, stored)

    def _replay(self, round_id: str, conn: Connection | None = None) -> Round:
        """The open round as it stood: replayed from its records, dealing from its persisted
        shoe (meters in memory); refused when the records do not replay from that shoe.
        ``conn``: read in that transaction (what it sees), else in a new one."""
        if conn is None:
            with self._db.engine.begin() as fresh:
                return self._replay(round_id, fresh)
        info = self._info_in(conn, round_id)
        if info.status is not RoundStatus.OPEN:
            raise IllegalAction(f"round {round_id!r} is {info.status}; only open rounds resume")
        game = get_game(info.rules)
        records = self._load_in(conn, round_id)
        persisted = self._shoe_in(conn, round_id)
        shoe: Shoe
        if persisted is None and game.rules.table.cards is not CardSource.SHUFFLE:
            # real cards, reported as they left the shoe (issue 39): no order was kept; the
            # round deals again the cards its records show, then the next ones reported
            shown = [r.card for r in records if isinstance(r, CardDealt | CardDiscarded)]
            shoe = ReportedShoe(decks=game.deck_count, reported=shown)
        elif persisted is None:
            raise IllegalAction(
                f"round {round_id!r} has no persisted shoe order, so it cannot deal on; a "
                "supervisor may void it (RoundStore.void)"
            )
        else:
            shoe = persisted.rebuild()
        rnd = game.new_round(
            shoe=shoe,
            meters=ReplayMeters(records, self._meters_stood(conn, round_id, records)),
            players=info.players,
            stub_check=info.stub_check,
            mode=info.mode,
        )
        for seq, rec in enumerate(records):
            action = action_of(rec)
            if action is None:
                continue
            try:
                rnd.apply(action)
            except CroupierError as exc:
                raise IllegalAction(
                    f"round {round_id!r}: stored record {seq} ({rec.kind}) does not replay "
                    f"from the persisted shoe: {exc}"
                ) from None
        if list(rnd.records) != records:
            seq = next(
                (i for i, (a, b) in enumerate(zip(rnd.records, records, strict=False)) if a != b),
                min(len(rnd.records), len(records)),
            )
            raise IllegalAction(
                f"round {round_id!r}: stored record {seq} differs from its replay from the "
                "persisted shoe (the records or the shoe were changed)"
            )
        return rnd

    def resume(self, round_id: str, meters: MeterBank) -> TrackedRound:
        """Carry on an open round after a crash: replay it from its records, dealing from its
        persisted shoe (the rest of the cards exactly as they were shuffled), hand it the
        real ``meters`` (its contributions so far are known, so a later void takes them back)
        and track it again."""
        rnd = self._replay(round_id)
        rnd.attach_meters(meters)
        return self.track(round_id, rnd)

    def void(self, round_id: str, meters: MeterBank, *, by: str, reason: str) -> TrackedRound:
        """A supervisor voids an open round after a crash, in any phase before settlement has
        begun: every wager still open goes back and the round's meter contributions are taken
        off ``meters``, in one transaction with the records and who voided it and why.
        Refused once settlement has begun (the dealer settles the round instead)."""
        _text(by, "supervisor")
        _text(reason, "void reason")
        info = self.info(round_id)
        if info.status is not RoundStatus.OPEN:
            raise IllegalAction(f"round {round_id!r} is already {info.status}; it cannot be voided")
        # A round stored without a shoe order deals no further: its records still rebuild it.
        rnd = self.rebuild(round_id) if self.shoe(round_id) is None else self._replay(round_id)
        action = VoidRound(by=by, reason=reason)
        rnd.verify(action)  # refused once settlement has begun
        rnd.attach_meters(meters)
        tracked = TrackedRound(self, round_id, rnd, info.records)
        tracked.apply(action, extra={"voided_by": by, "void_reason": reason})
        return tracked


class TrackedRound:
    """A round whose every action is stored as it is applied (see :meth:`RoundStore.track`).

    Use its :meth:`apply` and :meth:`run_dealer` instead of the round's own; ``round`` is the
    round itself for everything else.
    """

    def __init__(self, store: RoundStore, round_id: str, rnd: Round, stored: int) -> None:
        self.store = store
        self.round_id = round_id
        self.round = rnd
        self._stored = stored
        self._diverged = False

    @property
    def records(self) -> tuple[Record, ...]:
        return self.round.records

    @property
    def phase(self) -> Phase:
        return self.round.phase

    @property
    def is_over(self) -> bool:
        return self.round.is_over

    @property
    def status(self) -> RoundStatus:
        return status_of(self.round)

    def to_act(self) -> Actor:
        return self.round.to_act()

    def can(self, action: Action) -> bool:
        return self.round.can(action)

    def settlement(self) -> dict[str, Any]:
        return self.round.settlement()

    def apply(
        self, action: Action, *, extra: Mapping[str, Any] | None = None
    ) -> tuple[Record, ...]:
        """Apply ``action`` to the round and store the records it adds, in one transaction
        with the meter moves it makes on the same database (``extra``: columns of the round's
        row stored with them, e.g. who voided it and why).  A refused action stores nothing."""
        if self._diverged:
            raise IllegalAction(
                f"round {self.round_id!r} no longer matches the store (a write failed); "
                "resume it from the store"
            )
        self.round.verify(action)
        return self._commit(lambda: self.round.apply(action), extra=extra)

    def _commit(
        self,
        change: Callable[[], Sequence[Record]],
        *,
        extra: Mapping[str, Any] | None = None,
    ) -> tuple[Record, ...]:
        """Make ``change`` (already verified) and store the records it adds, in one
        transaction with the meter moves it makes on the same database."""
        db = self.store._db
        started = False
        try:
            with db.engine.begin() as conn:
                with shared(db.key, conn, self.round_id):
                    started = True
                    new = tuple(change())
                self._stored = self.store.append_in(
                    conn, self.round_id, new, status_of(self.round), self._stored, extra
                )
        except BaseException:
            if started:
                # The action was verified, so the round may have moved on in memory while its
                # records and meter moves rolled back: it must be resumed from the store.
                self._diverged = True
            raise
        return new

    def run_dealer(self) -> tuple[Record, ...]:
        """As :meth:`Round.run_dealer`, storing each dealer or chance step as it happens."""
        added: list[Record] = []
        rnd = self.round
        while not rnd.is_over and rnd.phase is not Phase.BETTING:
            if rnd.to_act().kind is ActorKind.SEAT:
                break
            added += self.apply(rnd.dealer_step())
        return tuple(added)

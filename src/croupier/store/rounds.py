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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update

from croupier.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.base import Game
from croupier.games.records import Action, Record, record_to_json
from croupier.games.round import Actor, ActorKind, Phase, Round, StubCheck
from croupier.progressive import MeterBank
from croupier.store._db import DEFAULT_URL, Database, as_utc, now, round_records, rounds, shared
from croupier.store.codec import record_from_json, rules_to_json

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
    status: RoundStatus
    records: int
    created_at: datetime
    updated_at: datetime


def _info(row: Any) -> StoredRound:
    return StoredRound(
        round_id=row.id,
        game=row.game,
        rules=json.loads(row.rules),
        players={int(seat): player for seat, player in json.loads(row.players).items()},
        stub_check=StubCheck(row.stub_check),
        status=RoundStatus(row.status),
        records=row.records,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
    )


class RoundStore:
    """Rounds and their records in a database (SQLite file by default, any URL or Engine).

    Share an :class:`~sqlalchemy.Engine` (or a URL) with :class:`~croupier.store.SqlMeters`
    to keep meters and rounds in one database; an engine made here from a URL is disposed by
    :meth:`close` (or on leaving a ``with`` block).
    """

    def __init__(self, target: str | Engine = DEFAULT_URL) -> None:
        self._db = Database(target)

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
    ) -> StoredRound:
        """Store a new open round with no records yet."""
        if not isinstance(round_id, str) or not round_id:
            raise InvalidInput(f"round id {round_id!r} must be non-empty text")
        at = now()
        with self._db.engine.begin() as conn:
            if self._row(conn, round_id) is not None:
                raise IllegalAction(f"round {round_id!r} is already stored")
            conn.execute(
                insert(rounds).values(
                    id=round_id,
                    game=game.slug,
                    rules=json.dumps(rules_to_json(game.rules), sort_keys=True),
                    players=json.dumps({str(s): p for s, p in sorted(players.items())}),
                    stub_check=stub_check.value,
                    status=RoundStatus.OPEN.value,
                    records=0,
                    created_at=at,
                    updated_at=at,
                )
            )
            return _info(self._row(conn, round_id))

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
        writer."""
        with self._db.engine.begin() as conn:
            return self._append(conn, round_id, records, status, expected)

    def finish(self, round_id: str, status: RoundStatus) -> None:
        """Set a round's status, e.g. ``void`` for a round abandoned after a crash."""
        self.append(round_id, (), status=status)

    def _append(
        self,
        conn: Connection,
        round_id: str,
        records: Sequence[Record],
        status: RoundStatus | None,
        expected: int | None,
    ) -> int:
        row = self._row(conn, round_id, lock=True)
        if row is None:
            raise IllegalAction(f"round {round_id!r} is not stored")
        count: int = row.records
        if expected is not None and count != expected:
            raise IllegalAction(
                f"round {round_id!r} has {count} stored records, {expected} expected: "
                "another writer changed it; resume it from the store"
            )
        if records and row.status != RoundStatus.OPEN.value:
            raise IllegalAction(f"round {round_id!r} is {row.status}; no records may follow")
        at = now()
        if records:
            conn.execute(
                insert(round_records),
                [
                    {
                        "round_id": round_id,
                        "seq": count + i,
                        "kind": record.kind,
                        "data": json.dumps(record_to_json(record)),
                        "at": at,
                    }
                    for i, record in enumerate(records)
                ],
            )
        values: dict[str, Any] = {"records": count + len(records), "updated_at": at}
        if status is not None:
            values["status"] = status.value
        conn.execute(update(rounds).where(rounds.c.id == round_id).values(**values))
        return count + len(records)

    # -- reading ---------------------------------------------------------------------------

    @staticmethod
    def _row(conn: Connection, round_id: str, *, lock: bool = False) -> Any:
        query = select(rounds).where(rounds.c.id == round_id)
        if lock:
            query = query.with_for_update()
        return conn.execute(query).one_or_none()

    def info(self, round_id: str) -> StoredRound:
        with self._db.engine.begin() as conn:
            row = self._row(conn, round_id)
        if row is None:
            raise IllegalAction(f"round {round_id!r} is not stored")
        return _info(row)

    def load(self, round_id: str) -> list[Record]:
        """The round's records, decoded back into the frozen record classes, in order."""
        with self._db.engine.begin() as conn:
            if self._row(conn, round_id) is None:
                raise IllegalAction(f"round {round_id!r} is not stored")
            data = conn.execute(
                select(round_records.c.data)
                .where(round_records.c.round_id == round_id)
                .order_by(round_records.c.seq)
            ).scalars()
            return [record_from_json(json.loads(text)) for text in data]

    def open_rounds(self) -> list[StoredRound]:
        """Rounds neither over nor void (what a crash left behind), oldest first."""
        with self._db.engine.begin() as conn:
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
        with self._db.engine.begin() as conn:
            return int(conn.execute(query).scalar_one())

    def game(self, round_id: str) -> Game:
        """The game under the Rules Submission the round was played under."""
        return get_game(self.info(round_id).rules)

    def rebuild(self, round_id: str) -> Round:
        """The round replayed from its stored records (meters in memory, as the replay starts
        them from the first meter record)."""
        info = self.info(round_id)
        game = get_game(info.rules)
        return Round.rebuild(
            game, self.load(round_id), players=info.players, stub_check=info.stub_check
        )

    # -- rounds in play --------------------------------------------------------------------

    def track(self, round_id: str, rnd: Round) -> TrackedRound:
        """Persist ``rnd`` under ``round_id``: its records so far now, each later one as the
        returned wrapper applies it.  A round already stored (being resumed) must hold the
        stored records first; the rest are appended."""
        with self._db.engine.begin() as conn:
            row = self._row(conn, round_id)
        if row is None:
            self.begin(round_id, rnd.game, players=rnd.players, stub_check=rnd.stub_check)
            stored = 0
        else:
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
            stored = self.append(round_id, rest, status=status, expected=stored)
        return TrackedRound(self, round_id, rnd, stored)

    def resume(self, round_id: str, meters: MeterBank) -> TrackedRound:
        """Carry on an open round after a crash: rebuild it from its records, hand it the real
        ``meters`` (its contributions so far are known, so a later void takes them back) and
        track it again."""
        info = self.info(round_id)
        if info.status is not RoundStatus.OPEN:
            raise IllegalAction(f"round {round_id!r} is {info.status}; only open rounds resume")
        rnd = self.rebuild(round_id)
        rnd._attach_meters(meters)
        return self.track(round_id, rnd)


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

    def apply(self, action: Action) -> tuple[Record, ...]:
        """Apply ``action`` to the round and store the records it adds, in one transaction
        with the meter moves it makes on the same database.  A refused action stores nothing."""
        if self._diverged:
            raise IllegalAction(
                f"round {self.round_id!r} no longer matches the store (a write failed); "
                "resume it from the store"
            )
        self.round.verify(action)
        db = self.store._db
        started = False
        try:
            with db.engine.begin() as conn:
                with shared(db.key, conn, self.round_id):
                    started = True
                    new = self.round.apply(action)
                self._stored = self.store._append(
                    conn, self.round_id, new, status_of(self.round), self._stored
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

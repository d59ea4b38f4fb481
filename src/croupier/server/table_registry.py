"""The tables this process serves, in memory: loaded from the database, created, looked up,
their seats and their status.

Each :class:`~croupier.server.live_tables.LiveTable` is built from its Rules Submission: the
game, the table's dealing (a baccarat shoe, the chapter's table procedures, or a fresh shoe a
round), the meters its wagers move, and why it deals no round where it posts no limits.  A
change of seats or status is written in the command's transaction with its event.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, insert, select, update

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import mode_of_table
from croupier.games import get_game
from croupier.games.round import Round
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import RulesSubmission, load_rules
from croupier.server import postings
from croupier.server.auth import Account
from croupier.server.ledger import Ledger
from croupier.server.live_tables import Dealing, LiveTable, ShoePerRound, Txn
from croupier.server.reported_table import ReportedPerRound
from croupier.server.shoe_floor import dealing_for
from croupier.store import Database, SqlMeters, now, rules_to_json, shared
from croupier.store.schema import live_rounds, live_tables, table_events
from croupier.table.shoe import Shuffler, StackedShoe
from croupier.table.table import Table

__all__ = ["TableRegistry", "meter_names", "rules_json"]


def rules_json(rules: RulesSubmission) -> dict[str, Any]:
    """The Rules Submission as the mapping it was read from (``load_rules`` reads it back)."""
    return (
        json.loads(json.dumps(dict(rules.raw), default=str)) if rules.raw else rules_to_json(rules)
    )


def meter_names(rnd: Round) -> list[str]:
    """Every progressive meter ``rnd``'s wagers move (its contributions and its award)."""
    names = {spec.name for _, spec in rnd.contribution_meters()}
    spec = rnd.game.meter_spec
    if spec is not None:
        names.add(spec.name)
    return sorted(names)


class TableRegistry:
    """The live tables by id (:attr:`tables`), and the changes of a table between rounds."""

    def __init__(
        self,
        db: Database,
        shuffler: Shuffler,
        meters: SqlMeters,
        ledger: Ledger,
        serves: frozenset[str] | None = None,
    ) -> None:
        """``serves``: the tables this process serves (``None``: every table)."""
        self.db = db
        self.shuffler = shuffler
        self.meters = meters
        self.ledger = ledger
        self.serves = serves
        self.tables: dict[str, LiveTable] = {}
        self.seating = threading.Lock()
        """Held while a player is seated, a table another process made is loaded, or a table
        whose creation did not commit is taken off."""
        self.serialize: Callable[[Connection, str], None] = lambda conn, name: None
        """Wait in ``conn``'s transaction for the database's lock named ``name`` (held until
        it ends): PostgreSQL's advisory lock (:mod:`croupier.server.table_sync`); nothing on
        SQLite, whose one writer serializes every command.  Meters are created and funded
        under ``meter:<name>``, so that two processes (or writers) never both do it."""
        self.finder: Callable[[str], LiveTable | None] | None = None
        """A table this process has not loaded, from the database (another process made it;
        :meth:`TableSync.discover <croupier.server.table_sync.TableSync.discover>`)."""

    # -- loading and creating --------------------------------------------------------------

    def load(self, conn: Connection) -> None:
        """Every table this process serves as stored: its rules, seats, last event ``seq``
        and last round number (its rounds are resumed by :mod:`croupier.server.recovery`)."""
        rows = conn.execute(select(live_tables).order_by(live_tables.c.created_at)).all()
        for row in rows:
            if self.serves is not None and row.id not in self.serves:
                continue
            self._loaded(conn, row)

    def stored(self, conn: Connection, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as stored, not yet on the floor, where it is stored and this
        process serves it (one made by another process on the same database); its round is
        left to :func:`croupier.server.recovery.recover_table`, then :meth:`enter` puts it on
        the floor."""
        if self.serves is not None and table_id not in self.serves:
            return None
        row = conn.execute(select(live_tables).where(live_tables.c.id == table_id)).first()
        return self._stored(conn, row) if row is not None else None

    def enter(self, lt: LiveTable) -> None:
        """``lt`` takes its place on the floor."""
        self.tables[lt.id] = lt

    def _loaded(self, conn: Connection, row: Any) -> LiveTable:
        lt = self._stored(conn, row)
        self.tables[lt.id] = lt
        return lt

    def _stored(self, conn: Connection, row: Any) -> LiveTable:
        """The table of ``row`` as stored (its seats, last ``seq``, last round number)."""
        lt = self.built(row.id, row.name, json.loads(row.rules), row.status)
        for seat, player in json.loads(row.seats).items():
            lt.table.sit(int(seat), player)
        last = conn.execute(
            select(table_events.c.seq)
            .where(table_events.c.table_id == row.id)
            .order_by(table_events.c.seq.desc())
            .limit(1)
        ).scalar()
        lt.seq = int(last or 0)
        lt.numbers = int(
            conn.execute(
                select(live_rounds.c.number)
                .where(live_rounds.c.table_id == row.id)
                .order_by(live_rounds.c.number.desc())
                .limit(1)
            ).scalar()
            or 0
        )
        if lt.numbers and isinstance(lt.table, ReportedPerRound):
            lt.table.history_unknown()  # its next round counts the stub (§ 641a.8(f))
        return lt

    def place(self, table_id: str, name: str, rules: Mapping[str, Any], status: str) -> LiveTable:
        """The table ``table_id`` under ``rules`` takes its place on the floor (in memory;
        replacing the one of that id where there was one)."""
        lt = self.built(table_id, name, rules, status)
        self.tables[table_id] = lt
        return lt

    def built(self, table_id: str, name: str, rules: Mapping[str, Any], status: str) -> LiveTable:
        """The table ``table_id`` under ``rules``, not yet on the floor."""
        game = get_game(load_rules(dict(rules)))
        mode = mode_of_table(game.rules.table)  # training or real: the table's own rules say
        # A baccarat table deals one shoe coup after coup (server/live_shoe.py).
        table: Dealing | None = dealing_for(table_id, game, self.shuffler, self.meters, mode)
        if table is None:
            try:
                table = Table(game, shuffler=self.shuffler, meters=self.meters, mode=mode)
            except InvalidInput:
                table = ShoePerRound(game, self.shuffler, self.meters, mode)
        # A probe round (never dealt) names the meters the game's wagers move.
        decks = max(1, game.deck_count)
        probe = game.new_round(
            shoe=StackedShoe(list(DECK) * decks, decks=decks),
            meters=MemoryMeters(),
            players={1: "probe"},
        )
        lt = LiveTable(
            id=table_id,
            name=name,
            game=game,
            table=table,
            status=status,
            meters=tuple(meter_names(probe)),
            unposted=postings.unposted_reason(table_id, game),
        )
        if lt.unposted is not None:
            lt.status = "closed"  # set up before limits were required: it deals no round
        return lt

    def create(
        self, conn: Connection, table_id: str, name: str, rules: Mapping[str, Any]
    ) -> LiveTable:
        """A new table under a Rules Submission (validated by the game, its limits posted for
        every wager, no meter shared between training and real play: problems raise)."""
        if table_id in self.tables:
            raise IllegalAction(f"table {table_id!r} already exists")
        if not table_id or len(table_id) > 100 or not table_id.replace("-", "").isalnum():
            raise InvalidInput(f"table id {table_id!r} must be letters, digits and '-'")
        game = get_game(load_rules(dict(rules)))
        postings.verify_posted(table_id, game)
        data = rules_json(game.rules)
        lt = self.place(table_id, name, data, "open")
        try:
            postings.verify_meters_apart(self.tables, lt)
            conn.execute(
                insert(live_tables).values(
                    id=table_id,
                    name=name,
                    rules=json.dumps(data),
                    status="open",
                    seats="{}",
                    created_at=now(),
                )
            )
            spec = game.meter_spec
            if spec is not None:
                self.serialize(conn, f"meter:{spec.name}")
                with shared(self.db.key, conn, ""):
                    self.meters.ensure(spec)
                    self.ledger.fund_meters(conn, self.meters, [spec.name])
        except BaseException:
            self.forget(lt)  # placed by this call: off the floor again
            raise
        return lt

    def forget(self, placed: LiveTable) -> None:
        """Take the table ``placed`` off the floor in memory (its creation did not commit);
        not another table placed under its id meanwhile."""
        with self.seating:
            if self.tables.get(placed.id) is placed:
                del self.tables[placed.id]

    # -- looking up ------------------------------------------------------------------------

    def table(self, table_id: str) -> LiveTable:
        lt = self.tables.get(table_id)
        if lt is None and self.finder is not None:
            lt = self.finder(table_id)
        if lt is None:
            raise LookupError(f"table {table_id!r} does not exist")
        return lt

    def all(self) -> tuple[LiveTable, ...]:
        """The tables as a snapshot (another writer or request may add one meanwhile)."""
        return tuple(self.tables.values())

    def seated_at(self, player_id: str) -> dict[str, list[int]]:
        """The seats ``player_id`` holds, by table."""
        out: dict[str, list[int]] = {}
        for lt in self.all():
            mine = sorted(s for s, p in lt.seats().items() if p == player_id)
            if mine:
                out[lt.id] = mine
        return out

    # -- seats and status ------------------------------------------------------------------

    def sit(self, txn: Txn, lt: LiveTable, account: Account, seat: int) -> dict[int, str]:
        assert account.player_id is not None
        with self.seating:
            # One table a player: check and seat under one lock (two writers, two tables).
            for other in self.all():
                if other is not lt and account.player_id in other.seats().values():
                    raise IllegalAction(f"{account.player_id} is seated at table {other.id}")
            lt.table.sit(seat, account.player_id)
        self._save_seats(txn, lt)
        return lt.seats()

    def unseat(self, txn: Txn, lt: LiveTable, seats: list[int]) -> dict[int, str]:
        """The player at ``seats`` leaves them (the round's rules checked by the caller)."""
        for seat in seats:
            lt.table.leave(seat)
        self._save_seats(txn, lt)
        return lt.seats()

    def _save_seats(self, txn: Txn, lt: LiveTable) -> None:
        seats = {str(s): p for s, p in sorted(lt.seats().items())}
        txn.conn.execute(
            update(live_tables).where(live_tables.c.id == lt.id).values(seats=json.dumps(seats))
        )
        txn.emit(lt, "seats", {"seats": seats})

    def set_status(self, txn: Txn, lt: LiveTable, status: str) -> None:
        if status == "open" and lt.unposted is not None:
            raise IllegalAction(lt.unposted)
        if status == "closed" and lt.round is not None and not lt.round.is_over:
            raise IllegalAction(f"table {lt.id} has a round in play; finish or void it first")
        lt.status = status
        txn.conn.execute(update(live_tables).where(live_tables.c.id == lt.id).values(status=status))
        txn.emit(lt, "status", {"status": status})

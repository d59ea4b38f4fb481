"""The floor: live tables, their rounds, and every command committed before it is answered.

A command runs under its table's lock in one database transaction that holds everything it
changes: the round's records (:mod:`croupier.store`), the meter moves (the store's meters join
the transaction), the chip ledger rows (:mod:`croupier.server.ledger`), the events of the
table's stream and the response stored under the command's ``Idempotency-Key``.  A retry with
the same key returns the stored response and moves nothing.  Every rule is the engine's: a round
action is ``Round.verify``'d before anything changes, then ``Round.apply``'d.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import partial
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, insert, select, update

from croupier.cards import DECK
from croupier.commitment import published
from croupier.errors import CroupierError, IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.records import (
    Action,
    IrregularityKind,
    Record,
    ReportIrregularity,
)
from croupier.games.round import ActorKind, Phase, Round
from croupier.modes import mode_of_table
from croupier.progressive import MemoryMeters
from croupier.rules import RulesSubmission, load_rules
from croupier.server import postings
from croupier.server.auth import Account
from croupier.server.commit import Work, for_engine
from croupier.server.ledger import (
    CAGE,
    HANDPAY,
    Entry,
    Ledger,
    meter_account,
    player_account,
    round_entries,
    table_account,
)
from croupier.server.live_tables import (
    Dealing,
    LiveTable,
    Notifier,
    ShoePerRound,
    Txn,
    event_for,
    pov_variants,
)
from croupier.server.policy import resource, table_pov
from croupier.server.recovery import recover_tables
from croupier.server.shoe_floor import (
    cage_collects,
    coup_over,
    deal_from,
    dealing_for,
    leaving,
    load_shoes,
    shoe_view,
)
from croupier.server.snapshot import Snapshot
from croupier.server.views import round_view
from croupier.shoe import SecureShuffler, Shuffler, StackedShoe
from croupier.store import RoundStore, SqlMeters, rules_to_json
from croupier.store._db import Database, now, shared
from croupier.store.rounds import status_of
from croupier.store.schema import (
    handpays,
    idempotency,
    live_rounds,
    live_tables,
    players,
    table_events,
)
from croupier.table import Table

__all__ = [
    "Floor",
    "LiveTable",
    "Notifier",
    "Refused",
    "Txn",
    "Unauthorized",
    "event_for",
    "request_digest",
    "rules_json",
]

FLOOR = ""
"""The stream id of floor-level events."""


# The statements every command runs, built once (their compiled form is cached).
_PRIOR = select(idempotency.c.request, idempotency.c.response).where(
    idempotency.c.key == bindparam("i_key"), idempotency.c.username == bindparam("i_user")
)
_REMEMBER = insert(idempotency)
_INSERT_EVENTS = insert(table_events)


class Refused(CroupierError):
    """The account's role (or table) may not use this endpoint (HTTP 403)."""


class Unauthorized(CroupierError):
    """No valid credentials (HTTP 401)."""


def _contributions(rnd: Round) -> dict[str, Fraction]:
    return dict(rnd.contributions)


def _meter_names(rnd: Round) -> list[str]:
    names = {spec.name for _, spec in rnd.contribution_meters()}
    spec = rnd.game.meter_spec
    if spec is not None:
        names.add(spec.name)
    return sorted(names)


def rules_json(rules: RulesSubmission) -> dict[str, Any]:
    """The Rules Submission as the mapping it was read from (``load_rules`` reads it back)."""
    return (
        json.loads(json.dumps(dict(rules.raw), default=str)) if rules.raw else rules_to_json(rules)
    )


def request_digest(method: str, path: str, body: Any) -> str:
    text = json.dumps([method, path, body], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Floor:
    """Every table, the meters, the ledger; the commands of the API (see :mod:`api`)."""

    def __init__(
        self,
        engine: Engine,
        *,
        shuffler: Shuffler | None = None,
        tables: frozenset[str] | None = None,
    ) -> None:
        """``shuffler``: :class:`SecureShuffler` by default, the only one a real table takes;
        a training table (``[table] training``, :mod:`croupier.server.postings`) may be given
        one that stacks the deck.  ``tables``: the tables this process serves (each table's
        rounds live in one process; several share the database, its ledger and its linked
        meters); ``None``: every table."""
        self.engine = engine
        self.serves = tables
        self.db = Database(engine)
        self.store = RoundStore(engine)
        self.meters = SqlMeters(engine)
        self.ledger = Ledger()
        self.shuffler: Shuffler = shuffler if shuffler is not None else SecureShuffler()
        self.tables: dict[str, LiveTable] = {}
        self.notifier = Notifier()
        self.floor_seq = 0
        self._floor_lock = threading.Lock()
        self._seating_lock = threading.Lock()
        self.committer = for_engine(engine)
        self._players: dict[str, Mapping[int, str]] = {}

    # -- loading -----------------------------------------------------------------------------

    def load(self) -> None:
        """Rebuild the floor from the database; every round left open resumes exactly from its
        records and persisted shoe, or is held for a supervisor's void where the chapter voids
        it (:mod:`croupier.server.recovery`)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(live_tables).order_by(live_tables.c.created_at)).all()
            for row in rows:
                if self.serves is not None and row.id not in self.serves:
                    continue
                lt = self._live(row.id, row.name, json.loads(row.rules), row.status)
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
        recover_tables(self)
        load_shoes(self)

    def _live(self, table_id: str, name: str, rules: Mapping[str, Any], status: str) -> LiveTable:
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
            meters=tuple(_meter_names(probe)),
            unposted=postings.unposted_reason(table_id, game),
        )
        if lt.unposted is not None:
            lt.status = "closed"  # set up before limits were required: it deals no round
        self.tables[table_id] = lt
        return lt

    def create_table(
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
        lt = self._live(table_id, name, data, "open")
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
            with shared(self.db.key, conn, ""):
                self.meters.ensure(spec)
                self._reconcile_meters(conn, [spec.name])
        return lt

    def create_player(self, conn: Connection, player_id: str, name: str) -> None:
        if conn.execute(select(players.c.id).where(players.c.id == player_id)).first():
            raise IllegalAction(f"player {player_id!r} already exists")
        conn.execute(insert(players).values(id=player_id, name=name, created_at=now()))

    # -- the command transaction ---------------------------------------------------------------

    def live_tables(self) -> tuple[LiveTable, ...]:
        """The tables as a snapshot (another writer or request may add one meanwhile)."""
        return tuple(self.tables.values())

    def table(self, table_id: str) -> LiveTable:
        lt = self.tables.get(table_id)
        if lt is None:
            raise LookupError(f"table {table_id!r} does not exist")
        return lt

    def command(
        self,
        account: Account,
        key: str,
        digest: str,
        table_id: str | None,
        run: Callable[[Txn], dict[str, Any]],
    ) -> dict[str, Any]:
        """Run ``run`` once per ``key``: returned only after its transaction committed (a group
        commit with the other commands waiting, :mod:`croupier.server.commit`)."""
        if not key or len(key) > 200:
            raise InvalidInput("every command carries an Idempotency-Key header (1-200 characters)")
        lt = self.tables.get(table_id) if table_id else None
        saved: list[Snapshot] = []

        def work(conn: Connection) -> tuple[dict[str, Any], Callable[[], None] | None]:
            saved.append(Snapshot.of(self, lt))
            prior = conn.execute(_PRIOR, {"i_key": key, "i_user": account.username}).first()
            if prior is not None:
                if prior.request != digest:
                    raise IllegalAction(f"Idempotency-Key {key!r} was used for a different request")
                stored: dict[str, Any] = json.loads(prior.response)
                return stored, None
            txn = Txn(conn)
            result = run(txn)
            written = self._write_events(txn)
            if lt is not None and "seq" in result:
                result["seq"] = lt.seq
            conn.execute(
                _REMEMBER,
                {
                    "key": key,
                    "username": account.username,
                    "request": digest,
                    "status": 200,
                    "response": json.dumps(result),
                    "at": now(),
                },
            )
            return result, partial(self._publish, written)

        def undo(conn: Connection | None = None) -> None:
            if saved:
                saved.pop().restore(self, conn)

        locks = (lt.lock,) if lt is not None else ()
        return self.committer.submit(Work(work, undo, locks))

    def _publish(
        self, written: dict[str, list[tuple[int, str, dict[str, Any], str | None]]]
    ) -> None:
        """After the commit: the events written join their table's recent events (which the
        streams read without the database) and the streams waiting on them wake."""
        for stream, events in written.items():
            lt = self.tables.get(stream)
            if lt is not None:
                lt.published(events)
            self.notifier.notify(stream)
        with self._floor_lock:
            self.floor_seq += 1
        self.notifier.notify(FLOOR)

    def _write_events(
        self, txn: Txn
    ) -> dict[str, list[tuple[int, str, dict[str, Any], str | None]]]:
        at = now()
        written: dict[str, list[tuple[int, str, dict[str, Any], str | None]]] = {}
        for stream, events in txn.events.items():
            lt = self.tables[stream]
            rows = []
            for type_, data, rid in events:
                lt.seq += 1
                written.setdefault(stream, []).append((lt.seq, type_, data, rid))
                rows.append(
                    {
                        "table_id": stream,
                        "seq": lt.seq,
                        "type": type_,
                        "round_id": rid,
                        "data": json.dumps(data),
                        "at": at,
                    }
                )
            txn.conn.execute(_INSERT_EVENTS, rows)
        return written

    @staticmethod
    def emit(txn: Txn, lt: LiveTable, type_: str, data: dict[str, Any]) -> None:
        txn.events.setdefault(lt.id, []).append((type_, data, lt.round_id))

    # -- round actions -------------------------------------------------------------------------

    def _reconcile_meters(self, conn: Connection, names: list[str]) -> None:
        """The house funds a meter up to its amount where the ledger is behind (its reset)."""
        entries = []
        for name in names:
            gap = self.meters.exact(name) - self.ledger.balance(conn, meter_account(name))
            if gap > 0:
                entries.append(Entry("house", meter_account(name), gap, "reset"))
        self.ledger.post(conn, entries)

    def apply(self, txn: Txn, lt: LiveTable, action: Action) -> tuple[Record, ...]:
        """Verify and apply one round action, with its records, ledger rows and events."""
        rnd = self._current(lt)
        rnd.verify(action)
        postings.verify_funds(self.ledger, txn.conn, rnd, action)
        return self._moves(txn, lt, rnd, lambda: rnd.apply(action))

    def _moves(
        self, txn: Txn, lt: LiveTable, rnd: Round, play: Callable[[], Sequence[Record]]
    ) -> tuple[Record, ...]:
        """``play()`` moves the round (one action, or the dealer's steps in a row); its
        records, the ledger rows of what they moved, hand-pays and events, written once."""
        assert lt.round_id is not None
        conn = txn.conn
        with shared(self.db.key, conn, lt.round_id):
            names = _meter_names(rnd)
            # Lock each meter's ledger account first (sorted, the same order in every command):
            # a linked table's contribution cannot commit between this read and our move.
            before = {m: self.ledger.balance(conn, meter_account(m), lock=True) for m in names}
            stakes = {s: dict(w) for s, w in rnd.stakes.items()}
            contributed = _contributions(rnd)
            new = tuple(play())
            after = {m: self.meters.exact(m) for m in names}
        now_contrib = _contributions(rnd)
        delta = {
            m: now_contrib.get(m, Fraction(0)) - contributed.get(m, Fraction(0))
            for m in set(now_contrib) | set(contributed)
        }
        entries, pays = round_entries(
            table=lt.id,
            players=rnd.players,
            stakes_before=stakes,
            stakes_after=rnd.stakes,
            records=new,
            contributions=delta,
            meters_before=before,
            meters_after=after,
        )
        if rnd.is_over:
            # The table's chips go to the house (or come from it) when the round ends.
            balance = self.ledger.balance(conn, table_account(lt.id))
            for e in entries:
                if e.dest == table_account(lt.id):
                    balance += e.amount
                if e.source == table_account(lt.id):
                    balance -= e.amount
            if balance > 0:
                entries.append(Entry(table_account(lt.id), "house", balance, "round_won"))
            elif balance < 0:
                entries.append(Entry("house", table_account(lt.id), -balance, "round_lost"))
        self.ledger.post(conn, entries, table_id=lt.id, round_id=lt.round_id)
        for pay in pays:
            conn.execute(
                insert(handpays).values(
                    table_id=lt.id,
                    round_id=lt.round_id,
                    seat=pay.seat,
                    player_id=rnd.players[pay.seat],
                    meter=pay.meter,
                    line=pay.line,
                    amount=pay.amount,
                    status="pending",
                    at=now(),
                )
            )
        lt.stored = self.store._append(conn, lt.round_id, new, status_of(rnd), lt.stored)
        if rnd.is_over:
            conn.execute(
                update(live_rounds)
                .where(live_rounds.c.round_id == lt.round_id)
                .values(state=rnd.phase.value)
            )
            coup_over(self, txn, lt, rnd)  # a baccarat shoe moves on (markers, cut card)
        for rec in new:
            self.emit(txn, lt, "record", pov_variants(rec))
        self.emit(txn, lt, "phase", self._phase_data(rnd))
        return new

    @staticmethod
    def _phase_data(rnd: Round) -> dict[str, Any]:
        actor = rnd.to_act()
        return {"phase": rnd.phase.value, "to_act": str(actor), "to_act_seat": actor.seat}

    def _current(self, lt: LiveTable) -> Round:
        if lt.round is None or lt.round_id is None:
            raise IllegalAction(f"table {lt.id} has no round in play; the dealer opens one")
        if lt.held is not None:
            raise IllegalAction(f"round {lt.round_id} is held for a supervisor's void: {lt.held}")
        return lt.round

    def begin_round(
        self, txn: Txn, lt: LiveTable, cut_at: int | None, stack: str | None = None
    ) -> str:
        """The dealer opens the next round: the table shuffles/cuts as its procedures say; a
        training table deals ``stack`` (top first) first (:func:`postings.stack_next`)."""
        if lt.status != "open":
            raise IllegalAction(lt.unposted or f"table {lt.id} is closed")
        if lt.round is not None and not lt.round.is_over:
            if lt.held is not None:
                raise IllegalAction(f"round {lt.round_id} is held for a supervisor's void")
            raise IllegalAction(f"round {lt.round_id} is still in play ({lt.round.phase.value})")
        pending = txn.conn.execute(
            select(handpays.c.id).where(
                handpays.c.table_id == lt.id, handpays.c.status == "pending"
            )
        ).first()
        if pending is not None:
            raise IllegalAction(
                f"hand-pay {pending.id} at table {lt.id} waits for a supervisor's approval "
                "before the next round (§ 641a.11(c)(5)(iv))"
            )
        number = lt.numbers + 1
        rid = f"{lt.id}-{number:06d}"
        # The rounds before are in the store: memory holds only the last (undone with the
        # rest of the command when it does not commit, :meth:`Table.restore`).
        lt.table.forget_played()
        if stack is not None:
            postings.stack_next(lt, stack)
        with shared(self.db.key, txn.conn, rid):
            rnd = lt.table.new_round(cut_at=cut_at)
            names = _meter_names(rnd)
            self._reconcile_meters(txn.conn, names)
        at = now()
        # The round's hashed header, and its shoe order apart from the records (server side).
        self.store._begin(
            txn.conn,
            rid,
            lt.game,
            rnd.players,
            rnd.stub_check,
            rnd.mode,
            rules=rules_json(lt.game.rules),
        )
        shoe, extra = deal_from(self, txn, lt, rid, rnd)
        txn.conn.execute(
            insert(live_rounds).values(
                round_id=rid, table_id=lt.id, number=number, state="open", created_at=at
            )
        )
        lt.round, lt.round_id, lt.numbers, lt.held = rnd, rid, number, None
        lt.stored = self.store._append(txn.conn, rid, rnd.records, status_of(rnd), 0)
        # Provable deals: the commitment to the order is public before any wager.
        deal = published(shoe.commitment)
        data = {"round_id": rid, "number": number, **self._phase_data(rnd), "deal": deal, **extra}
        data["training"] = postings.is_training(lt.game)
        self.emit(txn, lt, "round", data)
        return rid

    def dealer_steps(self, txn: Txn, lt: LiveTable, phases: tuple[Phase, ...]) -> list[Record]:
        """The dealer's regular steps while the round is in one of ``phases`` and no seat
        must act (deal: chance steps; reveal; settle)."""
        rnd = self._current(lt)
        done: list[Record] = []
        if rnd.phase not in phases:
            raise IllegalAction(
                f"round {lt.round_id} is in phase {rnd.phase.value}; this step is for "
                + ", ".join(p.value for p in phases)
            )

        def steps() -> list[Record]:
            for _ in range(10_000):
                if rnd.is_over or rnd.phase not in phases or rnd.to_act().kind is ActorKind.SEAT:
                    break
                if rnd.phase is Phase.STUB_COUNT:
                    break
                done.extend(rnd.apply(rnd.dealer_step()))
            return done

        # The steps in a row are one move: their records, ledger rows and events written once.
        return list(self._moves(txn, lt, rnd, steps))

    def void(self, txn: Txn, lt: LiveTable, by: str, reason: str) -> list[Record]:
        """A supervisor voids the current round: every open wager goes back exactly once."""
        if lt.round is None or lt.round_id is None or lt.round.is_over:
            raise IllegalAction(f"table {lt.id} has no round in play to void")
        if not reason.strip():
            raise InvalidInput("a void names its reason")
        lt.held = None
        rnd = lt.round
        # The engine's supervisor void; irregularity voids follow the chapter (§ 641a.13(b)).
        action = _void_action(rnd, by, reason)
        return list(self.apply(txn, lt, action))

    # -- chips ---------------------------------------------------------------------------------

    def buy_in(self, txn: Txn, player_id: str, amount: int) -> Fraction:
        self._verify_player(txn.conn, player_id)
        self._verify_amount(amount)
        self.ledger.post(
            txn.conn, [Entry(CAGE, player_account(player_id), Fraction(amount), "buy_in")]
        )
        self._chips_moved(txn, player_id, "buy_in")
        return self.ledger.balance(txn.conn, player_account(player_id))

    def cash_out(self, txn: Txn, player_id: str, amount: int) -> Fraction:
        self._verify_player(txn.conn, player_id)
        self._verify_amount(amount)
        for lt in self.live_tables():
            if player_id in lt.seats().values() and lt.round is not None and not lt.round.is_over:
                raise IllegalAction(
                    f"{player_id} is in a round at table {lt.id}; cash out after it"
                )
        cage_collects(self, txn, player_id, amount)
        self.ledger.post(
            txn.conn, [Entry(player_account(player_id), CAGE, Fraction(amount), "cash_out")]
        )
        self._chips_moved(txn, player_id, "cash_out")
        return self.ledger.balance(txn.conn, player_account(player_id))

    def _chips_moved(self, txn: Txn, player_id: str, kind: str) -> None:
        """A ``chips`` event at each table where the player sits, so the player's device
        reads its new balance; the amount is not in it (the other seats see the event)."""
        for lt in self.live_tables():
            seats = sorted(s for s, p in lt.seats().items() if p == player_id)
            if seats:
                self.emit(txn, lt, "chips", {"seats": seats, "kind": kind})

    def approve_handpay(self, txn: Txn, handpay_id: int, by: str) -> dict[str, Any]:
        row = txn.conn.execute(select(handpays).where(handpays.c.id == handpay_id)).first()
        if row is None:
            raise LookupError(f"hand-pay {handpay_id} does not exist")
        if row.status != "pending":
            raise IllegalAction(f"hand-pay {handpay_id} is already {row.status}")
        self.ledger.post(
            txn.conn,
            [Entry(HANDPAY, player_account(row.player_id), Fraction(row.amount), "handpay")],
            table_id=row.table_id,
            round_id=row.round_id,
        )
        txn.conn.execute(
            update(handpays)
            .where(handpays.c.id == handpay_id)
            .values(status="approved", approved_by=by)
        )
        lt = self.tables.get(row.table_id)
        if lt is not None:
            self.emit(
                txn, lt, "handpay", {"id": handpay_id, "status": "approved", "amount": row.amount}
            )
        return {
            "id": handpay_id,
            "status": "approved",
            "amount": row.amount,
            "player_id": row.player_id,
        }

    @staticmethod
    def _verify_amount(amount: int) -> None:
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10**12:
            raise InvalidInput(f"amount {amount!r} must be whole cents, 1 to 10^12")

    @staticmethod
    def _verify_player(conn: Connection, player_id: str) -> None:
        if conn.execute(select(players.c.id).where(players.c.id == player_id)).first() is None:
            raise LookupError(f"player {player_id!r} does not exist")

    # -- seats ---------------------------------------------------------------------------------

    def sit(self, txn: Txn, lt: LiveTable, account: Account, seat: int) -> dict[int, str]:
        assert account.player_id is not None
        with self._seating_lock:
            # One table a player: check and seat under one lock (two writers, two tables).
            for other in self.live_tables():
                if other is not lt and account.player_id in other.seats().values():
                    raise IllegalAction(f"{account.player_id} is seated at table {other.id}")
            lt.table.sit(seat, account.player_id)
        self._save_seats(txn, lt)
        return lt.seats()

    def leave(self, txn: Txn, lt: LiveTable, account: Account) -> dict[int, str]:
        mine = [s for s, p in lt.seats().items() if p == account.player_id]
        if not mine:
            raise IllegalAction(f"{account.player_id} has no seat at table {lt.id}")
        rnd = lt.round
        if rnd is not None and not rnd.is_over and set(mine) & set(rnd.active_seats):
            # § 641a.7(b): a seat with a wager in the round stays until the round ends (also a
            # round resumed after a restart, which the table's own bookkeeping does not hold).
            raise IllegalAction(f"{account.player_id} has wagered in round {lt.round_id}")
        leaving(self, txn, lt, str(account.player_id))  # § 541.13(g): markers collected
        for seat in mine:
            lt.table.leave(seat)
        self._save_seats(txn, lt)
        return lt.seats()

    def _save_seats(self, txn: Txn, lt: LiveTable) -> None:
        seats = {str(s): p for s, p in sorted(lt.seats().items())}
        txn.conn.execute(
            update(live_tables).where(live_tables.c.id == lt.id).values(seats=json.dumps(seats))
        )
        self.emit(txn, lt, "seats", {"seats": seats})

    def set_status(self, txn: Txn, lt: LiveTable, status: str) -> None:
        if status == "open" and lt.unposted is not None:
            raise IllegalAction(lt.unposted)
        if status == "closed" and lt.round is not None and not lt.round.is_over:
            raise IllegalAction(f"table {lt.id} has a round in play; finish or void it first")
        lt.status = status
        txn.conn.execute(update(live_tables).where(live_tables.c.id == lt.id).values(status=status))
        self.emit(txn, lt, "status", {"status": status})

    # -- reading -------------------------------------------------------------------------------

    def view(self, account: Account, lt: LiveTable) -> dict[str, Any]:
        """The table and its round as the access policy lets ``account`` see them, committed
        state only: read under the table's lock, which a command holds from its first change
        until its transaction committed (or its changes were undone)."""
        # A meter exists once a table has first opened a round on it.
        meters = {m: v for m, v in self.meters.snapshot().items() if m in lt.meters}
        with lt.lock:
            data: dict[str, Any] = {
                "table_id": lt.id,
                "training": postings.is_training(lt.game),
                "round_id": lt.round_id,
                "seq": lt.seq,
                "held": lt.held,
                "seats": {str(s): p for s, p in sorted(lt.seats().items())},
                "meters": meters,
            }
            if lt.round is not None:
                pov = table_pov(resource("GET", "/api/tables/{table_id}/view"), account, lt)
                data["round"] = round_view(lt.round, pov)
            data.update(shoe_view(lt))
        return data

    def events(
        self, table_id: str, since: int, limit: int = 500
    ) -> list[tuple[int, str, dict[str, Any], str | None]]:
        """The table's committed events after ``since``: ``(seq, type, data, round_id)``;
        the recent ones from memory (each published once its transaction committed)."""
        lt = self.tables.get(table_id)
        recent = lt.recent_events(since, limit) if lt is not None else []
        if recent is None or recent:
            return recent or []
        with self.db.read() as conn:
            rows = conn.execute(
                select(
                    table_events.c.seq,
                    table_events.c.type,
                    table_events.c.data,
                    table_events.c.round_id,
                )
                .where(table_events.c.table_id == table_id, table_events.c.seq > since)
                .order_by(table_events.c.seq)
                .limit(limit)
            ).all()
        return [(r.seq, r.type, json.loads(r.data), r.round_id) for r in rows]

    def players_of(self, round_id: str) -> Mapping[int, str]:
        """Who sat where in the committed round ``round_id`` (its stored header; cached)."""
        found = self._players.get(round_id)
        if found is None:
            found = self.store.info(round_id).players
            if len(self._players) >= 4096:
                self._players.pop(next(iter(self._players)), None)
            self._players[round_id] = found
        return found

    def players_cached(self, round_id: str) -> Mapping[int, str] | None:
        """:meth:`players_of` if this process holds it already (no database read), else
        ``None``."""
        return self._players.get(round_id)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.db.read() as conn:
            yield conn


def _void_action(rnd: Round, by: str, reason: str) -> Action:
    from croupier.games import records

    void_round = getattr(records, "VoidRound", None)
    if void_round is not None:
        action: Action = void_round(by=by, reason=reason)
        return action
    # Without the engine's supervisor void: the chapter's irregularity void (§ 641a.13(b)).
    return ReportIrregularity(kind=IrregularityKind.WRONG_CARD_COUNT)

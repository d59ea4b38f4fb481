"""The round service: an engine action, its records, its ledger rows and its events, in one
place.

Every rule is the engine's: a round action is ``Round.verify``'d (and the player's chips
checked, :func:`croupier.server.postings.verify_funds`) before anything changes, then
``Round.apply``'d.  What the action moved is written in the command's transaction
(:class:`~croupier.server.live_tables.Txn`): the round's records
(:class:`croupier.store.RoundStore`, hash-chained), the meter moves (the store's meters join the
transaction), the chip ledger rows derived from the stakes and records
(:func:`croupier.server.ledger.round_entries`), the hand-pays waiting for a supervisor, and the
table's events (each record in every form a point of view may see it,
:func:`~croupier.server.live_tables.pov_variants`, then the phase).  The command layer
(:mod:`croupier.server.commands`) runs it under the table's lock and commits it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy import insert, select, update

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import Action, IrregularityKind, Record, ReportIrregularity
from croupier.games.round import ActorKind, Phase, Round
from croupier.server import postings
from croupier.server.ledger import Entry, Ledger, meter_account, round_entries, table_account
from croupier.server.live_tables import LiveTable, Txn, pov_variants
from croupier.server.shoe_floor import coup_over, deal_from, leaving
from croupier.server.table_registry import TableRegistry, meter_names, rules_json
from croupier.store import Database, RoundStore, SqlMeters, now, shared
from croupier.store.rounds import status_of
from croupier.store.schema import handpays, live_rounds
from croupier.table.commitment import published

__all__ = ["RoundService"]

DEALER_STEPS = 10_000
"""Most dealer steps one command takes (a round ends long before)."""


class RoundService:
    """Moves the rounds of the floor's tables: opens one, applies a seat's or the dealer's
    action, the dealer's regular steps, a supervisor's void, a player leaving."""

    def __init__(
        self,
        db: Database,
        store: RoundStore,
        meters: SqlMeters,
        ledger: Ledger,
        registry: TableRegistry,
    ) -> None:
        self.db = db
        self.store = store
        self.meters = meters
        self.ledger = ledger
        self.registry = registry

    # -- a round's life ----------------------------------------------------------------------

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
            # The meters' locks first (sorted: two tables never wait for each other), then
            # their rows: the round locks each meter's row as it is made (``SqlMeters.ensure``),
            # and a table being made takes the meter's lock, then its row.  In the other order
            # the two waited for each other (PostgreSQL: a deadlock, a command refused).
            for name in lt.meters:
                self.registry.serialize(txn.conn, f"meter:{name}")
            rnd = lt.table.new_round(cut_at=cut_at)
            for name in meter_names(rnd):
                if name not in lt.meters:  # none: the table's meters are its game's
                    self.registry.serialize(txn.conn, f"meter:{name}")
            self.ledger.fund_meters(txn.conn, self.meters, meter_names(rnd))
        at = now()
        # The round's hashed header, and its shoe order apart from the records (server side).
        self.store.begin_in(
            txn.conn,
            rid,
            lt.game,
            rnd.players,
            rnd.stub_check,
            rnd.mode,
            rules=rules_json(lt.game.rules),
        )
        shoe, extra = deal_from(self.store, txn, lt, rid, rnd)
        txn.conn.execute(
            insert(live_rounds).values(
                round_id=rid, table_id=lt.id, number=number, state="open", created_at=at
            )
        )
        lt.round, lt.round_id, lt.numbers, lt.held = rnd, rid, number, None
        lt.stored = self.store.append_in(txn.conn, rid, rnd.records, status_of(rnd), 0)
        # Provable deals: the commitment to the order is public before any wager.
        deal = published(shoe.commitment) if shoe is not None else None
        data = {"round_id": rid, "number": number, **_phase_data(rnd), "deal": deal, **extra}
        data["training"] = postings.is_training(lt.game)
        txn.emit(lt, "round", data)
        return rid

    def apply(self, txn: Txn, lt: LiveTable, action: Action) -> tuple[Record, ...]:
        """Verify and apply one round action, with its records, ledger rows and events."""
        rnd = self.current(lt)
        rnd.verify(action)
        postings.verify_funds(self.ledger, txn.conn, rnd, action)
        return self._moves(txn, lt, rnd, lambda: rnd.apply(action))

    def dealer_steps(self, txn: Txn, lt: LiveTable, phases: tuple[Phase, ...]) -> list[Record]:
        """The dealer's regular steps while the round is in one of ``phases`` and no seat
        must act (deal: chance steps; reveal; settle)."""
        rnd = self.current(lt)
        done: list[Record] = []
        if rnd.phase not in phases:
            raise IllegalAction(
                f"round {lt.round_id} is in phase {rnd.phase.value}; this step is for "
                + ", ".join(p.value for p in phases)
            )

        def steps() -> list[Record]:
            for _ in range(DEALER_STEPS):
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
        # The engine's supervisor void; irregularity voids follow the chapter (§ 641a.13(b)).
        return list(self.apply(txn, lt, _void_action(by, reason)))

    def leave(self, txn: Txn, lt: LiveTable, player_id: str | None) -> dict[int, str]:
        """``player_id`` leaves their seats at ``lt`` (never a seat wagering in the round)."""
        mine = [s for s, p in lt.seats().items() if p == player_id]
        if not mine:
            raise IllegalAction(f"{player_id} has no seat at table {lt.id}")
        rnd = lt.round
        if rnd is not None and not rnd.is_over and set(mine) & set(rnd.active_seats):
            # § 641a.7(b): a seat with a wager in the round stays until the round ends (also a
            # round resumed after a restart, which the table's own bookkeeping does not hold).
            raise IllegalAction(f"{player_id} has wagered in round {lt.round_id}")
        leaving(self.ledger, txn, lt, str(player_id))  # § 541.13(g): markers collected
        return self.registry.unseat(txn, lt, mine)

    def current(self, lt: LiveTable) -> Round:
        """The round in play at ``lt`` (refused where there is none, or it is held)."""
        if lt.round is None or lt.round_id is None:
            raise IllegalAction(f"table {lt.id} has no round in play; the dealer opens one")
        if lt.held is not None:
            raise IllegalAction(f"round {lt.round_id} is held for a supervisor's void: {lt.held}")
        return lt.round

    # -- what a move writes ------------------------------------------------------------------

    def _moves(
        self, txn: Txn, lt: LiveTable, rnd: Round, play: Callable[[], Sequence[Record]]
    ) -> tuple[Record, ...]:
        """``play()`` moves the round (one action, or the dealer's steps in a row); its
        records, the ledger rows of what they moved, hand-pays and events, written once."""
        assert lt.round_id is not None
        conn = txn.conn
        with shared(self.db.key, conn, lt.round_id):
            names = meter_names(rnd)
            # Lock each meter's ledger account first (sorted, the same order in every command):
            # a linked table's contribution cannot commit between this read and our move.
            before = {m: self.ledger.balance(conn, meter_account(m), lock=True) for m in names}
            stakes = {s: dict(w) for s, w in rnd.stakes.items()}
            contributed = dict(rnd.contributions)
            new = tuple(play())
            after = {m: self.meters.exact(m) for m in names}
        now_contrib = dict(rnd.contributions)
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
            entries.extend(self._round_result(txn, lt, entries))
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
        lt.stored = self.store.append_in(conn, lt.round_id, new, status_of(rnd), lt.stored)
        if rnd.is_over:
            conn.execute(
                update(live_rounds)
                .where(live_rounds.c.round_id == lt.round_id)
                .values(state=rnd.phase.value)
            )
            coup_over(self.ledger, txn, lt, rnd)  # a baccarat shoe moves on (markers, cut card)
        for rec in new:
            txn.emit(lt, "record", pov_variants(rec))
        txn.emit(lt, "phase", _phase_data(rnd))
        return new

    def _round_result(self, txn: Txn, lt: LiveTable, entries: list[Entry]) -> list[Entry]:
        """The round is over: the table's chips go to the house (or come from it)."""
        account = table_account(lt.id)
        balance = self.ledger.balance(txn.conn, account)
        for e in entries:
            if e.dest == account:
                balance += e.amount
            if e.source == account:
                balance -= e.amount
        if balance > 0:
            return [Entry(account, "house", balance, "round_won")]
        if balance < 0:
            return [Entry("house", account, -balance, "round_lost")]
        return []


def _phase_data(rnd: Round) -> dict[str, Any]:
    actor = rnd.to_act()
    return {"phase": rnd.phase.value, "to_act": str(actor), "to_act_seat": actor.seat}


def _void_action(by: str, reason: str) -> Action:
    from croupier.games import records

    void_round = getattr(records, "VoidRound", None)
    if void_round is not None:
        action: Action = void_round(by=by, reason=reason)
        return action
    # Without the engine's supervisor void: the chapter's irregularity void (§ 641a.13(b)).
    return ReportIrregularity(kind=IrregularityKind.WRONG_CARD_COUNT)

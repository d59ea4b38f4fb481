"""The cage: players, their chips and the hand-pays a supervisor approves.

Each movement is a chip ledger transaction (:class:`~croupier.server.ledger.Ledger`) in the
command's transaction, with a ``chips`` or ``handpay`` event at the tables it concerns.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, insert, select, update

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.server.ledger import CAGE, HANDPAY, Entry, Ledger, player_account
from croupier.server.live_tables import Txn
from croupier.server.shoe_floor import cage_collects
from croupier.server.table_registry import TableRegistry
from croupier.store import now
from croupier.store.schema import handpays, players

__all__ = ["Cage"]

MAX_AMOUNT = 10**12
"""The largest buy-in or cash-out, in cents."""


class Cage:
    """Buy-ins, cash-outs, new players and hand-pay approvals."""

    def __init__(self, ledger: Ledger, registry: TableRegistry) -> None:
        self.ledger = ledger
        self.registry = registry

    def create_player(self, conn: Connection, player_id: str, name: str) -> None:
        if conn.execute(select(players.c.id).where(players.c.id == player_id)).first():
            raise IllegalAction(f"player {player_id!r} already exists")
        conn.execute(insert(players).values(id=player_id, name=name, created_at=now()))

    def buy_in(self, txn: Txn, player_id: str, amount: int) -> Fraction:
        _verify_player(txn.conn, player_id)
        _verify_amount(amount)
        self.ledger.post(
            txn.conn, [Entry(CAGE, player_account(player_id), Fraction(amount), "buy_in")]
        )
        self._chips_moved(txn, player_id, "buy_in")
        return self.ledger.balance(txn.conn, player_account(player_id))

    def cash_out(self, txn: Txn, player_id: str, amount: int) -> Fraction:
        _verify_player(txn.conn, player_id)
        _verify_amount(amount)
        for lt in self.registry.all():
            if player_id in lt.seats().values() and lt.round is not None and not lt.round.is_over:
                raise IllegalAction(
                    f"{player_id} is in a round at table {lt.id}; cash out after it"
                )
        cage_collects(self.ledger, txn, player_id, amount)
        self.ledger.post(
            txn.conn, [Entry(player_account(player_id), CAGE, Fraction(amount), "cash_out")]
        )
        self._chips_moved(txn, player_id, "cash_out")
        return self.ledger.balance(txn.conn, player_account(player_id))

    def _chips_moved(self, txn: Txn, player_id: str, kind: str) -> None:
        """A ``chips`` event at each table where the player sits, so the player's device
        reads its new balance; the amount is not in it (the other seats see the event)."""
        for table_id, seats in self.registry.seated_at(player_id).items():
            txn.emit(self.registry.table(table_id), "chips", {"seats": seats, "kind": kind})

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
        lt = self.registry.tables.get(row.table_id)
        if lt is not None:
            txn.emit(lt, "handpay", {"id": handpay_id, "status": "approved", "amount": row.amount})
        return {
            "id": handpay_id,
            "status": "approved",
            "amount": row.amount,
            "player_id": row.player_id,
        }


def _verify_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        raise InvalidInput(f"amount {amount!r} must be whole cents, 1 to 10^12")


def _verify_player(conn: Connection, player_id: str) -> None:
    if conn.execute(select(players.c.id).where(players.c.id == player_id)).first() is None:
        raise LookupError(f"player {player_id!r} does not exist")

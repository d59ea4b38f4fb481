"""Coups at the demo floor's baccarat tables over HTTP, and the chip ledger read from the
database (the tests of the live baccarat shoe and of deferred commission)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import create_engine, select

from croupier.faces.client import Client
from croupier.store.schema import chip_ledger

__all__ = ["MINI", "Coup", "coup", "ledger_rows", "net_moves"]

MINI = "mini-baccarat"
"""The demo Minibaccarat table: 5% commission marked and collected later (``collect =
"deferred"``, § 541.13(g))."""

STEPS = {"dealing": "deal", "reveal": "reveal", "settlement": "settle"}


@dataclass(frozen=True)
class Coup:
    round_id: str
    settlement: dict[str, Any]
    """Per seat (``"1"``..): wagers, ``net`` and, where the seat has one, ``vig``."""

    def marked(self, seat: int) -> int:
        return int(self.settlement.get(str(seat), {}).get("vig", {}).get("marked", 0))

    def net(self, seat: int) -> int:
        return int(self.settlement.get(str(seat), {}).get("net", 0))


def coup(
    dealer: Client,
    supervisor: Client,
    players: Mapping[int, Client],
    wagers: Mapping[int, Mapping[str, int]],
    table: str = MINI,
) -> Coup:
    """One coup at ``table``: each seat's ``wagers``, "no more bets", the dealer's steps to the
    end; its settlement as the supervisor reads it."""
    rid = str(dealer.new_round(table)["round_id"])
    for seat, placed in sorted(wagers.items()):
        for wager, amount in placed.items():
            players[seat].wager(table, wager, amount, seat=seat)
    last = dealer.no_more_bets(table, 0)
    for _ in range(20):
        if last["phase"] in ("over", "void"):
            return Coup(rid, supervisor.records(rid)["settlement"])
        last = dealer.step(table, STEPS[str(last["phase"])])
    raise AssertionError(f"coup {rid} did not finish: {last['phase']}")


def ledger_rows(db_url: str) -> list[Any]:
    """Every chip ledger row, in order (read from the database)."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(chip_ledger).order_by(chip_ledger.c.id)).all())
    finally:
        engine.dispose()


def net_moves(rows: list[Any], round_id: str, player_id: str) -> Fraction:
    """The change of ``player:<id>`` plus ``commission:<id>`` over the round's ledger rows
    (contract 1: it equals the engine's net for the player's seats)."""
    accounts = (f"player:{player_id}", f"commission:{player_id}")
    return sum(
        (Fraction(r.amount) for r in rows if r.round_id == round_id and r.account in accounts),
        Fraction(0),
    )

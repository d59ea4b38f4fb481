"""Rounds played over HTTP with chosen wagers and decisions, and the chip ledger of a stopped
server's database rewritten by hand (to recreate a defect as the code once wrote it), for the
reconciliation tests (test_live_reconcile.py, test_live_let_it_ride_pull.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, delete, select, update

from croupier.faces.bots import DECISIONS
from croupier.faces.client import ApiError, Client
from croupier.server.ledger import Entry, Ledger
from croupier.store.schema import chip_accounts, chip_ledger

STEPS = {"reveal": "reveal", "settlement": "settle"}


def dealer_to(
    dealer: Client, table: str, last: Mapping[str, Any], seats: Iterable[int]
) -> dict[str, Any]:
    """The dealer's steps until one of ``seats`` has a decision to take or the round is over
    (bounded); the last command's answer."""
    waiting = {f"seat {s}" for s in seats}
    out = dict(last)
    for _ in range(80):
        phase = str(out["phase"])
        if phase in ("over", "void") or (phase == "decisions" and out["to_act"] in waiting):
            return out
        if phase == "stub_count":
            view = dealer.view(table)["round"]
            decks = int(dealer.table(table)["rules"].get("table", {}).get("decks", 1))
            dealt = sum(
                r["kind"] in ("card_dealt", "card_hidden", "card_discarded")
                for r in view["records"]
            )
            out = dealer.stub_count(table, 52 * decks - dealt)
        elif phase in ("dealing", "decisions"):
            out = dealer.step(table, "deal")
        else:
            out = dealer.step(table, STEPS[phase])
    raise AssertionError(f"the round at {table} did not reach {sorted(waiting)}: {out}")


def play(
    dealer: Client,
    seats: Mapping[int, Client],
    table: str,
    wagers: Mapping[str, int],
    choices: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """One round at ``table``: each seat wagers ``wagers``, takes the first decision of its
    ``choices`` (default :data:`croupier.faces.bots.DECISIONS`) the round accepts; its id."""
    rid = str(dealer.new_round(table)["round_id"])
    chips = 0
    for seat, player in sorted(seats.items()):
        for wager, amount in wagers.items():
            player.wager(table, wager, amount, seat=seat)
            chips += wager.endswith("progressive")
    last = dealer_to(dealer, table, dealer.no_more_bets(table, chips), seats)
    while last["phase"] not in ("over", "void"):
        seat = int(str(last["to_act"]).removeprefix("seat "))
        last = dealer_to(dealer, table, _decide(seats[seat], table, seat, choices), seats)
    assert last["phase"] == "over", last
    return rid


def _decide(
    player: Client, table: str, seat: int, choices: Mapping[int, Sequence[str]] | None
) -> dict[str, Any]:
    refused: ApiError | None = None
    for decision in (choices or {}).get(seat, DECISIONS):
        try:
            return player.decide(table, decision, seat=seat)
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            refused = exc
    assert refused is not None
    raise refused


def round_rows(conn: Connection, round_id: str) -> list[Any]:
    return list(
        conn.execute(
            select(chip_ledger).where(chip_ledger.c.round_id == round_id).order_by(chip_ledger.c.id)
        )
    )


def add_legs(conn: Connection, like: Any, legs: Iterable[tuple[str, int, str]]) -> None:
    """Rows ``(account, amount, reason)`` added to the transaction of the row ``like``."""
    conn.execute(
        chip_ledger.insert(),
        [
            {
                "txn": like.txn,
                "account": account,
                "amount": str(amount),
                "reason": reason,
                "table_id": like.table_id,
                "round_id": like.round_id,
                "at": like.at,
            }
            for account, amount, reason in legs
        ],
    )


def repost(
    conn: Connection, round_id: str, table_id: str, transactions: Iterable[Sequence[Entry]]
) -> None:
    """The round's ledger rows replaced by ``transactions`` (posted by the real ledger), every
    balance then set to its rows (as if the rows had been written so from the start)."""
    conn.execute(delete(chip_ledger).where(chip_ledger.c.round_id == round_id))
    for entries in transactions:
        Ledger().post(conn, entries, table_id=table_id, round_id=round_id)
    rebalance(conn)


def rebalance(conn: Connection) -> None:
    """Every account's stored balance set to the sum of its rows (a tamperer who keeps the
    books looking consistent)."""
    sums: dict[str, Fraction] = {}
    for row in conn.execute(select(chip_ledger.c.account, chip_ledger.c.amount)):
        sums[row.account] = sums.get(row.account, Fraction(0)) + Fraction(row.amount)
    names = {row.name for row in conn.execute(select(chip_accounts.c.name))}
    for name in names | set(sums):
        value = sums.get(name, Fraction(0))
        conn.execute(
            update(chip_accounts)
            .where(chip_accounts.c.name == name)
            .values(num=value.numerator, den=value.denominator)
        )

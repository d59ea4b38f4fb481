"""The double-entry chip ledger.

Every movement of chips is a transaction: rows (account, exact amount) that sum to zero, written
in the same database transaction as the round records that caused it.  Accounts:

- ``player:<id>``: a player's chip balance (never below zero);
- ``commission:<id>``: baccarat commission the player owes (deferred vigorish, § 541.13(g)):
  a ``vig_marked`` row moves the marked amount from it to the table when the coup marks it,
  so it stands below zero by what is owed; a ``vig_marker_collected`` row moves the chips from
  ``player:<id>`` back into it when the marker is collected (the player leaves, the shoe ends,
  or the cage collects what the player's chips did not cover);
- ``table:<id>``: the chips on a table during a round (wagers in, payouts out); its balance
  goes to the house when the round ends, so between rounds it is zero;
- ``house``: the casino's side (wins, losses, meter resets);
- ``meter:<name>``: a progressive meter's amount, equal to the meter at every commit;
- ``handpay``: 100% progressive awards waiting for a supervisor (§ 641a.11(c)(5)(iv): not paid
  from the table inventory);
- ``cage``: chips bought in and cashed out;
- ``commission:<id>``: a player's deferred baccarat commission (negative: owed).

:func:`round_entries` derives the rows of one round action from the Game protocol's results (the
stakes before and after, the records, the meters before and after); the server holds no game
rule of its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from sqlalchemy import Connection, bindparam, func, insert, select, update

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import (
    EnvyPaid,
    MeterChanged,
    ProgressivePaid,
    Record,
    WagerSettled,
)
from croupier.store import SqlMeters, now
from croupier.store.prepared import Prepared
from croupier.store.schema import chip_accounts, chip_ledger

__all__ = [
    "CAGE",
    "HANDPAY",
    "HOUSE",
    "Entry",
    "Ledger",
    "commission_account",
    "ledger_problems",
    "meter_account",
    "player_account",
    "table_account",
]

HOUSE = "house"
CAGE = "cage"
HANDPAY = "handpay"


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def table_account(table_id: str) -> str:
    return f"table:{table_id}"


def meter_account(meter: str) -> str:
    return f"meter:{meter}"


def commission_account(player_id: str) -> str:
    """A player's baccarat commission owed (deferred vigorish, § 541.13(g)): negative while a
    marker is owed (the contract of the issue 35 parts: ``commission:<player_id>``)."""
    return f"commission:{player_id}"


@dataclass(frozen=True, slots=True)
class Entry:
    """``amount`` moves from ``source`` to ``dest`` (exact cents, positive)."""

    source: str
    dest: str
    amount: Fraction
    reason: str


# Chips a player hands the dealer beyond the wagers (baccarat's vigorish at payout).  A
# deferred vigorish is owed instead (``vig_marked``): the commission account pays the table.
_PLAYER_PAYS = frozenset({"vig_collected"})
_MARKED = "vig_marked"


@dataclass(frozen=True, slots=True)
class HandPay:
    seat: int
    meter: str
    line: str
    amount: int


def _stake_entries(
    tbl: str,
    players: Mapping[int, str],
    stakes_before: Mapping[int, Mapping[str, int]],
    stakes_after: Mapping[int, Mapping[str, int]],
) -> tuple[list[Entry], dict[tuple[int, str], int]]:
    """Stakes placed (``wager``) and taken back (``withdrawn``) in one action, and the stakes
    taken back by seat and wager: a Let It Ride bet pulled (§ 643a.11(b)) is handed back by
    its ``withdrawn`` row, so the push that settles it returns nothing more."""
    out: list[Entry] = []
    withdrawn: dict[tuple[int, str], int] = {}
    for seat in sorted(set(stakes_before) | set(stakes_after)):
        before, after = stakes_before.get(seat, {}), stakes_after.get(seat, {})
        player = player_account(players[seat])
        for wager in sorted(set(before) | set(after)):
            delta = after.get(wager, 0) - before.get(wager, 0)
            if delta > 0:
                out.append(Entry(player, tbl, Fraction(delta), "wager"))
            elif delta < 0:
                out.append(Entry(tbl, player, Fraction(-delta), "withdrawn"))
                withdrawn[(seat, wager)] = -delta
    return out, withdrawn


def round_entries(
    *,
    table: str,
    players: Mapping[int, str],
    stakes_before: Mapping[int, Mapping[str, int]],
    stakes_after: Mapping[int, Mapping[str, int]],
    records: Sequence[Record],
    contributions: Mapping[str, Fraction],
    meters_before: Mapping[str, Fraction],
    meters_after: Mapping[str, Fraction],
) -> tuple[list[Entry], list[HandPay]]:
    """The chip movements of one round action (see the module docstring)."""
    tbl = table_account(table)
    out, withdrawn = _stake_entries(tbl, players, stakes_before, stakes_after)
    handpays: list[HandPay] = []
    from_meter: dict[int, int] = {}
    award_meter: str | None = None
    awarded: dict[str, Fraction] = {}
    for rec in records:
        if isinstance(rec, MeterChanged) and rec.reason == "award":
            award_meter = rec.meter
        elif isinstance(rec, ProgressivePaid):
            if award_meter is not None:
                # The award comes off the meter; a 100% award waits for a supervisor.
                awarded[award_meter] = awarded.get(award_meter, Fraction(0)) + rec.amount
                from_meter[rec.seat] = from_meter.get(rec.seat, 0) + rec.amount
                if rec.from_meter:
                    out.append(
                        Entry(meter_account(award_meter), HANDPAY, Fraction(rec.amount), "handpay")
                    )
                    handpays.append(HandPay(rec.seat, award_meter, rec.line, rec.amount))
                else:
                    out.append(
                        Entry(
                            meter_account(award_meter),
                            player_account(players[rec.seat]),
                            Fraction(rec.amount),
                            "award",
                        )
                    )
                award_meter = None
        elif isinstance(rec, WagerSettled):
            back = min(rec.returned, withdrawn.pop((rec.seat, rec.wager), 0))
            credit = rec.paid + rec.returned - back - from_meter.pop(rec.seat, 0)
            if credit:
                out.append(
                    Entry(tbl, player_account(players[rec.seat]), Fraction(credit), "settled")
                )
        elif isinstance(rec, EnvyPaid) and rec.amount:
            out.append(Entry(tbl, player_account(players[rec.seat]), Fraction(rec.amount), "envy"))
        elif rec.kind in _PLAYER_PAYS or rec.kind == _MARKED:
            amount = getattr(rec, "amount", 0)
            payer = getattr(rec, "seat", None)
            if amount and isinstance(payer, int):
                owes = commission_account if rec.kind == _MARKED else player_account
                out.append(Entry(owes(players[payer]), tbl, Fraction(amount), rec.kind))
    for meter in sorted(set(meters_before) | set(meters_after)):
        contributed = contributions.get(meter, Fraction(0))
        if contributed > 0:
            out.append(Entry(tbl, meter_account(meter), contributed, "contribution"))
        elif contributed < 0:
            out.append(Entry(meter_account(meter), tbl, -contributed, "void"))
        # Whatever the meter moved beyond contributions and awards is its reset, paid by the
        # house (§ 641a.11(c)(5): the meter returns to its reset amount after a 100% award).
        change = meters_after.get(meter, Fraction(0)) - meters_before.get(meter, Fraction(0))
        reseed = change - contributed + awarded.get(meter, Fraction(0))
        if reseed > 0:
            out.append(Entry(HOUSE, meter_account(meter), reseed, "reset"))
        elif reseed < 0:
            raise IllegalAction(f"meter {meter!r} moved {change} cents that no record explains")
    return out, handpays


# Statements built once: every command posts to the ledger, so building a statement per call
# would cost more than running it; the hot ones compiled once and run on the connection's
# cursor (:class:`croupier.store.prepared.Prepared`).
_BALANCE_SELECT = select(chip_accounts.c.num, chip_accounts.c.den).where(
    chip_accounts.c.name == bindparam("b_name")
)
_BALANCE = Prepared(_BALANCE_SELECT)
_BALANCE_LOCKED = Prepared(_BALANCE_SELECT.with_for_update())
_ADD_WHOLE = Prepared(
    update(chip_accounts)
    .where(chip_accounts.c.name == bindparam("b_name"), chip_accounts.c.den == 1)
    .values(num=chip_accounts.c.num + bindparam("b_delta"), updated_at=bindparam("b_at"))
    .returning(chip_accounts.c.num)
)
_SET = (
    update(chip_accounts)
    .where(chip_accounts.c.name == bindparam("b_name"))
    .values(num=bindparam("b_num"), den=bindparam("b_den"), updated_at=bindparam("b_at"))
)
_INSERT_ACCOUNT = insert(chip_accounts)
_INSERT_ROWS = Prepared(insert(chip_ledger))


class Ledger:
    """Posts transactions and keeps the balances (in the caller's database transaction)."""

    def post(
        self,
        conn: Connection,
        entries: Iterable[Entry],
        *,
        table_id: str | None = None,
        round_id: str | None = None,
        floor: Mapping[str, Fraction] | None = None,
    ) -> str:
        """Write ``entries`` as one transaction; returns its id.  ``floor``: accounts whose
        balance may not fall below the given amount (players: zero)."""
        rows: dict[str, Fraction] = {}
        legs: list[tuple[str, Fraction, str]] = []
        for e in entries:
            if e.amount <= 0:
                raise InvalidInput(f"ledger amount {e.amount} must be positive")
            legs.append((e.source, -e.amount, e.reason))
            legs.append((e.dest, e.amount, e.reason))
            rows[e.source] = rows.get(e.source, Fraction(0)) - e.amount
            rows[e.dest] = rows.get(e.dest, Fraction(0)) + e.amount
        txn = uuid.uuid4().hex
        if not legs:
            return txn
        at = now()
        for name, delta in sorted(rows.items()):
            balance = self._add(conn, name, delta, at)
            if name.startswith("player:") and balance < 0:
                raise IllegalAction(
                    f"{name.removeprefix('player:')} has {balance - delta} cents; "
                    f"{-delta} cents are needed"
                )
            if name.startswith("commission:") and balance > 0:
                # More commission collected than is owed (§ 541.13(g)): never.
                raise IllegalAction(
                    f"{name.removeprefix('commission:')} owes {delta - balance} cents of "
                    f"commission; {delta} cents cannot be collected"
                )
        _INSERT_ROWS.append(
            conn,
            [
                {
                    "txn": txn,
                    "account": account,
                    "amount": str(amount),
                    "reason": reason,
                    "table_id": table_id,
                    "round_id": round_id,
                    "at": at,
                }
                for account, amount, reason in legs
            ],
        )
        return txn

    def fund_meters(self, conn: Connection, meters: SqlMeters, names: Iterable[str]) -> None:
        """The house funds each meter up to its amount where the ledger is behind (its reset
        amount, put up when the meter is made or reset)."""
        entries = []
        for name in names:
            gap = meters.exact(name) - self.balance(conn, meter_account(name))
            if gap > 0:
                entries.append(Entry("house", meter_account(name), gap, "reset"))
        self.post(conn, entries)

    @staticmethod
    def _add(conn: Connection, name: str, delta: Fraction, at: datetime) -> Fraction:
        """Add ``delta`` to the account (row-locked, atomic); its new balance.  Whole cents on
        a whole balance are one ``UPDATE ... RETURNING``; fractions read, lock and write."""
        if delta.denominator == 1:
            row = _ADD_WHOLE.first(conn, {"b_name": name, "b_delta": delta.numerator, "b_at": at})
            if row is not None:
                return Fraction(row[0])
        balance = Ledger.balance(conn, name, lock=True) + delta
        Ledger._set(conn, name, balance, at)
        return balance

    @staticmethod
    def balance(conn: Connection, name: str, *, lock: bool = False) -> Fraction:
        row = (_BALANCE_LOCKED if lock else _BALANCE).first(conn, {"b_name": name})
        return Fraction(row[0], row[1]) if row is not None else Fraction(0)

    @staticmethod
    def _set(conn: Connection, name: str, value: Fraction, at: datetime | None = None) -> None:
        at = at or now()
        found = conn.execute(
            _SET, {"b_name": name, "b_num": value.numerator, "b_den": value.denominator, "b_at": at}
        )
        if found.rowcount == 0:
            conn.execute(
                _INSERT_ACCOUNT,
                {"name": name, "num": value.numerator, "den": value.denominator, "updated_at": at},
            )

    @staticmethod
    def balances(conn: Connection) -> dict[str, Fraction]:
        rows = conn.execute(select(chip_accounts.c.name, chip_accounts.c.num, chip_accounts.c.den))
        return {r.name: Fraction(r.num, r.den) for r in rows}

    @staticmethod
    def check(conn: Connection) -> list[str]:
        """Problems with the ledger: a transaction that does not sum to zero, a balance that
        differs from its rows, a ledger that does not sum to zero (empty: it balances)."""
        rows = conn.execute(select(chip_ledger.c.txn, chip_ledger.c.account, chip_ledger.c.amount))
        legs = ((row.txn, row.account, Fraction(row.amount)) for row in rows)
        return [f"{key} {what}" for key, what in ledger_problems(legs, Ledger.balances(conn))]

    @staticmethod
    def count(conn: Connection) -> int:
        return int(conn.execute(select(func.count()).select_from(chip_ledger)).scalar_one())


def ledger_problems(
    legs: Iterable[tuple[str, str, Fraction]], balances: Mapping[str, Fraction]
) -> list[tuple[str, str]]:
    """:meth:`Ledger.check` on rows already read (``(txn, account, amount)``) and the stored
    balances: each problem as (what it is about, what differs)."""
    problems: list[tuple[str, str]] = []
    sums: dict[str, Fraction] = {}
    accounts: dict[str, Fraction] = {}
    for txn, account, amount in legs:
        sums[txn] = sums.get(txn, Fraction(0)) + amount
        accounts[account] = accounts.get(account, Fraction(0)) + amount
    problems += [(f"transaction {t}", f"sums to {s}") for t, s in sums.items() if s != 0]
    for name, value in balances.items():
        if accounts.get(name, Fraction(0)) != value:
            problems.append(
                (f"account {name}", f"holds {value} but its rows sum to {accounts.get(name, 0)}")
            )
    for name in sorted(set(accounts) - set(balances)):
        if accounts[name] != 0:
            problems.append(
                (f"account {name}", f"has no balance but its rows sum to {accounts[name]}")
            )
    total = sum(accounts.values(), Fraction(0))
    if total != 0:
        problems.append(("the ledger", f"sums to {total}"))
    return problems

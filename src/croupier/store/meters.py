"""Progressive meters in a database: :class:`SqlMeters`, the production :class:`MeterBank`.

The amount of a meter is kept exactly: whole cents plus a fraction of a cent (numerator and
denominator columns), so a rate of progression that yields fractions of a cent never loses one.
What the meter shows, and what is paid, is whole cents rounded down, as in
:class:`~croupier.rules.progressive.MemoryMeters`.

Each change is one transaction that reads the meter with the write lock held (SQLite
``BEGIN IMMEDIATE``; ``SELECT ... FOR UPDATE`` elsewhere), so tables sharing a meter, in threads
or processes, never lose an increment.  Beside the meter it keeps what § 605a.7(a) asks of a
progressive: the cumulative progressive payout meter (the total of jackpots paid, (a)(4)) and a
ledger of every movement (meter, before, after, paid, reason, round id, time), so an audit can
explain every change to the cent and below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.rules.progressive import MeterMove, MeterSpec, pay_share, verify_same_config
from croupier.store.chain import GENESIS, canonical, ledger_payload, link
from croupier.store.database import (
    DEFAULT_URL,
    Database,
    as_utc,
    check_bigint,
    meter_ledger,
    meters,
    now,
)
from croupier.store.prepared import Prepared

__all__ = ["LedgerEntry", "MeterState", "SqlMeters"]


_SELECT = select(meters).where(meters.c.name == bindparam("m_name"))
_LOCKED = _SELECT.with_for_update()
_EXACT = Prepared(
    select(meters.c.cents, meters.c.rem_num, meters.c.rem_den).where(
        meters.c.name == bindparam("m_name")
    )
)
"""A meter's exact amount alone: read by every live command (compiled once, run on the
connection's cursor)."""
_AMOUNTS = Prepared(
    select(meters.c.name, meters.c.cents, meters.c.rem_num, meters.c.rem_den).order_by(
        meters.c.name
    )
)
"""Every meter's exact amount: read by every table view and pit message (compiled once)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MeterState:
    """A meter as stored: its spec, exact amount and its § 605a.7(a)(4) payout total."""

    name: str
    reset: int
    rate: Fraction
    wager: int | None
    paytable: str | None
    exact: Fraction
    paid_total: int
    """Cumulative progressive payout meter: total cents of progressive jackpots paid."""
    awards: int
    """How many awards were paid from the meter."""
    updated_at: datetime

    @property
    def amount(self) -> int:
        """Whole cents shown on the meter."""
        return math.floor(self.exact)

    @property
    def spec(self) -> MeterSpec:
        """The meter's stored configuration."""
        return MeterSpec(
            name=self.name,
            reset=self.reset,
            rate=self.rate,
            wager=self.wager,
            paytable=self.paytable,
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class LedgerEntry:
    """One movement of a meter.  ``reason``: ``created``, ``contribution``, ``void`` (a
    contribution taken back) or ``award``; ``before``/``after`` in whole cents as shown, the
    ``_exact`` amounts to the fraction of a cent; ``amount`` the exact contribution (or
    reversal), ``share`` the share of the meter an award paid; ``hash`` the row's link in the
    meter's chain (:mod:`croupier.store.chain`)."""

    id: int
    meter: str
    reason: str
    before: int
    after: int
    paid: int
    before_exact: Fraction
    after_exact: Fraction
    round_id: str | None
    at: datetime
    amount: Fraction | None = None
    share: Fraction | None = None
    hash: str = ""

    @property
    def change(self) -> Fraction:
        return self.after_exact - self.before_exact


def _split(amount: Fraction, meter: str) -> dict[str, int]:
    cents = math.floor(amount)
    rem = amount - cents
    return {
        "cents": check_bigint(cents, f"meter {meter!r} amount"),
        "rem_num": check_bigint(rem.numerator, f"meter {meter!r} fraction numerator"),
        "rem_den": check_bigint(rem.denominator, f"meter {meter!r} fraction denominator"),
    }


def _exact(row: Any) -> Fraction:
    return int(row.cents) + Fraction(row.rem_num, row.rem_den)


class SqlMeters:
    """:class:`~croupier.rules.progressive.MeterBank` kept in a database (SQLite file by default).

    ``target`` is a database URL (``"sqlite:///croupier.sqlite"``,
    ``"postgresql+psycopg://..."``) or an :class:`~sqlalchemy.Engine`; an engine made here from
    a URL is disposed by :meth:`close` (or on leaving a ``with`` block).  Several objects, in
    threads or processes, may share one database and its meters.

    A change made while a :class:`~croupier.store.RoundStore` tracked round applies an action
    joins that round's transaction when both use the same database: the meter move, its ledger
    row (with the round id) and the round's records commit together or not at all.
    """

    def __init__(self, target: str | Engine = DEFAULT_URL) -> None:
        self._db = Database(target)

    @property
    def engine(self) -> Engine:
        return self._db.engine

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SqlMeters:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- the MeterBank interface -----------------------------------------------------------

    def ensure(self, spec: MeterSpec) -> int:
        """Create the meter at its reset amount if it does not exist; return its amount.

        A meter that exists keeps its amount and its stored configuration; a ``spec`` that
        differs from it (reset, rate, wager, pay table) is refused with
        :class:`~croupier.core.errors.RulesViolation` naming the meter and both values.
        """
        if not isinstance(spec, MeterSpec):
            raise InvalidInput(f"meter spec {spec!r} is not a MeterSpec")
        try:
            with self._db.write() as (conn, round_id):
                row = self._row(conn, spec.name, lock=True)
                if row is not None:
                    verify_same_config(_spec(row), spec)
                    return math.floor(_exact(row))
                self._create(conn, spec, round_id)
                return spec.reset
        except IntegrityError:
            # Another writer created it between our read and insert (backends without
            # BEGIN IMMEDIATE): it exists now.
            verify_same_config(self.state(spec.name).spec, spec)
            return self.amount(spec.name)

    def spec(self, meter: str) -> MeterSpec:
        """The meter's stored configuration."""
        return self.state(meter).spec

    def amount(self, meter: str) -> int:
        return math.floor(self.exact(meter))

    def exact(self, meter: str) -> Fraction:
        """The exact amount in cents, fraction of a cent included."""
        with self._db.read() as conn:
            row = _EXACT.first(conn, {"m_name": meter})
        if row is None:
            raise IllegalAction(f"progressive meter {meter!r} does not exist")
        cents, num, den = row
        return int(cents) + Fraction(num, den)

    def contribute(self, meter: str, amount: Fraction) -> MeterMove:
        """Add ``amount`` cents (exact) to the meter; a negative amount takes back a
        contribution of a voided round (ledger reason ``void``)."""
        if not isinstance(amount, Fraction | int) or isinstance(amount, bool):
            raise InvalidInput(f"contribution {amount!r} to meter {meter!r} is not exact")
        amount = Fraction(amount)
        reason = "contribution" if amount >= 0 else "void"
        with self._db.write() as (conn, round_id):
            row = self._get(conn, meter, lock=True)
            before = _exact(row)
            after = before + amount
            if after < 0:
                raise InvalidInput(f"reversal {amount} would take meter {meter!r} below zero")
            self._move(conn, row, after, 0, reason, round_id, amount=amount)
        return MeterMove(meter=meter, before=math.floor(before), after=math.floor(after))

    def pay(self, meter: str, share: Fraction, reset: int) -> MeterMove:
        """Pay ``share`` of the meter (see :func:`~croupier.rules.progressive.pay_share`); the paid
        cents are added to the cumulative progressive payout meter (§ 605a.7(a)(4)).  The meter
        resets to its stored reset (one configuration per linked meter), whatever ``reset`` the
        caller's table names."""
        if not isinstance(share, Fraction | int) or isinstance(share, bool) or not 0 < share <= 1:
            raise InvalidInput(f"share {share!r} of meter {meter!r} is outside (0, 1]")
        share = Fraction(share)
        with self._db.write() as (conn, round_id):
            row = self._get(conn, meter, lock=True)
            before = _exact(row)
            paid, after = pay_share(before, share, int(row.reset))
            self._move(conn, row, after, paid, "award", round_id, share=share)
        return MeterMove(meter=meter, before=math.floor(before), after=math.floor(after), paid=paid)

    # -- audit -----------------------------------------------------------------------------

    def state(self, meter: str) -> MeterState:
        with self._db.read() as conn:
            row = self._get(conn, meter, lock=False)
        return MeterState(
            name=row.name,
            reset=row.reset,
            rate=Fraction(row.rate_num, row.rate_den),
            wager=row.wager,
            paytable=row.paytable,
            exact=_exact(row),
            paid_total=row.paid_total,
            awards=row.awards,
            updated_at=as_utc(row.updated_at),
        )

    def paid_total(self, meter: str) -> int:
        """The cumulative progressive payout meter (§ 605a.7(a)(4)): cents of jackpots paid."""
        return self.state(meter).paid_total

    def snapshot(self) -> dict[str, int]:
        """Every meter's amount in whole cents."""
        with self._db.read() as conn:
            cursor = _AMOUNTS.run(conn, {})
            try:
                rows = cursor.fetchall()
            finally:
                cursor.close()
        return {name: math.floor(int(cents) + Fraction(num, den)) for name, cents, num, den in rows}

    def ledger(self, meter: str | None = None, *, round_id: str | None = None) -> list[LedgerEntry]:
        """Every movement, oldest first; of one meter and/or one round where given."""
        query = select(meter_ledger).order_by(meter_ledger.c.id)
        if meter is not None:
            query = query.where(meter_ledger.c.meter == meter)
        if round_id is not None:
            query = query.where(meter_ledger.c.round_id == round_id)
        with self._db.read() as conn:
            rows = conn.execute(query).all()
        return [
            LedgerEntry(
                id=row.id,
                meter=row.meter,
                reason=row.reason,
                before=row.before,
                after=row.after,
                paid=row.paid,
                before_exact=Fraction(row.before_exact),
                after_exact=Fraction(row.after_exact),
                round_id=row.round_id,
                at=as_utc(row.at),
                amount=Fraction(row.amount) if row.amount is not None else None,
                share=Fraction(row.share) if row.share is not None else None,
                hash=row.hash,
            )
            for row in rows
        ]

    # -- internals -------------------------------------------------------------------------

    @staticmethod
    def _row(conn: Connection, meter: str, *, lock: bool) -> Any:
        return conn.execute(_LOCKED if lock else _SELECT, {"m_name": meter}).one_or_none()

    def _get(self, conn: Connection, meter: str, *, lock: bool) -> Any:
        row = self._row(conn, meter, lock=lock)
        if row is None:
            raise IllegalAction(f"progressive meter {meter!r} does not exist")
        return row

    @staticmethod
    def _create(conn: Connection, spec: MeterSpec, round_id: str | None) -> None:
        at = now()
        config = canonical(spec.config())
        row = _ledger_row(
            meter=spec.name,
            reason="created",
            before=Fraction(0),
            after=Fraction(spec.reset),
            paid=0,
            round_id=round_id,
            at=at,
            previous=GENESIS,
            config=config,
        )
        conn.execute(
            insert(meters).values(
                name=spec.name,
                reset=check_bigint(spec.reset, f"meter {spec.name!r} reset"),
                rate_num=check_bigint(spec.rate.numerator, f"meter {spec.name!r} rate"),
                rate_den=check_bigint(spec.rate.denominator, f"meter {spec.name!r} rate"),
                wager=None if spec.wager is None else check_bigint(spec.wager, "meter wager"),
                paytable=spec.paytable,
                paid_total=0,
                awards=0,
                head=row["hash"],
                updated_at=at,
                **_split(Fraction(spec.reset), spec.name),
            )
        )
        conn.execute(insert(meter_ledger).values(**row))

    @staticmethod
    def _move(
        conn: Connection,
        row: Any,
        after: Fraction,
        paid: int,
        reason: str,
        round_id: str | None,
        *,
        amount: Fraction | None = None,
        share: Fraction | None = None,
    ) -> None:
        at = now()
        meter = row.name
        entry = _ledger_row(
            meter=meter,
            reason=reason,
            before=_exact(row),
            after=after,
            paid=paid,
            round_id=round_id,
            at=at,
            previous=row.head,
            amount=amount,
            share=share,
        )
        values: dict[str, Any] = {"updated_at": at, "head": entry["hash"], **_split(after, meter)}
        if reason == "award":
            values["paid_total"] = meters.c.paid_total + paid
            values["awards"] = meters.c.awards + 1
        conn.execute(update(meters).where(meters.c.name == meter).values(**values))
        conn.execute(insert(meter_ledger).values(**entry))


def _spec(row: Any) -> MeterSpec:
    return MeterSpec(
        name=row.name,
        reset=int(row.reset),
        rate=Fraction(row.rate_num, row.rate_den),
        wager=row.wager,
        paytable=row.paytable,
    )


def _ledger_row(
    *,
    meter: str,
    reason: str,
    before: Fraction,
    after: Fraction,
    paid: int,
    round_id: str | None,
    at: datetime,
    previous: str,
    amount: Fraction | None = None,
    share: Fraction | None = None,
    config: str | None = None,
) -> dict[str, Any]:
    """A ledger row ready to insert, its hash chained to ``previous``."""
    values: dict[str, Any] = {
        "meter": meter,
        "reason": reason,
        "before": check_bigint(math.floor(before), f"meter {meter!r} amount"),
        "after": check_bigint(math.floor(after), f"meter {meter!r} amount"),
        "paid": check_bigint(paid, f"meter {meter!r} payout"),
        "before_exact": str(before),
        "after_exact": str(after),
        "amount": None if amount is None else str(amount),
        "share": None if share is None else str(share),
        "config": config,
        "round_id": round_id,
        "at": at,
    }
    values["hash"] = link(previous, ledger_payload(**values))
    return values

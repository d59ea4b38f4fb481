"""Audit of a croupier database: hash chains, meters from their ledger, settlements from records.

:func:`verify` reads every table the store writes and reports, for each chain, the first row that
does not match (a row edited, inserted or deleted outside croupier):

- each round: its header hash, then every record's SHA-256 link (:mod:`croupier.store.chain`),
  the count and the head; the records decode; :meth:`Round.rebuild
  <croupier.games.round.Round.rebuild>` replays the inputs and must derive exactly the stored
  records (settlements, payouts, meter moves) and status; the cards dealt are those of the
  persisted shoe, in its order, and the shoe matches its commitment;
- each meter: its ledger chain from the creation (whose configuration is the meter's), every
  amount recomputed exactly in fractions of a cent (reset + contributions - awards, each award
  by its share and the stored reset, § 605a.7(a)), ending at the meter's amount, its
  cumulative payout meter (§ 605a.7(a)(4)) and award count; the ledger rows of each round are
  the meter moves its records show;
- each table's events: their chain;
- where the live server's tables hold rows, every chip (:mod:`croupier.audit.reconcile`): each seat
  of each round, its chip-ledger rows against the engine's settlement of that seat rebuilt from
  the records; the table account zero between rounds; the hand-pays; each player's balance
  against buy-ins, cash-outs and settled nets; the ledger summing to zero;
- where the live server's tables hold it, the security log: its chain and its head
  (:func:`croupier.server.security_log.check`: an entry edited, inserted or deleted, or the
  log cut short).

``croupier audit verify [--db URL]`` exits 0 when the database is clean, 1 with the findings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import SQLAlchemyError

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput, shown_value
from croupier.games import get_game
from croupier.games.records import CardDealt, CardDiscarded, MeterChanged, Record, RoundVoided
from croupier.games.round import Round, StubCheck
from croupier.rules.progressive import pay_share
from croupier.store import as_utc, open_existing, unreadable
from croupier.store.chain import (
    GENESIS,
    canonical,
    header_payload,
    ledger_payload,
    link,
    record_payload,
)
from croupier.store.codec import record_from_json
from croupier.store.database import (
    meter_ledger,
    meters,
    round_records,
    round_shoes,
    rounds,
    table_log,
)
from croupier.store.rounds import status_of
from croupier.store.shoes import commitment
from croupier.table.commitment import coup_gap, digest, published_commitment, shoe_dealing

if TYPE_CHECKING:
    from croupier.audit.reconcile import ChipBooks, RoundBooks

__all__ = ["AuditReport", "DealCheck", "Finding", "verify", "verify_deal"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding:
    """A stored row that does not match: its table, its key and what differs."""

    table: str
    key: str
    what: str

    def __str__(self) -> str:
        return f"{self.table} {self.key}: {self.what}"

    def to_json(self) -> dict[str, str]:
        return {"table": self.table, "key": self.key, "what": self.what}


@dataclass(kw_only=True, slots=True)
class AuditReport:
    """What :func:`verify` checked and found; ``ok`` when nothing was found."""

    rounds: int = 0
    records: int = 0
    meters: int = 0
    ledger_rows: int = 0
    table_events: int = 0
    chip_ledger_rows: int = 0
    seats_reconciled: int = 0
    security_events: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": {
                "rounds": self.rounds,
                "records": self.records,
                "meters": self.meters,
                "ledger_rows": self.ledger_rows,
                "table_events": self.table_events,
                "chip_ledger_rows": self.chip_ledger_rows,
                "seats_reconciled": self.seats_reconciled,
                "security_events": self.security_events,
            },
            "findings": [f.to_json() for f in self.findings],
        }


class _Mismatch(Exception):
    """Internal: the first row of a chain that does not match."""

    def __init__(self, table: str, key: str, what: str) -> None:
        super().__init__(what)
        self.finding = Finding(table=table, key=key, what=what)


def _engine(target: str | Engine) -> tuple[Engine, bool]:
    """An engine that reads ``target`` without creating anything (owned: dispose after)."""
    if isinstance(target, Engine):
        return target, False
    if not isinstance(target, str):
        raise InvalidInput(f"database {shown_value(target)} is neither a URL nor an Engine")
    return open_existing(target), True


def verify(target: str | Engine) -> AuditReport:
    """Audit the database at ``target`` (a URL or an Engine); see the module docstring.

    Nothing is written.  A database that cannot be read as croupier's raises
    :class:`~croupier.core.errors.InvalidInput`."""
    from croupier.audit.reconcile import RoundBooks, read_chips

    engine, owned = _engine(target)
    report = AuditReport()
    try:
        # One snapshot for every read (a live server may be writing meanwhile): PostgreSQL's
        # repeatable read, SQLite's read transaction (:func:`_snapshot`).
        snapshot = (
            {"isolation_level": "REPEATABLE READ"} if engine.dialect.name == "postgresql" else {}
        )
        with engine.connect().execution_options(**snapshot) as conn:
            _snapshot(conn)
            round_rows = conn.execute(select(rounds).order_by(rounds.c.id)).all()
            record_rows = conn.execute(
                select(round_records).order_by(round_records.c.round_id, round_records.c.seq)
            ).all()
            shoe_rows = {r.round_id: r for r in conn.execute(select(round_shoes)).all()}
            meter_rows = conn.execute(select(meters).order_by(meters.c.name)).all()
            ledger_rows = conn.execute(select(meter_ledger).order_by(meter_ledger.c.id)).all()
            event_rows = conn.execute(
                select(table_log).order_by(table_log.c.table_id, table_log.c.seq)
            ).all()
            chips = read_chips(conn)
            _security_log(report, conn)
    except SQLAlchemyError as exc:
        raise unreadable(exc) from None
    finally:
        if owned:
            engine.dispose()
    by_round: dict[str, list[Any]] = {}
    for row in record_rows:
        by_round.setdefault(row.round_id, []).append(row)
    known = {row.id for row in round_rows}
    for orphan in sorted(set(by_round) - known):
        report.findings.append(
            Finding(table="round_records", key=orphan, what="records of a round not stored")
        )
    ledger_by_round: dict[str, list[Any]] = {}
    for row in ledger_rows:
        if row.round_id is not None:
            ledger_by_round.setdefault(row.round_id, []).append(row)
    report.rounds, report.records = len(round_rows), len(record_rows)
    books: dict[str, RoundBooks] = {}
    for row in round_rows:
        rebuilt = _check(
            report,
            lambda row=row: _round(
                row,
                by_round.get(row.id, []),
                shoe_rows.get(row.id),
                ledger_by_round.get(row.id, []),
            ),
        )
        if rebuilt is not None:
            books[row.id] = RoundBooks.of(rebuilt)
    report.meters, report.ledger_rows = len(meter_rows), len(ledger_rows)
    ledger_by_meter: dict[str, list[Any]] = {}
    for row in ledger_rows:
        ledger_by_meter.setdefault(row.meter, []).append(row)
    for row in meter_rows:
        _check(report, lambda row=row: _meter(row, ledger_by_meter.get(row.name, [])))
    for orphan in sorted(set(ledger_by_meter) - {row.name for row in meter_rows}):
        report.findings.append(
            Finding(table="meter_ledger", key=orphan, what="ledger rows of a meter not stored")
        )
    report.table_events = len(event_rows)
    by_table: dict[str, list[Any]] = {}
    for row in event_rows:
        by_table.setdefault(row.table_id, []).append(row)
    for table_id, rows in by_table.items():
        _check(report, lambda t=table_id, r=rows: _events(t, r))
    if chips is not None:
        _reconcile(report, chips, books, {row.id for row in round_rows} - set(books))
    return report


def _security_log(report: AuditReport, conn: Connection) -> None:
    """The security log's chain and head (:func:`croupier.server.security_log.check`)."""
    from croupier.server.security_log import check

    report.security_events, found = check(conn)
    report.findings += found


def _reconcile(
    report: AuditReport, chips: ChipBooks, books: Mapping[str, RoundBooks], failed: set[str]
) -> None:
    """Every chip against the engine's settlements (:mod:`croupier.audit.reconcile`)."""
    from croupier.audit.reconcile import reconcile

    report.chip_ledger_rows = len(chips.legs)
    report.seats_reconciled, found = reconcile(chips, books, failed)
    report.findings += found


def _snapshot(conn: Connection) -> None:
    """SQLite: the reads that follow share one read transaction (a deferred ``BEGIN``; an
    engine whose transactions begin immediately already holds one)."""
    if conn.dialect.name != "sqlite":
        return
    conn.exec_driver_sql("SELECT 1")  # SQLAlchemy's transaction begins (and any listener's)
    raw = conn.connection.dbapi_connection
    if raw is not None and not getattr(raw, "in_transaction", True):
        conn.exec_driver_sql("BEGIN")


def _check(report: AuditReport, run: Any) -> Any:
    try:
        return run()
    except _Mismatch as exc:
        report.findings.append(exc.finding)
        return None


@dataclass(frozen=True, kw_only=True, slots=True)
class DealCheck:
    """A finished round's deal against its commitment (:func:`verify_deal`)."""

    round_id: str
    commitment: str
    nonce: str
    order: tuple[str, ...]
    """The shoe order, top first (published only once the round is over)."""
    dealt: int
    findings: list[Finding]
    published: str | None = None
    """The commitment published in the table's ``round`` event before the first wager
    (``None`` for a round not played on the live server)."""

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_id,
            "ok": self.ok,
            "commitment": self.commitment,
            "published": self.published,
            "nonce": self.nonce,
            "order": list(self.order),
            "dealt": self.dealt,
            "findings": [f.to_json() for f in self.findings],
        }


def verify_deal(target: str | Engine, round_id: str) -> DealCheck:
    """Check a round's deal: the persisted order and nonce hash to the commitment (SHA-256 of
    ``order || "\\n" || nonce``) and every card dealt is the next card of that order; a coup
    of a baccarat shoe begins where the coup before it stopped (the shoe's first, after the
    opening burn).  Refused for a round still open, or dealt from a shoe still being dealt:
    the order is secret until the round (the shoe) is over."""
    if not isinstance(round_id, str):
        raise InvalidInput(f"round {shown_value(round_id)} is not a round id")
    engine, owned = _engine(target)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).one_or_none()
            shoe = conn.execute(
                select(round_shoes).where(round_shoes.c.round_id == round_id)
            ).one_or_none()
            records = conn.execute(
                select(round_records)
                .where(round_records.c.round_id == round_id)
                .order_by(round_records.c.seq)
            ).all()
            announced = _published(conn, round_id)
            shoe_id = None if shoe is None else shoe.shoe_id
            sealed = shoe_dealing(conn, shoe_id)
            gap = None
            if shoe is not None and shoe_id is not None and not sealed:
                gap = coup_gap(conn, round_id, shoe_id, int(shoe.taken))
    except SQLAlchemyError as exc:
        raise unreadable(exc) from None
    finally:
        if owned:
            engine.dispose()
    if row is None:
        raise InvalidInput(f"round {round_id[:80]!r} is not stored")
    if row.status == "open":
        raise IllegalAction(
            f"round {round_id!r} is still open: its shoe order stays secret until it is over"
        )
    if shoe is None:
        raise InvalidInput(f"round {round_id!r} was stored without a shoe order to check")
    if sealed:
        raise IllegalAction(
            f"round {round_id!r} was dealt from shoe {shoe_id}, which is still being dealt: its "
            "order stays secret until the shoe ends"
        )
    findings: list[Finding] = []
    if gap is not None:
        findings.append(Finding(table="round_shoes", key=f"round {round_id!r}", what=gap))
    decoded: list[Record] = []
    try:
        decoded = list(_chain(row, list(records), row.hash))
    except _Mismatch as exc:
        findings.append(exc.finding)
    try:
        _shoe(f"round {round_id!r}", shoe, decoded)
    except _Mismatch as exc:
        findings.append(exc.finding)
    if announced is not None and announced != digest(shoe.cards.split(), shoe.nonce):
        findings.append(
            Finding(
                table="round_shoes",
                key=f"round {round_id!r}",
                what=f"the order and nonce do not hash to the commitment {announced} "
                "published before the first wager",
            )
        )
    dealt = sum(isinstance(r, CardDealt | CardDiscarded) for r in decoded)
    return DealCheck(
        published=announced,
        round_id=round_id,
        commitment=shoe.commitment,
        nonce=shoe.nonce,
        order=tuple(shoe.cards.split()),
        dealt=dealt,
        findings=findings,
    )


def _published(conn: Any, round_id: str) -> str | None:
    """The commitment the live server published (none where its tables are absent)."""
    from sqlalchemy import inspect

    if not inspect(conn).has_table("table_events"):
        return None
    return published_commitment(conn, round_id)


# --- rounds -------------------------------------------------------------------------------------


def _round(row: Any, records: list[Any], shoe: Any, ledger: list[Any]) -> Round:
    key = f"round {row.id!r}"
    try:
        rules = json.loads(row.rules)
        players = json.loads(row.players)
    except ValueError as exc:
        raise _Mismatch("rounds", key, f"header is not JSON: {exc}") from None
    header = link(
        GENESIS,
        header_payload(
            round_id=row.id,
            game=row.game,
            rules=rules,
            players=players,
            stub_check=row.stub_check,
            mode=row.mode,
            created_at=row.created_at,
        ),
    )
    if header != row.hash:
        raise _Mismatch("rounds", key, "header (game, rules, players) does not match its hash")
    decoded = list(_chain(row, records, header))
    if row.records != len(records):
        raise _Mismatch("rounds", key, f"{row.records} records counted, {len(records)} stored")
    # Where each of the round's meter moves started, exactly: its meter's ledger (checked
    # against the meter's running amount below, :func:`_meter`); a linked meter moves between a
    # round's records when another table contributes.
    stood = [_fraction(key, e.before_exact) for e in ledger if e.reason != "created"]
    moves = sum(isinstance(r, MeterChanged) for r in decoded)
    rebuilt = _rebuild(
        row, key, rules, players, decoded, stood if ledger and len(stood) == moves else None
    )
    if shoe is not None:
        _shoe(key, shoe, decoded)
    _round_ledger(key, decoded, ledger)
    return rebuilt


def _chain(row: Any, records: list[Any], header: str) -> Iterator[Record]:
    previous = header
    for seq, rec in enumerate(records):
        key = f"round {row.id!r} seq {rec.seq}"
        if rec.seq != seq:
            raise _Mismatch("round_records", key, f"record {seq} is missing")
        try:
            data = json.loads(rec.data)
        except ValueError as exc:
            raise _Mismatch("round_records", key, f"data is not JSON: {exc}") from None
        expected = link(previous, record_payload(row.id, rec.seq, data, as_utc(rec.at)))
        if expected != rec.hash:
            raise _Mismatch(
                "round_records", key, f"{rec.kind} record does not match its hash: {rec.data}"
            )
        if not isinstance(data, dict) or data.get("kind") != rec.kind:
            raise _Mismatch("round_records", key, f"kind {rec.kind!r} is not the data's")
        try:
            yield record_from_json(data)
        except CroupierError as exc:
            raise _Mismatch("round_records", key, f"does not decode: {exc}") from None
        previous = expected
    if previous != row.head:
        raise _Mismatch("rounds", f"round {row.id!r}", "the last record is not the chain's head")


def _rebuild(
    row: Any,
    key: str,
    rules: Any,
    players: Any,
    decoded: list[Record],
    stood: list[Fraction] | None,
) -> Round:
    try:
        game = get_game(rules)
        rebuilt = Round.rebuild(
            game,
            decoded,
            players={int(seat): p for seat, p in players.items()},
            stub_check=StubCheck(row.stub_check),
            meters_stood=stood,
        )
    except (CroupierError, ValueError) as exc:
        raise _Mismatch("rounds", key, f"records do not replay: {exc}") from None
    for seq, (mine, theirs) in enumerate(zip(rebuilt.records, decoded, strict=False)):
        if mine != theirs:
            raise _Mismatch(
                "round_records",
                f"{key} seq {seq}",
                f"stored {canonical(_json(theirs))}, the rebuilt round has "
                f"{canonical(_json(mine))}",
            )
    if len(rebuilt.records) != len(decoded):
        seq = min(len(rebuilt.records), len(decoded))
        raise _Mismatch(
            "round_records",
            f"{key} seq {seq}",
            f"{len(decoded)} records stored, the rebuilt round has {len(rebuilt.records)}",
        )
    status = status_of(rebuilt)
    if row.status != status.value:
        raise _Mismatch("rounds", key, f"status {row.status!r}, the records say {status.value!r}")
    ordered = [(r.by, r.reason) for r in decoded if isinstance(r, RoundVoided) and r.by]
    stored = (row.voided_by, row.void_reason)
    if (ordered[-1] if ordered else (None, None)) != stored:
        raise _Mismatch("rounds", key, f"voided by {stored}, the records say {ordered or None}")
    return rebuilt


def _json(record: Record) -> dict[str, Any]:
    from croupier.games.records import record_to_json

    return record_to_json(record)


def _shoe(key: str, shoe: Any, decoded: list[Record]) -> None:
    from croupier.core.cards import parse_cards

    try:
        cards = parse_cards(shoe.cards, distinct=False)
    except InvalidInput as exc:
        raise _Mismatch("round_shoes", key, f"order does not parse: {exc}") from None
    if commitment(cards, shoe.nonce) != shoe.commitment:
        raise _Mismatch("round_shoes", key, "order and nonce do not match the commitment")
    shown = [r.card for r in decoded if isinstance(r, CardDealt | CardDiscarded)]
    due = list(cards[shoe.taken : shoe.taken + len(shown)])
    for i, (card, want) in enumerate(zip(shown, due, strict=False)):
        if card != want:
            raise _Mismatch(
                "round_shoes",
                key,
                f"card {i + 1} dealt is {card}, the persisted shoe order gives {want}",
            )
    if len(due) < len(shown):
        raise _Mismatch("round_shoes", key, "more cards dealt than the persisted shoe holds")


def _round_ledger(key: str, decoded: list[Record], ledger: list[Any]) -> None:
    """The meter moves a round's records show are its ledger rows here (where its meters are
    this database's: a round played on memory meters, a simulation, has none)."""
    if not ledger:
        return
    moves = [(r.meter, r.reason, r.before, r.after) for r in decoded if isinstance(r, MeterChanged)]
    rows = [(e.meter, e.reason, e.before, e.after) for e in ledger if e.reason != "created"]
    for i, (move, entry) in enumerate(zip(moves, rows, strict=False)):
        if move != entry:
            raise _Mismatch(
                "meter_ledger", f"{key} move {i + 1}", f"ledger {entry}, the records show {move}"
            )
    if len(moves) != len(rows):
        raise _Mismatch(
            "meter_ledger", key, f"{len(rows)} ledger rows, the records show {len(moves)} moves"
        )


# --- meters -------------------------------------------------------------------------------------


def _meter(row: Any, ledger: list[Any]) -> None:
    key = f"meter {row.name!r}"
    reset = int(row.reset)
    previous, amount, paid_total, awards = GENESIS, Fraction(0), 0, 0
    for n, entry in enumerate(ledger):
        where = f"{key} id {entry.id}"
        expected = link(previous, _ledger_values(entry))
        if expected != entry.hash:
            raise _Mismatch("meter_ledger", where, f"{entry.reason} row does not match its hash")
        after = _after(where, n, entry, amount, row)
        before_exact = _fraction(where, entry.before_exact)
        if before_exact != amount:
            raise _Mismatch(
                "meter_ledger", where, f"before {before_exact}, the ledger so far gives {amount}"
            )
        if _fraction(where, entry.after_exact) != after:
            raise _Mismatch(
                "meter_ledger",
                where,
                f"after {entry.after_exact}, the {entry.reason} recomputes to {after}",
            )
        if (entry.before, entry.after) != (math.floor(amount), math.floor(after)):
            raise _Mismatch("meter_ledger", where, "whole cents differ from the exact amounts")
        if entry.reason == "award":
            share = _fraction(where, entry.share)
            paid, _ = pay_share(amount, share, reset)
            if entry.paid != paid:
                raise _Mismatch("meter_ledger", where, f"paid {entry.paid}, the share pays {paid}")
            paid_total += paid
            awards += 1
        elif entry.paid != 0:
            raise _Mismatch("meter_ledger", where, f"a {entry.reason} pays {entry.paid}")
        previous, amount = expected, after
    exact = int(row.cents) + Fraction(row.rem_num, row.rem_den)
    if not ledger:
        raise _Mismatch("meters", key, "the meter has no ledger")
    if exact != amount:
        raise _Mismatch("meters", key, f"amount {exact} cents, its ledger gives {amount}")
    if row.head != previous:
        raise _Mismatch("meters", key, "the last ledger row is not the chain's head")
    if (row.paid_total, row.awards) != (paid_total, awards):
        raise _Mismatch(
            "meters",
            key,
            f"payout meter {row.paid_total} over {row.awards} awards, its ledger gives "
            f"{paid_total} over {awards}",
        )


def _after(where: str, n: int, entry: Any, amount: Fraction, row: Any) -> Fraction:
    if n == 0:
        if entry.reason != "created":
            raise _Mismatch("meter_ledger", where, "the first row is not the meter's creation")
        config = canonical(
            {
                "reset": int(row.reset),
                "rate": str(Fraction(row.rate_num, row.rate_den)),
                "wager": row.wager,
                "paytable": row.paytable,
            }
        )
        if entry.config != config:
            raise _Mismatch(
                "meters",
                f"meter {row.name!r}",
                f"configuration {config}, the meter was created with {entry.config}",
            )
        return Fraction(int(row.reset))
    if entry.reason in ("contribution", "void"):
        change = _fraction(where, entry.amount)
        if (change < 0) != (entry.reason == "void"):
            raise _Mismatch("meter_ledger", where, f"a {entry.reason} of {change}")
        return amount + change
    if entry.reason == "award":
        _, after = pay_share(amount, _fraction(where, entry.share), int(row.reset))
        return after
    raise _Mismatch("meter_ledger", where, f"reason {entry.reason!r} is unknown")


def _fraction(where: str, text: Any) -> Fraction:
    try:
        return Fraction(text)
    except (TypeError, ValueError, ZeroDivisionError):
        raise _Mismatch("meter_ledger", where, f"{text!r} is not an exact amount") from None


def _ledger_values(entry: Any) -> dict[str, Any]:
    return ledger_payload(
        meter=entry.meter,
        reason=entry.reason,
        before=entry.before,
        after=entry.after,
        paid=entry.paid,
        before_exact=entry.before_exact,
        after_exact=entry.after_exact,
        amount=entry.amount,
        share=entry.share,
        config=entry.config,
        round_id=entry.round_id,
        at=as_utc(entry.at),
    )


# --- table events -------------------------------------------------------------------------------


def _events(table_id: str, rows: list[Any]) -> None:
    from croupier.store.tables import event_payload

    previous = GENESIS
    for seq, row in enumerate(rows):
        key = f"table {table_id!r} seq {row.seq}"
        if row.seq != seq:
            raise _Mismatch("table_log", key, f"event {seq} is missing")
        try:
            data = json.loads(row.data)
        except ValueError as exc:
            raise _Mismatch("table_log", key, f"data is not JSON: {exc}") from None
        expected = link(previous, event_payload(table_id, seq, data))
        if expected != row.hash:
            raise _Mismatch("table_log", key, f"{row.kind} event does not match its hash")
        previous = expected

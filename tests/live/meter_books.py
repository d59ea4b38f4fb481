"""Every progressive meter against the wagers that fed it, exactly (§ 605a.7: the contributions
of linked tables atomic and exact; tests/live/test_live_processes.py and
benchmarks/bench_meters.py).

:func:`meter_books` reads a live database (SQLite or PostgreSQL, however many server processes
wrote it) and rebuilds each meter from the round records alone:

- a round's contribution to a meter is the meter's rate times the progressive wagers accepted
  at that table's wagers feeding it (``wager_placed`` records; which wager feeds which meter is
  read from the table's Rules Submission, :func:`feeds_of`), when the round passed "no more
  bets" and was not voided (a void returns the wagers and takes the contributions back);
- each award is replayed in the order the meter took it (the meter's ledger gives only the
  order): the share of the meter as it then stood, in whole cents (:func:`pay_share`), must be
  the ``progressive_paid`` amount the round's records show, and the meter falls to what
  remains (a 100% award resets it);
- at the end every meter holds exactly, to the fraction of a cent, its reset plus every
  contribution less every award (each award's fall of the meter), its payout meter the sum of
  the awards paid, and each round's net contribution in the ledger what its wagers give.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sqlalchemy import Engine, select

from croupier.rules.progressive import pay_share
from croupier.store.database import meter_ledger, meters, round_records
from croupier.store.schema import live_rounds, live_tables

__all__ = ["MeterBook", "MeterBooks", "feeds_of", "meter_books"]

SECTION_WAGER = {"let-it-ride": "five_card_progressive"}
"""The wager of a game's ``[progressive]`` section where it is not named ``progressive``: Let It
Ride's is its Five-Card Progressive (§ 643a.7(h))."""


def feeds_of(rules: Mapping[str, Any]) -> dict[str, list[str]]:
    """Which wager of a table feeds which meters, from its Rules Submission: the
    ``[progressive]`` wager its ``meter`` (or each of its ``meters``, named ``meter-key`` when
    not given, as Mississippi Stud's jackpots), and each custom pay table naming a ``meter``
    (Let It Ride's Three-Card Progressive)."""
    feeds: dict[str, list[str]] = {}
    progressive = rules.get("progressive")
    wager = SECTION_WAGER.get(str(rules.get("game")), "progressive")
    if isinstance(progressive, Mapping):
        jackpots = progressive.get("meters")
        if isinstance(jackpots, Mapping) and jackpots:
            base = str(progressive.get("meter", "progressive"))
            feeds[wager] = [
                str(entry.get("meter", f"{base}-{key}")) for key, entry in jackpots.items()
            ]
        elif "meter" in progressive:
            feeds[wager] = [str(progressive["meter"])]
    for custom, table in (rules.get("custom_paytables") or {}).items():
        if isinstance(table, Mapping) and "meter" in table:
            feeds.setdefault(str(custom), []).append(str(table["meter"]))
    return feeds


@dataclass
class MeterBook:
    """One meter rebuilt from the records."""

    name: str
    reset: int
    rate: Fraction
    exact: Fraction
    """What the meter holds (the database's own figure)."""
    wagers: int = 0
    wagered: int = 0
    contributions: Fraction = Fraction(0)
    awards: int = 0
    fallen: Fraction = Fraction(0)
    """What the awards took off the meter (each award's amount before less after)."""
    paid: int = 0

    @property
    def rebuilt(self) -> Fraction:
        return self.reset + self.contributions - self.fallen

    def to_json(self) -> dict[str, Any]:
        return {
            "reset": self.reset,
            "rate": str(self.rate),
            "wagers": self.wagers,
            "wagered_cents": self.wagered,
            "contributions": str(self.contributions),
            "awards": self.awards,
            "awards_took": str(self.fallen),
            "awards_paid_cents": self.paid,
            "reset_plus_contributions_less_awards": str(self.rebuilt),
            "meter_exact": str(self.exact),
            "exact": self.rebuilt == self.exact,
        }


@dataclass
class MeterBooks:
    meters: dict[str, MeterBook] = field(default_factory=dict)
    rounds: int = 0
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds_read": self.rounds,
            "meters": {name: book.to_json() for name, book in sorted(self.meters.items())},
            "every_meter_exact": not self.problems,
            "problems": self.problems,
        }


def _records(engine: Engine) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    with engine.connect() as conn:
        table_of = {
            str(r.round_id): str(r.table_id)
            for r in conn.execute(select(live_rounds.c.round_id, live_rounds.c.table_id))
        }
        records: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in conn.execute(
            select(round_records.c.round_id, round_records.c.data).order_by(
                round_records.c.round_id, round_records.c.seq
            )
        ):
            if str(row.round_id) in table_of:
                records[str(row.round_id)].append(json.loads(row.data))
    return table_of, records


def _expected(
    books: MeterBooks,
    feeds: Mapping[str, Mapping[str, Sequence[str]]],
    table_of: Mapping[str, str],
    records: Mapping[str, list[dict[str, Any]]],
) -> tuple[dict[tuple[str, str], Fraction], dict[tuple[str, str], list[int]]]:
    """Each (round, meter)'s net contribution from its wagers; each (round, meter)'s awards
    paid, in order."""
    expected: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    awarded: dict[tuple[str, str], list[int]] = defaultdict(list)
    for rid, recs in records.items():
        kinds = {r["kind"] for r in recs}
        counts = "no_more_bets" in kinds and "round_voided" not in kinds
        for wager, names in feeds.get(table_of[rid], {}).items():
            placed = [
                int(r["amount"])
                for r in recs
                if r["kind"] == "wager_placed" and str(r["wager"]) == wager
            ]
            for name in names:
                book = books.meters.get(name)
                if book is None:
                    books.problems.append(f"{rid}: wager {wager} feeds {name}, not a meter")
                    continue
                if counts and placed:
                    book.wagers += len(placed)
                    book.wagered += sum(placed)
                    book.contributions += book.rate * sum(placed)
                    expected[rid, name] += book.rate * sum(placed)
        for i, rec in enumerate(recs):
            if rec["kind"] == "meter_changed" and rec["reason"] == "award":
                paid = next((r for r in recs[i + 1 :] if r["kind"] == "progressive_paid"), None)
                if paid is None or paid["meter"] != rec["meter"]:
                    books.problems.append(f"{rid}: an award of {rec['meter']} paid nobody")
                    continue
                awarded[rid, str(rec["meter"])].append(int(paid["amount"]))
    return expected, awarded


def meter_books(
    engine: Engine, feeds: Mapping[str, Mapping[str, Sequence[str]]] | None = None
) -> MeterBooks:
    """Rebuild every meter of the database at ``engine`` (see the module docstring).
    ``feeds`` (table id -> wager -> meters) defaults to each live table's Rules Submission."""
    books = MeterBooks()
    with engine.connect() as conn:
        for row in conn.execute(select(meters)):
            books.meters[str(row.name)] = MeterBook(
                name=str(row.name),
                reset=int(row.reset),
                rate=Fraction(int(row.rate_num), int(row.rate_den)),
                exact=int(row.cents) + Fraction(int(row.rem_num), int(row.rem_den)),
            )
        totals = {
            str(r.name): (int(r.paid_total), int(r.awards)) for r in conn.execute(select(meters))
        }
        if feeds is None:
            feeds = {
                str(r.id): feeds_of(json.loads(r.rules))
                for r in conn.execute(select(live_tables.c.id, live_tables.c.rules))
            }
        ledger = conn.execute(select(meter_ledger).order_by(meter_ledger.c.id)).all()
    table_of, records = _records(engine)
    books.rounds = len(records)
    expected, awarded = _expected(books, feeds, table_of, records)
    net: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    amount = {name: Fraction(book.reset) for name, book in books.meters.items()}
    for row in ledger:
        name, book = str(row.meter), books.meters[str(row.meter)]
        if row.reason == "created":
            continue
        key = (str(row.round_id), name)
        if row.reason in ("contribution", "void"):
            net[key] += Fraction(row.amount)
            amount[name] += Fraction(row.amount)
        elif row.reason == "award":
            paid, after = pay_share(amount[name], Fraction(row.share), book.reset)
            shown = awarded.get(key, [])
            if not shown or shown[0] != paid:
                books.problems.append(
                    f"{name}: award in {key[0]} pays {paid} of {amount[name]}, the records "
                    f"show {shown[:1]}"
                )
            awarded[key] = shown[1:]
            book.awards += 1
            book.paid += paid
            book.fallen += amount[name] - after
            amount[name] = after
        else:
            books.problems.append(f"{name}: a ledger row of reason {row.reason!r}")
    for key in sorted(set(net) | set(expected)):
        if net.get(key, Fraction(0)) != expected.get(key, Fraction(0)):
            books.problems.append(
                f"{key[1]}: round {key[0]} contributed {net.get(key, 0)}, its wagers give "
                f"{expected.get(key, 0)}"
            )
    for key, left in awarded.items():
        if left:
            books.problems.append(f"{key[1]}: awards {left} in {key[0]} left the meter untouched")
    for name, book in books.meters.items():
        if book.rebuilt != book.exact or amount[name] != book.exact:
            books.problems.append(
                f"{name}: holds {book.exact}, its reset + contributions - awards give "
                f"{book.rebuilt}"
            )
        if totals[name] != (book.paid, book.awards):
            books.problems.append(
                f"{name}: payout meter {totals[name]}, the awards give {(book.paid, book.awards)}"
            )
    return books

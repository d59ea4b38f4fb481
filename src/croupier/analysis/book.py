"""The par sheet in the layout testing labs use, as data: what the XLSX and PDF files hold.

A :class:`ParBook` gathers, for one game under one Rules Submission: the summary of every wager
(house edge with its exact fraction, element of risk, hit frequency, standard deviation), each
wager's outcome table (combinations, probability, pays, contribution to return), every pay-table
letter of every wager with its pay lines and its price, the optimal strategy, the rules in force,
the date and the croupier version.  :mod:`croupier.analysis.book_files` writes it out.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from croupier.analysis.in_force import rules_in_force
from croupier.analysis.par import CONVENTIONS, ParSheet, WagerSheet, exact
from croupier.core.errors import CroupierError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from croupier.analysis.report import PaytableReturn
    from croupier.games import Game

__all__ = [
    "LetterPrice",
    "ParBook",
    "build_book",
    "outcome_rows",
    "rules_in_force",
    "summary_rows",
]

SUMMARY_HEADER = (
    "wager",
    "pay table",
    "house edge",
    "house edge (exact)",
    "element of risk",
    "hit frequency",
    "std dev",
    "method",
)
OUTCOME_HEADER = ("outcome", "pays", "net", "combinations", "probability", "return")
LETTER_HEADER = ("wager", "pay table", "section", "in force", "house edge", "exact", "pay lines")


@dataclass(frozen=True, kw_only=True, slots=True)
class LetterPrice:
    """One pay-table letter of a wager: its pay lines and its price (or why it has none)."""

    wager: str
    letter: str
    section: str
    lines: tuple[tuple[str, str], ...]
    current: bool
    sheet: WagerSheet | None
    problem: str = ""

    @property
    def pay_lines(self) -> str:
        return "; ".join(f"{hand.replace('_', ' ')} {pays}" for hand, pays in self.lines)


@dataclass(frozen=True, kw_only=True)
class ParBook:
    """Everything one game's par-sheet file shows."""

    game: Game
    sheet: ParSheet
    letters: tuple[LetterPrice, ...]
    strategy: tuple[str, ...]
    rules: Mapping[str, Any]
    date: dt.date
    version: str

    @property
    def wagers(self) -> tuple[WagerSheet, ...]:
        base = (self.sheet.base,) if self.sheet.base is not None else ()
        return (*base, *self.sheet.wagers.values())

    @property
    def rules_text(self) -> str:
        return json.dumps(dict(self.rules), indent=2, default=str)

    @property
    def heading(self) -> tuple[str, ...]:
        return (
            f"Par sheet: {self.game.title} ({self.game.chapter})",
            f"game {self.sheet.game}; method {self.sheet.method}; croupier {self.version}; "
            f"{self.date.isoformat()}",
            f"Conventions: {CONVENTIONS}",
        )


def _pct(value: Fraction) -> str:
    return f"{float(value):.6%}"


def summary_rows(book: ParBook) -> list[tuple[str, ...]]:
    """One row per wager: :data:`SUMMARY_HEADER`."""
    return [
        (
            ws.wager,
            ws.paytable or "-",
            _pct(ws.house_edge),
            exact(ws.house_edge),
            _pct(ws.element_of_risk),
            _pct(ws.hit_frequency),
            f"{ws.std_dev:.4f}",
            ws.method,
        )
        for ws in book.wagers
    ]


def outcome_rows(ws: WagerSheet) -> list[tuple[str, str, Fraction, int, Fraction, Fraction]]:
    """One row per outcome: :data:`OUTCOME_HEADER` (exact values)."""
    total = ws.total
    return [
        (o.name, o.pays, o.net, o.weight, Fraction(o.weight, total), o.net * o.weight / total)
        for o in ws.outcomes
    ]


def _lines(table: Any) -> tuple[tuple[str, str], ...]:
    return tuple((line.hand, line.describe()) for line in table.lines)


def _letters(
    game: Game, sheet: ParSheet, returns: Mapping[str, Sequence[PaytableReturn]] | None
) -> tuple[LetterPrice, ...]:
    from croupier.analysis.report import paytable_returns

    if returns is None:
        returns = paytable_returns(game, sheet)
    priced = {(r.wager, r.letter): r for rows in returns.values() for r in rows}
    found: list[LetterPrice] = []
    tables: dict[str, Mapping[str, Any]] = dict(game.paytables)
    if "progressive" in sheet.wagers:
        tables["progressive"] = game.progressive_paytables
    seen = {(w, letter) for w, letters in tables.items() for letter in letters}
    for fixed in game.fixed_tables():
        if (fixed.wager, fixed.letter) not in seen:
            found.append(
                LetterPrice(
                    wager=fixed.wager,
                    letter=fixed.letter,
                    section=fixed.section,
                    lines=_lines(fixed),
                    current=True,
                    sheet=sheet.base,
                    problem="" if sheet.base is not None else "fixed table",
                )
            )
    for wager, letters in tables.items():
        in_sheet = wager in sheet.wagers
        for letter, table in letters.items():
            current = game.paytable(wager) if wager != "progressive" else game.progressive_table
            is_current = current is not None and current.letter == letter
            row = priced.get((wager, letter))
            ws = row.sheet if row is not None else None
            if ws is None and is_current:
                ws = sheet.wagers[wager] if in_sheet else sheet.base
            problem = row.problem if row is not None else ""
            if ws is None and not problem:
                problem = "priced with the base game" if not in_sheet else "not priced"
            found.append(
                LetterPrice(
                    wager=wager,
                    letter=letter,
                    section=table.section,
                    lines=_lines(table),
                    current=is_current,
                    sheet=ws,
                    problem=problem,
                )
            )
    listed = {lp.wager for lp in found}
    for wager, ws in sheet.wagers.items():
        # a wager whose one table is not chosen by letter (a custom table of the Rules
        # Submission, Let It Ride's progressives): its pay lines are listed too
        table = game.paytable(wager)
        if wager not in listed and table is not None:
            found.append(
                LetterPrice(
                    wager=wager,
                    letter=table.letter,
                    section=table.section,
                    lines=_lines(table),
                    current=True,
                    sheet=ws,
                )
            )
    return tuple(found)


def build_book(
    game: Game,
    sheet: ParSheet,
    *,
    today: dt.date | None = None,
    returns: Mapping[str, Sequence[PaytableReturn]] | None = None,
) -> ParBook:
    """The :class:`ParBook` of ``game`` whose exact par sheet is ``sheet`` (every pay-table
    letter is priced here unless ``returns`` gives their prices, the
    :func:`~croupier.analysis.report.paytable_returns` of ``sheet``: a few seconds per letter
    once the solvers' tables are cached)."""
    from croupier.analysis import strategy_text
    from croupier.core.about import version

    try:
        strategy = tuple(strategy_text(game).splitlines())
    except CroupierError as exc:
        strategy = (str(exc),)
    raw = rules_in_force(game)
    return ParBook(
        game=game,
        sheet=sheet,
        letters=_letters(game, sheet, returns),
        strategy=strategy,
        rules=raw,
        date=today or dt.datetime.now(dt.UTC).date(),
        version=version(),
    )

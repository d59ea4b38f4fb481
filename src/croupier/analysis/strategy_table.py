"""The optimal strategy as rows (decision, situation, action), for tables and exports.

Every decision of a game has rows: Ultimate Texas Hold 'Em's 169 starting hands and its flop
and river rules by hand (with the share of situations where the optimum bets), Mississippi
Stud's 169 starting hands and its readable 4th and 5th Street rules, and the readable tables of
the other games (one row per line of :func:`croupier.analysis.strategy_text`).  Each readable
rule has a row measuring it against the solver (action :data:`MEASURE_ACTION`): how often it
differs from the optimum and its ``cost``, the drop of the expected result per round in units
of the Ante (exact; UTH's feature rows carry their parts of it).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.core.reading import save_file

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = [
    "MEASURE_ACTION",
    "StrategyRow",
    "StrategyTable",
    "rule_clauses",
    "strategy_table",
    "text_rows",
    "write_strategy_xlsx",
]

HEADER = ("decision", "situation", "action", "share", "situations", "cost")


@dataclass(frozen=True, kw_only=True, slots=True)
class StrategyRow:
    """One decision: where it is taken, in which situation, what to do (and, where the optimum
    depends on the exact cards, the share of situations it does so, and how many; where a
    readable rule stands for the optimum, what following it costs: the drop of the expected
    result per round, in units of the Ante, exactly)."""

    decision: str
    situation: str
    action: str
    share: float | None = None
    situations: int | None = None
    cost: Fraction | None = None

    def cells(self) -> tuple[str, ...]:
        share = "" if self.share is None else f"{self.share:.2%}"
        count = "" if self.situations is None else f"{self.situations:,}"
        cost = "" if self.cost is None else f"{float(self.cost):.5%}"
        return (self.decision, self.situation, self.action, share, count, cost)


@dataclass(frozen=True, kw_only=True)
class StrategyTable:
    game: str
    title: str
    rows: tuple[StrategyRow, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {
                "decision": r.decision,
                "situation": r.situation,
                "action": r.action,
                "share": r.share,
                "situations": r.situations,
                "cost": None if r.cost is None else float(r.cost),
                "cost_exact": None if r.cost is None else str(r.cost),
            }
            for r in self.rows
        ]

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(HEADER)
        for r in self.rows:
            writer.writerow(
                (r.decision, r.situation, r.action, r.share if r.share is not None else "",
                 r.situations if r.situations is not None else "",
                 float(r.cost) if r.cost is not None else "")
            )  # fmt: skip
        return out.getvalue()


MEASURE_ACTION = "rule vs optimum"
"""The action column of a row that measures a readable rule against the solver (not a move)."""


def rule_clauses(rule: Sequence[str]) -> list[tuple[str, str]]:
    """A readable street rule (its title line, then clauses ``bet 3x with ...;`` wrapped over
    indented lines, ending ``fold the rest.``) as (situation, action) pairs, one a clause."""
    clauses: list[str] = []
    for line in rule[1:]:
        text = line.strip()
        if clauses and line.startswith("    "):  # a wrapped line continues its clause
            clauses[-1] += " " + text
        else:
            clauses.append(text)
    pairs = []
    for clause in clauses:
        text = clause.rstrip(";.")
        action, sep, situation = text.partition(" with ")
        if not sep:  # "fold the rest"
            action, _, situation = text.partition(" ")
        pairs.append((situation, action))
    return pairs


_OWN_ACTION = ("take it back", "fold", "Fold")


def _split_action(part: str) -> tuple[str, str]:
    """``"3x with pair of 9s"`` -> ("pair of 9s", "3x"); ``"fold the rest"`` -> ("the rest",
    "fold")."""
    action, sep, situation = part.partition(" with ")
    if sep:
        return situation, action.replace("play ", "")
    word, _, rest = part.partition(" ")
    return rest, word


def text_rows(game: Game) -> StrategyTable:
    """Rows from the readable strategy text: a section header (``Bet 1 ...: let it ride with``,
    ``Make the Play wager with ...:``) gives the action of the lines under it; a line
    ``head: a; b; c`` (by up card) one row per clause."""
    from croupier.analysis import strategy_text

    lines = strategy_text(game).splitlines()
    rows: list[StrategyRow] = []
    section, action = "strategy", ""
    aside = False
    for line in lines[1:]:
        text = line.strip().rstrip(";.")
        indent = len(line) - len(line.lstrip())
        if aside or text.startswith("("):  # a remark in parentheses, over one or more lines
            aside = not line.rstrip().endswith(")")
            continue
        if not text:
            continue
        if indent <= 2 and (line.rstrip().endswith(":") or text.endswith(" with")):
            head, _, act = line.strip().rstrip(":").partition(": ")
            section, action = head, (act or head.partition(" with ")[0]).lower()
            continue
        head, sep, rest = text.partition(": ")
        if sep and indent <= 2 and "; " in rest:
            for part in rest.split("; "):
                situation, act = _split_action(part)
                rows.append(StrategyRow(decision=head, situation=situation, action=act))
            continue
        own = next((a for a in _OWN_ACTION if text.startswith(a)), None)
        if own is not None:
            rest = text[len(own) :].strip()
            rows.append(StrategyRow(decision=section, situation=rest, action=own.lower()))
        else:
            rows.append(StrategyRow(decision=section, situation=text, action=action))
    if not rows:  # no decision to take (baccarat): the sentence that says so
        rows.append(StrategyRow(decision="none", situation=lines[0], action=""))
    return StrategyTable(game=game.slug, title=lines[0], rows=tuple(rows))


def strategy_table(game: Game) -> StrategyTable:
    """The optimal strategy of ``game`` as rows (see the module)."""
    from croupier.analysis.registry import analysis_for

    own = analysis_for(game).strategy_rows
    return (own or text_rows)(game)


def write_strategy_xlsx(table: StrategyTable, path: str | Path) -> Path:
    """``table`` as a one-sheet workbook (title, then one row per decision)."""
    import xlsxwriter

    target = Path(path)
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = book.add_worksheet("Strategy")
    bold = book.add_format({"bold": True})
    sheet.write(0, 0, table.title, bold)
    sheet.write_row(2, 0, HEADER, bold)
    for i, row in enumerate(table.rows, 3):
        sheet.write(i, 0, row.decision)
        sheet.write(i, 1, row.situation)
        sheet.write(i, 2, row.action)
        if row.share is not None:
            sheet.write_number(i, 3, row.share)
        if row.situations is not None:
            sheet.write_number(i, 4, row.situations)
        if row.cost is not None:
            sheet.write_number(i, 5, float(row.cost))
    sheet.set_column(0, 0, 14)
    sheet.set_column(1, 1, 70)
    sheet.set_column(2, 2, 40)
    book.close()
    return save_file(target, buffer.getvalue())

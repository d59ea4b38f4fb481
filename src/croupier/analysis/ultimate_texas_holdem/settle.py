"""The Ultimate Texas Hold 'Em settlement as the kernels' arrays, tabulated from the game.

The game states its base settlement once, as pure functions over hand keys
(:func:`croupier.games.ultimate_texas_holdem.settle_base`, :func:`~.dealer_qualifies`,
:func:`~.blind_line`, :func:`~.hand_category`).  The solver and the Monte Carlo kernels work on
dense ``poker5`` strengths (:func:`croupier.analysis.block_solver.dense_tables`) and on the
five ways a dealer holding can end against a hand: a win against a qualifying dealer (``WQ``), a
win against a non-qualifying one (``WN``), a tie (``T``), a loss to a qualifying dealer (``LQ``),
a loss to a non-qualifying one (``LN``).  :func:`settle_tables` asks the game's functions for
every array the kernels read, so no kernel restates a rule: the dealer's qualifying strength, the
category and Blind line of each strength, and the net of the Ante, Blind and Play (per 1x) of
every (result, Blind line), in units of ``1 / scale`` Ante.

The kernels count ties and losses without the player's Blind line (they pay no Blind), so their
nets must not depend on it; :func:`settle_tables` checks that the game's functions agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm

import numpy as np
import numpy.typing as npt

from croupier.analysis.block_solver import dense_tables
from croupier.core.errors import InvalidInput
from croupier.games.paytables import PayTable
from croupier.games.ultimate_texas_holdem import (
    blind_line,
    dealer_qualifies,
    hand_category,
    settle_base,
)
from croupier.games.ultimate_texas_holdem.paytables import BLIND, BLIND_HANDS
from croupier.hands import Ranking

__all__ = [
    "LN",
    "LQ",
    "NCLASS",
    "NRESULT",
    "TIE",
    "WN",
    "WQ",
    "SettleTables",
    "dealer_for",
    "settle_tables",
]

I64 = npt.NDArray[np.int64]

WQ, WN, TIE, LQ, LN = range(5)
"""The results of a hand against one dealer holding (see the module text)."""
NRESULT = 5
NCLASS = len(BLIND_HANDS) + 1
"""Blind lines: the hands of
:data:`~croupier.games.ultimate_texas_holdem.paytables.BLIND_HANDS`, then the rest."""
_CATEGORIES = Ranking.POKER5.categories


@dataclass(frozen=True, slots=True, eq=False)
class SettleTables:
    """The kernels' arrays for one Blind table, every entry from the game's functions."""

    table: PayTable
    scale: int
    """The common denominator of every net."""
    values: npt.NDArray[np.int32]
    """The hand key (order value) of each dense strength."""
    q0: int
    """The lowest strength with which the dealer qualifies (every higher one does too)."""
    category: I64
    """The category index of each strength."""
    bclass: I64
    """The Blind line of each strength: its position in ``BLIND_HANDS``, else ``NCLASS - 1``."""
    net: I64
    """(NRESULT, NCLASS, 3): the net of the Ante, the Blind and the Play per 1x, times
    ``scale``, of a hand of each Blind line against a dealer holding of each result."""
    fold: int
    """The net of a fold, times ``scale``."""
    type_net: I64
    """(NTYPES = 17, 3): the rows of :attr:`net` by the kernels' result types: a win against a
    qualifying dealer by Blind line (7), against a non-qualifying one by Blind line (7), a tie,
    a loss to a qualifying dealer, a loss to a non-qualifying one."""

    @property
    def blind(self) -> I64:
        """The Blind net of a winning hand by Blind line, times ``scale`` (0: a push)."""
        return self.net[WQ, :, 1].copy()

    @property
    def pays(self) -> dict[str, Fraction]:
        """The table's "to 1" payouts by hand (the solvers' checkpoint parameters)."""
        return {line.hand: line.odds.net for line in self.table.lines if line.odds is not None}

    def nets(self, result: int, line: int, multiple: int) -> Fraction:
        """The tabulated net per unit Ante of playing ``multiple`` times (0: fold)."""
        if multiple == 0:
            return Fraction(self.fold, self.scale)
        ante, blind, play = (int(x) for x in self.net[result, line])
        return Fraction(ante + blind + multiple * play, self.scale)


def dealer_for(strength: int, result: int, q0: int, top: int) -> int | None:
    """A dealer strength that gives ``result`` against ``strength`` (None if there is none):
    the lowest qualifying or lowest of all below it, itself, the highest or the highest
    non-qualifying above it."""
    if result == WQ:
        return q0 if q0 < strength else None
    if result == WN:
        return 0 if strength > 0 and q0 > 0 else None
    if result == TIE:
        return strength
    if result == LQ:
        return top if strength < top else None
    return q0 - 1 if strength < q0 - 1 else None


def _representatives(bclass: I64, q0: int, top: int) -> dict[tuple[int, int], tuple[int, int]]:
    """For each (result, Blind line) that occurs: one (player, dealer) pair of strengths."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for line in range(NCLASS):
        members = np.flatnonzero(bclass == line)
        if members.size == 0:
            continue
        for player in (int(members[-1]), int(members[0])):
            for result in range(NRESULT):
                dealer = dealer_for(player, result, q0, top)
                if dealer is not None:
                    found.setdefault((result, line), (player, dealer))
    return found


def _classes(values: npt.NDArray[np.int32], table: PayTable) -> tuple[I64, I64]:
    """The category index and Blind line of every strength; a table that pays a hand outside
    ``BLIND_HANDS`` is refused."""
    cats = np.array([_CATEGORIES.index(hand_category(int(v))) for v in values], dtype=np.int64)
    bclass = np.full(values.size, NCLASS - 1, dtype=np.int64)
    for index, category in enumerate(_CATEGORIES):
        at = np.flatnonzero(cats == index)
        if at.size == 0:
            continue
        line = blind_line(int(values[at[0]]), table)
        if category.value in BLIND_HANDS:
            bclass[at] = BLIND_HANDS.index(category.value)
        elif line is not None:
            raise InvalidInput(
                f"Blind table {table.letter} pays {line.hand}; a Blind table pays only "
                f"{', '.join(BLIND_HANDS)}",
                section="§ 653a.12(b)",
            )
    return cats, bclass


@cache
def settle_tables(table: PayTable | None = None) -> SettleTables:
    """The kernels' arrays under Blind table ``table`` (default table A)."""
    table = BLIND["A"] if table is None else table
    dense = dense_tables(Ranking.POKER5)
    values = dense.values
    qualifies = [dealer_qualifies(int(v)) for v in values]
    q0 = qualifies.index(True)
    if not all(qualifies[q0:]):  # pragma: no cover - a broken rule
        raise AssertionError("the dealer qualifies from one strength up")
    cats, bclass = _classes(values, table)
    top = values.size - 1
    nets: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]] = {}
    for (result, line), (player, dealer) in _representatives(bclass, q0, top).items():
        nets[result, line] = settle_base(int(values[player]), int(values[dealer]), 1, table).nets
    fold = settle_base(int(values[top]), int(values[0]), 0, table).net
    scale = lcm(1, fold.denominator, *(x.denominator for row in nets.values() for x in row))
    net = np.zeros((NRESULT, NCLASS, 3), dtype=np.int64)
    for (result, line), row in nets.items():
        net[result, line] = [int(x * scale) for x in row]
    for result in (TIE, LQ, LN):
        rows = {tuple(net[result, line]) for line in range(NCLASS) if (result, line) in nets}
        if len(rows) != 1:  # pragma: no cover - the kernels' form of the rule
            raise AssertionError(f"result {result}: the net depends on the Blind line")
        net[result, :] = rows.pop()
    by_type = [*net[WQ], *net[WN], net[TIE, 0], net[LQ, 0], net[LN, 0]]
    return SettleTables(
        table=table,
        scale=scale,
        values=values,
        q0=q0,
        category=cats,
        bclass=bclass,
        net=net,
        fold=int(fold * scale),
        type_net=np.array(by_type, dtype=np.int64),
    )

"""Mississippi Stud 4th and 5th Street as rules a dealer or player can read, each measured
against the exact solver's decisions (:mod:`croupier.analysis.mississippi_stud.sheet`).

Cards are valued by points: a high card (J, Q, K, A) 2, a middle card (6 to T) 1, a low card
(2 to 5) 0.  A paying hand is a pair of jacks or better (§ 655a.12(a); a pair of sixes to tens
pushes, § 571.11(h)(2)).

The rules are :data:`FOURTH_RULE` and :data:`FIFTH_RULE` (3rd Street is the solver's own
table by starting hand, :func:`croupier.analysis.strategy_text`).

:func:`measure` walks every deal (the two cards, then the community cards in the order they
are turned; 3,248,700 deals for 5th Street) with the optimal 3rd (and 4th) Street bets, and
counts how often the rule's bet differs from the optimum on the street measured and what it
costs: the drop of the expected result per deal, in units of the Ante, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.strategy_table import (
    MEASURE_ACTION,
    StrategyRow,
    StrategyTable,
    rule_clauses,
)
from croupier.games import Game

__all__ = [
    "FIFTH_RULE",
    "FOURTH_RULE",
    "MEASURED",
    "RuleCheck",
    "fifth_street_bet",
    "fourth_street_bet",
    "measure",
    "mississippi_stud_text",
    "rules_text",
    "stud_rows",
]

I64 = npt.NDArray[np.int64]

FOURTH_RULE = (
    "4th Street (your two cards and the first community card):",
    "  bet 3x with a pair of sixes or better (three of a kind too), or three to a straight",
    "    flush in a row with 2 points or more, or any three to a straight flush with 5 points;",
    "  bet 1x with a low pair (2s to 5s), any three to a flush, three in a row with a point,",
    "    three to a straight with a gap and 2 points, or 3 points or more;",
    "  fold the rest.",
)
FIFTH_RULE = (
    "5th Street (your two cards and two community cards):",
    "  bet 3x with a pair of sixes or better, two pair, three of a kind, four to a flush, or",
    "    four in a row open at both ends (not A-K-Q-J, not A-2-3-4) with 3 points or more;",
    "  bet 1x with a low pair (2s to 5s), any other four to a straight, 5 points or more, or",
    "    3 points or more when you have already bet 3x on 3rd or 4th Street;",
    "  fold the rest.",
)
"""The rules, as the strategy table prints them (points: J-A 2, 6-T 1, 2-5 0)."""


def _ranks_suits(cards: I64) -> tuple[I64, I64]:
    """Ranks 2..14 and suits 0..3 of card indices (index = 4 * (rank - 2) + suit)."""
    return cards // 4 + 2, cards % 4


def _features(cards: I64) -> dict[str, Any]:
    """Per row of ``cards`` (n, k): pair counts, flush, straight draws and points."""
    ranks, suits = _ranks_suits(cards)
    k = cards.shape[1]
    counts = np.zeros((cards.shape[0], 15), dtype=np.int64)
    for j in range(k):
        np.add.at(counts, (np.arange(cards.shape[0]), ranks[:, j]), 1)
    pairs = (counts == 2).sum(axis=1)
    trips = (counts >= 3).any(axis=1)
    high_pair = (counts[:, 11:15] >= 2).any(axis=1)
    mid_pair = (counts[:, 6:11] >= 2).any(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    present = counts > 0
    present[:, 1] = present[:, 14]  # the ace also plays low
    distinct = (counts > 0).sum(axis=1) == k
    lo = np.where(distinct, ranks.min(axis=1), 0)
    hi = np.where(distinct, ranks.max(axis=1), 0)
    wheel = distinct & present[:, 14] & (np.sort(ranks, axis=1)[:, -2] <= 5)
    span = np.where(wheel, np.sort(ranks, axis=1)[:, -2] - 1, hi - lo)
    points = np.where(ranks >= 11, 2, np.where(ranks >= 6, 1, 0)).sum(axis=1)
    return {
        "pairs": pairs,
        "trips": trips,
        "paying": high_pair | trips | (pairs >= 2),
        "small_pair": (pairs == 1) & ~high_pair,
        "mid_pair": mid_pair,
        "flush": flush,
        "straight_draw": distinct & (span <= 4),
        "no_gap": distinct & (span == k - 1),
        "top": np.where(wheel, np.sort(ranks, axis=1)[:, -2], hi),
        "high_cards": (ranks >= 11).sum(axis=1),
        "points": points,
        "ace_low": wheel,
    }


def fourth_street_bet(cards: I64) -> I64:
    """:data:`FOURTH_RULE` for each row of three card indices: 0 fold, 1 or 3."""
    f = _features(cards)
    pair6 = f["paying"] | f["mid_pair"]
    low_pair = f["small_pair"] & ~f["mid_pair"]
    in_row = f["no_gap"] & ~f["ace_low"]
    sf = f["flush"] & f["straight_draw"]
    points = f["points"]
    three = pair6 | (sf & in_row & (points >= 2)) | (sf & (points >= 5))
    one = (
        low_pair
        | f["flush"]
        | (in_row & (points >= 1))
        | (f["straight_draw"] & (points >= 2))
        | (points >= 3)
    )
    return np.where(three, 3, np.where(one, 1, 0)).astype(np.int64)


def fifth_street_bet(cards: I64, *, raised: npt.NDArray[np.bool_] | bool = False) -> I64:
    """:data:`FIFTH_RULE` for each row of four card indices: 0 fold, 1 or 3; ``raised``: the
    player has bet 3x on 3rd or 4th Street (per row, or for all)."""
    f = _features(cards)
    pair6 = f["paying"] | f["mid_pair"]
    low_pair = f["small_pair"] & ~f["mid_pair"]
    open_ended = f["no_gap"] & ~f["ace_low"] & (f["top"] <= 13)
    three = pair6 | f["flush"] | (open_ended & (f["points"] >= 3))
    points = f["points"]
    one = low_pair | f["straight_draw"] | (points >= 5) | (np.asarray(raised) & (points >= 3))
    return np.where(three, 3, np.where(one, 1, 0)).astype(np.int64)


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleCheck:
    """A readable rule against the optimum on one street, over every deal."""

    street: str
    deals: int
    reached: int
    """Deals where the optimal player is still in at this street."""
    differ: int
    """Of those, the deals where the rule's bet is not the optimal one."""
    cost: Fraction
    """Expected loss per deal (units of the Ante) of following the rule on this street only."""

    @property
    def differ_share(self) -> Fraction:
        return Fraction(self.differ, self.reached)

    def render(self) -> str:
        return (
            f"{self.street}: the rule's bet differs from the optimum in {self.differ:,} of the "
            f"{self.reached:,} deals that reach it ({float(self.differ_share):.3%}), costing "
            f"{float(self.cost):.5%} of the Ante per hand"
        )


MEASURED = {
    "4th": RuleCheck(
        street="4th Street",
        deals=3_248_700,
        reached=2_239_300,
        differ=55_272,
        cost=Fraction(107, 116025),
    ),
    "5th": RuleCheck(
        street="5th Street", deals=3_248_700, reached=1_989_988, differ=0, cost=Fraction(0)
    ),
}
"""What :func:`measure` finds (the test recomputes it): the readable rules against the solver,
each street measured with the optimal play on the others."""


def mississippi_stud_text(game: Any) -> str:
    """The solver's 3rd Street table followed by the readable 4th and 5th Street rules."""
    from croupier.analysis.mississippi_stud.sheet import mississippi_stud_strategy_text

    third = [
        line
        for line in mississippi_stud_strategy_text(game).splitlines()
        if not line.startswith("  4th and 5th Street")
    ]
    return "\n".join([*third, *rules_text()])


def rules_text() -> list[str]:
    """The 4th and 5th Street rules with how far each is from the optimum."""
    lines = [*FOURTH_RULE, f"  ({MEASURED['4th'].render()})"]
    lines += [*FIFTH_RULE, f"  ({MEASURED['5th'].render()})"]
    return lines


def _rank(cards: I64, binom: I64) -> I64:
    """Colex rank of each row of card indices (sorted here)."""
    s = np.sort(cards, axis=1)
    found: I64 = np.zeros(s.shape[0], dtype=np.int64)
    for i in range(s.shape[1]):
        found += binom[s[:, i], i + 1]
    return found


def _deals() -> I64:
    """Every deal (a < b the two cards, c, d the community cards in order): (3,248,700, 4)."""
    a, b = np.triu_indices(52, 1)
    rows = []
    for c in range(52):
        for d in range(52):
            if c == d:
                continue
            keep = (a != c) & (a != d) & (b != c) & (b != d)
            size = int(keep.sum())
            rows.append(np.stack([a[keep], b[keep], np.full(size, c), np.full(size, d)], 1))
    return np.concatenate(rows).astype(np.int64)


def _by_set(rule: Any, k: int, binom: I64) -> I64:
    """``rule`` evaluated once per ``k``-card set, indexed by the set's colex rank."""
    from itertools import combinations

    sets = np.array(list(combinations(range(52), k)), dtype=np.int64)
    out = np.zeros(sets.shape[0], dtype=np.int64)
    out[_rank(sets, binom)] = rule(sets)
    return out


def _choose5(total: I64, t: I64) -> I64:
    """As :func:`croupier.analysis.stud_counts.choose5` for arrays: fold is worth -48t, a bet of k
    (t + k) * total; ties go to the smaller bet."""
    values = np.stack([-48 * t, *((t + k) * total for k in (1, 2, 3))], axis=1)
    found: I64 = np.argmax(values, axis=1).astype(np.int64)
    return found


def _fifth_value(s: I64, t: I64, k: I64) -> I64:
    """Sum over the 48 fifth cards of a 5th Street bet of ``k`` (0: fold) on ``t`` units."""
    found: I64 = np.where(k == 0, -48 * t, (t + k) * s)
    return found


def measure(street: str) -> RuleCheck:
    """The rule of ``street`` ("4th" or "5th") against the solver over every deal, the other
    streets played optimally."""
    from croupier.analysis.mississippi_stud.sheet import _solved
    from croupier.analysis.stud_counts import BINOM

    _, sums, k3, k4, _ = _solved()
    binom = np.asarray(BINOM, dtype=np.int64)
    deals = _deals()
    n = deals.shape[0]
    t4 = 1 + np.asarray(k3, dtype=np.int64)[_rank(deals[:, :2], binom)]
    in3 = t4 > 1
    r3 = _rank(deals[:, :3], binom)
    opt4 = np.asarray(k4, dtype=np.int64)[r3, np.minimum(t4, 4)]
    s = np.asarray(sums, dtype=np.int64)[_rank(deals, binom)]
    if street == "5th":
        reached = in3 & (opt4 > 0)
        t5 = t4 + opt4
        opt = _choose5(s, t5)
        r4 = _rank(deals, binom)
        plain = _by_set(fifth_street_bet, 4, binom)[r4]
        raised = _by_set(lambda c: fifth_street_bet(c, raised=True), 4, binom)[r4]
        rule = np.where(t5 > 3, raised, plain)
        loss = (_fifth_value(s, t5, opt) - _fifth_value(s, t5, rule))[reached]
        name = "5th Street"
    else:
        rule = _by_set(fourth_street_bet, 3, binom)[r3]
        opt = opt4
        reached = in3

        def after4(k: I64) -> I64:
            # each deal's 48 fifth cards played optimally; a fold loses t4 on each
            t = t4 + k
            found: I64 = np.where(k == 0, -48 * t4, _fifth_value(s, t, _choose5(s, t)))
            return found

        loss = (after4(opt4) - after4(rule))[reached]
        name = "4th Street"
    return RuleCheck(
        street=name,
        deals=n,
        reached=int(reached.sum()),
        differ=int(((opt != rule) & reached).sum()),
        cost=Fraction(int(loss.sum()), 48 * n),
    )


def stud_rows(game: Game) -> StrategyTable:
    from croupier.analysis import strategy_text

    rows: list[StrategyRow] = []
    for line in strategy_text(game).splitlines()[1:]:
        head, _, hands = line.strip().partition(": ")
        if head.startswith("bet") or head.startswith("fold"):
            action = head.split(" (")[0]
            rows += [
                StrategyRow(decision="3rd Street", situation=h, action=action)
                for h in hands.split()
                if h != "-"
            ]
    for key, rule in (("4th", FOURTH_RULE), ("5th", FIFTH_RULE)):
        rows += [
            StrategyRow(decision=f"{key} Street", situation=situation, action=action)
            for situation, action in rule_clauses(rule)
        ]
        check = MEASURED[key]
        rows.append(
            StrategyRow(
                decision=f"{key} Street",
                situation=check.render(),
                action=MEASURE_ACTION,
                share=float(check.differ_share),
                situations=check.reached,
                cost=check.cost,
            )
        )
    return StrategyTable(
        game=game.slug,
        title="Mississippi Stud: optimal 3rd Street by starting hand; 4th and 5th Street rules",
        rows=tuple(rows),
    )

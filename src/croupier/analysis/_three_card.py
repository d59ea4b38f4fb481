"""Exact Three Card Poker Ante/Play: every player hand (up to suit symmetry) against every dealer
hand of the 49 cards left, with the optimal play/fold decision.

Results per unit Ante (the Play equals the Ante): the dealer does not qualify (less than queen
high): Ante wins 1 to 1, Play pushes; otherwise the higher hand wins Ante and Play 1 to 1, a tie
pushes both; the Ante Bonus is paid on any played hand whatever the dealer holds; a fold loses
the Ante.  Integers throughout: the decision compares exact sums over the same 18,424 dealer
hands; on equal value the player folds (the smaller wager).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.analysis.par import Outcome, merge_outcomes
from croupier.hands import CATEGORY_SHIFT, Ranking, pack

__all__ = ["ThreeCardResult", "solve_three_card"]

QUEEN_HIGH = pack(0, (12, 3, 2))
"""The lowest qualifying dealer hand: queen high (Q-3-2)."""


@cache
def _all_hands() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.uint64]]:
    from croupier.kernels import comb_unrank_batch, rank_batch

    hands = comb_unrank_batch(np.arange(comb(52, 3), dtype=np.int64), 3)
    values = rank_batch(Ranking.THREE_CARD, hands)
    masks = np.zeros(len(hands), dtype=np.uint64)
    for i in range(3):
        masks |= np.left_shift(np.uint64(1), hands[:, i].astype(np.uint64))
    return hands, values, masks


@dataclass(frozen=True, kw_only=True)
class ThreeCardResult:
    outcomes: tuple[Outcome, ...]
    play_threshold: tuple[int, ...]
    """The weakest hand played, as its three ranks (high to low) of a high-card hand."""
    played: frozenset[int]
    """Canonical hands (suit classes, as card-index bitmasks) the optimal strategy plays."""
    exceptions: tuple[int, ...] = ()
    """Values at or above the threshold that are folded in some suit class (none expected)."""


@cache
def solve_three_card(ante_bonus: tuple[tuple[str, Fraction], ...]) -> ThreeCardResult:
    """Exact Ante/Play sheet; ``ante_bonus`` pairs a three-card category name with its net
    payout per unit Ante (e.g. ``(("straight", 1), ("three_of_a_kind", 4), ...)``)."""
    bonus_of = dict(ante_bonus)
    from croupier.kernels import canonical_hands

    _, values, masks = _all_hands()
    reps, weights = canonical_hands(3)
    rep_masks = np.zeros(len(reps), dtype=np.uint64)
    for i in range(3):
        rep_masks |= np.left_shift(np.uint64(1), reps[:, i].astype(np.uint64))
    index_of = {int(m): i for i, m in enumerate(masks.tolist())}
    categories = Ranking.THREE_CARD.categories
    outcomes: list[Outcome] = []
    weakest_played: int | None = None
    played: set[int] = set()
    folded_values: list[int] = []
    qualifies = values >= QUEEN_HIGH
    for rep_mask, weight in zip(rep_masks.tolist(), weights.tolist(), strict=True):
        value = int(values[index_of[int(rep_mask)]])
        live = (masks & np.uint64(rep_mask)) == 0
        dealer = values[live]
        q = qualifies[live]
        no_qual = int(np.count_nonzero(~q))
        wins = int(np.count_nonzero(q & (dealer < value)))
        ties = int(np.count_nonzero(q & (dealer == value)))
        losses = int(np.count_nonzero(q & (dealer > value)))
        n = no_qual + wins + ties + losses
        category = categories[value >> CATEGORY_SHIFT].value
        bonus = Fraction(bonus_of.get(category, 0))
        play_sum = no_qual * 1 + wins * 2 - losses * 2 + bonus * n
        if play_sum > -n:
            played.add(int(rep_mask))
            if weakest_played is None or value < weakest_played:
                weakest_played = value
            tag = f", ante bonus {category}" if bonus else ""
            for name, net, count in (
                ("dealer does not qualify", 1, no_qual),
                ("win", 2, wins),
                ("tie", 0, ties),
                ("lose", -2, losses),
            ):
                outcomes.append(
                    Outcome(
                        name=name + tag,
                        net=Fraction(net) + bonus,
                        wagered=Fraction(2),
                        weight=count * weight,
                        pays=f"bonus {bonus} to 1" if bonus else "1 to 1" if net else "push",
                    )
                )
        else:
            outcomes.append(Outcome(name="fold", net=Fraction(-1), weight=n * weight, pays="-"))
            folded_values.append(value)
    assert weakest_played is not None
    ranks = tuple((weakest_played >> s) & 0xF for s in (16, 12, 8))
    exceptions = tuple(sorted({v for v in folded_values if v >= weakest_played}))
    return ThreeCardResult(
        outcomes=merge_outcomes(outcomes),
        play_threshold=ranks,
        played=frozenset(played),
        exceptions=exceptions,
    )

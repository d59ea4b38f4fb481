"""Exact Three Card Poker Ante/Play: every player hand (up to suit symmetry) against every dealer
hand of the 49 cards left, with the optimal play/fold decision.

The rules are the game's (:mod:`croupier.games.three_card_poker`), tabulated here once: whether
each dealer hand qualifies (:func:`~croupier.games.three_card_poker.dealer_qualifies`), the net
of the Ante and the Play per :class:`~croupier.games.three_card_poker.Showdown` and decision
(:func:`~croupier.games.three_card_poker.ante_play_net`), and each player hand's Ante Bonus
(:func:`~croupier.games.three_card_poker.ante_bonus_net`).  The solver, the protection analysis
(:mod:`croupier.analysis.protect`) and the fast Monte Carlo's tables read these arrays; a test
checks that they equal the game's functions on every key.

Integers throughout: the decision compares exact sums over the same 18,424 dealer hands; on
equal value the player folds (the smaller wager).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.par import Outcome, merge_outcomes
from croupier.core.cards import DECK
from croupier.games.paytables import PayTable
from croupier.games.three_card_poker import (
    Decision,
    Showdown,
    ante_bonus_net,
    ante_play_net,
    dealer_qualifies,
    hand_keys,
)
from croupier.hands import CATEGORY_SHIFT, Category, HandRank, Ranking, evaluate

__all__ = [
    "KERNEL_OUTCOMES",
    "CanonicalHands",
    "ThreeCardResult",
    "all_hands",
    "ante_bonus_by_class",
    "canonical",
    "fold_net",
    "kernel_tables",
    "played_net",
    "qualifying",
    "showdown_nets",
    "solve_three_card",
]

Int64Array = npt.NDArray[np.int64]


@cache
def all_hands() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32], npt.NDArray[np.uint64]]:
    """Every three-card set (colex order): its cards, its order value, its card bitmask."""
    from math import comb

    from croupier.kernels import comb_unrank_batch, rank_batch

    hands = comb_unrank_batch(np.arange(comb(52, 3), dtype=np.int64), 3)
    values = rank_batch(Ranking.THREE_CARD, hands)
    masks = np.zeros(len(hands), dtype=np.uint64)
    for i in range(3):
        masks |= np.left_shift(np.uint64(1), hands[:, i].astype(np.uint64))
    return hands, values, masks


@cache
def qualifying() -> npt.NDArray[np.bool_]:
    """Per hand of :func:`all_hands`: whether the dealer qualifies with it, tabulated from
    :func:`~croupier.games.three_card_poker.dealer_qualifies` on each distinct value."""
    _, values, _ = all_hands()
    distinct, inverse = np.unique(values, return_inverse=True)
    table = np.array([dealer_qualifies(int(v)) for v in distinct.tolist()], dtype=np.bool_)
    return table[inverse]


@cache
def showdown_nets() -> dict[Showdown, int]:
    """The net of a played hand's Ante and Play per showdown, in units of the Ante."""
    return {s: ante_play_net(Decision.PLAY, s) for s in Showdown}


def fold_net() -> int:
    """The net of a folded hand, in units of the Ante (whatever the dealer holds)."""
    return ante_play_net(Decision.FOLD, Showdown.LOSE)


def played_net(
    player: npt.ArrayLike, dealer: npt.ArrayLike, qualifies: npt.ArrayLike
) -> Int64Array:
    """The tabulated net (units of the Ante) of played hands of values ``player`` against dealer
    hands of values ``dealer`` (broadcast), ``qualifies`` telling the dealer's qualification."""
    nets = showdown_nets()
    p, d, q = np.asarray(player), np.asarray(dealer), np.asarray(qualifies, dtype=np.bool_)
    met = np.where(
        d < p, nets[Showdown.WIN], np.where(d == p, nets[Showdown.TIE], nets[Showdown.LOSE])
    )
    return np.where(q, met, nets[Showdown.DEALER_DOES_NOT_QUALIFY]).astype(np.int64)


@dataclass(frozen=True, kw_only=True)
class CanonicalHands:
    """One player hand per suit class: its cards, weight, bitmask and order value."""

    cards: npt.NDArray[np.uint8]
    weights: Int64Array
    masks: npt.NDArray[np.uint64]
    values: Int64Array


@cache
def canonical() -> CanonicalHands:
    from croupier.kernels import canonical_hands

    _, values, masks = all_hands()
    reps, weights = canonical_hands(3)
    rep_masks = np.zeros(len(reps), dtype=np.uint64)
    for i in range(3):
        rep_masks |= np.left_shift(np.uint64(1), reps[:, i].astype(np.uint64))
    index_of = {int(m): i for i, m in enumerate(masks.tolist())}
    rep_values = np.array([int(values[index_of[int(m)]]) for m in rep_masks.tolist()])
    return CanonicalHands(
        cards=reps, weights=weights, masks=rep_masks, values=rep_values.astype(np.int64)
    )


@cache
def ante_bonus_by_class(table: PayTable | None) -> tuple[Fraction, ...]:
    """Per suit class of :func:`canonical`: the Ante Bonus of the played hand per unit Ante,
    from :func:`~croupier.games.three_card_poker.ante_bonus_net` on the hand's pay-table names
    (its category and a mini royal: the same for every hand of one order value)."""
    reps = canonical()
    by_value: dict[int, Fraction] = {}
    out = []
    for cards, value in zip(reps.cards.tolist(), reps.values.tolist(), strict=True):
        if value not in by_value:
            rank = HandRank.of_value(value, Ranking.THREE_CARD)
            if rank.category is Category.STRAIGHT_FLUSH:
                # the mini royal's names look at the cards (its suit): rank them
                rank = evaluate([DECK[c] for c in cards], Ranking.THREE_CARD)
            by_value[value] = ante_bonus_net(table, hand_keys(rank), Decision.PLAY)
        out.append(by_value[value])
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class ThreeCardResult:
    outcomes: tuple[Outcome, ...]
    play_threshold: tuple[int, ...]
    """The weakest hand played, as its three ranks (high to low) of a high-card hand."""
    played: frozenset[int]
    """Canonical hands (suit classes, as card-index bitmasks) the optimal strategy plays."""
    exceptions: tuple[int, ...] = ()
    """Values at or above the threshold that are folded in some suit class (none expected)."""


_NAMES = (
    (Showdown.DEALER_DOES_NOT_QUALIFY, "dealer does not qualify"),
    (Showdown.WIN, "win"),
    (Showdown.TIE, "tie"),
    (Showdown.LOSE, "lose"),
)


@cache
def solve_three_card(ante_bonus: PayTable | None) -> ThreeCardResult:
    """Exact Ante/Play sheet with the Ante Bonus table ``ante_bonus`` (``None``: none)."""
    _, values, masks = all_hands()
    reps = canonical()
    bonuses = ante_bonus_by_class(ante_bonus)
    nets = showdown_nets()
    fold = fold_net()
    outcomes: list[Outcome] = []
    weakest_played: int | None = None
    played: set[int] = set()
    folded_values: list[int] = []
    qualifies = qualifying()
    for rep_mask, weight, value, bonus in zip(
        reps.masks.tolist(), reps.weights.tolist(), reps.values.tolist(), bonuses, strict=True
    ):
        live = (masks & np.uint64(rep_mask)) == 0
        dealer = values[live]
        q = qualifies[live]
        counts = {
            Showdown.DEALER_DOES_NOT_QUALIFY: int(np.count_nonzero(~q)),
            Showdown.WIN: int(np.count_nonzero(q & (dealer < value))),
            Showdown.TIE: int(np.count_nonzero(q & (dealer == value))),
            Showdown.LOSE: int(np.count_nonzero(q & (dealer > value))),
        }
        n = sum(counts.values())
        play_sum = sum(nets[s] * c for s, c in counts.items()) + bonus * n
        if play_sum > fold * n:
            played.add(int(rep_mask))
            if weakest_played is None or value < weakest_played:
                weakest_played = value
            category = Ranking.THREE_CARD.categories[value >> CATEGORY_SHIFT].value
            tag = f", ante bonus {category}" if bonus else ""
            for s, name in _NAMES:
                net = nets[s]
                outcomes.append(
                    Outcome(
                        name=name + tag,
                        net=Fraction(net) + bonus,
                        wagered=Fraction(2),
                        weight=counts[s] * weight,
                        pays=f"bonus {bonus} to 1" if bonus else "1 to 1" if net else "push",
                    )
                )
        else:
            outcomes.append(Outcome(name="fold", net=Fraction(fold), weight=n * weight, pays="-"))
            folded_values.append(value)
    assert weakest_played is not None
    ranks = HandRank.of_value(weakest_played, Ranking.THREE_CARD).tie_ranks
    exceptions = tuple(sorted({v for v in folded_values if v >= weakest_played}))
    return ThreeCardResult(
        outcomes=merge_outcomes(outcomes),
        play_threshold=ranks,
        played=frozenset(played),
        exceptions=exceptions,
    )


KERNEL_OUTCOMES = (
    Showdown.DEALER_DOES_NOT_QUALIFY,
    Showdown.WIN,
    Showdown.TIE,
    Showdown.LOSE,
    Decision.FOLD,
)
"""The order of the kernel's nets (:func:`kernel_tables`)."""


@cache
def kernel_tables(ante_bonus: PayTable | None) -> tuple[Any, ...]:
    """The fast Monte Carlo's tables
    (:func:`croupier.analysis.three_card_poker.montecarlo.tcp_settle`), by
    three-card colex rank: each set's order value, whether the solver's strategy plays it (its
    suit class in :attr:`ThreeCardResult.played`), its Ante Bonus and whether the dealer
    qualifies with it; then ``scale`` (the nets are in 1/scale Ante), the binomials, and the
    nets of :data:`KERNEL_OUTCOMES` (the four showdowns, then the fold)."""
    from math import comb, lcm

    from croupier.analysis.stud_counts import BINOM
    from croupier.kernels import canonical_form

    hands, values, _ = all_hands()
    played = solve_three_card(ante_bonus).played
    by_class = ante_bonus_by_class(ante_bonus)
    scale = lcm(1, *(b.denominator for b in by_class))
    reps = canonical().masks.astype(np.int64)
    by_mask = np.argsort(reps)
    n = comb(52, 3)
    cards = np.sort(hands.astype(np.int64), axis=1)
    rows = sum(BINOM[cards[:, i], i + 1] for i in range(3))
    canon = canonical_form(hands).astype(np.int64)
    masks = np.zeros(n, dtype=np.int64)
    for i in range(3):
        masks |= np.left_shift(np.int64(1), canon[:, i])
    value = np.zeros(n, dtype=np.int64)
    play = np.zeros(n, dtype=np.uint8)
    bonus = np.zeros(n, dtype=np.int64)
    qualifies = np.zeros(n, dtype=np.uint8)
    value[rows] = values
    play[rows] = np.isin(masks, np.array(sorted(played), dtype=np.int64))
    class_of = by_mask[np.searchsorted(reps[by_mask], masks)]
    assert (reps[class_of] == masks).all()
    bonus[rows] = np.array([int(b * scale) for b in by_class], dtype=np.int64)[class_of]
    qualifies[rows] = qualifying()
    nets = showdown_nets()
    outcome = [nets[s] * scale for s in KERNEL_OUTCOMES[:4]] + [fold_net() * scale]
    return (value, play, bonus, qualifies, scale, BINOM, np.array(outcome, dtype=np.int64))

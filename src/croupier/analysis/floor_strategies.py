"""Typical players' strategies for the floor forecast, named and cited, on the fast kernels.

A floor is not played by solvers.  Casino guides describe the simple rules many players follow;
each is here as the fast kernel's decision tables (the kernel and its settlement unchanged: only
the decisions differ) and its exact mean, so the forecast's theoretical win stays exact:

Three Card Poker (§ 649a.11(b): play or fold):

* ``q64``: play any pair or better and Q-6-4 or better (Wizard of Odds, "Three Card Poker":
  the simple rule, within a hair of the optimum; :func:`~croupier.games.three_card_poker.
  plays_by_q64`);
* ``mimic-the-dealer``: play whenever the hand would qualify a dealer, Q-high or better (the
  "mimic the dealer" rule most guides warn against);
* ``never-fold``: play every hand.

Their exact edges (per Ante, Ante Bonus table A, 5-4-1) match the published ones: 3.37% for
Q-6-4, 3.45% for Queen or better, 7.65% for playing every hand (John Grochowski, "Three Card
Poker Dissected", Casino City Times, 19 December 2021,
https://www.casinocitytimes.com/john-grochowski/article/three-card-poker-dissected-67680).

Ultimate Texas Hold 'Em (§ 569.11: check or 3x/4x, check or 2x, 1x or fold), each exact by
counting every deal (:mod:`croupier.analysis.ultimate_texas_holdem.typical`; no published figure
found):

* ``check-to-river``: never raise before the river, then play 1x with every hand;
* ``ace-or-pair-4x``: raise 4x with any pair or any ace, else as ``check-to-river``.

Mississippi Stud (§ 571.11: bet 1x-3x or fold on each street):

* ``never-fold-1x``: bet 1x on every street and never fold (the "minimum bet, see every card"
  player of casino guides).

Four Card Poker (§ 641a.11(b), § 641a.7(d)(1): fold, or play 1x to 3x the Ante), each exact from
the solver's own value of every decision at every (up card, player strength)
(:func:`croupier.analysis.four_card_poker.solver.strength_strategy_value`):

* ``basic``: fold a pair of 2s or less, play 1x with a pair of 3s to 9s, 3x with a pair of 10s
  or better, whatever the up card (the basic strategy of Shuffle Master's table pamphlet, as
  Elliot Frome analysed it: "Four Card Poker - Part Two", Casino City Times, 14 April 2004,
  https://www.casinocitytimes.com/elliot-frome/article/four-card-poker-part-two-10761; the
  same three rules in Wikipedia's "Four card poker", Strategy);
* ``never-fold-1x``: play 1x with every hand (the "minimum bet, never fold" player).

Let It Ride (§ 643a.11: take Bet 1 and Bet 2 back, or let them ride):

* ``never-pull``: let every bet ride (the "let it ride" player the game is named after).

``optimal`` is every game's solver strategy (the kernels' own tables).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from croupier.errors import InvalidInput

__all__ = ["OPTIMAL", "STRATEGIES", "Typical", "strategy_exact", "strategy_tables", "verify"]

OPTIMAL = "optimal"


@dataclass(frozen=True, slots=True)
class Typical:
    """One typical strategy: the kernel's tables with its decisions, and its exact mean net per
    kernel unit (the same units as the optimal strategy's)."""

    name: str
    source: str
    tables: Callable[[], tuple[Any, ...]]
    exact: Callable[[], Fraction]


def _tcp_rule(rule: str) -> Any:
    """Per three-card colex rank: 1 where the rule plays the hand."""
    from croupier.analysis.three_card_poker.solver import all_hands, qualifying
    from croupier.games.three_card_poker import plays_by_q64
    from croupier.hands import HandRank, Ranking

    _, values, _ = all_hands()
    if rule == "never-fold":
        return np.ones(values.size, dtype=np.uint8)
    if rule == "mimic-the-dealer":
        return qualifying().astype(np.uint8)
    distinct, inverse = np.unique(values, return_inverse=True)
    plays = [plays_by_q64(HandRank.of_value(int(v), Ranking.THREE_CARD)) for v in distinct]
    return np.array(plays, dtype=np.uint8)[inverse]


@cache
def _tcp_tables(rule: str) -> tuple[Any, ...]:
    from croupier.analysis._mc_more import three_card_args

    args = list(three_card_args())
    value, _, bonus, qualifies, scale, binom, nets = args
    play = np.zeros_like(args[1])
    play[:] = _tcp_rule(rule)  # all_hands is in colex order, as the kernel's tables
    return (value, play, bonus, qualifies, scale, binom, nets)


@cache
def _tcp_exact(rule: str) -> Fraction:
    """The exact mean net per Ante of the rule: every player hand (by suit class, weighted)
    against every dealer hand of the other 49 cards, from the kernel's own tables (integers in
    1/scale Ante)."""
    from croupier.analysis.stud_counts import BINOM
    from croupier.analysis.three_card_poker.solver import all_hands, canonical

    value, play, bonus, qualifies, scale, _, nets = _tcp_tables(rule)
    _, _, masks = all_hands()
    reps = canonical()
    cards = np.sort(reps.cards.astype(np.int64), axis=1)
    rows = sum(BINOM[cards[:, i], i + 1] for i in range(3))
    q = qualifies.astype(bool)
    total = 0
    for start in range(0, rows.size, 128):
        at = rows[start : start + 128]
        live = (reps.masks[start : start + 128, None] & masks[None, :]) == 0
        vp = value[at, None]
        showdown = np.where(
            value[None, :] < vp, nets[1], np.where(value[None, :] == vp, nets[2], nets[3])
        )
        played = np.where(q[None, :], showdown, nets[0]) + bonus[at, None]
        net = np.where(play[at, None] == 1, played, nets[4])
        sums = np.where(live, net, 0).sum(axis=1)
        total += int((sums * reps.weights[start : start + 128]).sum())
    return Fraction(total, comb(52, 3) * comb(49, 3) * int(scale))


@cache
def _ms_never_fold_tables() -> tuple[Any, ...]:
    from croupier.analysis._mc_more import mississippi_args

    line_of, mult, sums, k3, k4, binom = mississippi_args()
    # a bet of 1x on every street: the 3rd and 4th Street tables say 1, and 5th Street's rule
    # (croupier.analysis.stud_counts.choose5) takes 1x, neither folding nor raising, on a sum of -1
    return (
        line_of,
        mult,
        np.full_like(sums, -1),
        np.ones_like(k3),
        np.ones_like(k4),
        binom,
    )


@cache
def _ms_never_fold_exact() -> Fraction:
    """Four units on every five-card hand, paid by its line: 4 x the mean line."""
    line_of, mult, *_ = _ms_never_fold_tables()
    return Fraction(4 * int(mult[line_of].sum()), comb(52, 5))


@cache
def _lir_never_pull_tables() -> tuple[Any, ...]:
    from croupier.analysis._mc_more import let_it_ride_args

    line_of, nets, sums, ride1, binom = let_it_ride_args()
    # Bet 1 rides by ``ride1``, Bet 2 on a positive four-card sum (the kernel's rules)
    return (line_of, nets, np.ones_like(sums), np.ones_like(ride1), binom)


@cache
def _lir_never_pull_exact() -> Fraction:
    """Three bets on every five-card hand: the mean of the three-bet net of its line."""
    line_of, nets, *_ = _lir_never_pull_tables()
    return Fraction(int(nets[line_of, 2].sum()), comb(52, 5))


def _uth_preflop(rule: str) -> Any:
    """Per starting-hand class (the solver's: ``hi * 13 + lo`` suited or paired, ``lo * 13 +
    hi`` offsuit, ranks 0 = deuce): the Play multiple before the flop (0 check)."""
    out = np.zeros(169, dtype=np.int8)
    if rule == "ace-or-pair-4x":
        for c in range(169):
            a, b = divmod(c, 13)
            if a == b or max(a, b) == 12:  # any pair, any ace
                out[c] = 4
    return out


@cache
def _uth_tables(rule: str) -> tuple[Any, ...]:
    from croupier.analysis.decisions import blind_table, uth_tables
    from croupier.games import get_game

    uth = uth_tables(blind_table(get_game("ultimate-texas-holdem")))
    args = list(uth.kernel_args)
    preflop = _uth_preflop(rule)
    args[6] = preflop.astype(np.asarray(args[6]).dtype)
    args[7] = np.zeros_like(args[7])  # never 2x on the flop
    # the river decision compares playing 1x with a fold (croupier.analysis.mc_kernels.
    # _river_play): a fold valued far below any loss is never chosen, and never settled
    args[11] = -(2**40)
    return (uth.ev, tuple(args))


@cache
def _uth_exact(rule: str) -> Fraction:
    """Every deal counted by starting-hand class and result type
    (:func:`croupier.analysis.ultimate_texas_holdem.typical.class_counts`), times the game's net of
    the type at
    the class's multiple (1 where it checks to the river), per unit Ante."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables
    from croupier.analysis.ultimate_texas_holdem.solver import DEALS
    from croupier.analysis.ultimate_texas_holdem.typical import class_counts

    p = settle_tables(None)
    counts = class_counts(p.q0, tuple(int(x) for x in p.bclass))
    multiple = np.maximum(_uth_preflop(rule).astype(np.int64), 1)
    type_net = np.asarray(p.type_net, dtype=np.int64)
    base = type_net[:, 0] + type_net[:, 1]
    total = int((counts * base[None, :]).sum())
    total += int((counts * multiple[:, None] * type_net[None, :, 2]).sum())
    assert int(counts.sum()) == DEALS
    return Fraction(total, DEALS * p.scale)


def _fcp_rule(rule: str) -> Any:
    """Per dense four-card strength (the solver's): the action index (0 fold, 1 play 1x, 3 play
    3x) of the rule."""
    from croupier.analysis.block_solver import dense_tables
    from croupier.hands import Category, HandRank, Ranking

    values = dense_tables(Ranking.FOUR_CARD).values
    if rule == "never-fold-1x":
        return np.ones(values.size, dtype=np.int8)
    out = np.zeros(values.size, dtype=np.int8)
    for s, value in enumerate(values.tolist()):
        rank = HandRank.of_value(int(value), Ranking.FOUR_CARD)
        if rank.category is Category.HIGH_CARD:
            continue
        if rank.category is not Category.PAIR or rank.tie_ranks[0] >= 10:
            out[s] = 3  # a pair of 10s or better
        elif rank.tie_ranks[0] >= 3:
            out[s] = 1  # a pair of 3s to 9s; a pair of 2s folds
    return out


@cache
def _fcp_tables(rule: str) -> tuple[Any, ...]:
    """The kernel's Four Card Poker tables with the rule's action for every five-card hand (by
    its best four) in every row of up-card rank."""
    from croupier.analysis.block_solver import dense_tables
    from croupier.analysis.decisions import four_card_tables
    from croupier.hands import Ranking
    from croupier.kernels import comb_unrank_batch, rank_batch

    fcp = four_card_tables()
    optimal, bonus, stakes = fcp.kernel_args
    hands = comb_unrank_batch(np.arange(comb(52, 5), dtype=np.int64), 5)
    values = rank_batch(Ranking.FOUR_CARD, hands)
    action = _fcp_rule(rule)[np.searchsorted(dense_tables(Ranking.FOUR_CARD).values, values)]
    table = np.empty_like(optimal)
    for r in range(13):
        table[r] = np.where((hands == 4 * r).any(axis=1), -1, action)  # the up card, clubs
    return (fcp.ev, (table, bonus, stakes))


@cache
def _fcp_exact(rule: str) -> Fraction:
    from croupier.analysis.four_card_poker.solver import strength_strategy_value

    return strength_strategy_value(_fcp_rule(rule))


_Q64 = "Wizard of Odds, Three Card Poker: play Q-6-4 or better"
STRATEGIES: dict[str, tuple[Typical, ...]] = {
    "three-card-poker": (
        Typical("q64", _Q64, lambda: _tcp_tables("q64"), lambda: _tcp_exact("q64")),
        Typical(
            "mimic-the-dealer",
            "casino guides: play every hand that would qualify a dealer (Q-high)",
            lambda: _tcp_tables("mimic-the-dealer"),
            lambda: _tcp_exact("mimic-the-dealer"),
        ),
        Typical(
            "never-fold",
            "casino guides: the player who plays every hand",
            lambda: _tcp_tables("never-fold"),
            lambda: _tcp_exact("never-fold"),
        ),
    ),
    "mississippi-stud": (
        Typical(
            "never-fold-1x",
            "casino guides: bet the minimum on every street and see every card",
            _ms_never_fold_tables,
            _ms_never_fold_exact,
        ),
    ),
    "ultimate-texas-holdem": (
        Typical(
            "check-to-river",
            "casino guides: the player who never raises early, checks to the river and always "
            "plays 1x (never folds)",
            lambda: _uth_tables("check-to-river"),
            lambda: _uth_exact("check-to-river"),
        ),
        Typical(
            "ace-or-pair-4x",
            "casino guides: raise 4x with any pair or any ace, else check to the river and play "
            "1x (never fold)",
            lambda: _uth_tables("ace-or-pair-4x"),
            lambda: _uth_exact("ace-or-pair-4x"),
        ),
    ),
    "four-card-poker": (
        Typical(
            "basic",
            "Shuffle Master's basic strategy (Elliot Frome, Casino City Times, 2004): fold a "
            "pair of 2s or less, 1x a pair of 3s to 9s, 3x a pair of 10s or better",
            lambda: _fcp_tables("basic"),
            lambda: _fcp_exact("basic"),
        ),
        Typical(
            "never-fold-1x",
            "casino guides: play 1x with every hand, never fold",
            lambda: _fcp_tables("never-fold-1x"),
            lambda: _fcp_exact("never-fold-1x"),
        ),
    ),
    "let-it-ride": (
        Typical(
            "never-pull",
            "casino guides: the player who lets every bet ride",
            _lir_never_pull_tables,
            _lir_never_pull_exact,
        ),
    ),
}
"""The typical strategies of each game (every game also plays ``optimal``)."""


def _find(slug: str, name: str) -> Typical:
    for typical in STRATEGIES.get(slug, ()):
        if typical.name == name:
            return typical
    raise AssertionError(f"{slug}: no strategy {name!r}")  # pragma: no cover - verify first


def verify(slug: str, name: object, where: str) -> str:
    """``name`` if ``slug`` has that strategy, else a refusal naming the ones it has."""
    known = [OPTIMAL, *(t.name for t in STRATEGIES.get(slug, ()))]
    if not isinstance(name, str) or name not in known:
        raise InvalidInput(f"{where} {name!r}: {slug} plays {', '.join(known)}")
    return name


def strategy_tables(slug: str, name: str) -> tuple[Any, ...]:
    """The fast kernel's tables of ``slug`` with the decisions of the typical strategy."""
    return _find(slug, name).tables()


def strategy_exact(slug: str, name: str) -> Fraction:
    """The exact mean net per kernel unit of the typical strategy."""
    return _find(slug, name).exact()

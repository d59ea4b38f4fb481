"""Let It Ride par sheet: the three bets with the optimal strategy, and every optional wager.

The base game walks every deal (the player's three cards, then the two community cards in the
order they are turned: 51,979,200 ordered deals) with the optimal decisions, which separate:
Bet 1 rides when its expected result over the 1,176 completions is positive, Bet 2 when its
expected result over the 48 completions is positive (exact integer sums; on zero the bet is taken
back).  The house edge is per unit of one of the three equal bets; the payout limit per hand
(§ 643a.12(d)) depends on the bet size and is left out.  Side wagers: the Three Card Bonus on
the player's three cards; the Five Card Bonus, Five Card Hand Bonus and Five-Card Progressive on
the five cards; the Six Card Bonus on the player's three and the three extra cards: every card set
equally likely.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.analysis import decided
from croupier.analysis.par import Outcome, ParSheet, WagerSheet, merge_outcomes
from croupier.analysis.sidebets import wager_sheet
from croupier.analysis.stud_counts import (
    BINOM,
    FiveCardLines,
    drop_one_ranks,
    four_set_tables,
    lir_counts,
    rank_set,
    tabulate_five,
)
from croupier.core.progress import Task
from croupier.games.let_it_ride import (
    BOARD,
    BetDecision,
    LetItRide,
    Ride,
    Withdraw,
    base_net,
    bet_line,
    bet_net,
    bets_in_action,
)
from croupier.games.let_it_ride.paytables import five_card_keys, three_card_keys
from croupier.games.paytables import PayTable
from croupier.games.pov import seat_cards
from croupier.games.records import Action
from croupier.games.round import Round
from croupier.hands import HandRank, Ranking

__all__ = [
    "LetItRideSolve",
    "kernel_tables",
    "let_it_ride_strategy",
    "let_it_ride_strategy_text",
    "par_let_it_ride",
    "solve",
]


_DECISIONS = (
    (BetDecision.PULL, BetDecision.PULL),
    (BetDecision.RIDE, BetDecision.PULL),
    (BetDecision.RIDE, BetDecision.RIDE),
)
"""Decisions by the number of bets riding less one (which of Bet 1 and 2 rides: alike)."""


@dataclass(frozen=True, kw_only=True)
class LetItRideSolve:
    """The base game's tables, tabulated from the game's settlement functions
    (:func:`~croupier.games.let_it_ride.bet_net`, :func:`~croupier.games.let_it_ride.base_net`)."""

    lines: FiveCardLines
    """Each five-card set's pay line; ``lines.nets``: one bet's net per line, from ``bet_net``."""
    line_keys: tuple[frozenset[str], ...]
    """Pay-table names reaching each line (the last: none, a losing hand)."""
    nets: tuple[tuple[Fraction, ...], ...]
    """``nets[line][bets riding - 1]``: the three bets' net per unit bet, from ``base_net``."""
    sums: npt.NDArray[np.int64]
    """Per four-card set: the sum of one bet's integer net over its 48 completions."""
    counts: npt.NDArray[np.int64]
    """``counts[line, bets riding - 1]`` over every deal, with the optimal decisions."""


@cache
def solve(table: PayTable) -> LetItRideSolve:
    """Every deal of the base game paid by ``table``, with the optimal decisions."""
    line_keys = (*(frozenset({line.hand}) for line in table.lines), frozenset[str]())
    names = [*(line.hand for line in table.lines), "lose"]

    def line_of(rank: HandRank) -> int:
        pays = bet_line(table, five_card_keys(rank))  # § 643a.12
        return len(table.lines) if pays is None else table.lines.index(pays)

    lines = tabulate_five(names, [bet_net(table, k) for k in line_keys], line_of)
    nets = tuple(tuple(base_net(table, k, *d) for d in _DECISIONS) for k in line_keys)
    sums, hist = four_set_tables(lines.line_of, lines.multipliers)
    counts = lir_counts(sums, hist)
    return LetItRideSolve(lines=lines, line_keys=line_keys, nets=nets, sums=sums, counts=counts)


def kernel_tables(table: PayTable) -> tuple[npt.NDArray[np.int64], ...]:
    """The fast Monte Carlo's tables (:func:`croupier.analysis.let_it_ride.montecarlo.lir_settle`):
    each
    five-card set's pay line, the three bets' integer net per line and bets riding less one
    (:attr:`LetItRideSolve.nets`; every line of these tables pays whole units), and the
    per-four-card sums its decisions read."""
    solved = solve(table)
    assert all(n.denominator == 1 for row in solved.nets for n in row)
    nets = np.array([[int(n) for n in row] for row in solved.nets], dtype=np.int64)
    line_of = np.asarray(solved.lines.line_of, dtype=np.int64)
    return line_of, nets, np.asarray(solved.sums, dtype=np.int64)


def _base(table: PayTable) -> WagerSheet:
    solved = solve(table)
    rows = []
    for line, name in enumerate(solved.lines.names):
        for riding, decisions in enumerate(_DECISIONS):
            bets = bets_in_action(*decisions)
            net = solved.nets[line][riding]
            per_bet = solved.lines.nets[line]
            pays = f"{per_bet} to 1" if per_bet > 0 else "-"
            rows.append(
                Outcome(
                    name=f"{name}, {bets} bet{'s' if bets > 1 else ''} riding",
                    net=net,
                    wagered=Fraction(bets),
                    weight=int(solved.counts[line, riding]),
                    pays=pays,
                )
            )
    return WagerSheet(
        wager="base",
        outcomes=merge_outcomes(rows),
        paytable=table.letter,
        notes=(
            "per unit of one of the three bets; optimal decisions, a bet is taken back when "
            "its expected result is not positive; the payout limit is left out",
        ),
    )


def par_let_it_ride(game: LetItRide) -> ParSheet:
    side = [
        (wager, ranking, n, keys)
        for wager, ranking, n, keys in (
            ("three_card_bonus", Ranking.THREE_CARD_BONUS, 3, three_card_keys),
            ("five_card_bonus", Ranking.POKER5, 5, five_card_keys),
            ("five_card_hand_bonus", Ranking.POKER5, 5, five_card_keys),
            ("six_card_bonus", Ranking.POKER5, 6, five_card_keys),
        )
        if wager in game.offered_wagers() and game.paytable(wager) is not None
    ]
    progressives = [
        (wager, ranking, n, keys, amount)
        for wager, ranking, n, keys in (
            ("three_card_progressive", Ranking.THREE_CARD_BONUS, 3, three_card_keys),
            ("five_card_progressive", Ranking.POKER5, 5, five_card_keys),
        )
        if (amount := game.progressive_amount(wager))
    ]
    wagers: dict[str, WagerSheet] = {}
    with Task(1 + len(side) + len(progressives), "let it ride: every deal, every wager") as task:
        base = _base(game.base_table)
        task.update()
        for wager, ranking, n, keys in side:
            table = game.paytable(wager)
            assert table is not None
            wagers[wager] = wager_sheet(wager, table, ranking=ranking, ncards=n, keys=keys)
            task.update()
        for wager, ranking, n, keys, amount in progressives:
            table, _, spec = game.progressive(wager)
            wagers[wager] = wager_sheet(
                wager, table, ranking=ranking, ncards=n, keys=keys, meter=spec.reset, stake=amount
            )
            task.update()
    return ParSheet(game=game.slug, method="exact", base=base, wagers=wagers)


def _ride_sums(table: PayTable) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The integer sums the ride decisions compare with zero, by colex rank: Bet 2's of each
    four-card set (the solver's), and Bet 1's of each three-card set (each four-card set's sum
    added to the four three-card sets it holds: the sum over every fourth card)."""
    four = np.asarray(solve(table).sums, dtype=np.int64)
    by_three = np.zeros(comb(52, 3), dtype=np.int64)
    for lower in drop_one_ranks(4):
        np.add.at(by_three, lower, four)
    return four, by_three


def let_it_ride_strategy(game: LetItRide) -> Callable[[Round, int], Action]:
    """The decisions the exact sheet assumes: ride a bet exactly when the integer sum of its
    results over the remaining cards is positive."""
    four, three = _ride_sums(game.base_table)
    sums: list[int] = four.tolist()
    first: list[int] = three.tolist()

    def decide(rnd: Round, seat: int) -> Action:
        own = decided.indices(seat_cards(rnd, seat))
        # the community cards turned so far: what every player sees (§ 643a.11(c))
        board = decided.indices(rnd.visible_cards().get(BOARD, []))
        if not board:
            total = first[rank_set(own)]
            wager = "bet1"
        else:
            total = sums[rank_set(own + board)]
            wager = "bet2"
        return _ride(seat, wager) if total > 0 else _withdraw(seat, wager)

    return decide


# Each decision made once (as :mod:`._decided` makes the other games'): an action is immutable
# and the round checks it again when it is applied; at most a seat's two bets, seven seats.
@cache
def _ride(seat: int, wager: str) -> Ride:
    return Ride(seat=seat, wager=wager)


@cache
def _withdraw(seat: int, wager: str) -> Withdraw:
    return Withdraw(seat=seat, wager=wager)


def _classes(size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_], list[str]]:
    """Every ``size``-card set (3 or 4) in colex order: its class (an index into the labels:
    its ranks, high first, and whether it is suited) and whether it already pays Bet 1 or Bet 2
    (a pair of tens or better, three of a kind, or with four cards two pair)."""
    from itertools import combinations

    from croupier.core.cards import DECK

    sets = np.array(list(combinations(range(52), size)), dtype=np.int64)
    order = np.argsort((BINOM[sets, np.arange(1, size + 1)]).sum(axis=1))  # to colex order
    sets = sets[order]
    rank_of = np.array([c.rank.value for c in DECK], dtype=np.int64)
    suit_of = np.array([c.suit.order for c in DECK], dtype=np.int64)
    ranks = np.sort(rank_of[sets], axis=1)[:, ::-1]  # high first
    suits = suit_of[sets]
    suited = (suits == suits[:, :1]).all(axis=1)
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)  # copies of each card's rank
    pays = ((same >= 2) & ((ranks >= 10) | (same >= 3))).any(axis=1)
    if size == 4:
        pays |= (same == 2).all(axis=1)  # two pair
    code = suited.astype(np.int64)
    for j in range(size):
        code = code * 16 + ranks[:, j]
    codes, classes = np.unique(code, return_inverse=True)
    symbol = {c.rank.value: c.rank.symbol for c in DECK}
    labels = []
    for value in codes.tolist():
        digits = [(value >> (4 * (size - 1 - j))) & 0xF for j in range(size)]
        labels.append("".join(symbol[d] for d in digits) + (" suited" if value >> 4 * size else ""))
    return classes.reshape(-1), pays, labels


def let_it_ride_strategy_text(game: LetItRide) -> str:
    """Bet 1 by three-card class and Bet 2 by four-card class, derived from the solver: the
    hands that already pay, then every other class that rides, by ranks and suits."""
    four, three = _ride_sums(game.base_table)
    lines = ["Let It Ride: optimal strategy (exact solver, card removal included)"]
    for bet, size, sums in (("Bet 1", 3, three), ("Bet 2", 4, four)):
        classes, pays, labels = _classes(size)
        rides = sums > 0
        paying_pulled = int((pays & ~rides).sum())
        ride = {labels[c] for c in np.unique(classes[rides & ~pays]).tolist()}
        pull = {labels[c] for c in np.unique(classes[~rides & ~pays]).tolist()}
        mixed = sorted(ride & pull)
        only = sorted(ride - pull)
        lines.append(f"  {bet} ({size} cards seen): let it ride with")
        lines.append(
            "    any hand that already pays (a pair of tens or better, two pair, three of a kind"
            + (")" if not paying_pulled else f"; {paying_pulled} exceptions)")
        )
        flushes = [c for c in only if c.endswith("suited")]
        if size == 4 and flushes and not any(c.endswith("suited") for c in pull):
            lines.append(f"    any four to a flush ({len(flushes)} rank classes)")
            only = [c for c in only if not c.endswith("suited")]
        lines.append(f"    and these {len(only)} classes: {', '.join(only) if only else '-'}")
        if mixed:
            lines.append(f"    depending on the exact suits: {', '.join(mixed)}")
        lines.append("    take it back otherwise.")
    return "\n".join(lines)

"""Mississippi Stud par sheet: Ante and street bets with the optimal strategy, and the
progressive, exact.

The base game walks every deal (two cards, then the three community cards in the order they are
turned: 155,937,600 ordered deals) with the optimal bet on each street found by backward
induction in integers (:mod:`croupier.analysis.stud_counts`).  The house edge is per unit Ante; the
element of risk per unit of the average total wagered (Ante plus street bets).  The
progressive is paid on the two player cards and the three community cards (§ 571.1), every
five-card set equally likely.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from croupier.analysis import decided
from croupier.analysis.par import Outcome, ParSheet, WagerSheet, merge_outcomes
from croupier.analysis.sidebets import wager_sheet
from croupier.analysis.stud_counts import (
    FiveCardLines,
    choose5,
    four_set_tables,
    ms_counts,
    ms_policy,
    rank_set,
    tabulate_five,
)
from croupier.core.progress import Task
from croupier.games.mississippi_stud import (
    JACKPOTS,
    PAY_TABLE,
    MississippiStud,
    MississippiStudRound,
    base_pay,
    base_pays,
    hand_keys,
    jackpot_meters,
)
from croupier.games.paytables import PayTable
from croupier.games.pov import seat_cards
from croupier.games.records import Action
from croupier.games.round import Round
from croupier.hands import HandRank, Ranking

__all__ = [
    "base_lines",
    "kernel_tables",
    "mississippi_stud_strategy",
    "mississippi_stud_strategy_text",
    "par_mississippi_stud",
]


@cache
def base_lines(table: PayTable = PAY_TABLE) -> FiveCardLines:
    """Every five-card set's base line under ``table`` (the game's base table,
    :attr:`~croupier.games.mississippi_stud.MississippiStud.base_table`), tabulated from the
    game's settlement (:func:`~croupier.games.mississippi_stud.base_pay`): ``line_of`` indexes
    :func:`~croupier.games.mississippi_stud.base_pays`; ``nets`` are their nets per unit."""
    pays = base_pays(table)
    index: dict[frozenset[str], int] = {}  # base_pay once per distinct set of keys

    def line(rank: HandRank) -> int:
        keys = hand_keys(rank)
        if keys not in index:
            index[keys] = pays.index(base_pay(keys, table))
        return index[keys]

    return tabulate_five([pay.line for pay in pays], [pay.net for pay in pays], line)


@cache
def _solved(table: PayTable = PAY_TABLE) -> tuple[object, ...]:
    lines = base_lines(table)
    mult = lines.multipliers
    sums, hist = four_set_tables(lines.line_of, mult)
    k3, k4 = ms_policy(sums)
    counts = ms_counts(sums, hist, k3, k4)
    return lines, sums, k3, k4, counts


def kernel_tables(table: PayTable = PAY_TABLE) -> tuple[npt.NDArray[np.int64], ...]:
    """The Monte Carlo kernel's tables under the base ``table``, from the same tabulation and
    solve: each five-card set's line (:func:`base_lines`), each line's net per unit wagered,
    the four-card sums, and the 3rd and 4th Street bets."""
    lines, sums, k3, k4, _ = _solved(table)
    assert isinstance(lines, FiveCardLines)
    return tuple(
        np.asarray(t, dtype=np.int64) for t in (lines.line_of, lines.multipliers, sums, k3, k4)
    )


def _base(table: PayTable) -> WagerSheet:
    counts = _solved(table)[4]
    names, nets = base_lines(table).names, base_lines(table).nets
    rows: list[Outcome] = []
    n_lines = len(nets)
    for line in range(n_lines + 1):
        for units in range(11):
            count = int(counts[line, units])  # type: ignore[index]
            if not count:
                continue
            if line == n_lines:
                rows.append(
                    Outcome(
                        name="fold", net=Fraction(-units), wagered=Fraction(units), weight=count
                    )
                )
                continue
            net = nets[line]
            pays = "push" if net == 0 else "-" if net < 0 else f"{net} to 1"
            rows.append(
                Outcome(
                    name=f"{names[line]}",
                    net=net * units,
                    wagered=Fraction(units),
                    weight=count,
                    pays=f"{pays} x{units}",
                )
            )
    return WagerSheet(
        wager="base",
        outcomes=merge_outcomes(rows),
        paytable=table.letter,
        notes=("optimal street bets by backward induction; ties in value go to the smaller bet",),
    )


def par_mississippi_stud(game: MississippiStud) -> ParSheet:
    with Task(2, "mississippi stud: every deal, every wager") as task:
        base = _base(game.base_table)
        task.update()
        return ParSheet(game=game.slug, method="exact", base=base, wagers=_side(game))


def _side(game: MississippiStud) -> dict[str, WagerSheet]:
    wagers: dict[str, WagerSheet] = {}
    prog = game.rules.progressive
    table = game.progressive_table
    if prog is not None and table is not None:
        specs, _ = jackpot_meters(game.rules)
        jackpots = JACKPOTS.get(prog.paytable, {})
        line_meters = {
            hand: specs[jackpot].reset for hand, jackpot in jackpots.items() if jackpot in specs
        }
        wagers["progressive"] = wager_sheet(
            "progressive",
            table,
            ranking=Ranking.POKER5,
            ncards=5,
            keys=hand_keys,
            meter=prog.reset,
            stake=prog.wager,
            line_meters=line_meters if prog.paytable != "A" else None,
        )
    return wagers


def mississippi_stud_strategy(game: MississippiStud) -> Callable[[Round, int], Action]:
    """The decisions the exact sheet assumes (the same integer policy)."""
    _, sums, k3, k4, _ = _solved(game.base_table)

    def decide(rnd: Round, seat: int) -> Action:
        assert isinstance(rnd, MississippiStudRound)
        own = decided.indices(seat_cards(rnd, seat))
        board = decided.indices(rnd.board_shown())
        stakes = rnd.stakes[seat]
        units = sum(v for k, v in stakes.items() if k != "progressive") // stakes["ante"]
        if not board:
            k = int(k3[rank_set(own)])  # type: ignore[index]
        elif len(board) == 1:
            k = int(k4[rank_set(own + board), units])  # type: ignore[index]
        else:
            k = choose5(int(sums[rank_set(own + board)]), units)  # type: ignore[index]
        return decided.play(seat, k) if k else decided.fold(seat)

    return decide


def mississippi_stud_strategy_text(game: MississippiStud) -> str:
    """3rd Street decisions by starting hand, from the solver (4th and 5th Street depend on the
    cards turned and the bets made; the solver's tables decide them exactly)."""
    from croupier.core.cards import DECK

    _, _, k3, _, _ = _solved(game.base_table)
    by_choice: dict[int, list[str]] = {0: [], 1: [], 3: [], 2: []}
    seen: set[str] = set()
    for i, a in enumerate(DECK):
        for b in DECK[i + 1 :]:
            hi, lo = max(a.rank, b.rank), min(a.rank, b.rank)
            label = f"{hi.symbol}{lo.symbol}" + (
                "" if hi == lo else "s" if a.suit == b.suit else "o"
            )
            if label in seen:
                continue
            seen.add(label)
            choice = int(k3[rank_set([a.index, b.index])])  # type: ignore[index]
            by_choice.setdefault(choice, []).append(label)
    lines = ["Mississippi Stud: optimal 3rd Street decision by starting hand (exact solver)"]
    for choice, title in ((3, "bet 3x"), (2, "bet 2x"), (1, "bet 1x"), (0, "fold")):
        hands = by_choice.get(choice, [])
        lines.append(f"  {title} ({len(hands)}): {' '.join(hands) if hands else '-'}")
    lines.append(
        "  4th and 5th Street: bet 3x with a paying hand made or a strong draw, 1x with a "
        "marginal one, fold the rest; `croupier simulate` plays the exact table."
    )
    return "\n".join(lines)

"""Exact sheets for wagers settled on one set of cards by a pay table (Aces Up, Pair Plus, Trips,
Three Card Bonus, Six Card Bonus, progressives...).

Every ``n``-card hand is equally likely, so a wager paid on the best hand of ``n`` cards has the
distribution of hand values over all C(52, n) card sets, counted exhaustively by the batch
kernels.  Progressive lines paying a share of the meter make the return a linear function of
the meter: the sheet reports it at a given meter and the break-even meter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np

from croupier.analysis.par import Outcome, WagerSheet, merge_outcomes
from croupier.core.money import OddsKind
from croupier.games.paytables import PayTable
from croupier.hands import HandRank, Ranking

__all__ = ["KeysFn", "category_keys", "value_histogram", "wager_sheet"]

KeysFn = Callable[[HandRank], frozenset[str]]


def category_keys(rank: HandRank) -> frozenset[str]:
    return frozenset({rank.category.value})


@cache
def value_histogram(ranking: Ranking, ncards: int) -> Mapping[int, int]:
    """How many of the C(52, ncards) card sets have each order value (exhaustive, batch)."""
    from croupier.kernels import comb_unrank_batch, count_values, rank_batch

    if ranking is Ranking.POKER5 and ncards == 5:
        # the table the stud solvers build anyway (no second count on a cold sheet)
        from croupier.analysis.stud_counts import five_card_value_counts

        return five_card_value_counts()
    if ranking in (Ranking.POKER5, Ranking.FOUR_CARD) and ncards <= 6:
        return count_values(ranking, ncards)
    if ranking is Ranking.POKER5 and ncards == 7:
        # by rank pattern (croupier.kernels._count7): a quarter of a second, nothing compiled
        from croupier.kernels.blocks import seven_card_values, tables

        values, freq = seven_card_values(tables())
        return dict(zip(values.tolist(), freq.tolist(), strict=True))
    total = comb(52, ncards)
    counts: dict[int, int] = {}
    chunk = 4_000_000
    for start in range(0, total, chunk):
        ranks = np.arange(start, min(total, start + chunk), dtype=np.int64)
        hands = comb_unrank_batch(ranks, ncards)
        values, freq = np.unique(rank_batch(ranking, hands), return_counts=True)
        for v, f in zip(values.tolist(), freq.tolist(), strict=True):
            counts[v] = counts.get(v, 0) + f
    assert sum(counts.values()) == total
    return counts


@cache
def _three_card_ranks(ranking: Ranking) -> tuple[HandRank, ...]:
    """Every three-card hand ranked with its cards, once per ranking (two wagers of a game
    share the one evaluation)."""
    from itertools import combinations

    from croupier.core.cards import DECK
    from croupier.hands import evaluate

    return tuple(evaluate(hand, ranking) for hand in combinations(DECK, 3))


def _three_card_keys(ranking: Ranking, keys: KeysFn) -> dict[frozenset[str], int]:
    out: dict[frozenset[str], int] = {}
    for rank in _three_card_ranks(ranking):
        k = keys(rank)
        out[k] = out.get(k, 0) + 1
    return out


@cache
def _key_histogram(ranking: Ranking, ncards: int, keys: KeysFn) -> dict[frozenset[str], int]:
    """How many of the C(52, ncards) card sets reach each set of pay-table names (once per
    process: a game's wagers on the same cards share it; callers only read it)."""
    if ncards == 3:
        # small enough to rank every hand with its cards (keys may look at suits)
        return _three_card_keys(ranking, keys)
    if keys is category_keys:
        # a table of categories only: the exhaustive category counts suffice
        from croupier.core.progress import report
        from croupier.kernels import count_categories

        def counted(done: int, total: int) -> None:
            report(f"{ranking.value}: every {ncards}-card hand", done, total)

        counts = count_categories(ranking, ncards, progress=counted)
        return {frozenset({cat.value}): n for cat, n in counts.items()}
    hist_keys: dict[frozenset[str], int] = {}
    for value, count in value_histogram(ranking, ncards).items():
        key_set = keys(HandRank.of_value(value, ranking))
        hist_keys[key_set] = hist_keys.get(key_set, 0) + count
    return hist_keys


def _meter_info(
    a: Fraction, b: Fraction, meter: int | None, stake: int | None
) -> dict[str, object]:
    """The return per unit ``a + b * meter`` of a progressive wager, and its break-even meter."""
    return {
        "meter_cents": meter,
        "stake_cents": stake,
        "return_per_unit": f"{float(a):.10f} + {float(b):.6e} * meter_cents",
        "return_per_unit_exact": {
            "a": f"{a.numerator}/{a.denominator}",
            "b": f"{b.numerator}/{b.denominator}",
        },
        "break_even_meter_cents": float(-a / b),
    }


def wager_sheet(
    wager: str,
    table: PayTable,
    *,
    ranking: Ranking,
    ncards: int,
    keys: KeysFn = category_keys,
    meter: int | None = None,
    stake: int | None = None,
    line_meters: Mapping[str, int] | None = None,
) -> WagerSheet:
    """The exact sheet of a wager paid by ``table`` on the best hand of ``ncards`` cards.

    ``meter`` and ``stake`` (cents) price lines paying a share of a progressive meter; the sheet
    then also gives the return per unit as ``a + b * meter`` and the break-even meter.  Where
    the lines pay different meters (linked jackpots), ``line_meters`` gives each line's meter
    amount and the sheet is priced at those amounts.
    """
    hist_keys = _key_histogram(ranking, ncards, keys)
    outcomes: list[Outcome] = []
    fixed = Fraction(0)
    per_meter = Fraction(0)
    total = comb(52, ncards)
    for key_set, count in hist_keys.items():
        line = table.line_for(key_set)
        if line is None:
            outcomes.append(Outcome(name="lose", net=Fraction(-1), weight=count, pays="-"))
            fixed -= count
            continue
        if line.odds is not None:
            net = line.odds.net
            outcomes.append(Outcome(name=line.hand, net=net, weight=count, pays=str(line.odds)))
            fixed += net * count
        else:
            assert line.meter_share is not None
            amount = (line_meters or {}).get(line.hand, meter)
            if amount is None or stake is None:
                raise ValueError(f"{wager}: a meter share needs the meter and the stake")
            share = line.meter_share
            net = share * Fraction(amount, stake) - 1
            outcomes.append(Outcome(name=line.hand, net=net, weight=count, pays=line.describe()))
            fixed -= count
            if line_meters is None:
                per_meter += share * count / stake
            else:
                fixed += net * count + count
    notes: tuple[str, ...] = ()
    meter_info: dict[str, object] = {}
    if per_meter:
        meter_info = _meter_info(fixed / total, per_meter / total, meter, stake)
        notes = (
            "progressive: 'for 1' lines include the collected wager; share lines pay the meter",
        )
    kind = {line.odds.kind for line in table.lines if line.odds is not None}
    if OddsKind.FOR in kind and not notes:
        notes = ("'for 1' odds: the payout includes the wager, which was collected",)
    return WagerSheet(
        wager=wager,
        paytable=table.letter,
        outcomes=merge_outcomes(outcomes),
        notes=notes,
        meter=meter_info,
    )

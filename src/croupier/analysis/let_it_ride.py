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
from fractions import Fraction
from functools import cache

from croupier.analysis._stud import BINOM, five_card_lines, four_set_tables, lir_counts, rank_set
from croupier.analysis.par import Outcome, ParSheet, WagerSheet, merge_outcomes
from croupier.analysis.sidebets import wager_sheet
from croupier.games._let_it_ride_tables import five_card_keys, three_card_keys
from croupier.games.let_it_ride import LetItRide, Ride, Withdraw
from croupier.games.paytables import PayTable
from croupier.games.pov import seat_cards, supervisor_hands
from croupier.games.records import Action
from croupier.games.round import Round
from croupier.games.streets import StreetRound
from croupier.hands import Ranking

__all__ = ["let_it_ride_strategy", "let_it_ride_strategy_text", "par_let_it_ride"]


@cache
def _solved(table: PayTable) -> tuple[object, ...]:
    lines = five_card_lines(table, five_card_keys)
    sums, hist = four_set_tables(lines.line_of, lines.multipliers, BINOM)
    counts = lir_counts(sums, hist, BINOM)
    return lines, sums, counts


def _base(table: PayTable) -> WagerSheet:
    lines, _, counts = _solved(table)
    names: list[str] = lines.names  # type: ignore[attr-defined]
    nets: list[Fraction] = lines.nets  # type: ignore[attr-defined]
    rows = []
    for line, net in enumerate(nets):
        for riding in range(3):
            bets = riding + 1
            count = int(counts[line, riding])  # type: ignore[index]
            pays = f"{net} to 1" if net > 0 else "-"
            rows.append(
                Outcome(
                    name=f"{names[line]}, {bets} bet{'s' if bets > 1 else ''} riding",
                    net=net * bets,
                    wagered=Fraction(bets),
                    weight=count,
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
    wagers: dict[str, WagerSheet] = {}
    for wager, ranking, n, keys in (
        ("three_card_bonus", Ranking.THREE_CARD_BONUS, 3, three_card_keys),
        ("five_card_bonus", Ranking.POKER5, 5, five_card_keys),
        ("five_card_hand_bonus", Ranking.POKER5, 5, five_card_keys),
        ("six_card_bonus", Ranking.POKER5, 6, five_card_keys),
    ):
        if wager in game.offered_wagers():
            table = game.paytable(wager)
            if table is not None:
                wagers[wager] = wager_sheet(wager, table, ranking=ranking, ncards=n, keys=keys)
    for wager, ranking, n, keys in (
        ("three_card_progressive", Ranking.THREE_CARD_BONUS, 3, three_card_keys),
        ("five_card_progressive", Ranking.POKER5, 5, five_card_keys),
    ):
        amount = game.progressive_amount(wager)
        if amount:
            table, _, spec = game.progressive(wager)
            wagers[wager] = wager_sheet(
                wager, table, ranking=ranking, ncards=n, keys=keys, meter=spec.reset, stake=amount
            )
    return ParSheet(game=game.slug, method="exact", base=_base(game.base_table), wagers=wagers)


def let_it_ride_strategy(game: LetItRide) -> Callable[[Round, int], Action]:
    """The decisions the exact sheet assumes: ride a bet exactly when the integer sum of its
    results over the remaining cards is positive."""
    _, solved_sums, _ = _solved(game.base_table)
    sums: list[int] = [int(x) for x in solved_sums]  # type: ignore[attr-defined]

    def decide(rnd: Round, seat: int) -> Action:
        own = [c.index for c in seat_cards(rnd, seat)]
        turned = rnd.turned if isinstance(rnd, StreetRound) else 0
        board = [c.index for c in supervisor_hands(rnd).get("board", [])[:turned]]
        if not board:
            total = sum(sums[rank_set([*own, d])] for d in range(52) if d not in own)
            wager = "bet1"
        else:
            total = sums[rank_set(own + board)]
            wager = "bet2"
        return Ride(seat=seat, wager=wager) if total > 0 else Withdraw(seat=seat, wager=wager)

    return decide


def let_it_ride_strategy_text(game: LetItRide) -> str:
    """Bet 1 by three-card class and Bet 2 by four-card class, derived from the solver: the
    hands that already pay, then every other class that rides, by ranks and suits."""
    from itertools import combinations

    from croupier.cards import DECK

    _, sums, _ = _solved(game.base_table)

    def paying(cards: tuple[int, ...]) -> bool:
        ranks = [DECK[c].rank.value for c in cards]
        return any(ranks.count(r) >= 2 and (r >= 10 or ranks.count(r) >= 3) for r in ranks) or (
            len(ranks) == 4 and len(set(ranks)) == 2
        )

    def label(cards: tuple[int, ...]) -> str:
        ranks = "".join(r.symbol for r in sorted((DECK[c].rank for c in cards), reverse=True))
        suited = len({DECK[c].suit for c in cards}) == 1
        return ranks + (" suited" if suited else "")

    def rides(cards: tuple[int, ...]) -> bool:
        if len(cards) == 4:
            return int(sums[rank_set(list(cards))]) > 0  # type: ignore[index]
        total = 0
        for d in range(52):
            if d not in cards:
                total += int(sums[rank_set([*cards, d])])  # type: ignore[index]
        return total > 0

    lines = ["Let It Ride: optimal strategy (exact solver, card removal included)"]
    for bet, size in (("Bet 1", 3), ("Bet 2", 4)):
        ride: set[str] = set()
        pull: set[str] = set()
        paying_pulled = 0
        for cards in combinations(range(52), size):
            decision = rides(cards)
            if paying(cards):
                paying_pulled += not decision
                continue
            (ride if decision else pull).add(label(cards))
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

"""Exact analysis checked against plain walks and the round engine.

Each exact sheet is verified two further ways here (the simulation agreement lives in
test_simulate.py): the speed-ups (suit symmetry, card-removal sums) against a plain walk, and the
enumeration's result of a deal against the Round engine settling that same deal.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from croupier.analysis import optimal_strategy, par_sheet, strategy_text
from croupier.analysis.par import Outcome, WagerSheet
from croupier.analysis.stud_counts import five_card_lines, rank_set
from croupier.analysis.three_card_poker.solver import (
    all_hands,
    fold_net,
    played_net,
    qualifying,
    solve_three_card,
)
from croupier.core.cards import DECK
from croupier.games import get_game
from croupier.games import three_card_poker as tcp
from croupier.games.pov import supervisor_hands
from croupier.games.records import PlaceWager, Result, WagerSettled
from croupier.games.round import ActorKind, Round
from croupier.hands import Ranking, evaluate
from croupier.table.shoe import SeededShuffler, Shoe


def test_par_sheet_statistics_from_outcomes() -> None:
    sheet = WagerSheet(
        wager="coin",
        outcomes=(
            Outcome(name="win", net=Fraction(1), weight=1),
            Outcome(name="lose", net=Fraction(-1), weight=3),
        ),
    )
    assert sheet.house_edge == Fraction(1, 2)
    assert sheet.hit_frequency == Fraction(1, 4)
    assert sheet.variance == Fraction(3, 4)
    assert sheet.to_json()["house_edge_exact"] == "1/2"


def test_three_card_suit_symmetry_equals_a_plain_walk() -> None:
    """Every one of the 22,100 player hands against every dealer hand, no symmetry; the nets
    are the game's own (:mod:`croupier.games.three_card_poker`, tabulated and checked against
    it in test_rulebook_tcp_lir.py)."""
    table = tcp.ANTE_BONUS["A"]
    solved = WagerSheet(wager="base", outcomes=solve_three_card(table).outcomes)
    hands, values, masks = all_hands()
    qualifies = qualifying()
    bonus_of: dict[int, Fraction] = {}
    total = Fraction(0)
    count = 0
    for cards, value, mask in zip(hands.tolist(), values.tolist(), masks.tolist(), strict=True):
        if value not in bonus_of:
            rank = evaluate([DECK[c] for c in cards], Ranking.THREE_CARD)
            bonus_of[value] = tcp.ante_bonus_net(table, tcp.hand_keys(rank), tcp.Decision.PLAY)
        live = (masks & np.uint64(mask)) == 0
        n = int(live.sum())
        play = int(played_net(value, values[live], qualifies[live]).sum()) + bonus_of[value] * n
        total += max(Fraction(play), Fraction(fold_net() * n))
        count += n
    assert count == solved.total == 22_100 * 18_424
    assert total / count == solved.expected
    assert solved.house_edge == Fraction(total, count) * -1


def play(rnd: Round, seat: int, strategy: object) -> None:
    assert callable(strategy)
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(strategy(rnd, actor.seat))


@pytest.mark.parametrize("slug", ["mississippi-stud", "let-it-ride"])
def test_enumeration_result_of_a_deal_equals_the_round_engine(slug: str) -> None:
    """The exact walk scores a deal as units riding times the pay line of the final five cards;
    the engine, playing the same decisions, settles the same deal to the same net."""
    from croupier.analysis.let_it_ride import sheet as lir
    from croupier.analysis.mississippi_stud import sheet as ms

    game = get_game(slug)
    strategy = optimal_strategy(game)
    assert strategy is not None
    if slug == "mississippi-stud":
        lines = ms.base_lines()
        wagers = {"ante": 100}
    else:
        lines = five_card_lines(game.base_table, lir.five_card_keys)  # type: ignore[attr-defined]
        wagers = {"bet1": 100, "bet2": 100, "bet3": 100}
    rng = SeededShuffler(f"walk-{slug}")
    folds = 0
    for _ in range(300):
        rnd = game.new_round(shoe=Shoe.shuffled(rng))
        for wager, amount in wagers.items():
            rnd.apply(PlaceWager(seat=1, wager=wager, amount=amount))
        play(rnd, 1, strategy)
        net = rnd.settlement()["1"]["net"]
        final = [c.index for c in supervisor_hands(rnd)["1"] + supervisor_hands(rnd)["board"][:3]][
            :5
        ]
        line = int(lines.line_of[rank_set(final)])
        settled = [r for r in rnd.records if isinstance(r, WagerSettled)]
        if any(r.result is Result.FORFEIT for r in settled):
            folds += 1
            assert net == -sum(r.stake for r in settled)
            continue
        # units still in action: every wager not taken back (Let It Ride's pulled bets)
        units = sum(r.stake for r in settled if r.line != "withdrawn") // 100
        assert net == int(lines.nets[line] * units * 100), (final, line, units)
    assert slug != "mississippi-stud" or folds > 0


def test_every_game_has_an_exact_sheet() -> None:
    from croupier.games import GAMES

    for slug in GAMES:
        sheet = par_sheet(get_game(slug))
        assert sheet.wagers or sheet.base is not None, slug
        for wager in sheet.wagers.values():
            assert wager.total > 0 and sum(o.weight for o in wager.outcomes) == wager.total


def test_published_values_three_card_let_it_ride_stud_baccarat() -> None:
    """Our exact results, to the precision the well-known published analyses quote."""
    # Source: Wizard of Odds, "Three Card Poker" (Ante and Play, 3.37% of the Ante), "Let It
    # Ride" (3.51%), "Mississippi Stud" (4.91% of the Ante), "Baccarat" (eight decks: Banker
    # 1.06%, Player 1.24%): published par sheets.
    edges = {
        "three-card-poker": ("base", 0.0337),
        "let-it-ride": ("base", 0.0351),
        "mississippi-stud": ("base", 0.0491),
        "mini-baccarat": ("banker", 0.0106),
    }
    for slug, (wager, edge) in edges.items():
        sheet = par_sheet(get_game(slug))
        target = sheet.base if wager == "base" else sheet.wagers[wager]
        assert target is not None
        assert round(float(target.house_edge), 4) == edge, slug
    player = par_sheet(get_game("mini-baccarat")).wagers["player"]
    assert round(float(player.house_edge), 4) == 0.0124
    assert DECK[0].index == 0


def _published_bet_1_classes() -> set[str]:
    """Let It Ride's published Bet 1 rule (Wizard of Odds, "Let It Ride" basic strategy,
    wizardofodds.com/games/let-it-ride/): besides a paying hand, let it ride with three to a
    royal flush, three suited in a row but 2-3-4 and A-2-3, three to a straight flush spread
    over four ranks with at least one ten or higher, or over five ranks with at least two."""
    symbol = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"} | {r: str(r) for r in range(2, 10)}
    found = set()
    for ranks in combinations(range(2, 15), 3):
        label = "".join(symbol[r] for r in sorted(ranks, reverse=True)) + " suited"
        if min(ranks) >= 10:
            found.add(label)  # three to a royal flush
            continue
        low = [1 if r == 14 else r for r in ranks]
        for cards in {tuple(sorted(ranks)), tuple(sorted(low))}:
            spread = cards[-1] - cards[0] + 1
            high = sum(r >= 10 for r in cards)
            in_a_row = spread == 3 and cards not in ((2, 3, 4), (1, 2, 3))
            if in_a_row or (spread == 4 and high >= 1) or (spread == 5 and high >= 2):
                found.add(label)
    return found


def test_let_it_ride_strategy_text_bet_1_is_the_published_rule() -> None:
    """The readable strategy, derived from the solver over every three-card set, lists for
    Bet 1 exactly the 29 classes of the published rule, and no class whose suits decide."""
    text = strategy_text(get_game("let-it-ride")).splitlines()
    bet_1 = text[text.index("  Bet 1 (3 cards seen): let it ride with") :]
    listed = next(line for line in bet_1 if line.startswith("    and these"))
    count, classes = listed.removeprefix("    and these ").split(" classes: ")
    assert set(classes.split(", ")) == _published_bet_1_classes()
    assert int(count) == 29
    assert not any(line.startswith("    depending") for line in bet_1[: bet_1.index(listed) + 2])

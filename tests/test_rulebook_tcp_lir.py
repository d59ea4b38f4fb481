"""One rulebook: every table the analysis of Three Card Poker and Let It Ride builds equals the
game's own settlement function on every key.

The games state their rules once, as pure functions over hand keys and decisions
(:mod:`croupier.games.three_card_poker`, :mod:`croupier.games.let_it_ride`); the exact solvers,
the protection analysis and the fast Monte Carlo tabulate arrays from them.  Each test walks
every key of a tabulation and calls the game's function on it.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from croupier.analysis.let_it_ride.montecarlo import let_it_ride_args
from croupier.analysis.three_card_poker import solver as tabulated
from croupier.analysis.three_card_poker.montecarlo import three_card_args
from croupier.core.cards import DECK
from croupier.games import get_game
from croupier.games import let_it_ride as lir
from croupier.games import three_card_poker as tcp
from croupier.games.paytables import PayLine, PayTable, to
from croupier.hands import HandRank, Ranking, evaluate

# A table paying the mini royal apart (as a Rules Submission may, § 649a.12(b)), so the
# tabulation's use of the hand's pay-table names beyond its category is exercised.
_MINI_ROYAL_BONUS = PayTable(
    wager="ante_bonus",
    letter="custom",
    section="§ 649a.12(b)",
    lines=(
        PayLine(hand="mini_royal", odds=to(50)),
        PayLine(hand="straight_flush", odds=to(5)),
        PayLine(hand="three_of_a_kind", odds=to(4)),
        PayLine(hand="straight", odds=to(3, 2)),
    ),
)


def test_649a_three_card_tabulations_equal_the_game_functions() -> None:
    hands, values, _ = tabulated.all_hands()
    distinct = sorted(set(values.tolist()))
    # § 649a.11(c): the qualifier, on every three-card hand.
    assert tabulated.qualifying().tolist() == [tcp.dealer_qualifies(v) for v in values.tolist()]
    # The Ante and the Play, on every pair of hand values and both decisions.
    q = np.array([tcp.dealer_qualifies(v) for v in distinct])
    grid = tabulated.played_net(np.array(distinct)[:, None], np.array(distinct)[None, :], q)
    for i, p in enumerate(distinct):
        row = [tcp.base_net(p, d, tcp.Decision.PLAY) for d in distinct]
        assert grid[i].tolist() == row, p
        assert {tcp.base_net(p, d, tcp.Decision.FOLD) for d in distinct} == {tabulated.fold_net()}
    assert tabulated.showdown_nets() == {
        s: tcp.ante_play_net(tcp.Decision.PLAY, s) for s in tcp.Showdown
    }
    # § 649a.12(b): the Ante Bonus of every suit class, under each table.
    reps = tabulated.canonical()
    ranks = [
        evaluate([DECK[c] for c in cards], Ranking.THREE_CARD) for cards in reps.cards.tolist()
    ]
    assert reps.values.tolist() == [r.value for r in ranks]
    for table in (*tcp.ANTE_BONUS.values(), _MINI_ROYAL_BONUS, None):
        assert tabulated.ante_bonus_by_class(table) == tuple(
            tcp.ante_bonus_net(table, tcp.hand_keys(r), tcp.Decision.PLAY) for r in ranks
        )
    assert Fraction(50) in tabulated.ante_bonus_by_class(_MINI_ROYAL_BONUS)
    # The fast Monte Carlo's tables (the default game): by three-card colex rank.
    value, _, bonus, qualifies, scale, binom, nets = three_card_args()
    assert nets.tolist() == [
        scale * tcp.ante_play_net(tcp.Decision.PLAY, s) for s in tabulated.KERNEL_OUTCOMES[:4]
    ] + [scale * tcp.ante_play_net(tcp.Decision.FOLD, tcp.Showdown.LOSE)]
    table = get_game("three-card-poker").paytable("ante_bonus")
    for cards in hands.tolist():
        colex = sum(int(binom[c, i + 1]) for i, c in enumerate(sorted(cards)))
        rank = evaluate([DECK[c] for c in cards], Ranking.THREE_CARD)
        assert int(value[colex]) == rank.value
        assert bool(qualifies[colex]) is tcp.dealer_qualifies(rank.value)
        net = tcp.ante_bonus_net(table, tcp.hand_keys(rank), tcp.Decision.PLAY)
        assert Fraction(int(bonus[colex]), scale) == net


def test_643a_let_it_ride_tabulations_equal_the_game_functions() -> None:
    from croupier.analysis.let_it_ride import sheet as analysis
    from croupier.analysis.stud_counts import five_card_values

    game = get_game("let-it-ride")
    assert isinstance(game, lir.LetItRide)
    table = game.base_table
    solved = analysis.solve(table)
    line_of, kernel_nets, *_ = let_it_ride_args()
    distinct, first = np.unique(five_card_values(), return_index=True)
    decisions = [(a, b) for a in lir.BetDecision for b in lir.BetDecision]
    for value, index in zip(distinct.tolist(), first.tolist(), strict=True):
        keys = lir.five_card_keys(HandRank.of_value(value, Ranking.POKER5))
        # § 643a.12: the line each five-card set reaches, and one bet's net on it.
        line = int(solved.lines.line_of[index])
        pays = lir.bet_line(table, keys)
        assert line == (len(table.lines) if pays is None else table.lines.index(pays)), value
        assert solved.lines.nets[line] == lir.bet_net(table, keys)
        # § 643a.7(d), § 643a.11(b), (d): the bets in action after each pair of decisions.
        for bet1, bet2 in decisions:
            riding = lir.bets_in_action(bet1, bet2) - 1
            assert solved.nets[line][riding] == lir.base_net(table, keys, bet1, bet2)
            assert kernel_nets[int(line_of[index]), riding] == lir.base_net(table, keys, bet1, bet2)

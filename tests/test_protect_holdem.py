"""Game protection in Ultimate Texas Hold 'Em (§ 569): the dealer's hole cards stay face down to
the showdown (§ 569.11), burn cards and other players' cards are never shown.  The kernels'
exact values of one state are cross-checked against each other (one hole card, both, dead
cards), against the solver's value of a starting hand, and against rounds played through the
real round engine on the re-found decisions.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, sqrt

import numpy as np
import pytest

from croupier.analysis.protect import protect
from croupier.analysis.ultimate_texas_holdem.protect import (
    hand_values,
    uth_info,
    uth_seen,
    uth_state,
)
from croupier.analysis.ultimate_texas_holdem.solver import starting_hand
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import CroupierError
from croupier.games import get_game
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem, settle_base
from croupier.hands import Ranking, evaluate
from croupier.table.scenario import run_scenario


def _idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def _names(cards: list[int]) -> list[str]:
    return [str(DECK[c]) for c in cards]


def _round(player: list[int], dealer: list[int], board: list[int], plays: list[str]) -> int:
    data = {
        "game": "ultimate-texas-holdem",
        "seats": {
            "1": {
                "wagers": {"ante": 100, "blind": 100},
                "decisions": plays,
                "hand": _names(player),
            }
        },
        "dealer": _names(dealer),
        "community": _names(board),
    }
    return int(run_scenario(data)["seats"]["1"]["net"])


def _value(cards: list[int]) -> int:
    return evaluate([DECK[c] for c in cards], Ranking.POKER5).value


def test_569_both_hole_cards_seen_agree_across_kernels() -> None:
    """The one-or-two-seen kernel with both cards equals the known-dealer kernel, exactly."""
    player, dealer = _idx("Kh 7d"), _idx("Qs 9c")
    both = uth_seen(player, dealer, None)
    known = uth_state(player, dealer, None)
    assert both.best == known.best and both.preflop == known.preflop
    assert both.completions == comb(48, 5) * 10  # ordered flop first: 10 flops per board


def test_569_one_hole_card_seen_value_agrees_with_rounds_played_on_it() -> None:
    """One dealer hole card flashed (the Q of spades): random boards and dealer's other cards
    played through the round engine on the re-found decisions (the flop from the kernel, the
    river by the game's settlement summed over the dealer's possible other card) average the
    exact value of the state."""
    game = get_game("ultimate-texas-holdem")
    table = game.paytable("blind")
    assert table is not None
    player, seen = _idx("Kh 7d"), _idx("Qs")
    state = uth_seen(player, seen, table)
    assert state.preflop == 0  # a hand that checks: the flop and river decisions are tested
    assert state.completions == comb(49, 5) * 10 * 44
    rest = list(state.rest)
    rng = np.random.default_rng(5691)
    nets = []
    for _ in range(160):
        drawn = [int(c) for c in rng.choice(rest, size=6, replace=False)]
        board, other = drawn[:5], drawn[5]
        if state.flop_bets(board[:3]):
            plays = ["check", "play 2"]
        else:
            mine = _value([*player, *board])
            play = fold = Fraction(0)
            for y in (c for c in rest if c not in board):
                theirs = _value([*seen, y, *board])
                play += settle_base(mine, theirs, 1, table).net
                fold += settle_base(mine, theirs, 0, table).net
            plays = ["check", "check", "play 1" if play > fold else "fold"]
        nets.append(_round(player, [*seen, other], board, plays) / 100)
    mean = float(np.mean(nets))
    se = float(np.std(nets, ddof=1) / sqrt(len(nets)))
    assert abs(mean - float(state.value)) < 4 * se


def test_569_hole_cards_sampled_are_gains_over_the_starting_hand() -> None:
    game = get_game("ultimate-texas-holdem")
    one = protect(game, "dealer-card", samples=3, seed=5)
    assert one.samples == 3 and one.std_error is not None and one.changed is None
    assert "one of the dealer's two hole cards" in one.note
    both = protect(game, "dealer-cards", samples=3, seed=5)
    assert "both dealer hole cards" in both.note
    with pytest.raises(CroupierError, match="Ultimate Texas Hold 'Em's"):
        protect(get_game("three-card-poker"), "dealer-cards")


@pytest.mark.long
def test_569_dead_card_sets_agree_with_the_other_kernels_and_the_solver() -> None:
    """One pass of the dead-card kernel over one player hand: the sets that see hole cards
    equal the seen-card kernel exactly, the set with nothing known is the solver's exact value
    of the starting hand (best = the solver's play), and a burn card never loses value."""
    game = get_game("ultimate-texas-holdem")
    assert isinstance(game, UltimateTexasHoldem)
    player, dealer = _idx("Kh 7d"), _idx("Qs 9c")
    sets = [(dealer, []), (dealer[:1], []), ([], []), ([], dealer[:1]), ([], [*dealer, 0])]
    out, _, _ = uth_info(player, sets, None)
    both, one = uth_seen(player, dealer, None), uth_seen(player, dealer[:1], None)
    assert (out[0, 0], out[0, 2]) == (both.best, both.completions)
    assert (out[1, 0], out[1, 2]) == (one.best, one.completions)
    best, fixed, count = (int(x) for x in out[2])
    assert best == fixed and count == comb(50, 5) * 10 * comb(45, 2)
    hand = starting_hand([DECK[c] for c in player])
    assert best * 1 == hand_values(game)[hand] * count * both.scale
    assert out[3, 0] >= out[3, 1] and out[4, 0] >= out[4, 1]
    burn = protect(game, "burn-card", samples=2, seed=1)
    assert burn.value >= 0 and burn.std_error is not None and burn.samples == 2
    shared = protect(game, colluders=3, samples=2, seed=1)
    assert shared.value >= 0 and shared.std_error is not None

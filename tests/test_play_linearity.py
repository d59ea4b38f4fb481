"""The exact solvers are unaffected by the Play's range (§ 641a.7(d)(1)): a Four Card Poker Play
may be any whole-cent amount from one to three times the Ante, but its value is linear in its
size, so the best Play is always at an end of the range (1x or 3x), the two sizes the solver
compares with the fold.

Proof for sample hands, in exact integers: the dealer completions that beat, tie and lose to the
player's hand are counted by the solver's own kernel (:func:`dealer_versus`, every one of the
1,370,754 hidden completions), and the engine's settlement of a real round gives the player's net
for each Play size from the Ante to three times it, cent by cent.  The expected value is then an
exact affine function of the size (second differences zero) whose maximum is at 1x or 3x.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.analysis.four_card_poker.solver import HIDDEN_COMPLETIONS, dealer_versus
from croupier.core.cards import DECK, parse_cards
from croupier.games import get_game
from croupier.games.four_card_poker import ANTE_BONUS, hand_keys
from croupier.games.pov import supervisor_hands
from croupier.games.records import NoMoreBets, PlaceWager, Play
from croupier.hands import Ranking, evaluate
from croupier.table.shoe import StackedShoe

ANTE = 100
SIZES = range(ANTE, 3 * ANTE + 1)  # every whole cent from 1x to 3x: steps of 0.01 x the Ante

# (player's five cards, dealer's six cards with the up card last)
SAMPLES = [
    ("Kc Kd 9h 5s 2c", "Ah Qd Js 8c 4d 7s"),  # a pair of kings against a 7 up: loses this deal
    ("9c 9d 9h 2s 4c", "Kh Kd Ks 3h 6d As"),  # trips (Ante Bonus 2 to 1) against an ace up
    ("Qs Jd 8c 5h 3d", "Th 7c 6s 4h 2h 9d"),  # queen high against a 9 up: wins this deal
    ("6h 6d 5c 5s Ad", "Kc 8h 8d 7h 3c Ts"),  # two pair against a ten up
]


def settled_net(player: str, dealer: str, play: int) -> int:
    """The player's net over the round, settled by the engine, for a Play of ``play`` cents."""
    hand, dealt = list(parse_cards(player)), list(parse_cards(dealer))
    order = [*hand[:5], *dealt]
    # § 641a.8(d): one card at a time, the player then the dealer, five passes; the dealer's
    # sixth card (face up) last.
    stack = [c for pair in zip(hand, dealt[:5], strict=True) for c in pair] + [dealt[5]]
    rest = [c for c in DECK if c not in set(order)]
    rnd = get_game({"game": "four-card-poker"}).new_round(shoe=StackedShoe(stack + rest))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=ANTE))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert supervisor_hands(rnd)["1"] == hand and supervisor_hands(rnd)["dealer"] == dealt
    rnd.apply(Play(seat=1, amount=play))
    rnd.run_dealer()
    net: int = rnd.settlement()["1"]["net"]
    return net


@pytest.mark.parametrize(("player", "dealer"), SAMPLES)
def test_641a_7_d_1_play_value_is_linear_in_its_size_and_best_at_an_end(
    player: str, dealer: str
) -> None:
    versus = dealer_versus(player, dealer.rsplit(maxsplit=1)[-1])
    assert versus.total == HIDDEN_COMPLETIONS
    mine = evaluate(player, Ranking.FOUR_CARD)
    theirs = evaluate(dealer, Ranking.FOUR_CARD)
    # The engine's net on this deal, for every size: the same affine rule for every cent.
    nets = {size: settled_net(player, dealer, size) for size in SIZES}
    bonus = nets[ANTE] - (2 * ANTE if mine.value >= theirs.value else -2 * ANTE)
    line = ANTE_BONUS.line_for(hand_keys(mine))  # § 641a.12(b), whatever the dealer holds
    assert bonus == (line.odds.winnings(ANTE) if line is not None and line.odds else 0)
    for size, net in nets.items():
        sign = 1 if mine.value >= theirs.value else -1  # § 641a.11(c)(3): a tie is the player's
        assert net == sign * (ANTE + size) + bonus
    # Exact expected value over every hidden completion, per size (ties go to the player).
    wins = versus.tie + versus.lose
    ev = {
        size: Fraction(wins * (ANTE + size) - versus.beat * (ANTE + size), HIDDEN_COMPLETIONS)
        + bonus
        for size in SIZES
    }
    slope = ev[ANTE + 1] - ev[ANTE]
    assert all(ev[s + 1] - ev[s] == slope for s in SIZES if s + 1 in ev)  # linear, exactly
    best = max(ev.values())
    assert {s for s, v in ev.items() if v == best} <= {ANTE, 3 * ANTE} or slope == 0
    assert best in (ev[ANTE], ev[3 * ANTE])

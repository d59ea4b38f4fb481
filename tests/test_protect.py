"""Game protection, Three Card Poker: the value of a flashed dealer card and of a known burn card,
exact, and cross-checked by simulating random deals played on the information; colluders sampled.
(Four Card Poker and Mississippi Stud: tests/test_protect_games.py.)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis import par_sheet
from croupier.analysis.protect import protect
from croupier.analysis.three_card_poker.solver import all_hands, fold_net, played_net, qualifying
from croupier.core.cards import DECK
from croupier.core.errors import CroupierError
from croupier.games import Game, get_game
from croupier.games import three_card_poker as tcp
from croupier.hands import Ranking, evaluate


@pytest.fixture(scope="module")
def game() -> Game:
    return get_game("three-card-poker")


def test_649a_edge_without_information_is_the_par_sheet(game: Game) -> None:
    sheet = par_sheet(game).base
    assert sheet is not None
    assert protect(game, "dealer-card").edge_without == sheet.house_edge
    assert protect(game, "burn-card").edge_without == sheet.house_edge


def test_flashed_dealer_card_exact_value_agrees_with_simulated_deals(game: Game) -> None:
    """Random deals played on the flashed card and settled by the game's own functions."""
    exact = protect(game, "dealer-card")
    assert exact.edge_with < 0 < exact.edge_without  # the leak turns the game
    table = game.paytable("ante_bonus")
    _, values, masks = all_hands()
    qualifies = qualifying()
    rng = np.random.default_rng(20261201)
    nets = []
    for _ in range(6_000):
        deck = rng.permutation(52)
        player, dealer = deck[:3], deck[3:6]
        flashed = int(dealer[rng.integers(3)])
        rank = evaluate([DECK[int(c)] for c in player], Ranking.THREE_CARD)
        bonus = tcp.ante_bonus_net(table, tcp.hand_keys(rank), tcp.Decision.PLAY)
        pmask = int(sum(1 << int(c) for c in player))
        live = (masks & np.uint64(pmask)) == 0
        with_card = live & ((masks >> np.uint64(flashed)) & np.uint64(1)).astype(bool)
        seen = played_net(rank.value, values[with_card], qualifies[with_card])
        play = int(seen.sum()) + bonus * len(seen)
        decision = tcp.Decision.PLAY if play > fold_net() * len(seen) else tcp.Decision.FOLD
        dvalue = evaluate([DECK[int(c)] for c in dealer], Ranking.THREE_CARD).value
        net = tcp.base_net(rank.value, dvalue, decision)
        nets.append(float(net + tcp.ante_bonus_net(table, tcp.hand_keys(rank), decision)))
    mean = float(np.mean(nets))
    se = float(np.std(nets, ddof=1) / np.sqrt(len(nets)))
    assert abs(mean - float(-exact.edge_with)) < 4 * se
    assert mean > float(-exact.edge_without) + 2 * se  # the information is worth something


def test_known_burn_card_is_worth_little(game: Game) -> None:
    burn = protect(game, "burn-card")
    assert 0 < burn.value < Fraction(1, 1000)
    assert burn.changed is not None and burn.changed < Fraction(1, 50)


def test_protect_refuses_what_it_does_not_price(game: Game) -> None:
    with pytest.raises(CroupierError, match="--known"):
        protect(game, "hole-cards")
    with pytest.raises(CroupierError, match="one kind of information at a time"):
        protect(game, "dealer-card", colluders=3)
    with pytest.raises(CroupierError, match="colluders"):
        protect(game, colluders=7)
    with pytest.raises(CroupierError, match=r"--known .* or --colluders"):
        protect(game)
    with pytest.raises(CroupierError, match="samples"):
        protect(game, colluders=2, samples=1)
    # a sample no run finishes is refused before any deal is drawn
    with pytest.raises(CroupierError, match="from 2 to 1,000,000"):
        protect(game, colluders=2, samples=10**6 + 1)
    with pytest.raises(CroupierError, match="not priced yet"):
        protect(get_game("let-it-ride"), "dealer-card")
    with pytest.raises(CroupierError, match="no dealer hand"):
        protect(get_game("mississippi-stud"), "dealer-card")


def test_649a_colluders_sampled_gain_is_small_and_positive(game: Game) -> None:
    """Two other hands seen move the dealer's hand little: the gain is positive and far below a
    flashed dealer card's."""
    shared = protect(game, colluders=3, samples=200, seed=7)
    assert shared.std_error is not None and shared.samples == 200
    assert shared.edge_without == par_sheet(game).base.house_edge  # type: ignore[union-attr]
    assert 0 <= shared.value < protect(game, "dealer-card").value / 10
    assert shared.to_json()["method"] == "sampled"

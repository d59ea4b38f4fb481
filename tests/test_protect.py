"""Game protection: the value of a flashed dealer card and of a known burn card in Three Card
Poker, exact, and cross-checked by simulating random deals played on the information.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis import par_sheet
from croupier.analysis._three_card import QUEEN_HIGH, _all_hands
from croupier.analysis.protect import protect
from croupier.errors import CroupierError
from croupier.games import Game, get_game

ANTE_BONUS = {"straight_flush": 5, "three_of_a_kind": 4, "straight": 1}  # § 649a.12 table A


@pytest.fixture(scope="module")
def game() -> Game:
    return get_game("three-card-poker")


def test_649a_edge_without_information_is_the_par_sheet(game: Game) -> None:
    sheet = par_sheet(game).base
    assert sheet is not None
    assert protect(game, "dealer-card").edge_without == sheet.house_edge
    assert protect(game, "burn-card").edge_without == sheet.house_edge


def _net(player: int, dealer: int, bonus: int) -> int:
    # an independent reading of the settlement (Play = Ante): dealer below queen high pays the
    # Ante and pushes the Play; else the higher hand wins both; the Ante Bonus on any played hand
    if dealer < QUEEN_HIGH:
        return 1 + bonus
    return (2 if player > dealer else 0 if player == dealer else -2) + bonus


def test_flashed_dealer_card_exact_value_agrees_with_simulated_deals(game: Game) -> None:
    from croupier.hands import CATEGORY_SHIFT, Ranking

    exact = protect(game, "dealer-card")
    assert exact.edge_with < 0 < exact.edge_without  # the leak turns the game
    _, values, masks = _all_hands()
    categories = Ranking.THREE_CARD.categories
    rng = np.random.default_rng(20261201)
    nets = []
    for _ in range(6_000):
        deck = rng.permutation(52)
        player, dealer = deck[:3], deck[3:6]
        flashed = int(dealer[rng.integers(3)])
        pmask = int(sum(1 << int(c) for c in player))
        pvalue = int(values[np.flatnonzero(masks == np.uint64(pmask))[0]])
        bonus = ANTE_BONUS.get(categories[pvalue >> CATEGORY_SHIFT].value, 0)
        live = (masks & np.uint64(pmask)) == 0
        with_card = live & ((masks >> np.uint64(flashed)) & np.uint64(1)).astype(bool)
        dv = values[with_card]
        play = np.where(
            dv < QUEEN_HIGH, 1, np.where(pvalue > dv, 2, np.where(pvalue == dv, 0, -2))
        ).sum() + bonus * len(dv)
        dmask = int(sum(1 << int(c) for c in dealer))
        dvalue = int(values[np.flatnonzero(masks == np.uint64(dmask))[0]])
        nets.append(_net(pvalue, dvalue, bonus) if play > -len(dv) else -1)
    mean = float(np.mean(nets))
    se = float(np.std(nets, ddof=1) / np.sqrt(len(nets)))
    assert abs(mean - float(-exact.edge_with)) < 4 * se
    assert mean > float(-exact.edge_without) + 2 * se  # the information is worth something


def test_known_burn_card_is_worth_little(game: Game) -> None:
    burn = protect(game, "burn-card")
    assert 0 < burn.value < Fraction(1, 1000)
    assert burn.changed < Fraction(1, 50)


def test_protect_refuses_what_it_does_not_price(game: Game) -> None:
    with pytest.raises(CroupierError, match="--known"):
        protect(game, "hole-cards")
    with pytest.raises(CroupierError, match="colluders"):
        protect(game, "dealer-card", colluders=3)
    with pytest.raises(CroupierError, match="not priced yet"):
        protect(get_game("four-card-poker"), "dealer-card")

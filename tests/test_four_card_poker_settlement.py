"""Four Card Poker's base settlement as pure functions (the rules the round, the solver and the
Monte Carlo kernel all read): :func:`base_net`, :func:`showdown`, :func:`aces_up_line` and the
hand keys, on hands written out card by card."""

from __future__ import annotations

from croupier.games.four_card_poker import (
    ACES_UP,
    ANTE_BONUS,
    aces_up_line,
    ante_bonus_line,
    base_net,
    hand_keys,
    showdown,
)
from croupier.games.records import Result
from croupier.hands import Category, HandRank, Ranking, evaluate

P4 = Ranking.FOUR_CARD


def test_641a_11_c_3_base_net_a_tie_goes_to_the_player() -> None:
    player = evaluate("Kc Kd 9h 5s 2c", P4)
    dealer = evaluate("Kh Ks 9d 5c 3d 2h", P4)
    assert player.value == dealer.value
    assert showdown(player, dealer) is Result.WIN
    net = base_net(player, dealer, 100, 300)
    assert (net.result, net.ante, net.play, net.bonus, net.total) == (Result.WIN, 100, 300, 0, 400)


def test_641a_12_b_base_net_pays_the_ante_bonus_when_the_dealer_wins() -> None:
    player = evaluate("9c 9d 9h 2s 4c", P4)  # three nines: 2 to 1 on the Ante
    dealer = evaluate("Kh Kd Ks Kc 6d As", P4)  # four kings beat it
    net = base_net(player, dealer, 100, 200)
    assert net.result is Result.LOSE
    assert (net.ante, net.play, net.bonus, net.bonus_line) == (-100, -200, 200, "three_of_a_kind")
    assert net.total == -100


def test_641a_12_b_ante_bonus_lines_are_quads_straight_flush_trips() -> None:
    odds = {line.hand: str(line.odds) for line in ANTE_BONUS.lines}
    assert odds == {
        "four_of_a_kind": "25 to 1",
        "straight_flush": "20 to 1",
        "three_of_a_kind": "2 to 1",
    }
    assert ante_bonus_line(evaluate("7h 6h 5h 4h Kc", P4)) is not None
    assert ante_bonus_line(evaluate("Ah Ad Kc Ks 2d", P4)) is None  # two pair: no bonus


def test_641a_11_b_base_net_a_fold_forfeits_the_ante_only() -> None:
    player = evaluate("Ac Ad Ah As 2c", P4)  # even four aces: a fold earns no bonus
    dealer = evaluate("2h 3d 5s 7c 9d Jh", P4)
    net = base_net(player, dealer, 100, 0)
    assert (net.result, net.ante, net.play, net.bonus, net.bonus_line) == (
        Result.FORFEIT,
        -100,
        0,
        0,
        None,
    )


def test_641a_12_c_aces_up_pays_a_pair_of_aces_not_a_pair_of_kings() -> None:
    line = aces_up_line(evaluate("Ac Ad 9h 5s 2c", P4), ACES_UP["A"])
    assert line is not None and line.hand == "pair_of_aces" and str(line.odds) == "1 to 1"
    assert aces_up_line(evaluate("Kc Kd 9h 5s 2c", P4), ACES_UP["A"]) is None
    quads = aces_up_line(evaluate("Ac Ad Ah As 2c", P4), ACES_UP["C"])
    assert quads is not None and quads.hand == "four_of_a_kind" and str(quads.odds) == "50 to 1"


def test_hand_keys_read_the_top_rank_of_four_aces_and_a_pair_of_aces() -> None:
    aces = evaluate("Ac Ad Ah As 2c", P4)
    assert aces.top_rank == 14
    assert hand_keys(aces) == {"four_of_a_kind", "four_aces"}
    pair = evaluate("Ah Ad Kc 5s 3d", P4)
    assert pair.tie_ranks == (14, 13, 5)
    assert hand_keys(pair) == {"pair", "pair_of_aces"}
    # a rank rebuilt from its order value alone has the same keys (what the tabulations use)
    rebuilt = HandRank.of_value(pair.value, P4)
    assert rebuilt.category is Category.PAIR and hand_keys(rebuilt) == hand_keys(pair)

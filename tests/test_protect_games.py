"""Game protection in Four Card Poker and Mississippi Stud: the kernels' counts against the
game's own hand rankings and settlement, the values without information against the par
sheets, and the values with information cross-checked by rounds played through the real round
engine (scenarios) on that information.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest
from typer.testing import CliRunner

from croupier.analysis import par_sheet
from croupier.analysis.four_card_poker.protect import fcp_state, fcp_values
from croupier.analysis.four_card_poker.solver import ante_play_tables
from croupier.analysis.mississippi_stud.protect import ms_state
from croupier.analysis.protect import protect
from croupier.analysis.ultimate_texas_holdem.protect import uth_state
from croupier.cli import app
from croupier.core.cards import DECK, parse_cards
from croupier.games import get_game
from croupier.games.mississippi_stud import base_pay, hand_keys
from croupier.games.ultimate_texas_holdem import settle_base
from croupier.hands import Ranking, evaluate
from croupier.kernels import canonical_hands, rank_batch
from croupier.table.scenario import run_scenario


def _idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def _names(cards: list[int]) -> list[str]:
    return [str(DECK[c]) for c in cards]


def _mean_se(nets: list[float]) -> tuple[float, float]:
    return float(np.mean(nets)), float(np.std(nets, ddof=1) / sqrt(len(nets)))


# --------------------------------------------------------------------------------------------
# Mississippi Stud


def test_571_state_kernel_without_dead_cards_is_the_par_sheet() -> None:
    """Re-solving every two-card start (169 suit classes, weighted) with nothing known gives the
    solver's exact edge, for the re-found bets and for the solver's own policy alike."""
    hands, weights = canonical_hands(2)
    best = fixed = 0
    for hand, weight in zip(hands.tolist(), weights.tolist(), strict=True):
        state = ms_state(hand)
        best += weight * state.best
        fixed += weight * state.fixed
    sheet = par_sheet(get_game("mississippi-stud")).base
    assert sheet is not None
    assert Fraction(-best, 1326 * 50 * 49 * 48) == sheet.house_edge
    assert fixed == best


def test_571_solver_policy_over_every_burn_card_is_its_value_without_one() -> None:
    """Averaged over the 50 cards that may be burnt, the solver's own bets on the 49 left are
    worth exactly what they are on the full deck: the identity that makes each state's paired
    gain (best with the card minus the solver's bets) an unbiased measure of the card's value."""
    own = _idx("Ks 9s")
    whole = ms_state(own)
    burnt = [ms_state(own, [b]) for b in range(52) if b not in own]
    total = sum((Fraction(s.fixed, 49 * 48 * 47) for s in burnt), Fraction(0))
    assert total / 50 == Fraction(whole.fixed, 50 * 49 * 48)
    assert all(s.best >= s.fixed for s in burnt) and any(s.best > s.fixed for s in burnt)


def test_571_last_card_sums_are_the_game_settlement_over_the_live_cards() -> None:
    own, dead = _idx("Ts 9s"), _idx("Js 2s")
    state = ms_state(own, dead)
    for c, d in ((_idx("8s")[0], _idx("7h")[0]), (_idx("Td")[0], _idx("9c")[0])):
        total = Fraction(0)
        for e in range(52):
            if e in (*own, *dead, c, d):
                continue
            rank = evaluate([DECK[x] for x in (*own, c, d, e)], Ranking.POKER5)
            total += base_pay(hand_keys(rank)).net
        assert total == int(state.sum5[c, d])


def _ms_round(own: list[int], partner: list[int], board: list[int], bets: list[int]) -> int:
    decisions = [f"bet {k}" for k in bets if k] + (["fold"] if 0 in bets else [])
    data = {
        "game": "mississippi-stud",
        "seats": {
            "1": {"wagers": {"ante": 100}, "decisions": decisions, "hand": _names(own)},
            "2": {"wagers": {"ante": 100}, "decisions": ["fold"], "hand": _names(partner)},
        },
        "community": _names(board),
    }
    return int(run_scenario(data)["seats"]["1"]["net"])


def test_571_11_k_shared_cards_value_agrees_with_rounds_played_on_them() -> None:
    """Seat 1 sees seat 2's cards (§ 571.11(k) forbids it): rounds dealt at random from the rest
    and played through the round engine on the re-found bets average the state's exact value."""
    own, partner = _idx("Ts 9s"), _idx("Js 8s")
    state = ms_state(own, partner)
    assert state.best > state.fixed  # two of the flush cards gone: the bets change
    rng = np.random.default_rng(571)
    rest = [c for c in range(52) if c not in (*own, *partner)]
    nets = []
    for _ in range(300):
        board = [int(c) for c in rng.choice(rest, size=3, replace=False)]
        bets: list[int] = []
        units = 1
        for street in range(3):
            k = state.bet(board[:street], units)
            bets.append(k)
            if not k:
                break
            units += k
        nets.append(_ms_round(own, partner, board, bets) / 100)
    mean, se = _mean_se(nets)
    exact = state.best / (48 * 47 * 46)
    assert abs(mean - exact) < 4 * se


def test_571_11_k_colluders_sampled_value_grows_with_the_seats() -> None:
    two = protect(get_game("mississippi-stud"), colluders=2, samples=120, seed=1)
    six = protect(get_game("mississippi-stud"), colluders=6, samples=120, seed=1)
    assert two.std_error is not None and six.std_error is not None
    assert 0 < two.value < six.value
    assert two.edge_without == par_sheet(get_game("mississippi-stud")).base.house_edge  # type: ignore[union-attr]


# --------------------------------------------------------------------------------------------
# Four Card Poker


@pytest.fixture(scope="module")
def deal() -> tuple[list[int], int]:
    return _idx("Qh Qd 7c 5s 2d"), _idx("Kc")[0]


def test_641a_flashed_card_counts_are_the_ranked_dealer_hands(deal: tuple[list[int], int]) -> None:
    """The kernel's counts of the dealer hands holding the flashed card equal a direct ranking of
    those 148,995 six-card hands (best four, § 641a.6) against the player's best four."""
    player, up = deal
    state = fcp_state(player, up)
    assert int(state.all_counts.sum()) == comb(46, 5)
    flashed = _idx("Qc")[0]
    rest = [c for c in range(52) if c not in (*player, up, flashed)]
    four = np.array(list(combinations(rest, 4)), dtype=np.uint8)
    hands = np.column_stack([four, np.full((len(four), 2), (up, flashed), dtype=np.uint8)])
    dealer = rank_batch(Ranking.FOUR_CARD, hands)
    mine = evaluate([DECK[c] for c in player], Ranking.FOUR_CARD).value
    expect = [(dealer < mine).sum(), (dealer == mine).sum(), (dealer > mine).sum()]
    assert state.per_card[flashed].tolist() == [int(x) for x in expect]


def _fcp_round(player: list[int], dealer: list[int], action: int) -> int:
    decision = "fold" if action == 0 else f"play {action}"
    data = {
        "game": "four-card-poker",
        "seats": {"1": {"wagers": {"ante": 100}, "decisions": [decision], "hand": _names(player)}},
        "dealer": _names(dealer),
    }
    return int(run_scenario(data)["seats"]["1"]["net"])


def test_641a_flashed_dealer_card_value_agrees_with_rounds_played_on_it(
    deal: tuple[list[int], int],
) -> None:
    """Rounds of this deal through the round engine, the dealer's hidden cards at random and one
    of them seen, played on the re-found decision, average the exact value with the card."""
    player, up = deal
    tabs = ante_play_tables()
    state = fcp_state(player, up)
    values = fcp_values(tabs, state.strength, state.per_card)
    best = values.argmax(axis=1)
    hidden = [c for c in range(52) if c not in (*player, up)]
    exact = Fraction(int(values[hidden].max(axis=1).sum()), 5 * comb(46, 5) * tabs.scale)
    without = fcp_values(tabs, state.strength, state.all_counts).max()
    assert exact > Fraction(int(without), comb(46, 5) * tabs.scale)  # the card is worth something
    rng = np.random.default_rng(641)
    nets = []
    for _ in range(300):
        cards = [int(c) for c in rng.choice(hidden, size=5, replace=False)]
        seen = cards[int(rng.integers(5))]
        nets.append(_fcp_round(player, [*cards, up], int(best[seen])) / 100)
    mean, se = _mean_se(nets)
    assert abs(mean - float(exact)) < 4 * se


def test_641a_protection_values_sampled() -> None:
    game = get_game("four-card-poker")
    flashed = protect(game, "dealer-card", samples=6, seed=3)
    assert flashed.samples == 6 and flashed.states == 6 * 46
    assert flashed.value >= 0 and flashed.std_error is not None
    shared = protect(game, colluders=4, samples=4, seed=3)
    assert shared.states == 4 * 8 and shared.value >= 0


def test_cli_protect_colluders_json_and_bad_input() -> None:
    runner = CliRunner()
    args = ["protect", "mississippi-stud", "--colluders", "2", "--samples", "20", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["method"] == "sampled" and data["samples"] == 20 and data["std_error"] > 0
    bad = runner.invoke(app, ["protect", "mississippi-stud", "--known", "dealer-card"])
    assert bad.exit_code == 2 and "no dealer hand" in bad.output


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em


def _uth_round(player: list[int], dealer: list[int], board: list[int], plays: list[str]) -> int:
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


def test_569_dealer_hole_cards_value_agrees_with_rounds_played_on_them() -> None:
    """Both hole cards seen: random boards played through the round engine on the re-found
    decisions (the river decided by the game's own settlement) average the exact value."""
    game = get_game("ultimate-texas-holdem")
    table = game.paytable("blind")
    assert table is not None
    player, dealer = _idx("Kh 7d"), _idx("Qs 9c")
    state = uth_state(player, dealer, table)
    assert state.preflop == 0  # a hand that checks: the flop and river decisions are tested
    rest = list(state.rest)
    rng = np.random.default_rng(569)
    nets = []
    for _ in range(160):
        board = [int(c) for c in rng.choice(rest, size=5, replace=False)]
        if state.flop_bets(board[:3]):
            plays = ["check", "play 2"]
        else:
            mine = evaluate([DECK[c] for c in (*player, *board)], Ranking.POKER5).value
            theirs = evaluate([DECK[c] for c in (*dealer, *board)], Ranking.POKER5).value
            play = settle_base(mine, theirs, 1, table).net > settle_base(mine, theirs, 0, table).net
            plays = ["check", "check", "play 1" if play else "fold"]
        nets.append(_uth_round(player, dealer, board, plays) / 100)
    mean, se = _mean_se(nets)
    assert abs(mean - float(state.value)) < 4 * se
    assert state.value > 0  # K-7 against Q-9 seen: the player is ahead


def test_641a_shared_hands_value_agrees_with_rounds_played_on_them(
    deal: tuple[list[int], int],
) -> None:
    """Seats 2 and 3 show seat 1 their hands: rounds of this deal with those seats in play, the
    dealer's hidden cards at random from the rest, played through the round engine on the
    decision re-found without those ten cards, average the exact value of the state."""
    player, up = deal
    seats = [_idx("Qs Qc 9d 8h 3c"), _idx("Ks Kd 7h 6s 4c")]
    dead = [c for hand in seats for c in hand]
    tabs = ante_play_tables()
    mask = sum(1 << c for c in dead)
    state = fcp_state(player, up, [mask])
    values = fcp_values(tabs, state.strength, state.live)[0]
    n_live = int(state.live[0].sum())
    assert n_live == comb(36, 5)
    exact = Fraction(int(values.max()), n_live * tabs.scale)
    action = int(values.argmax())
    rest = [c for c in range(52) if c not in (*player, up, *dead)]
    rng = np.random.default_rng(6411)
    decision = "fold" if action == 0 else f"play {action}"
    nets = []
    for _ in range(150):
        hidden = [int(c) for c in rng.choice(rest, size=5, replace=False)]
        data = {
            "game": "four-card-poker",
            "seats": {
                "1": {"wagers": {"ante": 100}, "decisions": [decision], "hand": _names(player)},
                "2": {"wagers": {"ante": 100}, "decisions": ["fold"], "hand": _names(seats[0])},
                "3": {"wagers": {"ante": 100}, "decisions": ["fold"], "hand": _names(seats[1])},
            },
            "dealer": _names([*hidden, up]),
        }
        nets.append(int(run_scenario(data)["seats"]["1"]["net"]) / 100)
    mean, se = _mean_se(nets)
    assert abs(mean - float(exact)) < 4 * se

"""The fast Monte Carlo of Three Card Poker, Let It Ride, Mississippi Stud and baccarat.

* The numba settle kernels of each game's ``montecarlo`` module equal the round engine: seeded
  random deals (and a few built to reach rare branches) are played both through the kernel and
  through the real :class:`~croupier.games.Round` with a stacked shoe holding the same cards,
  the engine's seat deciding by the solvers' Strategy functions; nets and decisions must be
  identical.
* 10^6 rounds of each game lie within 4 standard errors of the exact value of its par sheet
  (the Banker and Player wagers for baccarat).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.analysis import montecarlo, par_sheet
from croupier.analysis.baccarat import montecarlo as bac_mc
from croupier.analysis.let_it_ride import montecarlo as lir_mc
from croupier.analysis.let_it_ride.sheet import let_it_ride_strategy
from croupier.analysis.mississippi_stud import montecarlo as ms_mc
from croupier.analysis.mississippi_stud.sheet import mississippi_stud_strategy
from croupier.analysis.three_card_poker import montecarlo as tcp_mc
from croupier.analysis.three_card_poker.sheet import three_card_strategy
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import InvalidInput
from croupier.games import ActorKind, Game, get_game
from croupier.games.baccarat import VigCollected, VigMarked
from croupier.games.let_it_ride import Ride
from croupier.games.records import Action, PlaceWager, Play, WagerSettled
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import StackedShoe

ENGINE_DEALS = 300
UNIT = 100


def _cards(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def _complete(fixed: Sequence[int], n: int, rng: np.random.Generator) -> list[int]:
    """``fixed`` followed by random other cards up to ``n`` cards."""
    rest = [c for c in range(52) if c not in fixed]
    return [*fixed, *(int(c) for c in rng.permutation(rest)[: n - len(fixed)])]


def _deals(built: Sequence[str], n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [_complete(_cards(text), n, rng) for text in built]
    rows += [rng.permutation(52)[:n].tolist() for _ in range(ENGINE_DEALS)]
    return np.array(rows, dtype=np.int64)


def _play_engine(
    game: Game,
    order: Sequence[int],
    wagers: Sequence[str],
    decide: Callable[..., Action] | None,
    decks: int = 1,
) -> tuple[dict[str, int], list[Action]]:
    """Seat 1 alone, ``wagers`` at one unit each, dealt ``order`` (top first, card indices
    taken modulo 52) then the rest of one deck; the seat's net in cents per wager and its
    decisions."""
    cards = [DECK[c % 52] for c in order]
    stack = cards + [c for c in DECK if c not in cards]
    shoe = StackedShoe(stack, decks=decks)
    rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "p1"})
    for wager in wagers:
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=UNIT))
    rnd.apply(rnd.dealer_no_more_bets())
    actions: list[Action] = []
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            assert decide is not None
            action = decide(rnd, actor.seat)
            actions.append(action)
            rnd.apply(action)
    nets: dict[str, int] = {}
    for r in rnd.records:
        if isinstance(r, WagerSettled) and r.seat == 1:
            nets[r.wager] = nets.get(r.wager, 0) + r.net
        elif isinstance(r, VigCollected | VigMarked) and r.seat == 1:
            # the Banker's commission or tie vigorish, collected now or marked for later
            nets["banker"] = nets.get("banker", 0) - r.amount
    return nets, actions


# --------------------------------------------------------------------------------------------
# The kernels against the round engine


def test_three_card_kernel_settles_as_the_round_engine() -> None:
    deals = _deals(
        [
            "As Ks Qs Ah Kh Qh",  # straight flush against straight flush: a tie, Ante Bonus
            "9c 9d 9h 2c 3d 5h",  # trips against a dealer who does not qualify
            "Qc 6d 4h Jc 8d 3h",  # Q-6-4 against jack high: does not qualify
            "Qc 6d 2h Kc 8d 3h",  # Q-6-2 folded
            "2c 2d 5h 2h 2s 7c",  # a pair against trips
            "Ac Kd 5h As Kh 5c",  # A-K-5 against A-K-5: a tie
        ],
        6,
        649,
    )
    tcp = tcp_mc.three_card_args()
    scale = tcp[4]
    nets = np.zeros(len(deals), dtype=np.int64)
    actions = np.zeros(len(deals), dtype=np.int64)
    tcp_mc.tcp_settle_many(deals, tcp, nets, actions)
    game = get_game("three-card-poker")
    decide = three_card_strategy(game)  # type: ignore[arg-type]
    seen = set()
    for deal, net, action in zip(deals.tolist(), nets.tolist(), actions.tolist(), strict=True):
        # manual shoe, one seat: seat, dealer, three times
        order = [c for pair in zip(deal[:3], deal[3:], strict=True) for c in pair]
        cents, taken = _play_engine(game, order, ["ante"], decide)
        assert len(taken) == 1
        played = 1 if isinstance(taken[0], Play) else 0
        assert (played, sum(cents.values()) * scale) == (action, net * UNIT), deal
        seen.add((action, Fraction(net, scale)))
    nets_seen = {n for _, n in seen}
    assert {(0, -1), (1, 0), (1, 1), (1, 2), (1, -2)} <= seen
    assert any(n > 2 for n in nets_seen)  # an Ante Bonus


def test_let_it_ride_kernel_settles_as_the_round_engine() -> None:
    deals = _deals(
        [
            "Ts Th 2c 5d 9h",  # a paying pair: every bet rides
            "Jh Qh Kh Ah Th",  # royal flush, built in order
            "5c 6c 7c 8c 2d",  # three to a straight flush, four to a flush on the board
            "2c 7d 9h 4s Jc",  # nothing: both bets back
        ],
        5,
        643,
    )
    lir = lir_mc.let_it_ride_args()
    nets = np.zeros(len(deals), dtype=np.int64)
    actions = np.zeros(len(deals), dtype=np.int64)
    lir_mc.lir_settle_many(deals, lir, nets, actions)
    game = get_game("let-it-ride")
    decide = let_it_ride_strategy(game)  # type: ignore[arg-type]
    seen = set()
    for deal, net, action in zip(deals.tolist(), nets.tolist(), actions.tolist(), strict=True):
        # manual shoe, one seat: seat, community card, three times (the third one burned)
        spare = next(c for c in range(52) if c not in deal)
        order = [deal[0], deal[3], deal[1], deal[4], deal[2], spare]
        cents, taken = _play_engine(game, order, ["bet1", "bet2", "bet3"], decide)
        assert len(taken) == 2
        riding = 1 + sum(isinstance(a, Ride) for a in taken)
        assert (riding - 1, sum(cents.values())) == (action, net * UNIT), deal
        seen.add((action, net))
    assert {a for a, _ in seen} == {0, 1, 2}
    assert (2, 3000) in seen  # the royal flush, 1000 to 1 on three bets
    assert (0, -1) in seen and any(n > 0 for a, n in seen if a == 0)


def test_mississippi_kernel_settles_as_the_round_engine() -> None:
    deals = _deals(
        [
            "Ac Ad As Ah Kc",  # four of a kind: 3x on every street
            "6c 6d 2h 9s Jc",  # a middle pair: the push
            "2c 7d 9h 4s Jc",  # folded on 3rd street
            "Jc Qd 3h 8s 5c",  # 3rd street bet, then a fold
        ],
        5,
        655,
    )
    ms = ms_mc.mississippi_args()
    nets = np.zeros(len(deals), dtype=np.int64)
    actions = np.zeros(len(deals), dtype=np.int64)
    ms_mc.ms_settle_many(deals, ms, nets, actions)
    game = get_game("mississippi-stud")
    decide = mississippi_stud_strategy(game)  # type: ignore[arg-type]
    seen = set()
    for deal, net, action in zip(deals.tolist(), nets.tolist(), actions.tolist(), strict=True):
        # manual shoe, one seat: the seat's two cards, then the three community cards
        cents, taken = _play_engine(game, deal, ["ante"], decide)
        plays = [a.multiple for a in taken if isinstance(a, Play)]
        street = len(plays) if len(plays) == 3 else len(taken) - 1
        assert (street, sum(cents.values())) == (action, net * UNIT), deal
        seen.add((action, net))
    assert {a for a, _ in seen} == {0, 1, 2, 3}
    assert (3, 0) in seen  # the push
    assert (3, 400) in seen  # four of a kind, 40 to 1 on ten units


@pytest.mark.parametrize("slug", ["mini-baccarat", "ez-baccarat", "midi-baccarat"])
def test_baccarat_kernel_settles_as_the_round_engine(slug: str) -> None:
    game: Any = get_game(slug)
    decks = int(game.shoe_decks)
    rng = np.random.default_rng(541)
    built = [
        _cards("3c Kc 3d 3h 4s 2c"),  # Player 6 stands, Banker 3 draws to 7: a Dragon 7
        _cards("9c 8d Kh Ks 2s 2c"),  # naturals: 9 against 8, nobody draws
        _cards("4c 5d 2h 2s 3s 9c"),  # Player 6 and Banker 7 stand: a two-card 7 wins
    ]
    random = [rng.choice(52 * decks, 6, replace=False).tolist() for _ in range(ENGINE_DEALS)]
    deals = np.array(built + random, dtype=np.int64)
    bac = bac_mc.baccarat_args()
    classes = np.zeros(len(deals), dtype=np.int64)
    used = np.zeros(len(deals), dtype=np.int64)
    bac_mc.baccarat_classify_many(deals, bac, classes, used)
    banker, scale_b = bac_mc.baccarat_nets(game, "banker")
    player, scale_p = bac_mc.baccarat_nets(game, "player")
    for deal, cls, n in zip(deals.tolist(), classes.tolist(), used.tolist(), strict=True):
        for wager, nets, scale in (("banker", banker, scale_b), ("player", player, scale_p)):
            cents, taken = _play_engine(game, deal, [wager], None, decks=decks)
            assert not taken
            assert cents[wager] * scale == nets[cls] * UNIT, (deal, wager)
        rnd_cards = len(_play_engine_hands(game, deal, decks))
        assert rnd_cards == n, deal
    assert set(classes.tolist()) == {0, 1, 2, 3}
    assert classes.tolist()[:3] == [1, 2, 0]


def _play_engine_hands(game: Game, order: Sequence[int], decks: int) -> list[object]:
    """The cards the engine dealt to the Player's and the Banker's hands."""
    cards = [DECK[c % 52] for c in order]
    stack = cards + [c for c in DECK if c not in cards]
    rnd: Any = game.new_round(
        shoe=StackedShoe(stack, decks=decks), meters=MemoryMeters(), players={1: "p1"}
    )
    rnd.apply(PlaceWager(seat=1, wager="player", amount=UNIT))
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        rnd.run_dealer()
    return [*rnd.player_hand, *rnd.banker_hand]


# --------------------------------------------------------------------------------------------
# Runs


@pytest.mark.parametrize(
    ("game", "wager"),
    [
        ("three-card-poker", "banker"),
        ("let-it-ride", "banker"),
        ("mississippi-stud", "banker"),
        ("mini-baccarat", "banker"),
        ("mini-baccarat", "player"),
        ("ez-baccarat", "banker"),
    ],
)
def test_a_million_rounds_agree_with_the_exact_value(game: str, wager: str) -> None:
    result = montecarlo.run(game, 10**6, 20250, wager=wager, progress=False)
    sheet = par_sheet(get_game(game))
    exact = sheet.base.expected if sheet.base is not None else sheet.wagers[wager].expected
    assert result.exact == exact
    assert result.rounds == 10**6 == sum(result.actions.values())
    assert result.won + result.pushed + result.lost == result.rounds
    assert abs(float(result.mean - exact)) < 4 * result.std_error, result.render()
    assert game in result.render() and result.to_json()["net_unit"].startswith(f"1/{result.scale} ")


def test_baccarat_runs_are_reproducible_and_share_their_coups() -> None:
    one = montecarlo.run("mini-baccarat", 200_000, 9, workers=1, block_rounds=50_000)
    two = montecarlo.run("mini-baccarat", 200_000, 9, workers=2, block_rounds=50_000)
    player = montecarlo.run("mini-baccarat", 200_000, 9, wager="player", block_rounds=50_000)
    assert (one.total, one.total_sq, one.actions) == (two.total, two.total_sq, two.actions)
    assert player.actions == one.actions  # the same coups, settled for the other wager
    assert one.scale == 20 and player.scale == 1
    wins = one.actions["banker"] + one.actions["dragon 7"]
    assert one.total == 19 * wins - 20 * one.actions["player"]
    assert player.total == one.actions["player"] - wins


def test_bad_input() -> None:
    bad_runs: list[Callable[[], object]] = [
        lambda: montecarlo.run("baccarat", 10, 1),
        lambda: montecarlo.run("three-card-poker", 10, 1, blind="B"),
        lambda: montecarlo.run("let-it-ride", 10, 1, wager="player"),
        lambda: montecarlo.run("mini-baccarat", 10, 1, wager="tie"),
    ]
    for bad in bad_runs:
        with pytest.raises(InvalidInput):
            bad()


@pytest.mark.parametrize("wager", ["banker", "player"])
def test_baccarat_block_counted_by_action_records_as_the_round_by_round_block(wager: str) -> None:
    """The baccarat block counts coups by result class and derives the statistics after the
    loop; the factory's round-by-round block over the same settle function and seeds must
    record exactly the same statistics (sums of nets and squares, wins, pushes, losses)."""
    from croupier.analysis.mc_kernels import NSTATS, make_block

    round_by_round = make_block(bac_mc.baccarat_settle, 6, "baccarat_block_round_by_round")
    game = get_game("mini-baccarat")
    tables = bac_mc.baccarat_tables(game, wager)
    for seed in (1, 2**31 + 5):
        counted = np.zeros(NSTATS, dtype=np.int64)
        recorded = np.zeros(NSTATS, dtype=np.int64)
        bac_mc.baccarat_block(seed, 30_000, game.shoe_decks, tables, counted)
        round_by_round(seed, 30_000, game.shoe_decks, tables, recorded)
        assert counted.tolist() == recorded.tolist()
        assert counted[5:9].sum() == 30_000

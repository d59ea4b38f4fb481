"""One void mechanism in every game (issue 13): only wagers still open go back, the returned
progressive wagers' contributions come off the meters, and the chip books balance."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import CroupierError, IllegalAction
from croupier.games import GAMES, Game, Round, get_game
from croupier.games.records import (
    Action,
    Check,
    Fold,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Play,
    PlayWagered,
    Record,
    Result,
    RoundVoided,
    VoidRound,
    WagerPlaced,
    WagerSettled,
)
from croupier.games.round import ActorKind, Phase
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe, StackedShoe

UTH_PROGRESSIVE = {
    "paytable": "A",
    "envy": "A",
    "wager": 100,
    "reset": 1_000_000,
    "rate": "0.25",
    "meter": "uth",
}


def stacked(game: Game, order: str, **kw: Any) -> Round:
    cards = list(parse_cards(order))
    rest = [c for c in DECK if c not in set(cards)]
    return game.new_round(shoe=StackedShoe(cards + rest), **kw)


def settled_once(records: tuple[Record, ...]) -> Counter[tuple[int, str]]:
    return Counter((r.seat, r.wager) for r in records if isinstance(r, WagerSettled))


def books(rnd: Round) -> None:
    """Every accepted wager is settled exactly once; stakes in == returned + collected."""
    accepted = {
        (r.seat, r.wager): r.amount for r in rnd.records if isinstance(r, WagerPlaced | PlayWagered)
    }
    settled = [r for r in rnd.records if isinstance(r, WagerSettled) and r.stake > 0]
    assert settled_once(tuple(settled)) == Counter(set(accepted))
    returned = sum(r.returned for r in settled)
    collected = sum(r.stake - r.returned for r in settled)
    assert returned + collected == sum(accepted.values())
    net = sum(v["net"] for v in rnd.settlement().values())
    paid = sum(r.paid for r in settled)
    assert net == paid + returned - sum(accepted.values())


def test_569_11_e_2_fold_then_void_returns_nothing_already_forfeited() -> None:
    """A UTH player folds after the river (Ante and Blind collected at once); a void then
    returns only the Trips and the progressive still in action, never the forfeited two."""
    game = get_game(
        {"game": "ultimate-texas-holdem", "progressive": UTH_PROGRESSIVE, "paytables": {}}
    )
    meters = MemoryMeters({"uth": 1_000_000})
    # seat 1: 7c 2d, seat 2: As Ad; dealer Kh Kd; burn, flop, burn, turn, river
    rnd = stacked(game, "7c As Kh 2d Ad Kd 3s 9h 8d 4c 5s Jc Qd", meters=meters)
    for seat in (1, 2):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
        rnd.apply(PlaceWager(seat=seat, wager="blind", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="trips", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(PlaceWager(seat=2, wager="progressive", amount=100))
    rnd.apply(NoMoreBets(progressive_chips=2))
    assert meters.exact("uth") == 1_000_000 + Fraction(50)
    rnd.run_dealer()
    for _street in range(2):
        rnd.apply(Check(seat=1))
        rnd.apply(Check(seat=2))
        rnd.run_dealer()
    rnd.apply(Fold(seat=1))
    assert rnd.phase is Phase.DECISIONS
    new = rnd.apply(VoidRound(by="floor supervisor Kim", reason="table system failure"))
    assert isinstance(new[0], RoundVoided) and new[0].by == "floor supervisor Kim"
    voided = {(r.seat, r.wager): r for r in new if isinstance(r, WagerSettled)}
    assert set(voided) == {(1, "trips"), (1, "progressive"), (2, "ante"), (2, "blind"),
                           (2, "progressive")}  # fmt: skip
    assert all(r.result is Result.VOID and r.returned == r.stake for r in voided.values())
    forfeited = [r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == 1]
    assert {r.wager: r.result for r in forfeited} == {
        "ante": Result.FORFEIT,
        "blind": Result.FORFEIT,
        "trips": Result.VOID,
        "progressive": Result.VOID,
    }
    assert rnd.settlement()["1"]["net"] == -1000 and rnd.settlement()["2"]["net"] == 0
    assert meters.exact("uth") == 1_000_000  # both progressive wagers went back
    assert rnd.is_over and rnd.settlement()["2"]["wagers"]["ante"]["result"] == "void"
    books(rnd)


def test_571_11_a_fold_then_void_keeps_the_forfeited_progressive_contribution() -> None:
    """Mississippi Stud: a fold collects the Ante and the progressive (§ 571.11(a), (g)); a
    later void returns the other seat's wagers and takes only their contribution back."""
    rules = {
        "game": "mississippi-stud",
        "progressive": {"paytable": "A", "envy": "A", "wager": 100, "reset": 1_000_000,
                        "rate": "0.25", "meter": "ms"},
    }  # fmt: skip
    game = get_game(rules)
    meters = MemoryMeters({"ms": 1_000_000})
    rnd = stacked(game, "As 2c Ad 7d 9h 8h 4s", meters=meters)
    for seat in (1, 2):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
        rnd.apply(PlaceWager(seat=seat, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Play(seat=1, multiple=1))
    rnd.apply(Fold(seat=2))
    rnd.apply(VoidRound(by="supervisor", reason="power failure"))
    results = {(r.seat, r.wager): r.result for r in rnd.records if isinstance(r, WagerSettled)}
    assert results == {
        (2, "ante"): Result.FORFEIT,
        (2, "progressive"): Result.FORFEIT,
        (1, "ante"): Result.VOID,
        (1, "third_street"): Result.VOID,
        (1, "progressive"): Result.VOID,
    }
    assert meters.exact("ms") == 1_000_000 + Fraction(25)  # seat 2's forfeited wager funded it
    books(rnd)


def test_void_round_is_refused_once_settlement_has_begun() -> None:
    game = get_game("four-card-poker")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(3)))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=2, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Play(seat=1, multiple=1))
    rnd.apply(Play(seat=2, multiple=1))
    while rnd.phase is not Phase.SETTLEMENT and not rnd.is_over:
        rnd.apply(rnd.dealer_step())
    before = rnd.records
    with pytest.raises(IllegalAction, match="settlement of the round has begun"):
        rnd.apply(VoidRound(by="supervisor", reason="late"))
    assert rnd.records == before


def test_void_round_during_betting_returns_every_wager_and_rebuilds() -> None:
    game = get_game("three-card-poker")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(4)))
    rnd.apply(PlaceWager(seat=3, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=3, wager="pair_plus", amount=500))
    rnd.apply(VoidRound(by="supervisor", reason="crash before the deal"))
    assert rnd.phase is Phase.VOID and rnd.settlement()["3"]["net"] == 0
    books(rnd)
    rebuilt = Round.rebuild(game, rnd.records)
    assert rebuilt.records == rnd.records and rebuilt.phase is Phase.VOID


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_void_in_every_phase_before_settlement_balances_the_books(slug: str) -> None:
    """Random rounds of every game, voided by a supervisor at a random step before settlement:
    each wager settled once (a forfeit before the void stays a forfeit), meters restored by
    exactly the returned progressive wagers' contributions."""
    cls = GAMES[slug]
    for rules in (
        [{"game": slug}, dict(cls.example_rules)] if cls.example_rules else [{"game": slug}]
    ):
        game = get_game(rules)
        rng = SeededShuffler(f"void-{slug}")
        for _ in range(25):
            meters = MemoryMeters()
            rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=meters)
            start = {m: meters.exact(m) for m in meters.snapshot()}
            for seat in (1, 3, 5):
                for action in rnd.house_wagers(seat, unit=500):
                    rnd.apply(action)
            stop = rng.randbelow(40)
            steps = 0
            rnd.apply(rnd.dealer_no_more_bets())
            while not rnd.is_over and steps < stop and rnd.phase is not Phase.SETTLEMENT:
                actor = rnd.to_act()
                if actor.kind is ActorKind.SEAT:
                    choices: list[Action] = [
                        a for a in rnd.legal_actions() if isinstance(a, Play | Fold | Check)
                    ]
                    choices = choices or list(rnd.legal_actions())
                    rnd.apply(choices[rng.randbelow(len(choices))])
                else:
                    rnd.apply(rnd.dealer_step())
                steps += 1
            void = VoidRound(by="supervisor", reason="test")
            if not rnd.can(void):
                continue
            rnd.apply(void)
            books(rnd)
            returned = {
                (r.seat, r.wager) for r in rnd.records if isinstance(r, WagerSettled)
                and r.result is Result.VOID
            }  # fmt: skip
            kept = [
                r
                for r in rnd.records
                if isinstance(r, WagerSettled) and r.result is not Result.VOID
            ]
            assert not returned & {(r.seat, r.wager) for r in kept}
            assert all(r.result in (Result.FORFEIT, Result.PUSH) for r in kept), kept
            # contributions of returned progressive wagers only come off
            voids = [r for r in rnd.records if isinstance(r, MeterChanged) and r.reason == "void"]
            if not any(r.result is Result.FORFEIT and "progressive" in r.wager for r in kept):
                for m, amount in start.items():
                    assert meters.exact(m) == amount or not voids, m
            with pytest.raises(CroupierError):
                rnd.apply(void)

"""The street machine (games/streets.py), play_out, the typed settlement and typed dispatch."""

from __future__ import annotations

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.let_it_ride import Ride, Withdraw
from croupier.games.play import play_out
from croupier.games.records import Action, Fold, NoMoreBets, PlaceWager, Play
from croupier.games.round import Phase, Round
from croupier.games.settlement import Settlement
from croupier.games.streets import StreetRound
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import Shoe

WAGERS = {
    "ultimate-texas-holdem": {"ante": 500, "blind": 500},
    "let-it-ride": {"bet1": 500, "bet2": 500, "bet3": 500},
    "mississippi-stud": {"ante": 500},
}


def opened(slug: str) -> StreetRound:
    """A round of ``slug`` at seats 1 and 2, dealt from the unshuffled deck in order."""
    game = get_game(slug)
    rnd = game.new_round(shoe=Shoe(DECK), meters=MemoryMeters(), players={1: "A", 2: "B"})
    assert isinstance(rnd, StreetRound)
    for seat in (1, 2):
        for wager, amount in WAGERS[slug].items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    rnd.apply(NoMoreBets())
    return rnd


def walk(rnd: StreetRound) -> list[tuple[str, int, Phase]]:
    """The street, community cards turned and phase at each decision; every seat stays in:
    it checks or rides where it may, else makes the smallest Play (never a fold or a pull)."""
    seen: list[tuple[str, int, Phase]] = []

    def decide(r: StreetRound, seat: int) -> Action:
        seen.append((r.street.name, r.turned, r.phase))
        choices = [a for a in r.decision_candidates(seat) if r.can(a)]
        stays = [a for a in choices if not isinstance(a, Fold | Withdraw)]
        return next((a for a in stays if not isinstance(a, Play)), stays[0])

    play_out(rnd, decide)
    return seen


def test_569_11_uth_streets_preflop_flop_river_dealt_not_turned() -> None:
    # § 569.11(e): each player decides on each street from the far left; the flop and the final
    # two cards are dealt (not turned) between the streets.
    rnd = opened("ultimate-texas-holdem")
    seen = walk(rnd)
    assert [(name, turned) for name, turned, _ in seen] == [
        ("preflop", 0), ("preflop", 0), ("flop", 0), ("flop", 0), ("river", 0), ("river", 0)
    ]  # fmt: skip
    assert rnd.is_over and rnd.street.name == "river"


def test_643a_11_lir_streets_bet1_bet2_then_the_second_card_ends_them() -> None:
    # § 643a.11(b)-(e): Bet 1 after the deal, Bet 2 after the first community card; the second
    # community card is turned by the dealer's reveal and ends the decisions.
    rnd = opened("let-it-ride")
    seen = walk(rnd)
    assert [(name, turned) for name, turned, _ in seen] == [
        ("bet1", 0), ("bet1", 0), ("bet2", 1), ("bet2", 1)
    ]  # fmt: skip
    assert rnd.is_over and rnd.street.name == "showdown" and rnd.turned == 2
    assert not rnd.street.decides


def test_571_11_ms_streets_third_fourth_fifth_one_card_turned_each() -> None:
    # § 571.11(a)-(f): a street bet or fold on each street, one community card turned after each.
    rnd = opened("mississippi-stud")
    seen = walk(rnd)
    assert [(name, turned) for name, turned, _ in seen] == [
        ("third_street", 0), ("third_street", 0), ("fourth_street", 1), ("fourth_street", 1),
        ("fifth_street", 2), ("fifth_street", 2),
    ]  # fmt: skip
    assert rnd.turned == 3 and rnd.street.name == "showdown"


def test_street_play_sizes_come_from_the_street_record() -> None:
    rnd = opened("ultimate-texas-holdem")
    rnd.run_dealer()
    rule = rnd.play_rule(1)
    assert rule is not None and rule.candidates() == (3, 4) == rnd.street.multiples
    assert [a.multiple for a in rnd.legal_actions() if isinstance(a, Play)] == [3, 4]


def test_an_action_of_another_game_is_refused_by_its_type() -> None:
    rnd = opened("ultimate-texas-holdem")
    rnd.run_dealer()
    before = rnd.records
    with pytest.raises(IllegalAction, match="not an action of ultimate-texas-holdem"):
        rnd.apply(Withdraw(seat=1, wager="bet1"))
    with pytest.raises(IllegalAction):
        rnd.apply(Ride(seat=1, wager="bet1"))
    assert rnd.records == before


def test_play_out_refuses_a_strategy_that_returns_no_action_and_changes_nothing() -> None:
    rnd = opened("mississippi-stud")

    def broken(r: Round, seat: int) -> Action:
        return "fold"  # type: ignore[return-value]

    with pytest.raises(InvalidInput, match="not an action"):
        play_out(rnd, broken)
    count = len(rnd.records)
    assert rnd.phase is Phase.DECISIONS and rnd.to_act().seat == 1
    assert len(rnd.records) == count


def test_play_out_refuses_a_round_whose_wagers_are_still_open() -> None:
    game = get_game("let-it-ride")
    rnd = game.new_round(shoe=Shoe(DECK), meters=MemoryMeters(), players={1: "A"})
    with pytest.raises(IllegalAction, match="cannot go on by itself"):
        play_out(rnd, lambda r, seat: r.simple_strategy(seat))
    assert rnd.phase is Phase.BETTING and not rnd.records


@pytest.mark.parametrize("slug", sorted(WAGERS))
def test_the_typed_settlement_is_the_stable_json(slug: str) -> None:
    rnd = opened(slug)
    play_out(rnd, lambda r, seat: r.simple_strategy(seat))
    books = rnd.books()
    assert books == Settlement.of(rnd.records)
    assert books.to_json() == rnd.settlement()
    assert set(books.seats) == {1, 2}
    for seat, entry in books.seats.items():
        assert entry.net == sum(w.returned + w.paid - w.stake for w in entry.wagers.values())
        assert books.net(seat) == rnd.settlement()[str(seat)]["net"]
    assert books.net(7) == 0

"""Round's collaborators own their state (issue 37): the stakes, the deal, the decisions, the
settlement and the progressive contributions.  Each changes only by its verified moves; a move
its ``verify_<x>`` refuses raises a typed error and changes nothing; a reader cannot change them
through their read-only views; and a round holds its state in them, not in loose containers of
its own."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import pytest

from croupier.core.cards import parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.contributions import Contributions
from croupier.games.dealing import Deal
from croupier.games.records import Fold, PlaceWager, Play
from croupier.games.round import Round
from croupier.games.seat_decisions import Decisions
from croupier.games.settling import Settling
from croupier.games.stakes import Stakes
from croupier.games.states import DealStep
from croupier.rules.progressive import MemoryMeters, MeterSpec
from croupier.table.shoe import SeededShuffler, Shoe, StackedShoe

CACHES = ("_active",)
"""Answers kept to be asked again (the seats in action), not state."""


def _snapshot(obj: object) -> Any:
    """Everything a collaborator holds, to compare before and after a refused move."""
    names: tuple[str, ...] = getattr(type(obj), "__slots__")  # noqa: B009
    slots = [name for name in names if name not in CACHES and hasattr(obj, name)]
    state = {name: getattr(obj, name) for name in slots}
    for name, view in list(state.items()):
        if isinstance(view, MappingProxyType):
            state[name] = {k: dict(v) if isinstance(v, Mapping) else v for k, v in view.items()}
    return repr(state)


def _refused(obj: object, move: Any, error: type[Exception], match: str) -> None:
    before = _snapshot(obj)
    with pytest.raises(error, match=match):
        move()
    assert _snapshot(obj) == before


# -- the stakes --------------------------------------------------------------------------------


def test_a_wager_is_placed_once_and_the_second_changes_nothing() -> None:
    stakes = Stakes()
    stakes.place(3, "ante", 500)
    _refused(stakes, lambda: stakes.place(3, "ante", 700), IllegalAction, "placed once")
    _refused(stakes, lambda: stakes.place(3, "pair_plus", 0), InvalidInput, "positive")
    _refused(stakes, lambda: stakes.place(3, "pair_plus", True), InvalidInput, "whole")
    _refused(stakes, lambda: stakes.place(3, "pair_plus", 5.0), InvalidInput, "whole")  # type: ignore[arg-type]
    assert stakes.by_seat[3] == {"ante": 500} and stakes.in_action == (3,)


def test_a_decision_wager_is_made_by_a_seat_in_action_only() -> None:
    stakes = Stakes()
    stakes.place(1, "ante", 500)
    _refused(stakes, lambda: stakes.add(2, "play", 500), IllegalAction, "no wager in action")
    stakes.add(1, "play", 1000)
    _refused(stakes, lambda: stakes.add(1, "play", 500), IllegalAction, "placed once")
    assert stakes.by_seat[1] == {"ante": 500, "play": 1000}


def test_643a_11_b_a_wager_taken_down_must_be_in_action() -> None:
    stakes = Stakes()
    stakes.place(1, "bet1", 500)
    stakes.place(1, "bet3", 500)
    _refused(stakes, lambda: stakes.withdraw(1, "bet2"), IllegalAction, "no bet2 wager")
    _refused(stakes, lambda: stakes.withdraw(4, "bet1"), IllegalAction, "no bet1 wager")
    stakes.withdraw(1, "bet1")
    assert stakes.by_seat[1] == {"bet3": 500} and stakes.in_action == (1,)


def test_641a_7_b_a_departure_takes_the_seat_out_of_the_round_once() -> None:
    stakes = Stakes()
    for seat in (5, 2):
        stakes.place(seat, "ante", 500)
    assert stakes.in_action == (2, 5)  # seat order, whatever the order of the wagers
    _refused(stakes, lambda: stakes.abandon(4), IllegalAction, "no wager in action")
    stakes.abandon(5)
    assert list(stakes.in_action) == [2] and stakes.abandoned == {5}
    _refused(stakes, lambda: stakes.abandon(5), IllegalAction, "no wager in action")
    assert stakes.by_seat[5] == {"ante": 500}  # its wagers stay on the books (settled as lost)


def test_the_stakes_cannot_be_changed_through_their_view() -> None:
    stakes = Stakes()
    stakes.place(1, "ante", 500)
    view: Any = stakes.by_seat  # typed read-only; the refusal is the runtime's
    refusals: list[Any] = [
        lambda: operator.setitem(view, 2, {"ante": 5}),
        lambda: operator.delitem(view, 1),
        lambda: operator.setitem(view[1], "ante", 1),  # a seat's wagers too
        lambda: operator.delitem(view[1], "ante"),
    ]
    for refusal in refusals:
        _refused(stakes, refusal, TypeError, "(does not|doesn't) support item")
    for name in ("pop", "clear", "update", "setdefault"):
        assert not hasattr(stakes.by_seat, name) and not hasattr(stakes.by_seat[1], name)
    with pytest.raises(AttributeError):
        stakes.by_seat = {}  # type: ignore[misc]
    assert stakes.total("ante") == 500 and stakes.of(7) == {}


# -- the deal ----------------------------------------------------------------------------------


def _deal(cards: str) -> Deal:
    return Deal(StackedShoe(cards))


def test_a_card_is_dealt_only_when_due_and_the_shoe_holds_one() -> None:
    deal = _deal("As Kd")
    _refused(deal, deal.deal, IllegalAction, "no card is due")
    deal.plan([DealStep("1"), DealStep("dealer"), DealStep("1")])
    _refused(deal, lambda: deal.plan([DealStep("2")]), IllegalAction, "still due")
    _refused(deal, deal.deal_stage, IllegalAction, "fewer than the 3 due")
    assert deal.deal()[0] == parse_cards("As")[0]
    deal.deal()
    assert deal.cards_left == 0 and deal.due == 1
    _refused(deal, deal.deal, IllegalAction, "the shoe is empty")
    assert deal.hands == {"1": tuple(parse_cards("As")), "dealer": tuple(parse_cards("Kd"))}


def test_a_stage_dealt_at_once_gives_each_hand_its_cards_in_the_plan_order() -> None:
    deal = _deal("As Kd Qh Jc 2s")
    deal.plan([DealStep("1"), DealStep("2"), DealStep("1"), DealStep("2")])
    cards, steps = deal.deal_stage()
    assert [str(c) for c in cards] == ["As", "Kd", "Qh", "Jc"] and len(steps) == 4
    assert deal.hands["1"] == tuple(parse_cards("As Qh")) and deal.hands["2"] == tuple(
        parse_cards("Kd Jc")
    )
    assert deal.due == 0 and deal.cards_left == 1
    _refused(deal, deal.deal_stage, IllegalAction, "no card is due")


def test_641a_13_a_the_first_card_face_up_is_discarded_a_second_is_not() -> None:
    deal = _deal("As Kd")
    assert deal.discard() == parse_cards("As")[0]
    assert deal.discard() is None  # the round voids (its rule, not the deal's)
    assert deal.face_up_found == 2 and deal.cards_left == 1
    empty = _deal("")
    _refused(empty, empty.discard, IllegalAction, "the shoe is empty")


def test_the_cards_dealt_cannot_be_changed_through_their_view() -> None:
    deal = _deal("As")
    deal.plan([DealStep("1")])
    deal.deal()
    hands: Any = deal.hands  # typed read-only; the refusal is the runtime's
    for refusal in (
        lambda: operator.setitem(hands, "1", ()),
        lambda: operator.delitem(hands, "1"),
    ):
        _refused(deal, refusal, TypeError, "(does not|doesn't) support item")
    assert isinstance(deal.hands["1"], tuple)  # a hand is an immutable tuple
    with pytest.raises(TypeError, match="not copied"):
        deal.__reduce_ex__(2)


# -- the decisions and the settlement ----------------------------------------------------------


def test_a_seat_decides_once_a_stage_and_a_folded_seat_never_again() -> None:
    decisions = Decisions()
    decisions.decide(1)
    _refused(decisions, lambda: decisions.decide(1), IllegalAction, "already decided")
    _refused(decisions, lambda: decisions.fold(1), IllegalAction, "already decided")
    decisions.fold(2)
    decisions.next_stage()
    assert decisions.decided == frozenset() and decisions.folded == {2}
    _refused(decisions, lambda: decisions.decide(2), IllegalAction, "has folded")
    with pytest.raises(AttributeError, match="no setter"):
        decisions.folded = {}.keys()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        decisions.passed = frozenset()  # type: ignore[attr-defined]  # no such state


def test_a_seat_is_settled_once_in_the_order_settled() -> None:
    settling = Settling()
    settling.settle(7)
    settling.settle(3)
    _refused(settling, lambda: settling.settle(7), IllegalAction, "already settled")
    assert tuple(settling.settled) == (7, 3)


# -- the progressive contributions -------------------------------------------------------------

SPEC = MeterSpec(name="prog", reset=1_000_00, rate=Fraction(1, 10))


def test_contributions_are_exact_and_a_void_takes_back_no_more_than_was_added() -> None:
    meters = MemoryMeters()
    progressive = Contributions(meters)
    progressive.ensure(SPEC)
    _refused(
        progressive, lambda: progressive.take_back("prog", Fraction(1)), IllegalAction, "nothing"
    )
    _refused(progressive, lambda: progressive.contribute(SPEC, 0), InvalidInput, "do not move")
    changed = progressive.contribute(SPEC, 300)
    assert (changed.before, changed.after, changed.reason) == (100_000, 100_030, "contribution")
    assert progressive.added == {"prog": Fraction(30)}
    back = progressive.take_back("prog", Fraction(500))  # more than was added: only the 30
    assert (back.after, back.reason) == (100_000, "void") and progressive.added == {"prog": 0}


def test_contributions_attach_only_a_meter_bank() -> None:
    meters = MemoryMeters()
    progressive = Contributions(meters)
    _refused(progressive, lambda: progressive.attach(object()), InvalidInput, "not a MeterBank")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="not a MeterBank"):
        Contributions({"prog": 5})  # type: ignore[arg-type]
    assert progressive.meters is meters


# -- the round holds its state in them ---------------------------------------------------------

COLLABORATORS = (Stakes, Deal, Decisions, Settling, Contributions)


def _played(slug: str) -> Round:
    game = get_game(slug)
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(11), decks=game.deck_count))
    for action in rnd.house_wagers(1) + rnd.house_wagers(4):
        rnd.apply(action)
    rnd.apply(rnd.dealer_no_more_bets())
    rnd.run_dealer()
    return rnd


@pytest.mark.parametrize("slug", ["three-card-poker", "ultimate-texas-holdem", "let-it-ride"])
def test_a_rounds_mutable_state_is_its_collaborators_records_and_players(slug: str) -> None:
    rnd = _played(slug)
    loose = {
        name: type(value).__name__
        for name, value in vars(rnd).items()
        if isinstance(value, list | dict | set)
        and not isinstance(value, COLLABORATORS)
        # the memos of pure functions of the records (hand ranks, each viewer's sight)
        and name not in ("_records", "_players", "_ranked", "_sights")
    }
    assert loose == {} or set(loose) <= {"_closed", "_colluded"}, loose
    kinds = {type(value) for value in vars(rnd).values()}
    assert all(cls in kinds for cls in COLLABORATORS)


def test_a_round_refuses_a_second_fold_through_its_decisions() -> None:
    rnd = _played("three-card-poker")
    seat = rnd.next_decider()
    assert seat is not None
    rnd.apply(Fold(seat=seat))
    assert seat in rnd.folded and rnd.can(Play(seat=seat, multiple=1)) is False
    assert rnd.can(PlaceWager(seat=seat, wager="ante", amount=500)) is False


class _Cents(int):
    """An int subclass (a caller's own money type): a wager in it is taken, as before the split."""


def test_a_wager_in_an_int_subclass_is_placed_as_before_the_collaborators() -> None:
    rnd = get_game("three-card-poker").new_round(shoe=Shoe.shuffled(SeededShuffler(1)))
    ante = PlaceWager(seat=1, wager="ante", amount=_Cents(500))
    assert rnd.can(ante)
    rnd.apply(ante)
    assert rnd.stakes == {1: {"ante": 500}}

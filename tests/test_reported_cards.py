"""Rounds whose cards a reader or the dealer's keypad reports (issue 39): each card is taken as
the next one due and checked against the rules and the deck; what a physical deal does wrong
ends as the chapter says; the audit's rebuild replays every such round."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, Irregularity
from croupier.games import GAMES, get_game
from croupier.games.records import (
    Action,
    CardDealt,
    CardDiscarded,
    IrregularityReported,
    PlaceWager,
    Result,
    RoundVoided,
    WagerSettled,
)
from croupier.games.reported_cards import (
    CardCorrected,
    CardFound,
    CardRefused,
    CorrectCard,
    ReportCard,
    ReportStub,
    StubReported,
)
from croupier.games.round import ActorKind, Phase, Round
from croupier.rules.progressive import MemoryMeters
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import SeededShuffler, Shoe, shoe_cards

SLUGS = sorted(GAMES)


def _opened(slug: str, shoe: Shoe) -> Round:
    """A round of ``slug`` with its required wagers (baccarat: the Banker) at seats 1 and 2,
    after "no more bets"."""
    game = GAMES[slug]()
    rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "P1", 2: "P2"})
    for seat in (1, 2):
        for wager in game.required_wagers or ("banker",):
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=500))
    rnd.apply(rnd.dealer_no_more_bets())
    return rnd


def _decision(rnd: Round, seat: int) -> Action:
    return next(iter(rnd.decision_candidates(seat)))


def _reported_to_the_end(rnd: Round, cards: Iterator[Card]) -> None:
    """Report the next card whenever one is due; seats take their first decision."""
    while not rnd.is_over:
        actor = rnd.to_act()
        if rnd.phase is Phase.DEALING:
            rnd.apply(ReportCard(card=next(cards)))
        elif actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(_decision(rnd, actor.seat))
        else:
            rnd.run_dealer()


def _dealt_to_the_end(rnd: Round) -> None:
    while not rnd.is_over:
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(_decision(rnd, actor.seat))
        else:
            rnd.run_dealer()


def _order(slug: str, seed: int) -> list[Card]:
    return SeededShuffler(seed).shuffle(shoe_cards(GAMES[slug]().shoe_decks))


def _reported(slug: str) -> Round:
    return _opened(slug, ReportedShoe(decks=GAMES[slug]().shoe_decks))


def _rebuilt_equal(rnd: Round) -> None:
    rebuilt = Round.rebuild(rnd.game, rnd.records, players=rnd.players)
    assert rebuilt.records == rnd.records
    assert rebuilt.phase is rnd.phase


@pytest.mark.parametrize("slug", SLUGS)
def test_a_reported_round_deals_as_the_shoe_of_that_order_would(slug: str) -> None:
    for seed in range(3):
        order = _order(slug, seed)
        reported = _reported(slug)
        _reported_to_the_end(reported, iter(order))
        shuffled = _opened(slug, Shoe(order, decks=GAMES[slug]().shoe_decks))
        _dealt_to_the_end(shuffled)
        assert reported.records == shuffled.records
        assert reported.phase is Phase.OVER
        _rebuilt_equal(reported)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_card_reported_when_none_is_due_voids_the_round(slug: str) -> None:
    rnd = _reported(slug)
    cards = iter(_order(slug, 1))
    while rnd.phase is Phase.DEALING:
        rnd.apply(ReportCard(card=next(cards)))
    extra = next(cards)
    if rnd.phase not in (Phase.STUB_COUNT, Phase.DECISIONS):  # baccarat: revealed once dealt
        with pytest.raises(IllegalAction, match="the reveal"):
            rnd.apply(ReportCard(card=extra))
        return
    new = rnd.apply(ReportCard(card=extra))
    assert isinstance(new[0], CardRefused) and new[0].card == extra
    assert new[0].section == rnd.sections.get("wrong_card_count", "")
    assert isinstance(new[1], RoundVoided) and not new[1].deck_removed
    assert rnd.is_over and rnd.books() is not None
    assert all(r.result is Result.VOID for r in new if isinstance(r, WagerSettled))
    _rebuilt_equal(rnd)


def test_641a_13_c_a_card_too_many_to_a_position_voids_every_hand() -> None:
    rnd = _reported("four-card-poker")
    cards = iter(_order("four-card-poker", 2))
    while rnd.phase is Phase.DEALING:
        rnd.apply(ReportCard(card=next(cards)))
    new = rnd.apply(ReportCard(card=next(cards)))
    refused = new[0]
    assert isinstance(refused, CardRefused) and refused.section == "§ 641a.13(c)"
    settled = [r for r in new if isinstance(r, WagerSettled)]
    assert {(r.seat, r.wager) for r in settled} == {(1, "ante"), (2, "ante")}
    assert all(r.returned == 500 for r in settled)


def test_641a_8_f_a_card_seen_more_often_than_the_deck_holds_voids_and_removes_the_deck() -> None:
    rnd = _reported("four-card-poker")
    first = _order("four-card-poker", 3)[0]
    rnd.apply(ReportCard(card=first))
    new = rnd.apply(ReportCard(card=first))
    assert isinstance(new[0], CardRefused) and new[0].section == "§ 641a.8(f)"
    assert new[0].consequence == "round void, deck removed"
    assert isinstance(new[1], RoundVoided) and new[1].deck_removed
    assert rnd.phase is Phase.VOID
    _rebuilt_equal(rnd)


def test_641a_13_a_a_card_reported_face_up_in_the_deck_is_discarded_a_second_voids() -> None:
    rnd = _reported("four-card-poker")
    order = _order("four-card-poker", 4)
    new = rnd.apply(ReportCard(card=order[0], found=CardFound.FACE_UP_IN_DECK))
    assert isinstance(new[0], IrregularityReported) and new[0].section == "§ 641a.13(a)"
    assert isinstance(new[1], CardDiscarded) and new[1].card == order[0]
    assert rnd.phase is Phase.DEALING
    rnd.apply(ReportCard(card=order[1]))
    new = rnd.apply(ReportCard(card=order[2], found=CardFound.FACE_UP_IN_DECK))
    assert isinstance(new[1], RoundVoided) and rnd.is_over
    _rebuilt_equal(rnd)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_misread_corrected_before_the_next_card_is_recorded_and_dealt(slug: str) -> None:
    order = _order(slug, 5)
    rnd = _reported(slug)
    read, real = order[0], order[-1]
    rnd.apply(ReportCard(card=read))
    new = rnd.apply(CorrectCard(card=real))
    fixed = new[0]
    assert isinstance(fixed, CardCorrected) and (fixed.card, fixed.was) == (real, read)
    assert new == (CardCorrected(card=real, was=read, to=fixed.to, face_up=fixed.face_up),)
    cards = iter([*order[1:-1], read])
    _reported_to_the_end(rnd, cards)
    assert rnd.phase is Phase.OVER
    dealt = [r.card for r in rnd.records if isinstance(r, CardDealt)]
    assert dealt[0] == read  # the record of the read stands; the correction follows it
    _rebuilt_equal(rnd)


def test_a_misread_is_not_corrected_once_the_table_has_moved_on() -> None:
    order = _order("three-card-poker", 6)
    rnd = _reported("three-card-poker")
    cards = iter(order)
    while rnd.phase is Phase.DEALING:
        rnd.apply(ReportCard(card=next(cards)))
    rnd.apply(_decision(rnd, 1))  # a decision on the cards as reported
    before = rnd.records
    with pytest.raises(IllegalAction, match="before the next card"):
        rnd.apply(CorrectCard(card=next(cards)))
    assert rnd.records == before


def test_a_correction_to_a_card_the_deck_no_longer_holds_is_an_irregularity() -> None:
    order = _order("three-card-poker", 7)
    rnd = _reported("three-card-poker")
    rnd.apply(ReportCard(card=order[0]))
    rnd.apply(ReportCard(card=order[1]))
    with pytest.raises(Irregularity, match="no other copy"):
        rnd.apply(CorrectCard(card=order[0]))


def test_baccarat_fourth_card_is_not_corrected_once_the_third_card_rule_has_acted() -> None:
    slug = next(s for s in SLUGS if not GAMES[s].required_wagers)
    rnd = _reported(slug)
    cards = iter(_order(slug, 8))
    for _ in range(4):
        rnd.apply(ReportCard(card=next(cards)))
    if rnd.phase is Phase.DEALING:  # a third card is due: the rule has read the four
        with pytest.raises(IllegalAction):
            rnd.apply(CorrectCard(card=next(cards)))


def test_a_stub_reported_right_lets_the_round_go_on() -> None:
    rnd = _reported("four-card-poker")
    cards = iter(_order("four-card-poker", 9))
    while rnd.phase is Phase.DEALING:
        rnd.apply(ReportCard(card=next(cards)))
    dealt = sum(isinstance(r, CardDealt) for r in rnd.records)
    new = rnd.apply(ReportStub(count=52 - dealt))
    assert new == (StubReported(count=52 - dealt, expected=52 - dealt),)
    assert rnd.phase is Phase.DECISIONS
    _rebuilt_equal(rnd)


def test_641a_13_c_a_card_missing_from_the_report_voids_the_round() -> None:
    rnd = _reported("four-card-poker")
    cards = iter(_order("four-card-poker", 10))
    while rnd.phase is Phase.DEALING:
        rnd.apply(ReportCard(card=next(cards)))
    dealt = sum(isinstance(r, CardDealt) for r in rnd.records)
    new = rnd.apply(ReportStub(count=52 - dealt - 1))  # one card left the shoe unreported
    assert isinstance(new[0], StubReported) and new[0].section == "§ 641a.13(c)"
    assert isinstance(new[1], RoundVoided) and not new[1].deck_removed
    _rebuilt_equal(rnd)


def test_641a_13_c_the_deal_stopping_short_voids_the_round() -> None:
    rnd = _reported("four-card-poker")
    rnd.apply(ReportCard(card=_order("four-card-poker", 11)[0]))
    new = rnd.apply(ReportStub(count=51))
    assert isinstance(new[0], StubReported) and new[0].consequence == "round void"
    assert rnd.phase is Phase.VOID


def test_641a_8_f_a_stub_longer_than_the_deck_can_hold_removes_the_deck() -> None:
    rnd = _reported("four-card-poker")
    rnd.apply(ReportCard(card=_order("four-card-poker", 12)[0]))
    new = rnd.apply(ReportStub(count=52))
    assert isinstance(new[1], RoundVoided) and new[1].deck_removed


def test_a_shuffled_round_takes_no_reported_card_nor_correction() -> None:
    game = get_game("four-card-poker")
    shoe = Shoe.shuffled(SeededShuffler(1))
    rnd = _opened(game.slug, shoe)
    with pytest.raises(IllegalAction, match="own shuffle"):
        rnd.apply(ReportCard(card=shoe_cards()[0]))
    with pytest.raises(IllegalAction, match="own shuffle"):
        rnd.apply(ReportStub(count=52))


def test_a_reported_shoe_deals_only_what_was_reported() -> None:
    shoe = ReportedShoe()
    with pytest.raises(IllegalAction, match="reported"):
        shoe.deal()
    card = shoe_cards()[0]
    shoe.report(card)
    assert shoe.pending == 1 and not shoe.holds(card)
    with pytest.raises(Irregularity, match="more often"):
        shoe.report(card)
    assert shoe.deal() == card and shoe.stub_expected() == 51 and shoe.stub_count() == 51


def test_a_correction_to_a_face_down_card_is_hidden_from_the_other_seats() -> None:
    from croupier.games.pov import CardHidden, Pov

    order = _order("three-card-poker", 13)
    rnd = _reported("three-card-poker")
    rnd.apply(ReportCard(card=order[0]))  # seat 1's first card, face down
    rnd.apply(CorrectCard(card=order[-1]))
    fixed = rnd.records[-1]
    assert isinstance(fixed, CardCorrected) and fixed.to == "1"
    assert rnd.records_for(Pov.player(1))[-1] == fixed
    assert isinstance(rnd.records_for(Pov.player(2))[-1], CardHidden)
    assert rnd.view(Pov.player(1)).cards["1"] == (str(order[-1]),)
    assert rnd.view(Pov.player(2)).cards["1"] == (None,)

"""Deferred vigorish between coups and the shoe's procedures, as the live table uses them:
markers carried over (a restart), settled from the chips a player has with the rest owed at
the cage (§ 541.13(g) and casino practice), the opening burn and the cut card."""

from __future__ import annotations

import pytest

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.baccarat import (
    CUT_CARD,
    BaccaratGame,
    CollectReason,
    CutCardOut,
    MarkerCollected,
    MarkerTransferred,
    ShoeStage,
    VigLedger,
    open_shoe,
    stage_after,
)
from croupier.table.shoe import shoe_cards

DEFERRED = {"game": "mini-baccarat", "vig": {"rate": "0.05", "collect": "deferred"}}


def _game() -> BaccaratGame:
    game = get_game(DEFERRED)
    assert isinstance(game, BaccaratGame)
    return game


def test_541_13_g_markers_carry_over_and_refuse_a_seat_or_amount_that_is_not_one() -> None:
    ledger = VigLedger(_game(), {2: 75, 5: 40})
    assert ledger.markers() == {2: 75, 5: 40} and ledger.owed(5) == 40
    for owed in ({9: 5}, {1: 0}, {1: -5}, {1: True}):
        with pytest.raises(InvalidInput):
            VigLedger(_game(), owed)


def test_541_13_g_a_leaving_player_pays_the_marker_from_chips_the_rest_owed_at_the_cage() -> None:
    ledger = VigLedger(_game(), {2: 75, 5: 40})
    done = ledger.settle(2, reason=CollectReason.PLAYER_LEAVES, chips=50)
    assert done == (
        MarkerCollected(seat=2, amount=50, reason="player_leaves", section="§ 541.13(g)"),
        MarkerTransferred(seat=2, amount=25, reason="player_leaves", section="§ 541.13(g)"),
    )
    assert "cage" in done[1].note and "Nevada" in done[1].note
    assert ledger.markers() == {5: 40}
    # Refused calls change nothing.
    for seat, chips, error in ((2, 10, IllegalAction), (5, -1, InvalidInput), (8, 1, InvalidInput)):
        with pytest.raises(error):
            ledger.settle(seat, reason=CollectReason.RESHUFFLE, chips=chips)
        assert ledger.markers() == {5: 40}
    (paid,) = ledger.settle(5, reason=CollectReason.RESHUFFLE, chips=1000)
    assert (type(paid), paid.amount, paid.reason) == (MarkerCollected, 40, "reshuffle")
    ledger = VigLedger(_game(), {3: 15})
    (owed,) = ledger.settle(3, reason=CollectReason.RESHUFFLE, chips=0)
    assert (type(owed), owed.amount) == (MarkerTransferred, 15)


@pytest.mark.parametrize(("first", "burned"), [("Ts", 10), ("Kd", 10), ("7h", 7), ("Ac", 1)])
def test_a_new_shoe_turns_up_its_first_card_and_burns_its_value(first: str, burned: int) -> None:
    cards = list(shoe_cards(8))
    top = Card.parse(first)
    cards.remove(top)
    shoe, opened = open_shoe([top, *cards], decks=8, cut_card=CUT_CARD)
    assert (opened.first_card, opened.burned, opened.cut_card) == (top, burned, CUT_CARD)
    assert len(shoe.burned) == 1 + burned and shoe.dealt == ()


def test_the_coup_after_the_cut_card_came_out_is_the_shoes_last() -> None:
    assert stage_after(ShoeStage.DEALING, cards_left=17, cut_card=16) == (ShoeStage.DEALING, ())
    assert stage_after(ShoeStage.DEALING, cards_left=16, cut_card=16) == (
        ShoeStage.LAST_ROUND,
        (CutCardOut(rounds_left=1),),
    )
    assert stage_after(ShoeStage.LAST_ROUND, cards_left=11, cut_card=16) == (ShoeStage.DONE, ())


def test_a_baccarat_game_declares_its_shoe_dealt_to_the_cut_card_and_others_do_not() -> None:
    assert _game().shoe_cut_card == CUT_CARD
    assert get_game("ez-baccarat").shoe_cut_card == CUT_CARD
    assert get_game("three-card-poker").shoe_cut_card is None


def test_541_13_g_a_ledger_of_a_plain_game_is_a_baccarat_tables_and_no_other_games() -> None:
    """``VigLedger.of`` takes a game as the live shoe and the scenarios hold it (a plain
    ``Game``): a baccarat table's markers, carried over as given; any other game is refused."""
    game = _game()
    ledger = VigLedger.of(game, {3: 25})
    assert ledger.game is game and ledger.markers() == {3: 25}
    assert ledger.section == "§ 541.13(g)"
    with pytest.raises(InvalidInput, match="a three-card-poker table keeps no vigorish markers"):
        VigLedger.of(get_game("three-card-poker"))

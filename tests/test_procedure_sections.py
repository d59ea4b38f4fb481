"""The dealer's procedure refusals cite their chapter's section (issue 40): a reveal before
every decision is made, and a settlement before the reveal, are refused with the subsection
each game's ``sections`` table gives (``reveal_order``, ``settlement_order``), and change
nothing."""

from __future__ import annotations

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction
from croupier.games import GAMES, get_game
from croupier.games.records import Action, PlaceWager, Reveal, Settle
from croupier.games.round import Phase, Round
from croupier.server.drills import procedure
from croupier.table.shoe import SeededShuffler, Shoe


def betting(slug: str) -> Round:
    """A round of ``slug`` (its example Rules Submission) in betting, one wager placed."""
    game = get_game(type(get_game({"game": slug})).example_rules)
    decks = int(game.rules.table.decks)
    cards = SeededShuffler(f"sections-{slug}").shuffle(list(DECK) * decks)
    rnd = game.new_round(shoe=Shoe(cards, decks=decks))
    first = game.offered_wagers()[0]
    rnd.apply(PlaceWager(seat=1, wager=first, amount=500))
    assert rnd.phase is Phase.BETTING
    return rnd


def refused_with(slug: str, action: Action, section: str) -> None:
    rnd = betting(slug)
    before = (len(rnd.records), rnd.phase, rnd.cards_left)
    with pytest.raises(IllegalAction) as info:
        rnd.apply(action)
    assert info.value.section == section
    assert section in str(info.value)
    assert (len(rnd.records), rnd.phase, rnd.cards_left) == before


def test_641a_11_c_four_card_poker_reveal_waits_for_every_decision() -> None:
    refused_with("four-card-poker", Reveal(), "§ 641a.11(c)")


def test_641a_11_c_1_four_card_poker_settlement_follows_the_reveal() -> None:
    refused_with("four-card-poker", Settle(), "§ 641a.11(c)(1)")


def test_649a_11_c_three_card_poker_reveal_then_settlement() -> None:
    refused_with("three-card-poker", Reveal(), "§ 649a.11(c)")
    refused_with("three-card-poker", Settle(), "§ 649a.11(c)")


def test_569_11_f_uth_dealer_cards_turned_after_every_decision() -> None:
    refused_with("ultimate-texas-holdem", Reveal(), "§ 569.11(f)")


def test_569_11_g_h_uth_settlement_follows_the_reveal() -> None:
    refused_with("ultimate-texas-holdem", Settle(), "§ 569.11(g), (h)")


def test_571_11_f_mississippi_stud_last_card_turned_after_every_decision() -> None:
    refused_with("mississippi-stud", Reveal(), "§ 571.11(f)")


def test_571_11_h_mississippi_stud_settlement_follows_the_reveal() -> None:
    refused_with("mississippi-stud", Settle(), "§ 571.11(h)")


def test_643a_11_c_e_let_it_ride_community_cards_turned_after_the_decisions() -> None:
    refused_with("let-it-ride", Reveal(), "§ 643a.11(c), (e)")


def test_643a_11_e_let_it_ride_settlement_follows_the_second_card() -> None:
    refused_with("let-it-ride", Settle(), "§ 643a.11(e)")


@pytest.mark.parametrize("slug", ["mini-baccarat", "ez-baccarat"])
def test_541_12_a_b_minibaccarat_result_announced_then_settled(slug: str) -> None:
    refused_with(slug, Reveal(), "§ 541.12(a)")
    refused_with(slug, Settle(), "§ 541.12(b)")


def test_543_12_a_b_midibaccarat_result_announced_then_settled() -> None:
    refused_with("midi-baccarat", Reveal(), "§ 543.12(a)")
    refused_with("midi-baccarat", Settle(), "§ 543.12(b)")


@pytest.mark.parametrize("slug", GAMES)
def test_procedure_drill_shows_the_settlement_order_section(slug: str) -> None:
    # the trainee's out-of-order Settle is refused with the chapter's subsection, not its title
    early = procedure(slug, 9, [], "settle")
    assert early.taken is not None and not early.taken.accepted
    assert early.taken.section == get_game({"game": slug}).round_class.sections["settlement_order"]

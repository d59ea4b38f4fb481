"""The live baccarat table's shoe in memory (:class:`croupier.server.live_shoe.LiveShoe`): one
shoe coup after coup, its markers settled from the players' chips at its end (§ 541.13(g)), a
command's changes undone, and the training stack of contract 2 (training tables only)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.core.cards import Card, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.games import get_game
from croupier.games.baccarat import MarkerTransferred, ShoeStage, VigMarked
from croupier.games.records import CardDealt, NoMoreBets, PlaceWager
from croupier.games.round import Round
from croupier.hands.baccarat import card_value
from croupier.rules.progressive import MemoryMeters
from croupier.server.ledger import (
    CAGE,
    Entry,
    Ledger,
    commission_account,
    player_account,
    table_account,
)
from croupier.server.live_shoe import LiveShoe
from croupier.store import open_engine
from croupier.table.shoe import SecureShuffler, SeededShuffler

RULES = {"game": "mini-baccarat", "vig": {"rate": "0.05", "collect": "deferred"}}


def _shoe(mode: PlayMode = PlayMode.TRAINING) -> LiveShoe:
    shuffler = SeededShuffler(35) if mode is PlayMode.TRAINING else SecureShuffler()
    shoe = LiveShoe("bac", get_game(RULES), shuffler, MemoryMeters(), mode)
    shoe.sit(1, "A")
    return shoe


def _play(rnd: Round, wager: str = "banker") -> None:
    rnd.apply(PlaceWager(seat=1, wager=wager, amount=1000))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()


def test_a_shoe_deals_every_coup_from_where_the_last_stopped_to_its_cut_card() -> None:
    shoe = _shoe()
    dealt: list[Card] = []
    owed_at_end, first = 0, None
    while True:
        rnd = shoe.new_round()
        first = shoe.state.taken if first is None else first
        _play(rnd)
        dealt += [r.card for r in rnd.records if isinstance(r, CardDealt)]
        owed_at_end = sum(shoe.markers().values()) + sum(
            r.amount for r in rnd.records if isinstance(r, VigMarked)
        )
        done = shoe.coup_over(rnd, {"A": 0})  # no chips left: the markers go to the cage
        if shoe.state.stage is ShoeStage.DONE:
            break
    state = shoe.state
    assert first == 1 + (card_value(state.order[0]) or 10)  # the opening burn
    assert dealt == list(state.order[first : state.taken])  # in order, each card once
    assert 6 <= len(state.order) - state.taken <= 16  # down to the cut card
    assert [(player, r) for player, r in done] == [
        (
            "A",
            MarkerTransferred(
                seat=1, amount=owed_at_end, reason="reshuffle", section="§ 541.13(g)"
            ),
        )
    ]
    assert owed_at_end > 0 and shoe.markers() == {}
    # The next coup opens shoe 2, burned, under a new nonce.
    shoe.new_round()
    assert shoe.state.number == 2 and shoe.state.nonce != state.nonce
    assert [r.kind for r in shoe.opened] == ["shoe_opened"]


def test_contract_2_the_stacked_cards_are_the_next_coups_first_and_taken_from_the_shoe() -> None:
    shoe = _shoe()
    rnd = shoe.new_round()
    _play(rnd)
    shoe.coup_over(rnd, {"A": 10_000})
    before = shoe.state
    stack = parse_cards("9s 9h 2c 3d", distinct=False)
    shoe.stack_next(stack)
    rnd = shoe.new_round()
    _play(rnd, "player")
    first = [r.card for r in rnd.records if isinstance(r, CardDealt)][:4]
    assert tuple(first) == stack
    after = shoe.state
    assert Counter(after.order) == Counter(before.order)  # still the shoe's eight decks
    assert after.order[: before.taken] == before.order[: before.taken]
    assert after.nonce != before.nonce  # a new order: a new commitment


def test_contract_2_a_stack_is_refused_at_a_real_table_and_beyond_the_shoes_decks() -> None:
    real = _shoe(PlayMode.REAL)
    with pytest.raises(IllegalAction, match="not a training table"):
        real.stack_next(parse_cards("As", distinct=False))
    shoe = _shoe()
    with pytest.raises(IllegalAction):
        shoe.stack_next(parse_cards("As " * 9, distinct=False))  # 8 decks hold 8
    _play(shoe.new_round())
    with pytest.raises(IllegalAction):
        shoe.stack_next(parse_cards("As " * 9, distinct=False))


def test_a_command_undone_puts_the_shoe_and_its_markers_back() -> None:
    shoe = _shoe()
    rnd = shoe.new_round()
    _play(rnd)
    shoe.coup_over(rnd, {"A": 0})
    saved, state = shoe.memento(), shoe.state
    rnd = shoe.new_round()
    _play(rnd)
    shoe.coup_over(rnd, {"A": 0})
    shoe.settle_leaving("A", 0)
    assert shoe.state != state
    shoe.restore(saved)
    assert shoe.state == state and shoe.seats == {1: "A"}


def test_541_13_g_the_ledger_never_collects_more_commission_than_is_owed(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    ledger = Ledger()
    owed = Entry(commission_account("A"), table_account("bac"), Fraction(50), "vig_marked")
    buy = Entry(CAGE, player_account("A"), Fraction(1000), "buy_in")
    with engine.begin() as conn:
        ledger.post(conn, [buy, owed])
    too_much = Entry(player_account("A"), commission_account("A"), Fraction(55), "collected")
    with pytest.raises(IllegalAction, match="owes 50 cents of commission"), engine.begin() as conn:
        ledger.post(conn, [too_much])
    with engine.begin() as conn:
        assert ledger.balance(conn, commission_account("A")) == -50
        ledger.post(conn, [replace(too_much, amount=Fraction(50))])
        assert ledger.balance(conn, commission_account("A")) == 0
        assert ledger.balance(conn, player_account("A")) == 950
    engine.dispose()


def test_a_game_without_a_cut_card_has_no_live_shoe() -> None:
    """Only a game that deals one shoe over many rounds (its class's ``shoe_cut_card``, the
    baccarats) has a live shoe; a game dealt from a fresh shuffle each round is refused."""
    assert get_game(RULES).shoe_cut_card is not None
    game = get_game("ultimate-texas-holdem")
    assert game.shoe_cut_card is None
    with pytest.raises(InvalidInput, match="ultimate-texas-holdem table does not deal one shoe"):
        LiveShoe("uth", game, SeededShuffler(1), MemoryMeters(), PlayMode.TRAINING)

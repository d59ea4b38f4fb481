"""Training tables (issue 35): declared in the Rules Submission (``[table] training = true``),
their rounds recorded ``training``, and the next round's cards stacked, top first, in the order
they leave the shoe (``Dealing.stack_next``: the engine's :class:`croupier.table.table.Table` and
the
live server's :class:`~croupier.server.live_tables.ShoePerRound`).  A real table refuses a stack;
a stack the shoe cannot hold is refused naming it, and nothing changes."""

from __future__ import annotations

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import PlayMode, mode_of_table
from croupier.games import get_game
from croupier.games.records import CardDealt, PlaceWager
from croupier.games.round import Round
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.server.live_tables import ShoePerRound
from croupier.table.shoe import SecureShuffler, SeededShuffler
from croupier.table.table import Table

FOUR_ACES = "As 2c Ah 3c Ad 4c Ac 5h Kd 7h 9d"


def _dealt(rnd: Round, wager: str) -> list[str]:
    """Seat 1 wagers, the dealer deals: the cards in the order they left the shoe."""
    rnd.apply(PlaceWager(seat=1, wager=wager, amount=500))
    rnd.apply(rnd.dealer_no_more_bets())
    for _ in range(40):
        if rnd.to_act().seat is not None or rnd.is_over:
            break
        rnd.apply(rnd.dealer_step())
    return [str(r.card) for r in rnd.records if isinstance(r, CardDealt)]


def _fcp_table(mode: PlayMode, seed: int = 35) -> Table:
    game = get_game({"game": "four-card-poker", "table": {"training": mode is PlayMode.TRAINING}})
    shuffler = SecureShuffler() if mode is PlayMode.REAL else SeededShuffler(seed)
    table = Table(game, shuffler=shuffler, mode=mode)
    table.sit(1, "P1")
    return table


def _baccarat(mode: PlayMode) -> ShoePerRound:
    game = get_game({"game": "mini-baccarat", "table": {"decks": 8}})
    shuffler = SecureShuffler() if mode is PlayMode.REAL else SeededShuffler(35)
    dealing = ShoePerRound(game, shuffler, MemoryMeters(), mode)
    dealing.sit(1, "P1")
    return dealing


def test_training_is_declared_in_the_rules_submission_of_every_game() -> None:
    for slug in ("four-card-poker", "mini-baccarat", "let-it-ride", "mississippi-stud"):
        rules = load_rules({"game": slug, "table": {"training": True}})
        assert rules.problems == () and mode_of_table(rules.table) is PlayMode.TRAINING
        assert get_game(rules).rules.to_json()["table"]["training"] is True
        assert mode_of_table(load_rules({"game": slug}).table) is PlayMode.REAL
    assert "training" not in load_rules({"game": "four-card-poker"}).to_json()["table"]


def test_a_stacked_table_deals_the_stack_first_and_the_round_says_training() -> None:
    table = _fcp_table(PlayMode.TRAINING)
    table.stack_next(FOUR_ACES)
    rnd = table.new_round()
    assert rnd.mode is PlayMode.TRAINING
    assert _dealt(rnd, "ante") == FOUR_ACES.split()
    # the stack is for one round: the next deals the shuffle's order
    assert _dealt(_next(table), "ante")[:11] != FOUR_ACES.split()


def _next(table: Table) -> Round:
    rnd = table.current
    assert rnd is not None
    while not rnd.is_over:
        actor = rnd.to_act()
        rnd.apply(rnd.simple_strategy(actor.seat) if actor.seat else rnd.dealer_step())
    return table.new_round()


def test_a_real_table_refuses_a_stack_and_deals_as_shuffled() -> None:
    table = _fcp_table(PlayMode.REAL)
    with pytest.raises(IllegalAction, match="this table is not a training table"):
        table.stack_next(FOUR_ACES)
    dealing = _baccarat(PlayMode.REAL)
    with pytest.raises(IllegalAction, match="not a training table"):
        dealing.stack_next(parse_cards("9s 9h"))


@pytest.mark.parametrize(
    ("stack", "error"),
    [
        ("As Zz 9d", "'Zz'"),
        ("As 2c As", "As x2 (the shoe holds 1 deck(s))"),
        (" ".join(str(c) for c in (*DECK, DECK[0])), "holds 53 cards; the shoe holds 52"),
    ],
)
def test_a_stack_the_deck_cannot_hold_is_refused_naming_it_and_changes_nothing(
    stack: str, error: str
) -> None:
    stacked, plain = _fcp_table(PlayMode.TRAINING), _fcp_table(PlayMode.TRAINING)
    with pytest.raises(InvalidInput) as refused:
        stacked.stack_next(stack)
    assert error in refused.value.message
    # the refused stack changed nothing: both tables deal the seeded shuffle's order
    assert _dealt(stacked.new_round(), "ante") == _dealt(plain.new_round(), "ante")


def test_an_eight_deck_shoe_takes_eight_of_a_card_and_refuses_a_ninth() -> None:
    dealing = _baccarat(PlayMode.TRAINING)
    with pytest.raises(InvalidInput, match="9s x9"):
        dealing.stack_next(parse_cards(" ".join(["9s"] * 9), distinct=False))
    dealing.stack_next(parse_cards("9s 9h 9d 9c 9s 9h", distinct=False))
    rnd = dealing.new_round()
    assert rnd.mode is PlayMode.TRAINING
    assert _dealt(rnd, "banker")[:4] == ["9s", "9h", "9d", "9c"]  # P, B, P, B: naturals


def test_a_stack_undone_with_its_command_is_gone() -> None:
    # the live server undoes a command that did not commit with the dealing's memento
    table = _fcp_table(PlayMode.TRAINING)
    before = table.memento()
    table.stack_next(parse_cards("As Ah Ad Ac"))
    table.restore(before)
    assert _dealt(table.new_round(), "ante")[:4] != ["As", "Ah", "Ad", "Ac"]
    shoe = _baccarat(PlayMode.TRAINING)
    kept = shoe.memento()
    shoe.stack_next(parse_cards("As Ah Ad Ac"))
    shoe.restore(kept)
    assert _dealt(shoe.new_round(), "banker")[:4] != ["As", "Ah", "Ad", "Ac"]

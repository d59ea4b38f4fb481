"""The decision a load's player takes from what its page is offered
(:func:`croupier.faces.bots.offered_decision`, from the actions a table stream carries) is the
decision the house play reaches by trying :data:`~croupier.faces.bots.DECISIONS` in turn on the
round: at every decision of random rounds of every game and rule set, the same action, or none
where no decision of the list is written as one offered (the house play then tries them).  For
the games the Locust floor deals (Three and Four Card Poker), a decision is always offered."""

from __future__ import annotations

import pytest

from croupier.core.errors import CroupierError
from croupier.faces.bots import DECISIONS, offered_decision
from croupier.games import GAMES, Round, get_game
from croupier.games.records import Action, ReportIrregularity
from croupier.games.round import ActorKind
from croupier.rules.progressive import MemoryMeters
from croupier.server.actions import seat_actions
from croupier.table.shoe import SeededShuffler, Shoe
from test_pov import CASES, rule_sets

LOCUST_GAMES = ("three-card-poker", "four-card-poker")


def _tried_in_turn(rnd: Round, seat: int) -> Action:
    """The first decision of the list the round accepts (the house play's way)."""
    for text in DECISIONS:
        try:
            action = rnd.parse_decision(seat, text)
        except CroupierError:
            continue
        if rnd.can(action):
            return action
    raise AssertionError(f"seat {seat}: no decision of {DECISIONS} accepted")


@pytest.mark.parametrize(("slug", "rules_index"), CASES)
def test_the_offered_decision_is_the_one_the_house_play_reaches(
    slug: str, rules_index: int
) -> None:
    game = get_game(rule_sets(GAMES[slug])[rules_index])
    rng = SeededShuffler(f"offered-{slug}-{rules_index}")
    decided = 0
    for _ in range(3):
        rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
        for seat in (1, 3, 5):
            for action in rnd.house_wagers(seat, unit=500):
                rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        while not rnd.is_over:
            actor = rnd.to_act()
            if actor.kind is ActorKind.SEAT and actor.seat is not None:
                seat = actor.seat
                chosen = offered_decision(seat_actions(rnd, frozenset({seat})), seat)
                reached = _tried_in_turn(rnd, seat)
                if chosen is None:
                    assert slug not in LOCUST_GAMES, (slug, seat, rnd.phase)
                else:
                    assert rnd.parse_decision(seat, chosen) == reached, (slug, chosen)
                    decided += 1
                rnd.apply(reached)
            else:
                legal = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
                rnd.apply(rnd.dealer_step() if rnd.to_act().kind is ActorKind.DEALER else legal[0])
    if slug in LOCUST_GAMES:
        assert decided >= 9

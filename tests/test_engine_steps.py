"""The round engine's shortcuts change nothing: the same records, the same answers.

``run_dealer`` deals every card now due in one pass, each by its verified ``DealNext``; a game
keeps its pure lookups (offered wagers, pay tables, meters) once.  These tests hold both to the
step-by-step and the computed-afresh answers, for every game.
"""

from __future__ import annotations

import pytest

from croupier.games import GAMES
from croupier.games.records import DealNext, PlaceWager
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe

SLUGS = sorted(GAMES)


def _opened(slug: str, seed: int) -> Round:
    """A round of ``slug`` at seat 1 with its first wager (baccarat: the Banker), after "no
    more bets", from a seeded shoe."""
    game = GAMES[slug]()
    rnd = game.new_round(
        shoe=Shoe.shuffled(SeededShuffler(seed), decks=game.shoe_decks), meters=MemoryMeters()
    )
    wagers = game.required_wagers or ("banker",)
    for wager in wagers:
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=500))
    rnd.apply(rnd.dealer_no_more_bets())
    return rnd


@pytest.mark.parametrize("slug", SLUGS)
def test_run_dealer_deals_the_cards_dealnext_deals_one_at_a_time(slug: str) -> None:
    for seed in range(5):
        at_once, one_by_one = _opened(slug, seed), _opened(slug, seed)
        dealt = at_once.run_dealer()
        while one_by_one.phase is Phase.DEALING:
            one_by_one.apply(DealNext())
        one_by_one.run_dealer()
        assert at_once.records == one_by_one.records
        assert dealt == at_once.records[-len(dealt) :]
        assert at_once.phase is one_by_one.phase


@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_kept_lookups_equal_the_lookups_made_afresh(slug: str) -> None:
    game = GAMES[slug]()
    cls = type(game)
    assert game.offered_wagers() is game.offered_wagers()
    assert game.offered_wagers() == cls.offered_wagers.__wrapped__(game)  # type: ignore[attr-defined]
    for wager in game.wagers:
        fresh = cls.paytable.__wrapped__(game, wager)  # type: ignore[attr-defined]
        assert game.paytable(wager) == fresh
        assert game.paytable(wager) is game.paytable(wager)
    assert game.meter_spec == game.meter_spec


@pytest.mark.parametrize("slug", SLUGS)
def test_a_rounds_kept_hand_ranks_equal_evaluate(slug: str) -> None:
    from croupier.games.pov import supervisor_hands
    from croupier.hands import Ranking, evaluate

    rnd = _opened(slug, 3)
    rnd.run_dealer()
    for to, cards in supervisor_hands(rnd).items():
        if len(cards) == 3:
            for ranking in (Ranking.THREE_CARD, Ranking.THREE_CARD_BONUS):
                assert rnd.rank_of(cards, ranking) == evaluate(cards, ranking), to
                assert rnd.rank_of(list(cards), ranking) is rnd.rank_of(cards, ranking)
        if 5 <= len(cards) <= 7:
            assert rnd.rank_of(cards, Ranking.POKER5) == evaluate(cards, Ranking.POKER5), to

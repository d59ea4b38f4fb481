"""A round's views kept as each point of view's sight of its records (:class:`Sightline`, the
memo behind :meth:`Round.view` and :meth:`Round.records_for`): asked after every step of random
rounds of every game, each is what the view and the redacted records are drawn afresh from the
whole history (:func:`croupier.games.pov.view` without a sight kept, :func:`records_for`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.games import GAMES, Round, get_game
from croupier.games.pov import Pov, records_for, sightline, view
from croupier.games.records import ReportIrregularity
from croupier.games.round import ActorKind
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe
from test_pov import CASES, povs, rule_sets


def _same_as_drawn_afresh(rnd: Round) -> None:
    for pov in povs(rnd):
        kept = rnd.view(pov)
        fresh = view(rnd, pov)
        assert kept == fresh, pov
        assert kept.to_json() == fresh.to_json()
        assert rnd.records_for(pov) == records_for(rnd.records, pov) == kept.records


def play_checked(
    rnd: Round, rng: SeededShuffler, check: Callable[[Round], None] = _same_as_drawn_afresh
) -> None:
    """Play ``rnd`` to its end at random (an irregularity reported now and then), ``check``-ing
    it after every step."""
    for seat in [s for s in rnd.players if rng.randbelow(2)] or [4]:
        for action in rnd.house_wagers(seat, unit=100 * (1 + rng.randbelow(10))):
            rnd.apply(action)
            check(rnd)
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        check(rnd)
        if rnd.to_act().kind is ActorKind.SEAT:
            choices = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
            rnd.apply(choices[rng.randbelow(len(choices))])
        elif rng.randbelow(40) == 0 and (
            irr := [a for a in rnd.legal_actions() if isinstance(a, ReportIrregularity)]
        ):
            rnd.apply(irr[rng.randbelow(len(irr))])
        else:
            rnd.apply(rnd.dealer_step())
    check(rnd)


@pytest.mark.parametrize(("slug", "rules_index"), CASES)
def test_each_views_kept_sight_is_the_view_drawn_afresh(slug: str, rules_index: int) -> None:
    game = get_game(rule_sets(GAMES[slug])[rules_index])
    rng = SeededShuffler(f"sightline-{slug}-{rules_index}")
    for _ in range(2):
        play_checked(game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters()), rng)


def test_a_sight_of_another_history_is_drawn_afresh() -> None:
    """A line kept for one round's records is never taken for another's, though as long."""
    game = get_game("three-card-poker")
    rng = SeededShuffler("sightline-two-histories")
    one, two = (game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters()) for _ in "12")
    for rnd in (one, two):
        rnd.apply(next(iter(rnd.house_wagers(1, unit=500))))
        rnd.apply(rnd.dealer_no_more_bets())
        rnd.apply(rnd.dealer_step())  # the deal
    assert len(one.records) == len(two.records) and one.records != two.records
    pov = Pov.player(1)
    line = sightline(one.records, pov)
    assert sightline(two.records, pov, line) == sightline(two.records, pov)
    assert sightline(two.records, pov, line).seen == records_for(two.records, pov)
    # a longer history of the same round: only its new records are redacted
    shorter = sightline(one.records[:3], pov)
    assert sightline(one.records, pov, shorter) == line

"""The hand history a table stream carries for each point of view (:func:`round_sight`'s
``records``, each record's JSON made once per point of view and kept while the history grows):
after every step of random rounds of every game, it is the JSON of the records as that point of
view sees them, drawn afresh from the whole history (:func:`records_for`)."""

from __future__ import annotations

import pytest

from croupier.games import GAMES, Round, get_game
from croupier.games.pov import records_for
from croupier.games.records import record_to_json
from croupier.rules.progressive import MemoryMeters
from croupier.server.views import ViewPov, engine_pov, round_sight
from croupier.table.shoe import SeededShuffler, Shoe
from test_pov import CASES, rule_sets
from test_pov_sightline import play_checked

VIEWERS = [
    ViewPov("full"),
    ViewPov("dealer"),
    ViewPov("public"),
    *(ViewPov("player", frozenset({s})) for s in (1, 4, 7)),
]


def _same_as_drawn_afresh(rnd: Round) -> None:
    for viewer in VIEWERS:
        fresh = [record_to_json(r) for r in records_for(rnd.records, engine_pov(viewer))]
        assert round_sight(rnd, viewer)["records"] == fresh, viewer


@pytest.mark.parametrize(("slug", "rules_index"), CASES)
def test_the_carried_history_of_each_viewer_is_drawn_afresh(slug: str, rules_index: int) -> None:
    game = get_game(rule_sets(GAMES[slug])[rules_index])
    rng = SeededShuffler(f"sight-json-{slug}-{rules_index}")
    for _ in range(2):
        rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
        _same_as_drawn_afresh(rnd)
        play_checked(rnd, rng, _same_as_drawn_afresh)


def test_a_caller_changing_its_copy_changes_no_other_callers() -> None:
    """Each caller is given its own list (the JSON kept is never handed out to be changed)."""
    rng = SeededShuffler("sight-json-own-list")
    rnd = get_game("three-card-poker").new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
    rnd.apply(rnd.house_wagers(1, unit=500)[0])
    first = round_sight(rnd, VIEWERS[0])["records"]
    first.clear()
    assert round_sight(rnd, VIEWERS[0])["records"] == [record_to_json(r) for r in rnd.records]

"""The analysis registry (:mod:`croupier.analysis.registry`): every game has every face.

Adding a game means its game folder, its analysis folder (with its :class:`GameAnalysis`
entry), one line in :mod:`croupier.games.registry` and its example Rules Submission; these
tests fail when one of them is missing.
"""

from __future__ import annotations

import inspect

import pytest

from croupier.analysis.registry import (
    NoDecisions,
    analysis_for,
    registered,
)
from croupier.core.errors import InvalidInput
from croupier.games import GAMES, get_game


def test_every_game_is_registered_and_every_entry_is_a_game() -> None:
    assert set(registered()) == set(GAMES)


@pytest.mark.parametrize("slug", sorted(registered()))
def test_every_registered_game_has_every_face(slug: str) -> None:
    entry = analysis_for(slug)
    game_cls = GAMES[slug]
    assert callable(entry.par)
    assert callable(entry.strategy) or isinstance(entry.strategy, NoDecisions)
    # the games with decisions are those with required base wagers (baccarat has neither)
    assert isinstance(entry.strategy, NoDecisions) == (not game_cls.required_wagers)
    assert callable(entry.strategy_text)
    assert entry.notes.strip()
    kernel = entry.kernel
    assert callable(kernel.block) and callable(kernel.tables) and callable(kernel.exact)
    assert kernel.actions and kernel.note.strip() and kernel.unit
    assert dict(game_cls.example_rules), f"{slug} has no example Rules Submission"
    get_game({"game": slug, **dict(game_cls.example_rules)})  # the example is valid
    if entry.solved_by_blocks:
        assert "scheduler" in inspect.signature(entry.par).parameters
    # the default pace (theo, the floor forecast) says where its figure comes from
    assert 0 < entry.pace.rounds <= 200 and entry.pace.source.strip()
    # the strategy as rows: the game's own builder, or one row a line of its readable text
    assert entry.strategy_rows is None or callable(entry.strategy_rows)


@pytest.mark.parametrize("slug", sorted(registered()))
def test_every_game_declares_its_required_wagers_among_its_wagers(slug: str) -> None:
    game_cls = GAMES[slug]
    assert set(game_cls.required_wagers) <= set(game_cls.wagers)
    assert not set(game_cls.required_wagers) & game_cls.decision_wagers


def test_an_unregistered_game_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput, match="no exact analysis for blackjack"):
        analysis_for("blackjack")


def test_baccarat_strategy_text_says_there_is_no_decision() -> None:
    game = get_game("mini-baccarat")
    text = analysis_for(game).strategy_text(game)
    assert "no decision" in text and "§ 631a.11" in text


@pytest.mark.parametrize("slug", sorted(registered()))
def test_each_game_s_analysis_is_the_package_its_registration_names(slug: str) -> None:
    from croupier.games.registry import entry_for

    entry = entry_for(slug)
    module = entry.analysis_module()
    assert module.__name__ == entry.analysis
    by_game = getattr(module, "BY_GAME", {})
    assert analysis_for(slug) is by_game.get(GAMES[slug], module.ANALYSIS)

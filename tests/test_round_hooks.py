"""A narrow Round (issue 14): the hooks a game overrides are private, so a round's public surface
is the protocol only; a game that still defines a hook by its old public name is refused when
its class is made (``croupier.games.hooks``)."""

from __future__ import annotations

import pytest

from croupier.games import GAMES
from croupier.games.hooks import HOOKS
from croupier.games.records import Record
from croupier.games.round import Round
from croupier.games.three_card_poker import ThreeCardPokerRound

ROUND_CLASSES = sorted({g.round_class for g in GAMES.values()}, key=lambda c: c.__name__)


def test_a_round_defining_settle_seat_is_refused_at_class_creation() -> None:
    with pytest.raises(TypeError, match=r"Stale defines settle_seat \(now _settle_seat\)"):

        class Stale(Round):
            def settle_seat(self, seat: int) -> list[Record]:
                return []


def test_a_game_round_subclass_defining_old_names_is_refused_naming_each() -> None:
    with pytest.raises(TypeError) as info:

        class StaleThreeCard(ThreeCardPokerRound):
            def reveal(self) -> list[Record]:
                return []

            def player_keys(self, seat: int) -> frozenset[str]:
                return frozenset()

    message = str(info.value)
    assert message.startswith("StaleThreeCard defines ")
    assert "reveal (now _reveal)" in message
    assert "player_keys (now _player_keys)" in message


def test_a_round_defining_the_private_hook_is_accepted() -> None:
    class Fresh(Round):
        def _settle_seat(self, seat: int) -> list[Record]:
            return []

    assert "_settle_seat" in vars(Fresh)


def test_the_hook_list_names_private_hooks_the_base_round_has() -> None:
    for name in HOOKS:
        assert callable(getattr(Round, f"_{name}")), name


@pytest.mark.parametrize("cls", ROUND_CLASSES, ids=lambda c: c.__name__)
def test_every_game_round_defines_only_private_hooks(cls: type[Round]) -> None:
    assert [name for name in HOOKS if hasattr(cls, name)] == []
    # the hooks the base cannot provide are the game's own
    for name in ("_deal_plan", "_settle_seat"):
        assert getattr(cls, name) is not getattr(Round, name), (cls.__name__, name)

"""Every pay-table hand is one of its game's hand names, checked when the class is made."""

from __future__ import annotations

from typing import ClassVar

import pytest

from croupier.core.errors import InvalidInput
from croupier.games import GAMES, Game
from croupier.games.paytables import EnvySchedule, PayLine, PayTable, hand_names, to
from croupier.hands import Ranking


def _table(*hands: str) -> PayTable:
    lines = tuple(PayLine(hand=h, odds=to(n + 1)) for n, h in enumerate(hands))
    return PayTable(wager="side", letter="A", section="§ 641a.12(b)", lines=lines)


def test_hand_names_are_the_rankings_categories_and_the_games_own_keys() -> None:
    # § 641a.6(b): the four-card ranking has no full house and no royal flush.
    names = hand_names(Ranking.FOUR_CARD, extra=("four_aces",))
    assert "full_house" not in names and "royal_flush" not in names
    assert {"four_of_a_kind", "three_of_a_kind", "pair", "four_aces"} <= names


def test_misspelt_hand_fails_when_the_game_class_is_made() -> None:
    with pytest.raises(InvalidInput, match=r"side pay table A \(§ 641a\.12\(b\)\): 'flsuh'"):

        class Misspelt(Game):
            hand_rankings = (Ranking.FOUR_CARD,)
            paytables: ClassVar[dict[str, dict[str, PayTable]]] = {
                "side": {"A": _table("straight", "flsuh")}
            }


def test_hand_of_another_ranking_fails_when_the_game_class_is_made() -> None:
    # A full house is no four-card hand (§ 641a.6(b)): a line for it would never pay.
    with pytest.raises(InvalidInput, match="'full_house'"):

        class WrongRanking(Game):
            hand_rankings = (Ranking.FOUR_CARD,)
            fixed_paytables = (_table("full_house", "flush"),)


def test_envy_hand_is_checked_too() -> None:
    envy = EnvySchedule(
        letter="1", section="§ 641a.12(d)", by_wager={100: (PayLine(hand="royal", amount=500),)}
    )
    with pytest.raises(InvalidInput, match=r"Envy Bonus schedule 1 .*'royal'"):

        class BadEnvy(Game):
            hand_rankings = (Ranking.POKER5,)
            envy_schedules: ClassVar[dict[str, EnvySchedule]] = {"1": envy}


def test_tables_without_hand_names_are_refused() -> None:
    with pytest.raises(TypeError, match="no hand_rankings or extra_hands"):

        class Undeclared(Game):
            fixed_paytables = (_table("flush"),)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_table_a_table_posts_names_only_its_games_hands(slug: str) -> None:
    cls = GAMES[slug]
    game = cls(cls.example_rules) if cls.example_rules else cls()
    tables = [*game.fixed_tables(), *(t for w in cls.wagers if (t := game.paytable(w)))]
    assert tables
    for table in [*tables, *cls.declared_tables()]:
        hands = table.hands() if isinstance(table, PayTable) else ()
        assert set(hands) <= cls.hand_names, (table, hands)


def test_custom_shape_hands_are_checked_too() -> None:
    from croupier.games.paytables import CustomShape

    shape = CustomShape(hands=("straight_flush", "three_of_a_kind"), lowest=("trips",), section="x")
    with pytest.raises(InvalidInput, match=r"custom pay table shape .*'trips'"):

        class BadShape(Game):
            hand_rankings = (Ranking.THREE_CARD,)
            custom_shapes: ClassVar[dict[str, CustomShape]] = {"side": shape}

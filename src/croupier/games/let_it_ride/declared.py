"""Let It Ride's hands declared at a table whose cards croupier does not see (issue 39).

A position has two progressive wagers: the player's three cards are the Three-Card
Progressive's hand, the five with the two community cards the Five-Card Progressive's.  A
declared hand is read by the names each progressive's own table reads (as
``LetItRideRound.three_card_keys`` and ``five_card_keys``) and its Envy Bonuses are that
progressive's (:mod:`croupier.games.declared`).

A progressive payout's verification (the hand wins, the light, a floorperson's validation):
§ 643a.11's text is not among the project's sources, so the chapter's settlement section is
cited without a letter, as § 641a.11(c)(5)(i)-(iii) in Four Card Poker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from croupier.core.frozen import frozen_dict
from croupier.games.let_it_ride.paytables import five_card_keys, three_card_keys
from croupier.hands import HandRank, Ranking

if TYPE_CHECKING:
    from croupier.core.cards import Card
    from croupier.games.let_it_ride.game import LetItRide
    from croupier.games.paytables import EnvySchedule

__all__ = ["DECLARED_SECTIONS", "LetItRideDeclaredHands"]

DECLARED_SECTIONS: Mapping[str, str] = frozen_dict(
    {"declared_hand": "§ 643a.11", "declared_light": "§ 643a.11"}
)
"""The round's sections of a declared hand's verification (module docstring)."""


class LetItRideDeclaredHands:
    """The declared hands of a Let It Ride round (a base of ``LetItRideRound``)."""

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict(
        {"three_card_progressive": 3, "five_card_progressive": 5}
    )

    if TYPE_CHECKING:
        game: LetItRide

        def rank_of(self, cards: Sequence[Card], ranking: Ranking) -> HandRank: ...

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        if wager == "three_card_progressive":
            return three_card_keys(self.rank_of(cards, Ranking.THREE_CARD_BONUS))
        return five_card_keys(self.rank_of(cards, Ranking.POKER5))

    def _declared_envy(self, wager: str) -> EnvySchedule | None:
        return self.game.progressive(wager)[1]  # each progressive's own Envy Bonuses

"""Mississippi Stud's progressive hands other than the settlement's line (issue 39): the Envy
Bonuses of the dealt hands, and the hands declared at a table whose cards croupier does not
see (:mod:`croupier.games.declared`).

A declared hand is the Progressive Payout Hand, the two player cards and three community
cards, read by the names the dealt hand's settlement reads (``hand_keys``).  A progressive
payout is verified as § 571.11(h)(3) says: the hand wins (i), the light verified (ii), a
floorperson validates (iii).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from croupier.core.frozen import frozen_dict
from croupier.games.mississippi_stud.paytables import ENVY, hand_keys
from croupier.hands import HandRank, Ranking

if TYPE_CHECKING:
    from croupier.core.cards import Card
    from croupier.games.paytables import EnvySchedule
    from croupier.games.records import Record

__all__ = ["DECLARED_SECTIONS", "StudProgressiveHands"]

# § 571.11(h)(3)(iii): a floorperson validates the payout (the verification is a supervisor's
# route, its record names the supervisor)
DECLARED_SECTIONS: Mapping[str, str] = frozen_dict(
    {"declared_hand": "§ 571.11(h)(3)(i)", "declared_light": "§ 571.11(h)(3)(ii)"}
)
"""The round's sections of a declared hand's verification (module docstring)."""


class StudProgressiveHands:
    """The Envy Bonuses and declared hands of a Mississippi Stud round (a base of
    ``MississippiStudRound``)."""

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict({"progressive": 5})

    if TYPE_CHECKING:

        def rank_of(self, cards: Sequence[Card], ranking: Ranking) -> HandRank: ...

        def player_rank(self, seat: int) -> HandRank: ...

        def award_envy(
            self,
            seat: int,
            schedule: EnvySchedule | None,
            keys_of: Callable[[int], frozenset[str]],
            *,
            wager: str = ...,
        ) -> list[Record]: ...

    def _settle_envy(self, seat: int) -> list[Record]:
        # § 571.12(e): one Envy Bonus for each other player's royal flush or straight flush,
        # never for the player's own hand; § 571.11(g): a folded player stays eligible.
        return self.award_envy(seat, ENVY, lambda other: hand_keys(self.player_rank(other)))

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        return hand_keys(self.rank_of(cards, Ranking.POKER5))  # as player_rank

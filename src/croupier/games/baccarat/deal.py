"""The baccarat dealing procedure: the first four cards and the third-card decision.

:func:`next_card_to` is the one drawing decision the round (:mod:`croupier.games.baccarat`), the
tests and the tools use; :data:`FIRST_FOUR` and :data:`THIRD_CARD` are the round's deal steps
(immutable, so one of each serves every round).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.core.cards import Card
from croupier.games.baccarat.paytables import BANKER, PLAYER
from croupier.games.states import DealStep
from croupier.hands.baccarat import (
    banker_draws_points,
    card_value,
    player_draws_points,
    point_count,
)

__all__ = ["FIRST_FOUR", "THIRD_CARD", "first_four", "next_card_to"]


def next_card_to(player: Sequence[Card], banker: Sequence[Card]) -> str | None:
    """Which hand takes the next card after the first four (``"player"``, ``"banker"``), or
    ``None`` when both hands are complete.

    § 541.10-541.11 (titles in § 541.12(a)); the rules are read from § 631a.11: no card on a
    natural (a); the Player's Hand draws on 0-5 and stands on 6-7 (b); the Banker's Hand then
    draws on 0-5 when the Player stood (c)(1), and otherwise by its count and the value of the
    Player's third card (c)(2) and Table 1.
    """
    if len(banker) != 2 or len(player) not in (2, 3):
        return None
    # the counts of player_draws / banker_draws, on the first two cards of each hand
    two, banker_two = point_count(player[:2]), point_count(banker)
    if len(player) == 2:
        if player_draws_points(two, banker_two):
            return PLAYER
        return BANKER if banker_draws_points(two, banker_two, None) else None
    return BANKER if banker_draws_points(two, banker_two, card_value(player[2])) else None


def first_four(up: bool) -> tuple[DealStep, ...]:
    """The steps of the first four cards, face up or down (``up``)."""
    # § 627a.8(c): cards 1 and 3 to the Player's Hand, 2 and 4 to the Banker's Hand; face
    # up (c)(1), or face down (c)(2) with the Banker's cards under the shoe's corner until
    # the Player's Hand is called, per the Rules Submission.
    banker_note = "" if up else "; under the shoe corner until the Player's Hand is called"
    return (
        DealStep(to=PLAYER, face_up=up, note="card 1"),
        DealStep(to=BANKER, face_up=up, note="card 2" + banker_note),
        DealStep(to=PLAYER, face_up=up, note="card 3"),
        DealStep(to=BANKER, face_up=up, note="card 4" + banker_note),
    )


FIRST_FOUR = {up: first_four(up) for up in (False, True)}
"""The first four cards' steps, face up and face down (steps are immutable: shared)."""
THIRD_CARD = {to: DealStep(to=to, face_up=True, note=f"{to} third card") for to in (PLAYER, BANKER)}

"""A player who leaves the table during a round (§ 641a.7(b) and its counterparts).

Once a player has wagered and received cards the player stays seated until the round is over;
one who leaves anyway may have the wagers "considered abandoned and treated as losing wagers".
:class:`~croupier.games.records.AbandonWagers` does that: every wager of the seat still open
loses (``WagerSettled`` with ``Result.LOSE``), the seat takes no further part (no decision, no
settlement, no Envy Bonus for or from its hand: the hand is no longer held) and the round goes on
for the others.  A void after it returns the other seats' wagers only: the abandoned ones were
settled when the player left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.errors import IllegalAction
from croupier.games.records import (
    AbandonWagers,
    Record,
    Result,
    WagersAbandoned,
    WagerSettled,
)

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["abandon_records", "verify_abandon"]


def verify_abandon(rnd: Round, action: AbandonWagers) -> None:
    """Refused before the deal is complete, once settlement begins, or for a seat not in the
    round."""
    from croupier.games.round import Phase

    seat, section = action.seat, rnd.sections.get("seated") or None
    if rnd.phase not in (Phase.STUB_COUNT, Phase.DECISIONS, Phase.REVEAL):
        raise IllegalAction(
            f"seat {seat} cannot abandon its wagers now (phase {rnd.phase.value}): the rule is "
            "for a player who leaves after the deal and before the round is settled",
            section=section,
        )
    if seat not in rnd.active_seats:
        raise IllegalAction(f"seat {seat!r} has no wager in action this round", section=section)


def abandon_records(rnd: Round, action: AbandonWagers) -> list[Record]:
    """The seat's open wagers lose; the seat leaves the round."""
    seat = action.seat
    closed = {r.wager for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}
    new: list[Record] = [WagersAbandoned(seat=seat, section=rnd.sections.get("seated", ""))]
    new += [rnd.settle(seat, w, Result.LOSE) for w in rnd.stakes[seat] if w not in closed]
    return new

"""The one void mechanism of every round (issue 13: "voids are exact").

A round is voided by an irregularity the game's chapter names (a second card found face up in
the deck, a stub count that is wrong, ...) or by a supervisor's order (:class:`VoidRound`, e.g.
after a crash).  Either way the same function runs:

* only the wagers still open go back (``WagerSettled`` with ``Result.VOID``): a wager already
  forfeited (a fold collects the Ante and Blind at once, § 569.11(e)(2); § 571.11(a)) stays in
  the table inventory and is never returned a second time;
* the meter contributions of the progressive wagers it returns come off their meters (a
  progressive wager already forfeited keeps its contribution, as any lost progressive wager does);
* one ``RoundVoided`` record heads the return records; the phase becomes ``VOID``.

So after a void the chip books balance: every accepted wager is settled exactly once, and
``returned + paid - stake`` over the round is what the players got back net.

A supervisor's void is allowed in any phase before settlement has begun (``SeatSettling``) and
refused with :class:`~croupier.errors.IllegalAction` after it.  The regulations' texts given to
the project say nothing of a supervisor voiding a round after a system failure; this follows
the irregularity rule of each chapter ("all hands are void, all wagers returned", e.g.
§ 641a.13(b)) and returns only what is still on the layout.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.errors import IllegalAction
from croupier.games.records import (
    EnvyPaid,
    MeterChanged,
    ProgressivePaid,
    Record,
    Result,
    RoundVoided,
    SeatSettling,
    VoidRound,
    WagerSettled,
)

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["open_wagers", "settlement_begun", "verify_void_round", "void_records"]


def open_wagers(rnd: Round, extra: list[Record] | None = None) -> list[tuple[int, str]]:
    """(seat, wager) pairs in action and not yet settled, seat 1 first.

    ``extra`` holds records made by the action being carried out (not yet in the history)."""
    closed = {
        (r.seat, r.wager) for r in [*rnd._records, *(extra or [])] if isinstance(r, WagerSettled)
    }
    return [
        (seat, wager)
        for seat in rnd.active_seats
        for wager in rnd._stakes[seat]
        if (seat, wager) not in closed
    ]


def settlement_begun(rnd: Round) -> bool:
    """Whether the dealer has begun settling the round (a seat, a payout or an Envy Bonus)."""
    from croupier.games.round import Phase

    if rnd._phase in (Phase.SETTLEMENT, Phase.OVER, Phase.VOID):
        return True
    return any(isinstance(r, SeatSettling | ProgressivePaid | EnvyPaid) for r in rnd._records)


def verify_void_round(rnd: Round, action: VoidRound) -> None:
    """A supervisor's void: refused once settlement has begun."""
    if settlement_begun(rnd):
        raise IllegalAction(
            f"void ordered by {action.by!r} refused: settlement of the round has begun "
            f"(phase {rnd._phase.value}); a settled wager is not returned"
        )


def _reverse_contributions(rnd: Round, returned: list[tuple[int, str]]) -> list[Record]:
    """Take the contributions of the returned progressive wagers off their meters."""
    back: dict[str, Fraction] = {}
    for wager, spec in rnd.contribution_meters():
        if spec.name not in rnd._contributions:
            continue
        total = sum(rnd._stakes[s][w] for s, w in returned if w == wager)
        if total:
            back[spec.name] = back.get(spec.name, Fraction(0)) + spec.rate * total
    new: list[Record] = []
    for meter, owed in back.items():
        amount = min(owed, rnd._contributions[meter])
        move = rnd._meters.contribute(meter, -amount)
        rnd._contributions[meter] -= amount
        new.append(MeterChanged(meter=meter, before=move.before, after=move.after, reason="void"))
    return new


def void_records(
    rnd: Round,
    reason: str,
    section: str,
    *,
    deck_removed: bool = False,
    by: str = "",
    extra: list[Record] | None = None,
) -> list[Record]:
    """Void ``rnd``: the records of the void (the phase becomes ``VOID``)."""
    from croupier.games.round import Phase

    returned = open_wagers(rnd, extra)
    new: list[Record] = [
        RoundVoided(reason=reason, section=section, deck_removed=deck_removed, by=by)
    ]
    new += _reverse_contributions(rnd, returned)
    new += [rnd.settle(seat, wager, Result.VOID) for seat, wager in returned]
    rnd._phase = Phase.VOID
    return new

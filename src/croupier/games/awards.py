"""Progressive awards and Envy Bonuses, the settlement steps every game with a progressive shares
(the methods :meth:`~croupier.games.round.Round.award_progressive` and
:meth:`~croupier.games.round.Round.award_envy` call these; their docstrings give the sections).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from croupier.games.paytables import EnvySchedule, PayLine
from croupier.games.records import (
    EnvyPaid,
    MeterChanged,
    ProgressivePaid,
    Record,
    Result,
    WagerSettled,
)
from croupier.progressive import MeterSpec

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["award_envy", "award_progressive"]


def award_progressive(
    rnd: Round,
    seat: int,
    wager: str,
    line: PayLine | None,
    spec: MeterSpec | None,
    *,
    lose_line: str = "",
    settle: Callable[..., WagerSettled] | None = None,
) -> list[Record]:
    """:meth:`Round.award_progressive <croupier.games.round.Round.award_progressive>`."""
    close = settle or rnd.settle
    if line is None:
        return [close(seat, wager, Result.LOSE, line=lose_line)]
    new: list[Record] = []
    meter = spec.name if spec is not None else ""
    if line.meter_share is not None:
        assert spec is not None, f"{wager} line {line.hand} pays a meter share: give the meter"
        move = rnd._meters.pay(spec.name, line.meter_share, spec.reset)
        new.append(
            MeterChanged(meter=spec.name, before=move.before, after=move.after, reason="award")
        )
        amount, from_meter = move.paid, line.meter_share >= 1
    else:
        assert line.odds is not None
        amount, from_meter = line.odds.returned(rnd._stakes[seat][wager]), False
    new.append(
        ProgressivePaid(
            seat=seat, meter=meter, line=line.hand, amount=amount, from_meter=from_meter
        )
    )
    new.append(close(seat, wager, Result.WIN, paid=amount, line=line.hand))
    return new


def award_envy(
    rnd: Round,
    seat: int,
    schedule: EnvySchedule | None,
    keys_of: Callable[[int], frozenset[str]],
    *,
    wager: str = "progressive",
) -> list[Record]:
    """:meth:`Round.award_envy <croupier.games.round.Round.award_envy>`."""
    if schedule is None:
        return []
    own = rnd._stakes[seat][wager]
    new: list[Record] = []
    for other in rnd.active_seats:
        if rnd._players[other] == rnd._players[seat] or not rnd.hand_held(other):
            continue
        line = schedule.line_for(own, keys_of(other))
        if line is not None and line.amount is not None:
            new.append(EnvyPaid(seat=seat, for_seat=other, line=line.hand, amount=line.amount))
    return new

"""The one loop that plays a round to its end: :func:`play_out`.

The table, the simulator, the demo, the terminal game and the scenarios all play a round the same
way once "no more bets" is called: chance and the dealer act by themselves
(:meth:`~croupier.games.round.Round.run_dealer`), and each seat's decision comes from a
*strategy*, ``strategy(round, seat) -> Action`` (a solver's optimal play, a house player's simple
rule, a person at a terminal, a scenario's written decisions).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import Action, Record
from croupier.games.round import Actor, ActorKind, Phase

__all__ = ["Playable", "play_out"]


class Playable(Protocol):
    """What :func:`play_out` needs of a round (a :class:`~croupier.games.round.Round`, or the
    store's tracked round that records each action as it is applied)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def phase(self) -> Phase: ...

    def to_act(self) -> Actor: ...

    def run_dealer(self) -> tuple[Record, ...]: ...

    def apply(self, action: Action) -> tuple[Record, ...]: ...


R = TypeVar("R", bound=Playable)


def play_out(rnd: R, strategy: Callable[[R, int], Action]) -> int:
    """Play ``rnd`` to its end, asking ``strategy(rnd, seat)`` for each seat's decision; returns
    how many decisions were made.

    A decision the round refuses raises its typed error and leaves the round where it stood (the
    refused action changes nothing); a strategy that returns something other than an action is
    refused as :class:`~croupier.core.errors.InvalidInput`; a round that cannot go on by itself (its
    wagers still open) is refused as :class:`~croupier.core.errors.IllegalAction`.
    """
    decisions = 0
    while not rnd.is_over:
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            decision = strategy(rnd, actor.seat)
            if not isinstance(decision, Action):
                raise InvalidInput(
                    f"strategy returned {decision!r} for seat {actor.seat}, not an action"
                )
            rnd.apply(decision)
            decisions += 1
        elif not rnd.run_dealer():
            raise IllegalAction(
                f"the round cannot go on by itself (phase {rnd.phase.value}, {actor} to act)"
            )
    return decisions

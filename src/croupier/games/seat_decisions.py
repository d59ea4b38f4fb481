"""The players' decisions in a round: who has decided at the stage now due, who has folded.
A collaborator of :class:`~croupier.games.round.Round` (issue 37: each class owns its state).

It changes only by its verified moves (``verify_<x>`` raises, ``<x>`` calls it first):
:meth:`decide` (a seat makes the decision now due: a Play, a check, a bet), :meth:`fold` (a
seat forfeits its hand) and :meth:`next_stage` (a street's decisions are over).  Whose turn it
is, and which decisions a game offers, are the game's rules (``next_decider``); these check
only what is their own: a seat decides once a stage, and a folded hand is out of the rest.
"""

from __future__ import annotations

from collections.abc import KeysView

from croupier.core.errors import IllegalAction

__all__ = ["Decisions"]


class Decisions:
    """Seats that have decided at the stage now due, and seats that have folded."""

    __slots__ = ("_decided", "_decided_view", "_folded", "_folded_view")
    _decided: dict[int, None]
    _folded: dict[int, None]
    _decided_view: KeysView[int]
    _folded_view: KeysView[int]

    def __init__(self) -> None:
        # each a dict's keys: in the order the seats came, read through a live read-only view
        self._decided = {}
        self._folded = {}
        self._decided_view = self._decided.keys()
        self._folded_view = self._folded.keys()

    def __repr__(self) -> str:
        return f"Decisions(decided={sorted(self._decided)}, folded={sorted(self._folded)})"

    @property
    def decided(self) -> KeysView[int]:
        """Seats that have made the decision now due (cleared at each new stage): a read-only
        view, kept up to date (the same view every time: a round holds it)."""
        return self._decided_view

    @property
    def folded(self) -> KeysView[int]:
        """Seats that folded this round (a fold is never undone): a read-only view, kept up to
        date (the same view every time: a round holds it)."""
        return self._folded_view

    def verify_decide(self, seat: int) -> None:
        """Refuse a second decision of ``seat`` at this stage, or any of a folded seat."""
        if seat in self._folded:
            raise IllegalAction(f"seat {seat} has folded and makes no further decision")
        if seat in self._decided:
            raise IllegalAction(f"seat {seat} has already decided at this stage")

    def decide(self, seat: int) -> None:
        """``seat`` makes the decision now due."""
        self.verify_decide(seat)
        self._decided[seat] = None

    def fold(self, seat: int) -> None:
        """``seat`` folds: its decision now, and out of every later one."""
        self.verify_decide(seat)
        self._decided[seat] = None
        self._folded[seat] = None

    def next_stage(self) -> None:
        """The stage's decisions are over: every seat still in decides afresh at the next."""
        self._decided.clear()

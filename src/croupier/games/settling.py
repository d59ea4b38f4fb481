"""The settlement of a round as it goes: the seats settled, in order.
A collaborator of :class:`~croupier.games.round.Round` (issue 37: each class owns its state).

It changes only by its verified move (``verify_settle`` raises, ``settle`` calls it first): a
seat is settled once.  The order the seats are settled in is the game's rule (the round's
``_settlement_order``).
"""

from __future__ import annotations

from collections.abc import KeysView

from croupier.core.errors import IllegalAction

__all__ = ["Settling"]


class Settling:
    """Seats settled so far, in the order they were settled."""

    __slots__ = ("_settled", "_settled_view")
    _settled: dict[int, None]
    _settled_view: KeysView[int]

    def __init__(self) -> None:
        self._settled = {}  # a dict's keys: in the order settled, read through a live view
        self._settled_view = self._settled.keys()

    def __repr__(self) -> str:
        return f"Settling(settled={list(self._settled)})"

    @property
    def settled(self) -> KeysView[int]:
        """Seats settled so far, in the order they were settled: a read-only view, kept up to
        date (the same view every time: a round holds it)."""
        return self._settled_view

    def verify_settle(self, seat: int) -> None:
        """Refuse to settle a seat twice."""
        if seat in self._settled:
            raise IllegalAction(f"seat {seat} is already settled this round")

    def settle(self, seat: int) -> None:
        """``seat``'s settlement is done."""
        self.verify_settle(seat)
        self._settled[seat] = None

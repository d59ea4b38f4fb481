"""The wagers in action in a round, by seat: the first of :class:`~croupier.games.round.Round`'s
collaborators (issue 37: each class owns its state).

A :class:`Stakes` is read through :attr:`Stakes.by_seat`, seat -> {wager: cents}: a read-only
view (``MappingProxyType``) over the stakes' own dicts, read at a dict's speed (a dict subclass
reads ``[]`` and ``in`` through Python-level slots).  It changes only by its verified moves,
each written once (``verify_<x>`` raises, ``<x>`` calls it first): :meth:`place` (a wager
before "no more bets"), :meth:`add` (a decision wager of a seat in action: a Play, a street
bet), :meth:`withdraw` (a wager taken down where the game allows it) and :meth:`abandon` (a
player who leaves mid-round, § 641a.7(b) and its counterparts).  The rules of the game (the
phase, the seat's player, the posted limits) are the round's; the stakes check only what is
their own: a wager is placed once, a decision wager is made by a seat in action, a departure is
of a seat in the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from croupier.core.errors import IllegalAction, InvalidInput

__all__ = ["Stakes"]

_NONE: Mapping[str, int] = MappingProxyType({})


class Stakes:
    """The wagers in action this round, by seat (:attr:`by_seat`; changed by verified moves).

    A seat enters with its first wager and never leaves :attr:`by_seat`; a seat whose player
    left mid-round stays in it (its wagers were settled as lost) but is out of
    :attr:`in_action`."""

    __slots__ = ("_abandoned", "_active", "_by_seat", "_views", "_wagers")
    _wagers: dict[int, dict[str, int]]
    _views: dict[int, Mapping[str, int]]
    _abandoned: set[int]
    _active: tuple[int, ...] | None
    _by_seat: Mapping[int, Mapping[str, int]]

    def __init__(self) -> None:
        self._wagers = {}
        self._views = {}
        self._by_seat = MappingProxyType(self._views)
        self._abandoned = set()
        self._active = None

    def __repr__(self) -> str:
        return f"Stakes({self._wagers!r}, abandoned={sorted(self._abandoned)})"

    # -- reads ---------------------------------------------------------------------------------

    @property
    def by_seat(self) -> Mapping[int, Mapping[str, int]]:
        """Seat -> its wagers in action, wager -> cents: a read-only view, kept up to date (the
        same view every time: a round holds it)."""
        return self._by_seat

    @property
    def in_action(self) -> tuple[int, ...]:
        """Seats with a wager in this round, seat 1 (the dealer's far left) first; a seat whose
        player left mid-round is out of it."""
        active = self._active
        if active is None:
            # the seats of the stakes are betting positions: sorted, they are in seat order
            gone = self._abandoned
            seats = []
            for seat, placed in self._wagers.items():  # a loop: no generator to make
                if placed and seat not in gone:
                    seats.append(seat)
            seats.sort()
            active = self._active = tuple(seats)
        return active

    @property
    def abandoned(self) -> frozenset[int]:
        """Seats whose player left mid-round (their wagers were settled as lost)."""
        return frozenset(self._abandoned)

    def of(self, seat: int) -> Mapping[str, int]:
        """The wagers of ``seat`` (none where it has not wagered)."""
        return self._views.get(seat, _NONE)

    def total(self, wager: str) -> int:
        """The cents wagered on ``wager`` by the seats in action."""
        wagers = self._wagers
        return sum(wagers[s].get(wager, 0) for s in self.in_action)

    # -- moves ---------------------------------------------------------------------------------

    def verify_place(self, seat: int, wager: str, amount: int) -> None:
        """Refuse a second ``wager`` at ``seat``, or an amount that is not a positive number of
        cents (the round's rules come first: :meth:`Round._verify_place_wager`)."""
        if type(amount) is not int and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise InvalidInput(f"{wager} wager of {amount!r} cents is not a whole amount")
        if amount <= 0:
            raise InvalidInput(f"{wager} wager of {amount!r} cents is not a positive amount")
        placed = self._wagers.get(seat)
        if placed is not None and wager in placed:
            raise IllegalAction(
                f"seat {seat} already has a {wager} wager; a wager is placed once",
            )

    def place(self, seat: int, wager: str, amount: int) -> None:
        """``seat`` wagers ``amount`` cents on ``wager`` (verified by :meth:`verify_place`)."""
        self.verify_place(seat, wager, amount)
        placed = self._wagers.get(seat)
        if placed is None:
            self._active = None  # a new seat enters the round
            placed = self._wagers[seat] = {}
            self._views[seat] = MappingProxyType(placed)
        placed[wager] = amount

    def verify_add(self, seat: int, wager: str, amount: int) -> None:
        """Refuse a decision wager of a seat not in action, or one it has already made."""
        if seat not in self.in_action:
            raise IllegalAction(f"seat {seat!r} has no wager in action this round")
        self.verify_place(seat, wager, amount)

    def add(self, seat: int, wager: str, amount: int) -> None:
        """A seat in action makes the decision wager ``wager`` (a Play, a street bet)."""
        self.verify_add(seat, wager, amount)
        self._wagers[seat][wager] = amount

    def verify_withdraw(self, seat: int, wager: str) -> None:
        """Refuse to take down a wager that is not in action at ``seat``."""
        placed = self._wagers.get(seat)
        if seat not in self.in_action or placed is None or wager not in placed:
            raise IllegalAction(f"seat {seat!r} has no {wager} wager in action to take down")

    def withdraw(self, seat: int, wager: str) -> None:
        """``seat`` takes down ``wager`` where the game allows it (Let It Ride's Bets Number 1
        and 2, § 643a.11(b), (d)): it is no longer in action."""
        self.verify_withdraw(seat, wager)
        placed = self._wagers[seat]
        del placed[wager]
        if not placed:
            self._active = None  # its last wager: the seat is out of the round

    def verify_abandon(self, seat: int) -> None:
        """Refuse the departure of a seat that is not in the round."""
        if seat not in self.in_action:
            raise IllegalAction(f"seat {seat!r} has no wager in action this round")

    def abandon(self, seat: int) -> None:
        """The player at ``seat`` left mid-round: the seat is out of :attr:`in_action`."""
        self.verify_abandon(seat)
        self._abandoned.add(seat)
        self._active = None

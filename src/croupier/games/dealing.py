"""The cards of a round: the shoe it deals from, the cards due, the cards dealt to each hand.
A collaborator of :class:`~croupier.games.round.Round` (issue 37: each class owns its state).

A :class:`Deal` is read through :attr:`Deal.hands`, hand -> the cards dealt to it in order
(``"1"``..``"7"`` for the seats, ``"dealer"``, ``"board"``, baccarat's ``"player"`` and
``"banker"``), each an immutable tuple, in a read-only view (``MappingProxyType``).  It changes
only by its verified moves (``verify_<x>`` raises, ``<x>`` calls it first): :meth:`plan` (the
cards of a dealing stage), :meth:`deal` (the next card due), :meth:`deal_stage` (every card
due, where the shoe holds them all) and :meth:`discard` (a card found face up in the deck,
§ 641a.13(a) and its counterparts).  The shoe's order is never read here: cards leave it only
by these moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction
from croupier.games.states import DealStep
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import BackColour, Shoe

__all__ = ["Deal"]


class Deal:
    """The cards dealt this round, by hand (:attr:`hands`), the steps still due and the shoe
    they come from."""

    __slots__ = ("_due", "_face_up_found", "_hands", "_hands_view", "_last", "_shoe")
    _shoe: Shoe
    _due: list[DealStep]
    _face_up_found: int
    _hands: dict[str, tuple[Card, ...]]
    _hands_view: Mapping[str, tuple[Card, ...]]
    _last: str | None
    """Where the last card of the stage being dealt went (``None``: none of it is dealt yet)."""

    def __init__(self, shoe: Shoe) -> None:
        self._shoe = shoe
        self._due = []
        self._face_up_found = 0
        self._hands = {}
        self._hands_view = MappingProxyType(self._hands)
        self._last = None

    def __repr__(self) -> str:
        return f"Deal({self._hands!r}, due={len(self._due)})"

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError("a round's deal is not copied (its shoe's order is secret)")

    # -- reads ---------------------------------------------------------------------------------

    @property
    def hands(self) -> Mapping[str, tuple[Card, ...]]:
        """Hand -> the cards dealt to it, in order: a read-only view, kept up to date (the same
        view every time: a round holds it)."""
        return self._hands_view

    @property
    def shoe(self) -> Shoe:
        """The shoe dealt from: the server side persists its order (:mod:`croupier.store.shoes`);
        a round's views show only :attr:`cards_left` and :attr:`back`."""
        return self._shoe

    @property
    def cards_left(self) -> int:
        return len(self._shoe)

    @property
    def back(self) -> BackColour | None:
        return self._shoe.back

    @property
    def due(self) -> int:
        """How many cards the stage being dealt still owes."""
        return len(self._due)

    @property
    def next_step(self) -> DealStep | None:
        """The step of the next card due (``None``: none is due)."""
        return self._due[0] if self._due else None

    @property
    def face_up_found(self) -> int:
        """Cards found face up in the deck this round."""
        return self._face_up_found

    def stub_count(self) -> int:
        """The dealer's count of the cards left after the deal (§ 641a.8(h))."""
        return self._shoe.stub_count()

    def stub_expected(self) -> int:
        return self._shoe.stub_expected()

    # -- moves ---------------------------------------------------------------------------------

    def verify_plan(self, steps: Sequence[DealStep]) -> None:
        """Refuse a stage while cards of another are still due."""
        if self._due:
            raise IllegalAction(f"{len(self._due)} cards of the stage being dealt are still due")

    def plan(self, steps: Sequence[DealStep]) -> None:
        """The cards of the next dealing stage, in the order they leave the shoe."""
        self.verify_plan(steps)
        self._due = list(steps)
        self._last = None

    def verify_deal(self) -> None:
        """Refuse a card when none is due or the shoe is empty."""
        if not self._due:
            raise IllegalAction("no card is due to be dealt")
        if len(self._shoe) == 0:
            raise IllegalAction("the shoe is empty")

    def deal(self) -> tuple[Card, DealStep]:
        """The next card due leaves the shoe for its hand."""
        self.verify_deal()
        step = self._due.pop(0)
        card = self._shoe.deal()
        self._give(step.to, card)
        self._last = step.to
        return card, step

    def verify_deal_stage(self) -> None:
        """Refuse to deal a stage at once when no card is due or the shoe holds fewer cards than
        are due (then they are dealt one by one, refused where the shoe runs out)."""
        self.verify_deal()
        if len(self._shoe) < len(self._due):
            raise IllegalAction(
                f"the shoe holds {len(self._shoe)} cards, fewer than the {len(self._due)} due"
            )

    def deal_stage(self) -> tuple[tuple[Card, ...], tuple[DealStep, ...]]:
        """Every card due leaves the shoe together, each for its hand in the plan's order."""
        self.verify_deal_stage()
        steps = tuple(self._due)
        cards = self._shoe.deal_many(len(steps))  # as many cards as steps
        hands = self._hands
        for card, step in zip(cards, steps):  # noqa: B905 (equal lengths, dealt so just above)
            held = hands.get(step.to)
            hands[step.to] = (card,) if held is None else (*held, card)
        self._due.clear()
        self._last = steps[-1].to
        return cards, steps

    @property
    def last_to(self) -> str | None:
        """Where the last card of the stage being dealt went (``None``: none is dealt yet)."""
        return self._last

    def verify_correct(self, card: Card) -> None:
        """Refuse a correction where no card of this stage is dealt, or the shoe is not one
        whose cards are reported (croupier's own shuffle misreads nothing)."""
        if self._last is None:
            raise IllegalAction("no card of the stage being dealt is there to correct")
        if not isinstance(self._shoe, ReportedShoe):
            raise IllegalAction("the cards come from croupier's own shuffle: none is misread")
        self._shoe.verify_correct(card)

    def correct(self, card: Card) -> tuple[Card, str]:
        """The last card dealt was misread: it is ``card``.  Returns the card read and where
        the card went."""
        self.verify_correct(card)
        assert isinstance(self._shoe, ReportedShoe) and self._last is not None
        was = self._shoe.correct(card)
        held = self._hands[self._last]
        self._hands[self._last] = (*held[:-1], card)
        return was, self._last

    def verify_discard(self) -> None:
        """Refuse to discard a card from an empty shoe."""
        if len(self._shoe) == 0:
            raise IllegalAction("the shoe is empty")

    def discard(self) -> Card | None:
        """A card is found face up in the deck: the first is discarded (returned); a second
        (``None``) voids the round, which the round's rules carry out."""
        self.verify_discard()
        self._face_up_found += 1
        return self._shoe.deal() if self._face_up_found == 1 else None

    def _give(self, to: str, card: Card) -> None:
        held = self._hands.get(to)
        self._hands[to] = (card,) if held is None else (*held, card)

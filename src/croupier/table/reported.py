"""Where a table's cards come from, and the shoe of real cards whose order nobody knows
(issue 39): a card-reading shoe or the dealer's keypad reports each card as it leaves.

:class:`~croupier.core.shapes.CardSource` is a table's choice (``[table] cards``);
:class:`ReportedShoe` is the shoe a round deals from at a ``reader`` or ``keypad`` table (the
round's moves: :mod:`croupier.games.reported_cards`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput, Irregularity, shown_value
from croupier.table.shoe import STUB_COUNT_SECTION, BackColour, Shoe, shoe_cards

__all__ = ["ReportedShoe"]


class ReportedShoe(Shoe):
    """A shoe of real cards whose order nobody knows in advance: a reader or the dealer reports
    each card as it leaves (:meth:`report`), and :meth:`deal` deals the card reported first.

    Its stack is the cards not yet seen, in no order that means anything; the count of the stub
    (:meth:`stub_count`, :meth:`stub_expected`) is as any shoe's.  A card reported more often than
    the decks hold is never dealt: :meth:`holds` says whether the unseen cards still hold it (the
    round decides what the chapter says of it).  ``reported``: the cards a hand history shows
    leaving the shoe, in order (the audit's rebuild of a round whose cards were reported).

    A shoe dealt over many rounds (a baccarat shoe of real cards, issue 39) knows the cards gone
    in its earlier rounds (:meth:`carry`): they are no longer among the unseen, and the stub is
    counted without them (nor the cards burned face down when the shoe was opened).
    """

    __slots__ = ("_carried", "_reported", "_unseen_burned")

    def __init__(
        self,
        *,
        decks: int = 1,
        back: BackColour | None = None,
        reported: Sequence[Card] = (),
    ) -> None:
        unseen = shoe_cards(decks)  # refused there unless 1 to 8 decks
        self._fill(unseen, decks, back, None)
        if isinstance(reported, str) or not all(isinstance(c, Card) for c in reported):
            raise InvalidInput(
                f"reported cards {shown_value(reported)} are not a sequence of cards"
            )
        self._reported: deque[Card] = deque(reported)
        self._carried: tuple[Card, ...] | None = None
        """The cards gone in earlier rounds of the shoe (``None``: a shoe of this round only)."""
        self._unseen_burned = 0

    @property
    def carried(self) -> tuple[Card, ...] | None:
        """The cards gone in earlier rounds of the shoe (``None``: never carried)."""
        return self._carried

    def _unseen_after(self, gone: Sequence[Card], burned: object) -> list[Card]:
        """The unseen cards were ``gone`` and ``burned`` taken first (nothing changed)."""
        if isinstance(burned, bool) or not isinstance(burned, int) or burned < 0:
            raise InvalidInput(f"burned cards {shown_value(burned)} is not a count")
        if isinstance(gone, str) or not all(isinstance(c, Card) for c in gone):
            raise InvalidInput(f"cards gone {shown_value(gone)} are not a sequence of cards")
        unseen = list(shoe_cards(self._decks))
        for card in (*self._dealt, *self._burned, *gone):
            if card not in unseen:
                raise Irregularity(
                    f"{card} has left the shoe more often than {self._decks} deck(s) hold "
                    f"({len(gone)} card(s) gone in the shoe's earlier rounds)",
                    section=STUB_COUNT_SECTION,
                )
            unseen.remove(card)
        if burned > len(unseen):
            raise IllegalAction(f"{burned} cards burned but {len(unseen)} are left unseen")
        return unseen

    def verify_carry(self, gone: Sequence[Card], burned: int = 0) -> None:
        """Refuse what :meth:`carry` refuses."""
        self._unseen_after(gone, burned)

    def carry(self, gone: Sequence[Card], burned: int = 0) -> None:
        """This round deals on from a shoe whose earlier rounds took ``gone`` (cards seen) and
        ``burned`` cards face down, unseen: the unseen cards are the decks less ``gone`` and the
        cards this round dealt.  A card ``gone`` more often than the decks hold (with this
        round's) is an irregularity; nothing changes then."""
        self._stack = self._unseen_after(gone, burned)
        self._carried = tuple(gone)
        self._unseen_burned = burned

    def stub_expected(self, expected: int | None = None) -> int:
        carried = len(self._carried or ()) + self._unseen_burned
        return super().stub_expected(expected) - carried

    def stub_count(self) -> int:
        return len(self._stack) - self._unseen_burned

    def __len__(self) -> int:
        return self.stub_count()  # the cards burned unseen are out of the shoe

    @property
    def pending(self) -> int:
        """Cards reported and not yet dealt."""
        return len(self._reported)

    def holds(self, card: Card) -> bool:
        """Whether the cards not yet seen (nor reported) still hold ``card``."""
        return self._stack.count(card) > self._reported.count(card)

    def verify_report(self, card: object) -> Card:
        """Refuse what is not a card, or a card the decks no longer hold (an irregularity)."""
        if not isinstance(card, Card):
            raise InvalidInput(f"reported card {shown_value(card)} is not a card")
        if not self.holds(card):
            raise Irregularity(
                f"{card} is reported more often than {self._decks} deck(s) hold ({self._state()})",
                section=STUB_COUNT_SECTION,
            )
        return card

    def report(self, card: Card) -> None:
        """``card`` left the shoe: the next :meth:`deal` deals it."""
        self._reported.append(self.verify_report(card))

    def _take(self, count: int) -> tuple[Card, ...]:
        if count > len(self._reported):
            raise IllegalAction(
                f"{count} card(s) are due but {len(self._reported)} reported: the reader or the "
                "dealer reports each card as it leaves the shoe"
            )
        cards = tuple(self._reported.popleft() for _ in range(count))
        for card in cards:
            self._stack.remove(card)
        return cards

    def deal(self) -> Card:
        """The card reported first, dealt."""
        card = self._take(1)[0]
        self._dealt.append(card)
        return card

    def recut(self, position: int) -> None:
        raise IllegalAction("the cards of a reported shoe are cut at the table, not by croupier")

    def verify_correct(self, card: object) -> Card:
        """Refuse a correction when no card has been dealt, or to a card the decks no longer
        hold."""
        if not self._dealt:
            raise IllegalAction("no card has been dealt to correct")
        if not isinstance(card, Card):
            raise InvalidInput(f"corrected card {shown_value(card)} is not a card")
        if card == self._dealt[-1]:
            raise InvalidInput(f"the card dealt is {card} already; nothing to correct")
        if not self.holds(card):
            raise Irregularity(
                f"{card} is not among the cards not yet seen: {self._decks} deck(s) hold no "
                "other copy",
                section=STUB_COUNT_SECTION,
            )
        return card

    def correct(self, card: Card) -> Card:
        """The last card dealt was misread: it is ``card``; the card read goes back among the
        unseen.  Returns the card read."""
        self.verify_correct(card)
        was = self._dealt[-1]
        self._stack.remove(card)
        self._stack.append(was)
        self._dealt[-1] = card
        return was

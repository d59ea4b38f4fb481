"""Cards from outside: a table whose cards a reader or the dealer's keypad reports (issue 39).

With croupier's own shuffle the server knows the order before the deal
(:class:`~croupier.table.shoe.Shoe`); at a table of real cards nobody does.  The round's shoe is
then a :class:`~croupier.table.shoe.ReportedShoe` and each card comes in as a
:class:`ReportCard`: it is taken as the next card due and checked against what the rules and the
deck know.  What a physical deal can do wrong is an irregularity with the chapter's consequence
(the game's ``sections`` name each rule; Four Card Poker's are cited here):

=============================================  =================================================
a card reported when none is due (a card too   the round is void for every player, the wagers
many to a position; § 641a.13(c))             returned (:class:`CardRefused`)
a card more often than the decks hold (the     the round is void and the deck removed from the
deck is wrong; § 641a.8(f), (h))               table (:class:`CardRefused`)
a card found face up in the deck               the first is discarded, a second voids the round
(§ 641a.13(a))                                 (``found=face_up_in_deck``; the round's own rule)
a misread the dealer corrects, before the      the round goes on with the right card; the
next card (:class:`CorrectCard`)               correction is recorded (:class:`CardCorrected`)
the stub reported short of the cards the       a card left the shoe unreported (too few to a
system dealt, or cards still due when the      position): void for every player, § 641a.13(c);
stub is reported (:class:`ReportStub`)         a stub longer than it can be: void, the deck
                                               removed (§ 641a.8(h))
=============================================  =================================================

Every change is a frozen record whose ``to_action`` gives the input back, so
:func:`~croupier.games.rebuild.rebuild_round` (the audit) replays such a round.  A reported card
that is accepted is an ordinary ``CardDealt``: the replay deals it from the cards the records
show leaving the shoe.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction
from croupier.games.records import (
    Action,
    CardDealt,
    DealNext,
    IrregularityKind,
    Record,
    ReportIrregularity,
)
from croupier.games.states import Phase
from croupier.table.reported import ReportedShoe

if TYPE_CHECKING:
    from croupier.games.dealing import Deal

__all__ = [
    "REPORTED_RECORDS",
    "CardCorrected",
    "CardFound",
    "CardRefused",
    "CarryShoe",
    "Consequence",
    "CorrectCard",
    "ReportCard",
    "ReportStub",
    "ReportedCards",
    "ShoeCarried",
    "StubReported",
]

_DEAL_NEXT = DealNext()
_BEFORE_REVEAL = (Phase.DEALING, Phase.STUB_COUNT, Phase.DECISIONS)
_BEFORE_CARDS = (Phase.BETTING, Phase.COUNT_HELD, Phase.DEALING)


class Consequence(StrEnum):
    """What the chapter does with a round whose deal went wrong."""

    VOID = "round void"
    """All hands void, all wagers returned (§ 641a.13(c))."""
    DECK_REMOVED = "round void, deck removed"
    """Void, and the deck removed from the table: its cards are not the deck's (§ 641a.8(h))."""


class CardFound(StrEnum):
    """How a reported card left the shoe."""

    DEALT = "dealt"
    """Dealt to the place the procedure names next."""
    FACE_UP_IN_DECK = "face_up_in_deck"
    """Found face up in the shoe or the deck (§ 641a.13(a))."""


@dataclass(frozen=True, kw_only=True)
class ReportCard(Action):
    """The reader or the dealer reports the next card out of the shoe."""

    name: ClassVar[str] = "report_card"
    card: Card
    found: CardFound = CardFound.DEALT


@dataclass(frozen=True, kw_only=True)
class CorrectCard(Action):
    """The dealer corrects the last card reported (a misread), before the next card."""

    name: ClassVar[str] = "correct_card"
    card: Card


@dataclass(frozen=True, kw_only=True)
class ReportStub(Action):
    """The reader or the dealer reports the cards left in the shoe (the stub) after the deal."""

    name: ClassVar[str] = "report_stub"
    count: int


@dataclass(frozen=True, kw_only=True)
class CarryShoe(Action):
    """The round deals on from a shoe of real cards dealt over many rounds (a baccarat shoe):
    ``gone``, the cards seen leaving it before this round, and ``burned`` face down, unseen,
    when it was opened.  Before the round's first card."""

    name: ClassVar[str] = "carry_shoe"
    gone: tuple[Card, ...]
    burned: int = 0


@dataclass(frozen=True, kw_only=True)
class ShoeCarried(Record):
    """The round's shoe carries the cards gone in the shoe's earlier rounds (:class:`CarryShoe`):
    a card reported more often than the decks hold across rounds is refused as within one."""

    kind: ClassVar[str] = "shoe_carried"
    gone: tuple[Card, ...]
    burned: int = 0

    def to_action(self) -> Action:
        return CarryShoe(gone=self.gone, burned=self.burned)


@dataclass(frozen=True, kw_only=True)
class CardCorrected(Record):
    """The last card dealt, reported as ``was``, is ``card`` (at ``to``)."""

    kind: ClassVar[str] = "card_corrected"
    card: Card
    was: Card
    to: str
    face_up: bool = False

    def to_action(self) -> Action:
        return CorrectCard(card=self.card)


@dataclass(frozen=True, kw_only=True)
class CardRefused(Record):
    """A reported card the deal cannot take: the irregularity and its consequence (the records
    of the void follow)."""

    kind: ClassVar[str] = "card_refused"
    card: Card
    irregularity: IrregularityKind
    section: str
    consequence: str

    def to_action(self) -> Action:
        return ReportCard(card=self.card)


@dataclass(frozen=True, kw_only=True)
class StubReported(Record):
    """The stub reported after the deal, and the count the cards dealt leave (``expected``)."""

    kind: ClassVar[str] = "stub_reported"
    count: int
    expected: int
    section: str = ""
    consequence: str = ""

    def to_action(self) -> Action:
        return ReportStub(count=self.count)


REPORTED_RECORDS = (CardCorrected, CardRefused, ShoeCarried, StubReported)
"""The records only a round whose cards are reported makes (its rebuild deals them so)."""


class ReportedCards:
    """The moves of a round whose cards are reported (a base of
    :class:`~croupier.games.round.Round`; the round's own state, its collaborators' moves)."""

    if TYPE_CHECKING:  # the round's own state and procedures (Round provides them)
        _deal: Deal
        _phase: Phase
        _records: list[Record]

        def _void(self, reason: str, section: str, *, deck_removed: bool = ...) -> list[Record]: ...

        def _do_deal(self, action: DealNext) -> list[Record]: ...

        def _do_irregularity(self, action: ReportIrregularity) -> list[Record]: ...

        def _verify_irregularity(self, action: ReportIrregularity) -> None: ...

        def _stage_end_correctable(self) -> bool: ...

        def _section(self, key: str) -> str: ...

        def _stub_counted(self) -> list[Record]: ...

    def next_card(self) -> tuple[str, int, bool] | None:
        """Where the next card due goes, which card of that place it is (1 for the first) and
        whether it is dealt face up: what the keypad names ("seat 3, second card")."""
        step = self._deal.next_step if self._phase is Phase.DEALING else None
        if step is None:
            return None
        return step.to, len(self._deal.hands.get(step.to, ())) + 1, step.face_up

    # -- a card reported ---------------------------------------------------------------------

    def _verify_report_card(self, action: ReportCard) -> None:
        """A card is reported between "no more bets" and the reveal; the shoe must be one whose
        cards are reported."""
        if self._phase not in _BEFORE_REVEAL:
            raise IllegalAction(
                f"{action.card} reported in phase {self._phase.value}: cards are reported "
                'between "no more bets" and the reveal'
            )
        if not isinstance(self._deal.shoe, ReportedShoe):
            raise IllegalAction("this round deals from croupier's own shuffle; no card is reported")
        if action.found is CardFound.FACE_UP_IN_DECK:
            self._verify_irregularity(
                ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK)
            )

    def _do_report_card(self, action: ReportCard) -> list[Record]:
        card, shoe = action.card, self._deal.shoe
        assert isinstance(shoe, ReportedShoe)
        if not shoe.holds(card):
            # § 641a.8(h): a deck whose cards are not the deck's (not a misdeal): the hands are
            # void, the wagers returned and the deck removed from the table
            section = self._section("stub_count")
            what = f"{card} seen more often than {shoe.decks} deck(s) hold"
            kind = IrregularityKind.WRONG_CARD_COUNT
            return self._refused(card, kind, section, what, Consequence.DECK_REMOVED)
        if action.found is CardFound.FACE_UP_IN_DECK:
            shoe.report(card)  # § 641a.13(a): the round's rule discards it (a second voids)
            kind = IrregularityKind.CARD_FACE_UP_IN_DECK
            return self._do_irregularity(ReportIrregularity(kind=kind))
        if self._phase is not Phase.DEALING or not self._deal.due:
            # § 641a.13(c): a player or the dealer dealt an incorrect number of cards
            section = self._section("wrong_card_count")
            what = f"{card} dealt when no card is due: a card too many"
            kind = IrregularityKind.WRONG_CARD_COUNT
            return self._refused(card, kind, section, what, Consequence.VOID)
        shoe.report(card)
        return self._do_deal(_DEAL_NEXT)

    def _refused(
        self, card: Card, kind: IrregularityKind, section: str, what: str, then: Consequence
    ) -> list[Record]:
        head: list[Record] = [
            CardRefused(card=card, irregularity=kind, section=section, consequence=then.value)
        ]
        return head + self._void(what, section, deck_removed=then is Consequence.DECK_REMOVED)

    # -- a misread corrected -----------------------------------------------------------------

    def _verify_correct_card(self, action: CorrectCard) -> None:
        """Only the last card dealt, and only before anything else happens at the table (the
        next card, a decision): the round's last record is that card.  A card that ended a
        stage whose end the game acts on (baccarat's third-card rule, a street's next plan) is
        not corrected: the dealer reports the irregularity instead.  This rule is the
        house's (issue 39: a keyed or read card is corrected only before the next card); the
        chapters do not speak of card readers."""
        last = self._records[-1] if self._records else None
        if not isinstance(last, CardDealt | CardCorrected) or self._phase not in _BEFORE_REVEAL:
            raise IllegalAction(
                f"correction to {action.card} refused: a card is corrected only before the next "
                "card or decision (the last record must be the card dealt)"
            )
        if self._phase is not Phase.DEALING and not self._stage_end_correctable():
            raise IllegalAction(
                f"correction to {action.card} refused: the stage's last card has been acted on; "
                "report the irregularity instead"
            )
        self._deal.verify_correct(action.card)

    def _do_correct_card(self, action: CorrectCard) -> list[Record]:
        last = self._records[-1]
        assert isinstance(last, CardDealt | CardCorrected)
        was, to = self._deal.correct(action.card)
        return [CardCorrected(card=action.card, was=was, to=to, face_up=last.face_up)]

    # -- a shoe dealt over many rounds --------------------------------------------------------

    def _verify_carry_shoe(self, action: CarryShoe) -> None:
        shoe = self._deal.shoe
        if not isinstance(shoe, ReportedShoe):
            raise IllegalAction("this round deals from croupier's own shuffle; no shoe is carried")
        # (cards reported and not yet dealt are the rebuild's: it reports the round's first)
        if shoe.dealt or shoe.burned or self._phase not in _BEFORE_CARDS:
            raise IllegalAction(
                f"the round has {len(shoe.dealt)} card(s) out of its shoe (phase "
                f"{self._phase.value}): the shoe is changed between rounds"
            )
        shoe.verify_carry(action.gone, action.burned)

    def _do_carry_shoe(self, action: CarryShoe) -> list[Record]:
        shoe = self._deal.shoe
        assert isinstance(shoe, ReportedShoe)
        shoe.carry(action.gone, action.burned)
        return [ShoeCarried(gone=action.gone, burned=action.burned)]

    # -- the stub ----------------------------------------------------------------------------

    def _verify_report_stub(self, action: ReportStub) -> None:
        if self._phase not in _BEFORE_REVEAL:
            raise IllegalAction(
                f"the stub is reported after the deal, before the reveal (phase "
                f"{self._phase.value})"
            )
        if not isinstance(self._deal.shoe, ReportedShoe):
            raise IllegalAction("this round deals from croupier's own shuffle; its stub is known")
        if action.count < 0:
            raise IllegalAction(f"a stub of {action.count} cards is not a count")

    def _do_report_stub(self, action: ReportStub) -> list[Record]:
        """The stub against the cards the system dealt: equal and nothing due, the round goes
        on (a stub count due now is done, § 641a.8(f)); else the deal was wrong."""
        count, expected = action.count, self._deal.stub_expected()
        if count == expected and not (self._phase is Phase.DEALING and self._deal.due):
            rec: list[Record] = [StubReported(count=count, expected=expected)]
            if self._phase is Phase.STUB_COUNT:
                return rec + self._stub_counted()
            return rec
        if count > expected:
            # more cards left than the deck can hold with those dealt: § 641a.8(h), the deck out
            section = self._section("stub_count")
            then = Consequence.DECK_REMOVED
        else:
            # a card left the shoe unreported, or the deal stopped short: § 641a.13(c)
            section = self._section("wrong_card_count")
            then = Consequence.VOID
        head: list[Record] = [
            StubReported(count=count, expected=expected, section=section, consequence=then.value)
        ]
        why = f"stub of {count} cards reported, {expected} expected with {self._deal.due} due"
        return head + self._void(why, section, deck_removed=then is Consequence.DECK_REMOVED)

"""Winning hands declared at a table whose cards croupier does not see (issue 39).

A table whose Rules Submission says ``[table] cards = "felt"`` plays its cards and its base
game with chips at the felt: croupier sees no card and holds no base wager.  What it does know
is the progressive table game system: the progressive wagers its sensors accepted
(:mod:`croupier.games.sensors`), the lock-out, the count and the meter.  After "no more bets"
(the count agreed) the round does not deal: it waits in phase ``declaring`` while the dealer
settles the base game at the felt, and the progressive is settled exactly, step by step:

1. the dealer declares a winning hand by its cards (:class:`DeclareHand`): croupier checks that
   the cards are a hand of the game that reaches a line of the game's own progressive pay
   table (the pay table of its progressive offer, :meth:`DeclaredHands.declared_offer`: the
   one the meter pays from, never a copy) or qualifies for an Envy Bonus (§ 641a.11(c)(5)(i):
   the dealer verifies that the hand wins);
2. a supervisor verifies it against the light (:class:`VerifyDeclared`, § 641a.11(c)(5)(ii) and
   (iii): the light of the seat's position, and a floorperson or above validates the payout);
   only then does the meter pay (:meth:`Round.award_progressive`, a 100% award a hand-pay,
   § 641a.11(c)(5)(iv)); a dark light pays nothing (no wager was accepted at that position);
3. the dealer closes the declarations (:class:`CloseDeclarations`): every progressive wager not
   paid loses, and each player with a progressive wager receives an Envy Bonus for every other
   player's verified hand that qualifies (§ 641a.11(c)(5)(v)); the round is over.

Every step is a frozen record whose ``to_action`` gives the input back, so the audit
(:func:`~croupier.games.rebuild.rebuild_round`) replays and verifies such a round.  Declaring a
hand by its cards is the house's procedure for a table croupier cannot see (issue 39); a card
declared twice more often than the decks hold is refused as any report of it would be.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.shapes import CardSource
from croupier.games.records import (
    Action,
    EnvyPaid,
    ProgressivePaid,
    Record,
    Result,
    WagerSettled,
)
from croupier.games.sensors import Light
from croupier.games.states import Phase

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from croupier.games.base import Game, ProgressiveOffer
    from croupier.games.paytables import PayLine
    from croupier.games.stakes import Stakes
    from croupier.rules.progressive import MeterSpec

__all__ = [
    "DECLARED_RECORDS",
    "CloseDeclarations",
    "DeclarationVerified",
    "DeclarationsClosed",
    "DeclareHand",
    "DeclaredHands",
    "HandDeclared",
    "VerifyDeclared",
]


@dataclass(frozen=True, kw_only=True)
class DeclareHand(Action):
    """The dealer declares ``seat``'s winning hand by its cards."""

    name: ClassVar[str] = "declare_hand"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class VerifyDeclared(Action):
    """A supervisor (``by``) verifies ``seat``'s declared hand against the seat's light."""

    name: ClassVar[str] = "verify_declared"
    seat: int
    by: str


@dataclass(frozen=True, kw_only=True)
class CloseDeclarations(Action):
    """The dealer has declared every winning hand: the progressive wagers are settled."""

    name: ClassVar[str] = "close_declarations"


@dataclass(frozen=True, kw_only=True)
class HandDeclared(Record):
    """A hand declared by its cards; ``line``: the progressive line it reaches (``""``: none,
    an Envy Bonus qualifying hand only)."""

    kind: ClassVar[str] = "hand_declared"
    seat: int
    cards: tuple[Card, ...]
    line: str

    def to_action(self) -> Action:
        return DeclareHand(seat=self.seat, cards=self.cards)


@dataclass(frozen=True, kw_only=True)
class DeclarationVerified(Record):
    """A supervisor's verification of a declared hand: the light found at the seat (lit: the
    progressive is paid, its records follow; dark: nothing is paid)."""

    kind: ClassVar[str] = "declaration_verified"
    seat: int
    by: str
    light: Light

    def to_action(self) -> Action:
        return VerifyDeclared(seat=self.seat, by=self.by)


@dataclass(frozen=True, kw_only=True)
class DeclarationsClosed(Record):
    """The dealer closed the declarations; the settlement of the rest follows."""

    kind: ClassVar[str] = "declarations_closed"

    def to_action(self) -> Action:
        return CloseDeclarations()


DECLARED_RECORDS = (HandDeclared, DeclarationVerified, DeclarationsClosed)
"""The records only a table whose cards croupier does not see makes."""


class DeclaredHands:
    """The moves of a round at a ``felt`` table (a base of
    :class:`~croupier.games.round.Round`; the round's own state, its collaborators' moves)."""

    declared_cards: ClassVar[int] = 0
    """The cards of a declared hand (0: the game takes no declared hand yet)."""

    if TYPE_CHECKING:  # the round's own state and procedures (Round provides them)
        game: Game
        _phase: Phase
        _stakes: Stakes
        _records: list[Record]
        _players: Mapping[int, str]

        def sensed_wagers(self) -> tuple[str, ...]: ...

        def wager_lights(self) -> dict[int, dict[str, Light]]: ...

        def contribution_meters(self) -> list[tuple[str, MeterSpec]]: ...

        def settle(
            self, seat: int, wager: str, result: Result, *, paid: int = ..., line: str = ...
        ) -> WagerSettled: ...

        def award_progressive(
            self,
            seat: int,
            wager: str,
            line: PayLine | None,
            spec: MeterSpec | None,
            *,
            lose_line: str = ...,
            settle: Callable[..., WagerSettled] | None = ...,
        ) -> list[Record]: ...

    @property
    def at_felt(self) -> bool:
        """Whether the table's cards and base game are at the felt, unseen by croupier."""
        return self.game.rules.table.cards is CardSource.FELT

    def _declared_keys(self, cards: tuple[Card, ...]) -> frozenset[str]:
        """The pay-table names a declared hand satisfies (games taking declarations provide)."""
        raise IllegalAction(f"{self.game.slug} takes no declared hand yet")

    def declared_offer(self) -> ProgressiveOffer | None:
        """The progressive a declared hand is checked against and paid from: the game's own
        offer of the wager its sensors recognise (its pay table, amount and meter)."""
        sensed = self.sensed_wagers()
        return next((o for o in self.game.progressive_offers() if o.wager in sensed), None)

    def declared_seats(self) -> dict[str, bool]:
        """Each seat whose hand is declared, and whether a supervisor has verified it."""
        verified = self._verified_seats()
        return {str(s): s in verified for s in sorted(self._declarations())}

    def _declarations(self) -> dict[int, HandDeclared]:
        return {r.seat: r for r in self._records if isinstance(r, HandDeclared)}

    def _verified_seats(self) -> set[int]:
        return {r.seat for r in self._records if isinstance(r, DeclarationVerified)}

    def _verify_declaring(self, what: str) -> None:
        if self._phase is not Phase.DECLARING:
            raise IllegalAction(
                f'{what} refused: hands are declared after "no more bets" at a table whose '
                f"cards croupier does not see (phase {self._phase.value})"
            )

    # -- the dealer declares -----------------------------------------------------------------

    def _verify_declare_hand(self, action: DeclareHand) -> None:
        self._verify_declaring(f"seat {action.seat}'s declared hand")
        if action.seat not in self._players:
            raise IllegalAction(f"seat {action.seat!r} has no seated player")
        if action.seat in self._declarations():
            raise IllegalAction(f"seat {action.seat}'s hand is already declared")
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            raise InvalidInput("a declared hand is a tuple of cards")
        if len(cards) != self.declared_cards:
            raise InvalidInput(
                f"a declared {self.game.slug} hand is {self.declared_cards} cards, not {len(cards)}"
            )
        seen = Counter(c for d in self._declarations().values() for c in d.cards)
        seen.update(cards)
        decks = max(1, self.game.deck_count)
        over = sorted(str(c) for c, n in seen.items() if n > decks)
        if over:
            raise IllegalAction(f"{', '.join(over)} declared more often than {decks} deck(s) hold")
        if not self._wins(cards):
            # § 641a.11(c)(5)(i): only a winning hand is declared
            raise IllegalAction(
                f"seat {action.seat}'s {' '.join(map(str, cards))} wins no progressive line "
                "and qualifies for no Envy Bonus"
            )

    def _wins(self, cards: tuple[Card, ...]) -> bool:
        keys = self._declared_keys(cards)
        offer, envy = self.declared_offer(), self.game.envy_schedule
        if offer is not None and offer.table.line_for(keys) is not None:
            return True
        return envy is not None and bool(envy.qualifying_hands() & keys)

    def _do_declare_hand(self, action: DeclareHand) -> list[Record]:
        offer = self.declared_offer()
        keys = self._declared_keys(action.cards)
        line = offer.table.line_for(keys) if offer is not None else None
        hand = line.hand if line is not None else ""
        return [HandDeclared(seat=action.seat, cards=action.cards, line=hand)]

    # -- the supervisor verifies -------------------------------------------------------------

    def _verify_verify_declared(self, action: VerifyDeclared) -> None:
        self._verify_declaring(f"the verification of seat {action.seat}'s hand")
        if action.seat not in self._declarations():
            raise IllegalAction(f"no hand is declared at seat {action.seat}")
        if action.seat in self._verified_seats():
            raise IllegalAction(f"seat {action.seat}'s declared hand is already verified")
        if not isinstance(action.by, str) or not action.by:
            raise InvalidInput("a verification names the supervisor who made it")

    def _do_verify_declared(self, action: VerifyDeclared) -> list[Record]:
        seat, offer = action.seat, self.declared_offer()
        wager = offer.wager if offer is not None else ""
        light = self.wager_lights().get(seat, {}).get(wager, Light.DARK)
        head: list[Record] = [DeclarationVerified(seat=seat, by=action.by, light=light)]
        declared = self._declarations()[seat]
        if light is Light.DARK or offer is None or not declared.line:
            return head  # no wager accepted at the position (or an Envy hand only)
        # § 641a.11(c)(5)(ii)-(iv): the light verified, the payout validated, the meter pays
        line = offer.table.line_for(self._declared_keys(declared.cards))
        spec = dict(self.contribution_meters()).get(wager)
        return head + self.award_progressive(seat, wager, line, spec)

    # -- the dealer closes -------------------------------------------------------------------

    def _verify_close_declarations(self, action: CloseDeclarations) -> None:
        self._verify_declaring("closing the declarations")
        waiting = sorted(set(self._declarations()) - self._verified_seats())
        if waiting:
            raise IllegalAction(
                f"seat(s) {', '.join(map(str, waiting))}: a declared hand awaits a "
                "supervisor's verification"
            )

    def _do_close_declarations(self, action: CloseDeclarations) -> list[Record]:
        new: list[Record] = [DeclarationsClosed()]
        paid = {r.seat for r in self._records if isinstance(r, ProgressivePaid)}
        stakes, offer = self._stakes.by_seat, self.declared_offer()
        wager = offer.wager if offer is not None else ""
        wagering = [s for s in sorted(stakes, reverse=True) if wager in stakes[s]]
        for seat in wagering:  # from the dealer's right, counterclockwise (§ 641a.11(c))
            if seat not in paid:
                new.append(self.settle(seat, wager, Result.LOSE))
        new += self._envy(wagering, wager)
        self.__dict__["_phase"] = Phase.OVER
        return new

    def _envy(self, wagering: list[int], wager: str) -> list[Record]:
        """§ 641a.11(c)(5)(v): an Envy Bonus to each progressive wager for every other player's
        verified qualifying hand, never for the player's own."""
        schedule = self.game.envy_schedule
        if schedule is None:
            return []
        verified = self._verified_seats()
        hands = [d for s, d in sorted(self._declarations().items()) if s in verified]
        new: list[Record] = []
        for seat in wagering:
            own = self._stakes.by_seat[seat][wager]
            for other in hands:
                if self._players.get(other.seat) == self._players[seat]:
                    continue
                line = schedule.line_for(own, self._declared_keys(other.cards))
                if line is not None and line.amount is not None:
                    new.append(
                        EnvyPaid(seat=seat, for_seat=other.seat, line=line.hand, amount=line.amount)
                    )
        return new

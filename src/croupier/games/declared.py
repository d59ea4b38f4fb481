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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.core.shapes import CardSource
from croupier.games.records import (
    Action,
    EnvyPaid,
    Record,
    Result,
    WagerSettled,
)
from croupier.games.sensors import Light
from croupier.games.states import Phase

if TYPE_CHECKING:
    from collections.abc import Callable

    from croupier.games.base import Game, ProgressiveOffer
    from croupier.games.paytables import EnvySchedule, PayLine
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
    wager: str = ""
    """The progressive wager the hand is declared for (``""``: the one sensed wager whose
    hand has as many cards, :meth:`DeclaredHands.declared_wager`)."""


@dataclass(frozen=True, kw_only=True)
class VerifyDeclared(Action):
    """A supervisor (``by``) verifies ``seat``'s declared hand against the seat's light."""

    name: ClassVar[str] = "verify_declared"
    seat: int
    by: str
    wager: str = ""
    """The declared wager verified (``""``: the seat's next hand awaiting verification)."""


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
    wager: str = "progressive"

    def to_action(self) -> Action:
        return DeclareHand(seat=self.seat, cards=self.cards, wager=self.wager)


@dataclass(frozen=True, kw_only=True)
class DeclarationVerified(Record):
    """A supervisor's verification of a declared hand: the light found at the seat (lit: the
    progressive is paid, its records follow; dark: nothing is paid)."""

    kind: ClassVar[str] = "declaration_verified"
    seat: int
    by: str
    light: Light
    wager: str = "progressive"

    def to_action(self) -> Action:
        return VerifyDeclared(seat=self.seat, by=self.by, wager=self.wager)


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
    :class:`~croupier.games.round.Round`; the round's own state, its collaborators' moves).

    Each game that takes declared hands says, in its own package, how many cards the hand of
    each progressive wager is (:attr:`declared_cards`) and which of its pay-table names those
    cards satisfy (:meth:`_declared_keys`): the same names its own settlement reads, so a hand
    declared at the felt reaches the line the dealt hand would.  The chapter's subsections of
    the dealer's and the supervisor's verification are the round's ``declared_hand`` and
    ``declared_light`` sections."""

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict({})
    """The cards of a hand declared for each progressive wager (empty: the game takes none)."""

    if TYPE_CHECKING:  # the round's own state and procedures (Round provides them)
        game: Game
        _phase: Phase
        _stakes: Stakes
        _records: list[Record]
        _players: Mapping[int, str]

        def sensed_wagers(self) -> tuple[str, ...]: ...

        def wager_lights(self) -> dict[int, dict[str, Light]]: ...

        def _section(self, key: str) -> str: ...

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

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        """The pay-table names ``cards`` satisfy as the hand of the progressive ``wager`` (games
        taking declarations provide, in their own package)."""
        raise IllegalAction(f"{self.game.slug} takes no declared hand yet")

    def _declared_envy(self, wager: str) -> EnvySchedule | None:
        """The Envy Bonus schedule of the progressive ``wager`` (the game's one by default)."""
        return self.game.envy_schedule

    def declared_offers(self) -> tuple[ProgressiveOffer, ...]:
        """The progressives a declared hand is checked against and paid from: the game's own
        offers of the wagers its sensors recognise (their pay tables, amounts and meters)."""
        sensed = self.sensed_wagers()
        return tuple(o for o in self.game.progressive_offers() if o.wager in sensed)

    def declared_offer(self, wager: str = "") -> ProgressiveOffer | None:
        """The sensed offer of ``wager`` (``""``: the first, the only one of most games)."""
        return next((o for o in self.declared_offers() if wager in ("", o.wager)), None)

    def declared_wager(self, cards: tuple[Card, ...], wager: str = "") -> str:
        """The progressive wager a hand of ``cards`` is declared for: ``wager`` when named, else
        the one sensed wager whose hand has that many cards (Let It Ride: three cards its
        Three-Card Progressive, five its Five-Card)."""
        sizes = {o.wager: self.declared_cards.get(o.wager, 0) for o in self.declared_offers()}
        if wager:
            if wager not in sizes:
                known = ", ".join(sizes) or "none"
                raise InvalidInput(f"{wager!r} is no sensed progressive wager here ({known})")
            return wager
        fits = [w for w, n in sizes.items() if n == len(cards)]
        if len(fits) == 1:
            return fits[0]
        if fits:
            raise InvalidInput(f"a hand of {len(cards)} cards: name its wager, one of {fits}")
        wanted = " or ".join(str(n) for n in sorted(set(sizes.values())))
        raise InvalidInput(f"a declared {self.game.slug} hand is {wanted} cards, not {len(cards)}")

    def declared_seats(self) -> dict[str, bool]:
        """Each seat whose hand is declared, and whether a supervisor has verified every hand
        declared there."""
        pending = {seat for seat, _ in self._awaiting_verification()}
        return {str(s): s not in pending for s in sorted({s for s, _ in self._declarations()})}

    def _declarations(self) -> dict[tuple[int, str], HandDeclared]:
        return {(r.seat, r.wager): r for r in self._records if isinstance(r, HandDeclared)}

    def _verified_hands(self) -> set[tuple[int, str]]:
        return {(r.seat, r.wager) for r in self._records if isinstance(r, DeclarationVerified)}

    def _awaiting_verification(self) -> list[tuple[int, str]]:
        verified = self._verified_hands()
        return sorted(k for k in self._declarations() if k not in verified)

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
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            raise InvalidInput("a declared hand is a tuple of cards")
        wager = self.declared_wager(cards, action.wager)
        if (action.seat, wager) in self._declarations():
            raise IllegalAction(f"seat {action.seat}'s {wager} hand is already declared")
        if len(cards) != self.declared_cards.get(wager, 0):
            raise InvalidInput(
                f"a declared {wager} hand is {self.declared_cards.get(wager, 0)} cards, "
                f"not {len(cards)}"
            )
        self._verify_declared_deck(action.seat, wager, cards)
        if not self._wins(cards, wager):
            raise IllegalAction(
                f"seat {action.seat}'s {' '.join(map(str, cards))} wins no {wager} line "
                "and qualifies for no Envy Bonus",
                section=self._section("declared_hand") or None,
            )

    def _verify_declared_deck(self, seat: int, wager: str, cards: tuple[Card, ...]) -> None:
        """No card declared more often than the decks hold (a seat's hands of two wagers may
        share its cards: Let It Ride's three cards are in its five-card hand)."""
        seen: Counter[Card] = Counter()
        for (other, _), declared in self._declarations().items():
            if other != seat:
                seen.update(declared.cards)
        own = [d.cards for (s, _), d in self._declarations().items() if s == seat]
        mine = Counter(cards)
        for hand in own:
            mine |= Counter(hand)
        seen.update(mine)
        decks = max(1, self.game.deck_count)
        over = sorted(str(c) for c, n in seen.items() if n > decks)
        if over:
            raise IllegalAction(f"{', '.join(over)} declared more often than {decks} deck(s) hold")

    def _wins(self, cards: tuple[Card, ...], wager: str) -> bool:
        keys = self._declared_keys(cards, wager)
        offer, envy = self.declared_offer(wager), self._declared_envy(wager)
        if offer is not None and offer.table.line_for(keys) is not None:
            return True
        return envy is not None and bool(envy.qualifying_hands() & keys)

    def _do_declare_hand(self, action: DeclareHand) -> list[Record]:
        wager = self.declared_wager(action.cards, action.wager)
        offer = self.declared_offer(wager)
        keys = self._declared_keys(action.cards, wager)
        line = offer.table.line_for(keys) if offer is not None else None
        hand = line.hand if line is not None else ""
        return [HandDeclared(seat=action.seat, cards=action.cards, line=hand, wager=wager)]

    # -- the supervisor verifies -------------------------------------------------------------

    def _verified_wager(self, action: VerifyDeclared) -> str:
        """The declaration a verification is of: the named wager's, else the seat's next hand
        awaiting verification, in the game's order of its progressives (Let It Ride's
        Three-Card before its Five-Card: the pit verifies them one after the other)."""
        if action.wager:
            return action.wager
        order = [o.wager for o in self.declared_offers()]
        waiting = [w for s, w in self._awaiting_verification() if s == action.seat]
        return min(waiting, key=order.index) if waiting else ""

    def _verify_verify_declared(self, action: VerifyDeclared) -> None:
        self._verify_declaring(f"the verification of seat {action.seat}'s hand")
        wager = self._verified_wager(action)
        declared = {w for s, w in self._declarations() if s == action.seat}
        if not declared or (wager and wager not in declared):
            raise IllegalAction(f"no {wager or 'hand'} is declared at seat {action.seat}")
        if (action.seat, wager) in self._verified_hands() or not wager:
            raise IllegalAction(f"seat {action.seat}'s declared hand is already verified")
        if not isinstance(action.by, str) or not action.by:
            raise InvalidInput("a verification names the supervisor who made it")

    def _do_verify_declared(self, action: VerifyDeclared) -> list[Record]:
        seat, wager = action.seat, self._verified_wager(action)
        light = self.wager_lights().get(seat, {}).get(wager, Light.DARK)
        head: list[Record] = [
            DeclarationVerified(seat=seat, by=action.by, light=light, wager=wager)
        ]
        declared, offer = self._declarations()[(seat, wager)], self.declared_offer(wager)
        if light is Light.DARK or offer is None or not declared.line:
            return head  # no wager accepted at the position (or an Envy hand only)
        # the chapter's declared_light subsection (§ 641a.11(c)(5)(ii)-(iv) and its like): the
        # light verified, the payout validated, the meter pays the line's own meter
        line = offer.table.line_for(self._declared_keys(declared.cards, wager))
        spec = offer.line_meters.get(line.hand) if line is not None else None
        return head + self.award_progressive(seat, wager, line, spec)

    # -- the dealer closes -------------------------------------------------------------------

    def _verify_close_declarations(self, action: CloseDeclarations) -> None:
        self._verify_declaring("closing the declarations")
        waiting = sorted({seat for seat, _ in self._awaiting_verification()})
        if waiting:
            raise IllegalAction(
                f"seat(s) {', '.join(map(str, waiting))}: a declared hand awaits a "
                "supervisor's verification",
                section=self._section("declared_light") or None,
            )

    def _do_close_declarations(self, action: CloseDeclarations) -> list[Record]:
        new: list[Record] = [DeclarationsClosed()]
        stakes = self._stakes.by_seat
        paid = {
            (r.seat, r.wager)
            for r in self._records
            if isinstance(r, WagerSettled) and r.result is Result.WIN
        }
        for offer in self.declared_offers():
            wager = offer.wager
            wagering = [s for s in sorted(stakes, reverse=True) if wager in stakes[s]]
            for seat in wagering:  # from the dealer's right, counterclockwise (§ 641a.11(c))
                if (seat, wager) not in paid:
                    new.append(self.settle(seat, wager, Result.LOSE))
            new += self._envy(wagering, wager)
        self.__dict__["_phase"] = Phase.OVER
        return new

    def _envy(self, wagering: list[int], wager: str) -> list[Record]:
        """§ 641a.11(c)(5)(v): an Envy Bonus to each progressive wager for every other player's
        verified qualifying hand of that wager, never for the player's own."""
        schedule = self._declared_envy(wager)
        if schedule is None:
            return []
        verified = self._verified_hands()
        hands = [d for k, d in sorted(self._declarations().items()) if k in verified]
        new: list[Record] = []
        for seat in wagering:
            own = self._stakes.by_seat[seat][wager]
            for other in hands:
                if other.wager != wager or self._players.get(other.seat) == self._players[seat]:
                    continue
                line = schedule.line_for(own, self._declared_keys(other.cards, wager))
                if line is not None and line.amount is not None:
                    new.append(
                        EnvyPaid(seat=seat, for_seat=other.seat, line=line.hand, amount=line.amount)
                    )
        return new

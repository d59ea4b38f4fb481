"""The helpers the faces use (the terminal, the demo, the server, the scenarios, the
simulator): the cards face up, a decision in words, what a house player wagers and decides, a
decision parsed from text.

They are the methods of :class:`FaceHelpers`, which :class:`~croupier.games.round.Round` mixes
in; a game overrides the ones its decisions need (Let It Ride's ``pull``/``ride`` parsing, a
house player's rule).  None of them changes the round: they read it, or build an action for
:meth:`~croupier.games.round.Round.apply` to verify.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput, shown_value
from croupier.core.money import format_cents
from croupier.games.amounts import PlayRule, parse_play_size
from croupier.games.records import (
    Action,
    CardDealt,
    Check,
    CountStub,
    DealNext,
    Fold,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Play,
    Record,
    ReportIrregularity,
    Reveal,
    Settle,
)
from croupier.games.states import Phase

if TYPE_CHECKING:
    from croupier.games.base import Game
    from croupier.games.dealing import Deal
    from croupier.games.stakes import Stakes

__all__ = ["FaceHelpers", "decision_text"]


_KIND = attrgetter("kind")
_FACE_UP = attrgetter("face_up")


DECISION_TEXT_LIMIT = 200
"""The longest decision written as text (``"let it ride bet 2"`` is 17 characters)."""


def decision_text(seat: object, text: object) -> str:
    """``text`` if it is a decision written as text (at most :data:`DECISION_TEXT_LIMIT`
    characters), else :class:`InvalidInput` naming the seat and what was given."""
    if not isinstance(text, str) or len(text) > DECISION_TEXT_LIMIT:
        raise InvalidInput(
            f"decision {shown_value(text)} for seat {shown_value(seat)} is not a decision "
            f"written as text (at most {DECISION_TEXT_LIMIT} characters, e.g. 'fold')"
        )
    return text


@cache
def _no_more_bets(chips: int) -> NoMoreBets:
    """``NoMoreBets(progressive_chips=chips)``, made once for each count (an action is
    immutable; the round checks it again when it is applied)."""
    return NoMoreBets(progressive_chips=chips)


class FaceHelpers:
    """What the faces ask a round, beside the protocol (mixed into every round)."""

    if TYPE_CHECKING:  # provided by the round
        game: Game
        _records: list[Record]
        _stakes: Stakes
        _wagers: Mapping[int, Mapping[str, int]]
        _hands: Mapping[str, tuple[Card, ...]]
        _phase: Phase
        _players: dict[int, str]
        _deal: Deal

        def can(self, action: Action) -> bool: ...

        def next_decider(self) -> int | None: ...

        def decision_candidates(self, seat: int) -> Iterable[Action]: ...

        def play_rule(self, seat: int) -> PlayRule | None: ...

        def progressive_chip_count(self) -> int: ...

    def legal_actions(self) -> list[Action]:
        """Every action allowed now; wager actions are listed with the table's smallest unit
        (100 cents) as a representative amount."""
        candidates = list(self._candidate_actions())
        return [a for a in candidates if self.can(a)]

    # -- candidates (legal_actions) ----------------------------------------------------------

    def _candidate_actions(self) -> Iterable[Action]:
        if self._phase is Phase.BETTING:
            for seat in sorted(self._players):
                for wager in self.game.offered_wagers():
                    if wager in self.game.decision_wagers:
                        continue
                    amount = self._suggested_amount(seat, wager)
                    yield PlaceWager(seat=seat, wager=wager, amount=amount)
            yield NoMoreBets()
        elif self._phase is Phase.DEALING:
            yield DealNext()
        elif self._phase is Phase.STUB_COUNT:
            yield CountStub(count=self._deal.stub_count())
        elif self._phase is Phase.DECISIONS:
            decider = self.next_decider()
            if decider is not None:
                yield from self.decision_candidates(decider)
        elif self._phase is Phase.REVEAL:
            yield Reveal()
        elif self._phase is Phase.SETTLEMENT:
            yield Settle()
        for kind in IrregularityKind:
            yield ReportIrregularity(kind=kind)

    def _suggested_amount(self, seat: int, wager: str) -> int:
        if wager == "progressive" and self.game.rules.progressive:
            return self.game.rules.progressive.wager
        return 100

    def visible_cards(self) -> dict[str, list[Card]]:
        """Cards dealt face up so far, by recipient (the dealer's up card, the board)."""
        shown: dict[str, list[Card]] = {}
        records = self._records
        # the cards dealt, then those face up, picked out without a Python step per record
        dealt = list(compress(records, map(CardDealt.kind.__eq__, map(_KIND, records))))
        for rec in compress(dealt, map(_FACE_UP, dealt)):
            if isinstance(rec, CardDealt) and rec.face_up:
                shown.setdefault(rec.to, []).append(rec.card)
        return shown

    def describe(self, action: Action) -> str:
        """A decision in words, for a person at the table."""
        if isinstance(action, Play):
            if action.amount is not None:
                return f"play {format_cents(action.amount)}"
            return f"play {action.multiple or 1}x the Ante"
        return action.name.replace("_", " ")

    def house_wagers(self, seat: int, unit: int = 500) -> list[PlaceWager]:
        """What a house (simulated) player wagers: the game's first wager, and the
        progressive where offered."""
        first = next(w for w in self.game.offered_wagers() if w not in self.game.decision_wagers)
        wagers = [PlaceWager(seat=seat, wager=first, amount=unit)]
        if self.game.rules.progressive is not None:
            wagers.append(
                PlaceWager(seat=seat, wager="progressive", amount=self.game.rules.progressive.wager)
            )
        return wagers

    def dealer_no_more_bets(self) -> NoMoreBets:
        """ "No more bets", with the progressive chips counted as the system accepted them."""
        return _no_more_bets(self.progressive_chip_count())

    def simple_strategy(self, seat: int) -> Action:
        """A simple (not optimal) decision for a house player; games override."""
        choices = [a for a in self.decision_candidates(seat) if self.can(a)]
        if not choices:
            raise IllegalAction(f"seat {seat} has no decision now (phase {self._phase.value})")
        return choices[0]

    def parse_decision(self, seat: int, text: str) -> Action:
        """A decision written as in a scenario: ``play`` (the Ante), ``play 3`` / ``play 3x`` /
        ``play 1.5`` (times the Ante), ``play $7.50`` or ``play 750c`` (an amount), ``bet N``
        (the same), ``fold``, ``check`` (see :func:`~croupier.games.amounts.parse_play_size`)."""
        words = decision_text(seat, text).lower().split()
        if words and words[0] in ("play", "bet") and len(words) <= 2:
            if len(words) == 1:
                return Play(seat=seat)
            ante = self._stakes.of(seat).get("ante", 0)
            return parse_play_size(seat, words[1], ante, self.play_rule(seat))
        if words == ["fold"]:
            return Fold(seat=seat)
        if words == ["check"]:
            return Check(seat=seat)
        raise InvalidInput(
            f"decision {shown_value(text)} for seat {seat} is not understood in {self.game.slug} "
            "(play N, play, fold, check)"
        )

"""Streets as data: the one street machine of the games decided street by street.

A :class:`Street` is a frozen record of one decision point, after PokerKit's ``Street``: the
cards dealt (or community cards turned) to open it, which decisions are allowed on it, the sizes
of the decision wager (multiples of the Ante) and the sections.  A game lists its streets in
order on :attr:`StreetRound.streets`; the machine walks them:

* a street with :attr:`Street.dealt` cards is opened by chance, card by card (Ultimate Texas
  Hold 'Em's flop and final two community cards);
* a street with :attr:`Street.turns` is opened by the dealer turning community cards over, by
  the game's :attr:`StreetRound.turn_action` (Let It Ride's ``Reveal``, Mississippi Stud's
  ``TurnCommunityCard``);
* a street without decisions is the showdown: opening it ends the decisions and the round goes
  to settlement; a game whose last street has decisions goes to the dealer's reveal instead.

Each seat decides once a street, from the dealer's far left (seat 1) clockwise; a game says who
takes part (:meth:`StreetRound._deciders`).  The analysis and the faces read the public typed
surface :attr:`StreetRound.street` and :attr:`StreetRound.turned`, never game internals.

=======================  =================================================  ==================
game                     streets                                            opened by
=======================  =================================================  ==================
Ultimate Texas Hold 'Em  preflop (3x/4x, check), flop (2x, check), river    deal (§ 569.1,
                         (1x, fold)                                         § 569.11(e))
Let It Ride              bet1, bet2 (pull or ride), showdown                reveal (§ 643a.11)
Mississippi Stud         3rd, 4th, 5th Street (1x-3x or fold), showdown     turn (§ 571.11)
=======================  =================================================  ==================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import accumulate
from typing import TYPE_CHECKING, ClassVar

from croupier.core.modes import PlayMode
from croupier.games.amounts import Multiples, PlayRule
from croupier.games.records import Action, Play, Record, Reveal
from croupier.games.round import DealStep, Phase, Round, StubCheck
from croupier.rules.progressive import MeterBank
from croupier.table.shoe import Shoe

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = ["Street", "StreetRound", "TurnBy"]


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what opens it, who decides what, and the sections (a frozen record)."""

    name: str
    """The street's name in the game (``"flop"``, ``"bet2"``, ``"fourth_street"``)."""
    label: str
    """The street for a person: ``"4th Street"``."""
    decisions: tuple[type[Action], ...] = ()
    """The decision kinds allowed on this street, in the order they are offered; none: the
    showdown."""
    multiples: tuple[int, ...] = ()
    """The sizes of the decision wager (a Play or a street bet), times the Ante, exactly."""
    wager: str = ""
    """The wager the decision places (``"third_street"``) or keeps in action (``"bet1"``)."""
    bet_label: str = ""
    """What the decision wager is called in a refusal (``"Play wager on the flop"``)."""
    dealt: tuple[DealStep, ...] = ()
    """Cards dealt by chance to open the street (a burn and community cards)."""
    turns: int = 0
    """Community cards the dealer turns face up to open the street."""
    section: str = ""
    """The section of the street's decision."""
    opening_section: str = ""
    """The section of the dealing or turning that opens the street."""

    _rule: PlayRule | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`play_rule`, made once with the street."""

    def __post_init__(self) -> None:
        if self.multiples:
            rule = Multiples(label=self.bet_label, section=self.section, multiples=self.multiples)
            object.__setattr__(self, "_rule", rule)

    @property
    def decides(self) -> bool:
        """Whether the players decide on this street (the showdown: no)."""
        return bool(self.decisions)

    def play_rule(self) -> PlayRule | None:
        """The rule for the size of the street's decision wager, or ``None`` (no sizes)."""
        return self._rule


class TurnBy(Enum):
    """How the dealer turns community cards over to open a street."""

    REVEAL = "reveal"
    """The dealer's ``Reveal`` in the reveal phase (Let It Ride)."""
    DEALER_STEP = "dealer_step"
    """The game's own dealer action while the decisions stand (Mississippi Stud)."""


_TURNED: dict[type, tuple[tuple[Street, ...], tuple[int, ...]]] = {}
"""By round class: its streets and the community cards turned once each is open
(:attr:`StreetRound.turned`)."""

_TURNS: dict[type[Action], Action] = {}
"""The dealer's turning action of each kind (:attr:`StreetRound.turn_action`), made once."""


class StreetRound(Round):
    """A round decided street by street (:class:`Street`): the one street machine.

    A game gives :attr:`streets`, says who decides (:meth:`_deciders`) and, where community
    cards are turned, how (:attr:`turn_by`, :attr:`turn_action`) and what the turning records
    (:meth:`_turn_records`).  The machine keeps the street, the seats that decided on it
    (:attr:`~croupier.games.round.Round.decided`) and the community cards turned.
    """

    streets: ClassVar[tuple[Street, ...]] = ()
    """The game's streets in order; the first is opened by the initial deal."""
    turn_by: ClassVar[TurnBy] = TurnBy.REVEAL
    """How community cards are turned (games with :attr:`Street.turns`)."""
    turn_action: ClassVar[type[Action]] = Reveal
    """The dealer's action that turns them."""
    _street_index: int
    """The position of :attr:`street` in :attr:`streets`."""

    def __init__(
        self,
        game: Game,
        *,
        shoe: Shoe,
        meters: MeterBank | None = None,
        players: Mapping[int, str] | None = None,
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        mode: PlayMode = PlayMode.SIMULATION,
    ) -> None:
        super().__init__(
            game, shoe=shoe, meters=meters, players=players, stub_check=stub_check, mode=mode
        )
        self.__dict__["_street_index"] = 0

    # -- the public typed surface ------------------------------------------------------------

    @property
    def street(self) -> Street:
        """The street now decided (after the last decisions: the last street reached)."""
        return self.streets[self._street_index]

    @property
    def street_index(self) -> int:
        """The position of :attr:`street` in :attr:`streets` (0: the first)."""
        return self._street_index

    @property
    def turned(self) -> int:
        """Community cards the dealer has turned over so far."""
        known = _TURNED.get(type(self))
        if known is None or known[0] is not self.streets:
            # the running sums of the streets' turns, once per class (asked several times a
            # round: by the verifiers, the records of a turn and the strategies)
            streets = self.streets
            known = _TURNED[type(self)] = (streets, tuple(accumulate(s.turns for s in streets)))
        return known[1][self._street_index]

    def play_rule(self, seat: int) -> PlayRule | None:
        return self.street.play_rule()

    # -- who decides -------------------------------------------------------------------------

    def _deciders(self) -> Iterable[int]:
        """Seats taking part in this street's decision, seat 1 first; games narrow it."""
        folded = self._folded
        return (s for s in self._stakes.in_action if s not in folded)

    def next_decider(self) -> int | None:
        if self._phase is not Phase.DECISIONS or not self.streets[self._street_index].decisions:
            return None
        decided = self._decided
        if type(self)._deciders is StreetRound._deciders:
            # the shared _deciders (active seats not folded) in one pass, without its generator
            # (asked several times an action: to_act, the verifier, after the decision)
            folded = self._folded
            for seat in self._stakes.in_action:
                if seat not in decided and seat not in folded:
                    return seat
            return None
        for seat in self._deciders():
            if seat not in decided:
                return seat
        return None

    def decision_candidates(self, seat: int) -> Iterable[Action]:
        """The street's decisions for ``seat``: a Play of each size, then the other kinds."""
        for kind in self.street.decisions:
            if kind is Play:
                yield from (Play(seat=seat, multiple=m) for m in self.street.multiples)
            else:
                yield self._decision(kind, seat)

    def _decision(self, kind: type[Action], seat: int) -> Action:
        """The decision of ``kind`` at ``seat`` on this street (games whose decisions carry
        more than the seat provide it)."""
        raise NotImplementedError

    # -- moving from street to street ----------------------------------------------------------

    # (The moves below store the private state past the public-name guard: Round.__setattr__.)

    def _later_deals(self) -> bool:
        return any(s.dealt for s in self.streets[self._street_index + 1 :])

    def _dealing_done(self) -> list[Record]:
        # The stub is counted once every card of the round is out of the shoe.
        if self._stub_check is StubCheck.REQUIRED and not self._later_deals():
            self.__dict__["_phase"] = Phase.STUB_COUNT
            return []
        self.__dict__["_phase"] = Phase.DECISIONS
        return self._after_decision()

    def _after_decision(self) -> list[Record]:
        """Once nobody is left to decide: deal the next street, wait for the dealer to turn it,
        or (after the last street's decisions) go to the reveal."""
        if self.next_decider() is not None:
            return []
        return self._street_decided()

    def _street_decided(self) -> list[Record]:
        """:meth:`_after_decision` once nobody is left to decide on this street (then nobody
        is after it either: the phase leaves the decisions, or stands for the dealer's turn)."""
        following = self._street_index + 1
        if following >= len(self.streets):
            self.__dict__["_phase"] = Phase.REVEAL
        elif self.streets[following].dealt:
            self.__dict__["_street_index"] = following
            self._decisions.next_stage()
            self._deal.plan(self.streets[following].dealt)
            self.__dict__["_phase"] = Phase.DEALING
        elif self.turn_by is TurnBy.REVEAL:
            self.__dict__["_phase"] = Phase.REVEAL
        return []

    def _candidate_actions(self) -> Iterable[Action]:
        yield from super()._candidate_actions()
        if self.turn_by is TurnBy.DEALER_STEP and self._phase is Phase.DECISIONS:
            yield self.turn_action()

    def dealer_step(self) -> Action:
        if (
            self.turn_by is TurnBy.DEALER_STEP
            and self._phase is Phase.DECISIONS
            and self.next_decider() is None
        ):
            turn = _TURNS.get(self.turn_action)
            if turn is None:  # a field-less action: one of each kind serves every round
                turn = _TURNS.setdefault(self.turn_action, self.turn_action())
            return turn
        return super().dealer_step()

    def _turn_due(self) -> bool:
        """Whether the dealer turns community cards now (the next street opens by a turn)."""
        following = self._street_index + 1
        return following < len(self.streets) and self.streets[following].turns > 0

    def _turn_street(self) -> list[Record]:
        """Open the next street by turning its community cards (:meth:`_turn_records`); a
        street without decisions ends them and the round is settled."""
        self.__dict__["_street_index"] += 1
        self._decisions.next_stage()
        new = self._turn_records()
        if self.street.decides:
            self.__dict__["_phase"] = Phase.DECISIONS
            return new + self._after_decision()
        self.__dict__["_phase"] = Phase.SETTLEMENT if self._settlement_order() else Phase.OVER
        return new

    def _turn_records(self) -> list[Record]:
        """The records of the turning that opened :attr:`street` (games that turn provide)."""
        raise NotImplementedError

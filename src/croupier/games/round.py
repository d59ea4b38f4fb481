"""The shared machinery of a round: wagers, "no more bets", dealing, decisions, settlement.

See :mod:`croupier.games.base` for the protocol.  Each legality rule is written once, in a
``_verify_<x>(self, action: T)`` method; ``can`` and ``apply`` reuse it, so a refused action
changes nothing.  An action is dispatched by its type ``T`` (the annotation of ``action``), to
the verifier and the doer ``_do_<x>(self, action: T)`` found once per class.

Beside it: :mod:`.states`, :mod:`.faces`, :mod:`.streets`, :mod:`.play`, :mod:`.settlement`,
:mod:`.rebuild`.  The procedures every round shares (dealer and chance acting by themselves,
progressive awards and Envy Bonuses, a player leaving mid-round, irregularities and the one void)
are its own methods.  What a round holds is in its collaborators, each the owner of its state
and changed only by its own verified moves (issue 37): :class:`~.stakes.Stakes` (the wagers in
action), :class:`~.dealing.Deal` (the shoe, the cards due, the cards dealt),
:class:`~.seat_decisions.Decisions`, :class:`~.settling.Settling` and
:class:`~.contributions.Contributions` (the round's moves of the progressive meters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, KeysView, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.core.modes import PlayMode, verify_mode, verify_shoe
from croupier.core.money import MAX_WAGER, verify_amount
from croupier.games._made import (
    card_dealt,
    cards_dealt,
    hand_shown,
    no_more_bets_called,
    play_wagered,
    seat_settling,
    wager_placed,
    wager_settled,
)
from croupier.games.amounts import PlayRule
from croupier.games.contributions import Contributions, verify_meter_bank
from croupier.games.dealing import Deal
from croupier.games.declared import DeclaredHands
from croupier.games.dispatch import _HANDLERS, MALFORMED, Doer, handlers_of, malformed
from croupier.games.faces import FaceHelpers
from croupier.games.hooks import PrivateHooks
from croupier.games.limits import verify_equal_wagers
from croupier.games.paytables import EnvySchedule, PayLine
from croupier.games.pov import Pov, RoundView, Sightline, sightline, view
from croupier.games.rebuild import rebuild_round
from croupier.games.records import (
    _VALIDATORS,
    AbandonWagers,
    Action,
    CardDiscarded,
    Check,
    CountStub,
    DealNext,
    EnvyPaid,
    Fold,
    HandShown,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlaceWager,
    Play,
    PlayWagered,
    ProgressivePaid,
    Record,
    ReportIrregularity,
    Result,
    Reveal,
    RoundVoided,
    SeatSettling,
    Settle,
    StubCounted,
    VoidRound,
    WagersAbandoned,
    WagerSettled,
    record_to_json,
    shown_value,
    validate_fields,
)
from croupier.games.reported_cards import ReportedCards
from croupier.games.seat_decisions import Decisions
from croupier.games.sensors import SENSED_WAGER, ProgressiveSensors
from croupier.games.settlement import Settlement
from croupier.games.settling import Settling
from croupier.games.stakes import Stakes
from croupier.games.states import (
    CHANCE,
    DEALER_ACTOR,
    NOBODY,
    SEAT_ACTORS,
    SEATS,
    Actor,
    ActorKind,
    DealStep,
    Phase,
    StubCheck,
    verify_seating,
)
from croupier.hands import HandRank, Ranking, evaluate
from croupier.rules.progressive import MemoryMeters, MeterBank, MeterSpec
from croupier.rules.submission import DealMethod
from croupier.table.shoe import BackColour, Shoe

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = ["SEATS", "Actor", "ActorKind", "DealStep", "Phase", "Round", "StubCheck"]

_HOUSE_PLAYERS = {s: f"P{s}" for s in SEATS}
"""The players of a round made without any named: one of each seat (copied into each round)."""

_DEAL_NEXT, _REVEAL, _SETTLE = DealNext(), Reveal(), Settle()
"""The dealer's field-less steps: immutable, so one of each serves every round."""
_ENDED = (Phase.OVER, Phase.VOID)
_WAITING = (Phase.BETTING, Phase.COUNT_HELD, Phase.DECLARING)
"""Phases in which the dealer's steps wait for someone (wagers, a recount, a declaration)."""
_UNHANDLED = (None, None)
_BY_PLAN: dict[type, bool] = {}
"""By round class: whether it deals by the shared ``_verify_deal`` and ``_do_deal`` (then
:meth:`Round.run_dealer` deals a stage's cards together, :meth:`Round._deal_due`)."""


class Round(FaceHelpers, PrivateHooks, ReportedCards, ProgressiveSensors, DeclaredHands):
    """A round of a banked card game: wagers, "no more bets", the deal, decisions, settlement.

    Subclasses provide the deal, the decisions and the settlement of a seat by the private hooks
    (:mod:`.hooks`); the shared machinery here handles wagers, progressive collection, dealing,
    irregularities, voiding and the settlement order.
    """

    face_up_limit_section: ClassVar[str] = ""
    """Section for cards found face up in the deck (one is discarded, two void the round)."""
    sections: ClassVar[Mapping[str, str]] = {}
    """Sections by rule key, filled by each game."""
    game: Game
    _mode: PlayMode
    _players: dict[int, str]
    _stub_check: StubCheck
    _records: list[Record]
    _phase: Phase
    # The round's collaborators, each the owner of its state, changed only by its verified moves
    # (issue 37): the wagers, the cards, the decisions, the settlement, the progressive meters.
    _stakes: Stakes
    _deal: Deal
    _decisions: Decisions
    _settling: Settling
    _progressive: Contributions
    _wagers: Mapping[int, Mapping[str, int]]
    """``_stakes.by_seat``, the stakes' read-only view, held for the reads of every step."""
    _hands: Mapping[str, tuple[Card, ...]]
    """``_deal.hands``, the deal's read-only view, held for the reads of every step."""
    _decided: KeysView[int]
    """``_decisions.decided``, a read-only view held as ``_hands`` is (so are the next two)."""
    _folded: KeysView[int]
    _settled: KeysView[int]
    _ranked: dict[tuple[object, ...], tuple[tuple[Card, ...], HandRank]]
    """:meth:`rank_of`'s answers this round (a memo of a pure function, not the round's state)."""
    _sights: dict[Pov, Sightline]
    """Each point of view's sight of the records so far (:meth:`view`: a memo of a pure
    function, each record redacted once for each viewer, not the round's state)."""

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
        mode = verify_mode(mode)
        if not isinstance(shoe, Shoe):
            raise InvalidInput(f"shoe {shoe!r} is not a Shoe")
        verify_shoe(mode, shoe)
        if players is not None and type(players) is not dict and not isinstance(players, Mapping):
            raise InvalidInput(
                f"players {shown_value(players)} are not a mapping of seat to player"
            )
        if not isinstance(stub_check, StubCheck):
            raise InvalidInput(f"stub_check {shown_value(stub_check)} is not a StubCheck")
        if meters is not None:
            verify_meter_bank(meters)
        seated = dict(players if players is not None else _HOUSE_PLAYERS)
        boxes = game.rules.table.adjacent_boxes
        verify_seating(seated, boxes, self.sections.get("adjacent_boxes"))
        # the state of a new round in one store (private names only: all ``__setattr__`` guards
        # is that no public name is set, so the store goes straight to the instance's dict)
        stakes, deal, decisions, settling = Stakes(), Deal(shoe), Decisions(), Settling()
        self.__dict__.update(
            game=game,
            _mode=mode,
            _players=seated,
            _stub_check=stub_check,
            _records=[],
            _phase=Phase.BETTING,
            _stakes=stakes,
            _deal=deal,
            _wagers=stakes.by_seat,
            _hands=deal.hands,
            _decisions=decisions,
            _settling=settling,
            _decided=decisions.decided,
            _folded=decisions.folded,
            _settled=settling.settled,
            _progressive=Contributions(meters if meters is not None else MemoryMeters()),
            _ranked={},
            _sights={},
        )
        spec = game.meter_spec
        if spec is not None:
            self._progressive.ensure(spec)

    # -- read-only public surface ------------------------------------------------------------

    # The moves every round makes (the phase, the dealing plan, a street's index) store their
    # private state straight into the instance's dict, as __init__ does: the guard below is for
    # public names only, and its Python-level call cost ~0.3 us a move, ten or so a round.
    def __setattr__(self, name: str, value: object) -> None:
        # The public surface is read-only: state changes only through verified actions.
        if name[:1] != "_":
            raise AttributeError(f"{type(self).__name__}.{name} is read-only; apply an action")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__}.{name} cannot be deleted")

    @property
    def mode(self) -> PlayMode:
        """Real play, simulation or training (:mod:`croupier.core.modes`)."""
        return self._mode

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def records(self) -> tuple[Record, ...]:
        """The hand history so far (an immutable copy)."""
        return tuple(self._records)

    @property
    def stakes(self) -> Mapping[int, Mapping[str, int]]:
        """Wagers in action, by seat (a read-only copy)."""
        return frozen_dict({s: frozen_dict(w) for s, w in self._wagers.items()})

    @property
    def players(self) -> Mapping[int, str]:
        return frozen_dict(self._players)

    @property
    def folded(self) -> frozenset[int]:
        return frozenset(self._folded)

    @property
    def decided(self) -> frozenset[int]:
        """Seats that have made the decision now due (games that track one)."""
        return frozenset(self._decided)

    @property
    def settled(self) -> tuple[int, ...]:
        """Seats settled so far, in the order they were settled."""
        return tuple(self._settled)

    @property
    def stub_check(self) -> StubCheck:
        return self._stub_check

    @property
    def meters(self) -> MeterBank:
        """The progressive meters this round contributes to (the caller's bank)."""
        return self._progressive.meters

    @property
    def contributions(self) -> Mapping[str, Fraction]:
        """This round's contributions so far, by meter (exact; a read-only copy)."""
        return self._progressive.added

    @property
    def cards_left(self) -> int:
        """How many cards remain in the shoe (the count is public; the order never is)."""
        return self._deal.cards_left

    @property
    def cards_due(self) -> int:
        """How many cards the stage being dealt still owes (a reader's next report)."""
        return self._deal.due

    @property
    def back(self) -> BackColour | None:
        """The back colour of the deck dealt (public: the table shows it)."""
        return self._deal.back

    # -- the server side (store, table) ------------------------------------------------------

    def verify_attach_meters(self, meters: object) -> None:
        """Refuse ``meters`` that are not a :class:`~croupier.rules.progressive.MeterBank`."""
        verify_meter_bank(meters)

    def attach_meters(self, meters: MeterBank) -> None:
        """A round rebuilt from its records (on memory meters) continues on the real
        ``meters`` (the store's, after a restart); its contributions so far are known, so a
        later void takes them back."""
        self._progressive.attach(meters)

    def verify_unseat(self, seat: int) -> None:
        """Refuse to unseat a seat that has wagered in this round (it stays seated until the
        round is over; :class:`AbandonWagers` is the departure mid-round)."""
        if seat in self._stakes.in_action:
            raise IllegalAction(f"seat {seat} has wagered in this round and stays seated")

    def unseat(self, seat: int) -> None:
        """A player without a wager in this round leaves the table (the table asks)."""
        self.verify_unseat(seat)
        self._players.pop(seat, None)

    # -- the common surface ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self._phase in _ENDED

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats with a wager in this round, seat 1 (dealer's far left) first (a seat whose
        player left mid-round is out of it)."""
        return self._stakes.in_action

    def to_act(self) -> Actor:
        phase = self._phase
        if phase in _ENDED:
            return NOBODY
        if phase is Phase.DEALING:
            return CHANCE
        if phase is Phase.DECISIONS:
            seat = self.next_decider()
            if seat is not None:
                return SEAT_ACTORS.get(seat) or Actor(ActorKind.SEAT, seat)
        return DEALER_ACTOR

    def verify(self, action: Action) -> None:
        """Raise the typed error that refuses ``action`` now; return if it is allowed.

        Only :class:`~croupier.core.errors.CroupierError` leaves here: an object that is not an
        action, an action whose fields were tampered with after construction, or one of
        another game's kinds is refused as :class:`InvalidInput` or :class:`IllegalAction`."""
        self._verified(action)

    def _verified(self, action: Action) -> Doer | None:
        """:meth:`verify`, returning the doer of ``action`` (``None``: the class has none)."""
        if not isinstance(action, Action):
            raise InvalidInput(f"{shown_value(action)} is not an action")
        try:
            validate = _VALIDATORS.get(type(action))  # validate_fields, its check looked up here
            if validate is None:
                validate_fields(action)
            else:
                validate(action)
            if self._phase in _ENDED:
                raise IllegalAction(f"{action.name} refused: the round is {self._phase.value}")
            handlers = _HANDLERS.get(type(self)) or handlers_of(type(self))
            verifier, do = handlers.get(type(action), _UNHANDLED)
            if verifier is None:
                raise IllegalAction(f"{action.name} is not an action of {self.game.slug}")
            verifier(self, action)
        except CroupierError:
            raise
        except MALFORMED as exc:
            raise malformed(action, exc) from exc
        return do

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except CroupierError:
            return False
        return True

    def apply(self, action: Action) -> tuple[Record, ...]:
        """Verify ``action``, then carry it out; returns the records it added."""
        do = self._verified(action)
        assert do is not None, f"{type(self).__name__} verifies {action.name} but cannot do it"
        new = do(self, action)
        self._records.extend(new)
        return tuple(new)

    def run_dealer(self) -> tuple[Record, ...]:
        """Apply chance and dealer steps (deal, count the stub, reveal, settle) until a seat
        must act, wagers are still open, or the round is over.

        Each step is the round's own action (made valid: :meth:`dealer_step`), verified by its
        verifier and carried out by its doer, as :meth:`apply` does."""
        added: list[Record] = []
        cls = type(self)
        # the class's handlers and dealing, found once per class (asked here a few times a round)
        handlers = _HANDLERS.get(cls) or handlers_of(cls)
        records = self._records
        deal_verify, deal_do = handlers.get(DealNext, _UNHANDLED)
        by_plan = _BY_PLAN.get(cls)
        if by_plan is None:
            # dealt by the shared plan: the stages' cards may leave the shoe together
            shared = deal_verify is Round._verify_deal and deal_do is Round._do_deal
            by_plan = _BY_PLAN[cls] = shared
        while True:
            phase = self._phase
            if phase is Phase.DEALING and by_plan:
                self._deal_due(records, added)
                continue
            if phase is Phase.DEALING and deal_verify is not None and deal_do is not None:
                # chance deals every card now due, each by its verified DealNext (the very steps
                # dealer_step names while the phase is dealing), without asking again
                while self._phase is Phase.DEALING:
                    deal_verify(self, _DEAL_NEXT)
                    new = deal_do(self, _DEAL_NEXT)
                    records.extend(new)
                    added += new
                continue
            if phase in _ENDED or phase in _WAITING:
                break
            if phase is Phase.DECISIONS and self.next_decider() is not None:
                break  # a seat acts now (to_act)
            action = self.dealer_step()
            verifier, do = handlers.get(type(action), _UNHANDLED)
            if verifier is None or do is None:
                added += self.apply(action)  # refused there, with its reason
                continue
            try:
                verifier(self, action)
            except CroupierError:
                raise
            except MALFORMED as exc:
                raise malformed(action, exc) from exc
            new = do(self, action)
            records.extend(new)
            added += new
        return tuple(added)

    def _deal_due(self, records: list[Record], added: list[Record]) -> None:
        """Chance deals every card now due: each the step :meth:`dealer_step` names while the
        phase is dealing (:class:`DealNext`), refused as ``_verify_deal`` refuses it and done as
        ``_do_deal`` does it.  The cards of a stage leave the shoe together where it holds them
        all (nothing reads the round between two of them); else one at a time, so that a
        refusal part way leaves the round as the steps one by one would."""
        deal = self._deal
        while self._phase is Phase.DEALING:
            try:
                cards, steps = deal.deal_stage()
            except IllegalAction:  # no card due, or fewer left than due: nothing was dealt
                self._verify_deal(_DEAL_NEXT)  # refused there where no card is due or left
                new = self._do_deal(_DEAL_NEXT)
                records += new
                added += new
                continue
            made = cards_dealt(cards, steps)
            made += self._dealing_done()
            records += made
            added += made

    def dealer_step(self) -> Action:
        """The dealer's or chance's next regular action."""
        if self._phase is Phase.DEALING:
            return _DEAL_NEXT
        if self._phase is Phase.STUB_COUNT:
            return CountStub(count=self._deal.stub_count())
        if self._phase is Phase.REVEAL:
            return _REVEAL
        if self._phase is Phase.SETTLEMENT:
            return _SETTLE
        raise IllegalAction(f"no dealer step in phase {self._phase.value}")

    # -- wagers ----------------------------------------------------------------------------

    def _verify_place_wager(self, action: PlaceWager) -> None:
        """The one check of every game's wagers: the phase, the seat, the wager and its amount,
        the posted limits (and a wager it must equal can match it within them,
        :mod:`croupier.games.limits`); then the game's own rules (:meth:`_verify_wager`)."""
        amount = action.amount
        if type(amount) is not int or amount <= 0:  # refused there (or an int subclass taken)
            amount = verify_amount(amount, what=f"{action.wager} wager")
        if amount > MAX_WAGER:
            # not a rule of the regulations: the largest wager whose every win croupier can record
            # exactly (croupier.core.money.MAX_WAGER); a table posts its own maximum below it
            raise InvalidInput(
                f"{action.wager} wager of {shown_value(amount)} cents at seat {action.seat} is "
                f"above {MAX_WAGER:,} cents, the largest wager croupier accepts"
            )
        if self._phase is not Phase.BETTING:
            raise IllegalAction(
                f"{action.wager} wager of {amount} cents at seat {action.seat} refused: "
                f'"no more bets" has been called (phase {self._phase.value})',
                section=self.sections.get("no_more_bets"),
            )
        if action.seat not in self._players:
            raise IllegalAction(
                f"seat {action.seat!r} has no seated player; only seated players may wager",
                section=self.sections.get("seated"),
            )
        game = self.game
        if action.wager not in game.offered_set and action.wager not in game.wagers:
            raise InvalidInput(
                f"wager {action.wager!r} is not a {game.slug} wager "
                f"(wagers: {', '.join(game.wagers)})"
            )
        if action.wager not in game.offered_set:
            raise IllegalAction(
                f"the {action.wager} wager is not offered by this table's Rules Submission"
            )
        if self.at_felt or action.wager in self.sensed_wagers() or self.chip_reading:
            self._refuse_placed_progressive(action)  # sensed, read, or chips at the felt
        self._stakes.verify_place(action.seat, action.wager, amount)
        if action.wager == SENSED_WAGER:
            prog = game.rules.progressive
            assert prog is not None
            if amount != prog.wager:
                raise IllegalAction(
                    f"progressive wager {amount} cents at seat {action.seat} must be "
                    f"{prog.wager} cents",
                    section=game.progressive_wager_amounts[1] or None,
                )
        if game.rules.limits:
            game.verify_limit(action.seat, action.wager, amount)  # the posted [limits]
            if game.equal_wagers:  # a wager it must equal can be matched within its limits
                placed = self._stakes.of(action.seat)
                verify_equal_wagers(game, placed, action.seat, action.wager, amount)
        self._verify_wager(action.seat, action.wager, amount)

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Game-specific wager rules (required companions, equal bets); subclasses extend."""

    def _do_place_wager(self, action: PlaceWager) -> list[Record]:
        self._stakes.place(action.seat, action.wager, action.amount)
        return [wager_placed(action)]

    def _verify_no_more_bets(self, action: NoMoreBets) -> None:
        if self._phase is not Phase.BETTING:
            raise IllegalAction(f'"no more bets" was already called (phase {self._phase.value})')
        if not self._stakes.in_action:
            raise IllegalAction('"no more bets" refused: no player has wagered')
        if not self.at_felt:  # the base game's wagers are at the felt, unseen
            self._verify_ready()

    def _verify_ready(self) -> None:
        """Game-specific checks before the deal (e.g. a wager that needs a companion)."""

    def _progressive_seats(self) -> list[int]:
        return [s for s in self._stakes.in_action if "progressive" in self._wagers[s]]

    def contribution_meters(self) -> list[tuple[str, MeterSpec]]:
        """(wager, meter) pairs: each such wager accepted at "no more bets" adds its meter's rate
        of progression to that meter.  One progressive meter by default; games with several
        progressive wagers or linked jackpot meters override."""
        spec = self.game.meter_spec
        return [("progressive", spec)] if spec is not None else []

    def progressive_chip_count(self) -> int:
        """Progressive wagers the system accepted (one chip each), over every progressive wager."""
        return self._chip_count(self.contribution_meters())

    def _chip_count(self, meters: list[tuple[str, MeterSpec]]) -> int:
        """:meth:`progressive_chip_count` over the wagers of ``meters``
        (:meth:`contribution_meters`)."""
        wagers = {wager for wager, _ in meters} or {"progressive"}
        stakes, count = self._wagers, 0
        for seat in self._stakes.in_action:  # a loop, not a generator: asked twice a round
            placed = stakes[seat]
            for wager in wagers:
                if wager in placed:
                    count += 1
        return count

    def _do_no_more_bets(self, action: NoMoreBets) -> list[Record]:
        new: list[Record] = [no_more_bets_called(action.progressive_chips)]
        meters = self.contribution_meters()  # once: the count and the contributions read it
        accepted = self._chip_count(meters)
        if action.progressive_chips is not None and action.progressive_chips != accepted:
            if self.sensed:  # a table with sensors: held for a supervisor (.sensors)
                return new + self._hold_count(action.progressive_chips, accepted)
            return new + self._void(
                f"{action.progressive_chips} progressive chips collected but the system "
                f"accepted {accepted} progressive wagers",
                self.sections.get("progressive_count", ""),
            )
        return new + self._bets_closed(meters)

    def _bets_closed(self, meters: list[tuple[str, MeterSpec]]) -> list[Record]:
        """The count agreed: each progressive wager accepted contributes, the deal begins."""
        new: list[Record] = []
        for wager, spec in meters:
            total = self._stakes.total(wager)
            if total:
                new.append(self._progressive.contribute(spec, total))
        if self.at_felt:  # no card is dealt here: the winning hands are declared
            self.__dict__["_phase"] = Phase.DECLARING
            return new
        self._deal.plan(self._deal_plan())
        self.__dict__["_phase"] = Phase.DEALING
        return new

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        """The initial deal, card by card, for the wagering seats; subclasses provide it."""
        raise NotImplementedError

    def _verify_deal(self, action: DealNext) -> None:
        if self._phase is not Phase.DEALING or not self._deal.due:
            raise IllegalAction(f"no card is due to be dealt (phase {self._phase.value})")
        self._deal.verify_deal()

    def _do_deal(self, action: DealNext) -> list[Record]:
        card, step = self._deal.deal()
        new: list[Record] = [card_dealt(card, step)]
        if not self._deal.due:
            new += self._dealing_done()
        return new

    def _dealing_done(self) -> list[Record]:
        """Called after the last card of a dealing stage; moves to the next phase."""
        if self._stub_check is StubCheck.REQUIRED:
            self.__dict__["_phase"] = Phase.STUB_COUNT
        else:
            self.__dict__["_phase"] = Phase.DECISIONS
            return self._after_decision()
        return []

    def _verify_count_stub(self, action: CountStub) -> None:
        if self._phase is not Phase.STUB_COUNT:
            raise IllegalAction(f"the stub is counted after the deal (phase {self._phase.value})")
        if isinstance(action.count, bool) or not isinstance(action.count, int) or action.count < 0:
            raise InvalidInput(f"stub count {action.count!r} is not a whole number of cards")

    def _do_count_stub(self, action: CountStub) -> list[Record]:
        expected = self._deal.stub_expected()
        rec: list[Record] = [StubCounted(count=action.count)]
        if action.count != expected:
            section = self.sections.get("stub_count", "")
            rec.append(
                IrregularityReported(
                    irregularity=IrregularityKind.WRONG_CARD_COUNT,
                    section=section,
                    consequence=f"stub of {action.count} cards, {expected} expected",
                )
            )
            return rec + self._void(
                f"stub count {action.count} is not {expected}: cards missing or extra; the deck "
                "is removed from the table",
                section,
                deck_removed=True,
            )
        return rec + self._stub_counted()

    def _stub_counted(self) -> list[Record]:
        """The stub counted right: the decisions follow."""
        self.__dict__["_phase"] = Phase.DECISIONS
        return self._after_decision()

    def _section(self, key: str) -> str:
        """The game's section for the rule ``key`` (``""`` where it cites none)."""
        return self.sections.get(key, "")

    def _stage_end_correctable(self) -> bool:
        """Whether the last card of a stage may still be corrected once dealt: where the game
        acts on a stage's end only as every game does (it moves on to the decisions), nothing
        has been decided on that card yet (:meth:`ReportedCards._verify_correct_card`)."""
        return type(self)._dealing_done is Round._dealing_done

    # -- decisions (games provide) -----------------------------------------------------------

    def next_decider(self) -> int | None:
        """The seat that must decide now, or ``None``."""
        return None

    def decision_candidates(self, seat: int) -> Iterable[Action]:
        return ()

    def _after_decision(self) -> list[Record]:
        """Called after each decision; moves on when nobody is left to decide."""
        if self.next_decider() is None:
            self.__dict__["_phase"] = Phase.REVEAL
        return []

    def play_rule(self, seat: int) -> PlayRule | None:
        """The chapter's rule for the size of the decision wager ``seat`` makes now (a Play or
        a street bet), or ``None`` where the game has none; games with a Play provide it."""
        return None

    def verify_play_size(self, action: Play) -> int:
        """The size of ``action`` in cents, checked by :meth:`play_rule` (one rule per game)."""
        rule = self.play_rule(action.seat)
        if rule is None:
            raise IllegalAction(f"{self.game.slug} has no Play decision")
        return rule.verify(action, self._wagers[action.seat]["ante"])

    def play_record(self, action: Play, wager: str = "play") -> PlayWagered:
        """The record of a verified Play: its cents and, where whole, its multiple."""
        rule = self.play_rule(action.seat)
        assert rule is not None
        ante = self._wagers[action.seat]["ante"]
        amount = rule.verify(action, ante)
        return play_wagered(action.seat, wager, amount, rule.multiple_of(amount, ante))

    def _verify_play(self, action: Play) -> None:
        raise IllegalAction(f"{self.game.slug} has no Play decision")

    def _verify_fold(self, action: Fold) -> None:
        raise IllegalAction(f"{self.game.slug} has no fold decision")

    def _verify_check(self, action: Check) -> None:
        raise IllegalAction(f"{self.game.slug} has no check decision")

    def _verify_decider(self, seat: int, what: str) -> None:
        if self._phase is not Phase.DECISIONS:
            raise IllegalAction(f"{what} at seat {seat} refused: phase is {self._phase.value}")
        due = self.next_decider()
        if due != seat:
            raise IllegalAction(
                f"{what} at seat {seat} refused: seat {due} decides now "
                "(clockwise from the dealer's far left)",
                section=self.sections.get("decision_order"),
            )

    # -- reveal and settlement -------------------------------------------------------------

    def _verify_reveal(self, action: Reveal) -> None:
        if self._phase is not Phase.REVEAL:
            raise IllegalAction(
                f"the dealer reveals after every decision (phase {self._phase.value})",
                section=self.sections.get("reveal_order"),
            )

    def _do_reveal(self, action: Reveal) -> list[Record]:
        new = self._reveal()
        self.__dict__["_phase"] = Phase.SETTLEMENT if self._settlement_order() else Phase.OVER
        return new

    def _reveal(self) -> list[Record]:
        raise NotImplementedError

    def _settlement_order(self) -> list[int]:
        """Seats still to settle: from the dealer's right, counterclockwise (seat 7 first)."""
        settled = self._settled
        return [s for s in reversed(self._stakes.in_action) if s not in settled]

    def _verify_settle(self, action: Settle) -> None:
        if self._phase is not Phase.SETTLEMENT:
            raise IllegalAction(
                f"settlement follows the reveal (phase {self._phase.value})",
                section=self.sections.get("settlement_order"),
            )

    def _do_settle(self, action: Settle) -> list[Record]:
        order = self._settlement_order()
        seat = order[0]
        new: list[Record] = [seat_settling(seat)]
        new += self._settle_seat(seat)
        self._settling.settle(seat)
        # The seats left to settle are the rest of ``order``: a seat's settlement records its
        # own results and closes its own wagers, and no game's _settle_seat moves a stake, a
        # fold, a departure or a void (the order's other inputs; test_engine_made holds it).
        if len(order) == 1:
            self.__dict__["_phase"] = Phase.OVER
        return new

    def _settle_seat(self, seat: int) -> list[Record]:
        raise NotImplementedError

    def rank_of(self, cards: Sequence[Card], ranking: Ranking) -> HandRank:
        """:func:`~croupier.hands.evaluate` of ``cards``, once a round for the same cards: a
        hand is settled on, announced and keyed for several wagers (kept with the round only,
        with the cards it holds, so no other cards can take their identities)."""
        hand = tuple(cards)
        key = (ranking, *map(id, hand))
        known = self._ranked.get(key)
        if known is None:
            known = self._ranked[key] = (hand, evaluate(hand, ranking))
        return known[1]

    def show_hand(self, seat: int, rank: HandRank) -> HandShown:
        """The dealer turns ``seat``'s cards face up to settle it and announces ``rank`` (as
        § 641a.11(c)(1), § 569.11(h), § 571.11(h)); redacted for the other seats (pov.py)."""
        cards = self._hands[str(seat)]
        return hand_shown(seat, cards, rank)

    def settle(
        self, seat: int, wager: str, result: Result, *, paid: int = 0, line: str = ""
    ) -> WagerSettled:
        """A settlement record for a wager in action ("to" odds: the stake comes back on a win
        or push; a collected wager such as the progressive is marked by ``returned=0``)."""
        stake = self._wagers[seat][wager]
        returned = stake if result in (Result.WIN, Result.PUSH, Result.VOID) else 0
        if wager in self.collected_wagers and result is not Result.VOID:
            returned = 0
        return wager_settled(seat, wager, stake, result, paid, returned, line)

    def award_progressive(
        self,
        seat: int,
        wager: str,
        line: PayLine | None,
        spec: MeterSpec | None,
        *,
        lose_line: str = "",
        settle: Callable[..., WagerSettled] | None = None,
    ) -> list[Record]:
        """Settle a progressive wager on the highest line its hand reached (``None``: it loses).

        A share of a meter is paid at the meter's amount now, when this seat's turn comes in the
        settlement order, and a 100% award is not paid from the table inventory (§ 641a.11(c)(5),
        § 641a.12(d)(4); § 569.11(h)(5), § 569.12(f)(4); § 571.11(h)(3), § 571.12(g)).  "For 1"
        odds include the wager, which was collected at "no more bets".  ``spec`` is the meter the
        line pays (the game's meter, or a linked jackpot's); ``settle`` records the wager's
        settlement (default :meth:`settle`).
        """
        close = settle or self.settle
        if line is None:
            return [close(seat, wager, Result.LOSE, line=lose_line)]
        new: list[Record] = []
        meter = spec.name if spec is not None else ""
        if line.meter_share is not None:
            assert spec is not None, f"{wager} line {line.hand} pays a meter share: give the meter"
            changed, amount = self._progressive.pay(spec, line.meter_share)
            new.append(changed)
            from_meter = line.meter_share >= 1
        else:
            assert line.odds is not None
            amount, from_meter = line.odds.returned(self._wagers[seat][wager]), False
        new.append(
            ProgressivePaid(
                seat=seat, meter=meter, line=line.hand, amount=amount, from_meter=from_meter
            )
        )
        new.append(close(seat, wager, Result.WIN, paid=amount, line=line.hand))
        return new

    def _player_keys(self, seat: int) -> frozenset[str]:
        """The pay-table names the seat's hand satisfies (games with a progressive provide it)."""
        raise NotImplementedError

    def settle_progressive(self, seat: int) -> list[Record]:
        """The seat's progressive wager on the game's one table and meter (see
        :meth:`award_progressive`)."""
        table = self.game.progressive_table
        assert table is not None
        line = table.line_for(self._player_keys(seat))
        return self.award_progressive(seat, "progressive", line, self.game.meter_spec)

    kept_after_fold: ClassVar[frozenset[str]] = frozenset()
    """Wagers that keep a folded hand on the layout to the end of the round (the chapter settles
    them on that hand); a folded hand without one is collected to the discard rack before the
    reveal."""

    def hand_held(self, seat: int) -> bool:
        """Whether ``seat``'s hand is still held when the round is settled: a hand that was
        forfeited and collected to the discard rack before the reveal is not (§ 641a.11(c);
        § 569.11(e)(2); § 571.11(a), (c), (e)).  Games with other forfeitures extend it."""
        if seat not in self._folded:
            return True
        return bool(self.kept_after_fold & set(self._stakes.of(seat)))

    def award_envy(
        self,
        seat: int,
        schedule: EnvySchedule | None,
        keys_of: Callable[[int], frozenset[str]],
        *,
        wager: str = "progressive",
    ) -> list[Record]:
        """Envy Bonuses of ``seat``: one for each other player's qualifying hand, by the amount
        of this seat's own progressive wager; never for the player's own hand in any of the
        player's boxes, nor for the dealer's (§ 641a.11(c)(5)(v); § 569.12(f)(2); § 571.12(e)).

        The one rule of every game: only a hand still held qualifies anybody (:meth:`hand_held`);
        a hand forfeited and collected to the discard rack before the reveal qualifies nobody,
        while the player who folded it keeps the eligibility to receive Envy Bonuses for the
        hands of others (§ 641a.11(b)(2); § 571.11(g))."""
        if schedule is None:
            return []
        own = self._wagers[seat][wager]
        new: list[Record] = []
        for other in self._stakes.in_action:
            if self._players[other] == self._players[seat] or not self.hand_held(other):
                continue
            line = schedule.line_for(own, keys_of(other))
            if line is not None and line.amount is not None:
                new.append(EnvyPaid(seat=seat, for_seat=other, line=line.hand, amount=line.amount))
        return new

    collected_wagers: ClassVar[frozenset[str]] = frozenset({"progressive"})
    """Wagers taken into the table inventory at "no more bets" (§ 641a.8(b)): their "for 1"
    payouts include the stake, and nothing is handed back on a win."""

    # -- a player leaves mid-round (§ 641a.7(b) and its counterparts) ----------------------
    # Once a player has wagered and received cards the player stays seated until the round is
    # over; one who leaves anyway may have the wagers "considered abandoned and treated as
    # losing wagers".  AbandonWagers does that: every wager of the seat still open loses, the
    # seat takes no further part (no decision, no settlement, no Envy Bonus for or from its
    # hand: the hand is no longer held) and the round goes on for the others.  A void after it
    # returns the other seats' wagers only: the abandoned ones were settled when the player left.

    def _verify_abandon_wagers(self, action: AbandonWagers) -> None:
        """Refused before the deal is complete, once settlement begins, or for a seat not in
        the round."""
        seat, section = action.seat, self.sections.get("seated") or None
        if self._phase not in (Phase.STUB_COUNT, Phase.DECISIONS, Phase.REVEAL):
            raise IllegalAction(
                f"seat {seat} cannot abandon its wagers now (phase {self._phase.value}): the rule "
                "is for a player who leaves after the deal and before the round is settled",
                section=section,
            )
        try:
            self._stakes.verify_abandon(seat)
        except IllegalAction as exc:
            raise IllegalAction(str(exc), section=section) from None

    def _do_abandon_wagers(self, action: AbandonWagers) -> list[Record]:
        """The seat's open wagers lose; the seat leaves the round."""
        seat = action.seat
        closed = {r.wager for r in self._records if isinstance(r, WagerSettled) and r.seat == seat}
        new: list[Record] = [WagersAbandoned(seat=seat, section=self.sections.get("seated", ""))]
        new += [self.settle(seat, w, Result.LOSE) for w in self._wagers[seat] if w not in closed]
        self._stakes.abandon(seat)  # the seat is out of the round
        return new + (self._after_decision() if self._phase is Phase.DECISIONS else [])

    # -- irregularities (§ 641a.13 and its parallels; a game's sections name them) ------------
    # A card found face up in the deck, a card drawn in error, an automated shoe jam, a dealer
    # card exposed early, a wrong number of cards.  Games narrow the report by overriding
    # _verify_irregularity.

    def _verify_irregularity(self, action: ReportIrregularity) -> None:
        """Refuse a report of an irregularity the round cannot have now (the phase, the table's
        dealing method)."""
        kind = action.kind
        if kind in (IrregularityKind.CARD_FACE_UP_IN_DECK, IrregularityKind.CARD_DRAWN_IN_ERROR):
            if self._phase is not Phase.DEALING:
                raise IllegalAction(
                    f"{kind.value} is reported while dealing (phase {self._phase.value})"
                )
            if kind is IrregularityKind.CARD_FACE_UP_IN_DECK:
                self._deal.verify_discard()
        elif kind is IrregularityKind.AUTOMATED_SHOE_JAM:
            if self.game.rules.table.deal is not DealMethod.AUTOMATED_SHOE:
                raise IllegalAction("this table deals without an automated dealing shoe")
            if self._phase is not Phase.DEALING:
                raise IllegalAction(f"the shoe jams while dealing (phase {self._phase.value})")
        elif kind is IrregularityKind.DEALER_CARD_EXPOSED:
            if self._phase not in (Phase.DEALING, Phase.STUB_COUNT, Phase.DECISIONS):
                raise IllegalAction(
                    "a dealer card exposed early is reported before the reveal "
                    f"(phase {self._phase.value})"
                )
        elif kind is IrregularityKind.WRONG_CARD_COUNT and self._phase in (
            Phase.BETTING,
            Phase.REVEAL,
            Phase.SETTLEMENT,
        ):
            raise IllegalAction(
                f"a wrong number of cards is reported between the deal and the reveal "
                f"(phase {self._phase.value})"
            )

    def _do_irregularity(self, action: ReportIrregularity) -> list[Record]:
        """Carry out a verified report: a first card found face up is discarded, a card drawn in
        error is used as the next card; a second face-up card and every other irregularity void the
        round (the sections by kind are the game's)."""
        kind = action.kind
        section = self.sections.get(kind.value, "")
        if kind is IrregularityKind.CARD_FACE_UP_IN_DECK:
            card = self._deal.discard()
            if card is not None:
                return [
                    IrregularityReported(
                        irregularity=kind, section=section, consequence="card discarded"
                    ),
                    CardDiscarded(card=card, section=section),
                ]
            rec: list[Record] = [
                IrregularityReported(irregularity=kind, section=section, consequence="round void")
            ]
            return rec + self._void("a second card found face up in the deck", section)
        if kind is IrregularityKind.CARD_DRAWN_IN_ERROR:
            return [
                IrregularityReported(
                    irregularity=kind, section=section, consequence="used as the next card"
                )
            ]
        rec = [IrregularityReported(irregularity=kind, section=section, consequence="round void")]
        return rec + self._void(kind.value.replace("_", " "), section)

    def _void(
        self,
        reason: str,
        section: str,
        *,
        deck_removed: bool = False,
        by: str = "",
        extra: list[Record] | None = None,
    ) -> list[Record]:
        """Void the round by the one mechanism (issue 13: "voids are exact"): the records of
        the void; the phase becomes ``VOID``.

        A round is voided by an irregularity the game's chapter names (a second card found face
        up in the deck, a stub count that is wrong, ...) or by a supervisor's order
        (:class:`VoidRound`, e.g. after a crash).  Either way: only the wagers still open go back
        (``WagerSettled`` with ``Result.VOID``): a wager already forfeited (a fold collects the
        Ante and Blind at once, § 569.11(e)(2); § 571.11(a)) stays in the table inventory and is
        never returned a second time; the meter contributions of the progressive wagers it
        returns come off their meters (a progressive wager already forfeited keeps its
        contribution, as any lost progressive wager does); one ``RoundVoided`` record heads the
        return records.  So after a void the chip books balance: every accepted wager is settled
        exactly once.  ``extra`` holds records made by the action being carried out (not yet in
        the history)."""
        returned = self._wagers_still_open(extra)
        new: list[Record] = [
            RoundVoided(reason=reason, section=section, deck_removed=deck_removed, by=by)
        ]
        new += self._reverse_contributions(returned)
        new += [self.settle(seat, wager, Result.VOID) for seat, wager in returned]
        self.__dict__["_phase"] = Phase.VOID
        return new

    def _wagers_still_open(self, extra: list[Record] | None = None) -> list[tuple[int, str]]:
        """(seat, wager) pairs in action and not yet settled, seat 1 first (``extra``: records
        made by the action being carried out, not yet in the history)."""
        closed = {
            (r.seat, r.wager)
            for r in [*self._records, *(extra or [])]
            if isinstance(r, WagerSettled)
        }
        return [
            (seat, wager)
            for seat in self._stakes.in_action
            for wager in self._wagers[seat]
            if (seat, wager) not in closed
        ]

    def _settlement_begun(self) -> bool:
        """Whether the dealer has begun settling the round (a seat, a payout or an Envy
        Bonus)."""
        if self._phase in (Phase.SETTLEMENT, Phase.OVER, Phase.VOID):
            return True
        return any(isinstance(r, SeatSettling | ProgressivePaid | EnvyPaid) for r in self._records)

    def _reverse_contributions(self, returned: list[tuple[int, str]]) -> list[Record]:
        """Take the contributions of the returned progressive wagers off their meters."""
        back: dict[str, Fraction] = {}
        added = self._progressive.added
        for wager, spec in self.contribution_meters():
            if spec.name not in added:
                continue
            total = sum(self._wagers[s][w] for s, w in returned if w == wager)
            if total:
                back[spec.name] = back.get(spec.name, Fraction(0)) + spec.rate * total
        return [self._progressive.take_back(meter, owed) for meter, owed in back.items()]

    def _verify_void_round(self, action: VoidRound) -> None:
        """A supervisor's void: allowed in any phase before settlement has begun
        (``SeatSettling``), refused after it.  The regulations' texts given to the project say
        nothing of a supervisor voiding a round after a system failure; this follows the
        irregularity rule of each chapter ("all hands are void, all wagers returned", e.g.
        § 641a.13(b)) and returns only what is still on the layout."""
        if self._settlement_begun():
            raise IllegalAction(
                f"void ordered by {action.by!r} refused: settlement of the round has begun "
                f"(phase {self._phase.value}); a settled wager is not returned"
            )

    def _do_void_round(self, action: VoidRound) -> list[Record]:
        return self._void(action.reason, "", by=action.by)

    # -- results ---------------------------------------------------------------------------

    def books(self) -> Settlement:
        """The settlement so far, typed (:class:`~croupier.games.settlement.Settlement`)."""
        return Settlement.of(self._records)

    def settlement(self) -> dict[str, Any]:
        """Per seat: each wager's stake, result and payout, Envy Bonuses and the net (the stable
        JSON of :meth:`books`)."""
        return self.books().to_json()

    def view(self, pov: Pov) -> RoundView:
        """What ``pov`` may know of the round now (:mod:`croupier.games.pov`)."""
        return view(self, pov, self.sight(pov))

    def records_for(self, pov: Pov) -> tuple[Record, ...]:
        """The hand history as ``pov`` may see it: face-down cards it may not see hidden."""
        return self.sight(pov).seen

    def sight(self, pov: Pov) -> Sightline:
        """``pov``'s sight of the records now: the records as it sees them and the layout they
        show (:class:`~croupier.games.pov.Sightline`), from its sight when last asked (each new
        record redacted once; a table's people are each sent a view after every event).  Each
        line stored is whole (a caller racing another stores a line as true as its own)."""
        if not isinstance(pov, Pov):
            raise InvalidInput(f"point of view {pov!r} is not a Pov")
        line = self._sights[pov] = sightline(self._records, pov, self._sights.get(pov))
        return line

    def hands_report(self) -> dict[str, Any]:
        """Hands a game shows beside the seats and the dealer in a replay's output (baccarat:
        the Player's and Banker's cards and totals); none by default."""
        return {}

    def history(self) -> list[dict[str, Any]]:
        return [record_to_json(r) for r in self._records]

    @classmethod
    def rebuild(
        cls,
        game: Game,
        records: Sequence[Record],
        *,
        players: Mapping[int, str] | None = None,
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        meters_stood: Sequence[Fraction] | None = None,
    ) -> Round:
        """Replay a hand history into a new round (the audit trail rebuilds every hand).

        The shoe is rebuilt from the cards the records show leaving it, followed by the rest
        of the deck; each meter move starts where its record (or, exactly, ``meters_stood``:
        the meter ledger's amount before each of the round's moves) says the meter stood
        (:class:`~croupier.games.rebuild.ReplayMeters`: a linked meter moves between them).
        """
        return rebuild_round(
            game, records, players=players, stub_check=stub_check, meters_stood=meters_stood
        )

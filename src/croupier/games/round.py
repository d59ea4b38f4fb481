"""The shared machinery of a round: wagers, "no more bets", dealing, decisions, settlement.

See :mod:`croupier.games.base` for the protocol.  Each legality rule is written once, in a
``_verify_<x>(self, action: T)`` method; ``can`` and ``apply`` reuse it, so a refused action
changes nothing.  An action is dispatched by its type ``T`` (the annotation of ``action``), to
the verifier and the doer ``_do_<x>(self, action: T)`` found once per class.

Beside it: :mod:`.states`, :mod:`.faces`, :mod:`.streets`, :mod:`.play`, :mod:`.settlement`,
:mod:`.irregularities`, :mod:`.awards`, :mod:`.void`, :mod:`.abandon`, :mod:`.rebuild`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from croupier.cards import Card
from croupier.errors import CroupierError, IllegalAction, InvalidInput
from croupier.frozen import frozen_dict
from croupier.games._made import (
    card_dealt,
    hand_shown,
    no_more_bets_called,
    play_wagered,
    seat_settling,
    wager_placed,
    wager_settled,
)
from croupier.games.abandon import abandon_records, verify_abandon
from croupier.games.amounts import PlayRule
from croupier.games.awards import award_envy, award_progressive
from croupier.games.dealer import run_dealer
from croupier.games.dispatch import _HANDLERS, MALFORMED, Doer, handlers_of, malformed
from croupier.games.faces import FaceHelpers
from croupier.games.hooks import PrivateHooks
from croupier.games.irregularities import report_records, verify_report
from croupier.games.paytables import EnvySchedule, PayLine
from croupier.games.pov import Pov, RoundView, records_for, view
from croupier.games.rebuild import rebuild_round
from croupier.games.records import (
    _VALIDATORS,
    AbandonWagers,
    Action,
    Check,
    CountStub,
    DealNext,
    Fold,
    HandShown,
    IrregularityKind,
    IrregularityReported,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Play,
    PlayWagered,
    Record,
    ReportIrregularity,
    Result,
    Reveal,
    Settle,
    StubCounted,
    VoidRound,
    WagerSettled,
    record_to_json,
    shown_value,
    validate_fields,
)
from croupier.games.settlement import Settlement
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
from croupier.games.void import verify_void_round, void_records
from croupier.games.wagers import verify_place_wager
from croupier.hands import HandRank, Ranking, evaluate
from croupier.modes import PlayMode, verify_mode, verify_shoe
from croupier.progressive import MemoryMeters, MeterBank, MeterSpec
from croupier.shoe import BackColour, Shoe

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = ["SEATS", "Actor", "ActorKind", "DealStep", "Phase", "Round", "StubCheck"]

_DEAL_NEXT, _REVEAL, _SETTLE = DealNext(), Reveal(), Settle()
"""The dealer's field-less steps: immutable, so one of each serves every round."""
_ENDED = (Phase.OVER, Phase.VOID)
_UNHANDLED = (None, None)


class Round(FaceHelpers, PrivateHooks):
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
    _shoe: Shoe
    _meters: MeterBank
    _players: dict[int, str]
    _stub_check: StubCheck
    _records: list[Record]
    _phase: Phase
    _stakes: dict[int, dict[str, int]]
    _hands: dict[str, list[Card]]
    _face_up_found: int
    _plan: list[DealStep]
    _folded: set[int]
    _decided: set[int]
    _settled: list[int]
    _forfeited: dict[int, set[str]]
    _contributions: dict[str, Fraction]
    _abandoned: set[int]
    """Seats whose player left mid-round (§ 641a.7(b)): out of the round, wagers lost."""
    _active: tuple[int, ...] | None
    _active_at: int
    """How many seats the stakes held when :attr:`_active` was found."""
    _ranked: dict[tuple[object, ...], tuple[tuple[Card, ...], HandRank]]
    """:meth:`rank_of`'s answers this round."""
    """:attr:`active_seats` once wagers are closed (only a departure changes it then)."""

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
        if meters is not None and type(meters) is not MemoryMeters:
            for method in ("ensure", "amount", "contribute", "pay"):
                if not callable(getattr(meters, method, None)):
                    raise InvalidInput(f"meters {shown_value(meters)} are not a MeterBank")
        seated = dict(players) if players is not None else {s: f"P{s}" for s in SEATS}
        boxes = game.rules.table.adjacent_boxes
        verify_seating(seated, boxes, self.sections.get("adjacent_boxes"))
        # the state of a new round in one store (private names only: all ``__setattr__`` guards
        # is that no public name is set, so the store goes straight to the instance's dict)
        self.__dict__.update(
            game=game,
            _mode=mode,
            _shoe=shoe,
            _meters=meters if meters is not None else MemoryMeters(),
            _players=seated,
            _stub_check=stub_check,
            _records=[],
            _phase=Phase.BETTING,
            _stakes={},
            _hands={},
            _face_up_found=0,
            _plan=[],
            _folded=set(),
            _decided=set(),
            _settled=[],
            _forfeited={},
            _contributions={},
            _abandoned=set(),
            _active=None,
            _active_at=0,
            _ranked={},
        )
        spec = game.meter_spec
        if spec is not None:
            self._meters.ensure(spec)

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
        """Real play, simulation or training (:mod:`croupier.modes`)."""
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
        return frozen_dict({s: frozen_dict(w) for s, w in self._stakes.items()})

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
        return self._meters

    @property
    def contributions(self) -> Mapping[str, Fraction]:
        """This round's contributions so far, by meter (exact; a read-only copy)."""
        return frozen_dict(self._contributions)

    @property
    def cards_left(self) -> int:
        """How many cards remain in the shoe (the count is public; the order never is)."""
        return len(self._shoe)

    @property
    def back(self) -> BackColour | None:
        """The back colour of the deck dealt (public: the table shows it)."""
        return self._shoe.back

    # -- privileged: the server side (store, table) only ------------------------------------

    def attach_meters(self, meters: MeterBank) -> None:
        """A round rebuilt from its records (on memory meters) continues on the real meters
        (the store's replay, the live server's recovery)."""
        self._attach_meters(meters)

    def _attach_meters(self, meters: MeterBank) -> None:
        """Store only: a round rebuilt from its records (on memory meters) continues on the
        real meters; its contributions so far are known, so a later void takes them back."""
        self._meters = meters

    def _unseat(self, seat: int) -> None:
        """Table only: a player without a wager in this round leaves the table."""
        if seat in self.active_seats:
            raise IllegalAction(f"seat {seat} has wagered in this round and stays seated")
        self._players.pop(seat, None)

    # -- the common surface ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self._phase in _ENDED

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats with a wager in this round, seat 1 (dealer's far left) first (a seat whose
        player left mid-round is out of it)."""
        active = self._active
        if active is None or self._active_at != len(self._stakes):
            # A seat enters the stakes with its first wager and never leaves them (a departure
            # resets the answer), so the answer stands while no other seat enters.  The seats
            # of the stakes are betting positions (a wager is placed at one): sorted, they are
            # in the order of SEATS.
            gone = self._abandoned
            active = tuple(sorted(s for s, w in self._stakes.items() if w and s not in gone))
            state = self.__dict__  # private state, stored past the public-name guard
            state["_active"] = active
            state["_active_at"] = len(self._stakes)
        return active

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

        Only :class:`~croupier.errors.CroupierError` leaves here: an object that is not an
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
        verifier and carried out by its doer, as :meth:`apply` does (:mod:`.dealer`)."""
        return run_dealer(self)

    def dealer_step(self) -> Action:
        """The dealer's or chance's next regular action."""
        if self._phase is Phase.DEALING:
            return _DEAL_NEXT
        if self._phase is Phase.STUB_COUNT:
            return CountStub(count=self._shoe.stub_count())
        if self._phase is Phase.REVEAL:
            return _REVEAL
        if self._phase is Phase.SETTLEMENT:
            return _SETTLE
        raise IllegalAction(f"no dealer step in phase {self._phase.value}")

    # -- wagers ----------------------------------------------------------------------------

    def _verify_place_wager(self, action: PlaceWager) -> None:
        verify_place_wager(self, action)

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        """Game-specific wager rules (required companions, equal bets); subclasses extend."""

    def _do_place_wager(self, action: PlaceWager) -> list[Record]:
        self._stakes.setdefault(action.seat, {})[action.wager] = action.amount
        return [wager_placed(action)]

    def _verify_no_more_bets(self, action: NoMoreBets) -> None:
        if self._phase is not Phase.BETTING:
            raise IllegalAction(f'"no more bets" was already called (phase {self._phase.value})')
        if not self.active_seats:
            raise IllegalAction('"no more bets" refused: no player has wagered')
        self._verify_ready()

    def _verify_ready(self) -> None:
        """Game-specific checks before the deal (e.g. a wager that needs a companion)."""

    def _progressive_seats(self) -> list[int]:
        return [s for s in self.active_seats if "progressive" in self._stakes[s]]

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
        stakes, count = self._stakes, 0
        for seat in self.active_seats:  # a loop, not a generator: asked twice a round
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
            return new + self._void(
                f"{action.progressive_chips} progressive chips collected but the system "
                f"accepted {accepted} progressive wagers",
                self.sections.get("progressive_count", ""),
            )
        for wager, spec in meters:
            total = sum(self._stakes[s].get(wager, 0) for s in self.active_seats)
            if not total:
                continue
            contribution = spec.rate * total
            move = self._meters.contribute(spec.name, contribution)
            self._contributions[spec.name] = (
                self._contributions.get(spec.name, Fraction(0)) + contribution
            )
            new.append(
                MeterChanged(
                    meter=spec.name, before=move.before, after=move.after, reason="contribution"
                )
            )
        self.__dict__["_plan"] = list(self._deal_plan())
        self.__dict__["_phase"] = Phase.DEALING
        return new

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        """The initial deal, card by card, for the wagering seats; subclasses provide it."""
        raise NotImplementedError

    def _verify_deal(self, action: DealNext) -> None:
        if self._phase is not Phase.DEALING or not self._plan:
            raise IllegalAction(f"no card is due to be dealt (phase {self._phase.value})")
        if len(self._shoe) == 0:
            raise IllegalAction("the shoe is empty")

    def _do_deal(self, action: DealNext) -> list[Record]:
        step = self._plan.pop(0)
        card = self._shoe.deal()
        self._hands.setdefault(step.to, []).append(card)
        new: list[Record] = [card_dealt(card, step)]
        if not self._plan:
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
        expected = self._shoe.stub_expected()
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
        self.__dict__["_phase"] = Phase.DECISIONS
        return rec + self._after_decision()

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
        return rule.verify(action, self._stakes[action.seat]["ante"])

    def play_record(self, action: Play, wager: str = "play") -> PlayWagered:
        """The record of a verified Play: its cents and, where whole, its multiple."""
        rule = self.play_rule(action.seat)
        assert rule is not None
        ante = self._stakes[action.seat]["ante"]
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
                f"the dealer reveals after every decision (phase {self._phase.value})"
            )

    def _do_reveal(self, action: Reveal) -> list[Record]:
        new = self._reveal()
        self.__dict__["_phase"] = Phase.SETTLEMENT if self._settlement_order() else Phase.OVER
        return new

    def _reveal(self) -> list[Record]:
        raise NotImplementedError

    def _settlement_order(self) -> list[int]:
        """Seats still to settle: from the dealer's right, counterclockwise (seat 7 first)."""
        return [s for s in reversed(self.active_seats) if s not in self._settled]

    def _verify_settle(self, action: Settle) -> None:
        if self._phase is not Phase.SETTLEMENT:
            raise IllegalAction(f"settlement follows the reveal (phase {self._phase.value})")

    def _do_settle(self, action: Settle) -> list[Record]:
        order = self._settlement_order()
        seat = order[0]
        new: list[Record] = [seat_settling(seat)]
        new += self._settle_seat(seat)
        self._settled.append(seat)
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
        cards = tuple(self._hands[str(seat)])
        return hand_shown(seat, cards, rank)

    def settle(
        self, seat: int, wager: str, result: Result, *, paid: int = 0, line: str = ""
    ) -> WagerSettled:
        """A settlement record for a wager in action ("to" odds: the stake comes back on a win
        or push; a collected wager such as the progressive is marked by ``returned=0``)."""
        stake = self._stakes[seat][wager]
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
        return award_progressive(self, seat, wager, line, spec, lose_line=lose_line, settle=settle)

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
        return bool(self.kept_after_fold & set(self._stakes.get(seat, {})))

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
        return award_envy(self, seat, schedule, keys_of, wager=wager)

    collected_wagers: ClassVar[frozenset[str]] = frozenset({"progressive"})
    """Wagers taken into the table inventory at "no more bets" (§ 641a.8(b)): their "for 1"
    payouts include the stake, and nothing is handed back on a win."""

    # -- a player leaves mid-round (§ 641a.7(b)): :mod:`croupier.games.abandon` -------------

    def _verify_abandon_wagers(self, action: AbandonWagers) -> None:
        verify_abandon(self, action)

    def _do_abandon_wagers(self, action: AbandonWagers) -> list[Record]:
        new = abandon_records(self, action)
        self._abandoned.add(action.seat)
        self._active = None  # the seat is out of the round
        return new + (self._after_decision() if self._phase is Phase.DECISIONS else [])

    # -- irregularities: :mod:`croupier.games.irregularities` ------------------------------

    def _verify_irregularity(self, action: ReportIrregularity) -> None:
        verify_report(self, action)

    def _do_irregularity(self, action: ReportIrregularity) -> list[Record]:
        return report_records(self, action)

    def _void(
        self,
        reason: str,
        section: str,
        *,
        deck_removed: bool = False,
        by: str = "",
        extra: list[Record] | None = None,
    ) -> list[Record]:
        """Void the round by the one mechanism (:mod:`croupier.games.void`): the wagers still
        open go back exactly; their contributions come off the meters."""
        return void_records(self, reason, section, deck_removed=deck_removed, by=by, extra=extra)

    def _verify_void_round(self, action: VoidRound) -> None:
        verify_void_round(self, action)

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
        return view(self, pov)

    def records_for(self, pov: Pov) -> tuple[Record, ...]:
        """The hand history as ``pov`` may see it: face-down cards it may not see hidden."""
        return records_for(self._records, pov)

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

"""The progressive table game system's sensors, lights and lock-out (issue 39).

A table whose Rules Submission says ``[table] progressive_wagers = "sensors"`` takes its
progressive wagers from a wagering device at each betting position (§ 641a.2(c)(1); the same
in every chapter with a progressive, each game's ``sections`` name its own): the player puts a
value chip on the device (§ 641a.7(d)(4)), it recognises the chip and lights, and a device of
the table reports it (:class:`SenseWager`, docs/reader-protocol.md).  The round then holds the
progressive wager at the amount the Rules Submission posts; a chip taken off puts the light out
and the wager down.  Nobody places a progressive wager there through croupier.

Every game of the registry with a progressive wager has them: the wagers a device recognises
are the game's own progressive offers (:meth:`ProgressiveSensors.sensed_wagers`, from
:meth:`~croupier.games.base.Game.progressive_offers`, the one source of the wagers, their
amounts and their pay tables), so Let It Ride's Three-Card and Five-Card Progressives are each
sensed (§ 643a.2(c): a wagering device at each betting position and a lock-out), each message
naming its wager; a game with one progressive names none (``progressive``).

- **The lock-out** (§ 641a.2(c)(2)): the dealer's "no more bets" locks the devices.  A sensor
  event after it is refused *and recorded* (:class:`SensorRefused`, the round unchanged), so the
  records show every chip a player tried to place late.
- **The lights** (:meth:`ProgressiveSensors.lights`) are the accepted wagers, lit or dark at
  each seated position, in every view (each player verifies that their wager was accepted,
  § 641a.7(d)(4); the dealer verifies the light before a payout, § 641a.11(c)(5)(ii)).
- **The count** (§ 641a.8(b)): the dealer's count of the progressive chips collected against
  the wagers the sensors accepted.  A mismatch at a sensor table holds the round
  (:class:`CountHeld`, phase ``count_held``): nothing is dealt and nothing contributes to the
  meter until a supervisor recounts (:class:`ResolveCount`).  The chapter says only that the two
  must be equal; holding the round for a supervisor, and voiding it if the recount still
  differs, is the house's reading (issue 39).  A table without sensors voids the round on a
  mismatch, as before.

- **A chip-reading layout** (``[table] base_wagers = "chip_reading"``): the same device reports
  the amount of each other wager at each position (:class:`ReadChips`); the amount is the
  seat's wager, checked as a wager placed through croupier is (the posted limits, the game's
  own rules with their sections; the seat's balance on the server) and refused when not
  allowed; ``0`` takes it down.  After the lock-out a reading is refused and recorded
  (:class:`ChipsRefused`).  Nobody places those wagers through croupier there.  The decision
  wagers (a Play, a street) stay the players' decisions.  Chip-reading layouts are not in the
  chapters: the house's device, read as the progressive's sensors are (issue 39).

Every change is a frozen record whose ``to_action`` gives the input back, so the audit
(:func:`~croupier.games.rebuild.rebuild_round`) replays such a round.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.shapes import BaseWagers, ProgressiveWagers
from croupier.games.records import Action, PlaceWager, Record
from croupier.games.states import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping

    from croupier.games.base import Game
    from croupier.games.stakes import Stakes
    from croupier.rules.progressive import MeterSpec

__all__ = [
    "SENSED_WAGER",
    "SENSOR_RECORDS",
    "ChipsRead",
    "ChipsRefused",
    "CountHeld",
    "CountResolved",
    "Light",
    "ProgressiveSensors",
    "ReadChips",
    "ResolveCount",
    "SenseWager",
    "SensedPlacement",
    "SensorRefused",
    "WagerSensed",
]

SENSED_WAGER = "progressive"
"""The wager a sensor message names when it names none (a game with one progressive wager)."""
_ENDED = (Phase.OVER, Phase.VOID)


class Light(StrEnum):
    """A betting position's light: a progressive wager recognised, or none."""

    LIT = "lit"
    DARK = "dark"


@dataclass(frozen=True, kw_only=True)
class SenseWager(Action):
    """A device reports a chip recognised on (``lit``) or taken off (``dark``) the progressive
    wagering device at ``seat``."""

    name: ClassVar[str] = "sense_wager"
    seat: int
    light: Light
    wager: str = SENSED_WAGER


@dataclass(frozen=True, kw_only=True)
class SensedPlacement(PlaceWager):
    """The progressive wager a sensor placed, checked as any wager is (never an input)."""

    name: ClassVar[str] = "sensed_placement"


@dataclass(frozen=True, kw_only=True)
class ReadChips(Action):
    """A chip-reading layout reports ``amount`` cents of chips on ``wager`` at ``seat`` (``0``:
    the chips taken off)."""

    name: ClassVar[str] = "read_chips"
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class ChipPlacement(PlaceWager):
    """The wager a chip-reading layout placed, checked as any wager is (never an input)."""

    name: ClassVar[str] = "chip_placement"


@dataclass(frozen=True, kw_only=True)
class ResolveCount(Action):
    """A supervisor's recount of the progressive chips collected, after a count held."""

    name: ClassVar[str] = "resolve_count"
    count: int
    by: str


@dataclass(frozen=True, kw_only=True)
class WagerSensed(Record):
    """A sensor event accepted: the light at ``seat`` and the wager it placed or took down."""

    kind: ClassVar[str] = "wager_sensed"
    seat: int
    light: Light
    amount: int
    wager: str = SENSED_WAGER

    def to_action(self) -> Action:
        return SenseWager(seat=self.seat, light=self.light, wager=self.wager)


@dataclass(frozen=True, kw_only=True)
class SensorRefused(Record):
    """A sensor event after the lock-out: refused, the round unchanged, the attempt recorded."""

    kind: ClassVar[str] = "sensor_refused"
    seat: int
    light: Light
    phase: str
    section: str
    wager: str = SENSED_WAGER

    def to_action(self) -> Action:
        return SenseWager(seat=self.seat, light=self.light, wager=self.wager)


@dataclass(frozen=True, kw_only=True)
class ChipsRead(Record):
    """A chip reading accepted: ``seat``'s ``wager`` is ``amount`` cents (``0``: taken down)."""

    kind: ClassVar[str] = "chips_read"
    seat: int
    wager: str
    amount: int

    def to_action(self) -> Action:
        return ReadChips(seat=self.seat, wager=self.wager, amount=self.amount)


@dataclass(frozen=True, kw_only=True)
class ChipsRefused(Record):
    """A chip reading after the lock-out: refused, the round unchanged, the attempt recorded."""

    kind: ClassVar[str] = "chips_refused"
    seat: int
    wager: str
    amount: int
    phase: str
    section: str

    def to_action(self) -> Action:
        return ReadChips(seat=self.seat, wager=self.wager, amount=self.amount)


@dataclass(frozen=True, kw_only=True)
class CountHeld(Record):
    """The dealer's count differs from the wagers the sensors accepted: held for a supervisor."""

    kind: ClassVar[str] = "count_held"
    counted: int
    accepted: int
    section: str

    def to_action(self) -> None:
        return None  # made by "no more bets" (its record carries the count)


@dataclass(frozen=True, kw_only=True)
class CountResolved(Record):
    """A supervisor's recount (``by``): equal to ``accepted``, the round goes on; else void."""

    kind: ClassVar[str] = "count_resolved"
    count: int
    accepted: int
    by: str

    def to_action(self) -> Action:
        return ResolveCount(count=self.count, by=self.by)


SENSOR_RECORDS = (WagerSensed, SensorRefused, ChipsRead, ChipsRefused, CountHeld, CountResolved)
"""The records only a table with a progressive table game system's sensors makes."""


class ProgressiveSensors:
    """The moves of a round at a table with sensors (a base of
    :class:`~croupier.games.round.Round`; the round's own state, its collaborators' moves)."""

    if TYPE_CHECKING:  # the round's own state and procedures (Round provides them)
        game: Game
        sections: ClassVar[Mapping[str, str]]
        _phase: Phase
        _stakes: Stakes
        _players: Mapping[int, str]
        _records: list[Record]

        @property
        def at_felt(self) -> bool: ...

        def _verify_place_wager(self, action: PlaceWager) -> None: ...

        def _section(self, key: str) -> str: ...

        def _void(self, reason: str, section: str, *, deck_removed: bool = ...) -> list[Record]: ...

        def contribution_meters(self) -> list[tuple[str, MeterSpec]]: ...

        def _chip_count(self, meters: list[tuple[str, MeterSpec]]) -> int: ...

        def _bets_closed(self, meters: list[tuple[str, MeterSpec]]) -> list[Record]: ...

    @property
    def sensed(self) -> bool:
        """Whether the table's progressive wagers come from sensors (§ 641a.2(c)(1))."""
        return self.game.rules.table.progressive_wagers is ProgressiveWagers.SENSORS

    def sensed_wagers(self) -> tuple[str, ...]:
        """The progressive wagers the table's devices recognise, in the game's order: each of
        the game's progressive offers (none at a table without sensors)."""
        if not self.sensed:
            return ()
        return tuple(dict.fromkeys(offer.wager for offer in self.game.progressive_offers()))

    def lights(self) -> dict[int, Light]:
        """Each seated position's light at a sensor table (lit: a progressive wager accepted
        there, any of the game's); empty elsewhere.  Public: the lights are on the table for
        all to see."""
        return {
            seat: Light.LIT if Light.LIT in by_wager.values() else Light.DARK
            for seat, by_wager in self.wager_lights().items()
        }

    def wager_lights(self) -> dict[int, dict[str, Light]]:
        """Each seated position's light per sensed wager (one device per progressive wager at
        the position; Let It Ride has two, § 643a.2(c)(1)); empty at a table without sensors."""
        if not self.sensed:
            return {}
        wagers, sensed = self._stakes.by_seat, self.sensed_wagers()
        return {
            seat: {w: Light.LIT if w in wagers.get(seat, {}) else Light.DARK for w in sensed}
            for seat in sorted(self._players)
        }

    def _sensed_amount(self, wager: str) -> int:
        """The posted amount of a sensed wager: its offer's stake (the Rules Submission's)."""
        offers = self.game.progressive_offers()
        return next(offer.stake for offer in offers if offer.wager == wager)

    @property
    def chip_reading(self) -> bool:
        """Whether a chip-reading layout reports the table's other wagers (module docstring)."""
        return self.game.rules.table.base_wagers is BaseWagers.CHIP_READING

    def read_wagers(self) -> frozenset[str]:
        """The wagers a chip-reading layout reports: those offered, but the sensed progressives
        and the decision wagers (none at a table without one)."""
        if not self.chip_reading:
            return frozenset()
        game = self.game
        return frozenset(game.offered_set) - set(self.sensed_wagers()) - game.decision_wagers

    def _refuse_placed_progressive(self, action: PlaceWager) -> None:
        """§ 641a.7(d)(4): at a sensor table the chip goes on the position's device; croupier
        takes no progressive wager placed through it."""
        if type(action) is PlaceWager and self.at_felt:
            raise IllegalAction(
                f"seat {action.seat}'s {action.wager} wager is at the felt: at a table whose "
                "cards croupier does not see only the sensors report wagers"
            )
        if type(action) is PlaceWager and action.wager in self.read_wagers():
            raise IllegalAction(
                f"seat {action.seat}'s {action.wager} wager is read from the chips on the "
                "layout (a chip-reading table); it is not placed through croupier"
            )
        if type(action) is PlaceWager and self.sensed:
            raise IllegalAction(
                f"seat {action.seat}'s progressive wager is placed on the table's wagering "
                "device, which reports it; it is not placed through croupier",
                section=self._section("progressive_sensors") or None,
            )

    # -- a sensor event ----------------------------------------------------------------------

    def _verify_sense_wager(self, action: SenseWager) -> None:
        if not self.sensed:
            raise IllegalAction(
                'this table has no progressive sensors ([table] progressive_wagers = "placed")'
            )
        if not isinstance(action.light, Light):
            raise InvalidInput(f"light {action.light!r} is not lit or dark")
        sensed = self.sensed_wagers()
        if not sensed:
            raise IllegalAction("this table offers no progressive wager")
        if action.wager not in sensed:
            raise InvalidInput(
                f"seat {action.seat}'s sensor reports a {action.wager!r} wager; this table's "
                f"devices recognise {', '.join(sensed)}"
            )
        if self._phase in _ENDED:
            raise IllegalAction(
                f"sensor at seat {action.seat} refused: the round is over and betting is not "
                "open (the devices stay locked until the next round)"
            )
        if self._phase is not Phase.BETTING:
            return  # the lock-out: refused and recorded (_do_sense_wager)
        placed = self._stakes.by_seat.get(action.seat, {})
        wager = action.wager
        if action.light is Light.DARK:
            if wager not in placed:
                raise IllegalAction(f"seat {action.seat}'s {wager} light is already out")
            return
        amount = self._sensed_amount(wager)
        if self.at_felt:  # the base wagers are at the felt: the companion rules are the dealer's
            if action.seat not in self._players:
                raise IllegalAction(f"seat {action.seat!r} has no seated player")
            self._stakes.verify_place(action.seat, wager, amount)
            return
        placement = SensedPlacement(seat=action.seat, wager=wager, amount=amount)
        self._verify_place_wager(placement)

    def _do_sense_wager(self, action: SenseWager) -> list[Record]:
        seat, light, wager = action.seat, action.light, action.wager
        if self._phase is not Phase.BETTING:
            # § 641a.2(c)(2), § 643a.2(c)(2): the lock-out keeps a wager placed after "no more
            # bets" from being recognised; the attempt is recorded
            section = self._section("progressive_lock_out")
            phase = self._phase.value
            return [
                SensorRefused(seat=seat, light=light, phase=phase, section=section, wager=wager)
            ]
        if light is Light.DARK:
            amount = self._stakes.by_seat[seat][wager]
            self._stakes.withdraw(seat, wager)
            return [WagerSensed(seat=seat, light=light, amount=amount, wager=wager)]
        # § 641a.2(c)(1), § 643a.2(c)(1): the position's device accepted the wager
        amount = self._sensed_amount(wager)
        self._stakes.place(seat, wager, amount)
        return [WagerSensed(seat=seat, light=light, amount=amount, wager=wager)]

    # -- a chip reading ----------------------------------------------------------------------

    def _verify_read_chips(self, action: ReadChips) -> None:
        if not self.chip_reading:
            raise IllegalAction(
                'this table has no chip-reading layout ([table] base_wagers = "placed")'
            )
        readable = self.read_wagers()
        if action.wager not in readable:
            raise InvalidInput(
                f"seat {action.seat}'s layout reports a {action.wager!r} wager; this table's "
                f"layout reads {', '.join(sorted(readable))}"
            )
        amount = action.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise InvalidInput(f"chips of {amount!r} cents are not a whole amount")
        if self._phase in _ENDED:
            raise IllegalAction(
                f"chips at seat {action.seat} refused: the round is over and betting is not open"
            )
        if self._phase is not Phase.BETTING:
            return  # the lock-out: refused and recorded (_do_read_chips)
        placed = self._stakes.by_seat.get(action.seat, {}).get(action.wager)
        if amount == 0:
            if placed is None:
                raise IllegalAction(f"seat {action.seat} has no {action.wager} wager to take down")
            return
        if placed is not None:
            # a changed stack is reported taken off (0), then read again (the house's protocol)
            raise IllegalAction(
                f"seat {action.seat}'s {action.wager} wager is {placed} cents; the layout "
                "reports its chips taken off (0) before another amount"
            )
        self._verify_place_wager(ChipPlacement(seat=action.seat, wager=action.wager, amount=amount))

    def _do_read_chips(self, action: ReadChips) -> list[Record]:
        seat, wager, amount = action.seat, action.wager, action.amount
        if self._phase is not Phase.BETTING:
            # the lock-out: "no more bets" closes the layout as it does the progressive's
            # devices (§ 641a.2(c)(2) and its like); the attempt is recorded
            section = self._section("no_more_bets")
            phase = self._phase.value
            return [
                ChipsRefused(seat=seat, wager=wager, amount=amount, phase=phase, section=section)
            ]
        if amount == 0:
            self._stakes.withdraw(seat, wager)
        else:
            self._stakes.place(seat, wager, amount)
        return [ChipsRead(seat=seat, wager=wager, amount=amount)]

    # -- the count held ----------------------------------------------------------------------

    def count_held(self) -> CountHeld | None:
        """The count a supervisor must resolve now (``None``: none is held)."""
        if self._phase is not Phase.COUNT_HELD:
            return None
        return next(r for r in reversed(self._records) if isinstance(r, CountHeld))

    def _hold_count(self, counted: int, accepted: int) -> list[Record]:
        """§ 641a.8(b): the chips collected differ from the wagers the system accepted; the
        round waits for a supervisor's recount (the house's reading, see the module)."""
        self.__dict__["_phase"] = Phase.COUNT_HELD
        section = self._section("progressive_count")
        return [CountHeld(counted=counted, accepted=accepted, section=section)]

    def _verify_resolve_count(self, action: ResolveCount) -> None:
        if self._phase is not Phase.COUNT_HELD:
            raise IllegalAction(
                f"no progressive count is held for a supervisor (phase {self._phase.value})"
            )
        count = action.count
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidInput(f"recount {count!r} is not a whole number of chips")
        if not isinstance(action.by, str) or not action.by:
            raise InvalidInput("a recount names the supervisor who made it")

    def _do_resolve_count(self, action: ResolveCount) -> list[Record]:
        meters = self.contribution_meters()
        accepted = self._chip_count(meters)
        head: list[Record] = [CountResolved(count=action.count, accepted=accepted, by=action.by)]
        if action.count == accepted:
            return head + self._bets_closed(meters)
        return head + self._void(
            f"the supervisor's recount of {action.count} progressive chips differs from the "
            f"{accepted} wagers the sensors accepted",
            self._section("progressive_count"),
        )

"""Monte Carlo: play the real round engine many times and estimate each wager's return.

:func:`simulate` seats simulated players and plays ``rounds`` rounds of the game through the same
:class:`~croupier.games.Round` state machine a table uses (wagers, "no more bets", the dealing
procedure, decisions, settlement), then reports, per wager, the mean net result per unit wagered
with its standard error, beside the exact value of the par sheet where one is known.

The layout (decided once, before the first round, by trying it on an unshuffled shoe):

* seat 1 holds the game's required wagers (the Ante; the Ante and Blind; Let It Ride's three
  equal bets) at ``unit`` cents and makes every decision by the strategy; its net over the round
  (Play and street wagers, Ante Bonus and Blind results included) per unit of the initial
  required wager is the ``base`` estimate, as in the par sheet;
* each optional wager goes, where the game allows it there alone, to seat 2 (another player, who
  makes no decision), so that no decision of seat 1 can forfeit it; otherwise it joins seat 1
  (and is then subject to that seat's folds, as at a real table).  A wager that neither seat may
  make is skipped, with the reason.  Games without required wagers (baccarat) place every wager
  at seat 1: one coup settles them all independently.
* fixed-amount wagers (progressives) are made at the amount the table takes.

Each round is dealt from a fresh shoe (``game.deck_count`` decks; baccarat the shoe's six or
eight) shuffled by the injected seeded generator: rounds are independent and identically
distributed, which is what the par sheet's expectation and the standard error assume (a shoe
dealt down to the cut card would correlate successive coups).  Progressive meters are fresh too:
each round starts at the reset amount (plus that round's own contribution), so a progressive is
estimated at the reset meter, as the exact sheet prices it by default.  Envy Bonuses (paid to a
seat for another seat's hand) depend on how many players sit at the table and belong to no
par-sheet wager: they are counted apart (``envy_paid``).  The baccarat vigorish (collected or
marked) is charged to the Banker wager it was levied on.

Standard errors are the sample ones.  ``z`` compares the estimate with the exact mean using the
exact standard deviation (``exact_std_dev / sqrt(rounds)``), which stays honest for wagers whose
rare top award may not occur in the sample.  The exact ``base`` assumes the optimal strategy, so
it is shown only when the rounds were played by it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress
from operator import attrgetter
from typing import Any

from croupier.analysis import Strategy, optimal_strategy, par_sheet
from croupier.analysis.par import CONVENTIONS, ParSheet, WagerSheet, exact
from croupier.core.errors import CroupierError, InvalidInput
from croupier.core.money import format_cents
from croupier.games import Game, Round
from croupier.games.play import play_out
from croupier.games.records import Action, EnvyPaid, PlaceWager, Record, WagerSettled
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import Shoe, shoe_cards

__all__ = ["Estimate", "SimulationResult", "simulate"]

BASE_SEAT = 1
SIDE_SEAT = 2
_PLAYERS = {BASE_SEAT: "sim-1", SIDE_SEAT: "sim-2"}
_VIG_KINDS = frozenset({"vig_collected", "vig_marked"})
_ATTRIBUTED = frozenset({WagerSettled.kind, EnvyPaid.kind, *_VIG_KINDS})
"""The kinds of the records :func:`_attribute` reads (every other record moves no money)."""
_KIND = attrgetter("kind")


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """The simulated result of one wager (or of ``base``): sums over the rounds in cents."""

    wager: str
    seat: int
    stake: int
    """Cents: the unit the results are quoted per (the initial required wager for ``base``)."""
    placed: tuple[str, ...]
    rounds: int
    total: int
    """Sum over the rounds of the net result, cents."""
    total_sq: int
    """Sum over the rounds of the squared net result, cents squared."""
    hits: int
    """Rounds with a net gain."""
    exact: WagerSheet | None = None

    @property
    def mean(self) -> Fraction:
        """The sample mean net result per unit."""
        return Fraction(self.total, self.rounds * self.stake)

    @property
    def house_edge(self) -> Fraction:
        return -self.mean

    @property
    def variance(self) -> Fraction:
        """The unbiased sample variance of the net result per unit."""
        n = self.rounds
        if n < 2:
            return Fraction(0)
        return Fraction(n * self.total_sq - self.total**2, n * (n - 1) * self.stake**2)

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def std_error(self) -> float:
        """The standard error of :attr:`mean` (sample standard deviation / sqrt(rounds))."""
        return math.sqrt(self.variance / self.rounds)

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(self.hits, self.rounds)

    @property
    def z(self) -> float | None:
        """(simulated - exact mean) / (exact std dev / sqrt(rounds)); ``None`` without an exact
        value (or when the exact result never varies)."""
        if self.exact is None or self.exact.variance == 0:
            return None
        scale = math.sqrt(self.exact.variance / self.rounds)
        return float(self.mean - self.exact.expected) / scale

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "wager": self.wager,
            "seat": self.seat,
            "stake_cents": self.stake,
            "placed": list(self.placed),
            "rounds": self.rounds,
            "house_edge": float(self.house_edge),
            "std_error": self.std_error,
            "std_dev": self.std_dev,
            "hit_frequency": float(self.hit_frequency),
            "net_cents": self.total,
            "exact": None,
            "z": self.z,
        }
        if self.exact is not None:
            sheet = self.exact
            data["exact"] = {
                "house_edge": float(sheet.house_edge),
                "house_edge_exact": exact(sheet.house_edge),
                "std_dev": sheet.std_dev,
                "hit_frequency": float(sheet.hit_frequency),
                "hit_frequency_exact": exact(sheet.hit_frequency),
                "paytable": sheet.paytable,
            }
        return data

    @property
    def label(self) -> str:
        return self.wager if self.wager != "base" else f"base ({'+'.join(self.placed)})"

    def render(self, width: int = 34) -> str:
        name = self.label
        exact_edge = f"{float(self.exact.house_edge):>12.4%}" if self.exact else f"{'-':>12}"
        z = f"{self.z:>7.2f}" if self.z is not None else f"{'-':>7}"
        return (
            f"{name:<{width}}{self.seat:>5}{format_cents(self.stake):>9}{float(self.house_edge):>12.4%}"
            f"{self.std_error:>11.4%}{exact_edge}{z}{float(self.hit_frequency):>10.4%}"
        )


@dataclass(frozen=True, kw_only=True)
class SimulationResult:
    """What :func:`simulate` found: ``base`` and each optional wager's :class:`Estimate`."""

    game: str
    rounds: int
    seed: int | str
    strategy: str
    """``optimal``, ``simple`` (the round's house-player rule), ``given``, or ``none`` (no
    decision was asked for)."""
    unit: int
    decks: int
    base: Estimate | None
    wagers: Mapping[str, Estimate]
    skipped: Mapping[str, str] = field(default_factory=dict)
    envy_paid: int = 0
    """Envy Bonuses paid to the simulated seats over every round, cents."""
    rules: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def estimates(self) -> tuple[Estimate, ...]:
        return ((self.base,) if self.base is not None else ()) + tuple(self.wagers.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "method": "simulate",
            "rounds": self.rounds,
            "seed": self.seed,
            "strategy": self.strategy,
            "unit_cents": self.unit,
            "decks": self.decks,
            "reshuffle": "every round",
            "conventions": CONVENTIONS,
            "rules": dict(self.rules),
            "base": self.base.to_json() if self.base is not None else None,
            "wagers": {name: est.to_json() for name, est in self.wagers.items()},
            "skipped": dict(self.skipped),
            "envy_paid_cents": self.envy_paid,
            "notes": list(self.notes),
        }

    def render(self) -> str:
        width = max([20] + [len(e.label) + 2 for e in self.estimates])
        lines = [
            f"Simulation: {self.game}, {self.rounds:,} rounds, seed {self.seed!r}, "
            f"strategy {self.strategy}; a fresh {self.decks}-deck shoe every round",
            f"{'wager':<{width}}{'seat':>5}{'unit':>9}{'house edge':>12}{'std error':>11}"
            f"{'exact':>12}{'z':>7}{'hit freq':>10}",
        ]
        lines += [est.render(width) for est in self.estimates]
        for wager, why in self.skipped.items():
            lines.append(f"skipped {wager}: {why}")
        if self.envy_paid:
            lines.append(
                f"Envy Bonuses paid to the simulated seats: {format_cents(self.envy_paid)}"
            )
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Layout


@dataclass(frozen=True, kw_only=True)
class _Layout:
    wagers: tuple[PlaceWager, ...]
    required: tuple[str, ...]
    side: Mapping[tuple[int, str], str]
    """(seat, wager) -> the estimate it counts towards."""
    skipped: Mapping[str, str]


def _probe_round(game: Game, decks: int, wagers: Sequence[PlaceWager]) -> Round:
    rnd = game.new_round(
        shoe=Shoe(shoe_cards(decks), decks=decks), meters=MemoryMeters(), players=_PLAYERS
    )
    for action in wagers:
        rnd.apply(action)
    return rnd


def _try(game: Game, decks: int, wagers: Sequence[PlaceWager]) -> str | None:
    """Why ``wagers`` cannot open a round (placed, then "no more bets"), or ``None``."""
    try:
        rnd = _probe_round(game, decks, wagers)
        rnd.apply(rnd.dealer_no_more_bets())
    except CroupierError as exc:
        return str(exc)
    return None


def _amounts(
    game: Game, decks: int, placed: Sequence[PlaceWager], seat: int, wager: str
) -> list[int]:
    """Amounts to try for ``wager`` at ``seat``: the unit first, then what the table suggests
    (the fixed amount of a progressive)."""
    try:
        rnd = _probe_round(game, decks, placed)
    except CroupierError:
        return []
    return [
        a.amount
        for a in rnd.legal_actions()
        if isinstance(a, PlaceWager) and a.seat == seat and a.wager == wager
    ]


def _layout(game: Game, decks: int, unit: int) -> _Layout:
    required = game.required_wagers
    base = [PlaceWager(seat=BASE_SEAT, wager=w, amount=unit) for w in required]
    why = _try(game, decks, base) if base else None
    if why is not None:
        raise InvalidInput(f"the required wagers of {game.slug} cannot be placed: {why}")
    placed = list(base)
    side: dict[tuple[int, str], str] = {}
    skipped: dict[str, str] = {}
    seats = (SIDE_SEAT, BASE_SEAT) if required else (BASE_SEAT,)
    for wager in game.offered_wagers():
        if wager in required or wager in game.decision_wagers:
            continue
        reason = "refused"
        chosen: PlaceWager | None = None
        for seat in seats:
            for amount in dict.fromkeys([unit, *_amounts(game, decks, placed, seat, wager)]):
                action = PlaceWager(seat=seat, wager=wager, amount=amount)
                failure = _try(game, decks, [*placed, action])
                if failure is None:
                    chosen = action
                    break
                reason = failure
            if chosen is not None:
                break
        if chosen is None:
            skipped[wager] = reason
            continue
        placed.append(chosen)
        side[(chosen.seat, wager)] = wager
    return _Layout(wagers=tuple(placed), required=required, side=side, skipped=skipped)


# --------------------------------------------------------------------------------------------
# Simulation


class _Tally:
    __slots__ = ("hits", "total", "total_sq")

    def __init__(self) -> None:
        self.total = 0
        self.total_sq = 0
        self.hits = 0

    def add(self, net: int) -> None:
        self.total += net
        self.total_sq += net * net
        if net > 0:
            self.hits += 1


MAX_ROUNDS = 10**9
"""The most rounds one simulation plays (days of one core through the round engine: a larger
count is a typing error, and the loop stays bounded)."""


def _check_rounds(rounds: object) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"rounds {rounds!r} must be a whole number from 1 to {MAX_ROUNDS:,}")
    return rounds


def _exact_sheet(game: Game) -> ParSheet | None:
    try:
        return par_sheet(game)
    except InvalidInput:
        return None  # no exact analyser for this game yet


def _strategy(game: Game, strategy: Strategy | None) -> tuple[str, Strategy]:
    """The strategy's name and the strategy that decides: the one given, else the optimal
    strategy where one is registered, else the round's simple house-player rule."""
    name = "given"
    if strategy is None:
        strategy = optimal_strategy(game)
        name = "optimal"
    if strategy is not None:
        return name, strategy

    def decide(rnd: Round, seat: int) -> Action:
        return rnd.simple_strategy(seat)

    return "simple", decide


def _attribute(records: Sequence[Record], layout: _Layout, nets: dict[str, int]) -> tuple[int, int]:
    """Add each settled wager's net of one round to ``nets`` (by tally key; the required wagers
    at the base seat make the base); returns the Envy Bonuses paid and the net that matched no
    placed wager."""
    has_base = bool(layout.required)
    envy = 0
    unattributed = 0
    # the records that move money, picked out without a Python step per record (the others
    # are cards, decisions, seats turned to)
    for rec in compress(records, map(_ATTRIBUTED.__contains__, map(_KIND, records))):
        if isinstance(rec, WagerSettled):
            key = layout.side.get((rec.seat, rec.wager))
            if key is None and has_base and rec.seat == BASE_SEAT:
                key = "base"
            if key is None:
                unattributed += rec.net
            else:
                nets[key] += rec.net
        elif isinstance(rec, EnvyPaid):
            envy += rec.amount
        elif rec.kind in _VIG_KINDS:
            # baccarat: the vigorish levied on (or marked against) the Banker wager
            seat: int = getattr(rec, "seat")  # noqa: B009
            amount: int = getattr(rec, "amount")  # noqa: B009
            banker = layout.side.get((seat, "banker"))
            if banker is None:
                unattributed -= amount
            else:
                nets[banker] -= amount
    return envy, unattributed


def simulate(
    game: Game,
    *,
    rounds: int,
    seed: int | str,
    strategy: Strategy | None = None,
    progress: Callable[[int, int], None] | None = None,
    unit: int = 100,
    sheet: ParSheet | None = None,
) -> SimulationResult:
    """Play ``rounds`` independent rounds of ``game`` through its round engine.

    ``seed`` seeds the one seeded shuffler that shuffles every shoe (the compiled
    :class:`~croupier.kernels.CompiledSeededShuffler`:
    :class:`~croupier.table.shoe.SeededShuffler`'s
    draws);
    ``strategy`` decides for the seats (default: the optimal strategy where one is registered,
    else the round's simple house-player rule); ``progress(done, total)`` is called now and
    then; ``unit`` is the amount, in cents, of each wager that is not fixed by the table;
    ``sheet`` is the exact par sheet to compare with (default: computed, where the game has an
    exact analyser).
    """
    n = _check_rounds(rounds)
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise InvalidInput(f"unit {unit!r} must be a positive whole number of cents")
    from croupier.kernels import CompiledSeededShuffler  # numba: loaded where it is used

    shuffler = CompiledSeededShuffler(seed)
    name, decide = _strategy(game, strategy)
    decks = game.shoe_decks
    layout = _layout(game, decks, unit)
    has_base = bool(layout.required)
    tallies: dict[str, _Tally] = {"base": _Tally()} if has_base else {}
    for side_key in layout.side.values():
        tallies[side_key] = _Tally()
    envy = 0
    unattributed = 0
    decisions = 0
    step = max(1, n // 100)
    for done in range(1, n + 1):
        rnd = game.new_round(
            shoe=Shoe.shuffled(shuffler, decks=decks), meters=MemoryMeters(), players=_PLAYERS
        )
        for action in layout.wagers:
            rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        decisions += play_out(rnd, decide)
        nets = dict.fromkeys(tallies, 0)
        round_envy, round_unattributed = _attribute(rnd.records, layout, nets)
        envy += round_envy
        unattributed += round_unattributed
        for key, net in nets.items():
            tallies[key].add(net)
        if progress is not None and (done % step == 0 or done == n):
            progress(done, n)
    if decisions == 0:
        name = "none"  # no seat had a decision to make (baccarat)
    return _result(game, layout, tallies, n, seed, name, unit, decks, sheet, envy, unattributed)


def _base_estimate(
    game: Game,
    layout: _Layout,
    tallies: Mapping[str, _Tally],
    n: int,
    strategy: str,
    sheet: ParSheet | None,
    notes: list[str],
) -> Estimate | None:
    """The estimate of the required wagers with their decisions (``None``: the game has none);
    compared with the exact base only for the optimal strategy (a note says so otherwise)."""
    if not layout.required:
        return None
    stakes = {(a.seat, a.wager): a.amount for a in layout.wagers}
    first = layout.required[0]
    exact_base = sheet.base if sheet is not None else None
    if exact_base is not None and strategy != "optimal":
        notes.append(
            "the exact base assumes the optimal strategy; these rounds were played by the "
            f"{strategy} strategy, so the base is not compared"
        )
        exact_base = None
    t = tallies["base"]
    return Estimate(
        wager="base",
        seat=BASE_SEAT,
        stake=stakes[(BASE_SEAT, first)],
        placed=(*layout.required, *(w for w in game.wagers if w in game.decision_wagers)),
        rounds=n,
        total=t.total,
        total_sq=t.total_sq,
        hits=t.hits,
        exact=exact_base,
    )


def _result(
    game: Game,
    layout: _Layout,
    tallies: Mapping[str, _Tally],
    n: int,
    seed: int | str,
    strategy: str,
    unit: int,
    decks: int,
    sheet: ParSheet | None,
    envy: int,
    unattributed: int,
) -> SimulationResult:
    if sheet is None:
        sheet = _exact_sheet(game)
    notes: list[str] = []
    stakes = {(a.seat, a.wager): a.amount for a in layout.wagers}
    base = _base_estimate(game, layout, tallies, n, strategy, sheet, notes)
    wagers: dict[str, Estimate] = {}
    joined: list[str] = []
    for (seat, wager), key in layout.side.items():
        t = tallies[key]
        wagers[key] = Estimate(
            wager=wager,
            seat=seat,
            stake=stakes[(seat, wager)],
            placed=(wager,),
            rounds=n,
            total=t.total,
            total_sq=t.total_sq,
            hits=t.hits,
            exact=sheet.wagers.get(wager) if sheet is not None else None,
        )
        if seat == BASE_SEAT and layout.required:
            joined.append(wager)
    if joined:
        notes.append(
            f"made with the required wagers at seat {BASE_SEAT} (the game does not take them "
            f"alone), so that seat's decisions apply to them: {', '.join(joined)}"
        )
    if sheet is None:
        notes.append(f"no exact par sheet for {game.slug}: nothing to compare with")
    if any(est.exact is not None and est.exact.meter for est in wagers.values()):
        notes.append("progressives: every round starts from a meter at its reset amount")
    if unattributed:
        notes.append(f"{format_cents(unattributed)} of net results matched no placed wager")
    return SimulationResult(
        game=game.slug,
        rounds=n,
        seed=seed,
        strategy=strategy,
        unit=unit,
        decks=decks,
        base=base,
        wagers=wagers,
        skipped=layout.skipped,
        envy_paid=envy,
        rules=dict(game.rules.raw),
        notes=tuple(notes),
    )

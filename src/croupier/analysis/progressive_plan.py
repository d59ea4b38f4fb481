"""Progressive economics: the long-run hold of a progressive wager, and a plan for a target hold.

A progressive wager's return depends on the meter.  At a meter of ``M`` cents its expected net
per unit is ``a + b * M`` (exact, from the par sheet: ``a`` from the fixed lines and losses,
``b = sum(q_j * s_j) / W`` from the lines paying a share ``s_j`` of the meter with probability
``q_j``, for a wager of ``W`` cents).  Over the life of a meter what matters is the long run:

* every progressive wager adds ``rate * W`` to the meter at "no more bets";
* a 100% award (probability ``q_full`` a wager) pays the meter and resets it to ``R``;
* a partial award pays ``s_j`` of the meter, which never falls below ``R`` (the house tops it up:
  :func:`croupier.rules.progressive.pay_share`).

By the meter's balance, the meter pays out per wager, in the long run, what flows into it: the
contributions ``rate * W``, the reset amount ``R`` once per 100% award and the top-ups of the
floor ``phi``.  So the long-run expected net per unit is exactly

    ``a + rate + q_full * R / W + phi / W``

whatever the partial shares are.  ``phi`` (the cost of the reset floor on partial awards) is
small and has no closed form; :func:`simulate_meter` estimates it event by event (the gaps
between awards are geometric), and the same simulation cross-checks the rest of the identity.
The rounds between 100% awards are geometric with mean ``1 / q_full``: the expected
contributions between hits are ``rate * W / q_full``.

Games with several linked jackpots (Mississippi Stud tables B-D) have one such term per meter;
:func:`plan` then scales every meter's rate by one factor, keeping their proportions.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.analysis.par import exact
from croupier.core.arguments import verify_exact, verify_sequence
from croupier.core.errors import CroupierError, InvalidInput, shown_value
from croupier.games import Game, verify_game
from croupier.games.base import ProgressiveOffer
from croupier.rules.progressive import MeterSpec, pay_share

__all__ = [
    "MeterLine",
    "MeterSimulation",
    "PlanRow",
    "ProgressiveModel",
    "plan",
    "planned",
    "progressive_model",
    "simulate_meter",
]

RATE_PLACES = 4
"""A planned rate of progression is rounded to this many decimal places (e.g. ``"0.1875"``)."""


@dataclass(frozen=True, slots=True)
class MeterLine:
    """A pay line that pays a share of a meter: its hand, share, probability and meter."""

    hand: str
    share: Fraction
    probability: Fraction
    meter: str


@dataclass(frozen=True, slots=True)
class ProgressiveModel:
    """The exact economics of one progressive wager under a Rules Submission."""

    game: str
    wager: str
    stake: int
    fixed_net: Fraction
    """``a``: expected net per unit of the fixed lines and losses (meter lines count -1)."""
    lines: tuple[MeterLine, ...]
    meters: Mapping[str, MeterSpec]

    def slope(self, meter: str) -> Fraction:
        """``b`` for ``meter``: the expected net per unit gained per cent on that meter."""
        return sum(
            (ln.share * ln.probability for ln in self.lines if ln.meter == meter), Fraction(0)
        ) / Fraction(self.stake)

    def full_hit_probability(self, meter: str) -> Fraction:
        return sum(
            (ln.probability for ln in self.lines if ln.meter == meter and ln.share == 1),
            Fraction(0),
        )

    def return_at(self, amounts: Mapping[str, Fraction | int]) -> Fraction:
        """Expected net per unit with each meter at the given amount (cents)."""
        missing = [m for m in self.meters if m not in amounts]
        if missing:
            raise InvalidInput(f"meter amounts missing for {', '.join(missing)}")
        return self.fixed_net + sum(
            (self.slope(m) * Fraction(amounts[m]) for m in self.meters), Fraction(0)
        )

    def break_even(self, meter: str) -> Fraction | None:
        """The amount of ``meter`` at which the wager is even, the other meters at their reset;
        ``None`` where the meter pays no line."""
        b = self.slope(meter)
        if b == 0:
            return None
        others = {m: Fraction(s.reset) for m, s in self.meters.items() if m != meter}
        rest = self.fixed_net + sum((self.slope(m) * v for m, v in others.items()), Fraction(0))
        return -rest / b

    def long_run_net(self, scale: Fraction = Fraction(1)) -> Fraction:
        """Expected net per unit over a meter's life, the reset floor's top-ups left out
        (``a + sum(rate + q_full * R / W)``); ``scale`` multiplies every rate."""
        total = self.fixed_net
        for name, spec in self.meters.items():
            total += spec.rate * scale + self.full_hit_probability(name) * spec.reset / self.stake
        return total

    def contributions_between_hits(self, meter: str) -> Fraction | None:
        """Expected cents added to ``meter`` between two of its 100% awards."""
        q = self.full_hit_probability(meter)
        if q == 0:
            return None
        return self.meters[meter].rate * self.stake / q

    def to_json(self) -> dict[str, Any]:
        meters: dict[str, Any] = {}
        for name, spec in self.meters.items():
            q = self.full_hit_probability(name)
            between = self.contributions_between_hits(name)
            even = self.break_even(name)
            meters[name] = {
                "meter": spec.name,
                "reset_cents": spec.reset,
                "rate": str(spec.rate),
                "slope_per_cent": float(self.slope(name)),
                "slope_exact": exact(self.slope(name)),
                "break_even_cents": None if even is None else float(even),
                "full_hit_probability": float(q),
                "full_hit_probability_exact": exact(q),
                "wagers_between_hits": None if q == 0 else float(1 / q),
                "contributions_between_hits_cents": None if between is None else float(between),
                "wagers_between_hits_quantiles": _quantiles(q),
            }
        run = self.long_run_net()
        return {
            "game": self.game,
            "wager": self.wager,
            "stake_cents": self.stake,
            "fixed_net": float(self.fixed_net),
            "fixed_net_exact": exact(self.fixed_net),
            "long_run_house_edge": float(-run),
            "long_run_house_edge_exact": exact(-run),
            "long_run_note": "meter pays out contributions + reset per 100% award; the reset "
            "floor's top-ups on partial awards are left out (see simulate)",
            "meters": meters,
            "lines": [
                {
                    "hand": ln.hand,
                    "share": str(ln.share),
                    "probability": float(ln.probability),
                    "probability_exact": exact(ln.probability),
                    "meter": ln.meter,
                }
                for ln in self.lines
            ],
        }


def _quantiles(q: Fraction) -> dict[str, int] | None:
    """Wagers until a 100% award (geometric): the 50%, 90% and 99% points."""
    if q == 0:
        return None
    log_miss = math.log1p(-float(q))
    return {f"p{int(p * 100)}": math.ceil(math.log1p(-p) / log_miss) for p in (0.5, 0.9, 0.99)}


def _offer(game: Game, wager: str | None) -> ProgressiveOffer:
    offers = {o.wager: o for o in game.progressive_offers()}
    if not offers:
        raise InvalidInput(f"{game.slug}: the Rules Submission offers no progressive wager")
    if wager is None:
        return next(iter(offers.values()))
    if wager not in offers:
        have = ", ".join(offers)
        raise InvalidInput(f"{game.slug}: no progressive wager {wager!r} offered (have: {have})")
    return offers[wager]


def progressive_model(game: Game, wager: str | None = None) -> ProgressiveModel:
    """The exact model of ``game``'s progressive ``wager`` (default: the first offered), from
    its par sheet and pay table."""
    from croupier.analysis import par_sheet

    game = verify_game(game)
    offer = _offer(game, wager)
    shares = {ln.hand: ln.meter_share for ln in offer.table.lines if ln.meter_share is not None}
    sheet = par_sheet(game, wagers=[offer.wager]).wagers[offer.wager]
    total = sheet.total
    fixed = Fraction(0)
    weights: dict[str, int] = {}
    for outcome in sheet.outcomes:
        if outcome.name in shares:
            weights[outcome.name] = weights.get(outcome.name, 0) + outcome.weight
            fixed -= outcome.weight
        else:
            fixed += outcome.net * outcome.weight
    lines = tuple(
        MeterLine(
            hand=hand,
            share=share,
            probability=Fraction(weights.get(hand, 0), total),
            meter=offer.line_meters[hand].name,
        )
        for hand, share in shares.items()
    )
    meters = {spec.name: spec for spec in offer.line_meters.values()}
    return ProgressiveModel(
        game=game.slug,
        wager=offer.wager,
        stake=offer.stake,
        fixed_net=fixed / total,
        lines=lines,
        meters=meters,
    )


# --------------------------------------------------------------------------------------------
# The plan


@dataclass(frozen=True, slots=True)
class PlanRow:
    """A reset and rate of progression that give (about) the target hold."""

    meter: str
    reset: int
    rate: Fraction
    rates: Mapping[str, Fraction]
    long_run_edge: Fraction
    contributions_between_hits: Fraction | None

    def to_json(self) -> dict[str, Any]:
        return {
            "meter": self.meter,
            "reset_cents": self.reset,
            "rate": str(self.rate),
            "rates": {m: str(r) for m, r in self.rates.items()},
            "long_run_house_edge": float(self.long_run_edge),
            "long_run_house_edge_exact": exact(self.long_run_edge),
            "contributions_between_hits_cents": (
                None
                if self.contributions_between_hits is None
                else float(self.contributions_between_hits)
            ),
        }


def _decimal(value: Fraction) -> str:
    """A rate as the decimal string a Rules Submission holds (exact: RATE_PLACES places)."""
    scaled = value * 10**RATE_PLACES
    if scaled.denominator != 1:
        raise InvalidInput(f"rate {value} has more than {RATE_PLACES} decimal places")
    whole, frac = divmod(int(scaled), 10**RATE_PLACES)
    return f"{whole}.{frac:0{RATE_PLACES}d}"


def _rounded(value: Fraction) -> Fraction:
    return Fraction(round(value * 10**RATE_PLACES), 10**RATE_PLACES)


def _thaw(value: Any) -> Any:
    """A plain, mutable copy of a (frozen) Rules Submission mapping."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


def variant(game: Game, wager: str, reset: int, rates: Mapping[str, Fraction]) -> Game:
    """``game`` with the reset of the meter that pays ``wager``'s 100% line and every rate of
    its meters replaced, checked by the game's own rules: a reset below the chapter's minimum,
    say, is refused with its section.  The Rules Submission forms: the ``[progressive]`` block,
    its ``[progressive.meters.<jackpot>]`` entries (Mississippi Stud B-D) and a progressive of
    its own in ``[custom_paytables.<wager>]`` (Let It Ride's Three-Card Progressive)."""
    data = _thaw(game.rules.raw)
    custom = data.get("custom_paytables", {})
    if isinstance(custom, dict) and isinstance(custom.get(wager), dict) and "rate" in custom[wager]:
        block: dict[str, Any] = custom[wager]
        (rate,) = rates.values()
        block["rate"], block["reset"] = _decimal(rate), reset
        return type(game)(data)
    prog = data.get("progressive")
    if not isinstance(prog, dict):
        raise InvalidInput(f"{game.slug}: the Rules Submission offers no progressive wager")
    entries = prog.get("meters")
    if isinstance(entries, dict) and entries:
        main = _main_meter(progressive_model(game, wager))
        for jackpot, entry in entries.items():
            name = entry.get("meter") if isinstance(entry, dict) else None
            if isinstance(name, str) and name in rates:
                entry["rate"] = _decimal(rates[name])
                if name == main:
                    entry["reset"] = reset
            entries[jackpot] = entry
    else:
        (rate,) = rates.values()
        prog["rate"], prog["reset"] = _decimal(rate), reset
    return type(game)(data)


def plan(
    game: Game, target_hold: Fraction, resets: Sequence[int] = (), *, wager: str | None = None
) -> tuple[ProgressiveModel, list[PlanRow], list[str]]:
    """For each reset of ``meter`` (default: the submission's, 2x and 5x it), the rate of
    progression, to :data:`RATE_PLACES` places, whose long-run hold is nearest ``target_hold``.

    The resets are those of the meter of the first 100% line; with several meters (Mississippi
    Stud tables B-D) every meter's rate is scaled by one factor.  Resets and rates the game's
    chapter refuses (a reset below its minimum, a rate outside (0, 1]) are left out, each with
    the reason (the third item); every row is priced on the variant Rules Submission itself."""
    target_hold = verify_exact(target_hold, what="target hold")
    resets = verify_sequence(resets, what="resets")
    if not 0 <= target_hold < 1:
        raise InvalidInput(f"target hold {shown_value(target_hold)} must be in [0, 1)")
    model = progressive_model(game, wager)
    name = _main_meter(model)
    spec = model.meters[name]
    candidates = list(resets) or [spec.reset, 2 * spec.reset, 5 * spec.reset]
    total_rate = sum((s.rate for s in model.meters.values()), Fraction(0))
    rows: list[PlanRow] = []
    refused: list[str] = []
    for reset in candidates:
        if isinstance(reset, bool) or not isinstance(reset, int) or reset <= 0:
            raise InvalidInput(f"reset {reset!r} must be positive whole cents")
        shifted = dict(model.meters)
        shifted[name] = MeterSpec(name=spec.name, reset=reset, rate=spec.rate)
        base = model.fixed_net + sum(
            (model.full_hit_probability(m) * s.reset / model.stake for m, s in shifted.items()),
            Fraction(0),
        )
        # long-run net = base + scale * total_rate; the target is -target_hold
        scale = (-target_hold - base) / total_rate
        rates = {m: _rounded(s.rate * scale) for m, s in model.meters.items()}
        if not all(0 < r <= 1 for r in rates.values()):
            shown = ", ".join(f"{m} {float(r):.4f}" for m, r in rates.items())
            refused.append(f"reset {reset}: the rate needed ({shown}) is outside (0, 1]")
            continue
        try:
            priced = progressive_model(variant(game, model.wager, reset, rates), model.wager)
        except CroupierError as exc:
            refused.append(f"reset {reset}: {exc}")
            continue
        q = priced.full_hit_probability(name)
        rows.append(
            PlanRow(
                meter=name,
                reset=reset,
                rate=rates[name],
                rates=rates,
                long_run_edge=-priced.long_run_net(),
                contributions_between_hits=None if q == 0 else rates[name] * model.stake / q,
            )
        )
    return model, rows, refused


def planned(model: ProgressiveModel, row: PlanRow) -> ProgressiveModel:
    """``model`` with ``row``'s reset and rates (to simulate a plan)."""
    meters = {
        name: MeterSpec(
            name=spec.name,
            reset=row.reset if name == row.meter else spec.reset,
            rate=row.rates[name],
        )
        for name, spec in model.meters.items()
    }
    return dataclasses.replace(model, meters=meters)


def _main_meter(model: ProgressiveModel) -> str:
    for line in model.lines:
        if line.share == 1:
            return line.meter
    return next(iter(model.meters))


# --------------------------------------------------------------------------------------------
# Simulation of the meter, award by award


@dataclass(frozen=True, slots=True)
class MeterSimulation:
    """What ``awards`` meter awards did, and the long-run net per unit they imply."""

    awards: int
    wagers: int
    contributions: Fraction
    paid: int
    resets: int
    top_ups: Fraction
    final: Mapping[str, Fraction]
    start: Mapping[str, Fraction]
    net_per_unit: float
    std_error: float

    def balance(self) -> Fraction:
        """Meter accounting: start + contributions + resets + top-ups - paid - final (== 0)."""
        start = sum(self.start.values(), Fraction(0))
        final = sum(self.final.values(), Fraction(0))
        return start + self.contributions + self.resets + self.top_ups - self.paid - final

    def to_json(self) -> dict[str, Any]:
        return {
            "awards": self.awards,
            "wagers": self.wagers,
            "net_per_unit": self.net_per_unit,
            "std_error": self.std_error,
            "paid_cents": self.paid,
            "contributions_cents": float(self.contributions),
            "reset_injections_cents": self.resets,
            "floor_top_ups_cents": float(self.top_ups),
        }


def simulate_meter(
    model: ProgressiveModel, awards: int, rng: random.Random, *, batches: int = 50
) -> MeterSimulation:
    """Play ``model``'s meters through ``awards`` awards drawn at their exact probabilities.

    The wagers between two awards are geometric; each meter gets ``rate * W`` a wager; an award
    pays :func:`croupier.rules.progressive.pay_share` (whole cents, the reset floor), so the top-ups
    are counted.  ``rng`` is injected (simulation only).  The standard error comes from
    ``batches`` batch means of the ratio (paid per wager)."""
    if awards < batches or batches < 2:
        raise InvalidInput(f"awards {awards} must be at least batches {batches} (>= 2)")
    hit = sum((ln.probability for ln in model.lines), Fraction(0))
    if hit == 0:
        raise InvalidInput(f"{model.game}: the progressive pays no meter line")
    weights = [float(ln.probability / hit) for ln in model.lines]
    log_miss = math.log1p(-float(hit))
    meter = {m: Fraction(s.reset) for m, s in model.meters.items()}
    start = dict(meter)
    per_wager = {m: s.rate * model.stake for m, s in model.meters.items()}
    contributions, top_ups = Fraction(0), Fraction(0)
    paid = resets = wagers = 0
    batch_paid: list[int] = []
    batch_wagers: list[int] = []
    per_batch = awards // batches
    for i in range(awards):
        gap = 1 + int(math.log(1.0 - rng.random()) / log_miss)  # geometric on {1, 2, ...}
        wagers += gap
        for m in meter:
            meter[m] += gap * per_wager[m]
            contributions += gap * per_wager[m]
        line = rng.choices(model.lines, weights)[0]
        spec = model.meters[line.meter]
        amount = meter[line.meter]
        cents, after = pay_share(amount, line.share, spec.reset)
        paid += cents
        if line.share >= 1:
            resets += spec.reset
        else:
            top_ups += after - (amount - cents)
        meter[line.meter] = after
        if (i + 1) % per_batch == 0 and len(batch_paid) < batches:
            batch_paid.append(paid - sum(batch_paid))
            batch_wagers.append(wagers - sum(batch_wagers))
    ratios = [p / w for p, w in zip(batch_paid, batch_wagers, strict=True)]
    mean_ratio = paid / wagers
    spread = math.sqrt(sum((r - mean_ratio) ** 2 for r in ratios) / (len(ratios) - 1))
    return MeterSimulation(
        awards=awards,
        wagers=wagers,
        contributions=contributions,
        paid=paid,
        resets=resets,
        top_ups=top_ups,
        final=meter,
        start=start,
        net_per_unit=float(model.fixed_net) + mean_ratio / model.stake,
        std_error=spread / math.sqrt(len(ratios)) / model.stake,
    )

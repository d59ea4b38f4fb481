"""A casino floor forecast: many tables for many hours, through the fast kernels.

A floor file (TOML) lists the tables::

    name = "demo floor"
    [[tables]]
    name = "TCP"                   # the table's name (``count`` > 1 numbers them: TCP-1, ...)
    rules = "three-card-poker.toml"  # a Rules Submission, relative to the floor file; or
    game = "three-card-poker"      # the game under its default rules
    count = 4                      # identical tables
    average_bet = 2500             # cents: the average initial wager (the Ante; one bet of
                                   # Let It Ride's three; the baccarat wager)
    occupancy = [3, 2, 1, ...]     # seats played in each hour of the day (24 numbers), or one
    rounds_per_hour = 60           # default: the game's pace (croupier.analysis.pricing)
    progressive_share = 0.25       # share of seat-rounds with the progressive wager (offered)
    churn = 5                      # optional: handle / drop, to report the drop
    strategy = "q64"               # optional: a typical player's strategy (default "optimal";
                                   # croupier.analysis.floor_strategies names them per game)

Each seat-round is one round of the game's base wagers under the table's strategy (the
optimal one, or a typical player's of :mod:`croupier.analysis.floor_strategies`), dealt by the
kernels of :mod:`croupier.analysis.montecarlo` (a fresh deck each round; the baccarat tables
play the Banker wager).  Every table's rounds get their own generator, spawned from the floor's
seed by ``numpy.random.SeedSequence``, so the forecast is the same for a seed whether the tables
run on the threads of this process or on a Dask cluster (``scheduler``), in any order.

For each table and game: rounds, handle (initial wagers), the theoretical win (handle x exact
house edge), the simulated win with a 95% band (1.96 standard errors), the hold (win / handle)
and, with ``churn``, the drop and the hold on the drop.  Progressive meters shared by name are
played wager by wager: their hourly path, every jackpot (hour, table, hand, amount), the
contributions and the payouts (:func:`croupier.analysis.progressive_plan.simulate_meter` gives
the same process, award by award).
"""

from __future__ import annotations

import math
import os
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from croupier.core.errors import CroupierError, InvalidInput
from croupier.core.reading import read_bounded
from croupier.games import Game, get_game
from croupier.rules.progressive import MeterSpec, pay_share

__all__ = ["Floor", "FloorResult", "TablePlan", "load_floor", "simulate_floor"]

FLOOR_CAP = 256 * 1024
"""Bytes at most in a floor file."""
MAX_TABLES = 2_000
MAX_HOURS = 24 * 366
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table of the floor."""

    name: str
    game: Game
    average_bet: int
    occupancy: tuple[int, ...]
    rounds_per_hour: int
    progressive_share: Fraction
    churn: Fraction | None
    strategy: str = "optimal"

    def seat_rounds(self, hour: int) -> int:
        return self.rounds_per_hour * self.occupancy[hour % len(self.occupancy)]

    def rounds(self, hours: int) -> int:
        return sum(self.seat_rounds(h) for h in range(hours))


@dataclass(frozen=True, slots=True)
class Floor:
    name: str
    tables: tuple[TablePlan, ...]


# --------------------------------------------------------------------------------------------
# Reading the floor file


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{what} {value!r} must be a whole number from {low} to {high}")
    return value


def _share(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InvalidInput(f"{what} {value!r} must be a number from 0 to 1")
    try:
        share = Fraction(str(value)) if len(str(value)) <= 20 else None
    except (ValueError, ZeroDivisionError):
        share = None
    if share is None or not 0 <= share <= 1:
        raise InvalidInput(f"{what} {value!r} must be a number from 0 to 1")
    return share


def _occupancy(value: object, what: str) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (_int(value, what, 0, 7),)
    if not isinstance(value, list) or len(value) != 24:
        raise InvalidInput(f"{what} must be a number of seats (0-7) or 24 of them, one an hour")
    return tuple(_int(v, f"{what}[{i}]", 0, 7) for i, v in enumerate(value))


_TABLE_KEYS = {
    "name",
    "rules",
    "game",
    "count",
    "average_bet",
    "occupancy",
    "rounds_per_hour",
    "progressive_share",
    "churn",
    "strategy",
}


def _game_of(entry: Mapping[str, Any], where: str, folder: Path) -> Game:
    from croupier.rules.submission import load_rules

    if "rules" in entry:
        rules = entry["rules"]
        if not isinstance(rules, str) or len(rules) > 500:
            raise InvalidInput(f"{where}.rules must be a file name")
        try:
            return get_game(load_rules(folder / rules))
        except CroupierError as exc:
            raise InvalidInput(f"{where}.rules: {exc}") from None
    game = entry.get("game")
    if not isinstance(game, str) or len(game) > 100:
        raise InvalidInput(f"{where} needs rules (a Rules Submission file) or game (a slug)")
    try:
        return get_game(game)
    except CroupierError as exc:
        raise InvalidInput(f"{where}.game: {exc}") from None


_T = TypeVar("_T")


class _Problems:
    """Every refusal of a floor file, so the file is reported all at once (one line, the
    problems joined by "; "), not its first mistake only."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def of(self, check: Callable[..., _T], *args: Any) -> _T | None:
        """``check(*args)``, or ``None`` with its refusal kept."""
        try:
            return check(*args)
        except CroupierError as exc:
            self.found.append(str(exc))
            return None

    def raise_any(self) -> None:
        if self.found:
            raise FloorRefused(tuple(self.found))


class FloorRefused(InvalidInput):
    """A floor file refused: every problem found (:attr:`problems`, each naming its key), the
    message all of them on one line."""

    def __init__(self, problems: tuple[str, ...]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def _tables(
    entry: Mapping[str, Any], index: int, folder: Path, problems: _Problems
) -> list[TablePlan]:
    """The tables of one ``[[tables]]`` entry; each refusal goes to ``problems`` (then no
    table is made of the entry)."""
    from croupier.analysis.floor_strategies import OPTIMAL, verify
    from croupier.analysis.registry import analysis_for

    where = f"tables[{index}]"
    before = len(problems.found)
    unknown = sorted(set(entry) - _TABLE_KEYS)
    if unknown:
        problems.found.append(f"{where}: unknown key(s) {', '.join(unknown)}")
    game = problems.of(_game_of, entry, where, folder)
    slug = game.slug if game is not None else "table"
    name = entry.get("name", f"{slug}-{index + 1}")
    if not isinstance(name, str) or not 0 < len(name) <= 100:
        problems.found.append(f"{where}.name must be a name of 1-100 characters")
    count = problems.of(_int, entry.get("count", 1), f"{where}.count", 1, MAX_TABLES)
    pace = entry.get("rounds_per_hour")
    if pace is None and game is not None:
        pace = analysis_for(game).pace.rounds
    churn = entry.get("churn")
    average_bet = problems.of(_int, entry.get("average_bet"), f"{where}.average_bet", 1, 10**9)
    occupancy = problems.of(_occupancy, entry.get("occupancy"), f"{where}.occupancy")
    rounds_per_hour = (
        None if pace is None else problems.of(_int, pace, f"{where}.rounds_per_hour", 1, 1000)
    )
    share = problems.of(_share, entry.get("progressive_share", 0), f"{where}.progressive_share")
    churn_value = None if churn is None else problems.of(_int, churn, f"{where}.churn", 1, 1000)
    strategy = (
        None
        if game is None
        else problems.of(verify, game.slug, entry.get("strategy", OPTIMAL), f"{where}.strategy")
    )
    if len(problems.found) > before:
        return []
    assert game is not None and count is not None and average_bet is not None
    assert occupancy is not None and rounds_per_hour is not None and share is not None
    assert strategy is not None
    names = [name] if count == 1 else [f"{name}-{i + 1}" for i in range(count)]
    return [
        TablePlan(
            name=n,
            game=game,
            average_bet=average_bet,
            occupancy=occupancy,
            rounds_per_hour=rounds_per_hour,
            progressive_share=share,
            churn=None if churn_value is None else Fraction(churn_value),
            strategy=strategy,
        )
        for n in names
    ]


def _document(path: str | Path) -> dict[str, Any]:
    """The floor file read as TOML (refused whole: nothing else can be checked)."""
    raw = read_bounded(path, what="floor", limit=FLOOR_CAP)
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InvalidInput(f"floor {str(path)[:80]!r} is not UTF-8 TOML: {str(exc)[:80]}") from None


def load_floor(path: str | Path) -> Floor:
    """Read and check a floor file; every refusal names the key, and every refusal of the file
    is reported at once (one :class:`InvalidInput`, the problems joined by "; ")."""
    data = _document(path)  # read_bounded refuses what is not a path, before anything else
    file = Path(path)
    problems = _Problems()
    unknown = sorted(set(data) - {"name", "tables"})
    if unknown:
        problems.found.append(f"floor: unknown key(s) {', '.join(unknown)}")
    entries = data.get("tables")
    if not isinstance(entries, list) or not entries:
        problems.found.append("floor: give at least one [[tables]] entry")
        entries = []
    if len(entries) > MAX_TABLES:
        problems.found.append(f"floor: more than {MAX_TABLES} tables")
        entries = []
    tables: list[TablePlan] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            problems.found.append(f"tables[{i}] must be a table")
            continue
        tables += _tables(entry, i, file.parent, problems)
        if len(tables) > MAX_TABLES:
            problems.found.append(f"floor: more than {MAX_TABLES} tables")
            break  # (each entry's count is bounded: no more is built than one entry past it)
    seen: set[str] = set()
    for t in tables:
        if t.name in seen:
            problems.found.append(f"floor: two tables are named {t.name!r}")
        seen.add(t.name)
    problems.raise_any()
    name = data.get("name", file.stem)
    return Floor(name=str(name)[:100], tables=tuple(tables))


# --------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class TableResult:
    name: str
    game: str
    strategy: str
    rounds: int
    handle: int
    theo: Fraction
    win: Fraction
    se: float
    churn: Fraction | None

    @property
    def hold(self) -> float:
        return float(self.win / self.handle) if self.handle else 0.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "table": self.name,
            "game": self.game,
            "strategy": self.strategy,
            "rounds": self.rounds,
            "handle_cents": self.handle,
            "theoretical_win_cents": float(self.theo),
            "win_cents": float(self.win),
            "win_band_95_cents": [float(self.win) - Z95 * self.se, float(self.win) + Z95 * self.se],
            "hold": self.hold,
            "theoretical_hold": float(self.theo / self.handle) if self.handle else 0.0,
        }
        if self.churn is not None and self.handle:
            drop = Fraction(self.handle) / self.churn
            data["drop_cents"] = float(drop)
            data["hold_on_drop"] = float(self.win / drop)
        return data


@dataclass(frozen=True, slots=True)
class Jackpot:
    hour: int
    table: str
    hand: str
    meter: str
    paid: int


@dataclass(frozen=True, slots=True)
class MeterPath:
    meter: str
    hourly: tuple[int, ...]
    wagers: int
    contributions: Fraction
    paid: int


@dataclass(frozen=True, slots=True)
class FloorResult:
    floor: str
    hours: int
    seed: int
    tables: tuple[TableResult, ...]
    meters: tuple[MeterPath, ...]
    jackpots: tuple[Jackpot, ...]
    wall_s: float
    where: str
    notes: tuple[str, ...] = field(default=())

    @property
    def rounds(self) -> int:
        return sum(t.rounds for t in self.tables)

    def by_game(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for t in self.tables:
            g = out.setdefault(
                t.game,
                {
                    "tables": 0,
                    "rounds": 0,
                    "handle": 0,
                    "theo": Fraction(0),
                    "win": Fraction(0),
                    "var": 0.0,
                },
            )
            g["tables"] += 1
            g["rounds"] += t.rounds
            g["handle"] += t.handle
            g["theo"] += t.theo
            g["win"] += t.win
            g["var"] += t.se**2
        return out

    def to_json(self) -> dict[str, Any]:
        games = {}
        for game, g in self.by_game().items():
            se = math.sqrt(g["var"])
            games[game] = {
                "tables": g["tables"],
                "rounds": g["rounds"],
                "handle_cents": g["handle"],
                "theoretical_win_cents": float(g["theo"]),
                "win_cents": float(g["win"]),
                "win_band_95_cents": [float(g["win"]) - Z95 * se, float(g["win"]) + Z95 * se],
                "hold": float(g["win"] / g["handle"]) if g["handle"] else 0.0,
                "theoretical_hold": float(g["theo"] / g["handle"]) if g["handle"] else 0.0,
            }
        return {
            "floor": self.floor,
            "hours": self.hours,
            "seed": self.seed,
            "rounds": self.rounds,
            "wall_s": round(self.wall_s, 3),
            "rounds_per_s": round(self.rounds / self.wall_s) if self.wall_s > 0 else None,
            "where": self.where,
            "games": games,
            "tables": [t.to_json() for t in self.tables],
            "meters": [
                {
                    "meter": m.meter,
                    "progressive_wagers": m.wagers,
                    "contributions_cents": float(m.contributions),
                    "paid_cents": m.paid,
                    "hourly_cents": list(m.hourly),
                }
                for m in self.meters
            ],
            "jackpots": [
                {
                    "hour": j.hour,
                    "table": j.table,
                    "hand": j.hand,
                    "meter": j.meter,
                    "paid_cents": j.paid,
                }
                for j in self.jackpots
            ],
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------------------------
# The simulation


def _table_task(slug: str, rounds: int, seed: int, strategy: str = "optimal") -> tuple[int, int]:
    """One table's rounds on the kernels: the sums of the net and of its square (in the
    kernel's units).  The blocks and their seeds come from ``seed`` alone; a typical
    ``strategy`` plays the same kernel on its own decision tables."""
    from croupier.analysis.floor_strategies import OPTIMAL, strategy_tables
    from croupier.analysis.mc_kernels import NSTATS
    from croupier.analysis.montecarlo import block_plan, run_block
    from croupier.analysis.registry import analysis_for

    total = total_sq = 0
    kernel = analysis_for(slug).kernel
    tables = None if strategy == OPTIMAL else strategy_tables(slug, strategy)
    for block_seed, n in block_plan(rounds, seed):
        if tables is None:
            stats = run_block(slug, block_seed, n)
        else:
            found = np.zeros(NSTATS, dtype=np.int64)
            kernel.block(block_seed, n, get_game(slug).shoe_decks, tables, found)
            stats = [int(x) for x in found]
        total += stats[0]
        total_sq += stats[1]
    return total, total_sq


def _run_tables(
    tasks: Sequence[tuple[str, int, int, str]], scheduler: str | None, workers: int
) -> tuple[list[tuple[int, int]], str]:
    if scheduler is None:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(lambda t: _table_task(*t), tasks)), "threads"
    from croupier.analysis.dask_cluster import as_completed, dask_client

    out: list[tuple[int, int]] = [(0, 0)] * len(tasks)
    named = [
        (
            f"croupier-floor-{slug}-{strategy}-{rounds}-{seed}",
            _table_task,
            (slug, rounds, seed, strategy),
        )
        for slug, rounds, seed, strategy in tasks
    ]
    with dask_client(scheduler) as client:
        for i, value in as_completed(client, named):
            out[i] = (int(value[0]), int(value[1]))
    return out, f"dask {scheduler}"


def _exact_of(plans: Sequence[TablePlan]) -> dict[tuple[str, str], tuple[Fraction, int]]:
    """Each (game, strategy)'s exact mean net per kernel unit, and the scale of the kernel's
    sums (once each; the kernels play the games' default rules); every game's optimal one too,
    for :func:`_check_base_rules`."""
    from croupier.analysis.floor_strategies import OPTIMAL, strategy_exact
    from croupier.analysis.montecarlo import exact_and_scale, run_block

    out: dict[tuple[str, str], tuple[Fraction, int]] = {}
    for plan in plans:
        slug = plan.game.slug
        if (slug, OPTIMAL) not in out:
            out[slug, OPTIMAL] = exact_and_scale(slug)
            run_block(slug, 0, 1)  # build the decision tables and compile, off the clock
        if (slug, plan.strategy) not in out:
            out[slug, plan.strategy] = (strategy_exact(slug, plan.strategy), out[slug, OPTIMAL][1])
            _table_task(slug, 1, 0, plan.strategy)  # the strategy's tables, off the clock
    return out


def _table_result(
    plan: TablePlan, hours: int, stats: tuple[int, int], exact_scale: tuple[Fraction, int]
) -> TableResult:
    total, total_sq = stats
    mean_exact, scale = exact_scale
    rounds = plan.rounds(hours)
    bet = plan.average_bet
    if rounds > 1:
        variance = (rounds * total_sq - total * total) / (rounds * (rounds - 1) * scale * scale)
    else:
        variance = 0.0
    return TableResult(
        name=plan.name,
        game=plan.game.slug,
        strategy=plan.strategy,
        rounds=rounds,
        handle=rounds * bet,
        theo=-mean_exact * rounds * bet,
        win=Fraction(-total * bet, scale),
        se=math.sqrt(max(variance, 0.0) * rounds) * bet,
        churn=plan.churn,
    )


def _meters(
    floor: Floor, hours: int, rng: np.random.Generator
) -> tuple[tuple[MeterPath, ...], tuple[Jackpot, ...]]:
    from croupier.analysis.progressive_plan import progressive_model

    playing = [t for t in floor.tables if t.progressive_share > 0 and t.game.progressive_offers()]
    models = {}
    for t in playing:
        key = id(t.game)
        if key not in models:
            models[key] = progressive_model(t.game)
    specs: dict[str, MeterSpec] = {}
    for model in models.values():
        for name, spec in model.meters.items():
            specs.setdefault(name, spec)
    meter = {name: Fraction(spec.reset) for name, spec in specs.items()}
    hourly: dict[str, list[int]] = {name: [] for name in specs}
    wagers = dict.fromkeys(specs, 0)
    contributions = dict.fromkeys(specs, Fraction(0))
    paid = dict.fromkeys(specs, 0)
    jackpots: list[Jackpot] = []
    for hour in range(hours):
        for t in playing:
            model = models[id(t.game)]
            count = int(rng.binomial(t.seat_rounds(hour), float(t.progressive_share)))
            _play_meter(model, count, hour, t.name, meter, specs, rng, jackpots, paid)
            for name, spec in model.meters.items():
                wagers[name] += count
                contributions[name] += count * spec.rate * model.stake
        for name in specs:
            hourly[name].append(math.floor(meter[name]))
    paths = tuple(
        MeterPath(
            meter=name,
            hourly=tuple(hourly[name]),
            wagers=wagers[name],
            contributions=contributions[name],
            paid=paid[name],
        )
        for name in specs
    )
    return paths, tuple(jackpots)


def _play_meter(
    model: Any,
    count: int,
    hour: int,
    table: str,
    meter: dict[str, Fraction],
    specs: Mapping[str, MeterSpec],
    rng: np.random.Generator,
    jackpots: list[Jackpot],
    paid: dict[str, int],
) -> None:
    """``count`` progressive wagers of one table in one hour, award by award (the gaps between
    awards are geometric; the process is memoryless, so each hour starts afresh)."""
    hit = float(sum((ln.probability for ln in model.lines), Fraction(0)))
    weights = np.array([float(ln.probability) for ln in model.lines]) / hit if hit else None
    done = 0
    while count > done:
        gap = int(rng.geometric(hit)) if hit else count + 1
        step = min(gap, count - done)
        for name, spec in model.meters.items():
            meter[name] += step * spec.rate * model.stake
        done += step
        if gap > step or weights is None:
            break
        line = model.lines[int(rng.choice(len(model.lines), p=weights))]
        cents, after = pay_share(meter[line.meter], line.share, specs[line.meter].reset)
        meter[line.meter] = after
        paid[line.meter] += cents
        jackpots.append(
            Jackpot(hour=hour, table=table, hand=line.hand, meter=line.meter, paid=cents)
        )


def _check_base_tables(floor: Floor) -> None:
    """Refuse, from the rules alone and before any solve, a table whose Rules Submission
    chooses another pay table for one of the game's required wagers (another Blind) than the
    default rules: the kernels play the default tables, so they would price another game."""
    for plan in floor.tables:
        default = type(plan.game)()
        for wager in plan.game.required_wagers:
            table, usual = plan.game.paytable(wager), default.paytable(wager)
            if table is not None and usual is not None and table != usual:
                raise InvalidInput(
                    f"table {plan.name}: its Rules Submission changes the base game's {wager} "
                    f"pay table (the floor's kernels play {plan.game.slug} under its default "
                    "tables)"
                )


def _check_base_rules(floor: Floor, exacts: Mapping[tuple[str, str], tuple[Fraction, int]]) -> None:
    """The kernels play each game's base wagers under its default tables: refuse a table whose
    Rules Submission changes what they would price (another Ante Bonus or base table, another
    vigorish: another required wager's table is refused earlier, by
    :func:`_check_base_tables`), rather than forecast it wrongly."""
    from croupier.analysis import par_sheet

    checked: set[int] = set()
    for plan in floor.tables:
        if id(plan.game) in checked or set(plan.game.rules.raw) <= {"game"}:
            continue
        checked.add(id(plan.game))
        sheet = par_sheet(plan.game)
        priced = sheet.base if sheet.base is not None else sheet.wagers.get("banker")
        if priced is None or priced.expected != exacts[plan.game.slug, "optimal"][0]:
            raise InvalidInput(
                f"table {plan.name}: its Rules Submission changes the base game's value "
                f"(the floor's kernels play {plan.game.slug} under its default tables)"
            )


def simulate_floor(
    floor: Floor,
    hours: int,
    seed: int,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
) -> FloorResult:
    """Play ``floor`` for ``hours`` hours (see the module)."""

    hours = _int(hours, "hours", 1, MAX_HOURS)
    seed = _int(seed, "seed", 0, 2**63 - 1)
    children = np.random.SeedSequence(seed).spawn(len(floor.tables) + 1)
    tasks = []
    for plan, child in zip(floor.tables, children, strict=False):
        rounds = plan.rounds(hours)
        state = int(child.generate_state(1)[0])
        tasks.append((plan.game.slug, max(rounds, 1), state, plan.strategy))
    threads = max(1, workers or os.cpu_count() or 1)
    _check_base_tables(floor)
    exacts = _exact_of(floor.tables)
    _check_base_rules(floor, exacts)
    start = time.perf_counter()
    stats, where = _run_tables(tasks, scheduler, threads)
    tables = tuple(
        _table_result(
            plan, hours, s if plan.rounds(hours) else (0, 0), exacts[plan.game.slug, plan.strategy]
        )
        for plan, s in zip(floor.tables, stats, strict=True)
    )
    meters, jackpots = _meters(floor, hours, np.random.default_rng(children[-1]))
    wall = time.perf_counter() - start
    notes = (
        "each seat-round is one round of the base wagers under the table's strategy (optimal, "
        "or a typical player's: croupier.analysis.floor_strategies), a fresh "
        "deck every round (the kernels of croupier.analysis.montecarlo); baccarat tables play "
        "the Banker wager",
        "win and hold are the house's; the 95% band is 1.96 standard errors",
    )
    return FloorResult(
        floor=floor.name,
        hours=hours,
        seed=seed,
        tables=tables,
        meters=meters,
        jackpots=jackpots,
        wall_s=wall,
        where=where,
        notes=notes,
    )

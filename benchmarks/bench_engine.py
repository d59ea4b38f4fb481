"""Round engine speed: rounds per CPU-second of ``croupier simulate`` per game, beside peers.

Run ``python benchmarks/bench_engine.py [--rounds N] [--repeat K] [--game SLUG ...] [--json
PATH]``.  Each game plays ``--rounds`` rounds (``--repeat`` times, default 3: the median rate is
shown, as for each peer) through the real round engine (:func:`croupier.analysis.simulate`:
wagers, "no more bets", the dealing procedure, decisions, settlement, every record validated), one
thread, warm (the strategy tables and the exact par sheet are loaded before the clock starts).
Time is CPU time (``time.process_time``): the machine is shared, so rounds per CPU-second is the
figure per core.  The engine is the one ``make`` runs: its hot modules compiled from their own
source where built (:mod:`croupier._native`); the "from source" column is the same engine with
``CROUPIER_PURE=1``, measured the same way in a child process (``--no-source`` leaves it out).
Printed beside it: the ratio to the 10,000 rounds/s target and to the peers (:mod:`peers`:
small hobbyist simulators of the same game, and PokerKit's heads-up hold'em), run in the same
process on ``--peer-rounds`` rounds.

Each hobbyist peer is also checked to play the same game: its mean net over ``--check-rounds``
rounds (its own strategy, one unit on each wager of its ``WAGERS``) against the exact house
edge of those wagers in croupier's par sheet, in standard errors (``z``; a peer's simpler
strategy costs it a little, far less than the standard error at these counts).  A peer more
than 4 standard errors off fails the bench (exit 1), unless its module says its strategy is
not close to the optimum (``CHECKED = False``: the hold'em one's rough river rule).  The
output is one Markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from croupier._native import COMPILED, PURE_ENV, compiled_modules
from croupier.analysis import optimal_strategy, par_sheet
from croupier.analysis.simulate import simulate
from croupier.core.errors import InvalidInput
from croupier.games import get_game
from peers import (
    baccarat,
    four_card_poker,
    let_it_ride,
    mississippi_stud,
    three_card_poker,
    ultimate_texas_holdem,
)

TARGET = 10_000
"""Rounds per CPU-second per core (issue 18)."""

GAMES = (
    "let-it-ride",
    "three-card-poker",
    "ultimate-texas-holdem",
    "four-card-poker",
    "mississippi-stud",
    "mini-baccarat",
    "midi-baccarat",
    "ez-baccarat",
)

Peer = Callable[[int, int], int]

HOBBYISTS: dict[str, Any] = {
    "let-it-ride": let_it_ride,
    "three-card-poker": three_card_poker,
    "ultimate-texas-holdem": ultimate_texas_holdem,
    "four-card-poker": four_card_poker,
    "mississippi-stud": mississippi_stud,
    "mini-baccarat": baccarat,
    "midi-baccarat": baccarat,
    "ez-baccarat": baccarat,
}
"""The hobbyist peer module of each game (baccarat: one mini-baccarat simulator for all three;
EZ Baccarat's Banker is paid differently, so its check is against mini-baccarat's sheet)."""

CHECK_AGAINST = {"ez-baccarat": "mini-baccarat", "midi-baccarat": "mini-baccarat"}


def _pokerkit() -> Peer | None:
    try:
        from peers import pokerkit_holdem
    except ImportError:  # pokerkit is in the dev extra; without it the peer is left out
        return None
    return pokerkit_holdem.simulate


def peers_of(slug: str) -> dict[str, Peer]:
    """The peer simulators of a game, by name."""
    module = HOBBYISTS[slug]
    name = "mini-baccarat (8 decks)" if module is baccarat else slug
    found: dict[str, Peer] = {f"hobbyist {name}": module.simulate}
    if slug == "ultimate-texas-holdem":
        pokerkit = _pokerkit()
        if pokerkit is not None:
            found["pokerkit heads-up hold'em"] = pokerkit
    return found


def check_peer(slug: str, rounds: int, seed: int) -> dict[str, float]:
    """The hobbyist peer's mean loss per round (units), its standard error, the exact house
    edge of the wagers it plays, and the difference in standard errors."""
    import random

    module = HOBBYISTS[slug]
    sheet = par_sheet(get_game(CHECK_AGAINST.get(slug, slug)))
    exact = 0.0
    for wager, units in module.WAGERS.items():
        found = sheet.base if wager == "base" else sheet.wagers[wager]
        assert found is not None
        exact += units * float(found.house_edge)
    rng = random.Random(seed)
    total = squares = 0.0
    for _ in range(rounds):
        net = module.play_round(rng) / 100
        total += net
        squares += net * net
    mean = total / rounds
    se = ((squares / rounds - mean * mean) / rounds) ** 0.5
    return {"edge": -mean, "se": se, "exact": exact, "z": (-mean - exact) / se}


def cpu_rate(run: Callable[[], object], rounds: int) -> float:
    start = time.process_time()
    run()
    return rounds / max(time.process_time() - start, 1e-9)


def median_rate(run: Callable[[], object], rounds: int, repeat: int) -> float:
    """The median of ``repeat`` runs' rounds per CPU-second (a shared machine's core speed
    moves between runs: the median of three is steadier than one run)."""
    return statistics.median(cpu_rate(run, rounds) for _ in range(max(1, repeat)))


def engine_rate(slug: str, rounds: int, seed: int, repeat: int) -> float:
    """The engine's median rounds per CPU-second on ``slug`` (strategy and sheet loaded first)."""
    game = get_game(slug)
    strategy = optimal_strategy(game)
    try:
        sheet = par_sheet(game)
    except InvalidInput:
        sheet = None
    simulate(game, rounds=20, seed=seed, strategy=strategy, sheet=sheet)  # warm
    return median_rate(
        lambda: simulate(game, rounds=rounds, seed=seed, strategy=strategy, sheet=sheet),
        rounds,
        repeat,
    )


def source_rates(games: list[str], rounds: int, seed: int, repeat: int) -> dict[str, float]:
    """:func:`engine_rate` of each game with every module imported from its source
    (``CROUPIER_PURE=1``: the engine a machine without the compiled build runs), in a child
    process of its own."""
    env = {**os.environ, PURE_ENV: "1"}
    command = [sys.executable, __file__, "--engine-only", "--rounds", str(rounds)]
    command += ["--seed", str(seed), "--repeat", str(repeat)]
    for slug in games:
        command += ["--game", slug]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    rates: dict[str, float] = json.loads(done.stdout)
    return rates


def bench(
    slug: str,
    rounds: int,
    seed: int,
    peer_rounds: int,
    check_rounds: int,
    repeat: int = 1,
    source: float | None = None,
) -> dict[str, Any]:
    game = get_game(slug)
    rate = engine_rate(slug, rounds, seed, repeat)
    row: dict[str, Any] = {
        "game": slug,
        "rounds": rounds,
        "decks": game.shoe_decks,
        "rounds_per_cpu_s": round(rate),
        "ratio_to_target": round(rate / TARGET, 3),
        "source_rounds_per_cpu_s": round(source) if source is not None else None,
        "peers": {},
    }
    for name, peer in peers_of(slug).items():
        n = peer_rounds if "pokerkit" not in name else max(1, peer_rounds // 50)
        peer_rate = median_rate(lambda peer=peer, n=n: peer(n, seed), n, repeat)  # type: ignore[misc]
        row["peers"][name] = {
            "rounds_per_cpu_s": round(peer_rate),
            "engine_ratio": round(rate / peer_rate, 3),
        }
    row["peer_check"] = check_peer(slug, check_rounds, seed)
    return row


HEAD = (
    "| game | engine rounds/CPU-s | / 10,000 target | from source | peer | peer rounds/CPU-s "
    "| engine / peer | hobbyist edge (se) | exact edge | z |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def render(row: dict[str, Any]) -> str:
    """The game's Markdown rows: one a peer, the check on the hobbyist's."""
    check = row["peer_check"]
    lines = []
    for i, (name, peer) in enumerate(row["peers"].items()):
        edge = (
            f"{check['edge']:.3%} ({check['se']:.3%}) | {check['exact']:.3%} | {check['z']:+.2f}"
            if i == 0
            else "| |"
        )
        source = row["source_rounds_per_cpu_s"]
        first = (
            f"| {row['game']} | {row['rounds_per_cpu_s']:,} | {row['ratio_to_target']:.3f} "
            f"| {f'{source:,}' if source is not None else '-'}"
            if i == 0
            else "| | | |"
        )
        lines.append(
            f"{first} | {name} | {peer['rounds_per_cpu_s']:,} | {peer['engine_ratio']:.3f} "
            f"| {edge} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="engine rounds per game")
    parser.add_argument("--peer-rounds", type=int, default=20_000, help="peer rounds")
    parser.add_argument(
        "--check-rounds", type=int, default=100_000, help="hobbyist rounds for the edge check"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each engine and peer; the median is shown"
    )
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--engine-only",
        action="store_true",
        help="print only the engine's rates, as JSON (the from-source column's child process)",
    )
    parser.add_argument("--no-source", action="store_true", help="leave out the from-source column")
    args = parser.parse_args(argv)
    games = args.game or list(GAMES)
    if args.engine_only:
        rates = {slug: engine_rate(slug, args.rounds, args.seed, args.repeat) for slug in games}
        print(json.dumps(rates))
        return 0
    sources: dict[str, float] = {}
    if not args.no_source:
        sources = source_rates(games, args.rounds, args.seed, args.repeat)
    for name in COMPILED:  # every hot module loaded now, so the count is of what is built
        importlib.import_module(name)
    compiled = compiled_modules()
    rows = []
    print(
        f"round engine (croupier simulate's path), one thread, warm; {args.rounds:,} engine and "
        f"{args.peer_rounds:,} peer rounds (the median of {args.repeat} runs each), "
        f"{args.check_rounds:,} for the check; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the engine "
        + (
            f"compiled ({len(compiled)} of its {len(COMPILED)} hot modules built by "
            "scripts/build_native.py)"
            if compiled
            else "from source (no compiled build)"
        )
        + "; from source: the same with CROUPIER_PURE=1\n"
    )
    print(HEAD)
    for slug in games:
        row = bench(
            slug,
            args.rounds,
            args.seed,
            args.peer_rounds,
            args.check_rounds,
            args.repeat,
            sources.get(slug),
        )
        print(render(row), flush=True)
        rows.append(row)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    off = [
        row["game"]
        for row in rows
        if abs(row["peer_check"]["z"]) > 4 and getattr(HOBBYISTS[row["game"]], "CHECKED", True)
    ]
    if args.json is not None:
        meta = {
            "python": platform.python_version(),
            "load_average": os.getloadavg()[0],
            "compiled_modules": list(compiled),
        }
        args.json.write_text(json.dumps({"meta": meta, "games": rows}, indent=2) + "\n")
    if off:
        print(f"hobbyist peers more than 4 standard errors off the exact edge: {off}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Round engine speed: rounds per CPU-second of ``croupier simulate`` per game, beside peers.

Run ``python benchmarks/bench_engine.py [--rounds N] [--game SLUG ...] [--json PATH]``.  Each
game plays ``--rounds`` rounds through the real round engine (:func:`croupier.analysis.simulate`:
wagers, "no more bets", the dealing procedure, decisions, settlement, every record validated), one
thread, warm (the strategy tables and the exact par sheet are loaded before the clock starts).
Time is CPU time (``time.process_time``): the machine is shared, so rounds per CPU-second is the
figure per core.  Printed beside it: the ratio to the 10,000 rounds/s target and to the peers
(:mod:`peers`: small hobbyist simulators of the same game, and PokerKit's heads-up hold'em),
run in the same process on the same rounds count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from croupier.analysis import optimal_strategy, par_sheet
from croupier.analysis.simulate import simulate
from croupier.errors import InvalidInput
from croupier.games import get_game
from peers import baccarat, let_it_ride, three_card_poker, ultimate_texas_holdem

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


def _pokerkit() -> Peer | None:
    try:
        from peers import pokerkit_holdem
    except ImportError:  # pokerkit is in the dev extra; without it the peer is left out
        return None
    return pokerkit_holdem.simulate


def peers_of(slug: str) -> dict[str, Peer]:
    """The peer simulators of a game, by name."""
    found: dict[str, Peer] = {}
    if slug == "let-it-ride":
        found["hobbyist let-it-ride"] = let_it_ride.simulate
    elif slug == "three-card-poker":
        found["hobbyist three-card-poker"] = three_card_poker.simulate
    elif slug == "ultimate-texas-holdem":
        found["hobbyist ultimate-texas-holdem"] = ultimate_texas_holdem.simulate
        pokerkit = _pokerkit()
        if pokerkit is not None:
            found["pokerkit heads-up hold'em"] = pokerkit
    elif slug.endswith("baccarat"):
        found["hobbyist mini-baccarat (8 decks)"] = baccarat.simulate
    return found


def cpu_rate(run: Callable[[], object], rounds: int) -> float:
    start = time.process_time()
    run()
    return rounds / max(time.process_time() - start, 1e-9)


def bench(slug: str, rounds: int, seed: int, peer_rounds: int) -> dict[str, Any]:
    game = get_game(slug)
    strategy = optimal_strategy(game)
    try:
        sheet = par_sheet(game)
    except InvalidInput:
        sheet = None
    simulate(game, rounds=20, seed=seed, strategy=strategy, sheet=sheet)  # warm
    rate = cpu_rate(
        lambda: simulate(game, rounds=rounds, seed=seed, strategy=strategy, sheet=sheet), rounds
    )
    row: dict[str, Any] = {
        "game": slug,
        "rounds": rounds,
        "decks": game.shoe_decks,
        "rounds_per_cpu_s": round(rate),
        "ratio_to_target": round(rate / TARGET, 3),
        "peers": {},
    }
    for name, peer in peers_of(slug).items():
        n = peer_rounds if "pokerkit" not in name else max(1, peer_rounds // 50)
        peer_rate = cpu_rate(lambda peer=peer, n=n: peer(n, seed), n)  # type: ignore[misc]
        row["peers"][name] = {
            "rounds_per_cpu_s": round(peer_rate),
            "engine_ratio": round(rate / peer_rate, 3),
        }
    return row


def render(row: dict[str, Any]) -> str:
    line = (
        f"{row['game']:<24}{row['rounds_per_cpu_s']:>9,} rounds/CPU-s"
        f"{row['ratio_to_target']:>8.2f}x of 10k"
    )
    for name, peer in row["peers"].items():
        line += f"; {name} {peer['rounds_per_cpu_s']:,}/s (engine {peer['engine_ratio']:.2f}x)"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="engine rounds per game")
    parser.add_argument("--peer-rounds", type=int, default=20_000, help="peer rounds")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rows = []
    print(f"round engine, one thread, warm; load average {os.getloadavg()[0]:.2f}")
    for slug in args.game or GAMES:
        row = bench(slug, args.rounds, args.seed, args.peer_rounds)
        print(render(row), flush=True)
        rows.append(row)
    if args.json is not None:
        meta = {"python": platform.python_version(), "load_average": os.getloadavg()[0]}
        args.json.write_text(json.dumps({"meta": meta, "games": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

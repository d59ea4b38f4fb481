"""The kill -9 drill (issue 13), shared by tests/test_store_kill.py and
benchmarks/kill9_recovery.py.

A dealer process plays rounds of random games (real play: the OS CSPRNG shuffles) into a SQLite
file, each action committed as it is applied, until it is killed with SIGKILL at a random moment.
Recovery then resumes every round left open and plays it to its end, and checks that

- every card each round dealt, before and after the kill, is the next card of the shoe order
  persisted when the round began (the same cards: nothing redealt, nothing in index order);
- every resumed round ends over or void with its records read back equal;
- the books are exact: :func:`croupier.audit.chains.verify` is clean (every chain, every meter
  recomputed from its ledger to the fraction of a cent, every settlement rebuilt from its
  records).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from dataclasses import dataclass, field

from croupier.audit.chains import verify
from croupier.core.modes import PlayMode
from croupier.games.records import CardDealt, CardDiscarded
from croupier.store import RoundStatus, RoundStore, SqlMeters
from croupier.table.shoe import SecureShuffler, Shoe
from store_play import GAME_FILES, drive, game_for

__all__ = ["Figures", "deal_until_killed", "kill_and_recover"]


def deal_until_killed(url: str, prefix: str, seed: int) -> None:
    """The dealer process: rounds of random games, forever (it is killed)."""
    rng = random.Random(seed)
    meters, store = SqlMeters(url), RoundStore(url)
    names = sorted(GAME_FILES)
    for n in range(10_000):
        game = game_for(rng.choice(names))
        shoe = Shoe.shuffled(SecureShuffler(), decks=game.deck_count)
        rnd = game.new_round(shoe=shoe, meters=meters, mode=PlayMode.REAL)
        tracked = store.track(f"{prefix}-{n:04d}", rnd)
        drive(tracked, rnd, rng, seats=(1, 2, 3), irregular=0.01)


@dataclass
class Figures:
    kills: int = 0
    rounds: int = 0
    """Rounds stored, over every kill."""
    interrupted: int = 0
    """Rounds the kill left open."""
    recovered: int = 0
    """Open rounds resumed and played to their end with the persisted cards."""
    cards_checked: int = 0
    problems: list[str] = field(default_factory=list)


def _check_cards(store: RoundStore, round_id: str, figures: Figures) -> None:
    persisted = store.shoe(round_id)
    if persisted is None:
        figures.problems.append(f"{round_id}: no persisted shoe")
        return
    shown = [r.card for r in store.load(round_id) if isinstance(r, CardDealt | CardDiscarded)]
    due = list(persisted.cards[persisted.taken : persisted.taken + len(shown)])
    if shown != due:
        figures.problems.append(f"{round_id}: dealt {shown[:6]}..., the shoe order gives {due[:6]}")
    figures.cards_checked += len(shown)


def kill_and_recover(
    url: str, kills: int, *, seed: int = 0, most: float = 1.5, interrupted: int = 0
) -> Figures:
    """Kill a dealer process ``kills`` times, each after a random 0.2-``most`` seconds, and
    recover after each kill; returns the figures (``problems`` empty when all is exact).

    With ``interrupted`` > 0 it goes on killing (at most ``4 * kills`` kills in all) until
    that many kills have left a round open: a kill lands between two rounds about one time
    in twenty, and on a loaded machine a short run can miss every open round by chance."""
    rng = random.Random(seed)
    figures = Figures()
    context = multiprocessing.get_context("fork")
    while figures.kills < kills or (
        figures.interrupted < interrupted and figures.kills < 4 * kills
    ):
        k = figures.kills
        dealer = context.Process(
            target=deal_until_killed, args=(url, f"k{seed}-{k:03d}", rng.getrandbits(32))
        )
        dealer.start()
        time.sleep(rng.uniform(0.2, most))
        assert dealer.pid is not None
        os.kill(dealer.pid, signal.SIGKILL)
        dealer.join(timeout=60)
        figures.kills += 1
        with SqlMeters(url) as meters, RoundStore(url) as store:
            for info in store.open_rounds():
                figures.interrupted += 1
                _check_cards(store, info.round_id, figures)
                rnd = store.resume(info.round_id, meters)
                drive(rnd, rnd.round, rng, irregular=0)
                if store.info(info.round_id).status is RoundStatus.OPEN:
                    figures.problems.append(f"{info.round_id}: still open after resuming")
                if store.load(info.round_id) != list(rnd.records):
                    figures.problems.append(f"{info.round_id}: records not read back equal")
                _check_cards(store, info.round_id, figures)
                figures.recovered += 1
    with RoundStore(url) as store:
        figures.rounds = store.count()
        if store.open_rounds():
            figures.problems.append("rounds left open after recovery")
    report = verify(url)
    figures.problems += [str(f) for f in report.findings]
    return figures

"""Kill -9 at every moment of a round (the chaos harness, :mod:`live.chaos_harness`): the server
is SIGKILLed 50 times across every round state while bots play five tables (43 kills on SQLite,
six or seven in each state, and 7 on PostgreSQL, one in each: issue 17 asks for at least 50 in
``make test``), restarted each time, and after each kill
every wager is settled or returned exactly once, the chip ledger balances to the cent, every
acknowledged record and event survives, held rounds are voided exactly once, and the observers'
streams resume with no event missed.  The long run (1,000 kills and more, and 100 on
PostgreSQL) is ``benchmarks/bench_chaos.py`` (``make bench``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from live.chaos_harness import STATES, chaos
from live.live_harness import Cluster

KILLS = 43  # six or seven in each of the seven states
PG_KILLS = len(STATES)  # one in each state: 50 kills in make test


# A connection open to a server killed by SIGKILL is dropped by the HTTP client without a close:
# the ResourceWarning this gives is the harness's, not the server's.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_641a_13_kill_9_in_every_round_state_loses_nothing_and_pays_nothing_twice() -> None:
    kills = KILLS
    with tempfile.TemporaryDirectory(prefix="croupier-chaos-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'floor.sqlite'}"
        # a full audit after every third of the kills and at the end
        figures = chaos(url, Path(tmp), kills=kills, seed=17, audit_every=kills // 3)
    assert figures.problems == []
    assert figures.kills == kills
    assert set(figures.by_state) == set(STATES), figures.by_state
    assert figures.audits >= 4
    assert figures.rounds_finished > 0 and figures.wagers_checked > 0
    assert figures.events_checked > 0
    assert figures.held_voided + figures.resumed > 0
    assert figures.handpays_approved > 0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_641a_13_kill_9_on_postgresql_in_every_round_state_loses_nothing(
    pg_cluster: Cluster,
) -> None:
    with tempfile.TemporaryDirectory(prefix="croupier-chaos-") as tmp:
        figures = chaos(pg_cluster.database(), Path(tmp), kills=PG_KILLS, seed=5, audit_every=4)
    assert figures.problems == []
    assert figures.kills == PG_KILLS
    assert set(figures.by_state) == set(STATES), figures.by_state
    assert figures.audits >= 2
    assert figures.rounds_finished > 0 and figures.wagers_checked > 0
    assert figures.events_checked > 0
    assert figures.handpays_approved > 0

"""Hidden information under a fuzzer (:mod:`live.fuzz_harness`): 10^4 messages, random commands
from every role at every game's table (illegal ones, another seat's, a second connection for one
seat, streams reconnected), each response and stream event checked against the database's truth:
nobody ever receives a card they may not see.  The long run (10^5) is benchmarks/bench_fuzz.py."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from live.fuzz_harness import fuzz
from live.live_harness import Server

MESSAGES = 10_000


@pytest.fixture(scope="module")
def fuzz_server() -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="croupier-fuzz-") as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'floor.sqlite'}", Path(tmp) / "server.log")
        server.start()
        try:
            yield server
        finally:
            server.stop()


def test_no_role_ever_receives_a_card_it_may_not_see_under_10k_fuzzed_messages(
    fuzz_server: Server,
) -> None:
    figures = fuzz(fuzz_server, messages=MESSAGES, seed=2026, streams=6)
    assert figures.problems == []
    assert figures.messages >= MESSAGES
    assert figures.events > 0 and figures.requests > 0
    assert figures.cards_checked > 1_000  # the oracle read real cards
    assert figures.rounds_finished >= 10
    assert {403, 409, 422} <= set(figures.refused)  # illegal commands were sent and refused
    assert figures.reconnects >= 1

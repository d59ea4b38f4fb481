"""Par sheets off the serving path (issue 36; :class:`croupier.server.par_routes.ParSheets`):
computed in a worker process of their own, not in the server's, and kept; a game's refusal
comes back as its error; a bounded number wait; a worker that dies fails its jobs and the next
request starts a new one; closing stops it."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from fractions import Fraction

import pytest

from croupier.analysis import par_sheet
from croupier.games import get_game
from croupier.server.par_routes import ParBusy, ParSheets, Refusal, SheetKey

MINI = SheetKey.parse("mini-baccarat", ())
WAIT = 600  # seconds: a cold worker imports the analysis on a loaded machine


@pytest.fixture
def sheets() -> Iterator[ParSheets]:
    made = ParSheets()
    yield made
    made.close()


def test_a_par_sheet_is_computed_in_a_worker_process_not_the_servers(sheets: ParSheets) -> None:
    assert sheets.worker_pid() is None  # nothing started before the first request
    payload = sheets.sheet(MINI).result(timeout=WAIT)
    pid = sheets.worker_pid()
    assert pid is not None and pid != os.getpid()
    expected = par_sheet(get_game("mini-baccarat")).to_json()
    assert payload["sheet"] == expected
    assert Fraction(payload["sheet"]["wagers"]["banker"]["house_edge_exact"]) > 0
    assert sheets.sheet(MINI).result(timeout=0) is payload  # kept: not computed again
    report = sheets.report(MINI).result(timeout=WAIT)
    assert "<html" in report.lower() and sheets.worker_pid() == pid


def test_a_games_refusal_comes_back_as_its_error(sheets: ParSheets) -> None:
    bad = SheetKey("three-card-poker", (("pair_plus", "Z"),))
    refused = sheets.sheet(bad).result(timeout=WAIT)
    assert isinstance(refused, Refusal) and refused.title == "RulesViolation"
    assert "pair_plus" in refused.message


def test_a_bounded_number_of_par_sheets_wait() -> None:
    sheets = ParSheets(pending=1)
    try:
        sheets.sheet(MINI)
        with pytest.raises(ParBusy):
            sheets.sheet(SheetKey.parse("three-card-poker", ()))
        sheets.sheet(MINI).result(timeout=WAIT)
        assert sheets.sheet(SheetKey.parse("three-card-poker", ())).result(timeout=WAIT)
    finally:
        sheets.close()


def test_a_dead_worker_fails_its_jobs_and_the_next_request_starts_another(
    sheets: ParSheets,
) -> None:
    sheets.sheet(MINI).result(timeout=WAIT)
    first = sheets.worker_pid()
    assert first is not None
    os.kill(first, signal.SIGSTOP)  # the job below waits in a worker that never takes it
    job = sheets.sheet(SheetKey.parse("ultimate-texas-holdem", ()))
    os.kill(first, signal.SIGKILL)
    with pytest.raises(RuntimeError, match="worker stopped"):
        job.result(timeout=WAIT)
    again = sheets.sheet(SheetKey.parse("three-card-poker", ())).result(timeout=WAIT)
    assert again["sheet"] and sheets.worker_pid() not in (None, first)


def test_closing_stops_the_worker() -> None:
    sheets = ParSheets()
    sheets.sheet(MINI).result(timeout=WAIT)
    pid = sheets.worker_pid()
    assert pid is not None
    sheets.close()
    with pytest.raises(ParBusy):
        sheets.sheet(SheetKey.parse("three-card-poker", ()))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)

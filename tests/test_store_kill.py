"""Kill -9 recovery (issue 13): a process writing rounds is killed with SIGKILL at random
moments; every round it left open resumes with the same cards (its persisted shoe order) and
the books stay exact (the audit is clean).  The long run is benchmarks/kill9_recovery.py."""

from __future__ import annotations

from pathlib import Path

from store_kill import kill_and_recover


def test_rounds_killed_mid_write_resume_with_their_cards_and_exact_books(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'casino.sqlite'}"
    figures = kill_and_recover(url, kills=3, seed=7, interrupted=1)
    assert figures.problems == []
    assert 3 <= figures.kills <= 12 and figures.rounds > 0
    assert figures.interrupted >= 1
    assert figures.recovered == figures.interrupted
    assert figures.cards_checked > 0

"""``benchmarks/bench_sessions.py`` runs (issue 38's sessions re-read, at a few sessions): each
sweep reads every watched session, and the sweep once they are held answers from what was
held."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_sessions_benchmark_reads_every_watched_session_each_sweep(tmp_path: Path) -> None:
    out = tmp_path / "sessions.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_sessions.py")]
    done = subprocess.run(
        [*command, "--sessions", "24", "--repeat", "1", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "24 sessions re-checked" in done.stdout
    figures = json.loads(out.read_text())
    assert figures["sessions"] == 24
    assert figures["first_sweep_ms"] > 0 and figures["held_sweep_ms"] > 0

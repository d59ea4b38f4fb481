"""``benchmarks/gc_pauses.py``: the server's garbage collections, each written down with its
start, generation and length, and read back by window (``bench_locust.py`` prints them)."""

from __future__ import annotations

import gc
import importlib
import re
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
gc_pauses = importlib.import_module("gc_pauses")


def test_a_collection_is_written_down_with_its_generation_and_length(tmp_path: Path) -> None:
    report = tmp_path / "gc.tsv"
    recorder = gc_pauses.Recorder(report)
    before = time.time()
    gc.callbacks.append(recorder.callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(recorder.callback)
    recorder.flush()
    [line] = [row for row in report.read_text().splitlines() if row.split("\t")[1] == "2"]
    start, _generation, ms = line.split("\t")
    assert before - 1 <= float(start) <= time.time()
    assert float(ms) >= 0
    found = gc_pauses.pauses([report], before - 1, time.time() + 1)
    assert found["gen2"]["count"] >= 1
    assert found["total_ms"] >= found["max_ms"] >= round(float(ms), 1)


def test_pauses_counts_only_the_window_by_generation_over_every_report(tmp_path: Path) -> None:
    one, two = tmp_path / "gc-0.tsv", tmp_path / "gc-1.tsv"
    one.write_text("99.000\t0\t5.00\n100.000\t0\t12.50\n105.500\t1\t80.00\n110.000\t2\t900.00\n")
    two.write_text("101.000\t0\t7.50\n109.999\t2\t300.00\n")
    found = gc_pauses.pauses([one, two, tmp_path / "none.tsv"], 100.0, 110.0)
    assert found["gen0"] == {"count": 2, "total_ms": 20.0, "max_ms": 12.5}
    assert found["gen1"] == {"count": 1, "total_ms": 80.0, "max_ms": 80.0}
    assert found["gen2"] == {"count": 1, "total_ms": 300.0, "max_ms": 300.0}  # 110.0: next
    assert found["total_ms"] == 400.0 and found["max_ms"] == 300.0
    assert found["stalls"]["count"] == 0
    assert gc_pauses.pauses([one], 0.0, 1.0) == {
        "total_ms": 0.0,
        "max_ms": 0.0,
        "stalls": {"count": 0, "max_ms": 0.0, "max_ms_outside_collections": 0.0},
    }


def test_a_stall_within_a_collection_is_told_apart_from_one_outside(tmp_path: Path) -> None:
    report = tmp_path / "gc-0.tsv"
    report.write_text(
        "100.000\t1\t300.00\n"  # a collection from 100.0 to 100.3
        "100.001\tstall\t298.00\n"  # the heartbeat stopped with it
        "104.000\tstall\t45.00\n"  # the server's other work
        "200.000\tstall\t900.00\n"  # outside the window
    )
    found = gc_pauses.pauses([report], 100.0, 110.0)
    assert found["stalls"] == {"count": 2, "max_ms": 298.0, "max_ms_outside_collections": 45.0}
    assert found["gen1"]["max_ms"] == 300.0


def test_the_heartbeat_sees_the_gil_held_as_a_stall(tmp_path: Path) -> None:
    """One C call that holds the GIL throughout (as a collection does: ``re`` backtracking)
    stops the heartbeat for as long."""
    recorder = gc_pauses.Recorder(tmp_path / "gc.tsv")
    beating = threading.Thread(target=recorder.heartbeat, daemon=True)
    beating.start()
    time.sleep(0.05)
    before = time.time()
    started = time.perf_counter()
    re.compile(r"(a+)+b").match("a" * 24)
    held_ms = 1000 * (time.perf_counter() - started)
    time.sleep(0.05)
    recorder.stop()
    beating.join()  # no heartbeat left waking for the rest of the test process
    recorder.flush()
    found = gc_pauses.pauses([recorder.report], before - 0.1, time.time())
    assert held_ms > gc_pauses.STALL_MS
    assert found["stalls"]["max_ms"] >= 0.8 * held_ms

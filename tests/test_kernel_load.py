"""First steps that take seconds report progress (the command line draws Rich bars): numba's
first call of a kernel (loading its compiled code from numba's cache, or compiling it on a cold
run) and the dense strength tables the solvers rank every hand for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from numba import njit

from croupier.core.progress import reporting
from croupier.kernels._load import load_kernel

SRC = Path(__file__).resolve().parents[1] / "src"


def test_load_kernel_compiles_before_the_first_call_as_a_one_unit_task() -> None:
    @njit(nogil=True)
    def add(a: int, b: int) -> int:  # pragma: no cover - compiled
        return a + b

    load_kernel(add, (1, 2), "adder")  # nobody watches: nothing done
    assert add.signatures == []
    seen: list[tuple[str, int, int]] = []
    with reporting(lambda task, done, total: seen.append((task, done, total))):
        load_kernel(add, (1, 2), "adder", enabled=False)
        assert seen == [] and add.signatures == []
        load_kernel(add, (1, 2), "adder")
        assert len(add.signatures) == 1
        assert add(3, 4) == 7 and len(add.signatures) == 1  # the call found the code
        load_kernel(add, (5, 6), "adder")  # loaded already: no second task
    task = "adder: numba loads or compiles its kernel"
    assert seen == [(task, 0, 1), (task, 1, 1)]


def test_seven_card_counts_report_every_hand_and_load_no_kernel() -> None:
    # a fresh process: the seven-card count is by rank pattern in numpy (kernels._count7), so it
    # loads no compiled kernel, and it reports from its first hand to its last
    code = (
        "import json\n"
        "from croupier.kernels import count_categories\n"
        "from croupier.core.progress import reporting\n"
        "seen = []\n"
        "with reporting(lambda t, d, n: seen.append((t, d, n))):\n"
        "    count_categories('poker5', 7, progress=lambda d, n: seen.append(('count', d, n)))\n"
        "print(json.dumps(seen))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    seen = [tuple(x) for x in json.loads(out.stdout)]
    assert seen == [("count", 0, 133_784_560), ("count", 133_784_560, 133_784_560)]

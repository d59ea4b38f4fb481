"""A pytest plugin of the suite (``-p work_units`` in pyproject's addopts): how ``make test``
spreads the suite over its workers (``pytest -n 3 --dist loadgroup``, see the Makefile).

Each file is one unit of work (its module fixtures are built once, in one worker), as under
``--dist loadfile``, except the groups of :data:`GROUPS`: tests that share one expensive
computation (a cold exact solve) run in one worker, and a heavy file's independent tests may
run apart.  The units are handed out heaviest first (:data:`HEAVIEST`, CPU seconds of a cold
run measured with ``--cpu-durations``; the Makefile passes ``--no-loadscope-reorder`` so xdist
keeps this order), so no big unit starts last while the other worker idles:
the order changes when a test runs, never what it checks.  Under ``-n 0`` only the order
changes.

The units are xdist's scopes through :class:`WorkUnits`, this plugin's scheduler for
``--dist loadgroup`` (xdist 3.8's own loadgroup renames each marked test ``nodeid@group``
through an attribute pytest 9 no longer reads, so every test became a unit of its own: module
fixtures, servers and exact solves were built in both workers).
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

_AGREE = "tests/test_simulate.py::test_exact_and_simulated_agree_within_4_standard_errors"
_MILLION = "tests/test_montecarlo.py::test_a_million_rounds_agree_with_the_exact_value"

GROUPS: dict[str, str] = {
    # the Hold 'Em exact solve (par sheet and decision tables, Blind A): paid once, here
    f"{_AGREE}[ultimate-texas-holdem-": "uth-solve",
    # (test_montecarlo.py's Four Card Poker tables are of the FCP solve, below)
    "tests/test_montecarlo.py::test_fcp_": "fcp-solve",
    f"{_MILLION}[4cp-": "fcp-solve",
    "tests/test_montecarlo.py::": "uth-solve",
    "tests/test_protect_holdem.py::": "uth-solve",  # the solver's value of each starting hand
    "tests/test_uth_rules.py::": "uth-solve",  # the flop and river rules against the solve
    # the optimum's edge (par sheet) beside the typical players' exact edges
    "tests/test_floor.py::test_569_typical_strategies_exact_and_the_floor_within_their_bands": (
        "uth-solve"
    ),
    # the Four Card Poker exact solve (par sheet and decision table): the rest of
    # test_simulate.py but the other games' agreement runs, which are a unit of their own
    f"{_AGREE}[four-card-poker-": "fcp-solve",
    _AGREE: "tests/test_simulate.py",
    "tests/test_simulate.py::": "fcp-solve",
    "tests/test_cli.py::test_simulate_kernel_path_reports_the_exact_value": "fcp-solve",
    "tests/test_fcp_typical.py::": "fcp-solve",  # typical strategies valued from the solve
    "tests/test_solved.py::": "tests/test_solvers.py",  # re-solves blocks: the same kernels
}
"""Node id prefix -> the unit its tests belong to (a file's tests otherwise form one unit)."""

HEAVIEST: tuple[str, ...] = (
    # 50 kills (issue 17), each a server restart and its checks: the heaviest unit
    "tests/live/test_chaos_kill.py",
    # the money oracle: every game's rounds on two servers (SQLite, PostgreSQL), each replayed
    # by the command line; long in wall time (about 3 minutes, mostly its servers')
    "tests/live/test_live_oracle.py",
    "uth-solve",
    "fcp-solve",
    "tests/live/test_live_floor.py",
    "tests/live/test_live_resume.py",
    "tests/live/test_live_fuzz.py",
    # the browser's and its servers' CPU are their own: long in wall time
    "tests/web/test_web_irregularities.py",
    "tests/test_kernels.py",
    "tests/test_montecarlo_more.py",
    "tests/test_conformance.py",
    "tests/web/test_web_layout.py",
    "tests/live/test_live_processes.py",  # its servers' CPU is theirs: long in wall time
    "tests/web/test_web_pit.py",
    "tests/live/test_chaos_fuzz.py",
    "tests/web/test_web_supervisor.py",
    "tests/test_solvers.py",
    "tests/test_designer.py",
    "tests/web/test_web_tables.py",
    "tests/web/test_web_tables_stud_baccarat.py",
    "tests/web/test_web_progressive.py",
    "tests/web/test_web_par_games.py",
    "tests/test_floor.py",
    "tests/live/test_live_chips.py",
    "tests/live/test_live_views.py",
    "tests/test_progressive_plan.py",
    "tests/test_cli.py",
    "tests/live/test_live_rounds.py",
    "tests/live/test_live_multiseat.py",
    "tests/test_simulate.py",
    "tests/live/test_live_recovery.py",
    "tests/live/test_live_auth.py",
    "tests/test_protect_games.py",
)
"""Units by cold cost (CPU seconds of ``--cpu-durations``, or wall time where a test's servers
do the work), the heaviest first; a unit not listed follows them, in the collection's order."""


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its first :data:`GROUPS` entry, else its file."""
    for prefix, unit in GROUPS.items():
        if nodeid.startswith(prefix):
            return unit
    return nodeid.split("::", 1)[0]


class WorkUnits(LoadScopeScheduling):  # type: ignore[misc]  # xdist ships no types
    """xdist's scope scheduling with this module's units as the scopes: each unit runs whole in
    one worker, the units in the collection's order (heaviest first)."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> WorkUnits | None:
    if config.getoption("dist") != "loadgroup":
        return None
    return WorkUnits(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {unit: i for i, unit in enumerate(HEAVIEST)}
    units = {item.nodeid: unit_of(item.nodeid) for item in items}
    # stable: a unit's tests keep their order; units not ranked keep the collection's order
    items.sort(key=lambda item: rank.get(units[item.nodeid], len(rank)))

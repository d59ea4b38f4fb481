"""A pytest plugin of the suite (loaded by ``-p cpu_durations`` in pyproject's addopts).

``--cpu-durations=N`` lists the N tests that used the most CPU (the test process's threads and
the child processes it waited for, setup and teardown included) and the CPU of each file.  On a
machine shared with other work, wall-clock durations (``--durations``) measure the neighbours;
CPU seconds measure the test.  Under pytest-xdist each worker reports its own tests in its output
file (``--cpu-durations-file``).  The fixtures still up after a process's last test (the
session's servers and browser) are torn down on a line of their own, :data:`LAST_TEARDOWN`.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

_SPENT: dict[str, float] = {}
_REAPED = [0.0]
_LAST_TEARDOWN: dict[str, float] = {}
LAST_TEARDOWN = "(teardown after the last test: module and session fixtures)"
"""The line of the CPU spent tearing down what the last test of a process left up."""


def count_reaped_cpu(seconds: float) -> None:
    """Count the CPU of a process another process reaped for this one (a server forked by the
    live tests' launcher, :mod:`live.server_zygote`) as if this process had waited for it."""
    _REAPED[0] += seconds


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _REAPED[0]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("croupier")
    group.addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="list the N tests that used the most CPU seconds, and each file's CPU",
    )
    group.addoption(
        "--cpu-durations-file",
        default=None,
        metavar="PATH",
        help="also write every test's CPU seconds to PATH (a worker adds .gwN)",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    if item.config.getoption("--cpu-durations") is None:
        return (yield)
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        spent = _cpu_seconds() - start
        last = _LAST_TEARDOWN.pop(item.nodeid, 0.0)
        _SPENT[item.nodeid] = spent - last
        if nextitem is None:
            _SPENT[LAST_TEARDOWN] = last


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """After a process's last test, pytest tears down every fixture still up (the session's
    servers, whose CPU is counted when they are reaped): counted apart, not as that test's."""
    if item.config.getoption("--cpu-durations") is None or nextitem is not None:
        return (yield)
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        _LAST_TEARDOWN[item.nodeid] = _cpu_seconds() - start


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = session.config.getoption("--cpu-durations-file")
    if target is None or not _SPENT:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    path = Path(f"{target}.{worker}" if worker else target)
    lines = (f"{spent:.2f}\t{node}\n" for node, spent in _SPENT.items())
    path.write_text("".join(lines), encoding="utf-8")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    count = terminalreporter.config.getoption("--cpu-durations")
    if count is None or not _SPENT:
        return
    files: dict[str, float] = {}
    for node, spent in _SPENT.items():
        files[node.split("::")[0]] = files.get(node.split("::")[0], 0.0) + spent
    write = terminalreporter.write_line
    tests = len(_SPENT) - (LAST_TEARDOWN in _SPENT)
    write(f"CPU seconds: {sum(_SPENT.values()):.1f} over {tests} tests")
    for table in (files, _SPENT):
        for name, spent in sorted(table.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{spent:8.1f}s  {name}")

"""Progress reports without printing: the library reports, the faces render.

A long computation (an exact solve, a table build, a count, a simulation) reports how far it has
got with :func:`report` or a :class:`Task`; nothing is shown unless a face (the command line's
Rich progress bars, say) has installed a callback with :func:`reporting`::

    def show(task: str, done: int, total: int) -> None: ...

    with reporting(show):
        par_sheet(game)          # calls show("ultimate texas hold 'em: flops", 12, 1755), ...

A :class:`Task` captures the callback when it is created, so updates made from worker threads
reach it too.  ``total`` may change between reports (the face redraws); ``done == total`` ends a
task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Self

__all__ = ["ProgressCallback", "Task", "report", "reporting", "watched"]

ProgressCallback = Callable[[str, int, int], None]
"""``callback(task, done, total)``: ``task`` names the work, ``done`` of ``total`` units."""

_CALLBACK: ContextVar[ProgressCallback | None] = ContextVar("croupier_progress", default=None)


@contextmanager
def reporting(callback: ProgressCallback | None) -> Iterator[None]:
    """Send the progress reports made inside the block to ``callback`` (None: to nobody)."""
    token = _CALLBACK.set(callback)
    try:
        yield
    finally:
        _CALLBACK.reset(token)


def watched() -> bool:
    """Whether a callback receives the progress reports made here (a face draws them)."""
    return _CALLBACK.get() is not None


def report(task: str, done: int, total: int) -> None:
    """Report ``done`` of ``total`` units of ``task`` to the installed callback, if any."""
    callback = _CALLBACK.get()
    if callback is not None:
        callback(task, done, total)


class Task:
    """A counter of ``total`` units of one task that reports each update (and its end).

    ``enabled=False`` silences it (a caller that asked for no progress)."""

    def __init__(self, total: int, desc: str, *, enabled: bool = True) -> None:
        self.desc = desc
        self.total = total
        self.done = 0
        self._callback = _CALLBACK.get() if enabled else None
        self._report()

    def _report(self) -> None:
        if self._callback is not None:
            self._callback(self.desc, self.done, self.total)

    def update(self, n: int = 1) -> None:
        """``n`` more units done."""
        self.done += n
        self._report()

    def close(self) -> None:
        """The task is over: report it complete."""
        if self.done < self.total:
            self.done = self.total
            self._report()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

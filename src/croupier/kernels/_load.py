"""Numba's first call of a kernel, reported: loading its compiled code from numba's cache, or
compiling it on a cold run, takes seconds in which nothing else moves, so the solvers and
counters have numba do it first, as a one-unit :class:`croupier.core.progress.Task` a face draws
(the command line's Rich bars), then call the kernel as usual.
"""

from __future__ import annotations

from typing import Any

from croupier.core.progress import Task, watched

__all__ = ["load_kernel"]


def load_kernel(kernel: Any, args: tuple[Any, ...], what: str, *, enabled: bool = True) -> None:
    """Have numba load or compile ``kernel`` (a dispatcher) for the types of ``args``, before its
    first call in this process, reported as the task "``what``: numba loads or compiles its
    kernel".  Nothing happens when the kernel already has code for some types, when nobody
    watches the progress reports, or with ``enabled=False``; the call that follows finds the
    code and runs at once."""
    if not enabled or not watched() or getattr(kernel, "signatures", None) != []:
        return
    import numba

    typeof: Any = numba.typeof
    with Task(1, f"{what}: numba loads or compiles its kernel"):
        kernel.compile(tuple(typeof(a) for a in args))

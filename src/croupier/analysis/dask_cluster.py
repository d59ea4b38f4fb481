"""Running blocks of work on a Dask cluster: the shared client and submission helpers.

``dask[distributed]`` is optional: it is imported only when a scheduler address is given, and
a missing install or an unreachable scheduler is reported as :class:`InvalidInput`.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from croupier.core.errors import InvalidInput

__all__ = ["as_completed", "dask_client", "task_key"]


def _distributed() -> Any:
    try:
        return importlib.import_module("dask.distributed")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise InvalidInput(
            'running on a Dask cluster needs dask.distributed: pip install "dask[distributed]"'
        ) from exc


@contextmanager
def dask_client(scheduler: str) -> Iterator[Any]:
    """A ``dask.distributed.Client`` connected to ``scheduler`` (``"tcp://host:8786"``), closed
    on exit; the connection waits ``distributed.comm.timeouts.connect`` (dask config).  Any
    failure to connect (refused, timed out, a malformed address, a server that is not a Dask
    scheduler) is :class:`InvalidInput`."""
    distributed = _distributed()
    try:
        client = distributed.Client(scheduler)
    except Exception as exc:  # refused, timed out, a bad address, or no Dask server answering
        raise InvalidInput(
            f"cannot reach the Dask scheduler {scheduler!r}: {type(exc).__name__}: {exc}"
        ) from exc
    with client:
        yield client


def as_completed(
    client: Any, tasks: Sequence[tuple[str, Callable[..., Any], tuple[Any, ...]]]
) -> Iterator[tuple[int, Any]]:
    """Submit ``(key, function, args)`` tasks; yield ``(index, result)`` as each finishes."""
    futures = [client.submit(fn, *args, key=key) for key, fn, args in tasks]
    index = {future.key: i for i, future in enumerate(futures)}
    for future in _distributed().as_completed(futures):
        yield index[future.key], future.result()


def task_key(solver: str, params: str, block: int | str) -> str:
    """A task name that tells apart the solver, its parameters and the block (the scheduler
    shares a result between equal keys)."""
    digest = hashlib.sha256(params.encode()).hexdigest()[:12]
    return f"croupier-{solver}-{digest}-{block}"

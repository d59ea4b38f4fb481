"""The designer's exhaustive search by meeting in the middle: every monotone table, whole.

A table's summed net is ``sum(weight_i * net_i(pay_i))`` over its lines, so the lines split into
a head (the top lines) and a tail: every monotone head and every monotone tail is listed once
(numpy arrays of their pays and integer sums), the heads grouped by the net of their last line
and sorted by sum, and for each tail the heads whose last line pays at least the tail's first
(the table stays monotone across the split) nearest the target are found by binary search.  The
cost is the two lists, not their product: Mississippi Stud's base table with no constraints
(137,098,710 monotone tables, which the branch-and-bound of
:class:`croupier.analysis.designer._Search` could not finish within its node budget) is
ranked whole in seconds.

The sums are exact integers (nets scaled by the lines' common denominator); the nearest are
found in floating point with a margin and then ranked in exact arithmetic (distance, then
closeness to the reference table, then the pays), ties included, so the result is the branch
and bound's ranking over every table.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from croupier.core.money import OddsKind

if TYPE_CHECKING:
    from croupier.analysis.designer import LineBounds

__all__ = ["MAX_SIDE", "nearest_tables"]

MAX_SIDE = 4_000_000
"""Monotone heads or tails listed at most (memory: a few hundred MB at this size)."""

Item = tuple[Fraction, Fraction, tuple[int, ...]]
"""``(-distance, -deviation, pays)``: the branch and bound's heap items."""


def _nets(line: LineBounds, scale: int) -> Any:
    """The line's nets, times ``scale``, for its pays ``low..high`` (integers)."""
    pays = np.arange(line.low, line.high + 1, dtype=np.int64)
    nets = pays * (scale // line.denominator)
    return nets - scale if line.kind is OddsKind.FOR else nets


def _side(bounds: tuple[LineBounds, ...], scale: int) -> tuple[Any, Any, Any]:
    """Every monotone choice of pays of ``bounds`` (each line's net at most the one above):
    ``(pays (n, k), sums of weight x scaled net (n,), scaled nets (n, k))``."""
    pays = np.zeros((1, 0), dtype=np.int64)
    nets = np.zeros((1, 0), dtype=np.int64)
    sums = np.zeros(1, dtype=np.int64)
    for line in bounds:
        own = np.arange(line.low, line.high + 1, dtype=np.int64)
        own_nets = _nets(line, scale)
        rows = np.repeat(np.arange(pays.shape[0]), own.size)
        col = np.tile(np.arange(own.size), pays.shape[0])
        keep = np.ones(rows.size, dtype=bool)
        if nets.shape[1]:
            keep = own_nets[col] <= nets[rows, -1]
        rows, col = rows[keep], col[keep]
        pays = np.column_stack([pays[rows], own[col]])
        nets = np.column_stack([nets[rows], own_nets[col]])
        sums = sums[rows] + line.weight * own_nets[col]
        if pays.shape[0] > MAX_SIDE:
            raise OverflowError
    return pays, sums, nets


def _split(bounds: tuple[LineBounds, ...]) -> int:
    """The split that balances the two lists (by the product of the lines' widths)."""
    widths = [b.high - b.low + 1 for b in bounds]
    best, best_cost = 1, math.inf
    for m in range(1, len(bounds)):
        cost = max(math.prod(widths[:m]), math.prod(widths[m:]))
        if cost < best_cost:
            best, best_cost = m, cost
    return best


def nearest_tables(
    bounds: tuple[LineBounds, ...], target: Fraction, reference: tuple[int, ...], top: int
) -> tuple[list[Item], int] | None:
    """The ``top`` monotone tables whose summed net ``sum(weight x net)`` is nearest ``target``,
    as ``(items, tables listed)``, ranked as the branch and bound ranks them; None when a side
    would list more than :data:`MAX_SIDE` (the caller searches by branch and bound)."""
    if len(bounds) < 2:
        return None
    scale = math.lcm(*(b.denominator for b in bounds))
    m = _split(bounds)
    try:
        head_pays, head_sums, head_nets = _side(bounds[:m], scale)
        tail_pays, tail_sums, tail_nets = _side(bounds[m:], scale)
    except OverflowError:
        return None
    goal = target * scale
    want = float(goal) - tail_sums.astype(np.float64)
    groups = []
    for last in np.unique(head_nets[:, -1]):
        members = np.flatnonzero(head_nets[:, -1] == last)
        order = members[np.argsort(head_sums[members], kind="stable")]
        allowed = np.flatnonzero(tail_nets[:, 0] <= last)
        groups.append((order, head_sums[order].astype(np.float64), allowed))
    # the top-th nearest distance over every pairing, from each group's nearest few
    near: list[Any] = []
    for _, sums, allowed in groups:
        if allowed.size == 0:
            continue
        at = np.searchsorted(sums, want[allowed])
        for step in range(-top, top + 1):
            j = at + step
            inside = (j >= 0) & (j < sums.size)  # each head once: no clipped repeats
            near.append(np.abs(sums[j[inside]] - want[allowed][inside]))
    if not near:
        return [], head_pays.shape[0] + tail_pays.shape[0]
    every = np.concatenate(near)
    cut = float(np.partition(every, min(top, every.size) - 1)[min(top, every.size) - 1])
    cut += 1e-6 * (1.0 + abs(float(goal))) + 1.0  # the sums are integers: a margin of one
    pool: list[tuple[int, int]] = []
    for order, sums, allowed in groups:
        lo = np.searchsorted(sums, want[allowed] - cut, side="left")
        hi = np.searchsorted(sums, want[allowed] + cut, side="right")
        for t, a, b in zip(allowed.tolist(), lo.tolist(), hi.tolist(), strict=True):
            pool.extend((int(order[k]), t) for k in range(a, b))
    items = [
        _item(head_pays[h], tail_pays[t], head_sums[h] + tail_sums[t], goal, scale, reference)
        for h, t in pool
    ]
    items.sort(reverse=True)  # the largest items, as the branch and bound's heap keeps them
    return items[:top], head_pays.shape[0] + tail_pays.shape[0]


def _item(
    head: Any, tail: Any, total: Any, goal: Fraction, scale: int, reference: tuple[int, ...]
) -> Item:
    pays = tuple(int(p) for p in head) + tuple(int(p) for p in tail)
    distance = abs(Fraction(int(total)) - goal) / scale
    deviation = sum(
        (Fraction(abs(p - r), r) for p, r in zip(pays, reference, strict=True)), Fraction(0)
    )
    return (-distance, -deviation, pays)

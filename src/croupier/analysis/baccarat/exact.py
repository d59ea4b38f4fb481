"""Every baccarat coup of a full shoe, counted exactly by card composition.

A coup uses four to six cards.  Counting by point value (0 for tens and pictures, 1-9 otherwise)
with the number of cards of each value left in the shoe, each sequence of values drawn has a
weight (the number of ordered card sequences giving it); the unused of the first six cards are
counted too, so the weights sum to the number of ordered six-card sequences, 416P6 for eight
decks — the convention of the published analyses.  The drawing rules are those of
:mod:`croupier.hands.baccarat` (§ 631a.11 and Table 1, per ../shared/regs/baccarat.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from math import perm

from croupier.core.progress import Task
from croupier.games.baccarat import Coup
from croupier.hands.baccarat import banker_draws_points, player_draws_points

__all__ = ["Coup", "coups", "total_sequences"]


def _value_counts(decks: int) -> tuple[int, ...]:
    return (16 * decks, *([4 * decks] * 9))


def total_sequences(decks: int = 8) -> int:
    """Ordered six-card sequences from the shoe: (52 decks)P6."""
    return perm(52 * decks, 6)


_Key = tuple[int, int, int, int, int, int]
"""A coup while counting: (player, banker, player_cards, banker_cards, player_two, banker_two),
the fields of :class:`Coup` (a plain tuple hashes ~10x faster than the frozen record)."""


@cache
def coups(decks: int = 8) -> Mapping[Coup, int]:
    """Every coup with its weight in ordered six-card sequences (exact integers)."""
    counts = list(_value_counts(decks))
    total_cards = 52 * decks
    out: dict[_Key, int] = {}

    def take(v: int) -> int:
        n = counts[v]
        counts[v] -= 1
        return n

    def tail(used: int) -> int:
        # the unused of the first six cards, in any order
        return perm(total_cards - used, 6 - used)

    task = Task(100, f"baccarat: every coup of the {decks}-deck shoe")
    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            task.update()
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    if w4:
                        _third_cards(out, counts, take, tail, w4, p1, p2, b1, b2)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    task.close()
    return {
        Coup(
            player=p, banker=b, player_cards=pc, banker_cards=bc, player_two=p2, banker_two=b2
        ): weight
        for (p, b, pc, bc, p2, b2), weight in out.items()
    }


def _third_cards(
    out: dict[_Key, int],
    counts: list[int],
    take: object,
    tail: object,
    weight: int,
    p1: int,
    p2: int,
    b1: int,
    b2: int,
) -> None:
    assert callable(take) and callable(tail)
    ptwo, btwo = (p1 + p2) % 10, (b1 + b2) % 10

    def add(p: int, b: int, pc: int, bc: int, w: int) -> None:
        key = (p, b, pc, bc, ptwo, btwo)
        out[key] = out.get(key, 0) + w

    if not player_draws_points(ptwo, btwo):
        if banker_draws_points(ptwo, btwo, None):
            for b3 in range(10):
                w = weight * counts[b3]
                if w:
                    add(ptwo, (btwo + b3) % 10, 2, 3, w * tail(5))
        else:
            add(ptwo, btwo, 2, 2, weight * tail(4))
        return
    for p3 in range(10):
        w5 = weight * take(p3)
        if w5:
            player = (ptwo + p3) % 10
            if banker_draws_points(ptwo, btwo, p3):
                for b3 in range(10):
                    w = w5 * counts[b3]
                    if w:
                        add(player, (btwo + b3) % 10, 3, 3, w)
            else:
                add(player, btwo, 3, 2, w5 * tail(5))
        counts[p3] += 1

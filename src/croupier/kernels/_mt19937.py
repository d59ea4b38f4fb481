"""The simulator's seeded shuffler: ``random.Random``'s Mersenne Twister (MT19937), compiled.

:class:`CompiledSeededShuffler` is a :class:`~croupier.table.shoe.SeededShuffler` (the truth:
Fisher-Yates
over ``random.Random(seed).getrandbits``) that seeds its ``random.Random`` and takes over its state
(:func:`state_of`: the 624 words and the position ``getstate`` gives); from then on every draw is
made here, word for word the draws ``random.Random`` makes from that state:

* :func:`getrandbits` is ``random.Random.getrandbits``: ``k <= 32`` bits are the top ``k`` bits of
  the next 32-bit output; more bits are whole outputs, the first drawn lowest, the last cut to its
  top bits;
* :func:`shuffle_positions` is :func:`croupier.table.shoe.fisher_yates` over that bit source, run in
  compiled code: for ``i = n-1 .. 1`` draw ``i.bit_length()`` bits (the top bits of one output)
  until the value is at most ``i``, and swap position ``i`` with it.

So a seeded shuffle is the same permutation, from the same draws, as the one Fisher-Yates over
``random.Random(seed).getrandbits`` makes (the tests compare the two, and the states after).  It is
for simulation and tests only, as every seeded shuffler: real play refuses it
(:func:`croupier.core.modes.verify_shuffler`) and shuffles with ``secrets`` (``SecureShuffler``).
The
kernels hold the GIL (no ``nogil``), so two threads never draw from one state at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from numba import njit

from croupier.table.shoe import SeededShuffler, own_fisher_yates, randbelow_from_bits

__all__ = [
    "STATE_SIZE",
    "CompiledSeededShuffler",
    "getrandbits",
    "shuffle_positions",
    "state_of",
]

T = TypeVar("T")

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
STATE_SIZE = _N + 1
"""The 624 words of the state, then the position of the next output (as ``getstate`` has it)."""


def state_of(rng: random.Random) -> Any:
    """The state of ``rng`` as an ``int64`` array of :data:`STATE_SIZE`."""
    _version, internal, _gauss = rng.getstate()
    state = np.array(internal, dtype=np.int64)
    assert state.shape == (STATE_SIZE,)
    return state


@njit(cache=True)
def _next(mt: Any) -> int:  # pragma: no cover - compiled
    """The next 32-bit output (CPython's ``genrand_uint32``), in int64 arithmetic."""
    index = mt[_N]
    if index >= _N:  # the next 624 words at once
        for kk in range(_N - _M):
            y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
            mt[kk] = mt[kk + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        for kk in range(_N - _M, _N - 1):
            y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
            mt[kk] = mt[kk + (_M - _N)] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
        mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        index = 0
    y = mt[index]
    mt[_N] = index + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y  # type: ignore[no-any-return]


@njit(cache=True)
def _words(mt: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Fill ``out`` with the next outputs, in the order drawn."""
    for t in range(out.shape[0]):
        out[t] = _next(mt)


@njit(cache=True)
def shuffle_positions(mt: Any, perm: Any) -> None:  # pragma: no cover - compiled
    """Fisher-Yates over the positions ``0 .. len(perm) - 1``, written into ``perm``, with
    croupier's unbiased draw (see the module)."""
    n = perm.shape[0]
    for t in range(n):
        perm[t] = t
    k = 0  # i.bit_length(), kept as i falls
    while (1 << k) <= n - 1:
        k += 1
    for i in range(n - 1, 0, -1):
        if i < (1 << (k - 1)):
            k -= 1
        shift = 32 - k  # k bits: the top ones of one output
        j = _next(mt) >> shift
        while j > i:
            j = _next(mt) >> shift
        held = perm[i]
        perm[i] = perm[j]
        perm[j] = held


def getrandbits(mt: Any, k: int) -> int:
    """``k`` random bits from the state ``mt``, as ``random.Random.getrandbits(k)`` draws them."""
    if k < 0:
        raise ValueError("number of bits must be non-negative")
    if k == 0:
        return 0
    words = np.empty((k - 1) // 32 + 1, dtype=np.int64)
    _words(mt, words)
    if k % 32:
        words[-1] >>= 32 - k % 32  # the last output keeps its top bits
    return int.from_bytes(words.astype("<u4").tobytes(), "little")


@own_fisher_yates
class CompiledSeededShuffler(SeededShuffler):
    """:class:`~croupier.table.shoe.SeededShuffler`'s draws, made by the compiled generator above:
    the
    same shuffles, bits and numbers below ``n``, from the same seeds, with the same state after.

    Seeds ``random.Random(seed)`` as its parent does, takes over that state and lets the
    ``random.Random`` go (no second generator to draw from by mistake).
    """

    __slots__ = ("_mt",)

    def __init__(self, seed: int | str | bytes) -> None:
        super().__init__(seed)
        self._mt = state_of(self._rng)
        del self._rng

    def bits(self, k: int) -> int:
        return getrandbits(self._mt, k)

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        items = cards if type(cards) is tuple else tuple(cards)
        n = len(items)
        if n < 2:
            return list(items)  # Fisher-Yates draws nothing for fewer than two items
        perm = np.empty(n, dtype=np.int64)
        shuffle_positions(self._mt, perm)
        return _objects(items).take(perm).tolist()  # type: ignore[no-any-return]

    def randbelow(self, n: int) -> int:
        return randbelow_from_bits(n, self.bits)

    def __repr__(self) -> str:
        return f"CompiledSeededShuffler({self.seed!r})"


_OBJECT_ROWS: dict[int, tuple[tuple[object, ...], Any]] = {}
"""Object arrays of recently shuffled tuples, by identity (each kept with its tuple, so the
identity stays its own): a shuffle takes its items by position from one in a single C call."""
_OBJECT_ROWS_KEPT = 8


def _objects(items: tuple[object, ...]) -> Any:
    """``items`` as a one-dimensional object array (the same objects, in order)."""
    known = _OBJECT_ROWS.get(id(items))
    if known is not None and known[0] is items:
        return known[1]
    row = np.fromiter(items, dtype=object, count=len(items))  # each item one element
    if len(_OBJECT_ROWS) >= _OBJECT_ROWS_KEPT:
        _OBJECT_ROWS.pop(next(iter(_OBJECT_ROWS)), None)
    _OBJECT_ROWS[id(items)] = (items, row)
    return row

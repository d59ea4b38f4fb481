"""Lookup tables of the batch rankers, built from first principles and cached on disk.

How a hand of 4 to 7 cards is ranked (poker5 and four-card; the bit layout is documented in
:mod:`croupier.kernels._jit`):

* Every card adds a 64-bit *card key*: the key of its rank (``RANK_KEYS``, chosen so that the
  sums over every multiset of at most seven ranks, none more than four times, are all distinct)
  plus one in the 4-bit counter of its suit, which says when a suit holds a flush.
* The rank part of the sum is a perfect hash key of the rank multiset: a row-displacement table
  (``offsets``) maps it into a compact table (``plain``) holding the best value the ranks make
  *without* a flush.
* If a counter says flush, the ranks of that suit (a 13-bit mask taken from the per-suit card
  bits, ``16 * suit + rank``) index the flush table.  The answer is the larger of the two values:
  suited cards score at least as much as a flush or straight flush as they would as plain ranks
  (high card or straight), so the larger value is the best hand.

Three-card rankings use a table indexed by the three ranks and one "same suit" bit.

The values are the integers of :mod:`croupier.hands._core` (``category_index << 20`` and rank
nibbles); the tests prove them equal to the scalar evaluator on every 3-, 4- and 5-card hand.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit
from numpy.typing import NDArray

from croupier.core.progress import Task
from croupier.hands import Category, Ranking, pack
from croupier.kernels import _jit
from croupier.kernels._jit import HASH_SHIFT, INVALID_KEY, RANK_KEYS, SUIT_SHIFT

__all__ = ["SHIPPED", "Tables", "build_tables", "cache_dir", "load_shipped", "tables"]

TABLES_VERSION = 1
"""Bump whenever the layout or the contents of the tables change (invalidates disk caches)."""

Int64Array = NDArray[np.int64]
Int32Array = NDArray[np.int32]


def card_tables() -> tuple[Int64Array, Int64Array]:
    """Card key and card bit of every byte value 0..255 (only 0..51 are cards)."""
    keys = np.full(256, INVALID_KEY, dtype=np.int64)
    bits = np.zeros(256, dtype=np.int64)
    for index in range(52):
        rank, suit = divmod(index, 4)
        keys[index] = RANK_KEYS[rank] + (1 << (SUIT_SHIFT + 4 * suit))
        bits[index] = 1 << (16 * suit + rank)
    return keys, bits


# --------------------------------------------------------------------------------------------
# First-principles values (ranks 2..14, lists highest first)


def _straight_top(present: set[int], length: int) -> int:
    """Top rank of the highest run of ``length`` ranks in ``present`` (ace low below the deuce)."""
    for top in range(14, length, -1):
        if all(r in present for r in range(top - length + 1, top + 1)):
            return top
    if 14 in present and all(r in present for r in range(2, length + 1)):
        return length
    return 0


def _index(ranking: Ranking, category: Category) -> int:
    return ranking.categories.index(category)


def plain_poker5(counts: dict[int, int]) -> int:
    """Best five of 5..7 cards with these rank counts, no five of them suited."""
    rk = Ranking.POKER5
    present = sorted(counts, reverse=True)

    def others(*skip: int) -> list[int]:
        return [r for r in present if r not in skip]

    quads = [r for r in present if counts[r] == 4]
    trips = [r for r in present if counts[r] >= 3]
    if quads:
        return pack(_index(rk, Category.FOUR_OF_A_KIND), [quads[0], others(quads[0])[0]])
    if trips:
        pairs = [r for r in present if counts[r] >= 2 and r != trips[0]]
        if pairs:
            return pack(_index(rk, Category.FULL_HOUSE), [trips[0], pairs[0]])
    top = _straight_top(set(present), 5)
    if top:
        return pack(_index(rk, Category.STRAIGHT), [top])
    if trips:
        return pack(_index(rk, Category.THREE_OF_A_KIND), [trips[0], *others(trips[0])[:2]])
    pairs = [r for r in present if counts[r] == 2]
    if len(pairs) >= 2:
        kicker = others(pairs[0], pairs[1])[0]
        return pack(_index(rk, Category.TWO_PAIR), [pairs[0], pairs[1], kicker])
    if pairs:
        return pack(_index(rk, Category.PAIR), [pairs[0], *others(pairs[0])[:3]])
    return pack(_index(rk, Category.HIGH_CARD), present[:5])


def plain_four_card(counts: dict[int, int]) -> int:
    """Best four of 4..6 cards with these rank counts, no four of them suited (§ 641a.6)."""
    rk = Ranking.FOUR_CARD
    present = sorted(counts, reverse=True)

    def others(*skip: int) -> list[int]:
        return [r for r in present if r not in skip]

    quads = [r for r in present if counts[r] == 4]
    if quads:
        return pack(_index(rk, Category.FOUR_OF_A_KIND), [quads[0]])
    trips = [r for r in present if counts[r] == 3]
    if trips:
        return pack(_index(rk, Category.THREE_OF_A_KIND), [trips[0], others(trips[0])[0]])
    top = _straight_top(set(present), 4)
    if top:
        return pack(_index(rk, Category.STRAIGHT), [top])
    pairs = [r for r in present if counts[r] == 2]
    if len(pairs) >= 2:
        return pack(_index(rk, Category.TWO_PAIR), pairs[:2])
    if pairs:
        return pack(_index(rk, Category.PAIR), [pairs[0], *others(pairs[0])[:2]])
    return pack(_index(rk, Category.HIGH_CARD), present[:4])


def flush_poker5(ranks: list[int]) -> int:
    """Best five of five or more suited cards of these ranks (highest first)."""
    rk = Ranking.POKER5
    top = _straight_top(set(ranks), 5)
    if top == 14:
        return pack(_index(rk, Category.ROYAL_FLUSH), [top])
    if top:
        return pack(_index(rk, Category.STRAIGHT_FLUSH), [top])
    return pack(_index(rk, Category.FLUSH), ranks[:5])


def flush_four_card(ranks: list[int]) -> int:
    """Best four of four or more suited cards of these ranks (highest first)."""
    rk = Ranking.FOUR_CARD
    top = _straight_top(set(ranks), 4)
    if top:
        return pack(_index(rk, Category.STRAIGHT_FLUSH), [top])
    return pack(_index(rk, Category.FLUSH), ranks[:4])


def three_card(ranks: list[int], suited: bool, ranking: Ranking) -> int:
    """Value of three cards (ranks in any order) in a three-card ranking (§ 649a.6, § 643a.6)."""
    desc = sorted(ranks, reverse=True)
    distinct = sorted(set(desc), reverse=True)
    top = _straight_top(set(desc), 3) if len(distinct) == 3 else 0
    if top and suited:
        mini = ranking is Ranking.THREE_CARD_BONUS and top == 14
        return pack(
            _index(ranking, Category.MINI_ROYAL if mini else Category.STRAIGHT_FLUSH), [top]
        )
    if len(distinct) == 1:
        return pack(_index(ranking, Category.THREE_OF_A_KIND), [desc[0]])
    if top:
        return pack(_index(ranking, Category.STRAIGHT), [top])
    if suited:
        return pack(_index(ranking, Category.FLUSH), desc)
    if len(distinct) == 2:
        pair = desc[1]  # the middle card always belongs to the pair
        kicker = desc[0] if desc[0] != pair else desc[2]
        return pack(_index(ranking, Category.PAIR), [pair, kicker])
    return pack(_index(ranking, Category.HIGH_CARD), desc)


# --------------------------------------------------------------------------------------------
# Building


def rank_multisets(max_cards: int = 7) -> list[tuple[int, ...]]:
    """Every multiset of at most ``max_cards`` ranks, none more than four times, as 13 counts."""
    found: list[tuple[int, ...]] = [()]
    for _ in range(13):
        found = [(*head, m) for head in found for m in range(min(4, max_cards - sum(head)) + 1)]
    return found


@njit(cache=True)
def _displace(keys: Int64Array, shift: int) -> tuple[Int64Array, Int64Array]:  # pragma: no cover
    """Row-displacement perfect hash: ``slot = key + offsets[key >> shift]`` is unique per key.

    Rows (keys sharing ``key >> shift``) are placed densest first, each at the lowest offset where
    none of its columns collides with a slot already taken.  Returns (offsets, slot of each key).
    """
    width = 1 << shift
    rows = (keys.max() >> shift) + 1
    count = np.zeros(rows, np.int64)
    for key in keys:
        count[key >> shift] += 1
    order = np.argsort(-count, kind="mergesort")
    members = np.argsort(keys >> shift, kind="mergesort")
    start = np.zeros(rows + 1, np.int64)
    for row in range(rows):
        start[row + 1] = start[row] + count[row]
    taken = np.zeros(keys.shape[0] * 4 + width * 4, np.bool_)
    offsets = np.zeros(rows, np.int64)
    first_free = 0
    for row in order:
        if count[row] == 0:
            continue
        cols = np.empty(count[row], np.int64)
        for j in range(count[row]):
            cols[j] = keys[members[start[row] + j]] & (width - 1)
        while taken[first_free]:
            first_free += 1
        base = first_free - cols.min()
        base = max(base, 0)
        while True:
            ok = True
            for col in cols:
                if base + col >= taken.shape[0]:
                    raise ValueError("perfect hash does not fit")
                if taken[base + col]:
                    ok = False
                    break
            if ok:
                break
            base += 1
        for col in cols:
            taken[base + col] = True
        offsets[row] = base - (row << shift)
    slots = np.empty(keys.shape[0], np.int64)
    for j in range(keys.shape[0]):
        slots[j] = keys[j] + offsets[keys[j] >> shift]
    return offsets, slots


@dataclass(frozen=True, slots=True)
class Tables:
    """Every lookup table of the batch rankers (int64 keys and offsets, int32 values)."""

    card_key: Int64Array
    """(256,) key of each byte value; bytes 52..255 carry :data:`INVALID_KEY`."""
    card_bit: Int64Array
    """(256,) bit ``16 * suit + rank`` of each card, 0 for bytes that are no card."""
    offsets: Int32Array
    """Row offsets of the perfect hash of rank-key sums (``HASH_SHIFT`` wide rows)."""
    plain_poker5: Int32Array
    """Best poker5 value of the rank multiset at each hash slot, without a flush."""
    plain_four_card: Int32Array
    """Best four-card value of the rank multiset at each hash slot, without a flush."""
    flush_poker5: Int32Array
    """(8192,) best poker5 flush or straight flush of a 13-bit rank mask of five or more."""
    flush_four_card: Int32Array
    """(8192,) best four-card flush or straight flush of a rank mask of four or more."""
    three_card: Int32Array
    """(4394,) value at ``((r0 * 13 + r1) * 13 + r2) * 2 + suited`` (ranks 0..12)."""
    three_card_bonus: Int32Array
    """(4394,) as ``three_card`` for the Three Card Bonus ranking (mini royal)."""

    def arrays(self) -> dict[str, NDArray[np.int64] | NDArray[np.int32]]:
        return {name: getattr(self, name) for name in self.__slots__}

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays().values())


def build_tables() -> Tables:
    """Build every table from first principles (a few seconds)."""
    card_key, card_bit = card_tables()
    multisets = rank_multisets(7)
    key_array = np.array(
        [sum(m * k for m, k in zip(counts, RANK_KEYS, strict=True)) for counts in multisets],
        dtype=np.int64,
    )
    if np.unique(key_array).size != key_array.size:
        raise AssertionError("rank keys are not unique over the rank multisets")
    offsets, slots = _displace(key_array, HASH_SHIFT)
    size = int(slots.max()) + 1
    plain5 = np.zeros(size, dtype=np.int32)
    plain4 = np.zeros(size, dtype=np.int32)
    for counts, slot in zip(multisets, slots.tolist(), strict=True):
        by_rank = {r + 2: m for r, m in enumerate(counts) if m}
        n = sum(counts)
        if 5 <= n <= 7:
            plain5[slot] = plain_poker5(by_rank)
        if 4 <= n <= 6:
            plain4[slot] = plain_four_card(by_rank)
    flush5 = np.zeros(1 << 13, dtype=np.int32)
    flush4 = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
        if len(ranks) >= 5:
            flush5[mask] = flush_poker5(ranks)
        if len(ranks) >= 4:
            flush4[mask] = flush_four_card(ranks)
    three = np.zeros(13 * 13 * 13 * 2, dtype=np.int32)
    bonus = np.zeros_like(three)
    for r0 in range(13):
        for r1 in range(13):
            for r2 in range(13):
                ranks = [r0 + 2, r1 + 2, r2 + 2]
                for suited in (False, True):
                    if suited and len(set(ranks)) < 3:
                        continue  # suited cards have distinct ranks
                    at = ((r0 * 13 + r1) * 13 + r2) * 2 + suited
                    three[at] = three_card(ranks, suited, Ranking.THREE_CARD)
                    bonus[at] = three_card(ranks, suited, Ranking.THREE_CARD_BONUS)
    return Tables(
        card_key=card_key,
        card_bit=card_bit,
        offsets=offsets.astype(np.int32),
        plain_poker5=plain5,
        plain_four_card=plain4,
        flush_poker5=flush5,
        flush_four_card=flush4,
        three_card=three,
        three_card_bonus=bonus,
    )


# --------------------------------------------------------------------------------------------
# Disk cache


def cache_dir() -> Path:
    """``$CROUPIER_CACHE``, else ``$XDG_CACHE_HOME/croupier``, else ``~/.cache/croupier``."""
    explicit = os.environ.get("CROUPIER_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "croupier"


def _digest(arrays: dict[str, NDArray[np.int64] | NDArray[np.int32]]) -> str:
    sha = hashlib.sha256()
    for name in sorted(arrays):
        sha.update(name.encode())
        sha.update(np.ascontiguousarray(arrays[name]).tobytes())
    return sha.hexdigest()


def _cache_file(directory: Path) -> Path:
    """The cache file: its name changes with the version and with the source of the builders."""
    sha = hashlib.sha256(f"{TABLES_VERSION}".encode())
    for source in (Path(__file__), Path(_jit.__file__)):
        try:
            sha.update(source.read_bytes())
        except OSError:
            sha.update(source.name.encode())
    return directory / f"kernel-tables-v{TABLES_VERSION}-{sha.hexdigest()[:16]}.npz"


def load_tables(directory: Path) -> Tables | None:
    """The tables cached in ``directory``, or None if absent, unreadable or corrupt."""
    path = _cache_file(directory)
    try:
        with path.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
            arrays = {name: data[name] for name in Tables.__slots__}
            digest = str(data["digest"])
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    if digest != _digest(arrays):
        return None
    return Tables(**arrays)


def save_tables(built: Tables, directory: Path) -> bool:
    """Write the tables to ``directory`` atomically; False if the directory is not writable."""
    arrays = built.arrays()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            dir=directory, prefix=".tables-", suffix=".npz", delete=False
        ) as handle:
            np.savez(handle, digest=np.array(_digest(arrays)), **arrays)  # type: ignore[arg-type]
            temp = Path(handle.name)
        os.replace(temp, _cache_file(directory))
    except OSError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# Shipped copy: the tables are data, so the package carries them (no build on a cold machine)

SHIPPED = Path(__file__).with_name("hand_tables.npz")
"""The tables as shipped in the package: what :func:`build_tables` builds, written by
``scripts/write_hand_tables.py``; ``tests/test_kernels.py`` rebuilds them and
checks every array byte for byte (dtype, shape and contents)."""

SHIPPED_SOURCE = (
    "# Source: croupier.kernels._tables.build_tables() (first principles: the rank keys of "
    "croupier.kernels._jit and the category rules of croupier.hands._core), written by "
    "`scripts/write_hand_tables.py`; tests/test_kernels.py::"
    "test_shipped_tables_equal_a_rebuild_byte_for_byte rebuilds and compares them."
)
"""The provenance header stored in the shipped file (its ``source`` entry)."""


def write_shipped(built: Tables, path: Path = SHIPPED) -> None:
    """Write ``built`` as the shipped copy (compressed; with its version, digest and source)."""
    arrays = built.arrays()
    with path.open("wb") as handle:
        np.savez_compressed(
            handle,
            source=np.array(SHIPPED_SOURCE),
            version=np.array(TABLES_VERSION),
            digest=np.array(_digest(arrays)),
            **arrays,  # type: ignore[arg-type]
        )


def load_shipped(path: Path = SHIPPED) -> Tables | None:
    """The shipped tables, or None if absent, of another version, or corrupt."""
    try:
        with path.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
            arrays = {name: data[name] for name in Tables.__slots__}
            digest = str(data["digest"])
            version = int(data["version"])
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    if version != TABLES_VERSION or digest != _digest(arrays):
        return None
    return Tables(**arrays)


@cache
def tables() -> Tables:
    """The tables: the package's shipped copy; else a sound copy in the disk cache; else built
    (a few seconds) and cached."""
    shipped = load_shipped()
    if shipped is not None:
        return shipped
    directory = cache_dir()
    found = load_tables(directory)
    if found is not None:
        return found
    with Task(1, "building the hand tables (first run; cached afterwards)"):
        built = build_tables()
    save_tables(built, directory)
    return built

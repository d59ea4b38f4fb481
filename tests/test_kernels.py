"""The batch kernels equal the scalar evaluator, and the enumeration primitives a plain walk.

The truth is :func:`croupier.hands.evaluate`.  Every 3-, 4- and 5-card hand has a scalar truth.
All suits are equal in rank (§ 641a.6(a), § 643a.6, § 649a.6), so a hand of the ranking's own
size is valued by its ranks and whether it is a flush alone: ``evaluate`` is called once on the
first and once on the last hand of each such rank pattern (the two must agree) and the value is
broadcast to every hand of the pattern; a sample of hands through ``evaluate`` directly ties the
table to the function again.  For 6 and 7 cards, ``evaluate`` is by definition the best of its
4- or 5-card subsets, so the truth of a larger hand is the maximum of the exhaustive scalar table
over its subsets; a sample of larger hands goes through ``evaluate`` directly to tie that
derivation to the function itself.
"""

from __future__ import annotations

import importlib
import itertools
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from croupier.core.cards import DECK, Card
from croupier.core.errors import InvalidInput
from croupier.hands import CATEGORY_SHIFT, Category, Ranking, evaluate
from croupier.kernels import (
    canonical_form,
    canonical_hands,
    comb_rank,
    comb_rank_batch,
    comb_unrank,
    comb_unrank_batch,
    count_categories,
    count_values,
    count_versus,
    rank_batch,
    ranker,
    subsets,
)
from croupier.kernels._jit import RANK_KEYS
from croupier.kernels._rank import rank_flat
from croupier.kernels._tables import (
    SHIPPED,
    SHIPPED_SOURCE,
    Tables,
    _cache_file,
    build_tables,
    load_shipped,
    load_tables,
    rank_multisets,
    save_tables,
    tables,
)

Values = NDArray[np.int64]
Hands = NDArray[np.uint8]

P5 = Ranking.POKER5
P4 = Ranking.FOUR_CARD
P3 = Ranking.THREE_CARD
P3B = Ranking.THREE_CARD_BONUS


def scalar(hands: Hands, ranking: Ranking) -> Values:
    """``evaluate(...).value`` of every row, one call each."""
    return np.array(
        [evaluate(tuple(DECK[c] for c in row), ranking).value for row in hands.tolist()],
        dtype=np.int64,
    )


def best_of(hands: Hands, size: int, truth: Values) -> Values:
    """Best value over the ``size``-card subsets of each row, read from an exhaustive table."""
    best = np.full(hands.shape[0], -1, dtype=np.int64)
    for cols in itertools.combinations(range(hands.shape[1]), size):
        best = np.maximum(best, truth[comb_rank_batch(hands[:, list(cols)])])
    return best


def random_hands(rng: np.random.Generator, n: int, k: int) -> Hands:
    """``n`` uniform random k-card hands, cards shuffled within each row."""
    ranks = rng.integers(0, comb(52, k), size=n)
    return rng.permuted(comb_unrank_batch(ranks, k), axis=1)


def rank_patterns(hands: Hands) -> NDArray[np.int64]:
    """Each row's rank pattern: its sorted ranks in base 13, plus 13**k if it is a flush."""
    ranks = np.sort(hands // 4, axis=1).astype(np.int64)
    key = np.zeros(hands.shape[0], dtype=np.int64)
    for column in range(hands.shape[1]):
        key = key * 13 + ranks[:, column]
    suits = hands % 4
    flush = np.all(suits == suits[:, :1], axis=1)
    out: NDArray[np.int64] = key + flush.astype(np.int64) * 13 ** hands.shape[1]
    return out


def scalar_by_pattern(hands: Hands, ranking: Ranking) -> Values:
    """``scalar(hands, ranking)`` for hands of the ranking's own size, one call per pattern.

    ``evaluate`` runs on the first and the last hand of every rank pattern; the two must agree
    (suits never rank), and the value goes to every hand of the pattern.
    """
    patterns, first, inverse = np.unique(
        rank_patterns(hands), return_index=True, return_inverse=True
    )
    last = hands.shape[0] - 1 - np.unique(rank_patterns(hands[::-1]), return_index=True)[1]
    values = scalar(hands[first], ranking)
    assert np.array_equal(scalar(hands[last], ranking), values), "a suit changed a value"
    # the rank multisets of k cards (no five of a kind) and the C(13, k) rank sets of a flush
    assert len(patterns) == {4: 1_820 + 715, 5: 6_175 + 1_287}[hands.shape[1]]
    sample = np.random.default_rng(hands.shape[1]).integers(0, hands.shape[0], size=5_000)
    truth = values[inverse.reshape(-1)]
    assert np.array_equal(scalar(hands[sample], ranking), truth[sample])
    return truth


@pytest.fixture(scope="module")
def truth5() -> Values:
    """Scalar poker5 value of every 5-card hand, indexed by colex rank."""
    return scalar_by_pattern(subsets(5), P5)


@pytest.fixture(scope="module")
def truth4() -> Values:
    """Scalar four-card value of every 4-card hand, indexed by colex rank."""
    return scalar_by_pattern(subsets(4), P4)


# --------------------------------------------------------------------------------------------
# Batch equals scalar


def test_subsets_rows_are_in_colex_order() -> None:
    hands = subsets(5)
    assert hands.shape == (2_598_960, 5)
    assert np.array_equal(comb_rank_batch(hands), np.arange(hands.shape[0]))


def test_643a_6_poker5_batch_equals_scalar_on_every_five_card_hand(truth5: Values) -> None:
    hands = subsets(5)
    assert np.array_equal(rank_batch(P5, hands), truth5)
    assert np.array_equal(rank_batch("poker5", hands[:, ::-1], parallel=True), truth5)


def test_641a_6_four_card_batch_equals_scalar_on_every_four_card_hand(truth4: Values) -> None:
    hands = subsets(4)
    assert np.array_equal(rank_batch(P4, hands), truth4)
    assert np.array_equal(rank_batch(P4, hands, parallel=True), truth4)


def test_641a_6_four_card_best_of_5_equals_scalar_on_every_five_card_hand(
    truth4: Values,
) -> None:
    hands = subsets(5)
    expected = best_of(hands, 4, truth4)
    assert np.array_equal(rank_batch(P4, hands), expected)
    sample = hands[:: len(hands) // 3000]
    assert np.array_equal(scalar(sample, P4), best_of(sample, 4, truth4))


@pytest.mark.parametrize("ranking", [P3, P3B])
def test_649a_6_three_card_batch_equals_scalar_on_every_three_card_hand(
    ranking: Ranking,
) -> None:
    hands = subsets(3)
    expected = scalar(hands, ranking)
    assert np.array_equal(rank_batch(ranking, hands), expected)
    assert np.array_equal(rank_batch(ranking, hands[:, [2, 0, 1]], parallel=True), expected)


RANDOM_HANDS = [100_000, pytest.param(1_000_000, marks=pytest.mark.long, id="long")]
"""Random 6- and 7-card hands per check: 10^5 in ``make test`` (every rank pattern of 6 and 7
cards is checked apart, below), 10^6 in ``make bench``."""


@pytest.mark.parametrize("n", RANDOM_HANDS)
def test_643a_6_poker5_batch_equals_scalar_on_random_six_and_seven_card_hands(
    truth5: Values, n: int
) -> None:
    rng = np.random.default_rng(20240601)
    for k in (6, 7):
        hands = random_hands(rng, n, k)
        values = rank_batch(P5, hands)
        assert np.array_equal(values, best_of(hands, 5, truth5))
        assert np.array_equal(rank_batch(P5, hands, parallel=True), values)
        sample = hands[:3000]
        assert np.array_equal(scalar(sample, P5), values[:3000])


@pytest.mark.parametrize("n", RANDOM_HANDS)
def test_641a_6_four_card_best_of_6_equals_scalar_on_random_six_card_hands(
    truth4: Values, n: int
) -> None:
    rng = np.random.default_rng(641)
    hands = random_hands(rng, n, 6)
    values = rank_batch(P4, hands, parallel=True)
    assert np.array_equal(values, best_of(hands, 4, truth4))
    assert np.array_equal(scalar(hands[:2000], P4), values[:2000])


def _unsuited_hands(size: int) -> Hands:
    """One hand per rank multiset of ``size`` cards, suits dealt in turn (never a flush)."""
    rows = []
    for counts in rank_multisets(size):
        if sum(counts) != size:
            continue
        ranks = [r for r, m in enumerate(counts) for _ in range(m)]
        rows.append([4 * r + i % 4 for i, r in enumerate(ranks)])
    return np.array(rows, dtype=np.uint8)


def _suited_hands(low: int, high: int) -> Hands:
    """Every rank set of ``low`` to ``high`` cards, all spades, padded to ``high`` cards."""
    rows = []
    for size in range(low, high + 1):
        for ranks in itertools.combinations(range(13), size):
            spare = [4 * r for r in range(13) if r not in ranks][: high - size]  # clubs
            rows.append([4 * r + 3 for r in ranks] + spare)
    return np.array(rows, dtype=np.uint8)


def test_poker5_batch_equals_scalar_on_every_rank_pattern_of_six_and_seven_cards(
    truth5: Values,
) -> None:
    for size in (6, 7):
        hands = _unsuited_hands(size)
        assert len(hands) == {6: 18_395, 7: 49_205}[size]
        assert np.array_equal(rank_batch(P5, hands), best_of(hands, 5, truth5))
    suited = _suited_hands(5, 7)
    assert np.array_equal(rank_batch(P5, suited), best_of(suited, 5, truth5))


def test_641a_6_four_card_batch_equals_scalar_on_every_rank_pattern_of_five_and_six(
    truth4: Values,
) -> None:
    for size in (5, 6):
        hands = _unsuited_hands(size)
        assert np.array_equal(rank_batch(P4, hands), best_of(hands, 4, truth4))
    for high in (5, 6):
        suited = _suited_hands(4, high)
        assert np.array_equal(rank_batch(P4, suited), best_of(suited, 4, truth4))


# --------------------------------------------------------------------------------------------
# Against independent evaluators


def _pairs(rng: np.random.Generator, n: int) -> tuple[Hands, Hands]:
    """``n`` pairs of 7-card hands: half drawn apart, half sharing five board cards."""
    half = n // 2
    a = random_hands(rng, half, 7)
    b = random_hands(rng, half, 7)
    nine = random_hands(rng, n - half, 9)
    shared_a = np.concatenate([nine[:, :5], nine[:, 5:7]], axis=1)
    shared_b = np.concatenate([nine[:, :5], nine[:, 7:9]], axis=1)
    return np.concatenate([a, shared_a]), np.concatenate([b, shared_b])


def test_seven_card_pairs_order_as_phevaluator_and_treys(truth5: Values) -> None:
    phevaluator = importlib.import_module("phevaluator")
    treys = importlib.import_module("treys")
    rng = np.random.default_rng(7)
    a, b = _pairs(rng, 100_000)
    ours = np.sign(rank_batch(P5, a).astype(np.int64) - rank_batch(P5, b))
    assert np.array_equal(np.sign(best_of(a, 5, truth5) - best_of(b, 5, truth5)), ours)
    ph = phevaluator.evaluate_cards
    theirs = np.sign(  # phevaluator: lower is better
        np.array([ph(*y) - ph(*x) for x, y in zip(a.tolist(), b.tolist(), strict=True)])
    )
    assert np.array_equal(ours, theirs)
    assert 0 < np.count_nonzero(ours == 0) < len(ours)  # the shared boards make ties
    evaluator = treys.Evaluator()
    names = [str(Card.from_index(i)) for i in range(52)]
    new = treys.Card.new

    def treys_value(row: list[int]) -> int:
        cards = [new(names[c]) for c in row]
        return int(evaluator.evaluate(cards[:2], cards[2:]))

    few = 10_000
    pairs = zip(a[-few:].tolist(), b[-few:].tolist(), strict=True)
    theirs_t = np.sign([treys_value(y) - treys_value(x) for x, y in pairs])
    assert np.array_equal(ours[-few:], theirs_t)
    direct = np.sign(scalar(a[-500:], P5) - scalar(b[-500:], P5))
    assert np.array_equal(direct, theirs[-500:])


# --------------------------------------------------------------------------------------------
# Input checks


@pytest.mark.parametrize(
    ("ranking", "hands", "message"),
    [
        ("poker6", [[0, 1, 2, 3, 4]], "ranking 'poker6' is unknown"),
        (P5, [0, 1, 2, 3, 4], "2-D array"),
        (P5, [[0, 1, 2, 3]], "takes 5 to 7 cards a hand; the hands have 4"),
        (P4, [[0, 1, 2, 3, 4, 5, 6]], "takes 4 to 6 cards"),
        (P3, [[0, 1, 2, 3]], "takes 3 cards"),
        (P5, [[0.0, 1, 2, 3, 4]], "integer card indices"),
        (P5, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]], "row 1 holds card index 52"),
        (P5, [[0, 1, 2, -3, 4]], "row 0 holds card index -3"),
        (P5, np.array([[0, 1, 2, 3, 200]], np.uint8), "row 0 holds card index 200"),
        (P5, [[5, 9, 5, 9, 1, 2, 3]], r"holds 3d \(index 5\), 4d \(index 9\) more than once"),
        (P4, [[0, 1, 2, 0]], r"holds 2c \(index 0\) more than once"),
        (P3, [[7, 8, 7]], "more than once"),
        (P3B, [[60, 8, 7]], "card index 60"),
    ],
)
def test_rank_batch_refuses_what_is_no_hand(ranking: object, hands: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        rank_batch(ranking, hands)  # type: ignore[arg-type]


def test_rank_batch_takes_any_integer_dtype_and_empty_input() -> None:
    hand = np.array([[48, 49, 50, 51, 44]])  # four aces and a king
    expected = evaluate("Ac Ad Ah As Kc").value
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert rank_batch(P5, hand.astype(dtype)).tolist() == [expected]
    out = rank_batch(P5, np.empty((0, 7), np.uint8))
    assert out.dtype == np.int32 and out.shape == (0,)


def test_rank_batch_names_the_first_bad_row_in_parallel() -> None:
    hands = np.tile(np.arange(7, dtype=np.uint8), (200_000, 1))
    hands[177_777, 3] = 0
    with pytest.raises(InvalidInput, match="row 177777 holds 2c"):
        rank_batch(P5, hands, parallel=True)
    hands[177_777, 3] = 3
    assert np.all(rank_batch(P5, hands, parallel=True) == evaluate("2c 2d 2h 2s 3c 3d 3h").value)


@pytest.mark.parametrize(("ranking", "k"), [(P5, 5), (P5, 6), (P5, 7), (P4, 4), (P4, 5), (P4, 6)])
def test_numpy_and_compiled_rankers_agree_on_random_hands(ranking: Ranking, k: int) -> None:
    """Small batches are ranked in numpy, parallel or large ones by the compiled kernel: the
    two paths give the same value (and the same -1 for a card twice or a byte no card)."""
    rng = np.random.default_rng(k)
    hands = np.array([rng.permutation(52)[:k] for _ in range(5_000)], dtype=np.uint8)
    hands[0, 1] = hands[0, 0]
    hands[1, k - 1] = 60
    in_numpy = rank_flat(ranking, hands)
    compiled = rank_flat(ranking, hands, parallel=True)
    assert in_numpy[0] == in_numpy[1] == -1
    assert np.array_equal(in_numpy, compiled)
    assert np.array_equal(in_numpy[2:300], scalar(hands[2:300], ranking))


@pytest.mark.parametrize(("ranking", "k"), [(P5, 5), (P4, 4), (P4, 5)])
def test_value_counts_equal_ranking_every_hand(ranking: Ranking, k: int) -> None:
    values, counts = np.unique(rank_batch(ranking, subsets(k)), return_counts=True)
    assert count_values(ranking, k) == dict(zip(values.tolist(), counts.tolist(), strict=True))


def test_value_counts_of_six_cards_add_up_to_the_category_counts() -> None:
    by_value = count_values(P5, 6)
    assert sum(by_value.values()) == comb(52, 6)
    by_category: Counter[Category] = Counter()
    for value, count in by_value.items():
        by_category[P5.categories[value >> CATEGORY_SHIFT]] += count
    assert dict(by_category) == {c: n for c, n in count_categories(P5, 6).items() if n}
    with pytest.raises(InvalidInput, match="up to 6 cards"):
        count_values(P5, 7)


# --------------------------------------------------------------------------------------------
# Tables


def test_rank_keys_sum_uniquely_over_every_multiset_of_seven_ranks() -> None:
    sums = [sum(m * k for m, k in zip(c, RANK_KEYS, strict=True)) for c in rank_multisets(7)]
    assert len(sums) == 76_155
    assert len(set(sums)) == len(sums)
    assert max(sums) < 1 << 25


@pytest.fixture(scope="module")
def built() -> Tables:
    """The tables built from first principles (numba compiles the builder: seconds)."""
    return build_tables()


def test_tables_fit_the_memory_budget_and_survive_the_disk_cache(
    built: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert built.nbytes < 256 << 20
    cached = tables()
    for name, array in built.arrays().items():
        assert np.array_equal(array, cached.arrays()[name]), name
    assert save_tables(built, tmp_path)
    loaded = load_tables(tmp_path)
    assert loaded is not None
    assert all(np.array_equal(a, loaded.arrays()[n]) for n, a in built.arrays().items())
    path = _cache_file(tmp_path)
    path.write_bytes(path.read_bytes()[:-100])
    assert load_tables(tmp_path) is None
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "fresh"))
    from croupier.kernels._tables import cache_dir

    assert cache_dir() == tmp_path / "fresh"
    assert load_tables(cache_dir()) is None


def test_shipped_tables_equal_a_rebuild_byte_for_byte(built: Tables, tmp_path: Path) -> None:
    """The package ships the tables as data: they must be exactly what the builder makes from
    first principles (same names, dtypes, shapes and bytes), with their provenance inside."""
    shipped = load_shipped()
    assert shipped is not None, f"{SHIPPED} missing or corrupt: run scripts/write_hand_tables.py"
    for name, array in built.arrays().items():
        copy = shipped.arrays()[name]
        assert (copy.dtype, copy.shape) == (array.dtype, array.shape), name
        assert copy.tobytes() == array.tobytes(), f"{name}: run scripts/write_hand_tables.py"
    with np.load(SHIPPED, allow_pickle=False) as data:
        assert str(data["source"]) == SHIPPED_SOURCE
        assert SHIPPED_SOURCE.startswith("# Source: ")
    assert tables() is tables()
    assert all(np.array_equal(a, tables().arrays()[n]) for n, a in built.arrays().items())
    broken = tmp_path / "hand_tables.npz"
    broken.write_bytes(SHIPPED.read_bytes()[:-100])
    assert load_shipped(broken) is None
    assert load_shipped(tmp_path / "absent.npz") is None


# --------------------------------------------------------------------------------------------
# Enumeration primitives against plain walks


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_colex_rank_and_unrank_walk_every_set_in_order(k: int) -> None:
    walk = sorted(itertools.combinations(range(52), k), key=lambda c: tuple(reversed(c)))
    assert [comb_rank(c) for c in walk] == list(range(comb(52, k)))
    assert [comb_unrank(r, k) for r in range(comb(52, k))] == walk
    if k:
        array = np.array(walk, dtype=np.uint8)
        assert np.array_equal(comb_rank_batch(array), np.arange(len(walk)))
        assert np.array_equal(comb_unrank_batch(np.arange(len(walk)), k), array)


def test_colex_batch_equals_scalar_on_random_sets() -> None:
    rng = np.random.default_rng(5)
    for k, n in ((5, 52), (7, 52), (2, 47), (10, 64)):
        ranks = rng.integers(0, comb(n, k), size=2000)
        rows = comb_unrank_batch(ranks, k, n=n)
        assert [comb_unrank(int(r), k, n=n) for r in ranks] == [tuple(x) for x in rows.tolist()]
        assert np.array_equal(comb_rank_batch(rng.permuted(rows, axis=1)), ranks)
    assert comb_rank([Card.parse("As"), Card.parse("2c")]) == comb(51, 2)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: comb_rank([3, 3]), "twice"),
        (lambda: comb_rank([-1, 3]), "0 or more"),
        (lambda: comb_unrank(comb(52, 2), 2), "outside"),
        (lambda: comb_unrank(0, 53), "cannot choose"),
        (lambda: comb_unrank_batch([5], 2, n=65), "at most 64"),
        (lambda: comb_unrank_batch([-1], 2), "must lie"),
        (lambda: comb_rank_batch([[1, 1]]), "row 0 holds an element twice"),
        (lambda: comb_rank_batch([[1, 64]]), "0..63"),
        (lambda: subsets(3, dead=[1, 1]), "twice"),
        (lambda: subsets(3, dead=[52]), "outside 0..51"),
        (lambda: subsets(3, dead=[1.5]), "neither a card nor a card index"),  # type: ignore[list-item]
        (lambda: subsets(3, dead=["Xx"]), "unknown rank"),
        (lambda: subsets(50, dead=[1, 2, 3]), "cannot deal 50"),
        (lambda: canonical_hands(8), "1 to 7"),
        (lambda: canonical_form([[1, 1]]), "twice"),
    ],
)
def test_enumeration_refuses_bad_input(call: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        call()  # type: ignore[operator]


def test_subsets_deal_every_set_of_the_live_cards_once() -> None:
    dead: list[int | Card | str] = [Card.parse("As"), 0, 17, "Jd"]
    gone = {51, 0, 17, 37}  # As, 2c, 6d, Jd
    live = [c for c in range(52) if c not in gone]
    for k in (1, 2, 3):
        rows = subsets(k, dead=dead)
        walk = sorted(itertools.combinations(live, k), key=lambda c: tuple(reversed(c)))
        assert [tuple(r) for r in rows.tolist()] == walk
    assert subsets(0).shape == (1, 0)
    assert subsets(4, dead=range(48)).tolist() == [[48, 49, 50, 51]]


def _python_classes(k: int) -> Counter[tuple[int, ...]]:
    """Suit classes by brute force: the least of the 24 suit renamings of each hand."""
    classes: Counter[tuple[int, ...]] = Counter()
    perms = list(itertools.permutations(range(4)))
    for hand in itertools.combinations(range(52), k):
        key = min(tuple(sorted(4 * (c // 4) + p[c % 4] for c in hand)) for p in perms)
        classes[key] += 1
    return classes


@pytest.mark.parametrize("k", [1, 2, 3])
def test_canonical_hands_match_a_brute_force_walk(k: int) -> None:
    hands, weights = canonical_hands(k)
    brute = _python_classes(k)
    assert len(hands) == len(brute)
    assert sorted(brute.values()) == sorted(weights.tolist())
    # every class holds exactly the hands whose canonical form is its member
    forms = canonical_form(subsets(k))
    found = Counter(tuple(r) for r in forms.tolist())
    assert found == dict(zip((tuple(h) for h in hands.tolist()), weights.tolist(), strict=True))


@pytest.mark.parametrize(
    ("k", "classes"), [(1, 13), (2, 169), (3, 1_755), (4, 16_432), (5, 134_459)]
)
def test_canonical_hand_classes_and_weights_cover_the_deck(k: int, classes: int) -> None:
    hands, weights = canonical_hands(k)
    assert len(hands) == classes
    assert int(weights.sum()) == comb(52, k)
    ranks = comb_rank_batch(hands)
    assert np.all(np.diff(ranks) > 0)
    forms = comb_rank_batch(canonical_form(subsets(k)))
    members, counts = np.unique(forms, return_counts=True)
    assert np.array_equal(members, ranks)
    assert np.array_equal(counts, weights)
    if k == 5:  # renaming suits changes no hand's value
        assert np.array_equal(
            rank_batch(P5, hands)[np.searchsorted(ranks, forms)], rank_batch(P5, subsets(5))
        )


def test_canonical_hands_of_six_and_seven_cards_weigh_the_whole_deck() -> None:
    for k, classes in ((6, 962_988), (7, 6_009_159)):
        hands, weights = canonical_hands(k)
        assert len(hands) == classes
        assert int(weights.sum()) == comb(52, k)


def test_count_versus_equals_a_plain_walk_three_card() -> None:
    hero = Card.from_index(50), Card.from_index(46), Card.from_index(1)  # Ah Kh 2d
    hero_value = evaluate(hero, P3).value
    dead = [*hero, Card.parse("7c")]
    got = count_versus(hero_value, ranker(P3), k=3, dead=dead)
    tally = Counter[str]()
    for holding in itertools.combinations([c for c in DECK if c not in dead], 3):
        value = evaluate(holding, P3).value
        tally["beat" if value > hero_value else "tie" if value == hero_value else "lose"] += 1
    assert got == (tally["beat"], tally["tie"], tally["lose"])
    assert got.total == comb(48, 3)


def test_count_versus_equals_a_plain_walk_holdem_board() -> None:
    board = [Card.parse(t) for t in ("Ks", "Kd", "7h", "7c", "2s")]
    hole = [Card.parse("Ah"), Card.parse("Qc")]
    hero_value = evaluate([*board, *hole], P5).value
    got = count_versus(hero_value, ranker("poker5", shared=board), k=2, dead=[*board, *hole])
    tally = Counter[str]()
    for holding in itertools.combinations([c for c in DECK if c not in [*board, *hole]], 2):
        value = evaluate([*board, *holding], P5).value
        tally["beat" if value > hero_value else "tie" if value == hero_value else "lose"] += 1
    assert got == (tally["beat"], tally["tie"], tally["lose"])
    with pytest.raises(InvalidInput, match="returned shape"):
        count_versus(0, lambda h: np.zeros(3), k=2, dead=board)

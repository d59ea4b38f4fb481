"""Tests of the dealing source (shoe.py), named after the rules they check.

Exactness of the shuffle is proved with an *enumerating bit source*: the draw tree is walked so
that every ``k``-bit pattern is fed once at every draw, and each path is one equally likely
outcome.  Statistical checks (chi-square) then confirm the real generators are wired in right.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from itertools import permutations
from math import factorial
from statistics import NormalDist
from typing import TypeVar

import numpy as np
import pytest

from croupier.core.cards import DECK, Card, Rank, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, Irregularity
from croupier.kernels import CompiledSeededShuffler
from croupier.table.shoe import (
    BACCARAT_DECKS,
    SHUFFLER_COUNT_SECTION,
    STUB_COUNT_SECTION,
    BackColour,
    BitSource,
    Deck,
    SecureShuffler,
    SeededShuffler,
    Shoe,
    Shuffler,
    StackedShoe,
    TwoDeckRotation,
    cut,
    fisher_yates,
    randbelow_from_bits,
    shoe_cards,
)

R = TypeVar("R", bound=Hashable)
T = TypeVar("T")


# --------------------------------------------------------------------------------------------
# The enumerating bit source


class _NeedMore(Exception):
    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.k = k


def enumerate_draws(run: Callable[[BitSource], R], max_draws: int) -> tuple[Counter[R], int]:
    """Walk every path of ``run``'s draw tree: at each draw of ``k`` bits, each of the ``2**k``
    patterns once.

    Every path that completes within ``max_draws`` draws has the same probability when all such
    paths draw the same ``k`` sequence (true of the algorithms here: with no rejection their draw
    sizes are fixed), so the counts are exact relative probabilities.  Paths that would need more
    than ``max_draws`` draws contain a rejection and are counted in the second value.
    """
    outcomes: Counter[R] = Counter()
    cut_off = 0
    scripts: list[list[tuple[int, int]]] = [[]]
    while scripts:
        script = scripts.pop()
        pos = 0

        def bits(k: int, script: list[tuple[int, int]] = script) -> int:
            nonlocal pos
            if pos == len(script):
                raise _NeedMore(k)
            want_k, value = script[pos]
            assert want_k == k, "the algorithm must ask the same sizes along a path"
            pos += 1
            return value

        try:
            outcome = run(bits)
        except _NeedMore as more:
            if len(script) >= max_draws:
                cut_off += 1
            else:
                scripts.extend([*script, (more.k, p)] for p in range(2**more.k))
            continue
        assert pos == len(script)
        outcomes[outcome] += 1
    return outcomes, cut_off


def naive_shuffle(items: Sequence[T], bits: BitSource) -> list[T]:
    """The classic wrong shuffle: swap each position with *any* position."""
    out = list(items)
    n = len(out)
    for i in range(n):
        j = randbelow_from_bits(n, bits)
        out[i], out[j] = out[j], out[i]
    return out


# --------------------------------------------------------------------------------------------
# Unbiased draws


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 8, 9, 52, 100])
def test_randbelow_exactly_unbiased_over_every_bit_pattern(n: int) -> None:
    """Fed every k-bit pattern once, each value in range(n) is accepted exactly once and the
    other 2**k - n patterns are all rejected (drawn again), never folded by a modulo."""
    counts, rejected = enumerate_draws(lambda bits: randbelow_from_bits(n, bits), max_draws=1)
    assert counts == Counter(range(n))
    k = (n - 1).bit_length()
    assert rejected == (2**k - n if n > 1 else 0)
    assert rejected < n  # k is the fewest bits: acceptance is more than one half


def test_randbelow_redraws_instead_of_modulo() -> None:
    fed = iter([6, 7, 4])
    assert randbelow_from_bits(5, lambda k: next(fed)) == 4  # a modulo would give 6 % 5 == 1


@pytest.mark.parametrize("bad", [0, -3, True, 2.0, "5"])
def test_randbelow_refuses_empty_or_non_integer_range(bad: object) -> None:
    with pytest.raises(InvalidInput, match=repr(bad).replace(".", r"\.")):
        randbelow_from_bits(bad, lambda k: 0)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Fisher-Yates is exact; the naive shuffle is not


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6])
def test_fisher_yates_gives_every_permutation_exactly_once(n: int) -> None:
    items = tuple(range(n))
    counts, _ = enumerate_draws(lambda bits: tuple(fisher_yates(items, bits)), max(n - 1, 0))
    assert set(counts) == set(permutations(items))
    assert set(counts.values()) == {1}
    assert sum(counts.values()) == factorial(n)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_naive_shuffle_fails_the_same_enumeration(n: int) -> None:
    items = tuple(range(n))
    counts, _ = enumerate_draws(lambda bits: tuple(naive_shuffle(items, bits)), n)
    assert sum(counts.values()) == n**n  # n**n equally likely paths over n! orders...
    assert set(counts) == set(permutations(items))
    assert len(set(counts.values())) > 1  # ...so some orders come out more often than others


def test_fisher_yates_leaves_its_input_alone() -> None:
    items = [1, 2, 3, 4]
    SeededShuffler(1).shuffle(items)
    assert items == [1, 2, 3, 4]


# --------------------------------------------------------------------------------------------
# The generators: chi-square of card by position

SHUFFLES = 100_000
CARDS = 52
DOF = (CARDS - 1) ** 2  # 2601: a table with every row and column sum fixed
P_FAIL = 1e-6


def _chi2_quantile(p: float, dof: int) -> float:
    """Wilson-Hilferty quantile of chi-square (relative error ~1e-4 at 2601 dof)."""
    z = NormalDist().inv_cdf(p)
    c = 2 / (9 * dof)
    return float(dof * (1 - c + z * c**0.5) ** 3)


def _card_by_position_statistic(shuffler: Shuffler) -> float:
    """Pearson's statistic over the 52x52 table (position, card) of SHUFFLES shuffles, scaled.

    Under uniform shuffles each cell is Binomial(N, 1/52), but the cells of a sum of permutation
    matrices are tied: the raw statistic tends to (52/51) * chi2((52-1)**2), with mean 52*51.
    Multiplying by 51/52 gives a statistic that is chi-square with DOF = 2601 degrees of freedom.
    """
    base = list(range(CARDS))
    table = np.empty((SHUFFLES, CARDS), dtype=np.int16)
    for row in range(SHUFFLES):
        table[row] = shuffler.shuffle(base)
    assert (np.sort(table, axis=1) == np.arange(CARDS)).all()
    cells = (np.arange(CARDS, dtype=np.int64) * CARDS + table).ravel()
    observed = np.bincount(cells, minlength=CARDS * CARDS).astype(np.float64)
    expected = SHUFFLES / CARDS
    pearson = float(((observed - expected) ** 2).sum() / expected)
    return pearson * (CARDS - 1) / CARDS


@pytest.mark.parametrize(
    "shuffler", [SecureShuffler(), SeededShuffler(20240601)], ids=["secure", "seeded"]
)
def test_card_by_position_chi_square(shuffler: Shuffler) -> None:
    """Every card is equally likely in every position: chi-square, 2601 dof, 10**5 shuffles.

    Two-sided at p = 1e-6 each side (thresholds about 2272.4 and 2958.4): a fair SecureShuffler
    fails it by chance about once in 500,000 runs; a biased or too-regular one fails it.
    """
    low, high = _chi2_quantile(P_FAIL, DOF), _chi2_quantile(1 - P_FAIL, DOF)
    assert 2270 < low < 2275 and 2955 < high < 2961
    statistic = _card_by_position_statistic(shuffler)
    assert low < statistic < high, f"chi2={statistic:.1f} with {DOF} dof"


class _ModuloShuffler:
    """Fisher-Yates with the modulo draw rejection sampling avoids: ``getrandbits(8) % (i + 1)``."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        out = list(cards)
        for i in range(len(out) - 1, 0, -1):
            j = self._rng.getrandbits(8) % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def randbelow(self, n: int) -> int:
        return self._rng.getrandbits(8) % n


def test_card_by_position_chi_square_catches_modulo_bias() -> None:
    """The same test has the power to see the small bias of an 8-bit modulo draw."""
    assert _card_by_position_statistic(_ModuloShuffler(5)) > _chi2_quantile(1 - P_FAIL, DOF)


def test_secure_shuffler_draws_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def fake_randbits(k: int) -> int:
        asked.append(k)
        return 0

    monkeypatch.setattr(secrets, "randbits", fake_randbits)
    assert SecureShuffler().shuffle([1, 2, 3, 4]) == [2, 3, 4, 1]  # j = 0 at every step
    assert SecureShuffler().randbelow(10) == 0
    assert asked == [512, 4]


def test_seeded_shuffler_is_reproducible_and_leaves_global_random_alone() -> None:
    state = random.getstate()
    first = SeededShuffler(7).shuffle(DECK)
    again = SeededShuffler(7).shuffle(DECK)
    other = SeededShuffler(8).shuffle(DECK)
    draws = [SeededShuffler("x").randbelow(6) for _ in range(3)]
    assert random.getstate() == state
    assert first == again != other
    assert Counter(first) == Counter(DECK)
    assert len(set(draws)) == 1 and 0 <= draws[0] < 6


@pytest.mark.parametrize("seed", [0, 11, 2**70, -5, "abc", "11", b"xy"])
def test_compiled_seeded_shuffler_draws_what_seeded_shuffler_draws(
    seed: int | str | bytes,
) -> None:
    """The compiled generator is ``random.Random(seed)``: each shuffle is :func:`fisher_yates`
    over its ``getrandbits`` (SeededShuffler's: the same permutation from the same draws), each
    ``bits(k)`` its ``getrandbits(k)``, and the state after is the generator's, through several
    refills of the 624-word state (eight-deck shoes draw about 600 words each)."""
    ours, theirs = CompiledSeededShuffler(seed), random.Random(seed)
    truth = SeededShuffler(seed)
    assert ours.shuffle(DECK) == truth.shuffle(DECK) == fisher_yates(DECK, theirs.getrandbits)
    shoe = shoe_cards(BACCARAT_DECKS)
    for n in (0, 1, 2, 3, 52, 416, 313, 1000):
        items = list(range(n)) if n % 2 else shoe[:n]
        assert ours.shuffle(items) == fisher_yates(items, theirs.getrandbits), n
        for k in (0, 1, 5, 9, 31, 32, 33, 64, 65, 100):
            assert ours.bits(k) == theirs.getrandbits(k), (n, k)
        assert ours.randbelow(417) == randbelow_from_bits(417, theirs.getrandbits)
    for _ in range(5):
        assert ours.shuffle(shoe) == fisher_yates(shoe, theirs.getrandbits)
    assert tuple(ours._mt.tolist()) == theirs.getstate()[1]
    with pytest.raises(ValueError, match="non-negative"):
        ours.bits(-1)


@pytest.mark.parametrize("slug", ["let-it-ride", "four-card-poker"])
def test_real_play_refuses_the_compiled_seeded_shuffler(slug: str) -> None:
    """The compiled seeded shuffler is a :class:`SeededShuffler`: real play refuses it as it
    refuses every seeded shuffler (only ``SecureShuffler``, Fisher-Yates on ``secrets``)."""
    from croupier.core.modes import PlayMode, verify_shuffler
    from croupier.games import get_game
    from croupier.table.table import Table

    for seeded in (SeededShuffler(1), CompiledSeededShuffler(1)):
        with pytest.raises(IllegalAction, match="real play refuses the shuffler"):
            verify_shuffler(PlayMode.REAL, seeded)
        with pytest.raises(IllegalAction, match="real play refuses the shuffler"):
            Table(get_game(slug), shuffler=seeded)
    verify_shuffler(PlayMode.REAL, SecureShuffler())
    assert not issubclass(SeededShuffler, SecureShuffler)


def test_compiled_seeded_shuffle_returns_the_same_objects() -> None:
    """A compiled seeded shuffle returns the very items it was given (not copies), as a new
    list, and a shoe it shuffles is the seeded shoe."""
    items = [object() for _ in range(60)]
    out = CompiledSeededShuffler(3).shuffle(items)
    assert type(out) is list and out is not items
    assert sorted(map(id, out)) == sorted(map(id, items))
    nested = [(1, 2), (3, 4), (5, 6)]  # items that are sequences stay whole
    assert sorted(CompiledSeededShuffler(3).shuffle(nested)) == nested
    compiled = Shoe.shuffled(CompiledSeededShuffler("s"), decks=BACCARAT_DECKS, cut_card=16)
    plain = Shoe.shuffled(SeededShuffler("s"), decks=BACCARAT_DECKS, cut_card=16)
    assert compiled.deal_many(416) == plain.deal_many(416)


@pytest.mark.parametrize("seed", [None, 1.5, True, [1]])
def test_seeded_shuffler_refuses_non_seed(seed: object) -> None:
    with pytest.raises(InvalidInput, match="seed"):
        SeededShuffler(seed)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# § 641a.5(d): the cut


def test_641a_5_d_cut_moves_cards_above_cover_to_bottom() -> None:
    stack = DECK
    result = cut(stack, 10)
    assert result == DECK[10:] + DECK[:10]
    assert result[-10:] == DECK[:10]  # the ten cards above the cover card, now at the bottom
    assert cut(stack, 51) == (DECK[51], *DECK[:51])


@pytest.mark.parametrize("position", [0, 1, 9])
def test_641a_5_d_cut_refused_under_ten_cards(position: int) -> None:
    deck = Deck(BackColour.RED).shuffled(SeededShuffler(3))
    before = deck.cards
    with pytest.raises(IllegalAction, match=f"cut at {position} cards") as err:
        deck.cut(position)
    assert err.value.section == "§ 641a.5(d)"
    assert deck.cards == before


@pytest.mark.parametrize("position", [52, 53, 1000])
def test_641a_5_d_cut_refused_beyond_the_stack(position: int) -> None:
    with pytest.raises(IllegalAction, match="52-card stack") as err:
        cut(DECK, position)
    assert err.value.section == "§ 641a.5(d)"


@pytest.mark.parametrize("position", [10.0, "10", True])
def test_641a_5_d_cut_refuses_non_integer_position(position: object) -> None:
    with pytest.raises(InvalidInput, match="cut position"):
        cut(DECK, position)  # type: ignore[arg-type]


def test_641a_5_d_shuffled_shoe_is_cut() -> None:
    expected = cut(SeededShuffler(5).shuffle(shoe_cards(1)), 20)
    shoe = Shoe.shuffled(SeededShuffler(5), cut_at=20)
    assert shoe.deal_many(52) == expected


@pytest.mark.parametrize("decks", [1, 6, BACCARAT_DECKS])
def test_shuffled_shoe_of_croupiers_own_shuffler_is_the_full_decks_in_the_shuffled_order(
    decks: int,
) -> None:
    # Shoe.shuffled does not count again what croupier's own Fisher-Yates permuted: the shoe is
    # still exactly the shuffle's order of the full decks, and counts as full (§ 641a.8(f)).
    order = SeededShuffler(9).shuffle(shoe_cards(decks))
    shoe = Shoe.shuffled(SeededShuffler(9), decks=decks, back=BackColour.RED, cut_card=14)
    assert (shoe.decks, shoe.back, shoe.cut_card) == (decks, BackColour.RED, 14)
    assert shoe.deal_many(52 * decks) == tuple(order)
    assert Counter(order) == Counter(shoe_cards(decks))


def test_shuffled_shoe_of_another_shuffler_is_counted() -> None:
    class Dropping:
        """A shuffler that loses a card: the shoe it fills is refused as not the full deck."""

        def shuffle(self, cards: Sequence[T]) -> list[T]:
            return list(cards)[1:]

        def randbelow(self, n: int) -> int:
            return 0

    with pytest.raises(InvalidInput, match="missing 2c"):
        Shoe.shuffled(Dropping())
    with pytest.raises(InvalidInput, match="cut card"):
        Shoe.shuffled(SeededShuffler(1), cut_card=53)


# --------------------------------------------------------------------------------------------
# § 641a.3: decks and the two-deck rotation


def test_641a_3_a_deck_is_52_distinct_cards() -> None:
    deck = Deck(BackColour.BLUE)
    assert deck.cards == DECK
    with pytest.raises(InvalidInput, match="missing As"):
        Deck(BackColour.BLUE, cards=DECK[:-1])
    with pytest.raises(InvalidInput, match="extra 2c"):
        Deck(BackColour.BLUE, cards=(DECK[0], *DECK[:-1]))
    with pytest.raises(InvalidInput, match="BackColour"):
        Deck("red")  # type: ignore[arg-type]


def test_641a_3_a_deck_shuffles_into_its_own_shoe() -> None:
    deck = Deck(BackColour.GREEN).shuffled(SeededShuffler(4)).cut(30)
    shoe = deck.shoe()
    assert shoe.back is BackColour.GREEN and shoe.decks == 1
    assert shoe.deal_many(52) == deck.cards
    assert shoe.verify_count() == 52


def test_641a_3_b_two_decks_alternate_every_other_round() -> None:
    rotation = TwoDeckRotation(Deck(BackColour.RED), Deck(BackColour.BLUE), automated_shuffler=True)
    shuffler = SeededShuffler(11)
    seen = []
    for _ in range(4):
        seen.append(rotation.in_play.back)
        assert rotation.back_for_round(1) is rotation.in_shuffler.back
        rotation = rotation.rotate(shuffler)
    assert seen == [BackColour.RED, BackColour.BLUE] * 2
    assert rotation.rounds == 4
    assert [rotation.back_for_round(r) for r in range(3)] == [
        BackColour.RED,
        BackColour.BLUE,
        BackColour.RED,
    ]
    assert rotation.in_shuffler.cards != DECK  # § 641a.3(b)(2): the stored deck was shuffled


def test_641a_3_b_two_decks_refused_without_automated_shuffler() -> None:
    with pytest.raises(IllegalAction, match="automated card shuffling device") as err:
        TwoDeckRotation(Deck(BackColour.RED), Deck(BackColour.BLUE), automated_shuffler=False)
    assert err.value.section == "§ 641a.3(b)"


def test_641a_3_b_1_two_decks_refused_same_back_colour() -> None:
    with pytest.raises(InvalidInput, match="same back colour 'red'") as err:
        TwoDeckRotation(Deck(BackColour.RED), Deck(BackColour.RED), automated_shuffler=True)
    assert err.value.section == "§ 641a.3(b)(1)"


def test_641a_3_b_1_two_decks_refused_different_design() -> None:
    with pytest.raises(InvalidInput, match="same design") as err:
        TwoDeckRotation(
            Deck(BackColour.RED, "casino A"),
            Deck(BackColour.BLUE, "casino B"),
            automated_shuffler=True,
        )
    assert err.value.section == "§ 641a.3(b)(1)"


# --------------------------------------------------------------------------------------------
# The shoe: dealing, burning, the stub count


def test_shoe_deals_from_the_top_one_at_a_time() -> None:
    shoe = StackedShoe("As Kd 7c 2h")
    assert shoe.deal() == Card.parse("As")
    assert shoe.deal_many(2) == parse_cards("Kd 7c")
    assert shoe.stub_count() == 1 == len(shoe)
    assert shoe.dealt == parse_cards("As Kd 7c")


def test_shoe_refuses_dealing_past_the_stub_and_changes_nothing() -> None:
    shoe = StackedShoe("As Kd")
    with pytest.raises(IllegalAction, match=r"cannot deal 3 card.*2 left in the shoe"):
        shoe.deal_many(3)
    assert shoe.stub_count() == 2 and shoe.dealt == ()
    shoe.deal_many(2)
    with pytest.raises(IllegalAction, match="0 left in the shoe, 2 dealt"):
        shoe.deal()
    with pytest.raises(InvalidInput, match="negative"):
        shoe.deal_many(-1)


def test_burn_takes_top_cards_to_the_discard_rack() -> None:
    shoe = StackedShoe("As Kd 7c 2h")
    assert shoe.burn() == (Card.parse("As"),)
    assert shoe.deal() == Card.parse("Kd")
    assert shoe.burn(2) == parse_cards("7c 2h")
    assert shoe.burned == parse_cards("As 7c 2h") and shoe.dealt == parse_cards("Kd")
    with pytest.raises(IllegalAction, match=r"cannot burn 1 card.*1 dealt, 3 burned"):
        shoe.burn()


def test_641a_8_f_stub_count_finds_52_cards() -> None:
    shoe = Shoe.shuffled(SeededShuffler(2), cut_at=26)
    shoe.deal_many(4 * 5 + 6)  # four players and the dealer
    shoe.burn()
    assert shoe.stub_count() == 25
    assert shoe.verify_count() == 52 == shoe.verify_count(52)


def test_641a_8_f_stub_count_missing_card_is_irregularity() -> None:
    shoe = StackedShoe(DECK[:51])
    shoe.deal_many(11)
    with pytest.raises(Irregularity, match=r"stub 40, 11 dealt, 0 burned.*1 missing") as err:
        shoe.verify_count(52)
    assert err.value.section == STUB_COUNT_SECTION == "§ 641a.8(f)"


def test_641a_8_f_counted_stub_with_extra_card_is_irregularity() -> None:
    shoe = Shoe(DECK)
    shoe.deal_many(11)
    with pytest.raises(Irregularity, match="2 extra"):
        shoe.verify_count(counted_stub=43)
    with pytest.raises(Irregularity) as err:
        shoe.verify_count(counted_stub=40, section=SHUFFLER_COUNT_SECTION)
    assert err.value.section == "§ 641a.5(b)"
    assert shoe.verify_count(counted_stub=41) == 52


def test_shoe_refuses_a_deck_that_is_not_full() -> None:
    with pytest.raises(InvalidInput, match="missing As"):
        Shoe(DECK[:51])
    with pytest.raises(InvalidInput, match="not cards"):
        Shoe(["As"])  # type: ignore[list-item]


def test_stacked_shoe_refuses_duplicates_unless_multi_deck() -> None:
    with pytest.raises(InvalidInput, match="As too many"):
        StackedShoe("As Kd As")
    shoe = StackedShoe(["As", Card.parse("Kd"), "As"], decks=2)
    assert shoe.deal_many(3) == parse_cards("As Kd As", distinct=False)
    with pytest.raises(InvalidInput, match="As too many"):
        StackedShoe("As As As", decks=2)
    with pytest.raises(InvalidInput, match="'Zz'"):
        StackedShoe("As Zz")


def test_baccarat_shoe_is_eight_decks_of_416_cards() -> None:
    shoe = Shoe.shuffled(SeededShuffler(9), decks=BACCARAT_DECKS, cut_card=16)
    assert shoe.stub_count() == 416 == shoe.expected_count
    cards = shoe.deal_many(399)
    assert not shoe.cut_card_reached
    cards += shoe.deal_many(1)
    assert shoe.cut_card_reached  # 16 cards are under the cut card: the shoe is ending
    cards += shoe.deal_many(16)
    assert Counter(c.rank for c in cards) == dict.fromkeys(Rank, 32)
    assert Counter(cards) == dict.fromkeys(DECK, 8)
    assert shoe.verify_count() == 416


def test_shoe_refuses_cut_card_outside_and_bad_deck_count() -> None:
    with pytest.raises(InvalidInput, match="cut card 500"):
        Shoe(shoe_cards(8), decks=8, cut_card=500)
    with pytest.raises(InvalidInput, match="number of decks 0"):
        shoe_cards(0)

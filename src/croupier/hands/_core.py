"""The order values shared by every poker ranking.

A hand's value is one integer: ``category_index << 20`` plus up to five 4-bit rank nibbles
(most significant first) holding the ranks that decide ties in order, 0 where unused.  Larger is
better, equal is a tie.  ``category_index`` is the position of the category in the ranking's own
order (low to high), so the same category can sit at different heights in different rankings.

The batch kernels (:mod:`croupier.kernels`) return exactly these integers.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from itertools import combinations, combinations_with_replacement

from croupier.core.cards import DECK, Card, Rank, Suit, format_cards, parse_cards, verify_distinct
from croupier.core.errors import InvalidInput, shown_value

CATEGORY_SHIFT = 20


class Category(StrEnum):
    """Hand categories by their snake_case interface names."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"
    MINI_ROYAL = "mini_royal"


C = Category


class Ranking(Enum):
    """The rankings of the regulations, by their ``--ranking`` names."""

    POKER5 = "poker5"
    """Best five cards of any number (§ 643a.6, § 653a.6, § 655a.6(a)-(b)): royal flush its own
    category."""
    FOUR_CARD = "four-card"
    """Best four cards (§ 641a.6)."""
    THREE_CARD = "three-card"
    """Three Card Poker (§ 649a.6)."""
    THREE_CARD_BONUS = "three-card-bonus"
    """Let It Ride's Three Card Bonus hands (§ 643a.6(c)), with the mini royal."""

    __hash__ = object.__hash__  # one object per ranking: a C-level identity hash for lookups

    @staticmethod
    def parse(name: str | Ranking) -> Ranking:
        if isinstance(name, Ranking):
            return name
        try:
            return Ranking(name)
        except ValueError:
            names = ", ".join(r.value for r in Ranking)
            raise InvalidInput(f"ranking {name!r} is unknown; rankings are {names}") from None

    @property
    def size(self) -> int:
        """How many cards make a hand of this ranking."""
        return _SIZE[self]

    @property
    def categories(self) -> tuple[Category, ...]:
        """The categories of this ranking, lowest first (index = category index in the value)."""
        return _ORDER[self]

    @property
    def min_cards(self) -> int:
        return self.size

    @property
    def max_cards(self) -> int:
        """The largest number of cards a best-of hand may be chosen from."""
        return 7 if self is Ranking.POKER5 else 6 if self is Ranking.FOUR_CARD else 3


_SIZE = {
    Ranking.POKER5: 5,
    Ranking.FOUR_CARD: 4,
    Ranking.THREE_CARD: 3,
    Ranking.THREE_CARD_BONUS: 3,
}

_ORDER: dict[Ranking, tuple[Category, ...]] = {
    # § 643a.6(b), § 653a.6: royal flush down to a pair, then no hand.
    Ranking.POKER5: (
        C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.THREE_OF_A_KIND, C.STRAIGHT,
        C.FLUSH, C.FULL_HOUSE, C.FOUR_OF_A_KIND, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH,
    ),
    # § 641a.6(b): four of a kind above the straight flush, three of a kind above the flush.
    Ranking.FOUR_CARD: (
        C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.STRAIGHT, C.FLUSH,
        C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND,
    ),
    # § 649a.6: a straight beats a flush with three cards.
    Ranking.THREE_CARD: (
        C.HIGH_CARD, C.PAIR, C.FLUSH, C.STRAIGHT, C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH,
    ),
    # § 643a.6(c): the mini royal (A-K-Q suited) above the other straight flushes.
    Ranking.THREE_CARD_BONUS: (
        C.HIGH_CARD, C.PAIR, C.FLUSH, C.STRAIGHT, C.THREE_OF_A_KIND, C.STRAIGHT_FLUSH,
        C.MINI_ROYAL,
    ),
}  # fmt: skip


@dataclass(frozen=True, slots=True, order=True)
class HandRank:
    """The rank of a hand: compare ``value`` (equal values tie).

    ``cards`` are the cards that make the hand (the best five, four or three), ordered by
    significance: the cards of the category first, kickers after, highest first.
    """

    value: int
    category: Category
    cards: tuple[Card, ...]
    ranking: Ranking

    @classmethod
    def of_value(cls, value: int, ranking: Ranking) -> HandRank:
        """The rank of an order value alone, without its cards: what a tabulation over every
        value of a ranking passes to a game's settlement functions."""
        category = ranking.categories[value >> CATEGORY_SHIFT]
        return cls(value=value, category=category, cards=(), ranking=ranking)

    @property
    def category_index(self) -> int:
        return self.value >> CATEGORY_SHIFT

    @property
    def top_rank(self) -> int:
        """The first tie-break rank (2..14, see :func:`pack`): the rank of the quads, trips or
        higher pair, a straight's top card, or the high card."""
        return (self.value >> 16) & 0xF

    @property
    def tie_ranks(self) -> tuple[int, ...]:
        """Every tie-break rank packed in the value, most significant first (unused dropped)."""
        ranks = ((self.value >> (16 - 4 * position)) & 0xF for position in range(5))
        return tuple(r for r in ranks if r)

    def to_json(self) -> dict[str, object]:
        return {
            "ranking": self.ranking.value,
            "category": self.category.value,
            "value": self.value,
            "cards": [str(c) for c in self.cards],
        }

    def __str__(self) -> str:
        return f"{self.category.value} ({format_cards(self.cards)})"


def pack(category_index: int, ranks: Sequence[int]) -> int:
    """Pack a category index and up to five tie-break ranks into an order value."""
    value = category_index << CATEGORY_SHIFT
    for position, rank in enumerate(ranks):
        value |= rank << (16 - 4 * position)
    return value


def _straight_top(distinct_desc: Sequence[int], size: int) -> int:
    """Top rank of a straight made of ``size`` distinct ranks, 0 if none.

    The ace plays high, or low below the deuce (A-2-3, A-2-3-4, A-2-3-4-5); never in between
    (no K-A-2 wrap-around: § 641a.6(a), § 643a.6(a), § 649a.6).
    """
    if len(distinct_desc) != size:
        return 0
    if distinct_desc[0] - distinct_desc[-1] == size - 1:
        return distinct_desc[0]
    if distinct_desc[0] == 14 and list(distinct_desc[1:]) == list(range(size, 1, -1)):
        return size
    return 0


def classify(cards: Sequence[Card], ranking: Ranking) -> tuple[int, Category, tuple[Card, ...]]:
    """Rank exactly ``ranking.size`` cards: (value, category, cards by significance)."""
    size = ranking.size
    ranks = [int(c.rank) for c in cards]
    by_count: dict[int, int] = {}
    for r in ranks:
        by_count[r] = by_count.get(r, 0) + 1
    # ranks ordered by (count, rank) descending: the tie-break order of every category (the
    # highest card one hand holds and the other does not, § 641a.6(c))
    groups = sorted(by_count.items(), key=lambda item: (item[1], item[0]), reverse=True)
    counts = [n for _, n in groups]
    distinct = sorted(by_count, reverse=True)
    flush = len({c.suit for c in cards}) == 1
    top = _straight_top(distinct, size)
    order = ranking.categories

    if top and flush:
        if ranking is Ranking.POKER5 and top == 14:
            category = C.ROYAL_FLUSH
        elif ranking is Ranking.THREE_CARD_BONUS and top == 14:
            category = C.MINI_ROYAL
        else:
            category = C.STRAIGHT_FLUSH
        tie = [top]
    elif top:
        category, tie = C.STRAIGHT, [top]
    elif counts[0] == 4:
        category, tie = C.FOUR_OF_A_KIND, [g[0] for g in groups]
    elif counts[0] == 3 and len(counts) > 1 and counts[1] == 2:
        category, tie = C.FULL_HOUSE, [g[0] for g in groups]
    elif flush:
        category, tie = C.FLUSH, distinct
    elif counts[0] == 3:
        category, tie = C.THREE_OF_A_KIND, [g[0] for g in groups]
    elif counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        category, tie = C.TWO_PAIR, [g[0] for g in groups]
    elif counts[0] == 2:
        category, tie = C.PAIR, [g[0] for g in groups]
    else:
        category, tie = C.HIGH_CARD, distinct
    value = pack(order.index(category), tie)
    if top:
        # wheel-style straights list the ace last: it plays low
        ordered = sorted(
            cards,
            key=lambda c: 1 if c.rank == 14 and top < 14 else int(c.rank),
            reverse=True,
        )
    else:
        rank_pos = {r: i for i, r in enumerate(g[0] for g in groups)}
        ordered = sorted(cards, key=lambda c: (rank_pos[c.rank], -c.suit.order))
    return value, category, tuple(ordered)


def evaluate(cards: Sequence[Card] | str, ranking: Ranking | str = Ranking.POKER5) -> HandRank:
    """Rank the best hand of ``ranking`` that can be made from ``cards``.

    ``poker5`` takes 5 to 7 cards (best five); ``four-card`` 4 to 6 (best four, § 641a.6: the
    player's best four of five, the dealer's best four of six); the three-card rankings exactly 3.
    Raises :class:`InvalidInput` for unreadable or repeated cards or a wrong count.

    The best hand is the first of the highest value among the hand's combinations in their
    order (:func:`itertools.combinations`), as :func:`classify` ranks it; :func:`_best_of`
    finds it by value tables built by :func:`classify` itself.
    """
    rk = ranking if type(ranking) is Ranking else Ranking.parse(ranking)
    if isinstance(cards, str):
        hand = parse_cards(cards)
    else:
        try:
            hand = tuple(cards)
        except TypeError:  # not iterable
            raise InvalidInput(
                f"cards {shown_value(cards)} are not card text or a sequence of cards"
            ) from None
    ids = set(map(id, hand))
    deck_cards = len(ids) == len(hand) and _DECK_IDS.issuperset(ids)
    if not deck_cards:
        verify_distinct(hand)  # other card objects than DECK's (or repeats): the full check
    low, high = _SPANS[rk]
    if not low <= len(hand) <= high:
        span = (
            str(rk.min_cards)
            if rk.min_cards == rk.max_cards
            else f"{rk.min_cards} to {rk.max_cards}"
        )
        raise InvalidInput(
            f"hand {format_cards(hand)!r} has {len(hand)} cards; ranking {rk.value!r} takes {span}"
        )
    if deck_cards:  # equal to the walk for every ranking (three cards included: a test)
        best = fast_rank(hand, rk)
    else:
        best = classify(hand if len(hand) == rk.size else _best_of(hand, rk), rk)
    # HandRank(value=..., category=..., cards=..., ranking=rk), its fields set as its own
    # __init__ sets them (a frozen class with slots: each field's slot, set directly)
    rank: HandRank = _new(HandRank)
    _SET_VALUE(rank, best[0])
    _SET_CATEGORY(rank, best[1])
    _SET_CARDS(rank, best[2])
    _SET_RANKING(rank, rk)
    return rank


_new = object.__new__
_SET_VALUE, _SET_CATEGORY, _SET_CARDS, _SET_RANKING = (
    HandRank.__dict__[name].__set__ for name in ("value", "category", "cards", "ranking")
)
"""The setters of :class:`HandRank`'s slots (what ``object.__setattr__`` finds for each)."""


_SPANS = {rk: (rk.min_cards, rk.max_cards) for rk in Ranking}
"""How many cards a hand of each ranking may have."""
_DECK_IDS = frozenset(map(id, DECK))
# No memo of evaluate()'s results or classifications: a long-running server evaluates new hands
# for days, and those memos (32,768 seven-card results at about 770 bytes each, up to 250,000
# classifications) were most of the soak's memory growth (issue 17); they gave `simulate` no
# speed (A/B, 2,000 rounds of four games). The tables below are bounded by rank patterns.


_VALUES: dict[Ranking, dict[tuple[int, ...], tuple[int, int]]] = {}


def _values(rk: Ranking) -> dict[tuple[int, ...], tuple[int, int]]:
    """The value :func:`classify` gives every ``rk.size`` ranks (highest first): unsuited, and
    all of one suit (0 where the ranks repeat); a hand's value depends on nothing else."""
    table = _VALUES.get(rk)
    if table is None:
        table = {}
        suits = tuple(Suit)
        for ranks in combinations_with_replacement(range(14, 1, -1), rk.size):
            if max(ranks.count(r) for r in ranks) > len(suits):
                continue
            seen: dict[int, int] = {}
            mixed = []
            for r in ranks:
                mixed.append(Card(Rank(r), suits[seen.get(r, 0)]))
                seen[r] = seen.get(r, 0) + 1
            if len(set(ranks)) == len(ranks):
                mixed[-1] = Card(Rank(ranks[-1]), suits[1])  # unsuited: one card of another suit
                suited = classify([Card(Rank(r), suits[0]) for r in ranks], rk)[0]
            else:
                suited = 0
            table[ranks] = (classify(mixed, rk)[0], suited)
        table = _VALUES.setdefault(rk, table)
    return table


def _best_of(hand: tuple[Card, ...], rk: Ranking) -> tuple[Card, ...]:
    """The first combination of ``rk.size`` cards of ``hand`` (in the order of
    ``combinations(hand, size)``) with the highest value.

    The combinations are walked over the hand sorted by rank (their ranks come out highest
    first: the keys of :func:`_values`); among those of the highest value the first in the
    hand's own order is the one whose sorted positions are least."""
    size = rk.size
    table = _values(rk)
    ranks = [int(c.rank) for c in hand]
    suits = [c.suit for c in hand]
    order = sorted(range(len(hand)), key=ranks.__getitem__, reverse=True)
    desc = [ranks[i] for i in order]
    if any(suits.count(s) >= size for s in suits):
        values = [
            table[key][1] if len({suits[i] for i in where}) == 1 else table[key][0]
            for key, where in zip(combinations(desc, size), combinations(order, size), strict=True)
        ]
    else:
        values = [table[key][0] for key in combinations(desc, size)]
    top = max(values)
    winners = [
        where for where, v in zip(combinations(order, size), values, strict=True) if v == top
    ]
    first = winners[0] if len(winners) == 1 else min(tuple(sorted(w)) for w in winners)
    return tuple(hand[i] for i in sorted(first))


def hand_report(
    cards: Sequence[Card] | str, ranking: Ranking | str = Ranking.POKER5
) -> dict[str, object]:
    """What ``croupier hand`` prints: the cards given (``input``, in the order given), the
    ranking, category and order value, the cards that play (``cards``, by significance) and
    the cards given that do not play (``unused``)."""
    hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    rank = evaluate(hand, ranking)
    plays = set(rank.cards)
    return {
        "input": [str(c) for c in hand],
        **rank.to_json(),
        "unused": [str(c) for c in hand if c not in plays],
    }


# --------------------------------------------------------------------------------------------
# The walk's answer without walking: :func:`fast_rank` (DECK's cards)
#
# :func:`evaluate` is defined by the walk: every combination of the ranking's size classified by
# :func:`classify`, the first of the highest value (in the order of ``itertools.combinations``)
# kept.  :func:`fast_rank` gives the same answer directly:
#
# * The best value is the larger of the best *plain* value (from the rank counts alone: quads, a
#   full house, a straight, trips, two pair, a pair, high cards, in the ranking's order) and the
#   best *suited* value (a flush or a straight flush of the suit holding enough cards).  Suited
#   cards never score less as a flush than as plain ranks, so the larger one is the best hand.
# * A value names its hand's ranks exactly (its category and tie-break ranks), and a flush its
#   suit, so the winning combinations are the ones made of those ranks (of that suit).  The first
#   of them in the walk's order has the least positions, which is the earliest cards of each rank
#   needed: that combination is taken.
# * Its cards come ordered as :func:`classify` orders them: by the value's ranks (the category's
#   cards first, kickers after), a straight by rank with a low ace last.
#
# The tests hold it equal to the walk on every three-card hand, every five-card hand and large
# random samples of six- and seven-card hands.

_RANK = {id(card): int(card.rank) for card in DECK}
_SUIT = {id(card): card.suit.order for card in DECK}
_RANK_SUIT = {id(card): (int(card.rank), 3 - card.suit.order) for card in DECK}
"""Each card's rank and its place among the suits (highest suit order first), by identity."""
_STRAIGHTS = frozenset({C.STRAIGHT, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH, C.MINI_ROYAL})
_SUITED = frozenset({C.FLUSH, C.STRAIGHT_FLUSH, C.ROYAL_FLUSH, C.MINI_ROYAL})
_INDEX = {rk: {c: i for i, c in enumerate(rk.categories)} for rk in Ranking}

Ranked = tuple[int, Category, tuple[Card, ...]]


def _run_top_of(present: int, length: int) -> int:
    """Top rank of the highest run of ``length`` ranks in the rank mask ``present`` (bit ``r``
    for rank ``r``; the ace low below the deuce), 0 if none: the straight :func:`classify` finds
    among the combinations."""
    for top in range(14, length, -1):
        run = ((1 << length) - 1) << (top - length + 1)
        if present & run == run:
            return top
    low = ((1 << (length - 1)) - 1) << 2 | 1 << 14  # A-2-3(-4-5)
    return length if present & low == low else 0


_RUN_TOPS = {length: [_run_top_of(m << 2, length) for m in range(1 << 13)] for length in (4, 5)}
""":func:`_run_top_of` of every rank mask (bits 2..14 shifted down by 2), by run length."""


def _run_top(present: set[int], length: int) -> int:
    """Top rank of the highest run of ``length`` ranks in ``present`` (ace low below the deuce),
    0 if none."""
    mask = 0
    for r in present:
        mask |= 1 << (r - 2)
    return _RUN_TOPS[length][mask]


def _suited(ranks_desc: list[int], rk: Ranking) -> int:
    """The best hand of ``rk.size`` of these suited ranks (a flush or a straight flush)."""
    index = _INDEX[rk]
    size = _SIZE[rk]
    top = _run_top(set(ranks_desc), size)
    if top == 14 and rk is Ranking.POKER5:
        return pack(index[C.ROYAL_FLUSH], (top,))
    if top:
        return pack(index[C.STRAIGHT_FLUSH], (top,))
    return pack(index[C.FLUSH], ranks_desc[:size])


def _tie_ranks(value: int) -> list[int]:
    """The ranks packed in ``value``, most significant first."""
    ranks = [(value >> (16 - 4 * position)) & 0xF for position in range(5)]
    return [r for r in ranks if r]


_COPIES = {
    C.FOUR_OF_A_KIND: (4, 1),
    C.FULL_HOUSE: (3, 2),
    C.THREE_OF_A_KIND: (3, 1, 1),
    C.TWO_PAIR: (2, 2, 1),
    C.PAIR: (2, 1, 1, 1),
}
"""How many cards of each of a value's ranks, in order, a hand of the category holds (each
rank once in the others; the ranking's size cuts off what it does not hold: a four-card two
pair has no kicker)."""


def _hand_ranks(value: int, category: Category, size: int) -> list[int]:
    """The ranks of the ``size`` cards a value of ``category`` is made of, with repeats."""
    tie = _tie_ranks(value)
    if category in _STRAIGHTS:
        top = tie[0]
        run = [top - i for i in range(size)]
        return [14 if r == 1 else r for r in run]  # a low ace plays below the deuce
    counts = _COPIES.get(category, (1,) * size)
    out: list[int] = []
    for rank, count in zip(tie, counts, strict=False):
        out += [rank] * count
    return out[:size]


_Shape = tuple[Category, tuple[tuple[int, int], ...], dict[int, int], int]
_SHAPES: dict[Ranking, dict[int, _Shape]] = {}
"""By ranking, for every value a hand of it can have: the category, the (rank, copies) the hand
is made of, the place of each rank in the order of significance (not for a straight) and a
straight's top rank."""
_PLAIN: dict[tuple[Ranking, int], tuple[array[int], array[int]]] = {}
"""By ranking and a number of cards above its size: the codes (:data:`_WEIGHT`) of every such
multiset of ranks, ascending, and the best plain (not all of one suit) value of each."""
_WEIGHT = [0, 0, *(5 ** (r - 2) for r in range(2, 15))]
"""A multiset of ranks is coded as the sum of its ranks' weights (at most four of a rank in a
deck: the counts are its digits in base 5)."""

_WEIGHT_OF = {id(card): _WEIGHT[int(card.rank)] for card in DECK}
""":data:`_WEIGHT` of each card of DECK's rank, by the card's identity."""
_EXACT: dict[Ranking, dict[int, tuple[int, int]]] = {}
"""By ranking: :func:`_values` keyed by the code of the ranks (:data:`_WEIGHT`) instead."""


def _exact(rk: Ranking) -> dict[int, tuple[int, int]]:
    found = _EXACT.get(rk)
    if found is None:
        coded = {sum(map(_WEIGHT.__getitem__, ranks)): v for ranks, v in _values(rk).items()}
        found = _EXACT.setdefault(rk, coded)
    return found


# The tables are whole from their first use: a server plays for days, and tables filled as
# hands came (one rank multiset or value at a time) made its memory grow for hours (issue 17).


def _shapes(rk: Ranking) -> dict[int, _Shape]:
    found = _SHAPES.get(rk)
    if found is None:
        found = {}
        for plain, suited in _values(rk).values():  # every value is the value of `size` cards
            for value in (plain, suited) if suited else (plain,):
                if value not in found:
                    found[value] = _shape_of(rk, value)
        found = _SHAPES.setdefault(rk, found)
    return found


def _shape_of(rk: Ranking, value: int) -> _Shape:
    category = rk.categories[value >> CATEGORY_SHIFT]
    copies: dict[int, int] = {}
    for r in _hand_ranks(value, category, rk.size):
        copies[r] = copies.get(r, 0) + 1
    straight = category in _STRAIGHTS
    place = {} if straight else {r: i for i, r in enumerate(_tie_ranks(value))}
    top = _tie_ranks(value)[0] if straight else 0  # a straight's top card
    return category, tuple(copies.items()), place, top


def _plain(rk: Ranking, cards: int) -> tuple[array[int], array[int]]:
    """:data:`_PLAIN` of ``rk`` and ``cards``: built for every count at once, each multiset's
    best value the best of its multisets of one rank fewer (those of ``rk.size`` ranks from
    :func:`_values`, which :func:`classify` made)."""
    found = _PLAIN.get((rk, cards))
    if found is None:
        level = {sum(_WEIGHT[r] for r in ranks): v for ranks, (v, _) in _values(rk).items()}
        for n in range(rk.size + 1, rk.max_cards + 1):
            more: dict[int, int] = {}
            for code, value in level.items():
                for weight in _WEIGHT[2:]:
                    if code // weight % 5 < 4 and more.get(code + weight, -1) < value:
                        more[code + weight] = value
            codes = sorted(more)
            _PLAIN.setdefault(
                (rk, n), (array("q", codes), array("q", [more[code] for code in codes]))
            )
            level = more
        found = _PLAIN[(rk, cards)]
    return found


def _ordered(cards: Sequence[Card], shape: _Shape) -> tuple[Card, ...]:
    """``cards`` as :func:`classify` orders them: a straight by rank (a low ace last), else by
    the value's ranks in order, then suit.  Each card's place in that order is one number, a
    different one for each card (the cards are distinct), so the cards sort by it alone."""
    _, _, place, top = shape
    # Each card goes straight to the slot of its place (one slot a place: no sort): a straight's
    # cards are of different ranks, highest first, a low ace last; the others by the value's
    # ranks (at most five: a slot each of the four suits), then suit.  Cards are never falsy, so
    # filter(None, ...) keeps exactly the cards, in slot order.
    if top:
        low_ace = top < 14
        slots: list[Card | None] = [None] * 14
        for card in cards:
            rank = _RANK[id(card)]
            slots[13 if low_ace and rank == 14 else 14 - rank] = card
    else:
        slots = [None] * 20
        for card in cards:
            rank, suit_key = _RANK_SUIT[id(card)]
            slots[place[rank] * 4 + suit_key] = card
    return tuple(filter(None, slots))


def fast_rank(hand: tuple[Card, ...], rk: Ranking) -> Ranked:
    """(value, category, cards by significance) of the best hand of ``rk`` in ``hand``: distinct
    cards of DECK, as many as the ranking takes; the answer of the walk (see the module)."""
    size = _SIZE[rk]
    ids = list(map(id, hand))
    code = sum(map(_WEIGHT_OF.__getitem__, ids))  # the multiset of the hand's ranks
    # the whole tables, looked up directly once made (each hand of a round asks them)
    shapes = _SHAPES.get(rk) or _shapes(rk)
    if len(ids) == size:
        plain, suited = (_EXACT.get(rk) or _exact(rk))[code]
        value = suited if len(set(map(_SUIT.__getitem__, ids))) == 1 else plain
        shape = shapes[value]
        return value, shape[0], _ordered(hand, shape)
    ranks = list(map(_RANK.__getitem__, ids))
    suits = list(map(_SUIT.__getitem__, ids))
    codes, values = _PLAIN.get((rk, len(hand))) or _plain(rk, len(hand))
    value = values[bisect_left(codes, code)]
    flush_suit = -1
    distinct = set(suits)
    for s in distinct if len(distinct) <= len(ids) - size + 1 else ():  # room for a flush
        if suits.count(s) >= size:
            flush_suit = s
            of_suit = sorted((r for r, t in zip(ranks, suits, strict=True) if t == s), reverse=True)
            value = max(value, _suited(of_suit, rk))
    shape = shapes[value]
    category, _, place, top = shape
    # the earliest cards of each rank the hand is made of (of the flush's suit for a flush),
    # each put straight into its slot of _ordered's order
    need = dict(shape[1])
    suit = flush_suit if category in _SUITED else -1
    low_ace = top < 14
    slots: list[Card | None] = [None] * 20
    for card, r, s in zip(hand, ranks, suits, strict=True):
        if need.get(r) and (suit < 0 or s == suit):
            need[r] -= 1
            if top:
                slots[13 if low_ace and r == 14 else 14 - r] = card
            else:
                slots[place[r] * 4 + 3 - s] = card
    return value, category, tuple(filter(None, slots))

"""The dealing source: shuffling, decks and their backs, the cut, and the dealing shoe.

Shuffling
    :class:`Shuffler` is the protocol every shuffle goes through.  :class:`SecureShuffler` draws
    from the operating system's CSPRNG (``secrets.randbits``) and is the only shuffler for play;
    :class:`SeededShuffler` is reproducible and is for simulation and tests only.  Both run the
    same Fisher-Yates (:func:`fisher_yates`) over a *bit source*: a callable that returns ``k``
    random bits (the seeded one over ``random.Random(seed)``'s; the simulator's compiled twin,
    :class:`croupier.kernels.CompiledSeededShuffler`, makes the same draws).  A number below
    ``n`` is drawn by rejection sampling (:func:`randbelow_from_bits`): draw the fewest bits that
    can hold ``n - 1`` and draw again when the value is ``n`` or more, never reducing modulo
    ``n``, so every value is exactly equally likely.

Decks
    A :class:`Deck` is one 52-card deck, with its cover card, and a back colour
    (:class:`BackColour`).  A :class:`TwoDeckRotation` is the two-deck game of § 641a.3(b): only
    with an automated card shuffling device, the decks of one design with backs of different
    colours, alternated every other round.

The cut (§ 641a.5(d))
    :func:`cut` places the cover card at least ten cards in from the top and moves every card above
    it, and the cover card, to the bottom.  The cover card then lies under the last card.

The shoe
    A :class:`Shoe` deals one card at a time from the top, burns, and counts its stub.
    :meth:`Shoe.verify_count` is the stub count of § 641a.8(f): when the cards in the stub, with
    the cards dealt and burned, are not the cards of the deck, the round is void (§ 641a.8(h)) and
    :class:`~croupier.core.errors.Irregularity` is raised.  A multi-deck shoe (baccarat, eight decks
    by default: :data:`BACCARAT_DECKS`) may carry a cut card near the bottom that marks the end of
    the shoe.  :class:`StackedShoe` deals a given order, for scenarios and tests.

Every operation validates first and then either returns new state (decks, rotations, cuts) or
mutates the shoe; a refused operation changes nothing.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Protocol, TypeVar

from croupier.core.cards import DECK, Card, format_cards, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, Irregularity, shown_value

__all__ = [
    "BACCARAT_DECKS",
    "CUT_MIN_DEPTH",
    "DECK_SIZE",
    "SHUFFLER_COUNT_SECTION",
    "STUB_COUNT_SECTION",
    "BackColour",
    "BitSource",
    "Deck",
    "SecureShuffler",
    "SeededShuffler",
    "Shoe",
    "Shuffler",
    "StackedShoe",
    "TwoDeckRotation",
    "cut",
    "fisher_yates",
    "randbelow_from_bits",
    "shoe_cards",
]

T = TypeVar("T")
S = TypeVar("S", bound=type)

BitSource = Callable[[int], int]
"""``bits(k)`` returns a uniformly random integer in ``range(2 ** k)`` (``k`` random bits)."""

DECK_SIZE = 52
CUT_MIN_DEPTH = 10
"""§ 641a.5(d): the cover card goes at least ten cards in from the top of the stack."""
BACCARAT_DECKS = 8
"""Decks in a baccarat shoe by default.  The deck count of §§ 627a.3 and 629a.3 is not in the
texts at hand, so it is a parameter everywhere (``decks=``), not a cited constant."""

STUB_COUNT_SECTION = "§ 641a.8(f)"
"""The stub count: at least once every 5 rounds, the dealer counts the stub to determine if the
correct number of cards are still present (Four Card Poker, manual dealing shoe; the same rule is
§ 641a.9(d) dealing from the hand and § 641a.10(d) from an automated dealing shoe)."""
SHUFFLER_COUNT_SECTION = "§ 641a.5(b)"
"""An automated card shuffling device that counts the cards after each shuffle and reveals an
incorrect number: the deck is removed from the table."""

_POOL_BITS = 512


# --------------------------------------------------------------------------------------------
# Unbiased draws and Fisher-Yates over a bit source


def _check_bound(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidInput(f"randbelow bound {shown_value(n)} is not an integer")
    if n < 1:
        raise InvalidInput(f"randbelow bound {shown_value(n)} is not positive: range({n}) is empty")
    return n


def randbelow_from_bits(n: int, bits: BitSource) -> int:
    """A uniformly random integer in ``range(n)`` by rejection sampling over ``bits``.

    Draws ``k = (n - 1).bit_length()`` bits, the fewest that can hold ``n - 1``, and draws again
    while the value is ``n`` or more; each try is accepted with probability ``n / 2**k > 1/2``.
    ``n == 1`` draws nothing.
    """
    bound = _check_bound(n)
    if bound == 1:
        return 0
    k = (bound - 1).bit_length()
    value = bits(k)
    while value >= bound:
        value = bits(k)
    return value


_BIT_LENGTHS = [i.bit_length() for i in range(DECK_SIZE * BACCARAT_DECKS + 1)]
"""``i.bit_length()`` for every position of the largest shoe dealt by default."""


def fisher_yates(items: Sequence[T], bits: BitSource) -> list[T]:
    """A uniformly random permutation of ``items`` (a new list; ``items`` is not touched).

    For ``i = n-1 .. 1`` swap position ``i`` with a position ``j`` drawn uniformly from
    ``range(i + 1)`` (the draw of :func:`randbelow_from_bits`, inlined for speed).
    """
    out = list(items)
    n = len(out)
    lengths = _BIT_LENGTHS if n <= len(_BIT_LENGTHS) else [i.bit_length() for i in range(n)]
    for i in range(n - 1, 0, -1):
        k = lengths[i]  # the fewest bits that hold i, the largest value in range(i + 1)
        j = bits(k)
        while j > i:
            j = bits(k)
        out[i], out[j] = out[j], out[i]
    return out


def _secure_bits() -> BitSource:
    """A bit source over ``secrets.randbits`` that draws the OS CSPRNG in blocks.

    Each block is used once, bit by bit, and only by the one shuffle that made this source, so a
    source is never shared between calls or threads.
    """
    pool = 0
    avail = 0

    def bits(k: int) -> int:
        nonlocal pool, avail
        if k > avail:
            avail = max(_POOL_BITS, k)
            pool = secrets.randbits(avail)
        value = pool & ((1 << k) - 1)
        pool >>= k
        avail -= k
        return value

    return bits


class Shuffler(Protocol):
    """The source of every shuffle and random choice."""

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        """A uniformly random permutation of ``cards`` as a new list."""
        ...

    def randbelow(self, n: int) -> int:
        """A uniformly random integer in ``range(n)``."""
        ...


class SecureShuffler:
    """The shuffler for play: Fisher-Yates over the operating system's CSPRNG (``secrets``)."""

    __slots__ = ()

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        return fisher_yates(cards, _secure_bits())

    def randbelow(self, n: int) -> int:
        return randbelow_from_bits(n, secrets.randbits)

    def __repr__(self) -> str:
        return "SecureShuffler()"


class SeededShuffler:
    """A reproducible shuffler for simulation and tests only, never for play.

    Holds its own ``random.Random(seed)``; it never touches the module-level ``random`` state.
    (:class:`croupier.kernels.CompiledSeededShuffler`, the simulator's, makes the same draws in
    compiled code.)
    """

    __slots__ = ("_rng", "seed")

    def __init__(self, seed: int | str | bytes) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str | bytes):
            raise InvalidInput(f"seed {shown_value(seed)} is not an int, str or bytes")
        self.seed = seed
        self._rng = random.Random(seed)

    def bits(self, k: int) -> int:
        """``k`` bits from this shuffler's generator (its bit source)."""
        return self._rng.getrandbits(k)

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        return fisher_yates(cards, self._rng.getrandbits)

    def randbelow(self, n: int) -> int:
        return randbelow_from_bits(n, self._rng.getrandbits)

    def __repr__(self) -> str:
        return f"SeededShuffler({shown_value(self.seed)})"


_OWN_SHUFFLERS: set[type] = {SeededShuffler, SecureShuffler}
"""The shufflers whose ``shuffle`` is croupier's Fisher-Yates: a permutation of its input (a
compiled one adds itself: :func:`own_fisher_yates`)."""


def own_fisher_yates(cls: S) -> S:
    """Mark ``cls`` as a shuffler whose ``shuffle`` is croupier's Fisher-Yates (its output a
    permutation of its input), as :class:`SeededShuffler`'s and :class:`SecureShuffler`'s are:
    :meth:`Shoe.shuffled` then does not count the decks it just permuted again.  For croupier's
    own shufflers only (the compiled seeded one); a test holds each to its draws."""
    _OWN_SHUFFLERS.add(cls)
    return cls


# --------------------------------------------------------------------------------------------
# Cards of one or more decks


MAX_DECKS = 8
"""The most decks in one shoe: eight, as a Rules Submission's ``[table] decks`` allows (the
baccarat shoe; the poker games deal one or two)."""


def _check_decks(decks: object) -> int:
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise InvalidInput(
            f"number of decks {shown_value(decks)} is not a whole number from 1 to {MAX_DECKS}"
        )
    return decks


def _check_cards(cards: object, *, what: str) -> tuple[Card, ...]:
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise InvalidInput(f"{what} {shown_value(cards)} is not a sequence of cards")
    out = tuple(cards)
    if _DECK_IDS.issuperset(map(id, out)):
        return out  # every item is one of the 52 cards of DECK (the usual case, checked fast)
    bad = [repr(c) for c in out if not isinstance(c, Card)]
    if bad:
        raise InvalidInput(f"{what} holds {', '.join(bad)}, which are not cards")
    return out


def shoe_cards(decks: int = 1) -> tuple[Card, ...]:
    """The cards of ``decks`` full decks, deck after deck, each in index order."""
    return _shoe_cards(_check_decks(decks))


@cache
def _shoe_cards(decks: int) -> tuple[Card, ...]:
    return DECK * decks  # one tuple per deck count (immutable, so shared)


_DECK_IDS = frozenset(map(id, DECK))
"""The identities of the 52 cards of :data:`~croupier.core.cards.DECK` (they live as long as the
process): a shoe made of them is checked by identity, without hashing a card."""


def _is_full(cards: Sequence[Card], decks: int) -> bool:
    """Whether ``cards`` are exactly ``decks`` copies of each card of DECK, by identity: a fast
    sufficient test (``False`` for equal cards that are other objects: the full count decides)."""
    if len(cards) != DECK_SIZE * decks:
        return False
    if decks == 1:
        return len(_DECK_IDS.intersection(map(id, cards))) == DECK_SIZE
    counts = Counter(map(id, cards))
    return counts.keys() == _DECK_IDS and set(counts.values()) == {decks}


def _full_by_identity(cards: object, decks: int) -> tuple[Card, ...] | None:
    """``cards`` (a list or tuple) as a tuple when they are exactly ``decks`` copies of each card
    of DECK, by identity, in one pass (the usual shoe: both :func:`_check_cards` and
    :func:`_require_full` pass it); ``None`` where that is not sure (the full checks decide)."""
    if type(cards) is not list and type(cards) is not tuple:
        return None
    if len(cards) != DECK_SIZE * decks:
        return None
    if decks == 1:
        if set(map(id, cards)) != _DECK_IDS:
            return None
    else:
        counts = Counter(map(id, cards))
        if counts.keys() != _DECK_IDS or set(counts.values()) != {decks}:
            return None
    return tuple(cards)


def _composition_problems(cards: Sequence[Card], decks: int) -> tuple[list[str], list[str]]:
    """(missing, extra) against ``decks`` full decks, as ``"As x2"`` style strings."""
    if _is_full(cards, decks):
        return [], []
    counts = Counter(cards)
    missing = [
        f"{c} x{decks - counts[c]}" if decks - counts[c] > 1 else str(c)
        for c in DECK
        if counts[c] < decks
    ]
    extra = [
        f"{c} x{counts[c] - decks}" if counts[c] - decks > 1 else str(c)
        for c in DECK
        if counts[c] > decks
    ]
    return missing, extra


def _require_full(cards: Sequence[Card], decks: int, *, what: str) -> None:
    missing, extra = _composition_problems(cards, decks)
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if extra:
            parts.append(f"extra {', '.join(extra)}")
        raise InvalidInput(
            f"{what} of {len(cards)} cards is not {decks} full deck(s) of "
            f"{DECK_SIZE * decks}: {'; '.join(parts)}"
        )


# --------------------------------------------------------------------------------------------
# The cut


def cut(stack: Sequence[Card], position: int) -> tuple[Card, ...]:
    """Cut ``stack`` (top card first) with the cover card ``position`` cards in from the top.

    § 641a.5(d): the cover card goes at least ten cards in from the top; the cards above it and
    the cover card go to the bottom.  Returns the new order, top first; the cover card lies under
    its last card.  ``position`` must leave at least one card under the cover card (a cover card
    under the whole stack moves nothing and is no cut).  A refused cut changes nothing.
    """
    cards = _check_cards(stack, what="stack to cut")
    if isinstance(position, bool) or not isinstance(position, int):
        raise InvalidInput(f"cut position {shown_value(position)} is not a whole number of cards")
    if position < CUT_MIN_DEPTH:
        raise IllegalAction(
            f"cut at {position} cards from the top of a {len(cards)}-card stack: the cover card "
            f"must go at least {CUT_MIN_DEPTH} cards in from the top",
            section="§ 641a.5(d)",
        )
    if position >= len(cards):
        raise IllegalAction(
            f"cut at {position} cards from the top of a {len(cards)}-card stack: the cover card "
            f"must go in the stack, with at least one card under it "
            f"(positions {CUT_MIN_DEPTH}..{len(cards) - 1})",
            section="§ 641a.5(d)",
        )
    return cards[position:] + cards[:position]


# --------------------------------------------------------------------------------------------
# Decks, backs and the two-deck rotation


class BackColour(Enum):
    """The colour of a deck's backs (§ 641a.3(b)(1) wants two decks to differ)."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    BLACK = "black"
    PURPLE = "purple"
    ORANGE = "orange"
    GREY = "grey"
    YELLOW = "yellow"


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck of 52 cards, with its cover card, of one design and back colour.

    ``cards`` is the current order, top first (new decks come in index order); it must be the 52
    cards exactly once each.  Shuffling and cutting return a new ``Deck``.
    """

    back: BackColour
    design: str = "standard"
    cards: tuple[Card, ...] = field(default=DECK)

    def __post_init__(self) -> None:
        if not isinstance(self.back, BackColour):
            raise InvalidInput(f"deck back {shown_value(self.back)} is not a BackColour")
        if not isinstance(self.design, str) or not self.design:
            raise InvalidInput(f"deck design {shown_value(self.design)} is not a name")
        cards = _check_cards(self.cards, what=f"{self.back.value} deck")
        _require_full(cards, 1, what=f"{self.back.value} deck")
        object.__setattr__(self, "cards", cards)

    def shuffled(self, shuffler: Shuffler) -> Deck:
        return Deck(self.back, self.design, tuple(shuffler.shuffle(self.cards)))

    def cut(self, position: int) -> Deck:
        """This deck cut, the cover card ``position`` cards in (§ 641a.5(d)); see :func:`cut`."""
        return Deck(self.back, self.design, cut(self.cards, position))

    def shoe(self) -> Shoe:
        """A shoe dealing this deck in its current order."""
        return Shoe(self.cards, back=self.back)

    def __repr__(self) -> str:
        return (
            f"Deck({self.back.value}, {shown_value(self.design)}, "
            f"{format_cards(self.cards[:3])} ...)"
        )


@dataclass(frozen=True, slots=True)
class TwoDeckRotation:
    """Two decks alternated in and out of play every other round (§ 641a.3(b)).

    Allowed only with an automated card shuffling device (§ 641a.3(b)); the decks are of the same
    design with backs of different colours (§ 641a.3(b)(1)).  ``in_play`` deals this round while
    ``in_shuffler`` is shuffled and stored in the device (§ 641a.3(b)(2)); :meth:`rotate` swaps
    them after each round (§ 641a.3(b)(3)).  ``rounds`` counts completed rounds.
    """

    in_play: Deck
    in_shuffler: Deck
    automated_shuffler: bool
    rounds: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.in_play, Deck) or not isinstance(self.in_shuffler, Deck):
            raise InvalidInput(
                "two-deck rotation needs two Decks, got "
                f"{shown_value(self.in_play)} and {shown_value(self.in_shuffler)}"
            )
        if self.automated_shuffler is not True:
            raise IllegalAction(
                f"two decks ({self.in_play.back.value} and {self.in_shuffler.back.value} backs) "
                f"with automated_shuffler={shown_value(self.automated_shuffler)}: "
                "two decks may be used only "
                "if an automated card shuffling device is utilized",
                section="§ 641a.3(b)",
            )
        if self.in_play.back is self.in_shuffler.back:
            raise InvalidInput(
                "two decks with the same back colour "
                f"{shown_value(self.in_play.back.value)}: the backs of "
                "one deck must be of a different colour than the other",
                section="§ 641a.3(b)(1)",
            )
        if self.in_play.design != self.in_shuffler.design:
            raise InvalidInput(
                f"two decks of designs {shown_value(self.in_play.design)} "
                f"and {shown_value(self.in_shuffler.design)}: "
                "the cards in each deck must be of the same design",
                section="§ 641a.3(b)(1)",
            )
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 0:
            raise InvalidInput(f"rounds {shown_value(self.rounds)} is not a count of rounds")

    def back_for_round(self, round_number: int) -> BackColour:
        """The back colour in play in round ``round_number`` (0 is this rotation's next round)."""
        if isinstance(round_number, bool) or not isinstance(round_number, int):
            raise InvalidInput(f"round number {shown_value(round_number)} is not a whole number")
        if round_number < 0:
            raise InvalidInput(f"round number {shown_value(round_number)} is negative")
        return (self.in_play if round_number % 2 == 0 else self.in_shuffler).back

    def rotate(self, shuffler: Shuffler) -> TwoDeckRotation:
        """After a round the used deck goes into the device, shuffled, and the other comes out."""
        return TwoDeckRotation(
            in_play=self.in_shuffler,
            in_shuffler=self.in_play.shuffled(shuffler),
            automated_shuffler=True,
            rounds=self.rounds + 1,
        )


# --------------------------------------------------------------------------------------------
# The shoe


class Shoe:
    """A dealing shoe (or a stacked deck in the hand): deals from the top, burns, counts the stub.

    ``cards`` is the order, top first, of ``decks`` full decks.  ``cut_card``, for a multi-deck
    shoe, is the number of cards under the cut card: :attr:`cut_card_reached` turns true once the
    stub is down to it.  The shoe mutates as it deals; each method validates before it changes
    anything.
    """

    __slots__ = ("_back", "_burned", "_cut_card", "_dealt", "_decks", "_stack")

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        decks: int = 1,
        back: BackColour | None = None,
        cut_card: int | None = None,
    ) -> None:
        n_decks = _check_decks(decks)
        order = (
            _full_by_identity(cards, n_decks) if type(self)._validate is Shoe._validate else None
        )
        if order is None:  # not surely full decks of DECK's cards: the full checks decide
            order = _check_cards(cards, what="shoe")
            self._validate(order, n_decks)
        self._fill(order, n_decks, back, cut_card)

    def _fill(
        self, order: Sequence[Card], n_decks: int, back: BackColour | None, cut_card: int | None
    ) -> None:
        """Check the back and the cut card, and load ``order`` (full decks, checked)."""
        if back is not None and not isinstance(back, BackColour):
            raise InvalidInput(f"shoe back {shown_value(back)} is not a BackColour")
        if cut_card is not None and (
            isinstance(cut_card, bool)
            or not isinstance(cut_card, int)
            or not 0 <= cut_card <= len(order)
        ):
            raise InvalidInput(
                f"cut card {shown_value(cut_card)} cards from the bottom is not within the "
                f"{len(order)}-card shoe"
            )
        self._decks = n_decks
        self._back = back
        self._cut_card = cut_card
        self._stack: list[Card] = list(reversed(order))  # top card last: pop() deals it
        self._dealt: list[Card] = []
        self._burned: list[Card] = []

    def _validate(self, cards: tuple[Card, ...], decks: int) -> None:
        _require_full(cards, decks, what="shoe")

    @classmethod
    def shuffled(
        cls,
        shuffler: Shuffler,
        *,
        decks: int = 1,
        cut_at: int | None = None,
        back: BackColour | None = None,
        cut_card: int | None = None,
    ) -> Shoe:
        """``decks`` full decks shuffled by ``shuffler`` and, with ``cut_at``, cut (§ 641a.5(d))."""
        order: Sequence[Card] = shuffler.shuffle(shoe_cards(decks))
        if cut_at is not None:
            order = cut(order, cut_at)
        if type(shuffler) in _OWN_SHUFFLERS and type(order) in (list, tuple):
            # croupier's own Fisher-Yates permuted the full decks it was given (and a cut moves
            # cards, never changes them): the shoe holds full decks without counting them again
            shoe = cls.__new__(cls)
            shoe._fill(order, decks, back, cut_card)
            return shoe
        return Shoe(order, decks=decks, back=back, cut_card=cut_card)

    # -- state ---------------------------------------------------------------------------

    @property
    def decks(self) -> int:
        return self._decks

    @property
    def back(self) -> BackColour | None:
        return self._back

    @property
    def expected_count(self) -> int:
        """The cards of the full deck(s): 52 per deck."""
        return DECK_SIZE * self._decks

    def stub_expected(self, expected: int | None = None) -> int:
        """The cards the stub must hold: the deck(s) (``expected``, default 52 per deck) less
        the cards dealt and burned.  The one stub-count rule: :meth:`verify_count` and the
        round's stub count (§ 641a.8(f) and its parallels) both compare with it."""
        want = self.expected_count if expected is None else expected
        return want - len(self._dealt) - len(self._burned)

    @property
    def dealt(self) -> tuple[Card, ...]:
        """The cards dealt so far, in order (burned cards are not among them)."""
        return tuple(self._dealt)

    @property
    def burned(self) -> tuple[Card, ...]:
        """The cards burned so far, in order."""
        return tuple(self._burned)

    @property
    def cut_card(self) -> int | None:
        return self._cut_card

    @property
    def cut_card_reached(self) -> bool:
        """Whether the cut card has come out: the stub is down to the cards under it."""
        return self._cut_card is not None and len(self._stack) <= self._cut_card

    def stub_count(self) -> int:
        """The cards left in the shoe (the stub)."""
        return len(self._stack)

    def __len__(self) -> int:
        return len(self._stack)

    def _state(self) -> str:
        return (
            f"{len(self._stack)} left in the shoe, {len(self._dealt)} dealt, "
            f"{len(self._burned)} burned"
        )

    # -- dealing -------------------------------------------------------------------------

    def _check_take(self, n: object, verb: str) -> int:
        if type(n) is not int and (isinstance(n, bool) or not isinstance(n, int)):
            raise InvalidInput(f"cannot {verb} {shown_value(n)} cards: not a whole number")
        if n < 0:
            raise InvalidInput(f"cannot {verb} {n} cards: negative")
        if n > len(self._stack):
            raise IllegalAction(f"cannot {verb} {n} card(s): {self._state()}")
        return n

    def deal(self) -> Card:
        """The top card, dealt."""
        if not self._stack:
            self._check_take(1, "deal")  # refused: the shoe is empty
        card = self._stack.pop()
        self._dealt.append(card)
        return card

    def deal_many(self, n: int) -> tuple[Card, ...]:
        """The top ``n`` cards, dealt one at a time in order; refused whole if too few are left."""
        count = self._check_take(n, "deal")
        cards = self._take(count)
        self._dealt.extend(cards)
        return cards

    def _take(self, count: int) -> tuple[Card, ...]:
        """The top ``count`` cards off the stack (checked by :meth:`_check_take`), top first."""
        if count == 0:
            return ()
        stack = self._stack
        cards = tuple(reversed(stack[-count:]))  # the top card is last: pop() order
        del stack[-count:]
        return cards

    def burn(self, n: int = 1) -> tuple[Card, ...]:
        """Burn ``n`` cards: the top cards go face down to the discard rack, seen by no one.

        Returns them (for the record, not for display); refused whole if too few are left.
        """
        count = self._check_take(n, "burn")
        cards = self._take(count)
        self._burned.extend(cards)
        return cards

    def recut(self, position: int) -> None:
        """Cut the stack in the shoe again, the cover card ``position`` cards in (a recut,
        § 641a.5(e)): refused once any card has been dealt or burned."""
        if self._dealt or self._burned:
            raise IllegalAction(
                f"a recut is made before any card is dealt: {self._state()}",
                section="§ 641a.5(e)",
            )
        order = cut(tuple(reversed(self._stack)), position)
        self._stack = list(reversed(order))

    # -- the count -----------------------------------------------------------------------

    def verify_count(
        self,
        expected: int | None = None,
        *,
        counted_stub: int | None = None,
        section: str = STUB_COUNT_SECTION,
    ) -> int:
        """Count the deck: the stub, the cards dealt and the cards burned; return the total.

        ``expected`` defaults to 52 per deck.  ``counted_stub`` is the dealer's count of the stub
        face down on the layout (default: the shoe's own).  A wrong total is an irregularity:
        the hands are void and the wagers returned (§ 641a.8(h)); ``section`` names the count rule
        (:data:`STUB_COUNT_SECTION` by default, :data:`SHUFFLER_COUNT_SECTION` for a device count,
        or another chapter's own).
        """
        want = self.expected_count if expected is None else expected
        if isinstance(want, bool) or not isinstance(want, int) or want < 0:
            raise InvalidInput(
                f"expected count {shown_value(expected)} is not a whole number of cards"
            )
        stub = len(self._stack) if counted_stub is None else counted_stub
        if isinstance(stub, bool) or not isinstance(stub, int) or stub < 0:
            raise InvalidInput(
                f"counted stub {shown_value(counted_stub)} is not a whole number of cards"
            )
        total = stub + len(self._dealt) + len(self._burned)
        if stub != self.stub_expected(want):
            diff = total - want
            how = f"{-diff} missing" if diff < 0 else f"{diff} extra"
            raise Irregularity(
                f"card count {total} (stub {stub}, {len(self._dealt)} dealt, "
                f"{len(self._burned)} burned) is not {want}: {how}; the hands are void, the "
                "wagers returned and, unless misdealt, the cards removed from the table",
                section=section,
            )
        return total

    def __repr__(self) -> str:
        back = f", back={self._back.value}" if self._back else ""
        return f"{type(self).__name__}(decks={self._decks}{back}: {self._state()})"


class StackedShoe(Shoe):
    """A shoe that deals the given order, for scenarios and tests.

    ``cards`` is a string (``"As Kd 7c"``) or a sequence of cards or card strings, top first.  It
    need not be full decks (a scenario gives only the cards it needs; :meth:`Shoe.verify_count`
    then reports the shortfall), but no card may appear more than ``decks`` times.
    """

    __slots__ = ()

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        *,
        decks: int = 1,
        back: BackColour | None = None,
        cut_card: int | None = None,
    ) -> None:
        if isinstance(cards, str):
            order = parse_cards(cards, distinct=False)
        elif isinstance(cards, Iterable):
            items = list(cards)
            order = tuple(
                parse_cards([c], distinct=False)[0] if isinstance(c, str) else c for c in items
            )
        else:
            raise InvalidInput(
                f"stacked cards {shown_value(cards)} are not a string or a sequence of cards"
            )
        super().__init__(order, decks=decks, back=back, cut_card=cut_card)

    def _validate(self, cards: tuple[Card, ...], decks: int) -> None:
        _, extra = _composition_problems(cards, decks)
        if extra:
            raise InvalidInput(
                f"stacked shoe {format_cards(cards)!r} holds more copies than {decks} deck(s) "
                f"allow: {', '.join(extra)} too many"
            )

"""Three Card Poker pay data as cited literal tables, and the tables a Rules Submission may define
(used by :mod:`.three_card_poker`; what each source holds is in that module's docstring).

Every table is ``verified=False``: no Chapter 649a text was available.  The letters A-E of the
Pair Plus and the Ante Bonus "Paytable A" are a third-party design document's quoting Chapter
649a; the Six Card Bonus and the progressive are the widely published tables (casino guides).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from croupier.games.paytables import (
    CustomShape,
    EnvySchedule,
    PayLine,
    PayTable,
    for_,
    to,
)

__all__ = [
    "ANTE_BONUS",
    "CUSTOM_HANDS",
    "CUSTOM_SHAPES",
    "ENVY",
    "PAIR_PLUS",
    "PROGRESSIVE",
    "SIX_CARD_BONUS",
]

_PAYOUTS = "§ 649a.12"
_AB = "§ 649a.12(b)"
_PP = "§ 649a.12(d)"

_SECONDARY = (
    "letter from a third-party document quoting 58 Pa. Code 649a; not verified against the PA text"
)
_GUIDES = "widely published (casino guides); not verified against the PA text"

# § 649a.12(d) per the secondary source: Pair Plus tables A-E, all "to 1", on the player's own
# three cards whatever the dealer holds (§ 649a.11(c)(4)).
PAIR_PLUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="pair_plus",
            letter="A",
            section=_PP,
            lines=(
                PayLine(hand="straight_flush", odds=to(35)),
                PayLine(hand="three_of_a_kind", odds=to(25)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
        "B": PayTable(
            wager="pair_plus",
            letter="B",
            section=_PP,
            lines=(
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
        "C": PayTable(
            wager="pair_plus",
            letter="C",
            section=_PP,
            lines=(
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(3)),
                PayLine(hand="pair", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
        "D": PayTable(
            wager="pair_plus",
            letter="D",
            section=_PP,
            lines=(
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
        "E": PayTable(
            wager="pair_plus",
            letter="E",
            section=_PP,
            lines=(
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(25)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
    }
)

# § 649a.12(b) per the secondary source ("Paytable A"): the Ante Bonus, paid on the Ante of any
# played hand whatever the dealer holds.
ANTE_BONUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="ante_bonus",
            letter="A",
            section=_AB,
            lines=(
                PayLine(hand="straight_flush", odds=to(5)),
                PayLine(hand="three_of_a_kind", odds=to(4)),
                PayLine(hand="straight", odds=to(1)),
            ),
            verified=False,
            note=_SECONDARY,
        ),
    }
)

# Six Card Bonus (best five of the player's three and the dealer's three cards, poker5): the two
# widely published tables (flush 20 or 15 to 1), named by their pays.
SIX_CARD_BONUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "1000-200-50-25-20-10-5": PayTable(
            wager="six_card_bonus",
            letter="1000-200-50-25-20-10-5",
            section=_PAYOUTS,
            lines=(
                PayLine(hand="royal_flush", odds=to(1000)),
                PayLine(hand="straight_flush", odds=to(200)),
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="full_house", odds=to(25)),
                PayLine(hand="flush", odds=to(20)),
                PayLine(hand="straight", odds=to(10)),
                PayLine(hand="three_of_a_kind", odds=to(5)),
            ),
            verified=False,
            note=_GUIDES,
        ),
        "1000-200-50-25-15-10-5": PayTable(
            wager="six_card_bonus",
            letter="1000-200-50-25-15-10-5",
            section=_PAYOUTS,
            lines=(
                PayLine(hand="royal_flush", odds=to(1000)),
                PayLine(hand="straight_flush", odds=to(200)),
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="full_house", odds=to(25)),
                PayLine(hand="flush", odds=to(15)),
                PayLine(hand="straight", odds=to(10)),
                PayLine(hand="three_of_a_kind", odds=to(5)),
            ),
            verified=False,
            note=_GUIDES,
        ),
    }
)

# The widely published $1 progressive ("for 1": the collected wager is included); three of a
# kind pays 50 (3cardpoker.com) or 90 (MotorCity Casino) for 1; the mini royal in spades pays the
# whole meter.
PROGRESSIVE: Mapping[str, PayTable] = MappingProxyType(
    {
        "jackpot-500-100-50": PayTable(
            wager="progressive",
            letter="jackpot-500-100-50",
            section=_PAYOUTS,
            lines=(
                PayLine(hand="mini_royal_spades", meter_share=Fraction(1)),
                PayLine(hand="mini_royal", odds=for_(500)),
                PayLine(hand="straight_flush", odds=for_(100)),
                PayLine(hand="three_of_a_kind", odds=for_(50)),
            ),
            verified=False,
            note=_GUIDES,
        ),
        "jackpot-500-100-90": PayTable(
            wager="progressive",
            letter="jackpot-500-100-90",
            section=_PAYOUTS,
            lines=(
                PayLine(hand="mini_royal_spades", meter_share=Fraction(1)),
                PayLine(hand="mini_royal", odds=for_(500)),
                PayLine(hand="straight_flush", odds=for_(100)),
                PayLine(hand="three_of_a_kind", odds=for_(90)),
            ),
            verified=False,
            note=_GUIDES,
        ),
    }
)

# Envy Bonus for another player's mini royal (3cardpoker.com), on a $1 progressive wager.
ENVY: Mapping[str, EnvySchedule] = MappingProxyType(
    {
        "100-25": EnvySchedule(
            letter="100-25",
            section=_PAYOUTS,
            by_wager=MappingProxyType(
                {
                    100: (
                        PayLine(hand="mini_royal_spades", amount=10_000),
                        PayLine(hand="mini_royal", amount=2_500),
                    )
                }
            ),
        )
    }
)

# What a Rules Submission's own table may look like, per wager: the hands it may pay (highest
# first), where it may end, and a line for every hand above its last (checked as in every game,
# :func:`croupier.games.paytables.custom_table`).  The lowest lines are those of the tables this
# module carries (the texts give none): Pair Plus down to a pair, the Ante Bonus to a straight,
# the Six Card Bonus to three of a kind (as Let It Ride's, § 643a.7(j)).  A mini royal is a
# straight flush here, so its own line is optional.
_THREE_CARD_HANDS = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
_FIVE_CARD_HANDS = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
)
CUSTOM_SHAPES: Mapping[str, CustomShape] = MappingProxyType(
    {
        "pair_plus": CustomShape(
            hands=_THREE_CARD_HANDS,
            lowest=("pair",),
            section=_PP,
            refinements=frozenset({"mini_royal"}),
        ),
        "ante_bonus": CustomShape(
            hands=_THREE_CARD_HANDS,
            lowest=("straight",),
            section=_AB,
            refinements=frozenset({"mini_royal"}),
        ),
        "six_card_bonus": CustomShape(
            hands=_FIVE_CARD_HANDS, lowest=("three_of_a_kind",), section=_PAYOUTS
        ),
    }
)


CUSTOM_HANDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {w: shape.hands for w, shape in CUSTOM_SHAPES.items()}
)
"""The hands each wager's own table may pay (derived from :data:`CUSTOM_SHAPES`)."""

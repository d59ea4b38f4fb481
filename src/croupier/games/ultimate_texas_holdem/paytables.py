"""Ultimate Texas Hold 'Em pay tables as cited data (used by :mod:`.ultimate_texas_holdem`).

Sources:

* Blind and Trips tables: § 653a.12(b) and (c) (PA text, digest in
  ``shared/regs/ultimate-texas-holdem.md``); the temporary § 569.12(a)-(e) text with the same
  tables was not in the available seed.
* Progressive table and Envy Bonus: § 569.12(f) (seed 002, 41 Pa.B. 2962).
* Bad Beat table C: § 653b.3(b); kept as data only, since what triggers a "bad beat"
  (§ 653a.7(d)(6), § 653a.12(g)-(h)) is not in the available texts, so the wager is not offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from croupier.games.paytables import EnvySchedule, PayLine, PayTable, for_, to

__all__ = [
    "BAD_BEAT_C",
    "BLIND",
    "BLIND_HANDS",
    "ENVY",
    "MIN_RESET",
    "PROGRESSIVE",
    "PROGRESSIVE_WAGERS",
    "TRIPS",
]

_BL = "§ 653a.12(b)"
_TR = "§ 653a.12(c)"
_PR = "§ 569.12(f)"
_EN = "§ 569.12(f)(2)"

# § 653a.12(b): table A pays from a straight; table B pushes a straight ("less than a flush").
# A winning hand below the table's last line pushes the Blind (§ 569.11(h)(2)).
BLIND: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="blind",
            letter="A",
            section=_BL,
            lines=(
                PayLine(hand="royal_flush", odds=to(500)),
                PayLine(hand="straight_flush", odds=to(50)),
                PayLine(hand="four_of_a_kind", odds=to(10)),
                PayLine(hand="full_house", odds=to(3)),
                PayLine(hand="flush", odds=to(3, 2)),
                PayLine(hand="straight", odds=to(1)),
            ),
            note="less than a straight: push",
        ),
        "B": PayTable(
            wager="blind",
            letter="B",
            section=_BL,
            lines=(
                PayLine(hand="royal_flush", odds=to(500)),
                PayLine(hand="straight_flush", odds=to(50)),
                PayLine(hand="four_of_a_kind", odds=to(10)),
                PayLine(hand="full_house", odds=to(3)),
                PayLine(hand="flush", odds=to(3, 2)),
            ),
            note="less than a flush: push",
        ),
    }
)

BLIND_HANDS: tuple[str, ...] = tuple(dict.fromkeys(h for t in BLIND.values() for h in t.hands()))
"""The hands some Blind table of § 653a.12(b) pays, highest first (table A's lines)."""

# § 653a.12(c): Trips tables A-D; they differ in the quads, full house, flush and straight.
TRIPS: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="trips",
            letter="A",
            section=_TR,
            lines=(
                PayLine(hand="royal_flush", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="four_of_a_kind", odds=to(30)),
                PayLine(hand="full_house", odds=to(9)),
                PayLine(hand="flush", odds=to(7)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="three_of_a_kind", odds=to(3)),
            ),
        ),
        "B": PayTable(
            wager="trips",
            letter="B",
            section=_TR,
            lines=(
                PayLine(hand="royal_flush", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="four_of_a_kind", odds=to(30)),
                PayLine(hand="full_house", odds=to(8)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="three_of_a_kind", odds=to(3)),
            ),
        ),
        "C": PayTable(
            wager="trips",
            letter="C",
            section=_TR,
            lines=(
                PayLine(hand="royal_flush", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="four_of_a_kind", odds=to(30)),
                PayLine(hand="full_house", odds=to(8)),
                PayLine(hand="flush", odds=to(7)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="three_of_a_kind", odds=to(3)),
            ),
        ),
        "D": PayTable(
            wager="trips",
            letter="D",
            section=_TR,
            lines=(
                PayLine(hand="royal_flush", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="four_of_a_kind", odds=to(20)),
                PayLine(hand="full_house", odds=to(7)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="three_of_a_kind", odds=to(3)),
            ),
        ),
    }
)

# § 569.12(f): one table; royal and straight flush take a share of the meter, the rest are
# "for 1" (the collected wager is included); (f)(1) only the highest hand is paid.
PROGRESSIVE: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="progressive",
            letter="A",
            section=_PR,
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1, 10)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
        )
    }
)

# § 569.12(f)(2): Envy Bonus by the receiving player's own progressive wager ($1 or $5).
ENVY: Mapping[str, EnvySchedule] = MappingProxyType(
    {
        "A": EnvySchedule(
            letter="A",
            section=_EN,
            by_wager=MappingProxyType(
                {
                    100: (
                        PayLine(hand="royal_flush", amount=100_000),
                        PayLine(hand="straight_flush", amount=30_000),
                    ),
                    500: (
                        PayLine(hand="royal_flush", amount=500_000),
                        PayLine(hand="straight_flush", amount=150_000),
                    ),
                }
            ),
        )
    }
)

PROGRESSIVE_WAGERS = (frozenset({100, 500}), "§ 569.7(f)")
"""§ 569.7(f): the Progressive Payout Wager is $1 or $5, as the Rules Submission says."""

MIN_RESET: Mapping[str, tuple[int, str]] = MappingProxyType({"A": (1_000_000, "§ 569.12(f)(3)")})
"""§ 569.12(f)(3): the initial and reset amount is at least $10,000."""

# § 653b.3(b): Bad Beat table C (temporary).  Not offered: its trigger is not in the texts.
BAD_BEAT_C = PayTable(
    wager="bad_beat",
    letter="C",
    section="§ 653b.3(b)",
    lines=(
        PayLine(hand="straight_flush", odds=to(2500)),
        PayLine(hand="four_of_a_kind", odds=to(500)),
        PayLine(hand="full_house", odds=to(50)),
        PayLine(hand="flush", odds=to(30)),
        PayLine(hand="straight", odds=to(20)),
        PayLine(hand="three_of_a_kind", odds=to(9)),
    ),
    note="not offered: the Bad Beat trigger (§ 653a.12(g)-(h)) is not in the available texts",
)

"""Let It Ride pay tables as cited data, hand keys, and the tables a Rules Submission may define
(used by :mod:`.let_it_ride`).

What the sources hold (seed 000: the 2011 proposed § 643a.1-643a.7; seed 003: the current
§ 643a.7; seed 002: the temporary § 559.14(e); ``shared/regs/let-it-ride.md``):

* Three Card Bonus tables A-F: § 559.14(e) (seed 002), **verified** against the PA text; the
  ranking (mini royal above the straight flush) is § 643a.6(c).
* Every other table is **not verified**: the § 643a.12 text was not in the sources.

  - Base table 1000-200-50-11-8-5-3-2-1 (pair of tens or better 1 to 1): the table published by
    Hollywood Casino St. Louis, Great Blue Heron and Seneca Niagara (the regs digest).
  - Five Card (Let It Ride) Bonus: 20000-2000-400-200-50-25-5 (three of a kind or better, a
    casino guide, table-games-online.com) and 5000-2000-100-75-50-25-8-4 (two pair or better,
    the Isle of Capri table on wizardofodds.com).  No published "pair of tens or better" table
    was found: a Rules Submission defines one under ``[custom_paytables.five_card_bonus]``.
  - Six Card Bonus 1000-200-50-25-20-10-5: the Six Card Bonus table published for Three Card
    Poker (casino guides), which also pays three of a kind or better on the best five of six.
  - Five-Card Progressive and its Envy Bonus: the PA five-card progressive of § 569.12(f)
    (Ultimate Texas Hold 'Em) and § 571.12(c) (Mississippi Stud), seed 002: the same
    three-of-a-kind-or-better hand (§ 643a.1) and the same straight-flush-or-better Envy hand.
  - Three-Card Progressive and Five Card Hand Bonus: no table found (the sources searched for
    issue 35 hold none either; the Five Card Hand Bonus's Lucky and Magic Card Bonuses of
    § 643a.1 are not built); a Rules Submission must define its own
    (``[custom_paytables.three_card_progressive]``, ``[custom_paytables.five_card_hand_bonus]``)
    and the game's example Rules Submission offers neither.

Rules Submission keys (see ``tests/rules/let-it-ride.toml``)::

    payout_limit = 2500000                      # cents per hand (§ 643a.12(d))
    [paytables]                                 # wager -> table name
    base = "1000-200-50-11-8-5-3-2-1"           # the three bets (the default)
    three_card_bonus = "A"                      # A-F, § 559.14(e)
    five_card_bonus = "20000-2000-400-200-50-25-5"   # or "5000-2000-100-75-50-25-8-4"
    six_card_bonus = "1000-200-50-25-20-10-5"
    [progressive]                               # the Five-Card Progressive (§ 643a.7(h))
    paytable = "royal-meter-sf-10pct-300-50-40-30-9"   # or "custom"
    envy = "1000-300"                           # $1 or $5 wagers; or "custom"
    wager = 100
    reset = 1000000
    rate = "0.20"
    meter = "let-it-ride-five-card"
    [custom_paytables.five_card_hand_bonus]     # yours: hand = "N to 1" / "N for 1"
    royal_flush = "500 to 1"                    # ... down to flush (§ 643a.7(i); a test table)
    [custom_paytables.three_card_progressive]   # the Three-Card Progressive (§ 643a.7(g))
    meter = "let-it-ride-three-card"            # its own meter, wager, reset and rate
    wager = 100
    reset = 100000
    rate = "0.15"
    lines = { mini_royal = "100% of meter", straight_flush = "200 for 1", ... }
    envy = { mini_royal = 5000 }                # cents, for the wager above

A custom table may replace any of these (``[custom_paytables.base]``, ``.three_card_bonus``,
``.five_card_bonus``, ``.six_card_bonus``, ``.five_card_progressive`` with ``lines``/``envy``);
each is checked line by line: hands of that wager, odds that win, every hand from the top down
to the wager's qualifying hand, and for the Three Card Bonus at least one of tables A-F.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from croupier.core.errors import InvalidInput
from croupier.core.money import format_cents, parse_rate
from croupier.games.paytables import (
    CUSTOM,
    CustomShape,
    EnvySchedule,
    PayLine,
    PayTable,
    custom_entries,
    custom_table,
    for_,
    to,
)
from croupier.hands import Category, HandRank
from croupier.rules.progressive import MeterSpec
from croupier.rules.submission import Problem, RulesSubmission

__all__ = [
    "BASE",
    "BASE_DEFAULT",
    "BASE_WAGERS",
    "CUSTOM",
    "CUSTOM_SHAPES",
    "FIVE_CARD_BONUS",
    "FIVE_CARD_ENVY",
    "FIVE_CARD_HANDS",
    "FIVE_CARD_PROGRESSIVE",
    "PROGRESSIVE_WAGERS",
    "SECTIONS",
    "SIX_CARD_BONUS",
    "THREE_CARD_BONUS",
    "THREE_CARD_HANDS",
    "BetDecision",
    "CustomTables",
    "PayoutCap",
    "ThreeCardProgressive",
    "base_net",
    "bet_line",
    "bet_net",
    "bets_in_action",
    "check_five_card_progressive",
    "check_progressive_meters",
    "five_card_keys",
    "parse_custom_tables",
    "three_card_keys",
]

BASE_WAGERS = ("bet1", "bet2", "bet3")
PROGRESSIVE_WAGERS = ("three_card_progressive", "five_card_progressive")

# The sections of each wager (§ 643a.7 as now in force, seed 003) and of its table.
SECTIONS = {
    "base": "§ 643a.12",
    "bet1": "§ 643a.7(d)",
    "bet2": "§ 643a.7(d)",
    "bet3": "§ 643a.7(d)",
    "five_card_bonus": "§ 643a.7(e)",
    "three_card_bonus": "§ 643a.7(f)",
    "three_card_progressive": "§ 643a.7(g)",
    "five_card_progressive": "§ 643a.7(h)",
    "five_card_hand_bonus": "§ 643a.7(i)",
    "six_card_bonus": "§ 643a.7(j)",
}

FIVE_CARD_HANDS = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair_of_tens_or_better",
)
THREE_CARD_HANDS = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")


def five_card_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names a five-card (or best-of-six) hand satisfies: its category, plus
    ``pair_of_tens_or_better`` for a pair of tens, jacks, queens, kings or aces."""
    keys = {rank.category._value_}  # .value, without the enum property call
    if rank.category is Category.PAIR and rank.top_rank >= 10:
        keys.add("pair_of_tens_or_better")
    return frozenset(keys)


def three_card_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names of the player's three cards (§ 643a.6(c), mini royal on top)."""
    return frozenset({rank.category._value_})  # .value, without the enum property call


BASE_DEFAULT = "1000-200-50-11-8-5-3-2-1"
BASE: Mapping[str, PayTable] = MappingProxyType(
    {
        "1000-200-50-11-8-5-3-2-1": PayTable(
            wager="base",
            letter="1000-200-50-11-8-5-3-2-1",
            section=SECTIONS["base"],
            lines=(
                PayLine(hand="royal_flush", odds=to(1000)),
                PayLine(hand="straight_flush", odds=to(200)),
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="full_house", odds=to(11)),
                PayLine(hand="flush", odds=to(8)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="three_of_a_kind", odds=to(3)),
                PayLine(hand="two_pair", odds=to(2)),
                PayLine(hand="pair_of_tens_or_better", odds=to(1)),
            ),
            verified=False,
            note="widely published table (casino guides); § 643a.12 not in the sources",
        ),
    }
)
"""Every Let It Ride Wager still in action is paid by this table (§ 643a.12, not verified)."""

# § 559.14(e) (seed 002): the minimum odds of the Three Card Bonus, tables A-F.
THREE_CARD_BONUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="three_card_bonus",
            letter="A",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(40)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
        "B": PayTable(
            wager="three_card_bonus",
            letter="B",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(40)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
        "C": PayTable(
            wager="three_card_bonus",
            letter="C",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(40)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(3)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
        "D": PayTable(
            wager="three_card_bonus",
            letter="D",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
        "E": PayTable(
            wager="three_card_bonus",
            letter="E",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="flush", odds=to(4)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
        "F": PayTable(
            wager="three_card_bonus",
            letter="F",
            section="§ 559.14(e)",
            lines=(
                PayLine(hand="mini_royal", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(30)),
                PayLine(hand="straight", odds=to(6)),
                PayLine(hand="flush", odds=to(3)),
                PayLine(hand="pair", odds=to(1)),
            ),
        ),
    }
)

FIVE_CARD_BONUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "20000-2000-400-200-50-25-5": PayTable(
            wager="five_card_bonus",
            letter="20000-2000-400-200-50-25-5",
            section=SECTIONS["five_card_bonus"],
            lines=(
                PayLine(hand="royal_flush", odds=to(20000)),
                PayLine(hand="straight_flush", odds=to(2000)),
                PayLine(hand="four_of_a_kind", odds=to(400)),
                PayLine(hand="full_house", odds=to(200)),
                PayLine(hand="flush", odds=to(50)),
                PayLine(hand="straight", odds=to(25)),
                PayLine(hand="three_of_a_kind", odds=to(5)),
            ),
            verified=False,
            note="three of a kind or better; published table (casino guide), not the PA text",
        ),
        "5000-2000-100-75-50-25-8-4": PayTable(
            wager="five_card_bonus",
            letter="5000-2000-100-75-50-25-8-4",
            section=SECTIONS["five_card_bonus"],
            lines=(
                PayLine(hand="royal_flush", odds=to(5000)),
                PayLine(hand="straight_flush", odds=to(2000)),
                PayLine(hand="four_of_a_kind", odds=to(100)),
                PayLine(hand="full_house", odds=to(75)),
                PayLine(hand="flush", odds=to(50)),
                PayLine(hand="straight", odds=to(25)),
                PayLine(hand="three_of_a_kind", odds=to(8)),
                PayLine(hand="two_pair", odds=to(4)),
            ),
            verified=False,
            note="two pair or better; published table (wizardofodds.com), not the PA text",
        ),
    }
)
"""Five Card (Let It Ride) Bonus tables by name (§ 643a.7(e): the level is the table's)."""

# Best five of the player's three and the three Six Card Bonus cards (§ 643a.7(j)).
SIX_CARD_BONUS: Mapping[str, PayTable] = MappingProxyType(
    {
        "1000-200-50-25-20-10-5": PayTable(
            wager="six_card_bonus",
            letter="1000-200-50-25-20-10-5",
            section=SECTIONS["six_card_bonus"],
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
            note="best five of six, three of a kind or better; published Six Card Bonus table",
        ),
    }
)

_PROG = "royal-meter-sf-10pct-300-50-40-30-9"
FIVE_CARD_PROGRESSIVE: Mapping[str, PayTable] = MappingProxyType(
    {
        _PROG: PayTable(
            wager="five_card_progressive",
            letter=_PROG,
            section="§ 569.12(f), § 571.12(c)",
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1, 10)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
            verified=False,
            note="the PA five-card progressive of Ultimate Texas Hold 'Em and Mississippi Stud",
        )
    }
)

FIVE_CARD_ENVY: Mapping[str, EnvySchedule] = MappingProxyType(
    {
        "1000-300": EnvySchedule(
            letter="1000-300",
            section="§ 569.12(f)(2), § 571.12(e)",
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
"""Five-Card Envy Bonus for another player's straight flush or better (§ 643a.1), by the
receiving player's own wager; the PA schedule of the same five-card progressive."""


# --- the base settlement: pure functions over hand keys and decisions ------------------------
#
# A hand's key is its set of pay-table names (:func:`five_card_keys` of the player's three cards
# and the two community cards, § 643a.1 "Hand").  The round settles with these functions and the
# analysis tabulates them (:mod:`croupier.analysis.let_it_ride`).


class BetDecision(StrEnum):
    """A player's decision on Bet Number 1 or 2 at its turn (§ 643a.11(b), (d))."""

    RIDE = "ride"
    """Let it ride: the bet stays in action (§ 643a.1)."""
    PULL = "pull"
    """Take it back: the bet is returned and leaves the hand."""


def bet_line(table: PayTable, keys: Iterable[str]) -> PayLine | None:
    """The line of ``table`` that pays each bet still in action on the hand with pay-table names
    ``keys`` (§ 643a.12); ``None``: every bet in action loses."""
    return table.line_for(keys)


def bet_net(table: PayTable, keys: Iterable[str]) -> Fraction:
    """The net of one bet in action, per unit bet: the line's odds, or the bet lost."""
    line = bet_line(table, keys)
    return Fraction(-1) if line is None or line.odds is None else line.odds.net


def bets_in_action(bet1: BetDecision, bet2: BetDecision) -> int:
    """The bets paid at the end: Bet Number 3 always (§ 643a.7(d)), Bet Number 1 and 2 unless
    taken back at their turn (§ 643a.11(b), (d))."""
    return 1 + sum(bet is BetDecision.RIDE for bet in (bet1, bet2))


def base_net(
    table: PayTable, keys: Iterable[str], bet1: BetDecision, bet2: BetDecision
) -> Fraction:
    """The net of the three bets, per unit of one bet, of the hand with pay-table names
    ``keys`` after the two decisions (a bet taken back nets nothing)."""
    return bets_in_action(bet1, bet2) * bet_net(table, keys)


class PayoutCap:
    """What is left of the payout limit for one hand (§ 643a.12(d)); ``None``: no limit."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.left = limit

    def take(self, due: int) -> int:
        if self.left is None:
            return due
        paid = min(due, self.left)
        self.left -= paid
        return paid


# --- tables a Rules Submission defines -------------------------------------------------------


CUSTOM_SHAPES = {
    "base": CustomShape(
        hands=FIVE_CARD_HANDS, lowest=("pair_of_tens_or_better",), section="§ 643a.12"
    ),
    "three_card_bonus": CustomShape(
        hands=THREE_CARD_HANDS, lowest=("pair",), section="§ 643a.6(c), § 643a.7(f)"
    ),
    "five_card_bonus": CustomShape(
        hands=FIVE_CARD_HANDS,
        lowest=("pair_of_tens_or_better", "two_pair", "three_of_a_kind"),
        section="§ 643a.7(e)",
    ),
    "five_card_hand_bonus": CustomShape(
        hands=FIVE_CARD_HANDS, lowest=("flush",), section="§ 643a.7(i)"
    ),
    "six_card_bonus": CustomShape(
        hands=FIVE_CARD_HANDS, lowest=("three_of_a_kind",), section="§ 643a.7(j)"
    ),
    "five_card_progressive": CustomShape(
        hands=FIVE_CARD_HANDS,
        lowest=("three_of_a_kind",),
        section="§ 643a.1",
        meter=True,
        envy=("royal_flush", "straight_flush"),
    ),
    "three_card_progressive": CustomShape(
        hands=THREE_CARD_HANDS,
        lowest=("three_of_a_kind", "straight"),
        section="§ 643a.1",
        meter=True,
        envy=("mini_royal",),
    ),
}

_METER_KEYS = ("meter", "wager", "reset", "rate")


@dataclass(frozen=True, kw_only=True, slots=True)
class ThreeCardProgressive:
    """The Three-Card Progressive of a Rules Submission: its table, Envy Bonus, wager and meter
    (``[custom_paytables.three_card_progressive]``)."""

    table: PayTable
    envy: EnvySchedule | None
    wager: int
    spec: MeterSpec


@dataclass(frozen=True, kw_only=True, slots=True)
class CustomTables:
    """Everything ``[custom_paytables]`` of a Rules Submission defines, once validated."""

    tables: Mapping[str, PayTable]
    envy: Mapping[str, EnvySchedule]
    three_card_progressive: ThreeCardProgressive | None


def _three_card_bonus_minimum(table: PayTable, problems: list[Problem]) -> None:
    # § 559.14(e): the odds paid are no less than those of one of tables A-F.
    def pays(t: PayTable, hand: str) -> Fraction:
        line = t.line_for({hand})
        return line.odds.net if line is not None and line.odds is not None else Fraction(0)

    if not any(
        all(pays(table, h) >= pays(ref, h) for h in THREE_CARD_HANDS)
        for ref in THREE_CARD_BONUS.values()
    ):
        problems.append(
            (
                "custom three_card_bonus table pays less than every one of tables A-F on some "
                "hand; it must pay at least one of them line by line",
                "§ 559.14(e)",
            )
        )


def _envy(
    wager: str, spec: object, shape: CustomShape, amount: int, problems: list[Problem]
) -> EnvySchedule | None:
    if not isinstance(spec, Mapping) or not spec:
        problems.append((f"custom {wager} envy must map hands to cents", None))
        return None
    count = len(problems)
    lines = []
    for hand in spec:
        if hand not in shape.envy:
            problems.append(
                (
                    f"custom {wager} Envy Bonus hand {hand!r} is not one of "
                    f"{', '.join(shape.envy)}",
                    shape.section,
                )
            )
    for hand in shape.envy:
        cents = spec.get(hand)
        if isinstance(cents, bool) or not isinstance(cents, int) or cents <= 0:
            problems.append(
                (
                    f"custom {wager} Envy Bonus for {hand} needs an amount in cents, got {cents!r}",
                    shape.section,
                )
            )
        else:
            lines.append(PayLine(hand=hand, amount=cents))
    if len(problems) > count:
        return None
    return EnvySchedule(letter=CUSTOM, section=shape.section, by_wager={amount: tuple(lines)})


def _positive(value: object, what: str, problems: list[Problem]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        problems.append((f"{what} {value!r} must be a positive whole number of cents", None))
        return None
    return value


def _meter(spec: Mapping[str, Any], problems: list[Problem]) -> tuple[int, MeterSpec] | None:
    what = "custom three_card_progressive"
    count = len(problems)
    wager = _positive(spec.get("wager"), f"{what} wager", problems)
    reset = _positive(spec.get("reset"), f"{what} reset", problems)
    meter = spec.get("meter")
    if not isinstance(meter, str) or not meter:
        problems.append((f"{what} meter {meter!r} must be a name", None))
    rate = None
    try:
        rate = parse_rate(spec.get("rate"), what=f"{what} rate")
    except InvalidInput as exc:
        problems.append((exc.message, None))
    if rate is None:
        pass
    elif not 0 < rate <= 1:
        problems.append((f"{what} rate of progression {rate} is outside (0, 1]", None))
    if len(problems) > count:
        return None
    assert wager is not None and reset is not None and rate is not None and isinstance(meter, str)
    return wager, MeterSpec(name=meter, reset=reset, rate=rate, wager=wager)


def _progressive(
    wager: str, spec: object, shape: CustomShape, amount: int | None, problems: list[Problem]
) -> tuple[PayTable | None, EnvySchedule | None]:
    if not isinstance(spec, Mapping):
        problems.append((f"custom {wager} must be a table with 'lines' (and 'envy')", None))
        return None, None
    allowed = {"lines", "envy", *(_METER_KEYS if wager == "three_card_progressive" else ())}
    for key in sorted(set(spec) - allowed):
        problems.append(
            (
                f"unknown key {key!r} in [custom_paytables.{wager}] ({', '.join(sorted(allowed))})",
                None,
            )
        )
    table = custom_table(wager, spec.get("lines"), shape, problems)
    envy = None
    if "envy" in spec and amount is not None:
        envy = _envy(wager, spec["envy"], shape, amount, problems)
    return table, envy


def parse_custom_tables(rules: RulesSubmission) -> tuple[CustomTables, list[Problem]]:
    """The ``[custom_paytables.<wager>]`` of ``rules`` and every problem with them.

    Plain wagers map hands to odds (``flush = "8 to 1"``); the two progressives hold ``lines``
    (odds or ``"100% of meter"``) and ``envy`` (hand = cents), and the Three-Card Progressive
    also its ``meter``, ``wager``, ``reset`` and ``rate`` (``[progressive]`` is the Five-Card
    one).
    """
    problems: list[Problem] = []
    tables: dict[str, PayTable] = {}
    envy: dict[str, EnvySchedule] = {}
    three: ThreeCardProgressive | None = None
    raw = rules.extra.get("custom_paytables")
    for wager, spec, shape in custom_entries(
        raw, rules.paytables, CUSTOM_SHAPES, "Let It Ride", problems
    ):
        if wager == "three_card_progressive":
            if isinstance(spec, Mapping) and "envy" not in spec:
                # § 643a.1: the Three-Card Envy Bonus comes with the Three-Card Progressive.
                problems.append(
                    (
                        "the Three-Card Progressive comes with the Three-Card Envy Bonus: give "
                        "[custom_paytables.three_card_progressive.envy] (mini_royal = cents)",
                        "§ 643a.1",
                    )
                )
            meter = _meter(spec, problems) if isinstance(spec, Mapping) else None
            table, schedule = _progressive(
                wager, spec, shape, meter[0] if meter else None, problems
            )
            if table is not None and meter is not None:
                three = ThreeCardProgressive(
                    table=table, envy=schedule, wager=meter[0], spec=meter[1]
                )
            continue
        if wager == "five_card_progressive":
            prog = rules.progressive
            table, schedule = _progressive(
                wager, spec, shape, prog.wager if prog else None, problems
            )
            if schedule is not None:
                envy[wager] = schedule
        else:
            table = custom_table(wager, spec, shape, problems)
            if table is not None and wager == "three_card_bonus":
                _three_card_bonus_minimum(table, problems)
        if table is not None:
            tables[wager] = table
    return CustomTables(tables=tables, envy=envy, three_card_progressive=three), problems


def check_five_card_progressive(rules: RulesSubmission) -> list[Problem]:
    """Every problem with ``[progressive]`` (the Five-Card Progressive, § 643a.7(h))."""
    prog = rules.progressive
    assert prog is not None
    problems: list[Problem] = []
    raw = rules.extra.get("custom_paytables")
    custom = raw.get("five_card_progressive") if isinstance(raw, Mapping) else None
    if prog.paytable == CUSTOM:
        if custom is None:
            problems.append(
                (
                    'progressive paytable = "custom" needs [custom_paytables.'
                    "five_card_progressive]",
                    None,
                )
            )
    elif custom is not None:
        problems.append(
            (
                f"progressive names pay table {prog.paytable!r} and also defines a custom "
                'five_card_progressive table; use one (paytable = "custom")',
                SECTIONS["five_card_progressive"],
            )
        )
    elif prog.paytable not in FIVE_CARD_PROGRESSIVE:
        names = ", ".join(sorted(FIVE_CARD_PROGRESSIVE))
        problems.append(
            (
                f"progressive pay table {prog.paytable!r} is not one of {names} (or custom)",
                SECTIONS["five_card_progressive"],
            )
        )
    has_custom_envy = isinstance(custom, Mapping) and "envy" in custom
    if prog.envy == CUSTOM and not has_custom_envy:
        problems.append(
            ('progressive envy = "custom" needs an envy table in the custom progressive', None)
        )
    elif prog.envy not in (None, CUSTOM):
        schedule = FIVE_CARD_ENVY.get(prog.envy)
        if schedule is None:
            names = ", ".join(sorted(FIVE_CARD_ENVY))
            problems.append(
                (
                    f"Envy Bonus schedule {prog.envy!r} is not one of {names} (or custom)",
                    "§ 643a.1",
                )
            )
        elif prog.wager not in schedule.by_wager:
            amounts = " or ".join(format_cents(a) for a in sorted(schedule.by_wager))
            problems.append(
                (
                    f"Envy Bonus schedule {prog.envy} pays on {amounts} progressive wagers, "
                    f"not {format_cents(prog.wager)}",
                    schedule.section,
                )
            )
    elif prog.envy is None and has_custom_envy:
        problems.append(('a custom Envy Bonus needs progressive envy = "custom"', None))
    elif prog.envy is None:
        # § 643a.1: the Five-Card Envy Bonus is paid to whoever made the Five-Card Progressive
        # wager; it is part of the wager, so the submission must say what it pays.
        names = ", ".join(repr(n) for n in sorted(FIVE_CARD_ENVY))
        problems.append(
            (
                "the Five-Card Progressive comes with the Five-Card Envy Bonus: select its "
                f'schedule (progressive envy = {names} or "custom")',
                "§ 643a.1",
            )
        )
    if not 0 < prog.rate <= 1:
        problems.append((f"rate of progression {prog.rate} is outside (0, 1]", None))
    return problems


def check_progressive_meters(rules: RulesSubmission, custom: CustomTables) -> list[Problem]:
    """A custom Five-Card table needs ``[progressive]``; the two progressives need two meters."""
    problems: list[Problem] = []
    raw = rules.extra.get("custom_paytables")
    defined = set(raw) if isinstance(raw, Mapping) else set()
    if "five_card_progressive" in defined and rules.progressive is None:
        problems.append(
            (
                "a custom five_card_progressive table needs [progressive] (its wager, "
                "reset, rate and meter)",
                SECTIONS["five_card_progressive"],
            )
        )
    three = custom.three_card_progressive
    prog = rules.progressive
    if three is not None and prog is not None and three.spec.name == prog.meter:
        problems.append(
            (
                f"the Three-Card and Five-Card Progressives both name meter {prog.meter!r}; "
                "each has its own meter",
                "§ 643a.7(g), (h)",
            )
        )
    return problems

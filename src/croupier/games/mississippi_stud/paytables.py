"""Mississippi Stud's math facts: the pay tables as cited data and the base settlement as pure
functions of a five-card hand's keys.  The game is :mod:`croupier.games.mississippi_stud`, which
exports all of these; the exact solver and the Monte Carlo kernel tabulate their arrays from
:func:`base_pay` (:mod:`croupier.analysis.mississippi_stud`).

Sources: § 655a.12(a) (the base pay table; § 571.12(a) is elided in the seed), § 571.11(h) (the
push and the losing hands), § 571.12(c) and § 655a.12(c)(1) (progressive tables A-D),
§ 571.12(e) (the Envy Bonus).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from croupier.core.frozen import frozen_dict
from croupier.core.money import Odds
from croupier.games.paytables import EnvySchedule, PayLine, PayTable, for_, to
from croupier.games.records import Result
from croupier.hands import Category, HandRank
from croupier.rules.submission import RulesSubmission

__all__ = [
    "BASE_PAYS",
    "ENVY",
    "JACKPOTS",
    "LOSE",
    "PAYOUT_LIMIT",
    "PAY_TABLE",
    "PROGRESSIVE",
    "PUSH_HAND",
    "BasePay",
    "base_pay",
    "base_pays",
    "hand_keys",
    "least_payout_limit",
    "max_win_at_minimum",
]

PUSH_HAND = "pair_of_sixes_to_tens"
"""§ 571.11(h)(2): the hand on which the Ante and street wagers push."""
LOSE = "lose"
"""The base line of every other hand below the pay table (§ 571.11(h)(1))."""

# § 655a.12(a) (§ 571.12(a) is elided in the seed): each winning Ante, 3rd, 4th and 5th Street
# wager is paid at these odds; § 571.11(h)(2): a pair of sixes through tens pushes; else all lose.
PAY_TABLE = PayTable(
    wager="ante",
    letter="-",
    section="§ 655a.12(a)",
    lines=(
        PayLine(hand="royal_flush", odds=to(500)),
        PayLine(hand="straight_flush", odds=to(100)),
        PayLine(hand="four_of_a_kind", odds=to(40)),
        PayLine(hand="full_house", odds=to(10)),
        PayLine(hand="flush", odds=to(6)),
        PayLine(hand="straight", odds=to(4)),
        PayLine(hand="three_of_a_kind", odds=to(3)),
        PayLine(hand="two_pair", odds=to(2)),
        PayLine(hand="pair_of_jacks_or_better", odds=to(1)),
    ),
)

_PR = "§ 655a.12(c)(1)"
PAYOUT_LIMIT = 5_000_000
"""§ 655a.12(b): $50,000, the floor of the aggregate payout limit per hand."""

# § 571.12(c) (table A, as amended) and § 655a.12(c)(1) (tables A-D): "for 1" odds; a meter
# line pays a share of its jackpot (:data:`JACKPOTS`): table A 100% and 10% of its one meter,
# tables B-D 100% of the mega, major (and minor) jackpots.
PROGRESSIVE: Mapping[str, PayTable] = frozen_dict(
    {
        "A": PayTable(
            wager="progressive",
            letter="A",
            section="§ 571.12(c)",
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1, 10)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
        ),
        "B": PayTable(
            wager="progressive",
            letter="B",
            section=_PR,
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
        ),
        "C": PayTable(
            wager="progressive",
            letter="C",
            section=_PR,
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1)),
                PayLine(hand="four_of_a_kind", meter_share=Fraction(1)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(10)),
            ),
        ),
        "D": PayTable(
            wager="progressive",
            letter="D",
            section=_PR,
            lines=(
                PayLine(hand="royal_flush", meter_share=Fraction(1)),
                PayLine(hand="straight_flush", meter_share=Fraction(1)),
                PayLine(hand="four_of_a_kind", meter_share=Fraction(1)),
                PayLine(hand="full_house", odds=for_(50)),
                PayLine(hand="flush", odds=for_(40)),
                PayLine(hand="straight", odds=for_(30)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
        ),
    }
)
# Which jackpot (meter) each meter line pays: table A has one meter (100% and 10% of it); B-D
# name the mega, major and minor jackpots (§ 655a.12(c)(1)).
JACKPOTS: Mapping[str, Mapping[str, str]] = frozen_dict(
    {
        "A": frozen_dict({"royal_flush": "meter", "straight_flush": "meter"}),
        "B": frozen_dict({"royal_flush": "mega", "straight_flush": "major"}),
        "C": frozen_dict(
            {"royal_flush": "mega", "straight_flush": "major", "four_of_a_kind": "minor"}
        ),
        "D": frozen_dict(
            {"royal_flush": "mega", "straight_flush": "major", "four_of_a_kind": "minor"}
        ),
    }
)

# § 571.12(e): Envy Bonus by the receiving player's own progressive wager ($1 or $5).
ENVY = EnvySchedule(
    letter="A",
    section="§ 571.12(e)",
    by_wager=frozen_dict(
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


def hand_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names a five-card hand satisfies: its category, plus
    ``pair_of_jacks_or_better`` or ``pair_of_sixes_to_tens`` (the push, § 571.11(h)(2))."""
    keys = {rank.category._value_}  # .value, without the enum property call
    if rank.category is Category.PAIR:
        if rank.top_rank >= 11:
            keys.add("pair_of_jacks_or_better")
        elif rank.top_rank >= 6:
            keys.add(PUSH_HAND)
    return frozenset(keys)


# --- the base settlement (§ 655a.12(a), § 571.11(h)) ------------------------------------------


@dataclass(frozen=True, slots=True)
class BasePay:
    """How a five-card hand settles each of the Ante and the 3rd, 4th and 5th Street wagers in
    action: every one of them alike (§ 655a.12(a), § 571.11(h))."""

    line: str
    """The pay-table line reached, :data:`PUSH_HAND`, or :data:`LOSE`."""
    result: Result
    odds: Odds | None = None
    """A winning line's odds (``None`` on a push or a loss)."""

    @property
    def net(self) -> Fraction:
        """The net of each wager per unit staked: the odds' net, 0 on the push, -1 lost."""
        if self.odds is not None:
            return self.odds.net
        return Fraction(0) if self.result is Result.PUSH else Fraction(-1)

    def winnings(self, stake: int) -> int:
        """Cents won on one wager of ``stake`` cents (0 unless it wins)."""
        return self.odds.winnings(stake) if self.odds is not None else 0


_PUSH = BasePay(line=PUSH_HAND, result=Result.PUSH)
_LOSE = BasePay(line=LOSE, result=Result.LOSE)


def base_pays(table: PayTable = PAY_TABLE) -> tuple[BasePay, ...]:
    """Every way the base wagers settle under ``table`` (the game's base table; § 655a.12(a)
    is the one in force), from its top line down, then the push and the loss: the lines the
    solver and the kernel index."""
    wins = tuple(BasePay(line=ln.hand, result=Result.WIN, odds=ln.odds) for ln in table.lines)
    return (*wins, _PUSH, _LOSE)


BASE_PAYS: tuple[BasePay, ...] = base_pays(PAY_TABLE)
"""Every way the base wagers settle under :data:`PAY_TABLE` (:func:`base_pays`)."""


def base_pay(keys: frozenset[str], table: PayTable = PAY_TABLE) -> BasePay:
    """The settlement of the Ante and every street wager in action for a hand with ``keys``
    (:func:`hand_keys`): § 655a.12(a) the highest line of ``table`` reached wins at its odds;
    § 571.11(h)(2) a pair of sixes through tens pushes; § 571.11(h)(1) every other hand loses."""
    line = table.line_for(keys)
    if line is not None:
        return BasePay(line=line.hand, result=Result.WIN, odds=line.odds)
    return _PUSH if PUSH_HAND in keys else _LOSE


# --- the aggregate payout limit (§ 655a.12(b)) -----------------------------------------------


def max_win_at_minimum(ante: int) -> int:
    """The most one patron can win in a round betting the minimum Ante, cents (§ 655a.12(b)).

    Reading: "betting the minimum wager" is the posted Ante minimum; the three street wagers are
    then at most three times it each (§ 571.11(c)), and the best base hand (a royal flush, the
    top line of § 655a.12(a)) wins on all four.  The progressive is paid from its meter under
    § 655a.12(c), not under (a), so it is not counted."""
    top = max(line.odds.net for line in PAY_TABLE.lines if line.odds is not None)
    staked = ante + 3 * ante * 3  # the Ante and three street wagers of up to 3x it
    return int(top * staked)


def least_payout_limit(rules: RulesSubmission) -> int:
    """$50,000 or the most one patron could win at the minimum wager, whichever is greater."""
    ante = rules.limits.get("ante")
    minimum = ante.min if ante is not None else None
    return max(PAYOUT_LIMIT, max_win_at_minimum(minimum) if minimum else 0)

"""Ultimate Texas Hold 'Em flop and river as rules a dealer or player can read, each measured
against the exact solver's decisions (:mod:`croupier.analysis.ultimate_texas_holdem.solver`).

The rule of a street gives each hand feature (on the flop the five-card hand, whether its pair
or three of a kind uses a hole card, whether it holds four to a flush; on the river the
seven-card hand and whether the hole cards beat the board alone) the decision the optimum takes
in most of that feature's situations: bet 2x or check on the flop, play 1x or fold on the
river (§ 569.11, the river's § 569.11(e)).

Its measure, from the same exact solve as the par sheet: how many of the situations reached
under the optimal strategy (a hand that checked before the flop, and on the river checked on
the flop too) the rule decides otherwise than the optimum, and its cost: the drop of the
expected result per round (units of the Ante, every deal counted, exactly) from following the
rule on that street with the optimal play elsewhere (the optimal preflop table; after a flop
check, the optimal river).  A feature's part of the cost is what the optimum's decision gains
over the rule's in the situations where the two differ, summed by the solver
(:attr:`croupier.analysis.ultimate_texas_holdem.solver.FeatureShare.gain_taken`,
``gain_declined``); the cost is
the sum of the parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.analysis.strategy_table import MEASURE_ACTION, StrategyRow, StrategyTable
from croupier.core.errors import InvalidInput

if TYPE_CHECKING:
    from croupier.analysis.ultimate_texas_holdem.solver import FeatureShare, UthStrategy
    from croupier.games import Game

__all__ = [
    "FeatureRule",
    "StreetRule",
    "street_rules",
    "uth_rows",
    "uth_strategy_text",
    "uth_street_rules",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class FeatureRule:
    """The rule's decision for one hand feature, against the optimum's."""

    feature: str
    action: str
    """The rule's decision: the optimum's in most of the feature's situations."""
    share: Fraction
    """The share of the feature's situations where the optimum bets (or plays)."""
    situations: int
    differ: int
    """The situations where the rule's decision is not the optimum's."""
    cost: Fraction
    """What following the rule here gives up, per round, in units of the Ante."""


@dataclass(frozen=True, kw_only=True, slots=True)
class StreetRule:
    """A readable rule for one street, feature by feature, and how far it is from the optimum."""

    street: str
    take: str
    """The wager the rule makes ("bet 2x", "play 1x")."""
    decline: str
    """The other decision ("check", "fold")."""
    features: tuple[FeatureRule, ...]

    @property
    def reached(self) -> int:
        """The situations of this street reached under the optimal strategy."""
        return sum(f.situations for f in self.features)

    @property
    def differ(self) -> int:
        return sum(f.differ for f in self.features)

    @property
    def differ_share(self) -> Fraction:
        return Fraction(self.differ, self.reached) if self.reached else Fraction(0)

    @property
    def cost(self) -> Fraction:
        """The expected loss per round (units of the Ante): the sum of the features' parts."""
        return sum((f.cost for f in self.features), Fraction(0))

    def action(self, feature: str) -> str:
        """The rule's decision for a hand of ``feature`` (a feature text of the rule)."""
        for f in self.features:
            if f.feature == feature:
                return f.action
        raise InvalidInput(f"{feature!r} is no {self.street} feature of the rule")

    def render(self, subject: str = "the majority decision of each hand") -> str:
        """How far the rule is from the optimum, as a sentence about ``subject``."""
        return (
            f"{subject} differs from the optimum in "
            f"{self.differ:,} of the {self.reached:,} {self.street} decisions "
            f"({float(self.differ_share):.2%}), costing {float(self.cost):.5%} of the Ante "
            "per round"
        )


def _merged(shares: tuple[FeatureShare, ...]) -> list[tuple[str, int, int, Fraction, Fraction]]:
    """The reached features, those of the same text as one: (feature, taken, situations, gain
    where taken, gain where declined)."""
    merged: dict[str, tuple[int, int, Fraction, Fraction]] = {}
    for s in shares:
        if s.situations:
            t, n, gt, gd = merged.get(s.feature, (0, 0, Fraction(0), Fraction(0)))
            merged[s.feature] = (
                t + s.taken,
                n + s.situations,
                gt + s.gain_taken,
                gd + s.gain_declined,
            )
    return [(name, *values) for name, values in merged.items()]


def street_rules(strategy: UthStrategy) -> tuple[StreetRule, StreetRule]:
    """The flop and the river rule of the optimal ``strategy``, each with its measure."""
    rules = []
    for street, take, decline, shares in (
        ("flop", "bet 2x", "check", strategy.flop),
        ("river", "play 1x", "fold", strategy.river),
    ):
        features = []
        for name, taken, situations, gain_taken, gain_declined in _merged(shares):
            takes = 2 * taken >= situations
            features.append(
                FeatureRule(
                    feature=name,
                    action=take if takes else decline,
                    share=Fraction(taken, situations),
                    situations=situations,
                    differ=situations - taken if takes else taken,
                    cost=gain_declined if takes else gain_taken,
                )
            )
        rules.append(StreetRule(street=street, take=take, decline=decline,
                                features=tuple(features)))  # fmt: skip
    return rules[0], rules[1]


def uth_street_rules(game: Game) -> tuple[StreetRule, StreetRule]:
    """The flop and river rules of ``game`` (under its Blind table), from the exact solve."""
    from croupier.analysis.ultimate_texas_holdem.sheet import solved

    return street_rules(solved(game).strategy)


def uth_strategy_text(game: Game) -> str:
    table = game.paytable("blind")
    letter = table.letter if table is not None else "?"
    lines = [
        f"Ultimate Texas Hold 'Em: optimal strategy (exact solver, Blind table {letter})",
        "  preflop: raise 4x, or check (3x is never the best play)",
    ]
    from croupier.analysis.ultimate_texas_holdem.sheet import solved

    strategy = solved(game).strategy
    lines += [f"  {row}" for row in strategy.render()]
    lines += [f"  {rule.street} rule: {rule.render()}" for rule in street_rules(strategy)]
    return "\n".join(lines)


def uth_rows(game: Game) -> StrategyTable:
    """The preflop table, then for the flop and the river the readable rule's measure (how
    often it differs from the optimum, what it costs) and its decision for each hand feature
    (:mod:`croupier.analysis.ultimate_texas_holdem.strategy_rules`), with that feature's share and
    part of the cost."""
    from croupier.analysis.ultimate_texas_holdem.sheet import solved

    strategy = solved(game).strategy
    rows = [
        StrategyRow(decision="preflop", situation=d.hand, action=d.action) for d in strategy.preflop
    ]
    for rule in street_rules(strategy):
        rows.append(
            StrategyRow(
                decision=rule.street,
                situation=rule.render("the rule below (the majority decision of each hand)"),
                action=MEASURE_ACTION,
                share=float(rule.differ_share),
                situations=rule.reached,
                cost=rule.cost,
            )
        )
        rows += [
            StrategyRow(
                decision=rule.street,
                situation=f.feature,
                action=f"{f.action} (optimum bets {float(f.share):.2%})",
                share=float(f.share),
                situations=f.situations,
                cost=f.cost,
            )
            for f in rule.features
        ]
    table = game.paytable("blind")
    letter = table.letter if table is not None else "?"
    return StrategyTable(
        game=game.slug,
        title=f"Ultimate Texas Hold 'Em: optimal strategy (exact solver, Blind table {letter})",
        rows=tuple(rows),
    )

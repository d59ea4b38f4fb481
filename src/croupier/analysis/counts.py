"""Category counts over every hand of a given size: the ``croupier count`` table."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from croupier.core.arguments import verify_int
from croupier.core.errors import InvalidInput, shown_value
from croupier.core.progress import report
from croupier.hands import Category, Ranking

__all__ = ["CountTable", "count_table"]


@dataclass(frozen=True, kw_only=True, slots=True)
class CountTable:
    """Exhaustive category counts; ``counts`` ordered from the highest category down."""

    ranking: Ranking
    cards: int
    counts: tuple[tuple[Category, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    def to_json(self) -> dict[str, object]:
        total = self.total
        return {
            "ranking": self.ranking.value,
            "cards": self.cards,
            "total": total,
            "counts": {cat.value: n for cat, n in self.counts},
            "probabilities": {
                cat.value: {"p": n / total, "exact": _ratio(Fraction(n, total))}
                for cat, n in self.counts
            },
        }

    def render(self) -> str:
        total = self.total
        best = {Ranking.POKER5: "best five", Ranking.FOUR_CARD: "best four"}.get(
            self.ranking, "the hand"
        )
        lines = [
            f"{self.ranking.value}: every {self.cards}-card hand ({best}), {total:,} hands",
            f"{'category':<18}{'hands':>14}{'probability':>14}",
        ]
        for cat, n in self.counts:
            lines.append(f"{cat.value:<18}{n:>14,}{n / total:>14.8f}")
        return "\n".join(lines)


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def count_table(ranking: Ranking | str, cards: int) -> CountTable:
    """Count every ``cards``-card hand of ``ranking`` by category (batch kernels, exhaustive;
    progress reported through :mod:`croupier.core.progress`)."""
    from croupier.kernels import count_categories

    rk = Ranking.parse(ranking)
    verify_int(cards, what="--cards")
    if not rk.min_cards <= cards <= rk.max_cards:
        raise InvalidInput(
            f"--cards {shown_value(cards)} is not a hand size for ranking {rk.value!r} "
            f"({rk.min_cards} to {rk.max_cards} cards)"
        )
    counts = count_categories(
        rk, cards, progress=lambda done, total: report(f"counting {cards}-card hands", done, total)
    )
    ordered = tuple((cat, counts.get(cat, 0)) for cat in reversed(rk.categories))
    return CountTable(ranking=rk, cards=cards, counts=ordered)

"""Hand rankings, scalar and exact: the truth every faster path is tested against.

``evaluate(cards, ranking)`` returns a :class:`HandRank` whose ``value`` orders hands exactly as
the regulation does (equal values tie), its :class:`Category`, and the cards that make it.
Baccarat point counts and drawing rules are in :mod:`croupier.hands.baccarat`.
"""

from croupier.hands._core import (
    CATEGORY_SHIFT,
    Category,
    HandRank,
    Ranking,
    evaluate,
    hand_report,
    pack,
)

__all__ = ["CATEGORY_SHIFT", "Category", "HandRank", "Ranking", "evaluate", "hand_report", "pack"]

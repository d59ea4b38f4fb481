"""croupier: runs and proves the casino table games regulated in Pennsylvania.

The public API is re-exported here; modules whose names start with an underscore are private.
"""

from croupier import _native

_native.install()  # before any other submodule: the engine's compiled builds, where current


from croupier.core.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from croupier.core.errors import (
    CroupierError,
    IllegalAction,
    InvalidInput,
    Irregularity,
    RulesViolation,
)
from croupier.core.money import Cents, Odds, OddsKind
from croupier.hands import Category, HandRank, Ranking, evaluate

__all__ = [
    "DECK",
    "Card",
    "Category",
    "Cents",
    "CroupierError",
    "HandRank",
    "IllegalAction",
    "InvalidInput",
    "Irregularity",
    "Odds",
    "OddsKind",
    "Rank",
    "Ranking",
    "RulesViolation",
    "Suit",
    "evaluate",
    "format_cards",
    "parse_cards",
]

__version__ = "0.1.0"

"""Four Card Poker: one package holds the game: the rules and round in :mod:`.game`. The package
re-exports the public names of the old module ``croupier.games.four_card_poker``, so its imports
keep working.
"""

from croupier.games.four_card_poker.game import (
    ACES_UP,
    ANTE_BONUS,
    ENVY,
    GAME_CLASSES,
    PROGRESSIVE,
    BaseNet,
    FourCardPoker,
    FourCardPokerRound,
    aces_up_line,
    ante_bonus_line,
    base_net,
    hand_keys,
    showdown,
)

__all__ = [
    "ACES_UP",
    "ANTE_BONUS",
    "ENVY",
    "GAME_CLASSES",
    "PROGRESSIVE",
    "BaseNet",
    "FourCardPoker",
    "FourCardPokerRound",
    "aces_up_line",
    "ante_bonus_line",
    "base_net",
    "hand_keys",
    "showdown",
]

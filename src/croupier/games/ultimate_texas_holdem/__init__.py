"""Ultimate Texas Hold 'Em: one package holds the game: the rules and round in :mod:`.game`; the
cited pay tables in :mod:`.paytables`. The package re-exports the public names of the old module
``croupier.games.ultimate_texas_holdem``, so its imports keep working.
"""

from croupier.games.ultimate_texas_holdem.game import (
    ANTE_ODDS,
    BOARD,
    GAME_CLASSES,
    PLAY_ODDS,
    BaseSettlement,
    HandKey,
    Street,
    UltimateTexasHoldem,
    UltimateTexasHoldemRound,
    base_net,
    blind_line,
    dealer_qualifies,
    hand_category,
    hand_key,
    hand_keys,
    key_names,
    progressive_cards,
    settle_base,
    trips_line,
)

__all__ = [
    "ANTE_ODDS",
    "BOARD",
    "GAME_CLASSES",
    "PLAY_ODDS",
    "BaseSettlement",
    "HandKey",
    "Street",
    "UltimateTexasHoldem",
    "UltimateTexasHoldemRound",
    "base_net",
    "blind_line",
    "dealer_qualifies",
    "hand_category",
    "hand_key",
    "hand_keys",
    "key_names",
    "progressive_cards",
    "settle_base",
    "trips_line",
]

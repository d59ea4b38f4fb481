"""Let It Ride: one package holds the game: the rules and round in :mod:`.game`; the cited pay
tables in :mod:`.paytables`. The package re-exports the public names of the old module
``croupier.games.let_it_ride``, so its imports keep working.
"""

from croupier.games.let_it_ride.game import (
    BOARD,
    GAME_CLASSES,
    BetDecision,
    BetRidden,
    BetWithdrawn,
    CommunityCardTurned,
    LetItRide,
    LetItRideRound,
    PayoutLimited,
    Ride,
    SixCardBonusCardsTurned,
    Withdraw,
    base_net,
    bet_line,
    bet_net,
    bets_in_action,
    five_card_keys,
    three_card_keys,
)

__all__ = [
    "BOARD",
    "GAME_CLASSES",
    "BetDecision",
    "BetRidden",
    "BetWithdrawn",
    "CommunityCardTurned",
    "LetItRide",
    "LetItRideRound",
    "PayoutLimited",
    "Ride",
    "SixCardBonusCardsTurned",
    "Withdraw",
    "base_net",
    "bet_line",
    "bet_net",
    "bets_in_action",
    "five_card_keys",
    "three_card_keys",
]

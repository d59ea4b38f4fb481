"""PokerKit (the installed peer): a heads-up no-limit hold'em hand through its state machine,
every card dealt, both players checking or calling down to the showdown."""

from __future__ import annotations

from pokerkit import Automation, NoLimitTexasHoldem

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def play_round() -> int:
    state = NoLimitTexasHoldem.create_state(
        _AUTOMATIONS, True, 0, (50, 100), 100, (10_000, 10_000), 2
    )
    while state.status:
        state.check_or_call()
    return int(state.stacks[0]) - 10_000


def simulate(rounds: int, seed: int) -> int:
    del seed  # PokerKit shuffles with its own generator
    return sum(play_round() for _ in range(rounds))

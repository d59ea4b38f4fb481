"""Play modes: real money, simulation, training (issue 13: "real play refuses seeded shoes").

=================  ==========================================================================
``REAL``           real wagers: every shuffle comes from :class:`~croupier.table.shoe.SecureShuffler`
                   (the OS CSPRNG); a seeded shuffler or a stacked shoe is refused
``SIMULATION``     Monte Carlo and tests: seeded shufflers and stacked shoes allowed
``TRAINING``       dealer training and dispute replays: likewise allowed
=================  ==========================================================================

The design is explicit and safe by default: a :class:`~croupier.table.table.Table` is ``REAL`` unless
its constructor is told otherwise, so a table built with a ``SeededShuffler`` and no mode is
refused, naming the mode to choose.  A round made directly by ``game.new_round(...)`` (the
library's scenario replays, analysis and tests) is ``SIMULATION`` unless told otherwise; a
``REAL`` round refuses a :class:`~croupier.table.shoe.StackedShoe`.  Every round carries its mode
(``Round.mode``, its view, the table's round header), so a record of a simulated or training
round can never pass for real play.

A live table is a training table when its Rules Submission says so (``[table] training =
true``): its rounds are ``TRAINING`` whatever else runs on the floor, and the dealer (or a test)
may stack the next round's cards (:func:`stacked_order`, ``Dealing.stack_next`` in
:mod:`croupier.server.live_tables`); a real table refuses a stack (:func:`verify_stackable`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from croupier.core.cards import Card, format_cards, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.table.shoe import SecureShuffler, Shoe, Shuffler, StackedShoe

if TYPE_CHECKING:
    from croupier.rules.submission import TableRules

__all__ = [
    "PlayMode",
    "mode_of_table",
    "parse_stack",
    "stacked_order",
    "verify_mode",
    "verify_shoe",
    "verify_shuffler",
    "verify_stackable",
]


class PlayMode(StrEnum):
    REAL = "real"
    SIMULATION = "simulation"
    TRAINING = "training"


def verify_mode(mode: object) -> PlayMode:
    if not isinstance(mode, PlayMode):
        raise InvalidInput(
            f"play mode {mode!r} is not one of {', '.join(m.value for m in PlayMode)} (a PlayMode)"
        )
    return mode


def verify_shuffler(mode: PlayMode, shuffler: Shuffler) -> None:
    """Real play shuffles only with the OS CSPRNG."""
    if mode is PlayMode.REAL and not isinstance(shuffler, SecureShuffler):
        raise IllegalAction(
            f"real play refuses the shuffler {shuffler!r}: only SecureShuffler (the OS CSPRNG) "
            "shuffles for real wagers; use PlayMode.SIMULATION or PlayMode.TRAINING"
        )


def verify_shoe(mode: PlayMode, shoe: Shoe) -> None:
    """Real play never deals from a stacked shoe."""
    if mode is PlayMode.REAL and isinstance(shoe, StackedShoe):
        raise IllegalAction(
            "real play refuses a stacked shoe; use PlayMode.SIMULATION or PlayMode.TRAINING"
        )


def mode_of_table(table: TableRules) -> PlayMode:
    """A live table's mode, from its Rules Submission's ``[table]``: ``TRAINING`` where it
    declares a training table (``training = true``), else ``REAL``."""
    return PlayMode.TRAINING if table.training else PlayMode.REAL


def verify_stackable(mode: PlayMode, where: str) -> None:
    """Only a table that is not real play may have its cards stacked."""
    if mode is PlayMode.REAL:
        raise IllegalAction(
            f"{where} is not a training table: real play never deals stacked cards (a training "
            "table says [table] training = true in its Rules Submission)"
        )


def parse_stack(cards: object) -> tuple[Card, ...]:
    """The cards of a stack: ``"As Kd 7c"`` (top first) or a sequence of cards or card
    strings; an unreadable card is refused naming it."""
    if isinstance(cards, str):
        return parse_cards(cards, distinct=False)
    if isinstance(cards, Sequence) and all(isinstance(c, Card) for c in cards):
        return tuple(cards)
    if isinstance(cards, Sequence) and all(isinstance(c, str) for c in cards):
        return parse_cards(list(cards), distinct=False)
    raise InvalidInput(f"stack {cards!r} is not a card string such as 'As Kd 7c'")


def stacked_order(order: Sequence[Card], stack: Sequence[Card], *, where: str) -> list[Card]:
    """``order`` (a shoe's cards, top first) with the cards of ``stack`` taken out of it and
    put on top in the given order; the others keep theirs.  A stack of more cards than the
    shoe holds, or of more copies of a card than its decks hold, is refused naming it
    (:class:`InvalidInput`), and nothing changes."""
    shown = format_cards(stack)
    if len(stack) > len(order):
        raise InvalidInput(
            f"stack {shown!r} for {where} holds {len(stack)} cards; the shoe holds {len(order)}"
        )
    have, want = Counter(order), Counter(stack)
    over = [f"{card} x{n}" for card, n in want.items() if n > have[card]]
    if over:
        raise InvalidInput(
            f"stack {shown!r} for {where} holds more copies than the shoe's decks: "
            f"{', '.join(over)} (the shoe holds {len(order) // 52} deck(s))"
        )
    rest = list(order)
    for card in stack:
        rest.remove(card)
    return [*stack, *rest]

"""Play modes: real money, simulation, training (issue 13: "real play refuses seeded shoes").

=================  ==========================================================================
``REAL``           real wagers: every shuffle comes from :class:`~croupier.shoe.SecureShuffler`
                   (the OS CSPRNG); a seeded shuffler or a stacked shoe is refused
``SIMULATION``     Monte Carlo and tests: seeded shufflers and stacked shoes allowed
``TRAINING``       dealer training and dispute replays: likewise allowed
=================  ==========================================================================

The design is explicit and safe by default: a :class:`~croupier.table.Table` is ``REAL`` unless
its constructor is told otherwise, so a table built with a ``SeededShuffler`` and no mode is
refused, naming the mode to choose.  A round made directly by ``game.new_round(...)`` (the
library's scenario replays, analysis and tests) is ``SIMULATION`` unless told otherwise; a
``REAL`` round refuses a :class:`~croupier.shoe.StackedShoe`.  Every round carries its mode
(``Round.mode``, its view, the table's round header), so a record of a simulated or training
round can never pass for real play.
"""

from __future__ import annotations

from enum import StrEnum

from croupier.errors import IllegalAction, InvalidInput
from croupier.shoe import SecureShuffler, Shoe, Shuffler, StackedShoe

__all__ = ["PlayMode", "verify_mode", "verify_shoe", "verify_shuffler"]


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

"""The round's hooks are private (issue 14, "a narrow Round").

A game provides its dealing procedure, its wager checks and the settlement of a seat by
overriding hooks of :class:`~croupier.games.round.Round` whose names begin with an underscore
(``_settle_seat``): the public surface of a round is the protocol only (``apply``,
``legal_actions``, ``phase``, ``to_act``, ``is_over``, ``books``, ``view``...).  A subclass that
still defines a hook by its old public name would never be called, so it is refused when the
class is made, by :class:`PrivateHooks` (mixed into every round).
"""

from __future__ import annotations

from typing import Any

__all__ = ["HOOKS", "PrivateHooks"]

HOOKS: tuple[str, ...] = (
    "verify_wager",
    "verify_ready",
    "deal_plan",
    "dealing_done",
    "after_decision",
    "reveal",
    "settlement_order",
    "settle_seat",
    "player_keys",
)
"""The hooks a game overrides, by their old public names; each is now ``_<name>``."""


class PrivateHooks:
    """Refuses a round class that defines a hook by its old public name."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        stale = [name for name in HOOKS if name in vars(cls)]
        if stale:
            renames = ", ".join(f"{name} (now _{name})" for name in stale)
            raise TypeError(
                f"{cls.__name__} defines {renames}: a round's hooks are private; "
                "define them by their underscore names"
            )

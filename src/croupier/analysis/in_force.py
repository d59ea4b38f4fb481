"""The Rules Submission in force, in full, as plain data: what the par book
(:mod:`croupier.analysis.book`) and the HTML report (:mod:`croupier.analysis.report`) show."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = ["rules_in_force"]


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def rules_in_force(game: Game) -> dict[str, Any]:
    """The Rules Submission in force, in full: what it says and every default it leaves to
    the regulation (the pay table of each wager, the table and progressive settings)."""
    rules = game.rules
    tables = {w: t.letter for w in game.wagers if (t := game.paytable(w)) is not None}
    found: dict[str, Any] = {
        "game": game.slug,
        "payout_limit": rules.payout_limit,
        "paytables": {**tables, **dict(rules.paytables)},
        "progressive": dataclasses.asdict(rules.progressive) if rules.progressive else None,
        "vig": dataclasses.asdict(rules.vig) if rules.vig else None,
        "table": dataclasses.asdict(rules.table),
        **dict(rules.extra),
    }
    return {k: _plain(v) for k, v in found.items()}

"""What the money oracle knows of each game: every decision path and every outcome class.

Written from the README (the games, "Wager sizes in each chapter's words": a Play "as
``multiple``", written ``play 3`` or ``play 1.5``; Let It Ride's pull or ride; Mississippi
Stud's street bets "equal to one, two or three times" the Ante) and from what the server's
``/actions`` offers; nothing of croupier is imported.

A *decision path* is the sequence of decision strings a seat sends in one round (the empty
path where the game has no decision).  An *outcome class* of a seat's round is the result of
the wager that path decides (Let It Ride's Bet 3, the Play, Mississippi Stud's Ante; the Ante
for a fold), and at baccarat each wager with its result.  A *cell* is a path with a class; the
long run (``benchmarks/bench_oracle.py``) requires every cell of :data:`GAMES` at least once.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GAMES", "GamePlan", "Path", "cells_of", "main_result"]

Path = tuple[str, ...]

WIN_LOSE = frozenset({"win", "lose"})
WIN_LOSE_PUSH = frozenset({"win", "lose", "push"})
FOLDED = frozenset({"forfeit"})


def _stud_paths() -> tuple[Path, ...]:
    """Mississippi Stud: on each of 3rd, 4th and 5th Street a bet of 1x, 2x or 3x the Ante, or
    a fold that ends the seat's round (§ 571.11(a), (c), (e) as the README quotes them)."""
    bets = ("play 1", "play 2", "play 3")
    paths: list[Path] = []
    for streets in range(3):
        for made in itertools.product(bets, repeat=streets):
            paths.append((*made, "fold"))
    paths.extend(itertools.product(bets, repeat=3))
    return tuple(paths)


@dataclass(frozen=True)
class GamePlan:
    """One game's paths and the classes each path can end in."""

    game: str
    paths: tuple[Path, ...]
    classes: Mapping[Path, frozenset[str]]
    decided: str | None
    """The wager whose result is a path's class (``None``: every wager's, at baccarat)."""
    wager_classes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Baccarat: each wager and the results it can have."""


def _plan(
    game: str, paths: tuple[Path, ...], decided: str | None, played: frozenset[str]
) -> GamePlan:
    classes = {p: FOLDED if p and p[-1] == "fold" else played for p in paths}
    return GamePlan(game, paths, classes, decided)


def _baccarat(game: str, wagers: Mapping[str, frozenset[str]]) -> GamePlan:
    return GamePlan(game, ((),), {(): frozenset()}, None, wagers)


_BANKER_PLAYER = {"banker": WIN_LOSE_PUSH, "player": WIN_LOSE_PUSH, "tie": WIN_LOSE}
_DRAGON_BONUS = {"dragon_bonus_banker": WIN_LOSE_PUSH, "dragon_bonus_player": WIN_LOSE_PUSH}

GAMES: Mapping[str, GamePlan] = {
    plan.game: plan
    for plan in (
        # pull or ride Bet 1, then Bet 2; Bet 3 always rides (it never pushes)
        _plan(
            "let-it-ride",
            tuple(itertools.product(("pull bet1", "ride bet1"), ("pull bet2", "ride bet2"))),
            "bet3",
            WIN_LOSE,
        ),
        # fold, or a Play equal to the Ante (pushes when the dealer does not qualify)
        _plan("three-card-poker", (("fold",), ("play 1",)), "play", WIN_LOSE_PUSH),
        # fold, or any whole cent from 1x to 3x (the README: "play 1.5" a multiple); a tie
        # goes to the player
        _plan(
            "four-card-poker",
            (("fold",), ("play 1",), ("play 1.5",), ("play 2",), ("play 3",)),
            "play",
            WIN_LOSE,
        ),
        # 4x or 3x before the flop, 2x after it, 1x or fold at the river
        _plan(
            "ultimate-texas-holdem",
            (
                ("play 4",),
                ("play 3",),
                ("check", "play 2"),
                ("check", "check", "play 1"),
                ("check", "check", "fold"),
            ),
            "play",
            WIN_LOSE_PUSH,
        ),
        _plan("mississippi-stud", _stud_paths(), "ante", WIN_LOSE_PUSH),
        _baccarat("mini-baccarat", {**_BANKER_PLAYER, **_DRAGON_BONUS}),
        _baccarat("midi-baccarat", _BANKER_PLAYER),
        _baccarat("ez-baccarat", {**_BANKER_PLAYER, "dragon_7": WIN_LOSE, **_DRAGON_BONUS}),
    )
}


def main_result(plan: GamePlan, seat: Mapping[str, Any]) -> str | None:
    """The class of a seat's round from its settlement (``{"wagers": {...}, "net": n}``):
    the result of the decided wager, else (a fold: it was never made) the Ante's."""
    if plan.decided is None:
        return None
    wagers: Mapping[str, Any] = seat["wagers"]
    wager = wagers.get(plan.decided) or wagers.get("ante")
    return None if wager is None else str(wager["result"])


def cells_of(plan: GamePlan) -> set[tuple[Path, str]]:
    """Every cell of the game: each path with each class it can end in (baccarat: the empty
    path with each ``wager:result``)."""
    if plan.decided is None:
        return {((), f"{w}:{r}") for w, results in plan.wager_classes.items() for r in results}
    return {(p, c) for p, classes in plan.classes.items() for c in classes}

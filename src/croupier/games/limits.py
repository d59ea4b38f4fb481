"""Table limits: each wager's posted minimum and maximum (``[limits.<wager>]``, cents), what the
chapters make of them, and the wagers a round needs matched within them.

=============================  =============================================================
a limit names                  a wager of the game (else refused naming the chapter), one the
                               table offers under its Rules Submission
minimum and maximum            each at least 1 cent and at most ``MAX_WAGER`` (the model);
                               the minimum at most the maximum
decision wagers                never posted: the Play and the street bets are set by the
                               chapter as multiples of the Ante (§ 557.7(a)(1): an Ante within
                               the posted minimum and maximum, then a Play of one to three
                               times it), so the Ante's limits bound them
fixed wagers                   a progressive wager is the amount the Rules Submission fixes
                               (§ 557.7(a)(4): $1 or $5): a limit posted for it must be that
                               amount; the amount is its posted limit
equal wagers                   the Blind equals the Ante (§ 569.2(b)(2)), the three Let It
                               Ride bets are equal (§ 643a.7(d)): the others' limits hold every
                               amount the first one's do, so every first wager the table takes
                               can be matched; a wager another cannot match is refused, named
a live table                   posts a minimum and a maximum for every wager it offers but
                               the fixed ones (:func:`unposted`; the server refuses the rest)
=============================  =============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from croupier.core.errors import IllegalAction, Problem
from croupier.core.money import MAX_WAGER
from croupier.rules.submission import RulesSubmission, WagerLimits

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = [
    "bounds",
    "class_problems",
    "offered_problems",
    "posted_limits",
    "unposted",
    "verify_equal_wagers",
]


def bounds(limit: WagerLimits | None) -> tuple[int, int]:
    """The amounts a posted limit allows, both ends included (unposted ends: 1 cent and
    :data:`~croupier.core.money.MAX_WAGER`)."""
    if limit is None:
        return 1, MAX_WAGER
    low = limit.min if limit.min is not None else 1
    return low, limit.max if limit.max is not None else MAX_WAGER


def class_problems(cls: type[Game], rules: RulesSubmission) -> list[Problem]:
    """What the chapter alone says of ``[limits]`` (the wagers its rules offer are checked by
    :func:`offered_problems` once the rest of the submission is valid)."""
    problems: list[Problem] = []
    section = cls.limits_section or None
    for wager, limit in rules.limits.items():
        if wager not in cls.wagers:
            msg = f"[limits] names {wager!r}, which is not a wager of {cls.where()}"
            problems.append((msg, None))
        elif wager in cls.decision_wagers:
            msg = (
                f"[limits] {wager}: the {wager} wager is not posted: {cls.where()} sets it as a "
                "multiple of the Ante, whose limits bound it; limit the Ante instead"
            )
            problems.append((msg, cls.decision_section or None))
        elif wager == "progressive" and rules.progressive is None:
            problems.append((_not_offered(wager, cls), None))
        elif limit.min is None and limit.max is None:
            problems.append((f"[limits] {wager} gives neither min nor max (cents)", None))
        elif limit.min is not None and limit.max is not None and limit.min > limit.max:
            msg = f"[limits] {wager}: min {limit.min} cents is above max {limit.max} cents"
            problems.append((msg, section))
    return problems + _equal_problems(cls, rules.limits)


def _equal_problems(cls: type[Game], limits: Mapping[str, WagerLimits]) -> list[Problem]:
    """Equal wagers: each other one's limits hold the first one's whole range."""
    problems: list[Problem] = []
    for group, section in cls.equal_wagers:
        lead = group[0]
        low, high = bounds(limits.get(lead))
        for other in group[1:]:
            o_low, o_high = bounds(limits.get(other))
            if o_low <= low and o_high >= high:
                continue
            why = (
                f"[limits] {other}: {o_low} to {o_high} cents cannot match every {lead} of "
                f"{low} to {high} cents the table takes; the {other} equals the {lead}, so its "
                f"limits must hold the {lead}'s"
            )
            problems.append((why, section))
    return problems


def _not_offered(wager: str, cls: type[Game]) -> str:
    return (
        f"[limits] {wager}: this table does not offer the {wager} wager under its Rules "
        f"Submission ({cls.where()})"
    )


def offered_problems(game: Game) -> list[Problem]:
    """``[limits]`` against what the table offers under its (otherwise valid) rules: a wager
    it does not offer, a fixed wager posted at another amount."""
    problems: list[Problem] = []
    offered = set(game.offered_wagers())
    for wager, limit in game.rules.limits.items():
        if wager not in game.wagers or wager in game.decision_wagers:
            continue  # refused by class_problems
        if wager not in offered:
            problems.append((_not_offered(wager, type(game)), None))
            continue
        fixed = game.fixed_wager(wager)
        if fixed is None:
            continue
        amount, section = fixed
        if {limit.min, limit.max} - {None, amount}:
            msg = (
                f"[limits] {wager}: the {wager} wager is a fixed {amount} cents (the Rules "
                f"Submission's amount); a limit posted for it must be {amount} cents"
            )
            problems.append((msg, section or None))
    return problems


def unposted(game: Game) -> list[str]:
    """The wagers the table offers that post no minimum or no maximum (fixed wagers are
    posted by their amount): a live table opens only with none (:mod:`croupier.server`)."""
    out = []
    for wager in game.offered_wagers():
        if wager in game.decision_wagers or game.fixed_wager(wager) is not None:
            continue
        limit = game.rules.limits.get(wager)
        if limit is None or limit.min is None or limit.max is None:
            out.append(wager)
    return out


def posted_limits(game: Game) -> dict[str, dict[str, int]]:
    """Each wager placed before the cards and its posted ``min`` and ``max`` (cents; a fixed
    wager's are its amount; an end the Rules Submission leaves open is left out)."""
    out: dict[str, dict[str, int]] = {}
    for wager in game.offered_wagers():
        if wager in game.decision_wagers:
            continue
        fixed = game.fixed_wager(wager)
        if fixed is not None:
            out[wager] = {"min": fixed[0], "max": fixed[0]}
            continue
        limit = game.rules.limits.get(wager)
        if limit is not None:
            ends = (("min", limit.min), ("max", limit.max))
            out[wager] = {k: v for k, v in ends if v is not None}
    return out


def verify_equal_wagers(
    game: Game, placed: Mapping[str, int], seat: int, wager: str, amount: int
) -> None:
    """Refuse a wager that a wager it must equal, not yet placed, could not match within its
    posted limits (the round could never be dealt: "no more bets" waits for it)."""
    for group, section in game.equal_wagers:
        if wager not in group:
            continue
        for other in group:
            if other == wager or other in placed:
                continue
            low, high = bounds(game.rules.limits.get(other))
            if low <= amount <= high:
                continue
            raise IllegalAction(
                f"{wager} wager of {amount} cents at seat {seat} refused: the {other} wager "
                f"must equal it and the table's {other} limits are {low} to {high} cents",
                section=section or None,
            )

"""The pay-table designer for a base game with a decision: each candidate re-solved exactly.

Let It Ride's three bets are paid by one table (§ 643a.12), and the player's decisions (take
back Bet 1, Bet 2) depend on it, so a new table needs its optimal strategy re-solved before it is
priced.  The search is the side-wager designer's (:mod:`croupier.analysis.designer`) on a cheap
bound: the edge of a candidate *under the reference table's optimal decisions* is linear in its
pays (each line's count of deals times the bets riding, from the reference par sheet), and
re-solving can only lower it (the optimum is at least as good for the player as any fixed
strategy).  So the search ranks candidates by that bound, and the exact re-solve (the ordinary
par sheet of the Rules Submission with the candidate as ``[custom_paytables.base]``) runs on the
most promising ones only, skipping any whose bound already lies further below the target than
the worst kept candidate; at most ``solves`` re-solves, each cached.

Other base-game tables are refused with the reason: Ultimate Texas Hold 'Em's Blind and Four
Card Poker's Ante Bonus need their block solvers (minutes each) per candidate; Mississippi Stud's
solver reads the table of § 655a.12(a) itself; Three Card Poker's Ante Bonus has one table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from croupier.analysis.designer import (
    NODE_BUDGET,
    Candidate,
    Design,
    LineBounds,
    _bounds,
    _Search,
)
from croupier.errors import InvalidInput
from croupier.games import Game, get_game
from croupier.games.let_it_ride import LetItRide
from croupier.money import OddsKind

__all__ = ["MAX_SOLVES", "base_rules", "design_base"]

MAX_SOLVES = 12
"""Exact re-solves at most per search (about four seconds each)."""


def base_rules(game: Game, wager: str, candidate: Candidate) -> dict[str, Any]:
    """The Rules Submission of ``game`` with the candidate's table for ``wager``."""
    lines = {
        b.hand: f"{p} {b.kind.value} 1"
        for b, p in zip(candidate.lines, candidate.pays, strict=True)
    }
    raw = dict(game.rules.raw)
    custom = dict(raw.get("custom_paytables", {}))
    custom[wager] = lines
    return {**raw, "game": game.slug, "custom_paytables": custom}


def _verify(game: Game, wager: str) -> None:
    if isinstance(game, LetItRide) and wager == "base":
        return
    raise InvalidInput(
        f"{game.slug} {wager!r}: the base-game designer re-solves Let It Ride's base table "
        "(wager base); the Blind and Four Card Poker's Ante Bonus need their block solvers per "
        "candidate, Mississippi Stud's solver reads § 655a.12(a) itself"
    )


def _exact(game: Game, wager: str, candidate: Candidate, target: Fraction) -> Candidate:
    from croupier.analysis import par_sheet

    sheet = par_sheet(get_game(base_rules(game, wager, candidate))).base
    assert sheet is not None
    return replace(
        candidate,
        house_edge=sheet.house_edge,
        distance=abs(sheet.house_edge - target),
        hit_frequency=sheet.hit_frequency,
        std_dev=sheet.std_dev,
    )


def design_base(
    game: Game,
    wager: str,
    target_edge: Fraction,
    *,
    constraints: Mapping[str, Any] | None = None,
    top: int = 5,
    solves: int = MAX_SOLVES,
    budget: int = NODE_BUDGET,
) -> Design:
    """The ``top`` base tables nearest ``target_edge``, each priced with its own optimal
    strategy (see the module)."""
    from croupier.analysis import par_sheet

    _verify(game, wager)
    if not -1 < target_edge < 1:
        raise InvalidInput(f"target edge {target_edge} must be between -1 and 1")
    if not 1 <= top <= 100 or not 1 <= solves <= 100:
        raise InvalidInput(f"top {top} and solves {solves} must be from 1 to 100")
    assert isinstance(game, LetItRide)
    table = game.base_table
    sheet = par_sheet(game).base
    assert sheet is not None
    hands = set(table.hands())
    weights: dict[str, int] = {}
    fixed = Fraction(0)
    for outcome in sheet.outcomes:
        line = outcome.name.split(", ")[0]
        if line in hands:  # net = the line's net per bet x the bets riding
            weights[line] = weights.get(line, 0) + outcome.weight * int(outcome.wagered)
        else:
            fixed += outcome.net * outcome.weight
    bounds = _bounds(game, wager, table, weights, constraints or {})
    reference = tuple(ln.odds.numerator for ln in table.lines if ln.odds is not None)
    search = _Search(
        bounds=bounds,
        target=-target_edge * sheet.total - fixed,
        total=sheet.total,
        reference=reference,
        top=max(2 * top, solves),
        budget=budget,
    )
    search.run(0, None, 0, ())
    pool = sorted(search.heap, key=lambda item: (-item[0], -item[1], item[2]))
    kept: list[Candidate] = []
    done = 0
    for distance, deviation, pays in pool:
        bound = _bound_edge(bounds, pays, fixed, sheet.total)
        if len(kept) >= top and target_edge - bound > kept[top - 1].distance:
            continue  # the re-solved edge is at most the bound: further still
        if done >= solves:
            break
        cand = Candidate(
            pays=pays,
            house_edge=bound,
            distance=Fraction(-distance, sheet.total),
            deviation=Fraction(-deviation),
            hit_frequency=Fraction(0),
            std_dev=0.0,
            lines=bounds,
        )
        kept.append(_exact(game, wager, cand, target_edge))
        done += 1
        kept.sort(key=lambda c: (c.distance, c.deviation, c.pays))
    return Design(
        game=game.slug,
        wager=wager,
        reference=table.letter,
        target=target_edge,
        candidates=tuple(kept[:top]),
        nodes=min(search.nodes, budget),
        exhaustive=search.nodes <= budget and done < solves,
        bounds=bounds,
    )


def _bound_edge(
    bounds: tuple[LineBounds, ...], pays: tuple[int, ...], fixed: Fraction, total: int
) -> Fraction:
    """The candidate's house edge under the reference table's optimal decisions."""
    reached: int = sum(
        b.weight * (p if b.kind is OddsKind.TO else p - 1)
        for b, p in zip(bounds, pays, strict=True)
    )
    return -(reached + fixed) / total

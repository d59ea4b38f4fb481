"""The pay-table designer for a base game with a decision: each candidate re-solved exactly.

A base game's table changes the player's decisions when its pays change, so a new table needs
its optimal strategy re-solved before it is priced.  The tables designed here:

* Let It Ride ``base`` (§ 643a.12: the three bets paid by one table; take back Bet 1, Bet 2);
* Mississippi Stud ``base`` (§ 655a.12(a): the Ante and the street wagers; the street bets);
* Three Card Poker ``ante_bonus`` (§ 649a.12(b)) and Four Card Poker ``ante_bonus``
  (§ 641a.12(b)): paid on a played hand, so folding forfeits it;
* Ultimate Texas Hold 'Em ``blind`` (§ 653a.12(b): paid on a winning hand; every bet).

The search is the side-wager designer's (:mod:`croupier.analysis.designer`) on a cheap bound:
the edge of a candidate *under the reference table's optimal decisions* is linear in its pays
(each line's count of deals times the units it pays on, from the reference par sheet), and
re-solving can only lower it (the optimum is at least as good for the player as any fixed
strategy).  So the search ranks candidates by that bound, and the exact re-solve (the ordinary
par sheet of the game with the candidate in force) runs on the most promising ones only,
skipping any whose bound already lies further below the target than the worst kept candidate;
at most ``solves`` re-solves, each cached.  A Let It Ride candidate is priced as a Rules
Submission (``[custom_paytables.base]``); the others by a
pricing variant of the game with the candidate in force (:func:`croupier.analysis.designer.
with_table`).  A re-solve takes seconds for Let It Ride and Mississippi Stud, the block
solvers' time for Four Card Poker and Ultimate Texas Hold 'Em (tens of seconds each): search
those with a small ``solves``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from croupier.analysis.designer import (
    NODE_BUDGET,
    Candidate,
    Design,
    LineBounds,
    _bounds,
    ranked_tables,
)
from croupier.analysis.par import Outcome, WagerSheet
from croupier.core.errors import InvalidInput
from croupier.games import Game
from croupier.games.paytables import PayTable

__all__ = [
    "MAX_SOLVES",
    "BaseTable",
    "DesignSpace",
    "base_game",
    "base_rules",
    "design_base",
    "is_base",
    "price_base",
]

MAX_SOLVES = 12
"""Exact re-solves at most per search (seconds each for Let It Ride and Mississippi Stud)."""


def base_rules(game: Game, wager: str, candidate: Candidate) -> dict[str, Any]:
    """The Rules Submission of ``game`` with the candidate's table for ``wager``."""
    lines = {
        b.hand: f"{p} {b.kind.value} {b.denominator}"
        for b, p in zip(candidate.lines, candidate.pays, strict=True)
    }
    raw = dict(game.rules.raw)
    custom = dict(raw.get("custom_paytables", {}))
    custom[wager] = lines
    return {**raw, "game": game.slug, "custom_paytables": custom}


def words(hand: str) -> str:
    """A pay line's key as words (``four_of_a_kind`` -> ``four of a kind``)."""
    return hand.replace("_", " ")


@dataclass(frozen=True, slots=True)
class BaseTable:
    """How one game's base table is designed: the table in force, the line an outcome of the
    reference par sheet is paid by (and on how many units), and the game priced with a
    candidate in force."""

    game: Game
    wager: str
    table: PayTable
    line_of: Callable[[Outcome, frozenset[str]], tuple[str, int] | None]
    priced: Callable[[Candidate], Game]

    def sheet(self, game: Game) -> WagerSheet:
        from croupier.analysis import par_sheet

        sheet = par_sheet(game).base
        assert sheet is not None
        return sheet


@dataclass(frozen=True, slots=True)
class DesignSpace:
    """A game's base-table design face: the wager its base designer re-solves, and that table
    of a game (``None`` where the game has none in force)."""

    wager: str
    table: Callable[[Game], BaseTable | None]


def _spaces() -> list[tuple[str, DesignSpace]]:
    from croupier.analysis.registry import analysis_for, registered

    return [(s, d) for s in registered() if (d := analysis_for(s).designer) is not None]


def base_game(game: Game, wager: str) -> BaseTable:
    """The designable base table of ``game`` named ``wager``, or the refusal saying which."""
    for slug, space in _spaces():
        if slug == game.slug and space.wager == wager:
            found = space.table(game)
            if found is not None:
                return found
    have = ", ".join(f"{slug} {space.wager}" for slug, space in _spaces())
    raise InvalidInput(
        f"{game.slug} {wager!r}: the base-game designer re-solves {have} "
        "(a side wager is designed without --solves)"
    )


def is_base(game: Game, wager: str) -> bool:
    """Whether ``wager`` is a base table of ``game`` this module designs (Let It Ride's and
    Mississippi Stud's ``base`` included: the CLI sends every ``base`` here, for its refusal)."""
    if wager == "base":
        return True
    try:
        base_game(game, wager)
    except InvalidInput:
        return False
    return True


def price_base(base: BaseTable, candidate: Candidate) -> WagerSheet:
    """The ordinary par sheet of the base game with ``candidate`` in force (re-solved)."""
    return base.sheet(base.priced(candidate))


def _exact(base: BaseTable, candidate: Candidate, target: Fraction) -> Candidate:
    sheet = price_base(base, candidate)
    return replace(
        candidate,
        house_edge=sheet.house_edge,
        distance=abs(sheet.house_edge - target),
        hit_frequency=sheet.hit_frequency,
        std_dev=sheet.std_dev,
    )


def _linear(base: BaseTable, sheet: WagerSheet) -> tuple[dict[str, int], Fraction]:
    """Each line's units paid over the reference sheet's deals, and the rest of the summed net
    (everything but the lines' pays)."""
    hands = frozenset(base.table.hands())
    net_of = {ln.hand: ln.odds.net for ln in base.table.lines if ln.odds is not None}
    weights: dict[str, int] = {}
    fixed = Fraction(0)
    for outcome in sheet.outcomes:
        found = base.line_of(outcome, hands)
        if found is None:
            fixed += outcome.net * outcome.weight
            continue
        line, units = found  # net = units x the line's net + the rest
        weights[line] = weights.get(line, 0) + outcome.weight * units
        fixed += (outcome.net - units * net_of[line]) * outcome.weight
    return weights, fixed


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
    base = base_game(game, wager)
    if not -1 < target_edge < 1:
        raise InvalidInput(f"target edge {target_edge} must be between -1 and 1")
    if not 1 <= top <= 100 or not 1 <= solves <= 100:
        raise InvalidInput(f"top {top} and solves {solves} must be from 1 to 100")
    table = base.table
    sheet = base.sheet(game)
    weights, fixed = _linear(base, sheet)
    bounds = _bounds(game, wager, table, weights, constraints or {})
    reference = tuple(ln.odds.numerator for ln in table.lines if ln.odds is not None)
    items, nodes, exhaustive = ranked_tables(
        bounds,
        -target_edge * sheet.total - fixed,
        sheet.total,
        reference,
        max(2 * top, solves),
        budget,
    )
    pool = sorted(items, key=lambda item: (-item[0], -item[1], item[2]))
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
            distance=-distance / sheet.total,
            deviation=-deviation,
            hit_frequency=Fraction(0),
            std_dev=0.0,
            lines=bounds,
        )
        kept.append(_exact(base, cand, target_edge))
        done += 1
        kept.sort(key=lambda c: (c.distance, c.deviation, c.pays))
    return Design(
        game=game.slug,
        wager=wager,
        reference=table.letter,
        target=target_edge,
        candidates=tuple(kept[:top]),
        nodes=nodes,
        exhaustive=exhaustive and done < solves,
        bounds=bounds,
    )


def _bound_edge(
    bounds: tuple[LineBounds, ...], pays: tuple[int, ...], fixed: Fraction, total: int
) -> Fraction:
    """The candidate's house edge under the reference table's optimal decisions."""
    reached = sum((b.weight * b.net(p) for b, p in zip(bounds, pays, strict=True)), Fraction(0))
    return -(reached + fixed) / total

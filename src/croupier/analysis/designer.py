"""The pay-table designer: pay tables of a wager whose exact house edge is nearest a target.

The wager's exact par sheet gives how many of the equally likely deals each pay line wins (and
every other outcome: losses, pushes).  A candidate table keeps the lines, their order and each
line's form (``to 1`` or ``for 1``) and gives every line an integer pay, monotone down the table
(no line pays more than the one above it, by net win).  Its house edge is then exact
arithmetic on those counts; every monotone table is ranked by meeting in the middle
(:mod:`croupier.analysis.designer_search`: the top lines and the bottom lines listed apart), or,
where those lists would be too long, the search walks the lines from the top with a
branch-and-bound on the edge still reachable and solves the last (most frequent) line directly.

Each line's pays are searched within a range: by default the span of the chapter's lettered
tables for that hand widened by a quarter (at least 1) each side; a constraints file narrows or
fixes lines.  Candidates are ranked by distance to the target edge, then by closeness to the
reference table (the one in force).  ``reprice`` prices a candidate by the ordinary par sheet
of a game whose table is the candidate, so a proposal can be checked independently.

Wagers priced as part of a base game with a decision change the optimal strategy when their
pays change: Let It Ride's base table is designed by :mod:`croupier.analysis.designer_base`
(every candidate re-solved); the others (the Ante Bonus, the Blind) are refused here.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from croupier.analysis.par import WagerSheet, exact
from croupier.core.arguments import verify_exact, verify_int, verify_mapping, verify_whole
from croupier.core.errors import InvalidInput, shown_value
from croupier.core.money import Odds, OddsKind
from croupier.games import Game, verify_game
from croupier.games.paytables import PayLine, PayTable

__all__ = ["Candidate", "Design", "LineBounds", "design", "reprice", "with_table"]

NODE_BUDGET = 2_000_000
"""Search nodes at most; a search that stops here says it was not exhaustive."""


@dataclass(frozen=True, slots=True)
class LineBounds:
    """The pays one line may take (integers, in the line's own form)."""

    hand: str
    kind: OddsKind
    low: int
    high: int
    weight: int
    denominator: int = 1
    """The line pays ``pay to/for denominator`` (1 but for a line at the reference's own
    fractional odds, e.g. the Blind's flush at 3 to 2)."""

    def net(self, pay: int) -> Fraction:
        ratio = Fraction(pay, self.denominator)
        return ratio if self.kind is OddsKind.TO else ratio - 1

    def pay(self, pay: int) -> str:
        """The pay as the table writes it (``3`` or ``3/2``)."""
        return str(pay) if self.denominator == 1 else f"{pay}/{self.denominator}"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A proposed pay table and its exact figures."""

    pays: tuple[int, ...]
    house_edge: Fraction
    distance: Fraction
    deviation: Fraction
    hit_frequency: Fraction
    std_dev: float
    lines: tuple[LineBounds, ...] = field(repr=False)

    def name(self) -> str:
        return "-".join(b.pay(p) for b, p in zip(self.lines, self.pays, strict=True))

    def table(self, wager: str) -> PayTable:
        return PayTable(
            wager=wager,
            letter=self.name(),
            section="designed",
            lines=tuple(
                PayLine(hand=b.hand, odds=Odds(p, b.denominator, b.kind))
                for b, p in zip(self.lines, self.pays, strict=True)
            ),
            verified=False,
            note="proposed by croupier design",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.name(),
            "lines": {
                b.hand: f"{p} {b.kind.value} {b.denominator}"
                for b, p in zip(self.lines, self.pays, strict=True)
            },
            "house_edge": float(self.house_edge),
            "house_edge_exact": exact(self.house_edge),
            "hit_frequency": float(self.hit_frequency),
            "std_dev": self.std_dev,
        }


@dataclass(frozen=True, slots=True)
class Design:
    """The ranked candidates of one search."""

    game: str
    wager: str
    reference: str
    target: Fraction
    candidates: tuple[Candidate, ...]
    nodes: int
    exhaustive: bool
    bounds: tuple[LineBounds, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "wager": self.wager,
            "reference": self.reference,
            "target_edge": float(self.target),
            "target_edge_exact": exact(self.target),
            "searched_nodes": self.nodes,
            "exhaustive": self.exhaustive,
            "ranges": {b.hand: [b.low, b.high] for b in self.bounds},
            "candidates": [c.to_json() for c in self.candidates],
        }


# --------------------------------------------------------------------------------------------
# What the search needs: the lines, their counts, the rest of the outcomes


def _sheet(game: Game, wager: str) -> WagerSheet:
    from croupier.analysis import par_sheet

    sheet = par_sheet(game).wagers.get(wager)
    if sheet is None:
        offered = ", ".join(w for w in game.paytables if game.paytable(w) is not None)
        raise InvalidInput(
            f"{game.slug} {wager!r} has no sheet of its own: it is part of the base game "
            f"(a decision depends on it) or not offered; the designer prices side wagers "
            f"({offered})"
        )
    return sheet


def _letters_span(game: Game, wager: str, hand: str) -> tuple[int, int] | None:
    pays = [
        ln.odds.numerator
        for table in game.paytables.get(wager, {}).values()
        for ln in table.lines
        if ln.hand == hand and ln.odds is not None and ln.odds.denominator == 1
    ]
    return (min(pays), max(pays)) if pays else None


def _bounds(
    game: Game, wager: str, table: PayTable, weights: Mapping[str, int], limits: Mapping[str, Any]
) -> tuple[LineBounds, ...]:
    unknown = sorted(set(limits) - set(table.hands()))
    if unknown:
        raise InvalidInput(
            f"constraints name {', '.join(unknown)}: not lines of {wager} "
            f"({', '.join(table.hands())})"
        )
    out: list[LineBounds] = []
    letters = game.paytables.get(wager, {}).values()
    for line in table.lines:
        if line.odds is None:
            raise InvalidInput(f"{wager} line {line.hand} pays {line.describe()}: not fixed odds")
        den = line.odds.denominator
        if den != 1:  # fractional odds (the Blind's flush, 3 to 2): kept unless constrained
            low = high = line.odds.numerator
        else:
            span = _letters_span(game, wager, line.hand) or (line.odds.numerator,) * 2
            low = max(1, span[0] - max(1, span[0] // 4))
            high = span[1] + max(1, span[1] // 4)
        # a line another lettered table of the wager omits may pay nothing ("0 to 1": a push,
        # as under that table: the Blind's straight, § 653a.12(b) table B)
        least = 0 if line.odds.kind is OddsKind.TO and _omitted(letters, line.hand) else 1
        if least == 0:
            low = 0
        rule = limits.get(line.hand, {})
        if not isinstance(rule, Mapping):
            raise InvalidInput(f"constraint for {line.hand} must be a table (min, max or fixed)")
        if "fixed" in rule:
            low = high = _pay(rule["fixed"], f"{line.hand}.fixed", least)
        low = _pay(rule.get("min", low), f"{line.hand}.min", least)
        high = _pay(rule.get("max", high), f"{line.hand}.max", least)
        if low > high:
            raise InvalidInput(f"constraint for {line.hand}: min {low} is above max {high}")
        out.append(
            LineBounds(
                hand=line.hand,
                kind=line.odds.kind,
                low=low,
                high=high,
                weight=weights.get(line.hand, 0),
                denominator=den,
            )
        )
    return tuple(out)


def _omitted(tables: Iterable[PayTable], hand: str) -> bool:
    return any(hand not in table.hands() for table in tables)


def _pay(value: object, what: str, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= 10**6:
        raise InvalidInput(
            f"constraint {what} {value!r} must be a whole number from {least} to 1000000"
        )
    return value


# --------------------------------------------------------------------------------------------
# The search


@dataclass
class _Search:
    bounds: tuple[LineBounds, ...]
    target: Fraction  # the sum of weight * net the lines should reach
    total: int
    reference: tuple[int, ...]
    top: int
    budget: int
    heap: list[tuple[Fraction, Fraction, tuple[int, ...]]] = field(default_factory=list)
    nodes: int = 0

    def worst(self) -> Fraction | None:
        return -self.heap[0][0] if len(self.heap) >= self.top else None

    def offer(self, pays: tuple[int, ...], reached: Fraction) -> None:
        distance = abs(reached - self.target)
        deviation = sum(
            (Fraction(abs(p - r), r) for p, r in zip(pays, self.reference, strict=True)),
            Fraction(0),
        )
        item = (-distance, -deviation, pays)
        if len(self.heap) < self.top:
            heapq.heappush(self.heap, item)
        elif item > self.heap[0]:
            heapq.heapreplace(self.heap, item)

    def run(
        self, index: int, cap: Fraction | None, partial: Fraction, pays: tuple[int, ...]
    ) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            return
        line = self.bounds[index]
        high = line.high if cap is None else min(line.high, _pay_for_net(line, cap))
        if high < line.low:
            return
        if index == len(self.bounds) - 1:
            self._last(line, high, partial, pays)
            return
        rest = self.bounds[index + 1 :]
        low_rest = sum(b.weight * b.net(b.low) for b in rest)
        for pay in range(line.low, high + 1):
            net = line.net(pay)
            here = partial + line.weight * net
            high_rest = sum(b.weight * min(b.net(b.high), net) for b in rest)
            worst = self.worst()
            if worst is not None:
                gap: Fraction = max(
                    here + low_rest - self.target, self.target - here - high_rest, Fraction(0)
                )
                if gap > worst:
                    continue
            self.run(index + 1, net, here, (*pays, pay))

    def _last(self, line: LineBounds, high: int, partial: Fraction, pays: tuple[int, ...]) -> None:
        if line.weight == 0:
            self.offer((*pays, line.low), partial)
            return
        ideal_net = (self.target - partial) / line.weight
        ideal = (ideal_net if line.kind is OddsKind.TO else ideal_net + 1) * line.denominator
        nearest = {min(max(near, line.low), high) for near in (math.floor(ideal), math.ceil(ideal))}
        for pay in sorted(nearest):  # each pay once, where both round to the same bound
            self.offer((*pays, pay), partial + line.weight * line.net(pay))


def _pay_for_net(line: LineBounds, net: Fraction) -> int:
    """The largest pay of ``line`` whose net is at most ``net``."""
    return math.floor((net if line.kind is OddsKind.TO else net + 1) * line.denominator)


def design(
    game: Game,
    wager: str,
    target_edge: Fraction,
    *,
    constraints: Mapping[str, Any] | None = None,
    top: int = 10,
    budget: int = NODE_BUDGET,
) -> Design:
    """The ``top`` pay tables of ``wager`` whose exact house edge is nearest ``target_edge``.

    ``constraints``: ``{hand: {"min": n, "max": n} | {"fixed": n}}`` on the lines' pays."""
    game = verify_game(game)
    target_edge = verify_exact(target_edge, what="target edge")
    verify_int(top, what="top")
    verify_whole(budget, what="budget")
    if constraints is not None:
        verify_mapping(constraints, what="constraints")
    if not -1 < target_edge < 1:
        raise InvalidInput(f"target edge {shown_value(target_edge)} must be between -1 and 1")
    if not 1 <= top <= 1000:
        raise InvalidInput(f"top {shown_value(top)} must be from 1 to 1000")
    table = game.paytable(wager)
    if table is None:
        raise InvalidInput(
            f"{game.slug} offers no pay table for {wager!r} under these rules "
            f"(choose one with --paytable {wager}=LETTER)"
        )
    sheet = _sheet(game, wager)
    hands = set(table.hands())
    weights: dict[str, int] = {}
    fixed = Fraction(0)
    for outcome in sheet.outcomes:
        if outcome.name in hands:
            weights[outcome.name] = weights.get(outcome.name, 0) + outcome.weight
        else:
            fixed += outcome.net * outcome.weight
    bounds = _bounds(game, wager, table, weights, constraints or {})
    total = sheet.total
    reference = tuple(ln.odds.numerator for ln in table.lines if ln.odds is not None)
    items, nodes, exhaustive = ranked_tables(
        bounds, -target_edge * total - fixed, total, reference, top, budget
    )
    candidates = [
        _candidate(bounds, pays, sheet, hands, Fraction(-d), Fraction(-dev), target_edge)
        for d, dev, pays in items
    ]
    candidates.sort(key=lambda c: (c.distance, c.deviation, c.pays))
    return Design(
        game=game.slug,
        wager=wager,
        reference=table.letter,
        target=target_edge,
        candidates=tuple(candidates),
        nodes=nodes,
        exhaustive=exhaustive,
        bounds=bounds,
    )


def ranked_tables(
    bounds: tuple[LineBounds, ...],
    target: Fraction,
    total: int,
    reference: tuple[int, ...],
    top: int,
    budget: int,
) -> tuple[list[tuple[Fraction, Fraction, tuple[int, ...]]], int, bool]:
    """The ``top`` monotone tables whose summed net is nearest ``target`` as ``(-distance,
    -deviation, pays)``, the tables or nodes walked, and whether the search was exhaustive:
    every table listed by meeting in the middle
    (:func:`croupier.analysis.designer_search.nearest_tables`), or, where its lists would be
    too long, the branch and bound within ``budget`` nodes."""
    from croupier.analysis.designer_search import nearest_tables

    found = nearest_tables(bounds, target, reference, top)
    if found is not None:
        items, listed = found
        return items, listed, True
    search = _Search(
        bounds=bounds, target=target, total=total, reference=reference, top=top, budget=budget
    )
    search.run(0, None, Fraction(0), ())
    return search.heap, min(search.nodes, budget), search.nodes <= budget


def _candidate(
    bounds: tuple[LineBounds, ...],
    pays: tuple[int, ...],
    sheet: WagerSheet,
    hands: set[str],
    distance: Fraction,
    deviation: Fraction,
    target: Fraction,
) -> Candidate:
    net_of = {b.hand: b.net(p) for b, p in zip(bounds, pays, strict=True)}
    total = sheet.total
    mean = second = Fraction(0)
    hits = 0
    for o in sheet.outcomes:
        net = Fraction(net_of[o.name]) if o.name in hands else o.net
        mean += net * o.weight
        second += net * net * o.weight
        hits += o.weight if net > 0 else 0
    mean /= total
    edge = -mean
    return Candidate(
        pays=pays,
        house_edge=edge,
        distance=abs(edge - target),
        deviation=deviation,
        hit_frequency=Fraction(hits, total),
        std_dev=math.sqrt(second / total - mean * mean),
        lines=bounds,
    )


# --------------------------------------------------------------------------------------------
# Independent re-pricing


def with_table(game: Game, table: PayTable) -> Game:
    """``game`` with ``table`` in force for its wager (a variant for pricing only)."""
    base = type(game)

    def paytable(self: Game, wager: str) -> PayTable | None:
        return table if wager == table.wager else base.paytable(self, wager)

    variant = type(f"Designed{base.__name__}", (base,), {"paytable": paytable})
    return variant(game.rules)  # type: ignore[no-any-return]


def reprice(game: Game, candidate: Candidate, wager: str) -> WagerSheet:
    """The ordinary par sheet of ``wager`` with the candidate's table in force."""
    from croupier.analysis import par_sheet

    sheet = par_sheet(with_table(game, candidate.table(wager)), wagers=[wager])
    return sheet.wagers[wager]

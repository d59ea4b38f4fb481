"""The money oracle end to end: every game of the demo floor played by the oracle's players,
every round settled offline and compared, the audit run, the counts kept.

``run_oracle(url, db_url, size, directory)`` plays each game at its demo table (a table whose
id is the game's slug) with ``size.players`` players enrolled for that game alone, so every
finding of the audit that names a round, a table or a player names one game.  Paths are
chosen deterministically: each seat of a round takes the path that is least covered (in
``cells`` mode the path with the most outcome classes still missing), so every path is played
before any is played twice; the supervisor voids rounds of each game at the phases its rounds go
through, taken in turn.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from live.oracle_check import (
    Counts,
    Finding,
    Replay,
    audit_cli,
    audit_findings,
    check_round,
    check_session,
    replay_all,
)
from live.oracle_games import GAMES, GamePlan
from live.oracle_games import Path as DecisionPath
from live.oracle_play import Floor, PlayedRound, TableSession
from live.oracle_stacks import CASES, play_cases, stacking

__all__ = ["NO_STACKING", "OracleReport", "Size", "run_oracle"]

NO_STACKING = (
    "the server has no training tables: the new-round body of its /openapi.json takes no "
    "'stack' (issue 35, contract 3)"
)


@dataclass(frozen=True)
class Size:
    """How much the oracle plays at each game."""

    players: int = 4
    players_at: Mapping[str, int] = field(default_factory=dict)
    """Per game, another number of players (at least two)."""
    mode: str = "paths"
    """``paths``: until every decision path was played once; ``cells``: until every cell
    (path x outcome class) was seen; ``rounds``: ``rounds`` rounds."""
    rounds: int = 1
    max_rounds: int = 40
    voids: int = 1
    """Rounds voided by the supervisor at each game (phases in turn)."""
    until: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Per game, facts to play on until seen (:meth:`Counts.facts`: ``wager:result`` from
    the server's settlements, ``shoe:card-repeated``)."""
    seconds: float | None = None
    """Stop starting rounds at a game after this many seconds at it."""
    games: tuple[str, ...] = tuple(GAMES)
    cases: tuple[str, ...] = tuple(case.name for case in CASES)
    """The training cases to play (:data:`live.oracle_stacks.CASES`, by name)."""


@dataclass
class OracleReport:
    findings: list[Finding]
    counts: Counts
    audit: list[str]
    unfinished: dict[str, list[str]]
    """Per game, what the size asked for and the run did not reach (bounded by count/time)."""
    offered: dict[str, list[str]] = field(default_factory=dict)
    """Per game, every wager its demo table offers (``GET /api/tables/{id}``'s ``wagers``)."""
    cases: dict[str, list[str]] = field(default_factory=dict)
    """Each training case played: its problems (:mod:`live.oracle_stacks`)."""
    case_rounds: dict[str, int] = field(default_factory=dict)
    """Each training case played: its rounds (a shoe case's coups)."""
    seconds: float = 0.0

    def for_game(self, game: str) -> tuple[list[Finding], list[str]]:
        """The game's findings and the audit findings naming its table, rounds or players."""
        return [f for f in self.findings if f.game == game], [a for a in self.audit if game in a]

    def unattributed_audit(self) -> list[str]:
        return [a for a in self.audit if not any(g in a for g in GAMES)]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.counts.to_json(),
            "findings": [str(f) for f in self.findings],
            "audit_findings": self.audit,
            "unfinished": self.unfinished,
            "training_cases": self.cases,
            "training_rounds": sum(self.case_rounds.values()),
            "training_rounds_by_case": self.case_rounds,
            "seconds": round(self.seconds, 1),
        }

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1))


def _targets(
    plan: GamePlan, seats: Sequence[int], live: Counts, size: Size, turn: int
) -> dict[int, DecisionPath]:
    """Each seat's path.  By paths or cells: the least covered first (most cells missing,
    then least played, then the plan's order from ``turn``).  By rounds: paths spread evenly
    over the plan, turning round by round."""
    n = len(plan.paths)
    if size.mode == "rounds":
        return {seat: plan.paths[(i * n // len(seats) + turn) % n] for i, seat in enumerate(seats)}
    missing = Counter(c.split(" | ")[0] for c in live.missing_cells(plan.game))
    played = live.paths.get(plan.game, Counter())

    def rank(k: int) -> tuple[int, int, int]:
        name = " / ".join(plan.paths[k]) or "(no decision)"
        need = missing[name] if size.mode == "cells" else 0
        return (-need, played[name], (k - turn) % n)

    order = sorted(range(n), key=rank)
    return {seat: plan.paths[order[i % n]] for i, seat in enumerate(seats)}


def _wanted(plan: GamePlan, live: Counts, size: Size, rounds: int) -> list[str]:
    """What the size still asks for at this game."""
    game = plan.game
    want: list[str] = []
    if size.mode == "paths":
        played = live.paths.get(game, Counter())
        want += [
            " / ".join(p) or "(no decision)"
            for p in plan.paths
            if (" / ".join(p) or "(no decision)") not in played
        ]
    elif size.mode == "cells":
        want += live.missing_cells(game)
    elif rounds < size.rounds:
        want.append(f"{size.rounds - rounds} more rounds")
    want += sorted(size.until.get(game, frozenset()) - live.facts(game))
    return want


def _void_phase(session: TableSession, turn: int) -> str | None:
    """A phase the table's rounds go through before settlement, taken in turn (the server
    refuses a void once the phase is ``settlement``: "settlement of the round has begun")."""
    usable = [p for p in session.phases if p not in ("settlement", "over", "void")]
    return usable[turn % len(usable)] if usable else None


def _play_game(
    floor: Floor, table: str, plan: GamePlan, size: Size, n: int
) -> tuple[list[PlayedRound], TableSession, list[str]]:
    deadline = None if size.seconds is None else time.monotonic() + size.seconds
    count = size.players_at.get(plan.game, size.players)
    session = TableSession(floor, table, floor.enrol(f"oracle-{plan.game}", count))
    live = Counts()
    rounds: list[PlayedRound] = []
    voids = 0
    with session.seated():
        while len(rounds) < size.max_rounds:
            if deadline is not None and time.monotonic() > deadline:
                break
            wanted = _wanted(plan, live, size, len(rounds))
            if not wanted and voids >= size.voids:
                break
            void_at = None
            if voids < size.voids and (not wanted or len(rounds) % 2):
                void_at = _void_phase(session, n + voids)
                voids += 1
            targets = _targets(plan, sorted(session.seat_of), live, size, len(rounds))
            played = session.play(targets, void_at)
            live.add(played, Replay(None, ""))
            rounds.append(played)
    left = _wanted(plan, live, size, len(rounds))
    if voids < size.voids:
        left.append(f"{size.voids - voids} more voids")
    return rounds, session, left


def run_oracle(url: str, db_url: str, size: Size, directory: Path) -> OracleReport:
    """Play, replay offline, compare, audit; the findings and the counts."""
    began = time.monotonic()
    floor = Floor(url)
    try:
        tables = {
            t["game"]: t["id"] for t in floor.dealer.get("/api/tables") if t["id"] == t["game"]
        }
        played: list[PlayedRound] = []
        sessions = []
        unfinished: dict[str, list[str]] = {}
        offered: dict[str, list[str]] = {}
        for n, game in enumerate(size.games):
            rounds, session, left = _play_game(floor, tables[game], GAMES[game], size, n)
            offered[game] = list(session.detail["wagers"])
            played += rounds
            sessions.append((session, rounds, session.final_balances()))
            if left:
                unfinished[game] = left
        replays = replay_all(played, directory / "scenarios")
        findings = [f for r in played for f in check_round(r, replays[r.round_id])]
        for session, rounds, final in sessions:
            findings += check_session(session, rounds, replays, final)
        counts = Counts()
        for r in played:
            counts.add(r, replays[r.round_id])
        chosen = tuple(case for case in CASES if case.name in size.cases)
        case_rounds: dict[str, int] = {}
        if stacking(floor.openapi):
            cases, case_rounds = play_cases(floor, chosen, directory)
        else:  # each case fails naming what the server lacks
            cases = {case.name: [NO_STACKING] for case in chosen}
        counts.requests = floor.requests()
        api = floor.auditor.get("/api/audit/verify", scope="all")
        audit = audit_findings(audit_cli(db_url), api)
    finally:
        floor.close()
    return OracleReport(
        findings,
        counts,
        audit,
        unfinished,
        offered,
        cases,
        case_rounds,
        time.monotonic() - began,
    )

"""The money oracle's judge: each round settled offline by the public command line, every chip
compared, and what was covered counted.

Each round's exported scenario is settled by ``croupier replay FILE`` in a process of its own
(the command takes one scenario), and compared with what the live system did:

- ``chips``: each player's balance change over the round equals the replayed ``net`` of the
  player's seats: at a table with deferred commission the ledger's ``player:<id>`` account plus
  its ``commission:<id>`` account (``GET /api/me`` moving as the first, the table's account
  back to zero), elsewhere ``GET /api/me``; over the whole session the ledger accounts moved by
  the sum of the replayed nets, the table's account is back to zero, and each balance after
  leaving the table is the buy-in plus the replayed nets (deferred commission collected);
- ``records``: the replay is over and its settlement is the server's, seat by seat and wager by
  wager; the supervisor's stream carried exactly the replayed records; each player's stream
  carried exactly the replayed settlements of the player's own seats; every meter stands where
  the replay left it;
- ``void``: a round the supervisor voided exports a scenario ``croupier replay`` voids at the
  same point, record for record, and settles as the server did (every open wager returned, a
  fold before the void still a forfeit);
- ``audit``: ``croupier audit verify --db URL`` and ``GET /api/audit/verify?scope=all`` are clean.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from live.oracle_games import GAMES, cells_of, main_result
from live.oracle_play import PlayedRound, TableSession

__all__ = [
    "Counts",
    "Finding",
    "Replay",
    "audit_findings",
    "check_round",
    "check_session",
    "replay_all",
]

SRC = Path(__file__).resolve().parents[2] / "src"


@dataclass(frozen=True)
class Finding:
    """One discrepancy: which check, which game, which round, what differs."""

    check: str
    game: str
    round_id: str | None
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.game} {self.round_id or ''}: {self.message}"


@dataclass(frozen=True)
class Replay:
    """``croupier replay``'s answer: its settlement JSON, or its one-line refusal."""

    out: dict[str, Any] | None
    error: str


def _replay_one(path: Path) -> Replay:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        return Replay(None, f"exit {done.returncode}: {done.stderr.strip()[:500]}")
    return Replay(json.loads(done.stdout), "")


def replay_all(rounds: Sequence[PlayedRound], directory: Path) -> dict[str, Replay]:
    """Every round's scenario written to ``directory`` and replayed (two processes at once)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for played in rounds:
        path = directory / f"{played.round_id}.json"
        path.write_text(json.dumps(played.scenario, indent=1))
        paths.append(path)
    with ThreadPoolExecutor(2) as pool:
        replays = list(pool.map(_replay_one, paths))
    return {p.round_id: r for p, r in zip(rounds, replays, strict=True)}


def _moved(played: PlayedRound, account: str) -> Fraction:
    return played.books_after.get(account, Fraction(0)) - played.books_before.get(
        account, Fraction(0)
    )


def _nets(played: PlayedRound, replay: Replay) -> Mapping[str, Any]:
    """The seats' settlements the chips are held to: the replay's; for a voided round, or a
    round whose export does not replay (each reported apart), the server's own."""
    if replay.out is not None and played.voided_at is None:
        return dict(replay.out["seats"])
    return played.settlement


def _signed(amount: Fraction | int) -> str:
    """``+500``, ``-950``, ``+1/3``: a change of chips, in cents."""
    return f"+{amount}" if amount >= 0 else str(amount)


def check_chips(played: PlayedRound, replay: Replay) -> list[Finding]:
    """Each player's chips against the replayed nets of the player's seats: the ledger's
    player and commission accounts where they were read around the round (and ``/api/me``
    against the ledger), else ``/api/me``, the player's whole account at such a table."""
    out = []
    nets = _nets(played, replay)
    for pid, seats in played.players().items():
        net = sum(int(nets.get(str(s), {}).get("net", 0)) for s in seats)
        seen = played.balances_after[pid] - played.balances_before[pid]
        where = f"seat {'+'.join(map(str, seats))} ({pid})"
        if not played.books_after:
            if seen != net:
                out.append(
                    _chips(
                        played,
                        f"{where}: the balance moved {_signed(seen)}, the "
                        f"replayed net is {_signed(net)}",
                    )
                )
            continue
        ledger = _moved(played, f"player:{pid}")
        books = ledger + _moved(played, f"commission:{pid}")
        if books != net:
            out.append(
                _chips(
                    played,
                    f"{where}: the chips (player and commission accounts) "
                    f"moved {_signed(books)}, the replayed net is "
                    f"{_signed(net)}",
                )
            )
        if seen != ledger:
            out.append(
                _chips(
                    played,
                    f"{where}: /api/me moved {_signed(seen)}, its ledger account {_signed(ledger)}",
                )
            )
    table = played.books_after.get(f"table:{played.table}", Fraction(0))
    if table != 0:
        out.append(_chips(played, f"table:{played.table} holds {table}"))
    return out


def _chips(played: PlayedRound, message: str) -> Finding:
    return Finding("chips", played.game, played.round_id, message)


def _settled(records: Iterable[Mapping[str, Any]], seats: set[str]) -> list[Mapping[str, Any]]:
    return [r for r in records if r.get("kind") == "wager_settled" and str(r.get("seat")) in seats]


def _equal(live: Mapping[str, Any], replayed: Mapping[str, Any]) -> bool:
    return live == replayed


HIDDEN = {"card_hidden": ("to", "note"), "hand_hidden": ("seat", "category")}
"""A record a point of view hides (README: a face-down card it may not see is a
``card_hidden``), and the fields it keeps of the record it stands for (``was``)."""


def _seen_as(live: Mapping[str, Any], replayed: Mapping[str, Any]) -> bool:
    """``live`` is ``replayed`` as a point of view may see it: equal, or its hidden form."""
    kept = HIDDEN.get(str(live.get("kind")))
    if kept is None:
        return live == replayed
    return live.get("was") == replayed.get("kind") and all(
        live.get(k) == replayed.get(k) for k in kept if k in live
    )


def check_records(played: PlayedRound, replay: Replay) -> list[Finding]:
    """The live round against its offline replay: settlement, streams and meters."""
    rid, game = played.round_id, played.game
    if replay.out is None:
        return [Finding("records", game, rid, f"croupier replay refused it: {replay.error}")]
    out = []
    if replay.out.get("phase") != "over":
        out.append(Finding("records", game, rid, f"the replay ends at {replay.out.get('phase')}"))
    for seat in sorted(set(replay.out["seats"]) | set(played.settlement)):
        mine, theirs = played.settlement.get(seat), replay.out["seats"].get(seat)
        if mine != theirs:
            out.append(
                Finding("records", game, rid, f"seat {seat}: server {mine} != replay {theirs}")
            )
    replayed = replay.out["records"]
    for source, records, same in (
        ("GET /api/rounds/{id}/records", played.stored, _equal),
        ("the supervisor's stream", played.records, _seen_as),
    ):
        first = next(
            (n for n, (a, b) in enumerate(zip(records, replayed, strict=False)) if not same(a, b)),
            None if len(records) == len(replayed) else min(len(records), len(replayed)),
        )
        if first is not None:
            out.append(
                Finding(
                    "records",
                    game,
                    rid,
                    f"{source} differs from the replay at record {first}: "
                    f"{records[first : first + 1]} != {replayed[first : first + 1]}",
                ),
            )
    for pid, seats in played.players().items():
        mine_seen = _settled(played.seen.get(pid, []), {str(s) for s in seats})
        replayed = _settled(replay.out["records"], {str(s) for s in seats})
        if mine_seen != replayed:
            out.append(
                Finding(
                    "records",
                    game,
                    rid,
                    f"{pid}'s stream settled {mine_seen}, the replay {replayed}",
                ),
            )
    for meter, moved in replay.out.get("meters", {}).items():
        live = played.meters_after.get(meter)
        if live is not None and live != moved["after"]:
            out.append(
                Finding(
                    "records",
                    game,
                    rid,
                    f"meter {meter} stands at {live}, the replay leaves it at {moved['after']}",
                ),
            )
    return out


def check_void(played: PlayedRound, replay: Replay) -> list[Finding]:
    """A voided round's export, replayed, is voided at the same point, record for record
    (``GET /api/rounds/{id}/records``), and settles every seat as the server did."""
    rid, game = played.round_id, played.game
    where = f"voided by the supervisor at {played.voided_at}"
    if replay.out is None:
        return [
            Finding(
                "void", game, rid, f"{where}: croupier replay refused its export: {replay.error}"
            )
        ]
    out = []
    if replay.out["seats"] != played.settlement:
        out.append(
            Finding(
                "void",
                game,
                rid,
                f"{where}: the replay settles {replay.out['seats']}, "
                f"the server settled {played.settlement}",
            )
        )
    replayed, stored = replay.out["records"], played.stored
    if replayed != stored:
        first = next(
            (n for n, (a, b) in enumerate(zip(stored, replayed, strict=False)) if a != b),
            min(len(stored), len(replayed)),
        )
        out.append(
            Finding(
                "void",
                game,
                rid,
                f"{where}: the replay's records differ from the server's at record {first}: "
                f"{replayed[first : first + 1]} != {stored[first : first + 1]}",
            )
        )
    return out


def check_round(played: PlayedRound, replay: Replay) -> list[Finding]:
    out = check_chips(played, replay)
    if played.voided_at is None:
        out += check_records(played, replay)
    else:
        out += check_void(played, replay)
    return out


def check_session(
    session: TableSession,
    rounds: Sequence[PlayedRound],
    replays: Mapping[str, Replay],
    final: Mapping[str, int],
) -> list[Finding]:
    """Over the table session: each player's ledger accounts (player and commission) moved
    by the replayed nets, the table's account is back to zero, and after the players left
    each balance is where the buy-in and the replayed nets put it (deferred commission
    collected when the player leaves, § 541.13(g))."""
    nets: Counter[str] = Counter()
    for played in rounds:
        settled = _nets(played, replays[played.round_id])
        for pid, seats in played.players().items():
            nets[pid] += sum(int(settled.get(str(s), {}).get("net", 0)) for s in seats)
    start, end = session.books_start, session.books_end
    out = []
    for pid in session.initial:
        books = sum(
            end.get(f"{a}:{pid}", Fraction(0)) - start.get(f"{a}:{pid}", Fraction(0))
            for a in ("player", "commission")
        )
        if books != nets[pid]:
            out.append(
                f"{pid}'s player and commission accounts moved {_signed(books)} over "
                f"{len(rounds)} rounds, the replayed nets sum to {_signed(nets[pid])}"
            )
        left = final[pid] - session.initial[pid]
        if left != nets[pid]:
            out.append(
                f"{pid} left with {_signed(left)} over {len(rounds)} rounds, the "
                f"replayed nets sum to {_signed(nets[pid])}"
            )
    table = end.get(f"table:{session.table}", Fraction(0))
    if table != 0:
        out.append(f"table:{session.table} holds {table} after the session")
    return [Finding("chips", session.game, None, m) for m in out]


def audit_findings(cli: Mapping[str, Any], api: Mapping[str, Any]) -> list[str]:
    """Every finding of ``croupier audit verify --json`` and of ``/api/audit/verify``, as
    text (the tests attribute each to the game whose round, table or player it names)."""
    out = [json.dumps(f, sort_keys=True) for f in cli.get("findings", [])]
    out += [json.dumps(p, sort_keys=True) for p in api.get("problems", [])]
    out += [json.dumps(f, sort_keys=True) for f in api.get("audit", {}).get("findings", [])]
    return out


def audit_cli(db_url: str) -> dict[str, Any]:
    """``croupier audit verify --db URL --json`` (exit 0 clean, 1 with findings)."""
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "audit", "verify", "--db", db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=False,
    )
    if done.returncode not in (0, 1):
        raise AssertionError(f"croupier audit verify: exit {done.returncode}: {done.stderr}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@dataclass
class Counts:
    """What the oracle covered, by game."""

    rounds: Counter[str] = field(default_factory=Counter)
    seat_rounds: Counter[str] = field(default_factory=Counter)
    voids: Counter[str] = field(default_factory=Counter)
    paths: dict[str, Counter[str]] = field(default_factory=dict)
    cells: dict[str, Counter[str]] = field(default_factory=dict)
    wagers: dict[str, Counter[str]] = field(default_factory=dict)
    results: dict[str, Counter[str]] = field(default_factory=dict)
    lines: dict[str, Counter[str]] = field(default_factory=dict)
    categories: dict[str, Counter[str]] = field(default_factory=dict)
    envy: Counter[str] = field(default_factory=Counter)
    repeats: Counter[str] = field(default_factory=Counter)
    """Rounds played out whose deal gave one card twice (a multi-deck shoe)."""
    void_refused: Counter[str] = field(default_factory=Counter)
    handpays: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    stream_events: int = 0

    def add(self, played: PlayedRound, replay: Replay) -> None:
        game = played.game
        self.rounds[game] += 1
        if played.voided_at is not None:
            self.voids[f"{game}@{played.voided_at}"] += 1
        if played.void_refused is not None:
            self.void_refused[f"{game}@{played.void_at}"] += 1
        cards = list(played.scenario.get("cards") or [])
        if len(set(cards)) < len(cards) and played.voided_at is None:
            self.repeats[game] += 1
        self.handpays[game] += len(played.handpays)
        seats = (replay.out or {}).get("seats") or played.settlement
        for seat, play in played.seats.items():
            settled = seats.get(str(seat))
            if settled is None:
                continue
            self.seat_rounds[game] += 1
            self._add_seat(game, play.sent, settled, played.voided_at is None)
        for record in (replay.out or {}).get("records", []):
            if record.get("kind") == "hand_shown":
                self.categories.setdefault(game, Counter())[str(record["category"])] += 1

    def _add_seat(
        self, game: str, sent: Sequence[str], settled: Mapping[str, Any], whole: bool
    ) -> None:
        plan = GAMES[game]
        path = " / ".join(sent) or "(no decision)"
        for name, wager in settled["wagers"].items():
            self.wagers.setdefault(game, Counter())[name] += 1
            self.results.setdefault(game, Counter())[f"{name}:{wager['result']}"] += 1
            if wager.get("line"):
                self.lines.setdefault(game, Counter())[f"{name}:{wager['line']}"] += 1
            if whole and plan.decided is None:
                self.cells.setdefault(game, Counter())[f"{path} | {name}:{wager['result']}"] += 1
        self.envy[game] += len(settled.get("envy", []))
        if not whole:
            return
        self.paths.setdefault(game, Counter())[path] += 1
        result = main_result(plan, settled)
        if result is not None:
            self.cells.setdefault(game, Counter())[f"{path} | {result}"] += 1

    def facts(self, game: str) -> set[str]:
        """What was seen at the game: each ``wager:result``, and ``shoe:card-repeated``."""
        seen = set(self.results.get(game, Counter()))
        return seen | ({"shoe:card-repeated"} if self.repeats[game] else set())

    def missing_cells(self, game: str) -> list[str]:
        """The game's cells (:func:`cells_of`) not yet covered."""
        have = self.cells.get(game, Counter())
        want = {f"{' / '.join(p) or '(no decision)'} | {c}" for p, c in cells_of(GAMES[game])}
        return sorted(want - set(have))

    def to_json(self) -> dict[str, Any]:
        def plain(counter: Mapping[str, int]) -> dict[str, int]:
            return dict(sorted(counter.items()))

        return {
            "rounds": sum(self.rounds.values()),
            "rounds_by_game": plain(self.rounds),
            "seat_rounds_by_game": plain(self.seat_rounds),
            "voids": plain(self.voids),
            "voids_refused": plain(self.void_refused),
            "rounds_dealing_a_card_twice": plain(self.repeats),
            "decision_paths": {g: plain(c) for g, c in sorted(self.paths.items())},
            "decision_paths_covered": {
                g: f"{len(self.paths.get(g, {}))}/{len(GAMES[g].paths)}" for g in sorted(GAMES)
            },
            "cells_covered": {
                g: f"{len(cells_of(GAMES[g])) - len(self.missing_cells(g))}/"
                f"{len(cells_of(GAMES[g]))}"
                for g in sorted(GAMES)
            },
            "wagers": {g: plain(c) for g, c in sorted(self.wagers.items())},
            "results": {g: plain(c) for g, c in sorted(self.results.items())},
            "paid_lines": {g: plain(c) for g, c in sorted(self.lines.items())},
            "hand_categories": {g: plain(c) for g, c in sorted(self.categories.items())},
            "envy_awards": plain(self.envy),
            "handpays": plain(self.handpays),
            "requests": self.requests,
        }

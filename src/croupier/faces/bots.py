"""Bots that play full rounds over the live table API (tests, the benchmark, demos).

A dealer bot opens the round, calls "no more bets" with the progressive chips it counts, deals,
reveals and settles; player bots wager what the engine's house player wagers at that table
(``house_wagers`` of ``GET /api/tables/{id}``) and take the first decision the round accepts of
a fixed list.  Every call goes through :class:`croupier.faces.client.Client`.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier.faces.client import ApiError, Client

__all__ = [
    "DECISIONS",
    "Crew",
    "RoundPlayed",
    "enrol",
    "offered_decision",
    "play_round",
    "play_tables",
]

DECISIONS = ("check", "play 1", "ride", "play", "fold")
"""Decisions a player bot tries in order (a refused decision changes nothing)."""

MAX_STEPS = 500


@dataclass
class RoundPlayed:
    round_id: str
    commands: int
    phase: str
    responses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def _cards_out(view: Mapping[str, Any]) -> int:
    return sum(
        1 for r in view["records"] if r["kind"] in ("card_dealt", "card_hidden", "card_discarded")
    )


def play_round(
    dealer: Client,
    players: Mapping[int, Client],
    table_id: str,
    detail: Mapping[str, Any],
    *,
    log: bool = False,
    deal: Callable[[], Mapping[str, Any]] | None = None,
    sense: Callable[[int], Mapping[str, Any]] | None = None,
    choose: Callable[[int, int], str | None] | None = None,
) -> RoundPlayed:
    """Play one round at ``table_id`` with ``players`` (seat -> client) seated there;
    ``deal``: at a table of real cards, the report of the next card (a reader or the keypad,
    answering with the phase and who acts) in place of the dealer's deal; ``sense``: at a table
    with progressive sensors, the device's report of the chip on a seat's sensor in place of
    the player's progressive wager; ``choose(seat, seq)``: the decision the seat takes once the
    table stands at ``seq`` (as a page's player picks one of the decisions its actions offer),
    ``None`` to try :data:`DECISIONS` in turn."""
    played = RoundPlayed(round_id="", commands=0, phase="")

    def note(name: str, response: dict[str, Any]) -> dict[str, Any]:
        played.commands += 1
        if log:
            played.responses.append((name, response))
        return response

    started = note("round", dealer.new_round(table_id))
    played.round_id = str(started["round_id"])
    chips = 0
    for seat, player in sorted(players.items()):
        for wager, amount in detail["house_wagers"].items():
            if wager == "progressive" and sense is not None:
                note("sensor", dict(sense(seat)))
            else:
                note("wager", player.wager(table_id, wager, amount, seat=seat))
            chips += wager.endswith("progressive")
    last = note("no_more_bets", dealer.no_more_bets(table_id, chips))
    decks = int(detail["rules"].get("table", {}).get("decks", 1))
    for _ in range(MAX_STEPS):
        # Each command's response names the phase and who acts next: no view is fetched
        # except to count the stub.
        phase = str(last["phase"])
        if phase in ("over", "void"):
            played.phase = phase
            return played
        acting = _seat_to_act(last.get("to_act"))
        if phase == "stub_count":
            view = dealer.view(table_id)["round"]
            last = note("stub_count", dealer.stub_count(table_id, 52 * decks - _cards_out(view)))
        elif phase == "dealing" and deal is not None:
            last = note("card", dict(deal()))
        elif acting is not None and phase == "decisions":
            chosen = choose(acting, int(last["seq"])) if choose is not None else None
            if chosen is not None:
                last = note("decision", players[acting].decide(table_id, chosen, seat=acting))
            else:
                last = _decide(players[acting], table_id, acting, note)
        elif phase in ("dealing", "decisions"):
            last = note("deal", dealer.step(table_id, "deal"))
        elif phase == "reveal":
            last = note("reveal", dealer.step(table_id, "reveal"))
        elif phase == "settlement":
            last = note("settle", dealer.step(table_id, "settle"))
        else:
            raise RuntimeError(f"round {played.round_id} stuck in phase {phase}")
    raise RuntimeError(f"round {played.round_id} did not finish in {MAX_STEPS} steps")


def offered_decision(actions: Mapping[str, Any], seat: int) -> str | None:
    """The decision the house play takes from what a seat is offered (``actions``: the answer
    of ``GET /api/tables/{id}/actions``, or the state a table stream carries): the first of
    :data:`DECISIONS` whose text is one of the seat's offered decisions; ``None`` where none is
    (the house play then tries them in turn)."""
    offered = {str(d["decision"]) for d in actions.get("decisions", ()) if d.get("seat") == seat}
    return next((d for d in DECISIONS if d in offered), None)


def _seat_to_act(to_act: object) -> int | None:
    """The seat in a command result's ``to_act`` (``"seat 3"``), if a seat acts."""
    if isinstance(to_act, str) and to_act.startswith("seat "):
        return int(to_act.removeprefix("seat "))
    return None


def _decide(player: Client, table_id: str, seat: int, note: Any) -> dict[str, Any]:
    last: ApiError | None = None
    for decision in DECISIONS:
        try:
            done: dict[str, Any] = note("decision", player.decide(table_id, decision, seat=seat))
            return done
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            last = exc
    assert last is not None
    raise last


@dataclass
class Crew:
    """One table's dealer and seated players (each its own client and token)."""

    table_id: str
    dealer: Client
    players: dict[int, Client]
    detail: dict[str, Any] = field(default_factory=dict)
    passwords: dict[int, str] = field(default_factory=dict)
    """Each seat's player's password (random, made by :func:`enrol`: a client signing in to
    another server process of the floor needs it)."""
    rounds: list[str] = field(default_factory=list)
    commands: int = 0
    handpays: int = 0
    """Hand-pays of this table a supervisor approved so play could go on."""
    error: BaseException | None = None

    def clients(self) -> list[Client]:
        return [self.dealer, *self.players.values()]


def enrol(
    supervisor: Client,
    connect: Callable[[str, str], Client],
    rules: Sequence[Mapping[str, Any]],
    *,
    tables: int,
    seats: int = 7,
    prefix: str = "t",
    buy_in: int = 10_000_000,
    dealer: tuple[str, str] = ("dealer", "dealer-demo"),
    workers: int = 8,
) -> list[Crew]:
    """Create ``tables`` tables (cycling through ``rules``) with ``seats`` enrolled, bought-in,
    logged-in and seated players each; ``connect(username, password)`` logs a client in.
    ``workers`` tables are set up at once."""
    from concurrent.futures import ThreadPoolExecutor

    def one(n: int) -> Crew:
        table_id = f"{prefix}-{n + 1}"
        supervisor.new_table(table_id, table_id, rules[n % len(rules)])
        players: dict[int, Client] = {}
        passwords: dict[int, str] = {}
        for seat in range(1, seats + 1):
            pid = f"{table_id}-p{seat}"
            password = secrets.token_urlsafe(16)  # each bot its own (croupier.server.passwords)
            supervisor.new_player(pid, pid, pid, password)
            supervisor.buy_in(pid, buy_in)
            player = connect(pid, password)
            player.sit(table_id, seat)
            players[seat] = player
            passwords[seat] = password
        crew = Crew(table_id, connect(*dealer), players, passwords=passwords)
        crew.detail = crew.dealer.table(table_id)
        return crew

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(one, range(tables)))


def approve_pending(supervisor: Client, table_id: str) -> int:
    """Approve every hand-pay waiting at ``table_id`` (§ 641a.11(c)(5) and its parallels: the
    next round waits for it); how many."""
    pending = [
        h for h in supervisor.handpays() if h["status"] == "pending" and h["table_id"] == table_id
    ]
    for pay in pending:
        supervisor.approve(pay["id"])
    return len(pending)


def play_tables(
    crews: Sequence[Crew],
    *,
    rounds: int | None = None,
    seconds: float | None = None,
    supervisor: Client | None = None,
) -> None:
    """Play every crew's table at once (a thread each): ``rounds`` rounds, or rounds until
    ``seconds`` have passed (a round in progress finishes).  With a ``supervisor``, a round
    refused at its start because a hand-pay waits for approval is started again once the
    supervisor has approved it (without one, that refusal is the crew's error)."""
    if rounds is None and seconds is None:
        raise ValueError("give rounds or seconds")
    deadline = time.monotonic() + seconds if seconds is not None else None

    def work(crew: Crew) -> None:
        try:
            while (rounds is None or len(crew.rounds) < rounds) and (
                deadline is None or time.monotonic() < deadline
            ):
                try:
                    played = play_round(crew.dealer, crew.players, crew.table_id, crew.detail)
                except ApiError as exc:
                    if supervisor is not None and exc.status == 409:
                        approved = approve_pending(supervisor, crew.table_id)
                        if approved:
                            crew.handpays += approved
                            continue
                    raise
                crew.rounds.append(played.round_id)
                crew.commands += played.commands
        except BaseException as exc:  # reported by the caller
            crew.error = exc

    threads = [threading.Thread(target=work, args=(crew,), daemon=True) for crew in crews]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

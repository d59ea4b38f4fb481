"""Bots that play full rounds over the live table API (tests, the benchmark, demos).

A dealer bot opens the round, calls "no more bets" with the progressive chips it counts, deals,
reveals and settles; player bots wager what the engine's house player wagers at that table
(``house_wagers`` of ``GET /api/tables/{id}``) and take the first decision the round accepts of
a fixed list.  Every call goes through :class:`croupier.client.Client`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.client import ApiError, Client

__all__ = ["DECISIONS", "RoundPlayed", "play_round"]

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
) -> RoundPlayed:
    """Play one round at ``table_id`` with ``players`` (seat -> client) seated there."""
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
            note("wager", player.wager(table_id, wager, amount, seat=seat))
            chips += wager.endswith("progressive")
    note("no_more_bets", dealer.no_more_bets(table_id, chips))
    decks = int(detail["rules"].get("table", {}).get("decks", 1))
    for _ in range(MAX_STEPS):
        view = dealer.view(table_id)["round"]
        phase = view["phase"]
        if phase in ("over", "void"):
            played.phase = phase
            return played
        seat = view["to_act_seat"]
        if phase == "stub_count":
            note("stub_count", dealer.stub_count(table_id, 52 * decks - _cards_out(view)))
        elif seat is not None and phase == "decisions":
            _decide(players[int(seat)], table_id, int(seat), note)
        elif phase in ("dealing", "decisions"):
            note("deal", dealer.step(table_id, "deal"))
        elif phase == "reveal":
            note("reveal", dealer.step(table_id, "reveal"))
        elif phase == "settlement":
            note("settle", dealer.step(table_id, "settle"))
        else:
            raise RuntimeError(f"round {played.round_id} stuck in phase {phase}")
    raise RuntimeError(f"round {played.round_id} did not finish in {MAX_STEPS} steps")


def _decide(player: Client, table_id: str, seat: int, note: Any) -> None:
    last: ApiError | None = None
    for decision in DECISIONS:
        try:
            note("decision", player.decide(table_id, decision, seat=seat))
            return
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            last = exc
    assert last is not None
    raise last

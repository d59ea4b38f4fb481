"""Rounds played to a chosen phase over the API, and the same round played uninterrupted in
process from its persisted shoe (the crash-recovery tests compare the two).

Both drivers follow one fixed policy, independent of the cards: each seat wagers the table's
house wagers in seat order, the dealer calls "no more bets" with one progressive chip per
progressive wager, a seat takes the first decision of :data:`croupier.bots.DECISIONS` the round
accepts, the stub count is the cards left in the shoe (as the view shows them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.bots import DECISIONS
from croupier.client import ApiError, Client
from croupier.errors import CroupierError
from croupier.games.records import (
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Record,
)
from croupier.games.round import ActorKind, Round
from croupier.progressive import MemoryMeters
from croupier.store import RoundStore

__all__ = ["Crew", "Played", "drive", "uninterrupted", "without_meter_amounts"]

MAX_COMMANDS = 300


@dataclass
class Crew:
    """One table: its dealer, its seated players (seat -> client) and its detail."""

    table_id: str
    dealer: Client
    players: dict[int, Client]
    detail: dict[str, Any]


def _decide(crew: Crew, seat: int) -> None:
    for decision in DECISIONS:
        try:
            crew.players[seat].decide(crew.table_id, decision, seat=seat)
            return
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
    raise AssertionError(f"{crew.table_id}: seat {seat} found no decision the round accepts")


def _bet(crew: Crew) -> None:
    for seat, player in sorted(crew.players.items()):
        for wager, amount in crew.detail["house_wagers"].items():
            player.wager(crew.table_id, wager, amount, seat=seat)


def _progressive_chips(crew: Crew) -> int:
    wagers = crew.detail["house_wagers"]
    return len(crew.players) * sum(1 for w in wagers if w.endswith("progressive"))


def drive(crew: Crew, stop: str | None = None) -> str:
    """Play the table's round in play until it reaches phase ``stop`` (``betting``: once the
    wagers are down) or ends; returns the phase it stopped in."""
    t = crew.table_id
    for _ in range(MAX_COMMANDS):
        rnd = crew.dealer.view(t)["round"]
        phase = rnd["phase"]
        if phase in ("over", "void"):
            return str(phase)
        if phase == stop and (phase != "betting" or rnd["stakes"]):
            return str(phase)
        seat = rnd["to_act_seat"]
        if phase == "betting":
            if rnd["stakes"]:
                crew.dealer.no_more_bets(t, _progressive_chips(crew))
            else:
                _bet(crew)
        elif phase == "stub_count":
            crew.dealer.stub_count(t, int(rnd["cards_left"]))
        elif seat is not None and phase == "decisions":
            _decide(crew, int(seat))
        elif phase in ("dealing", "decisions"):
            crew.dealer.step(t, "deal")
        else:
            crew.dealer.step(t, {"reveal": "reveal", "settlement": "settle"}[phase])
    raise AssertionError(f"{t}: the round did not reach {stop or 'its end'}")


def _decide_in_process(rnd: Round, seat: int) -> None:
    for decision in DECISIONS:
        try:
            rnd.apply(rnd.parse_decision(seat, decision))
            return
        except CroupierError:
            continue
    raise AssertionError(f"seat {seat} found no decision the round accepts")


@dataclass
class Played:
    round: Round
    phases: set[str]
    """The phases the round stood in between two commands of :func:`drive`."""


def uninterrupted(store: RoundStore, round_id: str, house_wagers: Mapping[str, int]) -> Played:
    """The round ``round_id`` played from start to end without a stop, dealing from the shoe
    order the store persisted when it began, by the same policy as :func:`drive` (meters in
    memory, from where the stored round first found them)."""
    info = store.info(round_id)
    stored = store.load(round_id)
    persisted = store.shoe(round_id)
    assert persisted is not None, f"{round_id}: no persisted shoe"
    start: dict[str, int] = {}
    for rec in stored:
        if isinstance(rec, MeterChanged) and rec.meter not in start:
            start[rec.meter] = rec.before
    rnd = store.game(round_id).new_round(
        shoe=persisted.rebuild(),
        meters=MemoryMeters(start),
        players=info.players,
        stub_check=info.stub_check,
        mode=info.mode,
    )
    chips = sum(1 for w in house_wagers if w.endswith("progressive")) * len(info.players)
    for seat in sorted(info.players):
        for wager, amount in house_wagers.items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    phases = {rnd.phase.value}
    rnd.apply(NoMoreBets(progressive_chips=chips))
    for _ in range(MAX_COMMANDS):
        if rnd.is_over:
            return Played(rnd, phases)
        phases.add(rnd.phase.value)
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            _decide_in_process(rnd, actor.seat)
        else:
            rnd.apply(rnd.dealer_step())
    raise AssertionError(f"{round_id}: the uninterrupted round did not end")


def without_meter_amounts(records: list[Record] | tuple[Record, ...]) -> list[Record]:
    """The records but the meter moves' amounts (a linked meter also moves by other tables'
    contributions between two records of this round; the round's own are in its settlement)."""
    return [r for r in records if not isinstance(r, MeterChanged)]

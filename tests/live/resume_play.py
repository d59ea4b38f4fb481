"""Rounds played to a chosen phase over the API, and the same round played uninterrupted in
process from its persisted shoe (the crash-recovery tests compare the two).

Both drivers follow one fixed policy, independent of the cards: each seat wagers its wagers
(:attr:`Crew.wagers`) in seat order, the dealer calls "no more bets" with one progressive chip
per progressive wager, a seat takes the first decision of :data:`croupier.faces.bots.DECISIONS` the
round accepts, the dealer counts the stub as the cards left in the shoe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.core.errors import CroupierError
from croupier.faces.bots import DECISIONS
from croupier.faces.client import ApiError, Client
from croupier.games import Game
from croupier.games.records import MeterChanged, NoMoreBets, PlaceWager, Record
from croupier.games.round import ActorKind, Round
from croupier.rules.progressive import MemoryMeters
from croupier.store import RoundStore
from croupier.table.shoe import SecureShuffler, Shoe

__all__ = [
    "Crew",
    "Played",
    "drive",
    "reachable_phases",
    "uninterrupted",
    "without_meter_amounts",
]

MAX_COMMANDS = 300
Wagers = Mapping[int, Mapping[str, int]]
"""Seat -> wager -> cents."""


@dataclass
class Crew:
    """One table: its dealer, its seated players (seat -> client), its detail and what each
    seat wagers."""

    table_id: str
    dealer: Client
    players: dict[int, Client]
    detail: dict[str, Any]
    wagers: dict[int, dict[str, int]]


def _chips(wagers: Wagers) -> int:
    return sum(1 for seat in wagers.values() for w in seat if w.endswith("progressive"))


def _decide(crew: Crew, seat: int) -> None:
    for decision in DECISIONS:
        try:
            crew.players[seat].decide(crew.table_id, decision, seat=seat)
            return
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
    raise AssertionError(f"{crew.table_id}: seat {seat} found no decision the round accepts")


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
                crew.dealer.no_more_bets(t, _chips(crew.wagers))
            else:
                for s, wagers in sorted(crew.wagers.items()):
                    for wager, amount in wagers.items():
                        crew.players[s].wager(t, wager, amount, seat=s)
        elif phase == "stub_count":
            crew.dealer.stub_count(t, int(rnd["cards_left"]))
        elif seat is not None and phase == "decisions":
            _decide(crew, int(seat))
        elif phase in ("dealing", "decisions"):
            crew.dealer.step(t, "deal")
        else:
            crew.dealer.step(t, {"reveal": "reveal", "settlement": "settle"}[phase])
    raise AssertionError(f"{t}: the round did not reach {stop or 'its end'}")


@dataclass
class Played:
    round: Round
    phases: set[str]
    """The phases the round stood in between two commands of :func:`drive`."""


def _decide_in_process(rnd: Round, seat: int) -> None:
    for decision in DECISIONS:
        try:
            rnd.apply(rnd.parse_decision(seat, decision))
            return
        except CroupierError:
            continue
    raise AssertionError(f"seat {seat} found no decision the round accepts")


def play(rnd: Round, wagers: Wagers) -> Played:
    """Play the new round ``rnd`` to its end by the policy of :func:`drive`."""
    for seat in sorted(wagers):
        for wager, amount in wagers[seat].items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    phases = {rnd.phase.value}
    rnd.apply(NoMoreBets(progressive_chips=_chips(wagers)))
    for _ in range(MAX_COMMANDS):
        if rnd.is_over:
            return Played(rnd, phases)
        phases.add(rnd.phase.value)
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            _decide_in_process(rnd, actor.seat)
        else:
            rnd.apply(rnd.dealer_step())
    raise AssertionError("the round did not end")


def uninterrupted(store: RoundStore, round_id: str, wagers: Wagers) -> Played:
    """The round ``round_id`` played from start to end without a stop, dealing from the shoe
    order the store persisted when it began, by the policy of :func:`drive` (meters in memory,
    from where the stored round first found them)."""
    info = store.info(round_id)
    persisted = store.shoe(round_id)
    assert persisted is not None, f"{round_id}: no persisted shoe"
    start: dict[str, int] = {}
    for rec in store.load(round_id):
        if isinstance(rec, MeterChanged) and rec.meter not in start:
            start[rec.meter] = rec.before
    rnd = store.game(round_id).new_round(
        shoe=persisted.rebuild(),
        meters=MemoryMeters(start),
        players=info.players,
        stub_check=info.stub_check,
        mode=info.mode,
    )
    return play(rnd, wagers)


def reachable_phases(game: Game, wagers: Wagers, rounds: int = 40) -> set[str]:
    """The phases rounds of ``game`` stand in between commands under the policy (``rounds``
    rounds from fresh shoes)."""
    seen: set[str] = set()
    players = {seat: f"p{seat}" for seat in wagers}
    for _ in range(rounds):
        shoe = Shoe.shuffled(SecureShuffler(), decks=game.deck_count)
        rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players=players)
        seen |= play(rnd, wagers).phases
    return seen


def without_meter_amounts(records: list[Record] | tuple[Record, ...]) -> list[Record]:
    """The records but the meter moves (a linked meter also moves by other tables'
    contributions between two records of this round; the round's own are in its settlement)."""
    return [r for r in records if not isinstance(r, MeterChanged)]

"""Game recall: rounds rebuilt from their stored records, and a round as a scenario JSON that
``croupier replay`` settles identically."""

from __future__ import annotations

from typing import Any

from croupier.games.records import (
    CardDealt,
    CardDiscarded,
    MeterChanged,
    NoMoreBetsCalled,
    Record,
    WagerPlaced,
    record_to_json,
)
from croupier.store import RoundStore, StoredRound

__all__ = ["DECISION_WORDS", "scenario_of"]

DECISION_WORDS: dict[str, str] = {
    "folded": "fold",
    "checked": "check",
    "bet_withdrawn": "pull",
    "bet_ridden": "ride",
    "forfeited_for_collusion": "collusion",
}
"""Decision records and the scenario word that makes them (``play_wagered``: ``play N``)."""


def _decision(record: Record) -> tuple[int, str] | None:
    seat = getattr(record, "seat", None)
    if not isinstance(seat, int):
        return None
    if record.kind == "play_wagered":
        return seat, f"play {getattr(record, 'multiple', 1)}"
    word = DECISION_WORDS.get(record.kind)
    return (seat, word) if word else None


def scenario_of(info: StoredRound, records: list[Record]) -> dict[str, Any]:
    """The scenario of a stored round: its rules, its players' wagers and decisions, the
    cards in the order they left the shoe, the meters as the round found them."""
    rules = {k: v for k, v in info.rules.items() if k != "game"}
    seats: dict[str, dict[str, Any]] = {}
    meters: dict[str, int] = {}
    cards: list[str] = []
    chips: int | None = None
    for rec in records:
        if isinstance(rec, WagerPlaced) and type(rec) is WagerPlaced:
            entry = seats.setdefault(str(rec.seat), {"wagers": {}, "decisions": []})
            entry["wagers"][rec.wager] = rec.amount
        elif isinstance(rec, NoMoreBetsCalled):
            chips = rec.progressive_chips
        elif isinstance(rec, MeterChanged):
            meters.setdefault(rec.meter, rec.before)
        elif isinstance(rec, CardDealt | CardDiscarded):
            cards.append(str(rec.card))
        else:
            decided = _decision(rec)
            if decided is not None:
                seats.setdefault(str(decided[0]), {"wagers": {}, "decisions": []})[
                    "decisions"
                ].append(decided[1])
    for seat, entry in seats.items():
        player = info.players.get(int(seat))
        if player is not None:
            entry["player"] = player
        if not entry["decisions"]:
            del entry["decisions"]
    data: dict[str, Any] = {"game": info.game, "rules": rules, "seats": seats, "cards": cards}
    if meters:
        data["meters"] = meters
    if chips is not None:
        data["progressive_chips"] = chips
    return data


def recall(store: RoundStore, round_id: str) -> dict[str, Any]:
    """A stored round rebuilt from its records: status, settlement and records."""
    info = store.info(round_id)
    rnd = store.rebuild(round_id)
    return {
        "round_id": round_id,
        "game": info.game,
        "status": info.status.value,
        "phase": rnd.phase.value,
        "players": {str(s): p for s, p in sorted(info.players.items())},
        "settlement": rnd.settlement(),
        "records": [record_to_json(r) for r in rnd.records],
    }

"""Game recall: rounds rebuilt from their stored records, and a round as a scenario JSON that
``croupier replay`` settles identically."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from croupier.core.errors import InvalidInput
from croupier.core.modes import PlayMode
from croupier.games import get_game
from croupier.games.rebuild import round_inputs
from croupier.games.records import (
    AbandonWagers,
    CardDealt,
    CardDiscarded,
    CountStub,
    IrregularityReported,
    MeterChanged,
    NoMoreBetsCalled,
    Play,
    Record,
    ReportIrregularity,
    RoundVoided,
    StubCounted,
    VoidRound,
    WagerPlaced,
    WagersAbandoned,
    action_of,
    record_to_json,
)
from croupier.games.round import StubCheck
from croupier.store import RoundStore, StoredRound

__all__ = ["DECISION_WORDS", "events_of", "recall", "recall_table", "scenario_of"]

EVENT_RECORDS = (StubCounted, IrregularityReported, WagersAbandoned, RoundVoided)
"""Records that only an event of the round leaves (a round without any has no events)."""

DECISION_WORDS: dict[str, str] = {
    "fold": "fold",
    "check": "check",
    "withdraw": "pull",
    "ride": "ride",
    "forfeit_for_collusion": "collusion",
}
"""A seat's decision (the engine's action name) and the scenario word that makes it again
(``play``: ``play N``)."""


def _play_words(action: Play) -> str:
    """A Play as the scenario format writes it (README "Wager sizes"): a whole multiple as
    ``play 3``, any other size exactly, in cents (``play 750c``: a Four Card Poker Play of 1.5
    times a $5 Ante, § 641a.7(d)(1)), ``play`` the Ante itself."""
    if action.amount is not None:
        return f"play {action.amount}c"
    return "play" if action.multiple is None else f"play {action.multiple}"


def _decision(record: Record) -> tuple[int, str] | None:
    action = action_of(record)
    seat = getattr(action, "seat", None)
    if action is None or not isinstance(seat, int):
        return None
    if isinstance(action, Play):
        return seat, _play_words(action)
    word = DECISION_WORDS.get(action.name)
    return (seat, word) if word else None


def scenario_of(info: StoredRound, records: list[Record]) -> dict[str, Any]:
    """The scenario of a stored round: its rules, its players' wagers and decisions, the
    cards in the order they left the shoe, the meters as the round found them, and the round's
    events where it had any (:func:`events_of`), so that ``croupier replay`` gives the round's
    records again, one for one."""
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
    if info.stub_check is StubCheck.REQUIRED:  # the round has the phase, counted or voided
        data["stub_check"] = info.stub_check.value
    happened = events_of(info, records)
    if happened:
        data["events"] = happened
    return data


def events_of(info: StoredRound, records: list[Record]) -> list[dict[str, Any]]:
    """The round's events in the scenario format (:mod:`croupier.table.scenario_events`), in the
    order they happened: the dealer's stub count (§ 641a.8(f)), the dealer's irregularity
    reports (§ 641a.13), a player leaving mid-round and a supervisor's void, each timed by the
    cards out of the shoe, the decisions made and the records written before it (a void
    before "no more bets": ``in_betting``).  The inputs are those the round's rebuild applies
    (:func:`~croupier.games.rebuild.round_inputs`), so a record an input derived (the
    irregularity a short stub count reports) is no event of its own."""
    if not any(isinstance(r, EVENT_RECORDS) for r in records):
        return []
    inputs = round_inputs(
        get_game(info.rules), records, players=info.players, stub_check=info.stub_check
    )
    out: list[dict[str, Any]] = []
    for position, action in inputs:
        before = records[:position]
        timing = {
            "after_cards": sum(isinstance(r, CardDealt | CardDiscarded) for r in before),
            "after_decisions": sum(_decision(r) is not None for r in before),
            "after_records": position,
        }
        if isinstance(action, CountStub):
            out.append({"kind": "stub_count", "count": action.count})
        elif isinstance(action, ReportIrregularity):
            out.append({"kind": action.kind.value, **timing})
        elif isinstance(action, AbandonWagers):
            out.append({"kind": "leave", "seat": action.seat, **timing})
        elif isinstance(action, VoidRound):
            void = {"kind": "void", "by": action.by, "reason": action.reason}
            betting = not any(isinstance(r, NoMoreBetsCalled) for r in before)
            out.append({**void, "in_betting": True} if betting else {**void, **timing})
    return out


def recall(store: RoundStore, round_id: str) -> dict[str, Any]:
    """A stored round rebuilt from its records: status, settlement and records."""
    info = store.info(round_id)
    rnd = store.rebuild(round_id)
    return {
        "round_id": round_id,
        "game": info.game,
        "mode": info.mode.value,
        "training": info.mode is PlayMode.TRAINING,  # a training table's round, never real
        "status": info.status.value,
        "phase": rnd.phase.value,
        "players": {str(s): p for s, p in sorted(info.players.items())},
        "settlement": rnd.settlement(),
        "records": [record_to_json(r) for r in rnd.records],
    }


def recall_table(
    engine: Engine, table_id: str, *, last: int = 10, seat: int | None = None
) -> list[dict[str, Any]]:
    """The last ``last`` finished rounds of a table (of one seat where given), newest first."""
    from sqlalchemy import select

    from croupier.store.schema import live_rounds

    if isinstance(last, bool) or not 1 <= last <= 1000:
        raise InvalidInput(f"--last {last!r} must be 1-1000")
    from croupier.store.schema import live_tables

    store = RoundStore(engine)
    with engine.connect() as conn:
        if (
            conn.execute(select(live_tables.c.id).where(live_tables.c.id == table_id)).first()
            is None
        ):
            raise InvalidInput(f"table {table_id!r} is not on the floor of this database")
        ids = (
            conn.execute(
                select(live_rounds.c.round_id)
                .where(live_rounds.c.table_id == table_id, live_rounds.c.state != "open")
                .order_by(live_rounds.c.number.desc())
            )
            .scalars()
            .all()
        )
    out = []
    for rid in ids:
        if seat is not None and seat not in store.info(rid).players:
            continue
        out.append(recall(store, rid))
        if len(out) >= last:
            break
    return out

"""What a table's stream gives each account, on a real floor (SQLite): a player sees a round's
events from the seats they held in that round, whatever seat they hold when they read it."""

from __future__ import annotations

from typing import Any

from croupier.games.records import NoMoreBets, PlaceWager
from croupier.games.round import Phase
from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.streams import events_seen

TABLE = "three-card-poker"
DEALER = Account("dealer", Role.DEALER, demo=True)  # the demo dealer deals every table
P1 = Account("player1", Role.PLAYER, player_id="P1")
P2 = Account("player2", Role.PLAYER, player_id="P2")


def _do(floor: Floor, account: Account, key: str, run: Any) -> dict[str, Any]:
    return floor.commands.transact(account, key, key, TABLE, run)


def _play_and_fold(floor: Floor, lt: LiveTable) -> None:
    """P1 at seat 1 antes, is dealt, folds; the round is settled (the folded hand is never
    turned face up)."""
    _do(floor, DEALER, "round", lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    ante = PlaceWager(seat=1, wager="ante", amount=500)
    _do(floor, P1, "ante", lambda txn: {"n": len(floor.rounds.apply(txn, lt, ante))})
    nmb = NoMoreBets(progressive_chips=0)
    _do(floor, DEALER, "nmb", lambda txn: {"n": len(floor.rounds.apply(txn, lt, nmb))})
    deal = (Phase.DEALING, Phase.DECISIONS)
    _do(floor, DEALER, "deal", lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, deal))})
    assert lt.round is not None
    fold = lt.round.parse_decision(1, "fold")
    _do(floor, P1, "fold", lambda txn: {"n": len(floor.rounds.apply(txn, lt, fold))})
    for n, phases in enumerate(((Phase.REVEAL,), (Phase.SETTLEMENT,))):
        if not lt.round.is_over:

            def step(txn: Txn, p: tuple[Phase, ...] = phases) -> dict[str, Any]:
                return {"n": len(floor.rounds.dealer_steps(txn, lt, p))}

            _do(floor, DEALER, f"step-{n}", step)
    assert lt.round.is_over


def _seat_one_cards(seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e["data"]
        for e in seen
        if e["type"] == "record" and e["data"].get("to") == "1" and "kind" in e["data"]
    ]


def test_569_a_player_taking_a_seat_never_receives_the_seats_earlier_cards(floor: Floor) -> None:
    lt = floor.table(TABLE)
    _do(floor, P1, "sit-p1", lambda txn: {"s": floor.registry.sit(txn, lt, P1, 1)})
    _play_and_fold(floor, lt)
    _do(floor, P1, "leave-p1", lambda txn: {"s": floor.rounds.leave(txn, lt, P1.player_id)})
    _do(floor, P2, "sit-p2", lambda txn: {"s": floor.registry.sit(txn, lt, P2, 1)})
    # P1 saw their own three cards as they were dealt; P2, now at seat 1, reading the table's
    # stream from the start, sees only that three face-down cards went to seat 1.
    mine = _seat_one_cards(events_seen(floor, P1, lt, 0))
    assert [d["kind"] for d in mine] == ["card_dealt"] * 3
    theirs = _seat_one_cards(events_seen(floor, P2, lt, 0))
    assert [d["kind"] for d in theirs] == ["card_hidden"] * 3
    assert all("card" not in d for d in theirs)

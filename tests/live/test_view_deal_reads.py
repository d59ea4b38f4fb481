"""The deal a table's view shows (:class:`croupier.server.deals.TableDeals`): the stored deal (and
the round's cards once it is revealed) is read once per table ``seq`` and shared by the callers
of that ``seq`` (a table's people, each sent the view with a stream batch), and it follows the
table: the commitment while the round is open, the cards each may see once it is over."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.games.records import NoMoreBets, PlaceWager
from croupier.games.round import Phase
from croupier.server import deals
from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.table.commitment import read_deal
from live.view_access import view_of

TABLE = "three-card-poker"
DEALER = Account("dealer", Role.DEALER, demo=True)
P1 = Account("player1", Role.PLAYER, player_id="P1")
P2 = Account("player2", Role.PLAYER, player_id="P2")


def test_the_views_of_one_seq_share_one_read_of_the_deal_which_follows_the_round(
    floor: Floor, monkeypatch: pytest.MonkeyPatch
) -> None:
    lt = floor.table(TABLE)
    reads: list[str] = []

    def counted(conn: Any, round_id: str) -> Any:
        reads.append(round_id)
        return read_deal(conn, round_id)

    monkeypatch.setattr(deals, "read_deal", counted)
    loads: list[str] = []
    load = floor.store.load

    def loaded(round_id: str) -> Any:
        loads.append(round_id)
        return load(round_id)

    monkeypatch.setattr(floor.store, "load", loaded)
    steps = 0

    def do(account: Account, run: Any) -> None:
        nonlocal steps
        steps += 1
        floor.commands.transact(account, f"k{steps}", f"k{steps}", TABLE, run)

    do(P1, lambda txn: {"s": floor.registry.sit(txn, lt, P1, 1)})
    do(P2, lambda txn: {"s": floor.registry.sit(txn, lt, P2, 2)})
    do(DEALER, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    for seat, who in ((1, P1), (2, P2)):
        ante = PlaceWager(seat=seat, wager="ante", amount=500)
        do(who, lambda txn, a=ante: {"n": len(floor.rounds.apply(txn, lt, a))})
    do(DEALER, lambda txn: {"n": len(floor.rounds.apply(txn, lt, NoMoreBets()))})
    do(DEALER, lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, (Phase.DEALING,)))})
    reads.clear()
    open_views = [view_of(floor, who, TABLE) for who in (P1, P2, DEALER)]
    assert len(reads) == 1  # one read for the three callers at this seq
    assert {v["seq"] for v in open_views} == {lt.seq}
    assert all(v["deal"]["revealed"] is False for v in open_views)
    assert all(v["deal"]["order"] is None for v in open_views)

    assert lt.round is not None
    reads.clear()
    for seat, who in ((1, P1), (2, P2)):
        decision = lt.round.parse_decision(seat, "fold" if seat == 1 else "play")
        do(who, lambda txn, d=decision: {"n": len(floor.rounds.apply(txn, lt, d))})
        if not lt.round.is_over:
            # a later seq of the round still being played: its deal, unrevealed, is not read
            # again (it is revealed only once the round is over)
            later = [view_of(floor, x, TABLE) for x in (P1, P2, DEALER)]
            assert reads == [] and {v["seq"] for v in later} == {lt.seq}
            assert all(v["deal"]["revealed"] is False for v in later)
    for phases in ((Phase.REVEAL,), (Phase.SETTLEMENT,)):
        if not lt.round.is_over:
            do(DEALER, lambda txn, p=phases: {"n": len(floor.rounds.dealer_steps(txn, lt, p))})
    assert lt.round.is_over
    reads.clear()
    p1, p2 = view_of(floor, P1, TABLE)["deal"], view_of(floor, P2, TABLE)["deal"]
    assert len(reads) == 1  # the seq moved: read again, once
    assert len(loads) == 1  # and the round's cards, once for both
    assert p1["revealed"] is True and p2["revealed"] is True
    assert p1["order"] is None and p1["nonce"] is None
    # one read, each caller's own sight of it: player 1's folded hand stays hidden from
    # player 2, while seat 2's hand, turned over at the reveal, is seen by both
    assert len(p1["dealt"]) == len(p2["dealt"]) > 0
    assert None in p2["dealt"] and p1["dealt"] != p2["dealt"]

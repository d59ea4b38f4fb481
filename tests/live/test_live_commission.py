"""Deferred baccarat commission on a real server (issue 35, defect 2): a marked vigorish is owed
in the player's ``commission:<id>`` account from the coup it is marked in, shown to the player
and the dealer, and collected when the player leaves the table (§ 541.13(g)); on SQLite and
PostgreSQL."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.faces.client import ApiError
from live.baccarat_play import MINI, coup, ledger_rows, net_moves
from live.live_harness import Server

BANKER_WIN_TRIES = 40
"""Coups at most until the Banker's Hand wins (each about 46%: 40 all lost is about 2e-11)."""


def test_541_13_g_deferred_commission_is_owed_then_collected_when_the_player_leaves(
    server: Server,
) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    player = server.client("player1")
    player.sit(MINI, 1)
    start = int(player.me()["balance"])
    for _ in range(BANKER_WIN_TRIES):
        before = int(player.me()["balance"])
        played = coup(dealer, supervisor, {1: player}, {1: {"banker": 1000}})
        if played.marked(1):
            break
    else:
        raise AssertionError(f"no Banker win in {BANKER_WIN_TRIES} coups")
    # The Banker's Hand won 1,000: the chips paid are the player's, 50 is owed on the layout.
    assert played.marked(1) == 50 and played.net(1) == 950
    me = player.me()
    assert me["balance"] - before == 1000
    assert me["commission_owed"] == 50
    balances = supervisor.audit()["balances"]
    assert Fraction(balances["commission:P1"]) == -50
    # The marker is on the layout in front of the dealer, by seat (§ 541.13(g)).
    assert dealer.view(MINI)["markers"] == {"1": 50}
    rows = ledger_rows(server.db_url)
    # Contract 1: the player's change plus the commission account's is the seat's net.
    assert net_moves(rows, played.round_id, "P1") == played.net(1)
    marked = [r for r in rows if r.round_id == played.round_id and r.reason == "vig_marked"]
    assert sorted((r.account, Fraction(r.amount)) for r in marked) == [
        ("commission:P1", Fraction(-50)),
        (f"table:{MINI}", Fraction(50)),
    ]
    # The cage never takes chips owed, nor collects a marker still on the layout (the dealer
    # collects it when the player leaves).
    chips = int(me["balance"])
    with pytest.raises(ApiError) as refused:
        supervisor.cash_out("P1", chips - 49)
    assert refused.value.status == 409 and "owes 50 cents" in refused.value.problem["detail"]
    supervisor.cash_out("P1", 100)
    before -= 100
    assert player.me()["commission_owed"] == 50
    assert dealer.view(MINI)["markers"] == {"1": 50}
    left = player.leave(MINI)
    collected = [r for r in left["records"] if r["kind"] == "vig_marker_collected"]
    assert [(r["seat"], r["amount"], r["reason"]) for r in collected] == [(1, 50, "player_leaves")]
    me = player.me()
    assert me["balance"] - before == 950 and me["commission_owed"] == 0
    rows = ledger_rows(server.db_url)
    moved = [(r.account, Fraction(r.amount)) for r in rows if r.reason == "vig_marker_collected"]
    assert sorted(moved) == [("commission:P1", Fraction(50)), ("player:P1", Fraction(-50))]
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    assert Fraction(audit["balances"]["commission:P1"]) == 0
    # Every coup's nets, commission counted, are what the player's chips moved.
    nets = sum(
        r["settlement"].get("1", {}).get("net", 0)
        for r in supervisor.rounds(MINI, last=BANKER_WIN_TRIES)
    )
    assert me["balance"] - start == nets - 100

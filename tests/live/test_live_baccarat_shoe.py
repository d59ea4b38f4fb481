"""A live baccarat table deals one shoe coup after coup down to its cut card (issue 35, defect
2), on a real server on SQLite and PostgreSQL: the coups take the shoe's cards in order and
never a card twice beyond its decks, the coup after the cut card came out is the last, every
marker is collected before the next shoe (§ 541.13(g)), the commitment covers the whole shoe
(published before its first wager, revealed when it ends, every coup verified against it), and
a restart carries on with the same shoe exactly."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from croupier.cli import main
from croupier.core.cards import Card
from croupier.faces.client import ApiError, Client
from croupier.hands.baccarat import card_value
from croupier.store.database import dealing_shoes, round_shoes, table_log
from croupier.table.commitment import digest
from live.baccarat_play import MINI, Coup, coup, ledger_rows, net_moves
from live.live_harness import Server

SHOE_COUPS = 120
"""Coups at most in one eight-deck shoe (416 cards, 16 under the cut card, 4 to 6 a coup)."""
DECKS = 8
PLAYER_MAX = 500_000
"""The demo mini-baccarat table's posted maximum on the Player's Hand, cents."""


def _deal(client: Client, round_id: str) -> dict[str, Any]:
    return dict(client.get(f"/api/rounds/{round_id}/deal"))


def _rows(db_url: str, table: Any, *where: Any) -> list[Any]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(table).where(*where)).all())
    finally:
        engine.dispose()


def _play_shoe(server: Server) -> tuple[list[Coup], Client, Client]:
    """Coups at the mini-baccarat table until its shoe ends (player 1 backs the Banker, so
    markers are owed); the coups, the dealer and the supervisor."""
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    player = server.client("player1")
    player.sit(MINI, 1)
    played: list[Coup] = []
    for _ in range(SHOE_COUPS):
        played.append(coup(dealer, supervisor, {1: player}, {1: {"banker": 500}}))
        if len(played) == 1:
            # Mid-shoe the order stays secret: the coup's deal is the commitment alone.
            sealed = _deal(server.client("auditor"), played[0].round_id)
            assert sealed["revealed"] is False and sealed["order"] is None
            assert main(["audit", "verify-deal", played[0].round_id, "--db", server.db_url]) == 2
        if dealer.view(MINI)["shoe"]["stage"] == "done":
            return played, dealer, supervisor
    raise AssertionError(f"the shoe did not end in {SHOE_COUPS} coups")


def test_one_shoe_is_dealt_coup_after_coup_to_the_cut_card_then_the_markers_collected(
    server: Server,
) -> None:
    played, dealer, supervisor = _play_shoe(server)
    auditor = server.client("auditor")
    deals = [_deal(auditor, c.round_id) for c in played]
    shoe_id = f"{MINI}-shoe-000001"
    # One commitment for the whole shoe, revealed now that it has ended.
    assert {d["shoe"] for d in deals} == {shoe_id}
    assert len({d["commitment"] for d in deals}) == 1
    assert all(d["revealed"] for d in deals)
    order = deals[0]["order"]
    assert digest(order, deals[0]["nonce"]) == deals[0]["commitment"]
    assert Counter(order) == Counter({str(c): DECKS for c in Counter(order)})
    assert len(order) == 52 * DECKS
    # The first card turned up and as many more burned (ten for a ten or picture card).
    assert deals[0]["taken"] == 1 + (card_value(Card.parse(order[0])) or 10)
    # Each coup begins where the one before stopped: the shoe's cards, in order, once each.
    for before, after in itertools.pairwise(deals):
        assert after["taken"] == before["taken"] + len(before["dealt"])
    dealt = [card for d in deals for card in d["dealt"]]
    assert dealt == order[deals[0]["taken"] : deals[-1]["taken"] + len(deals[-1]["dealt"])]
    assert max(Counter(dealt).values()) <= DECKS
    # The cut card came out during the next-to-last coup; the last coup was the one more.
    left = [len(order) - d["taken"] - len(d["dealt"]) for d in deals]
    assert left[-2] <= 16 < left[-3]
    for c in played:
        assert main(["audit", "verify-deal", c.round_id, "--db", server.db_url]) == 0
    # Contract 1, every coup: the player's chips and commission moved by the seat's net.
    rows = ledger_rows(server.db_url)
    for c in played:
        assert net_moves(rows, c.round_id, "P1") == c.net(1), c.round_id
    marked = sum(c.marked(1) for c in played)
    assert marked > 0
    collected = [r for r in rows if r.reason == "vig_marker_collected"]
    assert [(r.account, Fraction(r.amount), r.round_id) for r in collected] == [
        ("player:P1", Fraction(-marked), None),
        ("commission:P1", Fraction(marked), None),
    ]
    log = _rows(server.db_url, table_log, table_log.c.table_id == MINI)
    kinds = [row.kind for row in sorted(log, key=lambda r: r.seq)]
    assert kinds == ["shoe_opened", "cut_card_out", "vig_marker_collected"]
    last = json.loads(sorted(log, key=lambda r: r.seq)[-1].data)["record"]
    assert (last["seat"], last["amount"], last["reason"]) == (1, marked, "reshuffle")
    (shoe_row,) = _rows(server.db_url, dealing_shoes, dealing_shoes.c.id == shoe_id)
    assert shoe_row.ended_at is not None
    assert server.client("player1").me()["commission_owed"] == 0
    assert dealer.view(MINI)["markers"] == {}
    # The next coup opens a new shoe under a new commitment, published before its first wager.
    player = server.client("player1")
    with player.stream(MINI, since=int(dealer.view(MINI)["seq"])) as stream:
        dealer.new_round(MINI)
        player.wager(MINI, "player", 500)
        events = [stream.next() for _ in range(3)]
    assert [e.type for e in events] == ["shoe", "round", "record"]
    assert events[0].data["record"]["kind"] == "shoe_opened"
    opened = events[1].data
    assert opened["shoe"] == {"id": f"{MINI}-shoe-000002", "number": 2, "coup": 1}
    assert opened["deal"]["commitment"] != deals[0]["commitment"]
    assert events[2].data["kind"] == "wager_placed"
    assert dealer.view(MINI)["shoe"]["commitment"] == opened["deal"]["commitment"]
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]


def _shoe_rows(db_url: str) -> list[Any]:
    rows = _rows(db_url, round_shoes, round_shoes.c.shoe_id == f"{MINI}-shoe-000001")
    return sorted(rows, key=lambda r: (r.taken, r.round_id))


def test_a_restart_mid_shoe_carries_on_with_the_same_shoe_and_markers(server: Server) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    player = server.client("player1")
    player.sit(MINI, 1)
    for _ in range(40):
        if coup(dealer, supervisor, {1: player}, {1: {"banker": 1000}}).marked(1):
            break
    markers = dealer.view(MINI)["markers"]
    assert markers["1"] >= 50
    # Killed between two coups, then again with a coup dealt and not yet revealed.
    server.kill()
    server.start()
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    player = server.client("player1")
    assert dealer.view(MINI)["markers"] == markers
    assert player.me()["commission_owed"] == markers["1"]
    rid = dealer.new_round(MINI)["round_id"]
    player.wager(MINI, "player", 500)
    dealer.no_more_bets(MINI, 0)
    dealer.step(MINI, "deal")
    server.kill()
    server.start()
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    player = server.client("player1")
    view = dealer.view(MINI)
    assert view["round_id"] == rid and view["held"] is None
    last = {"phase": view["round"]["phase"]}
    while last["phase"] not in ("over", "void"):
        last = dealer.step(MINI, {"reveal": "reveal", "settlement": "settle"}[last["phase"]])
    after = coup(dealer, supervisor, {1: player}, {1: {"player": 500}})
    rows = _shoe_rows(server.db_url)
    assert rows[-1].round_id == after.round_id
    # Every coup of the shoe committed to the one order and nonce, and took up where the one
    # before it stopped, across both restarts.
    assert len({(r.cards, r.nonce, r.commitment) for r in rows}) == 1
    for before, nxt in itertools.pairwise(rows):
        shown = [
            r
            for r in supervisor.records(before.round_id)["records"]
            if r["kind"] in ("card_dealt", "card_discarded")
        ]
        assert nxt.taken == before.taken + len(shown)
    assert dealer.view(MINI)["markers"] == markers
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]


def test_541_13_g_a_marker_the_chips_do_not_cover_is_owed_at_the_cage(server: Server) -> None:
    """The player leaves owing more commission than their chips: the marker leaves the layout
    and the rest is owed at the cage (casino practice: an unpaid marker goes to the cage), which
    collects it before any chips are cashed out; a cash-out never takes chips owed."""
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    supervisor.new_player("C1", "C1", "c1", "a long baccarat passphrase")
    supervisor.buy_in("C1", 1000)
    player = Client(server.url)
    player.login("c1", "a long baccarat passphrase")
    server.clients.append(player)
    player.sit(MINI, 3)
    for _ in range(40):
        if coup(dealer, supervisor, {3: player}, {3: {"banker": 1000}}).marked(3):
            break
        balance = int(player.me()["balance"])
        if balance < 1000:
            supervisor.buy_in("C1", 1000 - balance)
    me = player.me()
    assert (me["balance"], me["commission_owed"]) == (2000, 50)
    # everything on the Player's Hand until it loses, up to the posted maximum (the demo table's
    # $5,000, server/demo/mini-baccarat.toml: nine Player wins in a row doubled 2,000 cents past
    # it once in CI, and the wager was refused)
    for _ in range(40):
        stake = min(int(player.me()["balance"]), PLAYER_MAX)
        coup(dealer, supervisor, {3: player}, {3: {"player": stake}})
        if player.me()["balance"] == 0:
            break
    left = player.leave(MINI)
    assert [(r["kind"], r["seat"], r["amount"]) for r in left["records"]] == [
        ("vig_marker_to_cage", 3, 50)
    ]
    assert player.me()["commission_owed"] == 50
    supervisor.buy_in("C1", 500)
    for amount in (500, 451):
        with pytest.raises(ApiError) as refused:
            supervisor.cash_out("C1", amount)
        assert refused.value.status == 409
        assert "owes 50 cents of baccarat commission" in refused.value.problem["detail"]
    assert player.me()["balance"] == 500
    assert supervisor.cash_out("C1", 450)["balance"] == 0
    me = player.me()
    assert (me["balance"], me["commission_owed"]) == (0, 0)
    cage = [
        (r.account, Fraction(r.amount), r.table_id)
        for r in ledger_rows(server.db_url)
        if r.reason == "vig_marker_collected"
    ]
    assert sorted(cage) == [
        ("commission:C1", Fraction(50), None),
        ("player:C1", Fraction(-50), None),
    ]
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]

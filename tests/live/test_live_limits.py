"""Posted limits on the live tables (issue 35): a table posts a minimum and maximum for every
wager it offers or is not set up (nor, stored from before, opened); every wager is checked
against them; the page's amounts always hold the wager a round needs (UTH's Blind equal to the
Ante); a wager whose partner the player's chips could not cover is refused naming why."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from croupier.core.errors import IllegalAction
from croupier.faces.client import ApiError, Client
from croupier.server.auth import Account, Auth, Role
from croupier.server.db import connect
from croupier.server.demo import demo_rules, setup_demo
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from croupier.store.schema import live_tables
from live.live_harness import Server

UTH = "ultimate-texas-holdem"


def test_a_table_without_every_wagers_limits_is_not_set_up(sqlite_server: Server) -> None:
    supervisor = sqlite_server.client("supervisor")
    rules = copy.deepcopy(demo_rules()["three-card-poker"])
    rules["progressive"]["meter"] = "tcp-unposted"
    del rules["limits"]["pair_plus"], rules["limits"]["six_card_bonus"]
    rules["limits"]["ante"] = {"min": 500}
    with pytest.raises(ApiError) as refused:
        supervisor.new_table("tcp-unposted", "Three Card Poker", rules)
    assert refused.value.status == 422
    assert refused.value.detail == (
        "table tcp-unposted posts no minimum and maximum for ante, pair_plus, six_card_bonus: "
        "a live table posts both for every wager it offers (Three Card Poker (58 Pa. Code Ch. "
        "649a); [limits.<wager>] min and max, cents)"
    )
    assert "tcp-unposted" not in {t["id"] for t in supervisor.tables()}
    detail = supervisor.table(UTH)
    assert detail["limits"]["ante"] == detail["limits"]["blind"] == {"min": 500, "max": 100_000}
    assert detail["limits"]["progressive"] == {"min": 100, "max": 100}  # its fixed $1


def test_uth_5000_dollar_ante_refused_and_every_ante_offered_finds_its_blind(
    sqlite_server: Server,
) -> None:
    # issue 35: the demo table took a $5,000 Ante its page's Blind ladder could not match
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    player.sit(UTH, 1)
    dealer.new_round(UTH)
    balance = player.me()["balance"]
    with pytest.raises(ApiError) as refused:
        player.wager(UTH, "ante", 500_000)
    assert refused.value.status == 409
    assert refused.value.detail == (
        "ante wager of 500000 cents at seat 1 is above the table maximum of 100000 cents "
        "(posted: 500 to 100000 cents)"
    )
    assert player.me()["balance"] == balance and player.view(UTH)["round"]["stakes"] == {}
    offered = _amounts(player, "ante")
    assert offered[0] == 500 and offered[-1] == 100_000  # the posted limits, ends included
    player.wager(UTH, "ante", 75_000)  # between the chips: the Blind is still offered
    assert _amounts(player, "blind") == [75_000]
    player.wager(UTH, "blind", 75_000)
    assert dealer.no_more_bets(UTH, 0)["phase"] == "dealing"


def _amounts(player: Client, wager: str) -> list[int]:
    actions = player.get(f"/api/tables/{UTH}/actions")
    (found,) = [w["amounts"] for w in actions["wagers"] if w["wager"] == wager]
    return list(found)


def test_569_2_b_2_an_ante_whose_blind_the_chips_cannot_cover_is_refused(
    sqlite_server: Server,
) -> None:
    supervisor, dealer = sqlite_server.client("supervisor"), sqlite_server.client("dealer")
    supervisor.new_player("short", "Short stack", "short", "a stack of five-dollar chips")
    supervisor.buy_in("short", 700)
    player = Client(sqlite_server.url)
    sqlite_server.clients.append(player)
    player.login("short", "a stack of five-dollar chips")
    player.sit(UTH, 1)
    dealer.new_round(UTH)
    with pytest.raises(ApiError) as refused:
        player.wager(UTH, "ante", 500)
    assert refused.value.status == 409
    assert refused.value.detail == (
        "short at seat 1 has 700 cents; this ante wager of 500 cents needs 1000 cents with "
        "the blind it must equal"
    )
    assert player.me()["balance"] == 700 and player.view(UTH)["round"]["stakes"] == {}


def test_a_table_stored_without_limits_stays_closed_and_a_demo_table_takes_its_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a database from before issue 35: a table of its own and a demo table, neither with limits
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    engine = connect(f"sqlite:///{tmp_path / 'before.sqlite'}")
    old = {k: v for k, v in demo_rules()["three-card-poker"].items() if k != "limits"}
    old["progressive"] = {**old["progressive"], "meter": "old-tcp"}
    demo = {k: v for k, v in demo_rules()[UTH].items() if k != "limits"}
    with engine.begin() as conn:
        for table_id, rules in (("old-tcp", old), (UTH, demo)):
            conn.execute(
                insert(live_tables).values(
                    id=table_id,
                    name=table_id,
                    rules=json.dumps(rules),
                    status="open",
                    seats='{"1": "P1"}',
                    created_at=datetime.now(UTC),
                )
            )
    floor = Floor(engine)
    try:
        floor.load()
        lt = floor.table("old-tcp")
        assert lt.status == "closed" and lt.unposted is not None
        assert "posts no minimum and maximum for ante, pair_plus, six_card_bonus" in lt.unposted
        dealer = Account("dealer", Role.DEALER, demo=True)  # deals every demo table
        supervisor = Account("boss", Role.SUPERVISOR)

        def reopen(txn: Txn) -> dict[str, Any]:
            floor.registry.set_status(txn, lt, "open")
            return {}

        for account, run in (
            (dealer, lambda txn: {"r": floor.rounds.begin_round(txn, lt, None)}),
            (supervisor, reopen),
        ):
            with pytest.raises(IllegalAction, match="set up before limits were required"):
                floor.commands.transact(account, f"k-{account.username}", "d", lt.id, run)
        assert floor.table("old-tcp").round is None
        setup_demo(floor, Auth(engine))
        uth = floor.table(UTH)
        assert (uth.status, uth.unposted, uth.seats()) == ("open", None, {1: "P1"})
        assert uth.game.posted_limits()["blind"] == {"min": 500, "max": 100_000}
        assert floor.table("old-tcp").status == "closed"  # not the demo's: left as it was
    finally:
        floor.committer.close()
        engine.dispose()

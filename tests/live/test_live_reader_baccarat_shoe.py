"""A baccarat shoe of real cards across coups through the real server (issue 39): the cards
keyed or read at a Mini-Baccarat table are counted against one eight-deck shoe from coup to
coup, across a restart; a card keyed more often than the shoe's decks hold voids the coup; the
dealer's (or the reader's) ``shoe`` message begins a new shoe; the emulator deals its coups from
one shuffled shoe and opens a new one when it runs low; the audit rebuilds every coup."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.faces.bots import play_round
from croupier.faces.client import ApiError, Client
from live.emulated import emulated_rounds, of_real_cards
from live.live_harness import Server

ACE = "As"


def _baccarat_table(supervisor: Client, table_id: str, cards: str) -> dict[str, Any]:
    """A Mini-Baccarat table of real cards of its own (no other test's coups at it)."""
    rules = of_real_cards(supervisor.get("/api/tables/mini-baccarat")["rules"], cards)
    supervisor.post("/api/tables", {"id": table_id, "name": f"{cards} shoe", "rules": rules})
    supervisor.post(f"/api/tables/{table_id}/open")
    detail: dict[str, Any] = supervisor.get(f"/api/tables/{table_id}")
    return detail


def _seated(server: Server, table_id: str) -> dict[int, Client]:
    players = {1: server.client("player1")}
    players[1].sit(table_id, 1)
    return players


def _records(auditor: Client, round_id: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = auditor.records(round_id)["records"]
    return records


def test_a_card_keyed_more_often_than_the_shoe_holds_across_coups_voids_the_coup(
    server: Server,
) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id = "mini-baccarat-keypad-shoe"
    detail = _baccarat_table(supervisor, table_id, "keypad")
    keypad = f"/api/tables/{table_id}/keypad"
    opened = dealer.post(keypad, {"type": "shoe", "card": "Kd"})  # ten burned after it
    assert opened["records"] == []  # between coups: the table's shoe, no coup's record

    def ace() -> dict[str, Any]:
        answer: dict[str, Any] = dealer.post(keypad, {"type": "card", "card": ACE})
        return answer

    players = _seated(server, table_id)
    first = play_round(dealer, players, table_id, detail, deal=ace)
    assert first.phase == "over"
    carried = _records(auditor, first.round_id)[0]
    assert carried["kind"] == "shoe_carried" and carried["gone"] == ["Kd"]
    assert carried["burned"] == 10
    aces = sum(r["kind"] == "card_dealt" for r in _records(auditor, first.round_id))
    server.kill()  # the shoe's count is kept across a restart
    server.start()
    dealer, auditor = server.client("dealer"), server.client("auditor")
    players = {1: server.client("player1")}
    second = play_round(dealer, players, table_id, detail, deal=ace)
    assert second.phase == "void"
    records = _records(auditor, second.round_id)
    assert records[0]["gone"] == ["Kd"] + [ACE] * aces
    refused = next(r for r in records if r["kind"] == "card_refused")
    assert refused["card"] == ACE and refused["consequence"] == "round void, deck removed"
    dealt_now = sum(r["kind"] == "card_dealt" for r in records)
    assert aces + dealt_now == 8  # eight decks: the ninth ace of spades is refused
    # a new shoe: the aces count from none again
    dealer.post(keypad, {"type": "shoe", "card": "7h"})
    third = play_round(dealer, players, table_id, detail, deal=ace)
    assert third.phase == "over"
    assert _records(auditor, third.round_id)[0]["gone"] == ["7h"]
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit


def test_a_shoe_is_changed_only_before_the_coups_first_card(server: Server) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    table_id = "mini-baccarat-keypad-change"
    _baccarat_table(supervisor, table_id, "keypad")
    players = _seated(server, table_id)
    keypad = f"/api/tables/{table_id}/keypad"
    dealer.new_round(table_id)
    players[1].wager(table_id, "banker", 500, seat=1)
    dealer.no_more_bets(table_id, 0)
    changed = dealer.post(keypad, {"type": "shoe", "card": "2c"})  # before the first card
    assert [r["kind"] for r in changed["records"]] == ["shoe_carried"]
    dealer.post(keypad, {"type": "card", "card": ACE})
    with pytest.raises(ApiError, match="between rounds"):
        dealer.post(keypad, {"type": "shoe", "card": "3c"})
    kinds = [r["kind"] for r in dealer.view(table_id)["round"]["records"]]
    assert kinds.count("shoe_carried") == 1


def test_croupier_device_shoe_deals_baccarat_coups_from_one_shoe_across_coups(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The emulator with ``--cut-card``: one shuffled eight-deck shoe coup after coup, a new one
    (its ``shoe`` message, before the coup's first card) once it is down to the cut card."""
    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id = "mini-baccarat-emulated-shoe"
    detail = _baccarat_table(supervisor, table_id, "reader")
    token = supervisor.post(f"/api/tables/{table_id}/devices")["token"]
    monkeypatch.setenv("CROUPIER_READER_TOKEN", token)
    argv = ["device", "shoe", server.url, table_id, "--decks", "8", "--seed", "3"]
    argv += ["--cut-card", "400", "--interval", "0.05", "--rounds", "6", "--json"]
    status, coups = emulated_rounds(dealer, _seated(server, table_id), table_id, detail, argv, 6)
    assert status == [0] and [c.phase for c in coups] == ["over"] * 6
    # each coup's last carry: the shoe's cards gone before its first card
    gone = [
        [r for r in _records(auditor, c.round_id) if r["kind"] == "shoe_carried"][-1]["gone"]
        for c in coups
    ]
    dealt = [sum(r["kind"] == "card_dealt" for r in _records(auditor, c.round_id)) for c in coups]
    opened = [n for n, g in enumerate(gone) if len(g) == 1]  # a new shoe: its first card only
    assert opened[0] == 0 and len(opened) >= 2  # 16 cards out at most before a new shoe
    for n in range(1, 6):
        if n not in opened:  # dealt on: the coup before's cards are gone too
            assert gone[n] == gone[n - 1] + [
                r["card"]
                for r in _records(auditor, coups[n - 1].round_id)
                if r["kind"] == "card_dealt"
            ]
            assert len(gone[n]) == len(gone[n - 1]) + dealt[n - 1]
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit


def test_a_coup_resumed_after_a_crash_counts_the_shoes_cards_gone_before_it(
    server: Server,
) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    table_id = "mini-baccarat-keypad-crash"
    detail = _baccarat_table(supervisor, table_id, "keypad")
    keypad = f"/api/tables/{table_id}/keypad"
    dealer.post(keypad, {"type": "shoe", "card": "9c"})
    players = _seated(server, table_id)

    def ace() -> dict[str, Any]:
        answer: dict[str, Any] = dealer.post(keypad, {"type": "card", "card": ACE})
        return answer

    first = play_round(dealer, players, table_id, detail, deal=ace)
    assert first.phase == "over"
    dealer.new_round(table_id)
    players[1].wager(table_id, "banker", 500, seat=1)
    dealer.no_more_bets(table_id, 0)
    ace()
    server.kill()  # mid-coup: the coup resumes from its records, its shoe carried again
    server.start()
    dealer = server.client("dealer")
    answer = ace()
    while answer["phase"] == "dealing":
        answer = ace()
    auditor = server.client("auditor")
    kinds = [r["kind"] for r in _records(auditor, str(answer["round_id"]))]
    assert answer["phase"] == "void" and "card_refused" in kinds
    aces = [r for r in auditor.records(first.round_id)["records"] if r["kind"] == "card_dealt"]
    assert len(aces) + kinds.count("card_dealt") == 8  # the ninth ace of spades refused
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit

"""Tables of real cards through the real server (issue 39): full rounds of every game from the
reader emulator and from the dealer's keypad, each fault of a reader ending as the chapter
says, the audit rebuilding and verifying every such round, and a reader's token refused
everything but reporting for its own table."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from croupier.faces.bots import play_round
from croupier.faces.client import ApiError, Client
from croupier.faces.reader import FAULTS, ShoeReader
from croupier.table.shoe import SeededShuffler, shoe_cards
from live.emulated import emulated_rounds, of_real_cards
from live.live_harness import Server


def _real_table(supervisor: Client, game_table: str, cards: str) -> tuple[str, dict[str, Any]]:
    """A table of the demo table's game and rules whose cards come from ``cards``."""
    rules = of_real_cards(supervisor.get(f"/api/tables/{game_table}")["rules"], cards)
    table_id = f"{game_table}-{cards}"[:100]
    supervisor.post("/api/tables", {"id": table_id, "name": f"{cards} table", "rules": rules})
    if supervisor.get(f"/api/tables/{table_id}")["status"] != "open":
        supervisor.post(f"/api/tables/{table_id}/open")
    return table_id, supervisor.get(f"/api/tables/{table_id}")


def _decks(detail: Mapping[str, Any]) -> int:
    return int(detail["rules"].get("table", {}).get("decks", 1))


def _seated(server: Server, table_id: str) -> dict[int, Client]:
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    return players


def _left(players: Mapping[int, Client], table_id: str) -> None:
    for player in players.values():
        player.leave(table_id)
        player.close()


def _kinds(auditor: Client, round_id: str) -> list[str]:
    return [r["kind"] for r in auditor.records(round_id)["records"]]


def _reader(server: Server, supervisor: Client, table_id: str, decks: int, seed: int) -> ShoeReader:
    token = supervisor.post(f"/api/tables/{table_id}/devices")["token"]
    return ShoeReader(server.url, table_id, token, decks=decks, shuffler=SeededShuffler(seed))


def test_every_game_plays_full_rounds_from_the_reader_and_from_the_keypad(server: Server) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    games = {t["game"]: t["id"] for t in dealer.tables()}
    played: list[str] = []
    for n, game_table in enumerate(sorted(games.values())):
        reader_table, detail = _real_table(supervisor, game_table, "reader")
        reader = _reader(server, supervisor, reader_table, _decks(detail), n)
        players = _seated(server, reader_table)
        done = play_round(dealer, players, reader_table, detail, deal=reader.card)
        assert done.phase == "over", reader_table
        assert "card_dealt" in _kinds(auditor, done.round_id)
        played.append(done.round_id)
        _left(players, reader_table)
        reader.close()

        keypad_table, detail = _real_table(supervisor, game_table, "keypad")
        cards = iter(SeededShuffler(n).shuffle(shoe_cards(_decks(detail))))

        def keyed(table: str = keypad_table, deck: Iterator[Any] = cards) -> dict[str, Any]:
            body = {"type": "card", "card": str(next(deck))}
            answer: dict[str, Any] = dealer.post(f"/api/tables/{table}/keypad", body)
            return answer

        players = _seated(server, keypad_table)
        done = play_round(dealer, players, keypad_table, detail, deal=keyed)
        assert done.phase == "over", keypad_table
        played.append(done.round_id)
        _left(players, keypad_table)
    audit = auditor.audit()
    assert audit["ok"], audit["problems"]
    assert audit["audit"]["findings"] == []  # every round rebuilt from its records, verified
    assert audit["audit"]["checked"]["rounds"] >= len(played)


Fault = Callable[[ShoeReader, int], dict[str, Any]]


def _at(card_no: int, fault: Callable[[ShoeReader], dict[str, Any]]) -> Fault:
    def deal(reader: ShoeReader, n: int) -> dict[str, Any]:
        return fault(reader) if n == card_no else reader.card()

    return deal


def _skipped_then_stub(reader: ShoeReader, n: int) -> dict[str, Any]:
    if n == 2:
        reader.skip()  # a card leaves the shoe unreported
    ack = reader.card()
    return reader.stub() if ack["phase"] != "dealing" else ack


def _extra_card(reader: ShoeReader, n: int) -> dict[str, Any]:
    ack = reader.card()
    return reader.card() if ack["phase"] != "dealing" else ack


def _duplicated(reader: ShoeReader, n: int) -> dict[str, Any]:
    ack = reader.card()
    if n == 2:
        assert reader.duplicate() == ack  # the same message: the same answer, nothing dealt
    return ack


FAULT_CASES: dict[str, tuple[Fault, str, str | None]] = {
    # fault: (how the cards are reported, the round's end, the record that says why)
    "misread corrected before the next card": (_at(2, FAULTS["misread"]), "over", "card_corrected"),
    "641a.8(f) a card seen more often than the deck holds": (
        _at(3, FAULTS["misread-seen"]),
        "void",
        "card_refused",
    ),
    "641a.13(a) a card found face up in the shoe": (
        _at(1, FAULTS["face-up"]),
        "over",
        "card_discarded",
    ),
    "641a.13(c) a card missing from the report": (_skipped_then_stub, "void", "stub_reported"),
    "641a.13(c) a card too many": (_extra_card, "void", "card_refused"),
    "a message sent twice": (_duplicated, "over", None),
    "a reconnection resending its last message": (_at(2, FAULTS["reconnect"]), "over", None),
}


@pytest.mark.parametrize("case", sorted(FAULT_CASES))
def test_641a_13_each_fault_of_a_reader_ends_as_the_chapter_says(
    sqlite_server: Server, case: str
) -> None:
    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id, detail = _real_table(supervisor, "four-card-poker", "reader")
    reader = _reader(server, supervisor, table_id, 1, 7)
    fault, end, why = FAULT_CASES[case]
    count = iter(range(1, 100))
    players = _seated(server, table_id)
    done = play_round(dealer, players, table_id, detail, deal=lambda: fault(reader, next(count)))
    assert done.phase == end, case
    kinds = _kinds(auditor, done.round_id)
    if why is not None:
        assert why in kinds, kinds
    if end == "void":
        assert "round_voided" in kinds
    dealt = kinds.count("card_dealt")
    assert dealt == 5 * 2 + 6 or end == "void"  # § 641a.8(d): five to each player, six
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit
    reader.close()


def test_a_readers_messages_are_numbered_a_gap_and_a_reused_number_refused(
    server: Server,
) -> None:
    supervisor = server.client("supervisor")
    table_id, _ = _real_table(supervisor, "three-card-poker", "reader")
    reader = _reader(server, supervisor, table_id, 1, 3)
    first = reader.heartbeat()
    assert (first["ack"], first["next_seq"], first["accepted"]) == (1, 2, True)
    with pytest.raises(ApiError) as gap:
        reader.gap()
    assert gap.value.status == 409 and "2 is expected" in str(gap.value.problem["detail"])
    with pytest.raises(ApiError) as reused:
        reader.send({"seq": 1, "type": "card", "card": "As"})
    assert reused.value.status == 409
    assert reader.duplicate() == first
    # a card before "no more bets" is answered, refused, and the number is spent
    refused = reader.card()
    assert (refused["ack"], refused["accepted"]) == (2, False) and refused["refused"]
    statuses = supervisor.get(f"/api/tables/{table_id}/devices")
    assert [(s["last_seq"], s["silent"]) for s in statuses] == [(2, False)]
    reader.close()


def test_a_readers_token_is_refused_everything_but_reporting_for_its_own_table(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    table_id, _ = _real_table(supervisor, "four-card-poker", "reader")
    other, _ = _real_table(supervisor, "three-card-poker", "reader")
    reader = _reader(server, supervisor, table_id, 1, 1)
    as_reader = Client(server.url)
    as_reader.token = reader.token
    for method, path in (
        ("GET", "/api/tables"),
        ("GET", "/api/me"),
        ("GET", f"/api/tables/{table_id}/view"),
        ("GET", f"/api/tables/{table_id}/devices"),
        ("POST", f"/api/tables/{table_id}/keypad"),
        ("POST", f"/api/tables/{table_id}/devices"),
        ("POST", f"/api/tables/{other}/reader/messages"),
    ):
        body = {"seq": 1, "type": "heartbeat"} if "reader" in path else {"type": "stub", "count": 1}
        with pytest.raises(ApiError) as refused:
            as_reader.request(method, path, body if method == "POST" else None)
        assert refused.value.status == 403, (method, path)
    assert reader.heartbeat()["accepted"]
    # an account's token (the dealer's) reports no card; no token, 401
    with pytest.raises(ApiError) as dealer_refused:
        dealer.post(f"/api/tables/{table_id}/reader/messages", {"seq": 2, "type": "heartbeat"})
    assert dealer_refused.value.status == 403
    with Client(server.url) as anonymous, pytest.raises(ApiError) as no_token:
        anonymous.post(f"/api/tables/{table_id}/reader/messages", {"seq": 2, "type": "heartbeat"})
    assert no_token.value.status == 401
    # the dealer keys no card while the table's reader is heard (it holds the round)
    with pytest.raises(ApiError) as keyed:
        dealer.post(f"/api/tables/{table_id}/keypad", {"type": "card", "card": "As"})
    assert keyed.value.status == 409
    reader.close()
    as_reader.close()


def test_croupier_device_shoe_deals_a_round_with_a_misread_over_the_protocol(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import json
    import threading
    import time

    from croupier.cli import main

    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id, detail = _real_table(supervisor, "three-card-poker", "reader")
    token = supervisor.post(f"/api/tables/{table_id}/devices")["token"]
    monkeypatch.setenv("CROUPIER_READER_TOKEN", token)
    out = io.StringIO()
    status: list[int] = []
    argv = ["device", "shoe", server.url, table_id, "--seed", "5", "--interval", "0.05"]
    argv += ["--fault", "misread@2", "--json"]
    emulator = threading.Thread(target=lambda: status.append(main(argv, out=out)))
    emulator.start()

    def dealt_by_the_reader() -> dict[str, Any]:
        """The dealer waits while the reader deals (the round's phase moves on)."""
        for _ in range(400):
            now = dealer.view(table_id)["round"]
            if now["phase"] != "dealing":
                return {"phase": now["phase"], "to_act": now["to_act"]}
            time.sleep(0.05)
        raise AssertionError("the reader dealt no card")

    players = _seated(server, table_id)
    done = play_round(dealer, players, table_id, detail, deal=dealt_by_the_reader)
    emulator.join(timeout=60)
    assert status == [0] and not emulator.is_alive()
    assert done.phase == "over"
    assert "card_corrected" in _kinds(auditor, done.round_id)
    assert json.loads(out.getvalue())["rounds"] == 1
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []


def test_a_silent_reader_holds_the_round_until_the_dealer_keys_the_cards(
    sqlite_server: Server,
) -> None:
    import time

    from croupier.server.devices import SILENT_AFTER

    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id, detail = _real_table(supervisor, "three-card-poker", "reader")
    reader = _reader(server, supervisor, table_id, 1, 11)
    players = _seated(server, table_id)
    keyed: list[int] = []

    def reader_then_keypad() -> dict[str, Any]:
        if len(reader.dealt) < 2:
            return reader.card()
        if not keyed:  # the reader stops talking: nothing moves, nothing is guessed
            reader.disconnect()
            with pytest.raises(ApiError) as heard:
                dealer.post(f"/api/tables/{table_id}/keypad", {"type": "card", "card": "As"})
            assert heard.value.status == 409
            assert dealer.view(table_id)["round"]["phase"] == "dealing"
            time.sleep(SILENT_AFTER + 1)
            status = dealer.get(f"/api/tables/{table_id}/devices")
            assert [s["silent"] for s in status] == [True]
        card = reader.skip()  # the next real card, keyed by the dealer
        keyed.append(1)
        answer: dict[str, Any] = dealer.post(
            f"/api/tables/{table_id}/keypad", {"type": "card", "card": str(card)}
        )
        return answer

    done = play_round(dealer, players, table_id, detail, deal=reader_then_keypad)
    assert done.phase == "over" and keyed
    assert _kinds(auditor, done.round_id).count("card_dealt") == 3 * 2 + 3
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    reader.close()


def test_a_reader_round_resumes_after_a_crash_and_the_resent_message_deals_nothing_twice(
    server: Server,
) -> None:
    supervisor = server.client("supervisor")
    table_id, _ = _real_table(supervisor, "four-card-poker", "reader")
    reader = _reader(server, supervisor, table_id, 1, 21)
    dealer = server.client("dealer")
    players = _seated(server, table_id)
    dealer.new_round(table_id)
    for seat, player in players.items():
        player.wager(table_id, "ante", 500, seat=seat)
    dealer.no_more_bets(table_id, 0)
    reader.card()
    last = reader.card()
    server.kill()  # the second card's answer is committed; the reader does not know it
    server.start()
    dealer = server.client("dealer")
    found = next(t for t in dealer.tables() if t["id"] == table_id)
    assert found["held"] is None  # its cards are in its records: it deals on
    again = reader.reconnect()  # the unanswered message sent again, under its number
    assert again is not None and again["ack"] == last["ack"] and again["due"] == last["due"]
    ack = last
    while ack["phase"] == "dealing":
        ack = reader.card()
    assert ack["accepted"] and ack["due"] == 0
    kinds = [r["kind"] for r in dealer.view(table_id)["round"]["records"]]
    assert sum(k in ("card_dealt", "card_hidden") for k in kinds) == 5 * 2 + 6  # § 641a.8(d)
    reader.close()


def _own_table(supervisor: Client, table_id: str, cards: str) -> dict[str, Any]:
    """A Four Card Poker table of real cards of its own (no other test's rounds at it)."""
    rules = supervisor.get("/api/tables/four-card-poker")["rules"]
    rules["table"] = {**rules.get("table", {}), "cards": cards}
    supervisor.post("/api/tables", {"id": table_id, "name": f"{cards} stub", "rules": rules})
    supervisor.post(f"/api/tables/{table_id}/open")
    detail: dict[str, Any] = supervisor.get(f"/api/tables/{table_id}")
    return detail


def _stub_kinds(auditor: Client, round_id: str) -> list[str]:
    return [k for k in _kinds(auditor, round_id) if k in ("stub_reported", "stub_counted")]


def test_641a_8_f_a_reader_table_counts_the_stub_every_fifth_round(server: Server) -> None:
    """The fifth round without a count waits after the deal (phase ``stub_count``) for the
    reader's ``stub`` message; the count starts the five again; after a restart the first
    round counts (when the stub was last counted is not known)."""
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id = "fcp-reader-stub"
    detail = _own_table(supervisor, table_id, "reader")
    reader = _reader(server, supervisor, table_id, 1, 5)
    players = _seated(server, table_id)
    waited: list[int] = []

    def deal(number: int) -> Callable[[], dict[str, Any]]:
        def card() -> dict[str, Any]:
            ack = reader.card()
            if ack["phase"] == "stub_count":  # the deal done, the stub due
                waited.append(number)
                ack = reader.stub()
                assert ack["accepted"] and ack["phase"] == "decisions", ack
            return ack

        return card

    rounds = []
    for number in range(1, 8):
        reader.shuffle()
        done = play_round(dealer, players, table_id, detail, deal=deal(number))
        assert done.phase == "over", number
        rounds.append(done.round_id)
    assert waited == [5]  # rounds 1-4 uncounted, the fifth counts, then five again
    assert [bool(_stub_kinds(auditor, r)) for r in rounds] == [n == 5 for n in range(1, 8)]
    server.kill()
    server.start()
    dealer, auditor = server.client("dealer"), server.client("auditor")
    reader.reconnect()
    players = {seat: server.client(f"player{seat}") for seat in players}
    reader.shuffle()
    done = play_round(dealer, players, table_id, detail, deal=deal(8))
    assert done.phase == "over" and waited == [5, 8]
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit
    reader.close()


def test_641a_8_f_a_keypad_table_counts_the_stub_every_fifth_round(sqlite_server: Server) -> None:
    """At a keypad table the dealer counts the stub in the fifth round (``CountStub``)."""
    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id = "fcp-keypad-stub"
    detail = _own_table(supervisor, table_id, "keypad")
    players = _seated(server, table_id)
    rounds = []
    for number in range(1, 7):
        cards = iter(SeededShuffler(number).shuffle(shoe_cards(1)))

        def keyed(deck: Iterator[Any] = cards) -> dict[str, Any]:
            body = {"type": "card", "card": str(next(deck))}
            answer: dict[str, Any] = dealer.post(f"/api/tables/{table_id}/keypad", body)
            return answer

        done = play_round(dealer, players, table_id, detail, deal=keyed)
        assert done.phase == "over", number
        rounds.append(done.round_id)
    counted = [_stub_kinds(auditor, r) for r in rounds]
    assert counted == [["stub_counted"] if n == 5 else [] for n in range(1, 7)]


def test_641a_8_f_croupier_device_shoe_reports_the_stub_the_fifth_round_counts(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The emulator deals five rounds; the fifth waits after the deal for the stub, which the
    emulator reports (the cards left in its shoe), and goes on."""
    server = sqlite_server
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    auditor = server.client("auditor")
    table_id = "fcp-emulated-stub"
    detail = _own_table(supervisor, table_id, "reader")
    token = supervisor.post(f"/api/tables/{table_id}/devices")["token"]
    monkeypatch.setenv("CROUPIER_READER_TOKEN", token)
    argv = ["device", "shoe", server.url, table_id, "--seed", "9", "--interval", "0.05"]
    argv += ["--rounds", "5", "--json"]
    status, rounds = emulated_rounds(dealer, _seated(server, table_id), table_id, detail, argv, 5)
    assert status == [0] and [r.phase for r in rounds] == ["over"] * 5
    stubs = [_stub_kinds(auditor, r.round_id) for r in rounds]
    assert stubs == [[], [], [], [], ["stub_reported"]]

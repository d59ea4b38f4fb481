"""Provable deals against a real server: the commitment to the shoe order is public before the
first wager and gives nothing of the order away; once the round is over the order and nonce
are revealed and hash to it, and ``croupier audit verify-deal`` catches a changed order, a
changed nonce and a changed dealt card (each with every hash the attacker can recompute
recomputed: only the commitment published before the deal cannot be rewritten unseen)."""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select, update

from croupier.cli import main
from croupier.core.cards import Card
from croupier.faces.bots import play_round
from croupier.faces.client import ApiError
from croupier.store.chain import link, record_payload
from croupier.store.database import round_records, round_shoes
from croupier.table.commitment import SCHEME, digest
from live.live_harness import Server

TABLE = "three-card-poker"


@pytest.fixture(scope="module")
def sqlite_server() -> Iterator[Server]:
    """One server for the module (each test plays its own rounds)."""
    with tempfile.TemporaryDirectory(prefix="croupier-deal-") as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'floor.sqlite'}", Path(tmp) / "server.log")
        server.start()
        try:
            yield server
        finally:
            server.stop()


def _played(server: Server, table: str = TABLE) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """One round at ``table``: its id, its deal as the auditor reads it (revealed) and player
    1's stream's events."""
    dealer, p1 = server.client("dealer"), server.client("player1")
    p1.sit(table, 1)
    detail = dealer.table(table)
    with p1.stream(table) as stream:
        played = play_round(dealer, {1: p1}, table, detail)
        events = stream.drain(dealer.view(table)["seq"])
    deal = server.client("auditor").get(f"/api/rounds/{played.round_id}/deal")
    p1.leave(table)
    return played.round_id, deal, [{"type": e.type, **e.data} for e in events]


def test_the_commitment_is_published_before_the_first_wager_and_the_reveal_proves_the_deal(
    sqlite_server: Server,
) -> None:
    dealer, p2 = sqlite_server.client("dealer"), sqlite_server.client("player2")
    p2.sit(TABLE, 2)
    started = dealer.new_round(TABLE)
    rid = started["round_id"]
    open_deal = p2.get(f"/api/rounds/{rid}/deal")
    # While the round is open: the commitment only, the order and nonce withheld.
    assert open_deal["revealed"] is False and open_deal["scheme"] == SCHEME
    assert open_deal["order"] is None and open_deal["nonce"] is None
    assert len(open_deal["commitment"]) == 64
    assert p2.view(TABLE)["deal"] == open_deal
    p2.wager(TABLE, "ante", 500)
    supervisor = sqlite_server.client("supervisor")
    supervisor.void(rid, "opened to test the commitment")
    p2.leave(TABLE)
    p2.close()
    round_id, deal, events = _played(sqlite_server)
    kinds = [e["type"] if e["type"] != "record" else e["kind"] for e in events]
    opened = next(
        i for i, e in enumerate(events) if e["type"] == "round" and e["round_id"] == round_id
    )
    first_wager = next(i for i, k in enumerate(kinds) if k == "wager_placed" and i > opened)
    assert opened < first_wager
    assert events[opened]["deal"] == {"scheme": SCHEME, "commitment": deal["commitment"]}
    assert deal["revealed"] is True
    order, nonce = list(deal["order"]), str(deal["nonce"])
    # The documented encoding, recomputed here by hand: order top first, "\n", the nonce.
    text = (" ".join(order) + "\n" + nonce).encode("utf-8")
    assert hashlib.sha256(text).hexdigest() == deal["commitment"] == digest(order, nonce)
    assert len(bytes.fromhex(nonce)) >= 16  # a nonce of at least 128 bits
    assert sorted(order) == sorted(str(Card.parse(c)) for c in order)  # cards, parsed
    assert len(set(order)) == 52
    taken = int(deal["taken"])
    assert deal["dealt"] == order[taken : taken + len(deal["dealt"])]
    stream_dealt = [e["card"] for e in events if e.get("kind") == "card_dealt" and "card" in e]
    assert set(stream_dealt) <= set(deal["dealt"])


def test_commitments_of_rounds_are_distinct_and_do_not_repeat_the_order(
    sqlite_server: Server,
) -> None:
    """The nonce is fresh each round: two commitments never coincide, and the commitment is
    not the hash of the order alone (it cannot be looked up from the order)."""
    seen = set()
    for _ in range(3):
        _, deal, _ = _played(sqlite_server)
        order = list(deal["order"])
        assert deal["commitment"] != hashlib.sha256(" ".join(order).encode()).hexdigest()
        seen.add(deal["commitment"])
    assert len(seen) == 3


def _verify(url: str, round_id: str) -> int:
    return main(["audit", "verify-deal", round_id, "--db", url])


def _tamper_shoe(url: str, round_id: str, **values: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            row = conn.execute(select(round_shoes).where(round_shoes.c.round_id == round_id)).one()
            cards = values.get("cards", row.cards)
            nonce = values.get("nonce", row.nonce)
            # The attacker recomputes the stored commitment too.
            conn.execute(
                update(round_shoes)
                .where(round_shoes.c.round_id == round_id)
                .values(cards=cards, nonce=nonce, commitment=digest(cards.split(), nonce))
            )
    finally:
        engine.dispose()


def _tamper_dealt_card(url: str, round_id: str) -> None:
    """Change the first dealt card in the records and re-link the whole hash chain."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            rows = conn.execute(
                select(round_records)
                .where(round_records.c.round_id == round_id)
                .order_by(round_records.c.seq)
            ).all()
            from croupier.store.database import as_utc, rounds

            header = conn.execute(select(rounds.c.hash).where(rounds.c.id == round_id)).scalar()
            previous, changed = str(header), False
            for rec in rows:
                data = json.loads(rec.data)
                if not changed and data["kind"] == "card_dealt":
                    data["card"] = "2c" if data["card"] != "2c" else "3c"
                    changed = True
                digest_ = link(previous, record_payload(round_id, rec.seq, data, as_utc(rec.at)))
                conn.execute(
                    update(round_records)
                    .where(round_records.c.round_id == round_id, round_records.c.seq == rec.seq)
                    .values(data=json.dumps(data), hash=digest_)
                )
                previous = digest_
            conn.execute(update(rounds).where(rounds.c.id == round_id).values(head=previous))
    finally:
        engine.dispose()


def test_after_the_round_only_supervisors_and_auditors_read_the_order_others_their_cards(
    sqlite_server: Server,
) -> None:
    """Hidden information outlives the round: a player never obtains another seat's cards
    (a folded hand is never shown) through the deal; the dealer and observers get the cards
    as they saw them; the order and nonce go to supervisors and auditors only."""
    dealer = sqlite_server.client("dealer")
    p1, p2 = sqlite_server.client("player1"), sqlite_server.client("player2")
    p1.sit(TABLE, 1)
    p2.sit(TABLE, 2)
    played = play_round(dealer, {1: p1, 2: p2}, TABLE, dealer.table(TABLE))
    rid = played.round_id
    full = sqlite_server.client("supervisor").get(f"/api/rounds/{rid}/deal")
    assert full["order"] is not None and full["nonce"] is not None
    records = sqlite_server.client("auditor").records(rid)["records"]
    dealt = [r for r in records if r["kind"] in ("card_dealt", "card_discarded")]
    assert [r["card"] for r in dealt] == full["dealt"]
    for who, seat in ((p1, 1), (p2, 2), (dealer, None), (sqlite_server.client("observer"), None)):
        for deal in (who.get(f"/api/rounds/{rid}/deal"), who.view(TABLE)["deal"]):
            assert deal["revealed"] is True and deal["commitment"] == full["commitment"]
            assert deal["order"] is None and deal["nonce"] is None
            assert deal["taken"] == full["taken"]
            for rec, card in zip(dealt, deal["dealt"], strict=True):
                mine = seat is not None and rec.get("to") == str(seat)
                if rec.get("face_up") or mine:
                    assert card == rec["card"]
                elif rec["kind"] == "card_dealt" and rec["to"] in ("1", "2"):
                    assert card is None, (seat, rec)  # another seat's face-down card
    p1.leave(TABLE)
    p2.leave(TABLE)


def test_a_revealed_order_tells_nothing_of_the_rounds_dealt_after_it(
    sqlite_server: Server,
) -> None:
    """The premise of revealing a finished round's order: a poker round deals a fresh shuffle
    of its own (§ 641a.5(a)), never the rest of the revealed one; a baccarat coup deals on from
    one shoe to the coups after it, so its order stays secret, to every role, until the shoe
    ends (tests/live/test_live_baccarat_shoe.py), under the one commitment of the shoe."""
    first = _played(sqlite_server)[1]
    second = _played(sqlite_server)[1]
    assert sorted(first["order"]) == sorted(second["order"])  # each a whole deck
    assert first["order"] != second["order"]
    rest = first["order"][first["taken"] + len(first["dealt"]) :]
    assert second["order"][: len(rest)] != rest
    coups = [_played(sqlite_server, "mini-baccarat")[1] for _ in range(2)]
    for deal in coups:
        assert deal["revealed"] is False
        assert deal["order"] is None and deal["nonce"] is None and deal["dealt"] is None
    assert coups[0]["commitment"] == coups[1]["commitment"]
    assert coups[0]["shoe"] == coups[1]["shoe"] == "mini-baccarat-shoe-000001"


@pytest.mark.parametrize("change", ["order", "nonce", "dealt card"])
def test_verify_deal_catches_a_changed_order_nonce_or_dealt_card(
    sqlite_server: Server, change: str
) -> None:
    round_id, deal, _ = _played(sqlite_server)
    url = sqlite_server.db_url
    assert _verify(url, round_id) == 0
    order = list(deal["order"])
    if change == "order":
        # Swap the top two cards of the order: a different deal.
        order[0], order[1] = order[1], order[0]
        _tamper_shoe(url, round_id, cards=" ".join(order))
    elif change == "nonce":
        _tamper_shoe(url, round_id, nonce="0" * 64)
    else:
        _tamper_dealt_card(url, round_id)
    assert _verify(url, round_id) == 1


def test_verify_deal_refuses_an_open_round_and_the_api_withholds_its_order(
    sqlite_server: Server,
) -> None:
    dealer, p1 = sqlite_server.client("dealer"), sqlite_server.client("player1")
    p1.sit(TABLE, 1)
    rid = dealer.new_round(TABLE)["round_id"]
    assert p1.get(f"/api/rounds/{rid}/deal")["order"] is None
    assert _verify(sqlite_server.db_url, rid) == 2
    sqlite_server.client("supervisor").void(rid, "opened to test the refusal")
    p1.leave(TABLE)
    with pytest.raises(ApiError) as caught:
        p1.get("/api/rounds/no-such-round/deal")
    assert caught.value.status == 404

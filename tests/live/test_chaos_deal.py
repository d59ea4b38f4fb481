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

from croupier.bots import play_round
from croupier.cards import Card
from croupier.cli import main
from croupier.client import ApiError
from croupier.commitment import SCHEME, digest
from croupier.store._db import round_records, round_shoes
from croupier.store.chain import link, record_payload
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


def _played(server: Server) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """One round at TABLE: its id, its revealed deal and the stream's events."""
    dealer, p1 = server.client("dealer"), server.client("player1")
    p1.sit(TABLE, 1)
    detail = dealer.table(TABLE)
    with p1.stream(TABLE) as stream:
        played = play_round(dealer, {1: p1}, TABLE, detail)
        events = stream.drain(dealer.view(TABLE)["seq"])
    deal = p1.get(f"/api/rounds/{played.round_id}/deal")
    p1.leave(TABLE)
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
            from croupier.store._db import as_utc, rounds

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

"""Crash recovery against a real server killed with ``kill -9``: a round whose cards cannot be
accounted for (no persisted shoe order) is held for a supervisor's void, the case of a wrong
number of cards (§ 641a.13(c)); the void returns every wager exactly once, takes the progressive
contributions back off the linked meter, and the ledger balances.  (Rounds that resume:
``test_live_resume.py``.)"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from sqlalchemy import create_engine, delete

from croupier.faces.client import ApiError
from croupier.games import get_game
from croupier.games.records import CardDealt, NoMoreBets
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.server.demo import demo_rules
from croupier.server.recovery import Resumed, hold_reason, recover
from croupier.store import RoundStore
from croupier.store.database import round_shoes
from croupier.table.shoe import SecureShuffler, Shoe
from live.live_harness import Server


def test_641a_13_c_round_without_its_shoe_order_is_held_then_voided_exactly_once(
    server: Server,
) -> None:
    table, meter = "three-card-poker", "pa-poker-jackpot"
    dealer, p1 = server.client("dealer"), server.client("player1")
    supervisor = server.client("supervisor")
    p1.sit(table, 1)
    balance = p1.me()["balance"]
    start = next(m for m in supervisor.meters() if m["name"] == meter)
    started = dealer.new_round(table)
    p1.wager(table, "ante", 500)
    p1.wager(table, "progressive", 100)
    dealer.no_more_bets(table, 1)
    dealer.step(table, "deal")
    assert p1.me()["balance"] == balance - 600
    server.kill()
    # The shoe order is lost while the server is down: the cards dealt on cannot be known.
    engine = create_engine(server.db_url)
    with engine.begin() as conn:
        conn.execute(delete(round_shoes).where(round_shoes.c.round_id == started["round_id"]))
    engine.dispose()
    server.start()
    dealer, p1 = server.client("dealer"), server.client("player1")
    supervisor = server.client("supervisor")
    found = next(t for t in dealer.tables() if t["id"] == table)
    assert found["round_id"] == started["round_id"]
    assert "641a.13(c)" in found["held"] or "649a" in found["held"], found["held"]
    try:
        dealer.step(table, "reveal")
        raise AssertionError("a held round must not go on")
    except ApiError as exc:
        assert exc.status == 409
    voided = supervisor.void(started["round_id"], "shoe order lost in a crash", key="void-1")
    assert voided["phase"] == "void"
    again = supervisor.void(started["round_id"], "shoe order lost in a crash", key="void-1")
    assert again == voided
    assert p1.me()["balance"] == balance
    after = next(m for m in supervisor.meters() if m["name"] == meter)
    assert Fraction(after["exact"]) == Fraction(start["exact"])
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    settled = supervisor.records(started["round_id"])["settlement"]["1"]["wagers"]
    assert {w: s["result"] for w, s in settled.items()} == {"ante": "void", "progressive": "void"}


def _mid_deal(table: str) -> Round:
    """A round of the demo table ``table`` stopped after its first card is dealt."""
    game = get_game(load_rules(demo_rules()[table]))
    shoe = Shoe.shuffled(SecureShuffler(), decks=game.deck_count)
    rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "a"})
    for wager in rnd.house_wagers(1):
        rnd.apply(wager)
    rnd.apply(NoMoreBets(progressive_chips=None))
    rnd.apply(rnd.dealer_step())
    assert rnd.phase is Phase.DEALING and any(isinstance(r, CardDealt) for r in rnd.records)
    return rnd


def test_643a_13_f_automated_shoe_stopped_mid_deal_is_held_for_a_void() -> None:
    # The demo's Let It Ride table deals from an automated shoe: stopped mid-deal, void.
    reason = hold_reason(_mid_deal("let-it-ride"))
    assert reason is not None and "§ 643a.13(f)" in reason
    # A manual shoe mid-deal resumes (the dealer deals on from the same shoe).
    assert hold_reason(_mid_deal("four-card-poker")) is None


def test_641a_13_c_records_that_do_not_replay_from_the_shoe_are_held() -> None:
    rnd = _mid_deal("four-card-poker")
    reason = hold_reason(rnd, unreplayable="stored record 4 differs")
    assert reason is not None and "§ 641a.13(c)" in reason and "stored record 4" in reason


def test_643a_13_f_a_table_moved_to_another_process_deals_on_a_restart_holds_it(
    tmp_path: Path,
) -> None:
    # The demo's Let It Ride deals from an automated shoe; its round stored mid-deal.
    rnd = _mid_deal("let-it-ride")
    with RoundStore(f"sqlite:///{tmp_path / 'rounds.sqlite'}") as store:
        tracked = store.track("LIR-1", rnd)
        assert tracked is not None
        restarted = recover(store, MemoryMeters(), "LIR-1")
        assert restarted.held is not None and "§ 643a.13(f)" in restarted.held
        # another process moved the table: its shoe is the database's, the deal goes on
        moved = recover(store, MemoryMeters(), "LIR-1", Resumed.MOVED)
        assert moved.held is None
        assert moved.round.records == rnd.records and moved.round.phase is Phase.DEALING
        moved.round.apply(moved.round.dealer_step())  # the next card comes from the same shoe

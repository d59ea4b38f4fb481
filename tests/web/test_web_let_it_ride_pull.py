"""Issue 35, defect 1 on the player's page: after a Let It Ride bet is taken back
(§ 643a.11(b)) the page's "Net this round" is the settlement's net and the balance it shows
moved by exactly that net (the ledger used to hand the pulled bet back twice, so the balance
fell by less than the net the page showed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import Desk, close_contexts, desks_of, finish_round, fmt, sign_in
from playwright.sync_api import Browser, expect

TABLE = "let-it-ride"
SEAT = 3
BET = 500


@pytest.fixture()
def desks(pit_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(pit_server, "dealer", "supervisor", "player6") as made:
        yield made


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def test_643a_11_b_pulled_bet_page_net_is_the_balance_change(
    browser: Browser, pit_server: str, desks: dict[str, Desk]
) -> None:
    dealer, sup, me = desks["dealer"], desks["supervisor"], desks["player6"]
    path = f"/api/tables/{TABLE}"
    start = me.get("/api/me")["balance"]
    player = sign_in(browser, pit_server, "player6")
    name = sup.get(path)["name"]
    player.get_by_role("button", name=f"sit at {name} seat {SEAT}").click()
    expect(player.locator("#player-title")).to_have_text(f"Seat {SEAT}", timeout=15_000)
    expect(player.locator("#balance")).to_have_text(fmt(start))
    rid = dealer.post(f"{path}/rounds", {"cut_at": None})["round_id"]
    for wager in ("bet1", "bet2", "bet3"):
        me.post(f"{path}/wagers", {"wager": wager, "amount": BET})
    dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
    while dealer.get(f"{path}/view")["round"].get("to_act_seat") != SEAT:
        dealer.post(f"{path}/deal")
    offered = me.get(f"{path}/actions")["decisions"]
    pull = next(d["decision"] for d in offered if d["name"] == "withdraw")
    player.locator(f'button[data-decision="{pull}"]').click()
    # Bet 1 is back once: two bets are out
    expect(player.locator("#balance")).to_have_text(fmt(start - 2 * BET), timeout=15_000)
    finish_round(dealer, TABLE, {SEAT: me})
    expect(player.locator('[data-phase="over"]')).to_have_count(1, timeout=15_000)
    net = sup.get(f"/api/rounds/{rid}/records")["settlement"][str(SEAT)]["net"]
    assert me.get("/api/me")["balance"] == start + net
    expect(player.locator(".net")).to_have_text(f"Net this round: {fmt(net)}", timeout=15_000)
    expect(player.locator("#balance")).to_have_text(fmt(start + net), timeout=15_000)
    player.get_by_role("button", name="Leave the table").click()
    expect(player.locator("#player-title")).to_have_text("Choose a seat", timeout=15_000)

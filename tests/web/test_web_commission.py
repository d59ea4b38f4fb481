"""Deferred baccarat commission on the pages (§ 541.13(g)), in Chromium against a real
``croupier serve``: the player's page shows the commission owed beside the balance, the felt
shows the marker at the seat, the dealer's console the shoe and the markers by seat, and
leaving the table announces the marker collected."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import Desk, dealer_at, desks_of, fmt, sign_in
from playwright.sync_api import Browser, expect
from shots import Shots

TABLE = "/api/tables/mini-baccarat"
SEAT = 4


@pytest.fixture()
def desks(pit_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(pit_server, "dealer", "player6") as made:
        yield made


def _coup(dealer: Desk, player: Desk) -> dict[str, int]:
    """One coup, the Banker backed with $10; the markers by seat after it."""
    dealer.post(f"{TABLE}/rounds", {"cut_at": None})
    player.post(f"{TABLE}/wagers", {"wager": "banker", "amount": 1000, "seat": SEAT})
    dealer.post(f"{TABLE}/no-more-bets", {"progressive_chips": 0})
    for _ in range(5):
        view = dealer.get(f"{TABLE}/view")
        if view["round"]["phase"] == "over":
            return dict(view["markers"])
        step = {"dealing": "deal", "reveal": "reveal", "settlement": "settle"}
        dealer.post(f"{TABLE}/{step[view['round']['phase']]}")
    raise AssertionError("the coup did not end")


def test_541_13_g_commission_owed_shows_to_the_player_and_the_dealer_until_collected(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    dealer, me = desks["dealer"], desks["player6"]
    me.post(f"{TABLE}/sit", {"seat": SEAT})
    for _ in range(40):  # each coup's Banker wins about 46% of the time
        if str(SEAT) in _coup(dealer, me):
            break
    owed = int(me.get("/api/me")["commission_owed"])
    assert owed == 50  # 5% of the $10 the Banker's Hand won, the first time it won
    page = sign_in(browser, pit_server, "player6")
    settled = page.get_by_label(f"settlement of seat {SEAT}")
    expect(settled).to_contain_text("Commission marked")
    expect(settled).to_contain_text(f"owes {fmt(owed)}")
    expect(page.locator("#commission-owed")).to_contain_text(f"Commission owed {fmt(owed)}")
    marker = page.get_by_label(f"seat {SEAT} commission owed")
    expect(marker).to_have_text(f"Commission owed {fmt(owed)}")
    console = dealer_at(browser, pit_server, "mini-baccarat")
    shoe = console.get_by_role("region", name="the shoe")
    expect(shoe).to_contain_text("mini-baccarat-shoe-000001")
    expect(shoe.get_by_role("table", name="commission owed by seat")).to_contain_text(
        f"Seat {SEAT}{fmt(owed)}"
    )
    expect(console.get_by_label(f"seat {SEAT} commission owed")).to_be_visible()
    shots.take(page, "player-commission-owed")
    shots.take(console, "dealer-commission-owed")
    page.get_by_role("button", name="Leave the table").click()
    expect(page.locator("#callout")).to_contain_text(f"Commission collected: {fmt(owed)}")
    assert me.get("/api/me")["commission_owed"] == 0
    expect(console.get_by_label(f"seat {SEAT} commission owed")).to_have_count(0, timeout=15_000)
    page.context.close()
    console.context.close()

"""Issue 40, the pit on a phone (375x667): what the supervisor must act on now is at the top of
the floor, inside the viewport without scrolling ("Needs you now": a progressive count held for
a recount, § 641a.8(b)); a tile clicked brings its table's live felt into view, the felt
whole inside the viewport (the shift's figures follow it on a phone)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe import serious
from desks import Desk, box_of, close_contexts, desks_of, finish_round, sign_in
from playwright.sync_api import Browser, Page, expect
from test_web_issue40 import inside

from croupier.faces.reader import ShoeReader

PHONE = {"width": 375, "height": 667}
WAIT = 15_000
SENSED = "fcp-sensed"


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


@pytest.fixture(scope="module")
def staff(fresh_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(fresh_server, "dealer", "supervisor", "player1", "player2") as made:
        yield made


def in_view(page: Page, selector: str, where: str) -> dict[str, float]:
    """``selector``'s box lies wholly inside the viewport as the page is scrolled now."""
    box = box_of(page, selector)
    assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], (where, selector, box)
    assert box["left"] >= 0 and box["right"] <= PHONE["width"], (where, selector, box)
    return box


def test_issue40_pit_phone_clicked_tile_brings_the_whole_felt_into_view(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    dealer, player = staff["dealer"], staff["player1"]
    table, path = "three-card-poker", "/api/tables/three-card-poker"
    player.post(f"{path}/sit", {"seat": 1})
    dealer.post(f"{path}/rounds", {"cut_at": None})
    player.post(f"{path}/wagers", {"wager": "ante", "amount": 500})
    dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
    dealer.post(f"{path}/deal")
    page = sign_in(browser, fresh_server, "observer", **PHONE)
    tile = page.locator(f'.tile[data-table="{table}"]')
    expect(tile).to_be_visible(timeout=WAIT)
    below = box_of(page, f'.tile[data-table="{table}"]')  # the floor redraws its tiles
    assert below["top"] > PHONE["height"], below  # below the fold
    tile.locator("h3").click()
    expect(page.locator(".watch .phase-pill")).to_have_text("decisions", timeout=WAIT)
    expect(page.locator('.watch [data-card="back"]')).to_have_count(6, timeout=WAIT)
    page.wait_for_function("window.scrollY > 0", timeout=WAIT)
    title = in_view(page, "#watch-title", "the felt's title")
    felt = in_view(page, '.watch [aria-label="the table"]', "the felt")
    assert title["bottom"] <= felt["top"]
    # the figures follow the felt on a phone
    figures = box_of(page, ".watch dl.figures")
    assert figures["top"] >= felt["bottom"], (figures, felt)
    assert serious(page) == []
    finish_round(dealer, table, {1: player})
    player.post(f"{path}/leave")


def _count_held(base: str, staff: dict[str, Desk]) -> None:
    """A Four Card Poker table with progressive sensors whose dealer counted two progressive
    chips where the system accepted one: the round held for a supervisor's recount."""
    supervisor, player = staff["supervisor"], staff["player2"]
    rules = supervisor.get("/api/tables/four-card-poker")["rules"]
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
    supervisor.post("/api/tables", {"id": SENSED, "name": "Sensed FCP", "rules": rules})
    supervisor.post(f"/api/tables/{SENSED}/open")
    player.post(f"/api/tables/{SENSED}/sit", {"seat": 1})
    sensors = ShoeReader(base, SENSED, supervisor.post(f"/api/tables/{SENSED}/devices")["token"])
    try:
        staff["dealer"].post(f"/api/tables/{SENSED}/rounds", {"cut_at": None})
        player.post(f"/api/tables/{SENSED}/wagers", {"wager": "ante", "amount": 500})
        sensors.sense(1, "lit")
        staff["dealer"].post(f"/api/tables/{SENSED}/no-more-bets", {"progressive_chips": 2})
    finally:
        sensors.close()
    assert supervisor.get(f"/api/tables/{SENSED}")["phase"] == "count_held"


def test_641a_8_b_pit_phone_a_count_held_needs_the_supervisor_at_the_top(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    _count_held(fresh_server, staff)
    page = sign_in(browser, fresh_server, "supervisor", **PHONE)
    needs = page.get_by_role("region", name="Needs you now")
    expect(needs).to_contain_text("Sensed FCP", timeout=WAIT)
    expect(needs).to_contain_text("recount")
    inside(page, "#needs-title, .needs input, .needs button", "needs you now")
    # the tile says where its action went; the recount is not offered twice
    tile = page.locator(f'.tile[data-table="{SENSED}"]')
    expect(tile).to_contain_text("Needs you now")
    expect(page.locator(f'button[data-recount="{SENSED}"]')).to_have_count(1)
    assert serious(page) == []
    page.get_by_label("progressive chips recounted at Sensed FCP").fill("1")
    page.locator(f'button[data-recount="{SENSED}"]').click()
    expect(needs).to_have_count(0, timeout=WAIT)
    assert staff["supervisor"].get(f"/api/tables/{SENSED}")["phase"] != "count_held"

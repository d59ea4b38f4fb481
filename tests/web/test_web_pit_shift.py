"""Issue 40, the pit: a table's live felt from its tile (the pit's role sees the face-up layout:
no face-down card reaches the page), the shift's figures and the players' ratings as the server
computed them (``GET /api/pit/shift``), inside the viewport at 1280x720 (on a phone the felt
comes first: tests/web/test_web_pit_phone.py), axe-core clean; the supervisor buys in and
cashes out a player by name from the player list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe import serious
from desks import Desk, box_of, close_contexts, desks_of, finish_round, fmt, sign_in
from playwright.sync_api import Browser, Page, expect
from shots import Shots

SIZES = {"1280x720": (1280, 720), "375x667": (375, 667)}
TABLE = "three-card-poker"
PATH = f"/api/tables/{TABLE}"
WAIT = 15_000
PRICED = 120_000
"""A par sheet's first computation in the server's worker (seconds; minutes on a busy box)."""

CARDS = "() => [...document.querySelectorAll('[data-card]')].map((el) => el.dataset.card)"


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


@pytest.fixture(scope="module")
def staff(fresh_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(fresh_server, "dealer", "supervisor", "player1") as made:
        if TABLE not in made["player1"].get("/api/me").get("seats", {}):
            made["player1"].post(f"{PATH}/sit", {"seat": 1})
        yield made


def _dealt_round(staff: dict[str, Desk]) -> str:
    """A round at the table with seat 1's Ante placed and the cards dealt face down."""
    dealer, player = staff["dealer"], staff["player1"]
    rnd = dealer.get(f"{PATH}/view").get("round")
    if rnd and rnd["phase"] not in ("over", "void"):
        finish_round(dealer, TABLE, {1: player})
    rid: str = dealer.post(f"{PATH}/rounds", {"cut_at": None})["round_id"]
    player.post(f"{PATH}/wagers", {"wager": "ante", "amount": 500})
    dealer.post(f"{PATH}/no-more-bets", {"progressive_chips": 0})
    dealer.post(f"{PATH}/deal")
    return rid


def _row(staff: dict[str, Desk]) -> dict[str, Any]:
    shift = staff["supervisor"].get("/api/pit/shift")
    row: dict[str, Any] = next(t for t in shift["tables"] if t["table_id"] == TABLE)
    return row


def _inside(page: Page, selector: str, where: str) -> None:
    """``selector``'s box lies inside the viewport, the page not scrolled."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    assert page.evaluate("window.scrollY") == 0, where
    box = box_of(page, selector)
    assert box["top"] >= 0 and box["bottom"] <= height, (where, selector, box)
    assert box["left"] >= 0 and box["right"] <= width, (where, selector, box)


@pytest.mark.parametrize("size", SIZES)
def test_issue40_pit_live_felt_has_no_hidden_card_and_shows_the_shift_figures(
    browser: Browser, fresh_server: str, staff: dict[str, Desk], shots: Shots, size: str
) -> None:
    dealer, player = staff["dealer"], staff["player1"]
    _dealt_round(staff)
    finish_round(dealer, TABLE, {1: player})  # one round over: figures to show
    rid = _dealt_round(staff)
    width, height = SIZES[size]
    page = sign_in(browser, fresh_server, "observer", width=width, height=height)
    page.locator(f'.tile[data-table="{TABLE}"] h3').click()
    felt = page.get_by_role("region", name="the table")
    expect(page.locator("#watch-title")).to_contain_text("live felt", timeout=WAIT)
    expect(page.locator(".watch .phase-pill")).to_have_text("decisions", timeout=WAIT)
    # the seat's three cards and the dealer's, face down: backs only
    expect(felt.locator('[data-card="back"]')).to_have_count(6, timeout=WAIT)
    during = set(page.evaluate(CARDS))
    # the figures the server computed, as the page shows them
    row = _row(staff)
    figures = page.locator("dl.figures")
    expect(figures.locator('[data-figure="drop"] dd')).to_have_text(fmt(row["drop"]))
    expect(figures.locator('[data-figure="win"] dd')).to_have_text(fmt(row["win"]))
    expect(figures.locator('[data-figure="hold"] dd')).to_have_text(f"{row['hold_percent']:.2f}%")
    expect(figures.locator('[data-figure="rounds"] dd')).to_have_text(str(row["rounds"]))
    expect(figures.locator('[data-figure="average"] dd')).to_have_text(fmt(row["average_wager"]))
    theo = figures.locator('[data-figure="theo"] dd')
    expect(theo).not_to_have_text("computing…", timeout=PRICED)
    expect(theo).to_have_text(fmt(_row(staff)["theo"]))
    if width > 480:
        for selector in ("#watch-title", "dl.figures"):
            _inside(page, selector, size)
        felt_top = box_of(page, '.watch [aria-label="the table"]')
        assert 0 <= felt_top["top"] < height, (size, felt_top)
    # on a phone the felt is scrolled into view and the figures follow it
    # (tests/web/test_web_pit_phone.py)
    assert serious(page) == [], size
    shots.take(page, f"pit-felt-{size}", "viewport")
    # the round ends: the felt follows the table's stream, the figures the ledger
    finish_round(dealer, TABLE, {1: player})
    expect(page.locator(".watch .phase-pill")).to_have_text("over", timeout=WAIT)
    after = _row(staff)
    expect(figures.locator('[data-figure="rounds"] dd')).to_have_text(
        str(after["rounds"]), timeout=WAIT
    )
    expect(figures.locator('[data-figure="drop"] dd')).to_have_text(fmt(after["drop"]))
    records = staff["supervisor"].get(f"/api/rounds/{rid}/records")["records"]
    hidden = {r["card"] for r in records if r["kind"] == "card_dealt" and not r.get("face_up")}
    assert len(hidden) == 6
    # none of them was ever in the page while it was face down
    assert not hidden & during, hidden & during


@pytest.mark.parametrize("size", SIZES)
def test_issue40_pit_player_list_rates_players_and_buys_in_by_name(
    browser: Browser, fresh_server: str, staff: dict[str, Desk], shots: Shots, size: str
) -> None:
    dealer, player = staff["dealer"], staff["player1"]
    _dealt_round(staff)
    finish_round(dealer, TABLE, {1: player})
    width, height = SIZES[size]
    page = sign_in(browser, fresh_server, "supervisor", width=width, height=height)
    page.get_by_role("tab", name="Players").click()
    me = player.get("/api/me")
    rating = next(
        p for p in staff["supervisor"].get("/api/pit/shift")["players"]
        if p["player_id"] == me["player_id"]
    )  # fmt: skip
    row = page.locator(f'tr[data-player="{me["player_id"]}"]')
    expect(row).to_contain_text(rating["name"], timeout=WAIT)
    expect(row).to_contain_text("Three Card Poker · seat 1")
    expect(row).to_contain_text(fmt(me["balance"]))
    expect(row.locator("td").nth(3)).to_have_text(f"{rating['hands']}")
    expect(row.locator("td").nth(4)).to_have_text(fmt(rating["average_bet"]))
    expect(row.locator("td").nth(5)).not_to_have_text("computing…", timeout=PRICED)
    _inside(page, f'tr[data-player="{me["player_id"]}"] th', size)
    assert serious(page) == [], size
    shots.take(page, f"pit-players-{size}", "viewport")
    name = me["username"]
    page.get_by_label(f"amount for {name} ($)").fill("25")
    page.get_by_role("button", name=f"buy in for {name}").click()
    expect(page.locator("#callout")).to_contain_text(f"Buy-in of $25 for {name} recorded")
    assert player.get("/api/me")["balance"] == me["balance"] + 2500
    expect(row).to_contain_text(fmt(me["balance"] + 2500), timeout=WAIT)
    page.get_by_label(f"amount for {name} ($)").fill("25")
    page.get_by_role("button", name=f"cash out for {name}").click()
    expect(page.locator("#callout")).to_contain_text(f"Cash-out of $25 for {name} recorded")
    assert player.get("/api/me")["balance"] == me["balance"]
    expect(row).to_contain_text(fmt(me["balance"]), timeout=WAIT)

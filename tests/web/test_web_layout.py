"""The pages' layout in Chromium against a real ``croupier serve``: every page at a phone's
375 px width (no horizontal scrolling, every control visible and labelled), and the seat boxes
of the poker games (Let It Ride, Mississippi Stud, Ultimate Texas Hold 'Em: each hand is turned
up at settlement, § 643a.11, § 571.11(h), § 569.11(h)) holding the hand, and the widest, five
cards, inside the box with every card's corner index showing, at 1280x800 and at 375 px."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from desks import WAGERS, Desk, dealer_at, finish_round, sign_in
from playwright.sync_api import Browser, Page, expect
from shots import Shots

FIVE_CARDS = ("let-it-ride", "mississippi-stud", "ultimate-texas-holdem")
SEATS = {1: "player1", 4: "player2", 7: "player3"}
PHONE = {"width": 375, "height": 812}
INDEX_PX = 12
"""The width of a card's corner index (rank over suit) that must stay visible in a fan."""

CONTROLS = """() => {
  const name = (el) => (el.getAttribute('aria-label')
    || (el.labels && el.labels[0] && el.labels[0].textContent)
    || el.textContent || el.getAttribute('placeholder') || '').trim();
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return p;
    }
    return null;
  };
  const out = [];
  const sel = 'button, input, select, a[href]:not(.skip), [role=tab], summary';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    const box = scrolls(el);
    const right = box ? box.getBoundingClientRect().right : r.right;
    out.push({ name: name(el), tag: el.tagName, left: Math.round(r.left),
      right: Math.round(right) });
  }
  return out;
}"""
WIDER = """(width) => [...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > width + 1)
  .slice(0, 6).map((el) => `${el.tagName}.${el.className.baseVal ?? el.className}`)"""
SEAT_FANS = """() => [...document.querySelectorAll('.seat')].map((seat) => {
  const box = seat.getBoundingClientRect();
  const cards = [...seat.querySelectorAll('.hand [data-card]')]
    .map((c) => c.getBoundingClientRect());
  return { seat: seat.dataset.seat, left: box.left, right: box.right,
    cards: cards.map((c) => [c.left, c.right, c.width]) };
})"""


@pytest.fixture(scope="module")
def settled(pit_server: str) -> Iterator[dict[str, str]]:
    """A round of each five-card game played to its end with three players (seats 1, 4, 7)."""
    dealer = Desk(pit_server, "dealer")
    players = {seat: Desk(pit_server, user) for seat, user in SEATS.items()}
    rounds = {}
    for table in FIVE_CARDS:
        path = f"/api/tables/{table}"
        for seat, desk in players.items():
            desk.post(f"{path}/sit", {"seat": seat})
        rounds[table] = dealer.post(f"{path}/rounds", {"cut_at": None})["round_id"]
        for desk in players.values():
            for wager in WAGERS[table]:
                desk.post(f"{path}/wagers", {"wager": wager, "amount": 500})
        finish_round(dealer, table, players)
        if table != FIVE_CARDS[-1]:
            for desk in players.values():
                desk.post(f"{path}/leave")
    yield rounds
    for desk in [dealer, *players.values()]:
        desk.close()


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    for ctx in browser.contexts:
        ctx.close()


def _fits(page: Page, width: int, where: str) -> None:
    """No horizontal scrolling; every visible control labelled and inside the width (or inside
    a box of its own that scrolls)."""
    wide = page.evaluate(WIDER, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (where, wide)
    controls: list[dict[str, Any]] = page.evaluate(CONTROLS)
    assert controls, where
    for c in controls:
        assert c["name"], (where, c)
        assert c["left"] >= 0 and c["right"] <= width + 1, (where, c)


def _fans(page: Page, where: str) -> dict[str, int]:
    """Each seat's cards lie inside its box, each showing at least its corner index; returns
    the number of cards in each seat holding some."""
    held = {}
    for seat in page.evaluate(SEAT_FANS):
        cards = seat["cards"]
        for left, right, _ in cards:
            assert seat["left"] - 0.5 <= left and right <= seat["right"] + 0.5, (where, seat)
        steps = [b[0] - a[0] for a, b in itertools.pairwise(cards)]
        assert all(s >= INDEX_PX for s in steps), (where, seat["seat"], steps)
        if cards:
            held[seat["seat"]] = len(cards)
    return held


FIVE_EVERYWHERE = """() => {
  // the felt drawn with a five-card hand at every seat (a Let It Ride hand with its two
  // community cards, say): the widest a seat's box must hold
  const s = new RoundState();
  const hand = ['As', 'Kd', 'Qh', 'Jc', 'Ts'];
  for (let n = 1; n <= 7; n++) { s.boxes[String(n)] = hand; s.shown[String(n)] = 'royal_flush';
    s.wagers[String(n)] = { bet1: 500, bet2: 500, bet3: 500, three_card_bonus: 2500 }; }
  document.querySelector('.felt').replaceWith(drawFelt({ game: 'let-it-ride', meters: {} }, s, {}));
}"""


@pytest.mark.parametrize("table", FIVE_CARDS)
def test_seat_boxes_hold_a_five_card_hand_at_1280_and_375_px(
    browser: Browser, pit_server: str, shots: Shots, settled: dict[str, str], table: str
) -> None:
    auditor = Desk(pit_server, "auditor")
    records = auditor.get(f"/api/rounds/{settled[table]}/records")["records"]
    auditor.close()
    shown = {str(r["seat"]): len(r["cards"]) for r in records if r["kind"] == "hand_shown"}
    assert set(shown) == {str(s) for s in SEATS}
    for size in ({"width": 1280, "height": 800}, PHONE):
        dealer = dealer_at(browser, pit_server, table, **size)
        expect(dealer.locator('[data-phase="over"]')).to_have_count(1, timeout=15_000)
        expect(dealer.locator(".seat .hand [data-card]")).not_to_have_count(0)
        shots.take(dealer, f"layout-dealer-{table}-{size['width']}")
        where = f"dealer {table} {size['width']}"
        # the hands turned up at settlement (§ 569.11(h) and parallels), each in its box
        assert _fans(dealer, where) == shown
        _fits(dealer, size["width"], where)
        dealer.evaluate(FIVE_EVERYWHERE)
        assert _fans(dealer, where + " five cards") == {str(n): 5 for n in range(1, 8)}
        _fits(dealer, size["width"], where + " five cards")
        shots.take(dealer, f"layout-five-cards-{size['width']}")
        dealer.context.close()


def test_every_page_fits_a_phone_with_labelled_controls(
    browser: Browser, pit_server: str, shots: Shots, settled: dict[str, str]
) -> None:
    base = pit_server
    page = browser.new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto(base + "/")
    expect(page.get_by_label("User name")).to_be_visible()
    _fits(page, 375, "sign-in")
    page.context.close()
    # the player's page: seat 1 at the Hold 'Em table after its round
    player = sign_in(browser, base, "player1", **PHONE)
    expect(player.locator("#player-title")).to_have_text("Seat 1", timeout=15_000)
    expect(player.get_by_label("settlement of seat 1")).to_be_visible(timeout=15_000)
    _fits(player, 375, "player")
    assert set(_fans(player, "player")) == {"4", "7"}  # the player's own hand is drawn big
    shots.take(player, "phone-player")
    # the dealer's console
    dealer = dealer_at(browser, base, "ultimate-texas-holdem", **PHONE)
    expect(dealer.locator('[data-phase="over"]')).to_have_count(1, timeout=15_000)
    _fits(dealer, 375, "dealer")
    shots.take(dealer, "phone-dealer")
    # the pit: every tab, and a replay
    pit = sign_in(browser, base, "supervisor", **PHONE)
    expect(pit.locator("#pit-title")).to_be_visible()
    expect(pit.locator(".tile[data-table]")).not_to_have_count(0)
    _fits(pit, 375, "pit floor")
    shots.take(pit, "phone-pit-floor")
    tabs = {"Hand pays": "Hand pays", "Buy-ins and cash-outs": "Buy-ins and cash-outs"}
    for tab, heading in {**tabs, "Audit": "audit verify"}.items():
        pit.get_by_role("tab", name=tab).click()
        expect(pit.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
        expect(pit.locator("#pit-body h2").first).to_have_text(heading)
        if tab == "Audit":
            pit.get_by_role("button", name="Run audit verify").click()
            expect(pit.get_by_label("audit result")).to_be_visible()
        _fits(pit, 375, f"pit {tab}")
    pit.get_by_role("tab", name="Game recall").click()
    pit.get_by_role("combobox", name="Table").select_option("ultimate-texas-holdem")
    pit.get_by_role("button", name="Recall").click()
    pit.locator(f'button[data-round="{settled["ultimate-texas-holdem"]}"]').click()
    expect(pit.get_by_role("region", name="provable deal")).to_be_visible()
    _fits(pit, 375, "pit replay")
    shots.take(pit, "phone-pit-replay")
    # the par sheets
    pit.get_by_role("button", name="Par sheets").click()
    pit.get_by_label("Game", exact=True).select_option("three-card-poker")
    pit.get_by_role("button", name="Show par sheet").click()
    expect(pit.locator("#par-summary")).to_be_visible(timeout=120_000)
    _fits(pit, 375, "par sheet")
    shots.take(pit, "phone-par", "viewport")

"""Progressive wagers in Chromium on a training floor (every table a training table, each page
showing it; a stacked deck, which real play refuses):
the dealer's progressive chip count at "no more bets" and a 100% award paid as a hand-pay that a
supervisor approves on the pit page before the table deals again.

Four Card Poker (demo table: progressive table A, $1 wager, 25% rate of progression) with one
player at seat 1; the cards are dealt one at a time, the player then the dealer, the dealer's
sixth card last.  The stacked deck, top first::

    As 2c Ah 3c Ad 4c Ac 5h Kd 7h 9d

seat 1: As Ah Ad Ac Kd (four aces: the whole meter, § 641a.12(d) table A);
dealer: 2c 3c 4c 5h 7h 9d.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import Training
from desks import spoken
from playwright.sync_api import Browser, Page, expect
from shots import Shots

from croupier.faces.client import tls_context

FOUR_ACES = "As 2c Ah 3c Ad 4c Ac 5h Kd 7h 9d"
TRAINING_STACK = FOUR_ACES
FCP = "four-card-poker"
TCP = "three-card-poker"


class Desk:
    """One account on the live-table API (to read what the pages must show)."""

    def __init__(self, base: str, user: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30, verify=tls_context())
        res = self.client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
        res.raise_for_status()
        self.client.headers["Authorization"] = f"Bearer {res.json()['token']}"

    def get(self, path: str) -> Any:
        res = self.client.get(path)
        res.raise_for_status()
        return res.json()

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        key = {"Idempotency-Key": str(uuid.uuid4())}
        res = self.client.post(path, json=body or {}, headers=key)
        res.raise_for_status()
        return res.json()


@pytest.fixture()
def desks(training_server: Training) -> Iterator[dict[str, Desk]]:
    made = {u: Desk(training_server.url, u) for u in ("supervisor", "player1", "player2")}
    yield made
    for d in made.values():
        d.client.close()


def _sign_in(browser: Browser, base: str, user: str) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(base + "/")
    page.get_by_label("User name").fill(user)
    page.get_by_label("Password").fill(f"{user}-demo")
    page.get_by_role("button", name="Sign in").click()
    return page


def _fmt(cents: int) -> str:
    d, c = divmod(abs(cents), 100)
    return ("-" if cents < 0 else "") + f"${d:,}" + (f".{c:02d}" if c else "")


def _seat_and_open(
    browser: Browser, base: str, table: str, user: str, seat: int, stack: str = ""
) -> tuple[Page, Page]:
    """The dealer takes ``table``, ``user`` sits at ``seat``, the dealer opens betting (with
    ``stack`` typed in the console's stack field)."""
    dealer = _sign_in(browser, base, "dealer")
    dealer.locator(f'[data-table="{table}"] button').click()
    expect(dealer.locator("#dealer-title")).to_have_text("Dealer console", timeout=15_000)
    player = _sign_in(browser, base, user)
    player.locator(f'[data-table="{table}"]').get_by_role("button", name=str(seat)).click()
    expect(player.locator("#player-title")).to_have_text(f"Seat {seat}", timeout=15_000)
    # a training table says so on every page; its dealer may stack the next round
    for page in (dealer, player):
        expect(page.locator(".table-head .training-banner")).to_contain_text("Training table")
    dealer.get_by_label("Stack the next round (training)").fill(stack)
    dealer.locator('button[data-step="rounds"]').click()
    return dealer, player


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    """Each role's browser context is closed after the test (one browser per session)."""
    yield
    for ctx in browser.contexts:
        ctx.close()


def _place(player: Page, wager: str, cents: int) -> None:
    place = player.locator(f'button[data-wager="{wager}"]')
    expect(place).to_be_visible(timeout=15_000)
    player.get_by_label(spoken(wager), exact=True).select_option(str(cents))
    place.click()
    expect(place).to_have_count(0, timeout=15_000)


def _step(dealer: Page, step: str) -> None:
    button = dealer.locator(f'button[data-step="{step}"]:not([disabled])')
    expect(button).to_have_count(1, timeout=15_000)
    button.click()


def test_641a_11_c_5_a_100_percent_award_waits_for_the_supervisors_hand_pay(
    browser: Browser, training_server: Training, shots: Shots, desks: dict[str, Desk]
) -> None:
    base, table = training_server.url, f"/api/tables/{FCP}"
    training_server.stack_deck(FOUR_ACES)
    dealer, player = _seat_and_open(browser, base, FCP, "player1", 1)
    _place(player, "ante", 500)
    _place(player, "progressive", 100)
    # the dealer's count: the system accepted one progressive wager; the chips agree
    expect(dealer.locator("#prog-accepted")).to_have_text(
        "the system accepted 1 progressive wager", timeout=15_000
    )
    expect(dealer.locator("#prog-chips")).to_have_value("1")
    meter = desks["supervisor"].get(f"{table}/view")["meters"][FCP]
    _step(dealer, "no-more-bets")
    # § 641a.8(b): each accepted progressive wager adds the rate of progression to the meter
    grown = meter + 25
    expect(player.locator(f'[data-meter="{FCP}"]')).to_contain_text(_fmt(grown), timeout=15_000)
    _step(dealer, "deal")
    expect(player.get_by_label("your cards").locator("[data-card]")).to_have_count(5)
    for card in ("As", "Ah", "Ad", "Ac", "Kd"):
        expect(player.get_by_label("your cards").locator(f'[data-card="{card}"]')).to_have_count(1)
    # the decision in the engine's words (Round.describe), not the page's
    expect(player.locator('[data-decision="play 3"]')).to_have_text("Play 3x the Ante")
    player.locator('[data-decision="play 3"]').click()
    _step(dealer, "reveal")
    _step(dealer, "settle")
    expect(dealer.locator('[data-phase="over"]')).to_have_count(1, timeout=15_000)

    head = dealer.locator(".table-head").inner_text()
    rid = re.findall(rf"round ({FCP}-\d+)", head)[0]
    records = desks["supervisor"].get(f"/api/rounds/{rid}/records")["records"]
    (award,) = [r for r in records if r["kind"] == "progressive_paid"]
    assert award["from_meter"] and award["line"] == "four_aces" and award["amount"] == grown
    settle = player.get_by_label("settlement of seat 1")
    expect(settle).to_contain_text("Progressive wins (four aces)")
    expect(settle).to_contain_text(f"pays {_fmt(grown)}")
    expect(settle).to_contain_text("Progressive four aces: hand pay, approved by a supervisor")
    expect(settle).to_contain_text(f"hand pay {_fmt(grown)}")
    # the award is not paid from the table inventory: not in the balance before the approval
    waiting = desks["player1"].get("/api/me")["balance"]
    expect(player.locator("#balance")).to_have_text(_fmt(waiting))
    shots.take(player, "handpay-player-awarded")

    # no next round while the hand-pay waits (§ 641a.11(c)(5)(iv))
    _step(dealer, "rounds")
    expect(dealer.locator("#callout")).to_contain_text("waits for a supervisor's approval")
    expect(dealer.locator("#callout")).to_contain_text("§ 641a.11(c)(5)(iv)")
    expect(dealer.locator('[data-phase="over"]')).to_have_count(1)

    # the supervisor approves it on the pit page
    pit = _sign_in(browser, base, "supervisor")
    expect(pit.locator(f'[data-table="{FCP}"] .training-banner')).to_be_visible(timeout=15_000)
    pit.get_by_role("tab", name="Hand pays").click()
    (pay,) = [p for p in desks["supervisor"].get("/api/handpays") if p["round_id"] == rid]
    row = pit.locator(f'tr[data-handpay="{pay["id"]}"]')
    expect(row).to_have_attribute("data-status", "pending")
    expect(row).to_contain_text(_fmt(grown))
    expect(row).to_contain_text("four aces")
    shots.take(pit, "handpay-pit-pending")
    row.get_by_role("button", name=re.compile(f"approve hand pay {pay['id']}")).click()
    expect(pit.locator("#callout")).to_contain_text(f"Hand pay {pay['id']} approved")
    expect(row).to_contain_text("approved by supervisor")
    assert desks["player1"].get("/api/me")["balance"] == waiting + grown
    expect(player.locator("#balance")).to_have_text(_fmt(waiting + grown), timeout=15_000)
    shots.take(pit, "handpay-pit-approved")

    # the table deals again
    training_server.stack_deck("")
    _step(dealer, "rounds")
    expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
    desks["player1"].post(f"{table}/leave")


def test_641a_8_b_a_progressive_chip_count_that_differs_voids_the_round(
    browser: Browser, training_server: Training, shots: Shots, desks: dict[str, Desk]
) -> None:
    training_server.stack_deck("")
    start = desks["player2"].get("/api/me")["balance"]
    dealer, player = _seat_and_open(browser, training_server.url, TCP, "player2", 3)
    # by keyboard alone: the amount chosen with the arrow keys (from the posted minimum $5 to
    # $10 and back), Tab to the button
    amount = player.get_by_label(spoken("ante"), exact=True)
    expect(amount).to_be_visible(timeout=15_000)
    amount.focus()
    player.keyboard.press("ArrowDown")
    expect(amount).to_have_value("1000")
    player.keyboard.press("ArrowUp")
    expect(amount).to_have_value("500")
    player.keyboard.press("Tab")
    expect(player.locator('button[data-wager="ante"]')).to_be_focused()
    player.keyboard.press("Enter")
    expect(player.locator('button[data-wager="ante"]')).to_have_count(0, timeout=15_000)
    _place(player, "progressive", 100)
    expect(dealer.locator("#prog-chips")).to_have_value("1", timeout=15_000)
    # the dealer collected no progressive chip although the system accepted one wager
    dealer.get_by_label("Progressive chips counted").fill("0")
    _step(dealer, "no-more-bets")
    expect(dealer.locator('[data-phase="void"]')).to_have_count(1, timeout=15_000)
    expect(dealer.locator("#callout")).to_contain_text("Round void: 0 progressive chips")
    calls = dealer.get_by_role("list", name="calls")
    expect(calls).to_contain_text("Round void: 0 progressive chips collected")
    expect(calls).to_contain_text("the system accepted 1 progressive wagers")
    # every wager goes back to the player
    settle = player.get_by_label("settlement of seat 3")
    expect(settle).to_contain_text("Ante void")
    expect(settle).to_contain_text("returned $5")
    expect(settle).to_contain_text("Progressive void")
    expect(settle).to_contain_text("returned $1")
    assert desks["player2"].get("/api/me")["balance"] == start
    expect(player.locator("#balance")).to_have_text(_fmt(start))
    shots.take(dealer, "progressive-count-void-dealer")
    desks["player2"].post(f"/api/tables/{TCP}/leave")


def test_the_dealer_stacks_the_next_round_from_the_console(
    browser: Browser, training_server: Training, desks: dict[str, Desk]
) -> None:
    # the console's stack goes on top of whatever the table's shuffle gives (top first)
    training_server.stack_deck("")
    stack = "Qh Qd Qc 2s 5d 9c"
    dealer, player = _seat_and_open(browser, training_server.url, TCP, "player2", 3, stack)
    _place(player, "ante", 500)
    _step(dealer, "no-more-bets")
    _step(dealer, "deal")
    mine = player.get_by_label("your cards").locator("[data-card]")
    expect(mine).to_have_count(3, timeout=15_000)
    assert [c.get_attribute("data-card") for c in mine.all()] == ["Qh", "Qd", "Qc"]
    rid = desks["player2"].get(f"/api/tables/{TCP}/view")["round_id"]
    assert desks["supervisor"].get(f"/api/rounds/{rid}/deal")["commitment"]
    desks["supervisor"].post(f"/api/rounds/{rid}/void", {"reason": "training: stack drill"})
    desks["player2"].post(f"/api/tables/{TCP}/leave")
    # the pit's recall of the round: its record header says training, and the page shows it
    pit = _sign_in(browser, training_server.url, "supervisor")
    pit.get_by_role("tab", name="Game recall").click()
    pit.get_by_role("combobox", name="Table").select_option(TCP)
    pit.get_by_role("button", name="Recall").click()
    pit.locator(f'button[data-round="{rid}"]').click()
    expect(pit.locator("#replay .training-banner")).to_contain_text("Training table")

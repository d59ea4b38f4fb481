"""The pages the documentation shows (README.md's "Pages", docs/web.md), set up as the captions
say and checked as people see them: what the person acts on inside the viewport, axe-core clean.
With ``CROUPIER_README_SHOTS=1`` each test also writes its screenshot to ``docs/web-*.png``
(:func:`shots.for_docs`); without it the tests check the pages and write nothing:

    CROUPIER_README_SHOTS=1 pytest tests/web/test_web_readme_shots.py
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe import serious
from desks import Desk, box_of, close_contexts, dealer_at, desks_of, finish_round, sign_in, step
from playwright.sync_api import Browser, Page, expect
from shots import for_docs
from test_web_issue40 import inside, seated

WAIT = 15_000
PHONE = {"width": 375, "height": 667}
WIDE = {"width": 1280, "height": 720}
UTH = "ultimate-texas-holdem"
KEYED = "fcp-keyed"


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


@pytest.fixture(scope="module")
def staff(fresh_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(fresh_server, "dealer", "supervisor", "player1", "player2", "player3") as made:
        yield made


def _deciding(staff: dict[str, Desk]) -> None:
    """A round at Ultimate Texas Hold 'Em dealt to player1's decision at seat 1 (over the API;
    any round in play there played out first)."""
    dealer, me = staff["dealer"], staff["player1"]
    path = f"/api/tables/{UTH}"
    if UTH not in me.get("/api/me").get("seats", {}):
        me.post(f"{path}/sit", {"seat": 1})
    rnd = dealer.get(f"{path}/view").get("round")
    if rnd and rnd["phase"] not in ("over", "void"):
        finish_round(dealer, UTH, {1: me})
    dealer.post(f"{path}/rounds", {"cut_at": None})
    for wager in ("ante", "blind"):
        me.post(f"{path}/wagers", {"wager": wager, "amount": 1000})
    dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
    while dealer.get(f"{path}/view")["round"].get("to_act_seat") != 1:
        dealer.post(f"{path}/deal")


@pytest.mark.parametrize(("size", "name"), [(WIDE, "web-player"), (PHONE, "web-player-phone")])
def test_docs_player_deciding_with_the_cards_beside_the_decision(
    browser: Browser, fresh_server: str, staff: dict[str, Desk], size: dict[str, int], name: str
) -> None:
    _deciding(staff)
    page = sign_in(browser, fresh_server, "player1", **size)
    expect(page.locator("button[data-decision]").first).to_be_visible(timeout=WAIT)
    inside(page, "button[data-decision], .decide-cards [data-card]", name)
    assert serious(page) == [], name
    for_docs(page, name)


def _keyed_table(staff: dict[str, Desk]) -> None:
    """A Four Card Poker table whose cards the dealer keys (issue 39), player1 at seat 1."""
    supervisor = staff["supervisor"]
    rules = supervisor.get("/api/tables/four-card-poker")["rules"]
    rules["table"] = {**rules.get("table", {}), "cards": "keypad"}
    supervisor.post("/api/tables", {"id": KEYED, "name": "Four Card Poker 2", "rules": rules})
    supervisor.post(f"/api/tables/{KEYED}/open")
    staff["player2"].post(f"/api/tables/{KEYED}/sit", {"seat": 1})


def test_docs_dealer_keys_the_cards_the_console_names(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    _keyed_table(staff)
    page = dealer_at(browser, fresh_server, KEYED, **WIDE)
    step(page, "rounds")
    expect(page.locator('[data-phase="betting"]')).to_have_count(1, timeout=WAIT)
    staff["player2"].post(f"/api/tables/{KEYED}/wagers", {"wager": "ante", "amount": 2500})
    step(page, "no-more-bets")
    expect(page.locator("#next-card")).to_have_text("Next: seat 1, first card", timeout=WAIT)
    for rank, suit in (("K", "spades"), ("9", "hearts"), ("K", "hearts")):
        page.locator(f'button[data-rank="{rank}"]').click()
        page.get_by_role("button", name=suit).click()
    expect(page.locator("#next-card")).to_have_text("Next: dealer, second card", timeout=WAIT)
    inside(page, "button[data-step], button[data-rank], #next-card", "dealer keying")
    assert serious(page) == [], "dealer keying"
    for_docs(page, "web-dealer")


def _pit_felt(browser: Browser, base: str, staff: dict[str, Desk], size: dict[str, int]) -> Page:
    """The observer's pit with Three Card Poker's live felt open, a round dealt face down."""
    dealer, player = staff["dealer"], staff["player3"]
    table = "three-card-poker"
    path = f"/api/tables/{table}"
    seated(player, table, 2)
    for _ in range(2):  # one round over (the shift's figures), one dealt
        rnd = dealer.get(f"{path}/view").get("round")
        if rnd and rnd["phase"] not in ("over", "void"):
            finish_round(dealer, table, {2: player})
        dealer.post(f"{path}/rounds", {"cut_at": None})
        player.post(f"{path}/wagers", {"wager": "ante", "amount": 1500})
        player.post(f"{path}/wagers", {"wager": "pair_plus", "amount": 500})
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        dealer.post(f"{path}/deal")
    page = sign_in(browser, base, "observer", **size)
    page.locator(f'.tile[data-table="{table}"] h3').click()
    expect(page.locator(".watch .phase-pill")).to_have_text("decisions", timeout=WAIT)
    return page


def test_docs_pit_live_felt_and_shift_figures(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    page = _pit_felt(browser, fresh_server, staff, WIDE)
    expect(page.locator('dl.figures [data-figure="theo"] dd')).not_to_have_text(
        "computing…", timeout=120_000
    )
    inside(page, "#watch-title, dl.figures", "pit")
    assert serious(page) == [], "pit"
    for_docs(page, "web-pit")


def test_docs_pit_live_felt_on_a_phone(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    page = _pit_felt(browser, fresh_server, staff, PHONE)
    page.wait_for_function("window.scrollY > 0", timeout=WAIT)  # the felt scrolled into view
    felt = box_of(page, '.watch [aria-label="the table"]')
    assert felt["top"] >= 0 and felt["bottom"] <= PHONE["height"], felt
    assert serious(page) == [], "pit on a phone"
    for_docs(page, "web-pit-phone")


def test_docs_training_payout_drill_graded(browser: Browser, fresh_server: str) -> None:
    page = sign_in(browser, fresh_server, "dealer", **WIDE)
    page.get_by_role("button", name="Training").click()
    expect(page.locator("#drills-title")).to_have_text("Dealer training", timeout=WAIT)
    page.get_by_label("Game", exact=True).select_option(UTH)
    page.locator('.drill-kinds button[data-kind="payout"]').click()
    result = page.locator("#drill-result")
    for _ in range(20):  # until a drill whose answer is $0 (a losing wager): graded right
        expect(page.locator('.drill-card[aria-busy="false"][data-drill]')).to_have_count(1)
        page.get_by_label("Your answer").fill("0")
        page.get_by_role("button", name="Check").click()
        expect(result).to_contain_text("§", timeout=WAIT)
        if not result.inner_text().startswith("Not right"):
            break
        page.get_by_role("button", name="Next drill").click()
        expect(result).to_be_empty(timeout=WAIT)
    expect(result).to_contain_text("Right")
    inside(page, "#drill-prompt, #drill-result, #drill-next", "training")
    assert serious(page) == [], "training"
    for_docs(page, "web-drills")

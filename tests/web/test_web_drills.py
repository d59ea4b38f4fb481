"""Dealer training in Chromium against a real ``croupier serve`` (issue 40): a trainee reaches the
drill page from the navigation, answers payout drills wrong and right (the right answer read
from the server's store: the engine's own, which the page never receives before the answer),
sees each graded with its section and time and the scores kept; answers a decision by keyboard;
runs a procedure drill whose out-of-order step is shown beside the steps with its section, then
the round in order to its end; every control used and the result inside the viewport at
1280x720 and 375x667, and axe-core finds no serious violation."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from axe import serious
from conftest import free_port, start_server, stop
from desks import close_contexts, fmt, sign_in
from playwright.sync_api import Browser, Page, expect
from shots import Shots
from sqlalchemy import create_engine, text

from croupier.games import GAMES

SIZES = {"1280x720": (1280, 720), "375x667": (375, 667)}
WAIT = 15_000

BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect();
    return { what: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60),
      top: r.top, bottom: r.bottom, left: r.left, right: r.right }; })"""


@dataclass(frozen=True)
class Floor:
    url: str
    db: Path

    def shown_drill(self, page: Page) -> dict[str, Any]:
        """The drill ``page`` shows, as the server stored it (its answer): the card's drill id
        once the page has no question pending."""
        card = page.locator('.drill-card[aria-busy="false"][data-drill]')
        expect(card).to_have_count(1, timeout=WAIT)
        drill_id = int(card.get_attribute("data-drill") or "")
        engine = create_engine(f"sqlite:///{self.db}")
        try:
            with engine.connect() as conn:
                row = conn.execute(
                    text("SELECT * FROM drills WHERE id = :i"), {"i": drill_id}
                ).one()
                return dict(row._mapping)
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    """``croupier serve`` (the demo floor) on a SQLite file the test reads."""
    db = tmp_path_factory.mktemp("drills") / "floor.sqlite"
    port = free_port()
    argv = [sys.executable, "-m", "croupier", "serve", "--db", f"sqlite:///{db}"]
    proc = start_server([*argv, "--host", "127.0.0.1", "--port", str(port)], port)
    yield Floor(f"http://127.0.0.1:{port}", db)
    stop(proc)


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def inside(page: Page, selector: str, where: str) -> None:
    """Every box ``selector`` matches lies inside the viewport, the page not scrolled."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    assert page.evaluate("window.scrollY") == 0, where
    boxes: list[dict[str, Any]] = page.evaluate(BOXES, selector)
    assert boxes, (where, selector)
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= height, (where, b, height)
        assert b["left"] >= 0 and b["right"] <= width, (where, b, width)


def training(browser: Browser, floor: Floor, size: str, user: str = "dealer") -> Page:
    """``user`` signed in, on the training page by the navigation's button."""
    page = sign_in(browser, floor.url, user, *SIZES[size])
    page.get_by_role("button", name="Training").click()
    expect(page.locator("#drills-title")).to_have_text("Dealer training", timeout=WAIT)
    assert page.url.endswith("/drills")
    return page


def choose(page: Page, game: str, drill: str) -> None:
    page.get_by_label("Game", exact=True).select_option(game)
    page.locator(f'.drill-kinds button[data-kind="{drill}"]').click()
    pressed = page.locator(f'.drill-kinds button[data-kind="{drill}"]')
    expect(pressed).to_have_attribute("aria-pressed", "true", timeout=WAIT)


def no_serious(page: Page, where: str) -> None:
    assert serious(page) == [], where


@pytest.mark.parametrize("size", SIZES)
def test_issue40_training_payout_drills_answered_wrong_then_right(
    browser: Browser, floor: Floor, shots: Shots, size: str
) -> None:
    page = training(browser, floor, size)
    game = "ultimate-texas-holdem"
    choose(page, game, "payout")
    expect(page.locator("#drill-prompt")).to_contain_text(GAMES[game].spoken_name(), timeout=WAIT)
    inside(page, "#drill-prompt, #drill-answer, .drill-form button[type=submit]", f"asked {size}")
    no_serious(page, f"asked {size}")
    asked = floor.shown_drill(page)
    assert asked["answered_at"] is None and asked["game"] == game
    page.get_by_label("Your answer").fill(fmt(int(asked["expected"]) + 500).lstrip("$"))
    page.get_by_role("button", name="Check").click()
    result = page.locator("#drill-result")
    expect(result).to_contain_text("Not right", timeout=WAIT)
    expect(result).to_contain_text(f"the answer is {fmt(int(asked['expected']))}")
    expect(result).to_contain_text(f"({asked['section']})")
    expect(result).to_contain_text(" s")
    inside(page, "#drill-result, #drill-next", f"graded {size}")
    shots.take(page, f"drills-payout-wrong-{size}")
    page.get_by_role("button", name="Next drill").click()
    expect(page.locator("#drill-answer")).to_be_enabled(timeout=WAIT)
    expect(page.locator("#drill-result")).to_be_empty()
    asked = floor.shown_drill(page)
    page.get_by_label("Your answer").fill(fmt(int(asked["expected"])))
    page.get_by_label("Your answer").press("Enter")  # the keyboard submits the answer
    expect(result).to_contain_text("Right", timeout=WAIT)
    expect(result).not_to_contain_text("Not right")
    expect(result).to_contain_text(f"({asked['section']})")
    row = page.locator(".drill-scores tbody tr", has_text=GAMES[game].spoken_name())
    expect(row).to_contain_text("/ ")
    no_serious(page, f"graded {size}")
    shots.take(page, f"drills-payout-right-{size}")
    text_now = page.locator("main").inner_text()
    for word in ("null", "undefined", "_"):
        assert word not in text_now, (word, text_now)


def test_issue40_training_decision_answered_by_keyboard(browser: Browser, floor: Floor) -> None:
    page = training(browser, floor, "1280x720", user="supervisor")
    choose(page, "three-card-poker", "decision")
    expect(page.locator("[data-answer]")).to_have_count(2, timeout=WAIT)
    asked = floor.shown_drill(page)
    focused = page.evaluate("document.activeElement.dataset.answer")
    assert focused == "yes"  # the first answer has the focus: Tab moves to the other
    if asked["expected"] == "no":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    result = page.locator("#drill-result")
    expect(result).to_contain_text("Right", timeout=WAIT)
    expect(result).to_contain_text(asked["section"])
    expect(page.locator("#drill-next")).to_be_focused()
    page.reload()  # the address keeps the trainee on the training page
    expect(page.locator("#drills-title")).to_have_text("Dealer training", timeout=WAIT)
    expect(page.locator(".drill-scores tbody tr")).to_have_count(1)
    page.go_back()  # Back returns to the page the trainee came from, within the app
    expect(page.locator("#pit-title")).to_be_visible(timeout=WAIT)


@pytest.mark.parametrize("size", SIZES)
def test_issue40_training_procedure_out_of_order_step_shows_its_section(
    browser: Browser, floor: Floor, shots: Shots, size: str
) -> None:
    page = training(browser, floor, size)
    game = "three-card-poker"
    choose(page, game, "procedure")
    steps = page.locator("[data-step]")
    expect(steps.first).to_be_visible(timeout=WAIT)
    inside(page, "[data-step]", f"steps {size}")
    page.locator('[data-step="settle"]').click()
    refusal = page.locator(".field-error")
    expect(refusal).to_contain_text("settlement follows the reveal", timeout=WAIT)
    expect(refusal).to_contain_text(GAMES[game].round_class.sections["settlement_order"])
    inside(page, ".field-error, [data-step]", f"refused {size}")
    no_serious(page, f"refused {size}")
    shots.take(page, f"drills-procedure-refused-{size}")
    over = page.locator(".drill-result")
    # in order: no more bets, the deal, the reveal, then a settle a seat (one that folded at
    # its decision is settled already) until the round is over
    for step in ("no_more_bets", "deal", "reveal", *["settle"] * 7):
        button = page.locator(f'[data-step="{step}"]:not([disabled])')
        # the page has drawn the engine's last answer once either the round is over or the
        # next step is enabled again (the response alone arrives before the page redraws)
        expect(over.or_(button)).to_have_count(1, timeout=WAIT)
        if over.count():
            break
        with page.expect_response("**/api/drills/procedure"):
            button.click()
        expect(page.locator(".field-error")).to_have_count(0, timeout=WAIT)
    expect(over).to_contain_text("Round over", timeout=WAIT)
    expect(over).to_contain_text("Seat 1")
    inside(page, ".drill-result, #drill-next", f"over {size}")
    shots.take(page, f"drills-procedure-over-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_issue40_training_from_the_rulebooks_edge_cases_graded_with_the_cases_section(
    browser: Browser, floor: Floor, shots: Shots, size: str
) -> None:
    page = training(browser, floor, size)
    choose(page, "mini-baccarat", "case")
    button = page.locator('.drill-kinds button[data-kind="case"]')
    expect(button).to_have_text("Edge cases")
    expect(button).to_have_attribute("aria-label", "From the rulebook's edge cases")
    prompt = page.locator("#drill-prompt")
    expect(prompt).to_contain_text("the rulebook's case", timeout=WAIT)
    asked = floor.shown_drill(page)
    assert asked["kind"] == "case" and asked["section"].startswith("§ ")
    expect(page.locator(".drill-card")).to_contain_text(f"The case: {asked['section']}, ")
    inside(page, "#drill-prompt, #drill-answer, .drill-form button[type=submit]", f"case {size}")
    page.get_by_label("Your answer").fill(fmt(int(asked["expected"])))
    page.get_by_role("button", name="Check").click()
    result = page.locator("#drill-result")
    expect(result).to_contain_text("Right", timeout=WAIT)
    expect(result).not_to_contain_text("Not right")
    expect(result).to_contain_text(f"({asked['section']})")
    inside(page, "#drill-result, #drill-next", f"case graded {size}")
    no_serious(page, f"case {size}")
    shots.take(page, f"drills-case-{size}", "viewport")
    text_now = page.locator("main").inner_text()
    for word in ("null", "undefined", "_"):
        assert word not in text_now, (word, text_now)


def test_issue40_a_trainee_signs_in_to_the_training_page(browser: Browser, floor: Floor) -> None:
    page = sign_in(browser, floor.url, "trainee", *SIZES["375x667"])
    expect(page.locator("#drills-title")).to_have_text("Dealer training", timeout=WAIT)
    assert page.url.endswith("/drills")
    expect(page.locator("#who")).to_have_text("trainee · trainee")
    # its own page: no "My table", no second way to the same page; par sheets still there
    expect(page.locator("#nav-home")).to_be_hidden()
    expect(page.locator("#nav-drills")).to_be_hidden()
    page.locator("#nav-par").click()
    expect(page.locator("#nav-drills")).to_be_visible(timeout=WAIT)
    expect(page.locator("#nav-home")).to_be_hidden()
    page.locator("#nav-drills").click()
    expect(page.locator("#drill-game")).to_be_visible(timeout=WAIT)
    page.locator("#drill-game").select_option("three-card-poker")  # (the par page's "Game" too)
    page.locator('.drill-kinds button[data-kind="case"]').click()
    expect(page.locator("#drill-prompt")).to_contain_text("the rulebook's case", timeout=WAIT)
    asked = floor.shown_drill(page)
    page.get_by_label("Your answer").fill(fmt(int(asked["expected"])))
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#drill-result")).to_contain_text(f"({asked['section']})", timeout=WAIT)
    no_serious(page, "trainee")

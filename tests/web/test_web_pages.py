"""The pages that need no table: the SVG cards and chips, sign-in and the par sheets, in
Chromium against a server process that mounts ``croupier.web``."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import Browser, Page, expect
from shots import Shots

from croupier.analysis import par_sheet
from croupier.core.cards import DECK
from croupier.games import get_game

RANK_NAMES = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def _open(browser: Browser, url: str, *, width: int = 1280, height: int = 800) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url)
    return page


def test_every_card_is_drawn_as_labelled_svg(
    browser: Browser, pages_server: str, shots: Shots
) -> None:
    page = _open(browser, pages_server + "/par-sheets")
    codes = [str(c) for c in DECK]
    labels = page.evaluate(
        """(codes) => {
            const box = document.createElement('div');
            box.id = 'gallery';
            box.style.cssText = 'display:flex;flex-wrap:wrap;gap:6px;padding:10px';
            document.getElementById('main').prepend(box);
            const out = codes.map((c) => { const el = Cards.card(c); box.append(el);
                return [el.dataset.card, el.getAttribute('aria-label'), el.tagName]; });
            box.append(Cards.back('red'), Cards.back('blue'));
            for (const v of [100, 500, 2500, 10000, 50000, 100000]) box.append(Cards.chip(v));
            return out;
        }""",
        codes,
    )
    assert len(labels) == 52
    for code, (shown, label, tag) in zip(codes, labels, strict=True):
        rank = RANK_NAMES.get(code[0], code[0])
        assert shown == code
        assert label == f"{rank} of {SUIT_NAMES[code[1]]}"
        assert tag.lower() == "svg"
    shots.take(page.locator("#gallery"), "cards-and-chips")
    backs = page.locator("#gallery [data-card=back]")
    expect(backs).to_have_count(2)
    assert page.evaluate("Cards.card('10h').dataset.card") == "Th"
    assert page.evaluate("Cards.card('??').dataset.card") == "back"
    page.context.close()


def test_sign_in_page_is_labelled_and_fits_a_phone(
    browser: Browser, pages_server: str, shots: Shots
) -> None:
    for width, height in ((1280, 800), (375, 740)):
        page = _open(browser, pages_server + "/", width=width, height=height)
        expect(page.get_by_label("User name")).to_be_visible()
        expect(page.get_by_label("Password")).to_be_visible()
        expect(page.get_by_role("button", name="Sign in")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        shots.take(page, f"signin-{width}", "viewport")
        page.context.close()


def _wait_ready(url: str, *, attempts: int = 600) -> httpx.Response:
    """GET ``url`` until it is no longer 202 (computing), bounded."""
    for _ in range(attempts):
        res = httpx.get(url, timeout=30)
        if res.status_code != 202:
            return res
        time.sleep(0.5)
    raise AssertionError(f"{url} still computing")


def test_par_sheet_page_shows_the_exact_house_edge(
    browser: Browser, pages_server: str, shots: Shots
) -> None:
    game = get_game("three-card-poker")
    expected = par_sheet(game)
    page = _open(browser, pages_server + "/par-sheets")
    page.get_by_label("Game").select_option("three-card-poker")
    page.get_by_role("button", name="Show par sheet").click()
    summary = page.locator("#par-summary")
    expect(summary).to_be_visible(timeout=120_000)
    assert expected.base is not None
    base_row = summary.locator("tr[data-wager=base]")
    expect(base_row).to_contain_text(f"{float(expected.base.house_edge) * 100:.4f}%")
    exact = f"{expected.base.house_edge.numerator}/{expected.base.house_edge.denominator}"
    expect(base_row).to_contain_text(exact)
    for name, sheet in expected.wagers.items():
        row = summary.locator(f"tr[data-wager={name}]")
        expect(row).to_contain_text(f"{float(sheet.house_edge) * 100:.4f}%")
    expect(
        page.get_by_role("img", name="pair plus: probability of each outcome, log scale")
    ).to_be_visible()
    expect(page.locator("pre.text")).to_contain_text("Q")  # the strategy: play Q-6-4 or better
    shots.take(page, "par-sheet", "viewport")

    res = _wait_ready(pages_server + "/par/three-card-poker.json")
    assert res.status_code == 200
    assert res.json()["base"]["house_edge_exact"] == exact
    assert "attachment" in res.headers["content-disposition"]
    page.context.close()


def test_par_sheet_pay_table_choice_and_html_download(pages_server: str) -> None:
    url = pages_server + "/api/par/mini-baccarat?paytable=tie%3DB"
    res = _wait_ready(url)
    assert res.status_code == 200
    tie = res.json()["sheet"]["wagers"]["tie"]
    expected = par_sheet(get_game({"game": "mini-baccarat", "paytables": {"tie": "B"}}))
    assert tie["house_edge_exact"] == expected.wagers["tie"].to_json()["house_edge_exact"]
    html = _wait_ready(pages_server + "/par/mini-baccarat.html?paytable=tie%3DB")
    assert html.status_code == 200
    assert html.text.startswith("<!DOCTYPE html>")
    assert "Par sheet: Minibaccarat" in html.text


def test_par_sheet_refuses_unknown_game_and_bad_pay_table(pages_server: str) -> None:
    res = httpx.get(pages_server + "/api/par/roulette")
    assert res.status_code == 404
    assert res.headers["content-type"].startswith("application/problem+json")
    assert "roulette" in res.json()["detail"]
    bad = httpx.get(pages_server + "/api/par/three-card-poker?paytable=pair_plus%3DZ")
    assert bad.status_code == 422
    assert bad.headers["content-type"].startswith("application/problem+json")
    malformed = httpx.get(pages_server + "/api/par/three-card-poker?paytable=pair_plus")
    assert malformed.status_code == 422
    assert "WAGER=LETTER" in malformed.json()["detail"]

"""Issue 40: the pages as people at the table use them, in Chromium against a real ``croupier
serve`` (its demo floor).  Each test is named after the issue's numbered defect it reproduces:
what the person must act on, and the round's result and net, inside the viewport at 1280x720
and 375x667 without scrolling (1); refusals beside the control, in dollars (2); a message bar
that says only what is true now (3); no literal ``null`` (4); the pit's actions only where
they apply (7); the dealer kept at the table by a reload, Back kept in the app (6); the dealer
told why a step waits (13)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from axe import serious
from desks import Desk, close_contexts, dealer_at, desks_of, finish_round, fmt, sign_in
from playwright.sync_api import Browser, Page, expect
from shots import Shots

SIZES = {"1280x720": (1280, 720), "375x667": (375, 667)}
UTH = "/api/tables/ultimate-texas-holdem"
WAIT = 15_000

BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect();
    return { what: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60),
      top: r.top, bottom: r.bottom, left: r.left, right: r.right,
      size: parseFloat(getComputedStyle(el).fontSize) }; })"""


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


@pytest.fixture(scope="module")
def staff(fresh_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(fresh_server, "dealer", "supervisor") as made:
        yield made


def open_round(dealer: Desk, table: str, seats: dict[int, Desk]) -> str:
    """A new round at ``table``, any round still in play there played out first."""
    path = f"/api/tables/{table}"
    rnd = dealer.get(f"{path}/view").get("round")
    if rnd and rnd["phase"] not in ("over", "void"):
        finish_round(dealer, table, seats)
    rid: str = dealer.post(f"{path}/rounds", {"cut_at": None})["round_id"]
    return rid


def seated(desk: Desk, table: str, seat: int) -> None:
    """The player at ``seat`` of ``table``, having left any other table (a player sits at one
    table at a time)."""
    seats = desk.get("/api/me").get("seats", {})
    for other in seats:
        if other != table:
            desk.post(f"/api/tables/{other}/leave")
    if table not in seats:
        desk.post(f"/api/tables/{table}/sit", {"seat": seat})


def inside(page: Page, selector: str, where: str) -> list[dict[str, Any]]:
    """Every box ``selector`` matches lies inside the viewport, the page not scrolled."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    assert page.evaluate("window.scrollY") == 0, where
    boxes: list[dict[str, Any]] = page.evaluate(BOXES, selector)
    assert boxes, (where, selector)
    for b in boxes:
        assert b["top"] >= 0 and b["bottom"] <= height, (where, b, height)
        assert b["left"] >= 0 and b["right"] <= width, (where, b, width)
    return boxes


@pytest.mark.parametrize("size", SIZES)
def test_issue40_d1_controls_and_result_inside_viewport(
    browser: Browser, fresh_server: str, staff: dict[str, Desk], shots: Shots, size: str
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    dims = {"width": SIZES[size][0], "height": SIZES[size][1]}
    with desks_of(base, "player1") as desks:
        me = desks["player1"]
        seated(me, "ultimate-texas-holdem", 1)
        open_round(dealer, "ultimate-texas-holdem", {1: me})
        console = dealer_at(browser, base, "ultimate-texas-holdem", **dims)
        player = sign_in(browser, base, "player1", **dims)
        expect(player.locator("#player-title")).to_have_text("Seat 1", timeout=WAIT)
        # the player's wagers while betting
        expect(player.locator('button[data-wager="blind"]')).to_be_visible(timeout=WAIT)
        inside(player, "#amt-ante, #amt-blind, button[data-wager]", f"player betting {size}")
        for wager in ("ante", "blind"):
            me.post(f"{UTH}/wagers", {"wager": wager, "amount": 500})
        # the dealer's next step
        nmb = 'button[data-step="no-more-bets"]:not([disabled])'
        expect(console.locator(nmb)).to_have_count(1, timeout=WAIT)
        inside(console, nmb, f"dealer betting {size}")
        dealer.post(f"{UTH}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{UTH}/view")["round"].get("to_act_seat") != 1:
            dealer.post(f"{UTH}/deal")
        # the player's decisions
        expect(player.locator("button[data-decision]").first).to_be_visible(timeout=WAIT)
        inside(player, "button[data-decision]", f"player decisions {size}")
        # and the cards the decision is made on, beside it
        inside(player, ".decide-cards [data-card]", f"player's cards deciding {size}")
        finish_round(dealer, "ultimate-texas-holdem", {1: me})
        net = me.get(f"{UTH}/view")["round"]["settlement"]["1"]["net"]
        # the round's result and net, large, on both pages
        for page, who in ((player, "player"), (console, "dealer")):
            expect(page.locator("#round-result")).to_contain_text(fmt(abs(net)), timeout=WAIT)
            shots.take(page, f"issue40-{who}-over-{size}", "viewport")
            for box in inside(page, "#round-result .net-big", f"{who} result {size}"):
                assert box["size"] >= 24, (who, size, box)
        expect(console.locator('button[data-step="rounds"]:not([disabled])')).to_have_count(1)
        inside(console, 'button[data-step="rounds"]', f"dealer next round {size}")


BESIDE = """(sel) => {
  // the refusal shown right after the row of the control that caused it, close under it
  const err = document.querySelector('.field-error');
  const control = document.querySelector(sel);
  if (!err || !control) return null;
  const row = err.previousElementSibling;
  const a = control.getBoundingClientRect(), b = err.getBoundingClientRect();
  return { text: err.textContent, follows: !!row && row.contains(control),
    gap: b.top - a.bottom, described: control.getAttribute('aria-describedby') === err.id };
}"""


def _beside(page: Page, control: str, where: str) -> str:
    expect(page.locator(".field-error")).to_be_visible(timeout=WAIT)
    found = page.evaluate(BESIDE, control)
    assert found is not None, where
    assert found["follows"] and found["described"], (where, found)
    assert 0 <= found["gap"] <= 60, (where, found)
    text: str = found["text"]
    assert "$" in text and "cents" not in text, (where, text)
    return text


def test_issue40_d2_refusals_beside_the_control_in_dollars(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer, sup = fresh_server, staff["dealer"], staff["supervisor"]
    table = "three-card-poker"
    with desks_of(base, "player3") as desks:
        me = desks["player3"]
        seated(me, table, 2)
        balance = me.get("/api/me")["balance"]
        sup.post("/api/players/P3/cash-out", {"amount": balance - 1000})  # $10 left
        open_round(dealer, table, {2: me})
        player = sign_in(browser, base, "player3", width=1280, height=720)
        ante = player.locator("#amt-ante")
        expect(ante).to_be_visible(timeout=WAIT)
        most = ante.locator("option").last.get_attribute("value")
        assert most is not None and int(most) > 1000
        ante.select_option(most)
        player.locator('button[data-wager="ante"]').click()
        said = _beside(player, 'button[data-wager="ante"]', "place")
        assert "$10" in said and fmt(int(most)) in said, said
        # the pit's cash-out, refused beside its button
        pit = sign_in(browser, base, "supervisor", width=1280, height=720)
        pit.get_by_role("tab", name="Buy-ins and cash-outs").click()
        pit.get_by_label("Player").fill("P7")  # seated nowhere: refused for the amount
        pit.get_by_label("Amount ($)").fill("100000")
        pit.get_by_role("button", name="Cash out").click()
        _beside(pit, "#cage-out", "cash out")


def test_issue40_d3_message_bar_says_only_what_is_true_now(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "mississippi-stud", "/api/tables/mississippi-stud"
    bar_text = "() => document.getElementById('callout').textContent"
    with desks_of(base, "player4") as desks:
        me = desks["player4"]
        seated(me, table, 1)
        open_round(dealer, table, {1: me})
        player = sign_in(browser, base, "player4", width=1280, height=720)
        bar = player.locator("#callout")
        player.locator('button[data-wager="ante"]').click()
        expect(bar).to_contain_text("accepted", timeout=WAIT)
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{path}/view")["round"].get("to_act_seat") != 1:
            dealer.post(f"{path}/deal")
        # deciding: the wager's acceptance is old news
        expect(player.locator("button[data-decision]").first).to_be_visible(timeout=WAIT)
        expect(bar).not_to_contain_text("accepted")
        finish_round(dealer, table, {1: me})
        net = me.get(f"{path}/view")["round"]["settlement"]["1"]["net"]
        # the round's net, not the last wager's line
        expect(bar).to_contain_text(f"net {fmt(net)}", timeout=WAIT)
        assert " loses" not in bar.inner_text() and " wins" not in bar.inner_text()
        # the next round's betting: the last round's result is gone
        open_round(dealer, table, {1: me})
        expect(player.locator('button[data-wager="ante"]')).to_be_visible(timeout=WAIT)
        expect(bar).to_have_text("")
        player.reload()
        expect(player.locator('button[data-wager="ante"]')).to_be_visible(timeout=WAIT)
        assert player.evaluate(bar_text) == ""
        me.post(f"{path}/wagers", {"wager": "ante", "amount": 500})
        finish_round(dealer, table, {1: me})


NOTHING = re.compile(r"\b(null|undefined|NaN)\b")


def _no_nothing(text: str, where: str) -> None:
    """No ``null``, ``undefined`` or ``NaN`` printed (each found shown with what leads to it)."""
    found = [text[max(0, m.start() - 80) : m.end() + 10] for m in NOTHING.finditer(text)]
    assert not found, (where, found)


def test_issue40_d4_no_literal_null_after_a_pull_or_under_the_audit(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "let-it-ride", "/api/tables/let-it-ride"
    with desks_of(base, "player2") as desks:
        me = desks["player2"]
        seated(me, table, 3)
        open_round(dealer, table, {3: me})
        player = sign_in(browser, base, "player2", width=1280, height=720)
        for wager in ("bet1", "bet2", "bet3"):
            me.post(f"{path}/wagers", {"wager": wager, "amount": 500})
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{path}/view")["round"].get("to_act_seat") != 3:
            dealer.post(f"{path}/deal")
        pull = next(d for d in me.get(f"{path}/actions")["decisions"] if d["name"] == "withdraw")
        me.post(f"{path}/decisions", {"decision": pull["decision"], "seat": 3})
        finish_round(dealer, table, {3: me})
        expect(player.locator("#round-result")).to_be_visible(timeout=WAIT)
        _no_nothing(player.locator("main").inner_text(), "player")
    pit = sign_in(browser, base, "auditor", width=1280, height=720)
    pit.get_by_role("tab", name="Audit").click()
    pit.get_by_role("button", name="Run audit verify").click()
    expect(pit.get_by_label("audit result")).to_be_visible(timeout=WAIT)
    pit.locator("#audit-out summary").click()
    _no_nothing(pit.locator("main").inner_text(), "audit")


def test_issue40_d13_dealer_told_why_a_step_waits(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table = "ultimate-texas-holdem"
    with desks_of(base, "player1") as desks:
        me = desks["player1"]
        seated(me, table, 1)
        open_round(dealer, table, {1: me})
        console = dealer_at(browser, base, table, width=375, height=667)
        why = console.locator("#step-why")
        expect(why).to_contain_text("no player has wagered", timeout=WAIT)
        me.post(f"{UTH}/wagers", {"wager": "ante", "amount": 500})
        # the Blind missing: "no more bets" waits, with the section that requires it
        expect(why).to_contain_text("seat 1 has no blind wager", timeout=WAIT)
        expect(why).to_contain_text("§ 569.1")
        expect(console.locator('button[data-step="no-more-bets"]')).to_be_disabled()
        inside(console, "#step-why", "why 375x667")
        me.post(f"{UTH}/wagers", {"wager": "blind", "amount": 500})
        expect(why).to_have_count(0, timeout=WAIT)
        dealer.post(f"{UTH}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{UTH}/view")["round"].get("to_act_seat") != 1:
            dealer.post(f"{UTH}/deal")
        expect(why).to_contain_text("seat 1 has not decided yet", timeout=WAIT)
        finish_round(dealer, table, {1: me})


def test_issue40_d7_pit_offers_only_the_actions_that_apply(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer, sup = fresh_server, staff["dealer"], staff["supervisor"]
    with desks_of(base, "player5") as desks:
        me = desks["player5"]
        seated(me, "four-card-poker", 1)
        open_round(dealer, "four-card-poker", {1: me})  # in play: betting
        me.post("/api/tables/four-card-poker/wagers", {"wager": "ante", "amount": 500})
        sup.post("/api/tables/midi-baccarat/close")
        pit = sign_in(browser, base, "supervisor", width=1280, height=720)
        tiles = pit.locator(".tile[data-table]")
        expect(tiles.first).to_be_visible(timeout=WAIT)
        seen: set[tuple[str, bool]] = set()
        for t in sup.get("/api/tables"):
            tile = pit.locator(f'.tile[data-table="{t["id"]}"]')
            open_, close = (
                tile.get_by_role("button", name="Open"),
                tile.get_by_role("button", name="Close"),
            )
            void = tile.get_by_role("button", name="Void round")
            expect(open_).to_have_count(0 if t["status"] == "open" else 1)
            expect(close).to_have_count(1 if t["status"] == "open" else 0)
            in_play = t.get("phase") not in (None, "over", "void")
            expect(void).to_have_count(1 if in_play else 0)
            seen.add((t["status"], in_play))
        assert seen >= {("open", True), ("open", False), ("closed", False)}, seen
        assert {t["id"]: t["status"] for t in sup.get("/api/tables")}["midi-baccarat"] == "closed"
        sup.post("/api/tables/midi-baccarat/open")
        finish_round(dealer, "four-card-poker", {1: me})


def test_issue40_d6_reload_keeps_the_dealer_at_the_table_and_back_stays_in_the_app(
    browser: Browser, fresh_server: str
) -> None:
    base = fresh_server
    console = dealer_at(browser, base, "let-it-ride", width=1280, height=720)
    title = console.locator("#dealer-title")
    console.reload()
    expect(title).to_have_text("Dealer console", timeout=WAIT)
    expect(console.locator(".table-head")).to_contain_text("Let It Ride")
    console.go_back()
    assert console.url.startswith(base), console.url
    expect(title).to_have_text("Choose your table", timeout=WAIT)
    console.go_forward()
    expect(title).to_have_text("Dealer console", timeout=WAIT)
    console.get_by_role("button", name="Par sheets").click()
    expect(console.locator("#par-title")).to_be_visible(timeout=WAIT)
    console.go_back()
    assert console.url.startswith(base), console.url
    expect(title).to_have_text("Dealer console", timeout=WAIT)


SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\bbet\d\b")
PAGE_TEXT = """() => {
  // the page's words as a person reads them, the pay-table sign included (its tables are
  // headed by the wagers' spoken names)
  return document.querySelector('main').innerText;
}"""


def _spoken(page: Page, where: str) -> str:
    text: str = page.evaluate(PAGE_TEXT)
    found = [text[max(0, m.start() - 60) : m.end() + 10] for m in SNAKE.finditer(text)]
    assert not found, (where, found)
    return text


def test_issue40_d11_names_as_people_say_them(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "let-it-ride", "/api/tables/let-it-ride"
    chooser = sign_in(browser, base, "dealer", width=1280, height=720)
    expect(chooser.locator("#dealer-title")).to_have_text("Choose your table", timeout=WAIT)
    names = chooser.locator("main").inner_text()
    for said in ("Ultimate Texas Hold 'Em", "EZ Baccarat", "Let It Ride"):
        assert said in names, (said, names)
    for unsaid in ("Holdem", "Ez Baccarat", "Mini Baccarat"):
        assert unsaid not in names, (unsaid, names)
    _spoken(chooser, "dealer's tables")
    with desks_of(base, "player6") as desks:
        me = desks["player6"]
        seated(me, table, 2)
        open_round(dealer, table, {2: me})
        player = sign_in(browser, base, "player6", width=1280, height=720)
        expect(player.locator('label[for="amt-bet1"]')).to_have_text("Bet 1", timeout=WAIT)
        _spoken(player, "player betting")
        for wager in ("bet1", "bet2", "bet3"):
            me.post(f"{path}/wagers", {"wager": wager, "amount": 500})
        console = dealer_at(browser, base, table, width=1280, height=720)
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{path}/view")["round"].get("to_act_seat") != 2:
            dealer.post(f"{path}/deal")
        expect(player.locator("button[data-decision]").first).to_be_visible(timeout=WAIT)
        _spoken(player, "player deciding")
        assert "chance" not in console.locator(".table-head").inner_text()
        pull = next(d for d in me.get(f"{path}/actions")["decisions"] if d["name"] == "withdraw")
        me.post(f"{path}/decisions", {"decision": pull["decision"], "seat": 2})
        finish_round(dealer, table, {2: me})
        expect(player.locator("#round-result")).to_contain_text("Bet 1", timeout=WAIT)
        said = _spoken(player, "player settled")
        assert "pushes, push" not in said
        expect(console.locator("#round-result")).to_be_visible(timeout=WAIT)
        _spoken(console, "dealer settled")


def test_issue40_d14_axe_finds_no_serious_violation(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "ultimate-texas-holdem", UTH
    with desks_of(base, "player1") as desks:
        me = desks["player1"]
        seated(me, table, 1)
        open_round(dealer, table, {1: me})
        pages = {}
        for width, height in SIZES.values():
            pages[f"dealer {width}"] = dealer_at(browser, base, table, width=width, height=height)
            pages[f"player {width}"] = sign_in(browser, base, "player1", width, height)
        found: dict[str, list[dict[str, Any]]] = {}
        for where, page in pages.items():
            expect(page.locator(".felt")).to_be_visible(timeout=WAIT)
            found[f"{where} betting"] = serious(page)
        for wager in ("ante", "blind"):
            me.post(f"{path}/wagers", {"wager": wager, "amount": 500})
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        while dealer.get(f"{path}/view")["round"].get("to_act_seat") != 1:
            dealer.post(f"{path}/deal")
        expect(pages["player 375"].locator("button[data-decision]").first).to_be_visible(
            timeout=WAIT
        )
        for where, page in pages.items():
            found[f"{where} deciding"] = serious(page)
        finish_round(dealer, table, {1: me})
        for where, page in pages.items():
            expect(page.locator("#round-result")).to_be_visible(timeout=WAIT)
            found[f"{where} over"] = serious(page)
    signin = browser.new_context(viewport={"width": 375, "height": 667}).new_page()
    signin.goto(base + "/")
    expect(signin.get_by_label("User name")).to_be_visible(timeout=WAIT)
    found["sign-in"] = serious(signin)
    pit = sign_in(browser, base, "supervisor", width=1280, height=720)
    expect(pit.locator(".tile[data-table]").first).to_be_visible(timeout=WAIT)
    found["pit floor"] = serious(pit)
    for tab in ("Buy-ins and cash-outs", "Game recall", "Audit"):
        pit.get_by_role("tab", name=tab).click()
        expect(pit.locator("#pit-body h2").first).to_be_visible(timeout=WAIT)
        found[f"pit {tab}"] = serious(pit)
    summary = {where: [(v["id"], v["nodes"][:3]) for v in vs] for where, vs in found.items() if vs}
    assert summary == {}


@pytest.mark.parametrize("size", SIZES)
def test_issue40_d10_selected_pit_tab_readable_while_hovered(
    browser: Browser, fresh_server: str, size: str
) -> None:
    width, height = SIZES[size]
    pit = sign_in(browser, fresh_server, "supervisor", width, height)
    for tab in ("Hand pays", "Floor"):
        button = pit.get_by_role("tab", name=tab)
        button.click()  # a tap: on a phone the tab stays "hovered" after it
        expect(button).to_have_attribute("aria-selected", "true")
        button.hover()
        found = serious(pit, f"#{button.get_attribute('id')}", ["color-contrast"])
        assert found == [], (tab, size, found)


WIDEST_WAGERS = """() => {
  // the felt drawn with the longest wager names and amounts at every seat (Let It Ride's)
  const s = new RoundState();
  for (let n = 1; n <= 7; n++) s.wagers[String(n)] = { bet1: 100000, bet2: 100000, bet3: 100000,
    three_card_bonus: 2500, five_card_progressive: 100, six_card_bonus: 2500 };
  document.querySelector('.felt').replaceWith(drawFelt({ game: 'let-it-ride', meters: {} }, s, {}));
}"""
SEAT_WAGERS = """() => [...document.querySelectorAll('.seat')].flatMap((seat) => {
  const box = seat.getBoundingClientRect();
  const style = getComputedStyle(seat);
  const pad = parseFloat(style.paddingRight) + parseFloat(style.borderRightWidth);
  return [...seat.querySelectorAll('.seat-wager, .seat-wager span')].map((el) => {
    const r = el.getBoundingClientRect();
    return { seat: seat.dataset.seat, text: el.textContent, left: r.left - box.left,
      right: box.right - r.right, pad, clipped: el.scrollWidth > el.clientWidth + 1 };
  });
})"""


def test_issue40_d12_seat_wagers_inside_their_box_at_375(
    browser: Browser, fresh_server: str
) -> None:
    console = dealer_at(browser, fresh_server, "let-it-ride", width=375, height=667)
    expect(console.locator(".felt")).to_be_visible(timeout=WAIT)
    console.evaluate(WIDEST_WAGERS)
    rows = console.evaluate(SEAT_WAGERS)
    assert len(rows) == 7 * 6 * 3
    for row in rows:
        # inside the box's padding, with a gap to its border; no text cut off
        assert row["left"] >= row["pad"] - 0.5 and row["right"] >= row["pad"] - 0.5, row
        assert not row["clipped"], row


def test_issue40_d9_posted_limits_show_the_table_limits_before_and_after_a_bet(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "mini-baccarat", "/api/tables/mini-baccarat"
    with desks_of(base, "player7") as desks:
        me = desks["player7"]
        seated(me, table, 4)
        open_round(dealer, table, {4: me})
        posted = me.get(path)["limits"]
        assert {"banker", "player", "tie"} <= set(posted)
        player = sign_in(browser, base, "player7", width=1280, height=720)
        limits = player.get_by_label("posted limits")

        def shows_every_limit() -> None:
            for wager in ("Banker", "Player", "Tie"):
                row = limits.locator("tr", has=player.locator(f'th:text-is("{wager}")'))
                low, high = posted[wager.lower()]["min"], posted[wager.lower()]["max"]
                expect(row).to_contain_text(f"{fmt(low)} to {fmt(high)}", timeout=WAIT)

        shows_every_limit()
        me.post(f"{path}/wagers", {"wager": "banker", "amount": 500})
        expect(player.locator('button[data-wager="banker"]')).to_have_count(0, timeout=WAIT)
        shows_every_limit()
        finish_round(dealer, table, {4: me})


def test_issue40_d8_recall_draws_the_recalled_rounds_seating(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer, sup = fresh_server, staff["dealer"], staff["supervisor"]
    table, path = "ez-baccarat", "/api/tables/ez-baccarat"
    with desks_of(base, "player2", "player6") as desks:
        first, later = desks["player2"], desks["player6"]
        seated(first, table, 1)
        rid = open_round(dealer, table, {1: first})
        first.post(f"{path}/wagers", {"wager": "banker", "amount": 500})
        finish_round(dealer, table, {1: first})
        seated(later, table, 5)  # sits after the round
        then = sup.get(f"/api/rounds/{rid}/records")["players"]
        assert then == {"1": "P2"}
        pit = sign_in(browser, base, "supervisor", width=1280, height=720)
        pit.get_by_role("tab", name="Game recall").click()
        pit.get_by_role("combobox", name="Table").select_option(table)
        pit.get_by_role("button", name="Recall").click()
        pit.locator(f'button[data-round="{rid}"]').click()
        felt = pit.locator("#replay .felt")
        expect(felt.locator('.seat[data-seat="1"] .seat-name')).to_have_text(
            "Seat 1 · P2", timeout=WAIT
        )
        expect(felt.locator('.seat[data-seat="5"] .seat-name')).to_have_text("Seat 5")
        for desk in (first, later):
            desk.post(f"{path}/leave")


CHART_TEXT = """() => [...document.querySelectorAll('svg.bars')].flatMap((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map((t) => ({
    text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * scale }));
})"""


@pytest.mark.parametrize("size", SIZES)
def test_issue40_d12_par_sheet_chart_labels_readable(
    browser: Browser, pages_server: str, size: str
) -> None:
    width, height = SIZES[size]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(pages_server + "/par-sheets")
    page.get_by_label("Game", exact=True).select_option("three-card-poker")
    page.get_by_role("button", name="Show par sheet").click()
    expect(page.locator("svg.bars").first).to_be_visible(timeout=120_000)
    labels = page.evaluate(CHART_TEXT)
    assert labels, size
    small = [t for t in labels if t["px"] < 11]
    assert small == [], (size, small[:5])
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_issue40_d12_buy_in_by_user_name_picked_from_a_list(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, sup = fresh_server, staff["supervisor"]
    players = {a["username"]: a["player_id"] for a in sup.get("/api/accounts") if a["player_id"]}
    assert "player5" in players
    with desks_of(base, "player5") as desks:
        before = desks["player5"].get("/api/me")["balance"]
        pit = sign_in(browser, base, "supervisor", width=375, height=667)
        pit.get_by_role("tab", name="Buy-ins and cash-outs").click()
        field = pit.get_by_label("Player")
        expect(field).to_be_visible(timeout=WAIT)
        # the list to pick from: every player account, by its user name
        offered = pit.locator(f"datalist#{field.get_attribute('list')} option")
        expect(offered).to_have_count(len(players), timeout=WAIT)
        assert set(offered.evaluate_all("(os) => os.map((o) => o.value)")) == set(players)
        field.fill("player5")
        pit.get_by_label("Amount ($)").fill("25")
        pit.get_by_role("button", name="Buy in").click()
        expect(pit.locator("#callout")).to_contain_text(
            f"Buy-in of $25 for player5 ({players['player5']}) recorded", timeout=WAIT
        )
        assert desks["player5"].get("/api/me")["balance"] == before + 2500


def test_issue40_d5_baccarat_totals_on_the_felt_and_no_empty_hand_of_ones_own(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer, sup = fresh_server, staff["dealer"], staff["supervisor"]
    table, path = "mini-baccarat", "/api/tables/mini-baccarat"
    with desks_of(base, "player7") as desks:
        me = desks["player7"]
        seated(me, table, 4)
        rid = open_round(dealer, table, {4: me})
        player = sign_in(browser, base, "player7", width=1280, height=720)
        expect(player.locator("#player-title")).to_have_text("Seat 4", timeout=WAIT)
        # baccarat deals no hand to a seat: no empty "your hand" on the felt
        expect(player.locator(".felt")).to_be_visible()
        expect(player.get_by_label("your cards")).to_have_count(0)
        me.post(f"{path}/wagers", {"wager": "player", "amount": 500})
        finish_round(dealer, table, {4: me})
        (said,) = [
            r
            for r in sup.get(f"/api/rounds/{rid}/records")["records"]
            if r["kind"] == "result_announced"
        ]
        for box, count in (("player", said["player_count"]), ("banker", said["banker_count"])):
            total = player.locator(f'.zone[data-box="{box}"] .count')
            expect(total).to_have_text(str(count), timeout=WAIT)
        expect(player.get_by_label("your cards")).to_have_count(0)


def test_issue40_d5_baccarat_bead_road_and_big_road_of_the_shoe(
    browser: Browser, fresh_server: str, staff: dict[str, Desk]
) -> None:
    base, dealer = fresh_server, staff["dealer"]
    table, path = "midi-baccarat", "/api/tables/midi-baccarat"
    with desks_of(base, "player4") as desks:
        me = desks["player4"]
        seated(me, table, 2)
        for _ in range(4):
            open_round(dealer, table, {2: me})
            me.post(f"{path}/wagers", {"wager": "banker", "amount": 500, "seat": 2})
            finish_round(dealer, table, {2: me})
        results = dealer.get(f"{path}/view")["shoe"]["results"]
        assert len(results) >= 4 and set(results) <= {"player", "banker", "tie"}
        console = dealer_at(browser, base, table, width=1280, height=720)
        beads = console.locator(".bead-road .bead")
        expect(beads).to_have_count(len(results), timeout=WAIT)
        assert beads.evaluate_all("(bs) => bs.map((b) => b.dataset.result)") == results
        cells = console.locator(".big-road .cell")
        expect(cells).to_have_count(len([r for r in results if r != "tie"]))
        shown = cells.evaluate_all("(cs) => cs.map((c) => c.dataset.result)")
        assert shown == [r for r in results if r != "tie"]
        me.post(f"{path}/leave")

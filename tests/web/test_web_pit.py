"""The supervisor's and the pit's page in Chromium against a real ``croupier serve``: the live
floor, voids, buy-ins, hand pays, game recall with a step-by-step replay, ``audit verify``; each
role sees only its parts; the player's page fits a phone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import Desk, sign_in
from playwright.sync_api import Browser, expect
from shots import Shots


@pytest.fixture()
def desks(pit_server: str) -> Iterator[dict[str, Desk]]:
    made = {
        u: Desk(pit_server, u) for u in ("dealer", "supervisor", "player5", "player6", "player7")
    }
    yield made
    for d in made.values():
        d.client.close()


def _baccarat_round(desks: dict[str, Desk], *, finish: bool) -> str:
    """A Minibaccarat round with player5 at seat 2: played to the end, or left in betting."""
    table = "/api/tables/mini-baccarat"
    if not desks["player5"].get("/api/me")["seats"]:
        desks["player5"].post(f"{table}/sit", {"seat": 2})
    rid: str = desks["dealer"].post(f"{table}/rounds", {"cut_at": None})["round_id"]
    desks["player5"].post(f"{table}/wagers", {"wager": "banker", "amount": 500})
    if finish:
        desks["dealer"].post(f"{table}/no-more-bets", {"progressive_chips": 0})
        for _ in range(5):
            phase = desks["dealer"].get(f"{table}/view")["round"]["phase"]
            if phase == "over":
                break
            step = {"dealing": "deal", "reveal": "reveal", "settlement": "settle"}[phase]
            desks["dealer"].post(f"{table}/{step}")
    return rid


def test_supervisor_floor_is_live_and_voids_a_round(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    page = sign_in(browser, pit_server, "supervisor")
    expect(page.locator("#pit-title")).to_have_text("Supervisor · the pit")
    tiles = page.locator(".tile[data-table]")
    expect(tiles).to_have_count(len(desks["supervisor"].get("/api/tables")))
    expect(page.get_by_role("table", name="meters")).to_contain_text("pa poker jackpot")
    # live: a round opened at a table shows on the floor without a reload (floor stream)
    table = "/api/tables/three-card-poker"
    desks["player7"].post(f"{table}/sit", {"seat": 7})
    rid = desks["dealer"].post(f"{table}/rounds", {"cut_at": None})["round_id"]
    tile = page.locator('.tile[data-table="three-card-poker"]')
    expect(tile).to_contain_text(rid, timeout=15_000)
    expect(tile).to_contain_text("betting")
    desks["player7"].post(f"{table}/wagers", {"wager": "ante", "amount": 500})
    desks["dealer"].post(f"{table}/no-more-bets", {"progressive_chips": 0})
    desks["dealer"].post(f"{table}/deal")
    expect(tile).to_contain_text("decisions", timeout=15_000)
    shots.take(page, "pit-floor")
    # void it: every wager returned
    before = desks["player7"].get("/api/me")["balance"]
    tile.get_by_label("reason to void the round at Three Card Poker").fill("training: void drill")
    tile.get_by_role("button", name="Void round").click()
    expect(page.locator("#callout")).to_contain_text(f"Round {rid} voided")
    view = desks["supervisor"].get(f"{table}/view")
    assert view["round"]["phase"] == "void"
    assert desks["player7"].get("/api/me")["balance"] == before + 500
    desks["player7"].post(f"{table}/leave")
    page.context.close()


def test_supervisor_buy_in_hand_pays_recall_replay_and_audit(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    rid = _baccarat_round(desks, finish=True)
    records = desks["supervisor"].get(f"/api/rounds/{rid}/records")["records"]
    page = sign_in(browser, pit_server, "supervisor")
    # buy-in
    before = desks["player5"].get("/api/me")["balance"]
    page.get_by_role("tab", name="Buy-ins and cash-outs").click()
    page.get_by_label("Player").fill("P5")
    page.get_by_label("Amount ($)").fill("25")
    page.get_by_role("button", name="Buy in").click()
    expect(page.locator("#callout")).to_contain_text("Buy-in of $25 for P5 recorded")
    assert desks["player5"].get("/api/me")["balance"] == before + 2500
    # hand pays
    page.get_by_role("tab", name="Hand pays").click()
    expect(page.locator("#pit-body h2")).to_have_text("Hand pays")
    # recall and replay, step by step
    page.get_by_role("tab", name="Game recall").click()
    page.get_by_role("combobox", name="Table").select_option("mini-baccarat")
    page.get_by_role("button", name="Recall").click()
    page.locator(f'button[data-round="{rid}"]').click()
    counter = page.get_by_text(f"of {len(records)}")
    expect(counter).to_have_text(f"step {len(records)} of {len(records)}")
    page.get_by_role("button", name="« Start").click()
    expect(counter).to_have_text(f"step 0 of {len(records)}")
    steps = page.get_by_role("list", name="records").locator("li")
    expect(steps).to_have_count(len(records))
    for n in range(1, 7):
        page.get_by_role("button", name="Step ▶").click()
        expect(counter).to_have_text(f"step {n} of {len(records)}")
    expect(page.locator("li.now")).to_have_attribute("data-step", "6")
    page.get_by_role("button", name="End »").click()
    dealt = [r["card"] for r in records if r["kind"] == "card_dealt"]
    replay = page.locator("#replay")
    for card in set(dealt):  # a shoe of several decks may deal a card twice
        expect(replay.locator(f'[data-card="{card}"]')).to_have_count(dealt.count(card))
    # the provable deal of the recalled coup: its shoe deals on to the coups after it, so the
    # order stays sealed under the shoe's commitment until the shoe ends
    deal = desks["supervisor"].get(f"/api/rounds/{rid}/deal")
    assert deal["revealed"] is False and deal["shoe"] == "mini-baccarat-shoe-000001"
    panel = replay.get_by_role("region", name="provable deal")
    expect(panel.get_by_label("commitment")).to_have_text(deal["commitment"])
    expect(panel).to_have_attribute("data-revealed", "no")
    expect(panel).to_contain_text("revealed when the shoe ends")
    shots.take(page, "pit-replay")
    # audit verify
    page.get_by_role("tab", name="Audit").click()
    page.get_by_role("button", name="Run audit verify").click()
    expect(page.locator("#audit-out")).to_contain_text("clean: nothing differs")
    shots.take(page, "pit-audit")
    page.context.close()


def test_each_role_sees_only_its_parts_of_the_pit(browser: Browser, pit_server: str) -> None:
    tabs = {
        # the Players tab: the seated players' ratings (issue 40), for every pit role
        "observer": ["Floor", "Players", "Game recall"],
        "auditor": ["Floor", "Players", "Game recall", "Audit"],
        "supervisor": [
            "Floor",
            "Players",
            "Hand pays",
            "Buy-ins and cash-outs",
            "Game recall",
            "Audit",
        ],
    }
    for user, expected in tabs.items():
        page = sign_in(browser, pit_server, user)
        expect(page.get_by_role("tab")).to_have_text(expected)
        page.context.close()


def test_player_page_fits_a_phone(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    desks["player6"].post("/api/tables/three-card-poker/sit", {"seat": 6})
    page = sign_in(browser, pit_server, "player6", width=375, height=812)
    expect(page.locator("#player-title")).to_have_text("Seat 6")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375
    expect(page.get_by_role("button", name="Leave the table")).to_be_visible()
    shots.take(page, "player-phone")
    page.get_by_role("button", name="Leave the table").click()
    expect(page.locator("#player-title")).to_have_text("Choose a seat")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375
    page.context.close()


def test_sign_in_and_the_floor_by_keyboard_alone(browser: Browser, pit_server: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(pit_server + "/")
    expect(page.get_by_label("User name")).to_be_focused()
    page.keyboard.type("observer")
    page.keyboard.press("Tab")
    page.keyboard.type("observer-demo")
    page.keyboard.press("Enter")
    expect(page.locator("#pit-title")).to_have_text("Pit view")
    recall = page.get_by_role("tab", name="Game recall")
    recall.focus()
    page.keyboard.press("Enter")
    expect(recall).to_have_attribute("aria-selected", "true")
    expect(page.get_by_label("Table")).to_be_visible()
    page.context.close()


def test_supervisor_closes_and_opens_a_table(
    browser: Browser, pit_server: str, desks: dict[str, Desk]
) -> None:
    page = sign_in(browser, pit_server, "supervisor")
    tile = page.locator('.tile[data-table="midi-baccarat"]')
    tile.get_by_role("button", name="Close").click()
    expect(tile).to_contain_text("table closed", timeout=15_000)
    assert desks["supervisor"].get("/api/tables/midi-baccarat")["status"] == "closed"
    tile.get_by_role("button", name="Open").click()
    expect(tile).to_contain_text("table open", timeout=15_000)
    page.context.close()


def test_dealer_reports_an_irregularity_and_the_round_is_void(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    table = "/api/tables/four-card-poker"
    desks["player7"].post(f"{table}/sit", {"seat": 7})
    desks["dealer"].post(f"{table}/rounds", {"cut_at": None})
    desks["player7"].post(f"{table}/wagers", {"wager": "ante", "amount": 500})
    desks["dealer"].post(f"{table}/no-more-bets", {"progressive_chips": 0})
    desks["dealer"].post(f"{table}/deal")
    page = sign_in(browser, pit_server, "dealer")
    page.locator('[data-table="four-card-poker"] button').click()
    kinds = page.get_by_label("Irregularity")
    expect(kinds).to_be_visible()
    offered = kinds.locator("option").evaluate_all("els => els.map(e => e.value)")
    assert "wrong_card_count" in offered
    kinds.select_option("wrong_card_count")
    page.get_by_role("button", name="Report").click()
    expect(page.locator('[data-phase="void"]')).to_have_count(1, timeout=15_000)
    expect(page.get_by_role("list", name="calls")).to_contain_text("Round void")
    shots.take(page, "dealer-irregularity")
    desks["player7"].post(f"{table}/leave")
    page.context.close()


SHOWN_TABLES = {
    # table -> the wagers placed; each hand is settled face up (§ 641a.11(c)(1), § 569.11(h),
    # § 571.11(h); Three Card Poker and Let It Ride as § 641a.11(c)(1))
    "three-card-poker": ["ante"],
    "four-card-poker": ["ante"],
    "let-it-ride": ["bet1", "bet2", "bet3"],
    "ultimate-texas-holdem": ["ante", "blind"],
    "mississippi-stud": ["ante"],
}
PLAYED = ("play 1", "check", "ride bet1", "ride bet2", "play 3")
STEPS = {"deal": "deal", "turn_community_card": "deal", "reveal": "reveal", "settle": "settle"}
"""The dealer's steps (``GET .../actions``) and their endpoints."""


def _played_round(desks: dict[str, Desk], table: str, wagers: list[str]) -> str:
    """A round at ``table`` with player6 at seat 3, played to the end over the API."""
    path = f"/api/tables/{table}"
    desks["player6"].post(f"{path}/sit", {"seat": 3})
    rid: str = desks["dealer"].post(f"{path}/rounds", {"cut_at": None})["round_id"]
    for wager in wagers:
        desks["player6"].post(f"{path}/wagers", {"wager": wager, "amount": 500})
    desks["dealer"].post(f"{path}/no-more-bets", {"progressive_chips": 0})
    for _ in range(40):
        view = desks["dealer"].get(f"{path}/view")["round"]
        if view["phase"] == "over":
            break
        offered = [d["decision"] for d in desks["player6"].get(f"{path}/actions")["decisions"]]
        if offered:
            choice = next(d for d in PLAYED if d in offered)
            desks["player6"].post(f"{path}/decisions", {"decision": choice, "seat": 3})
            continue
        steps = desks["dealer"].get(f"{path}/actions")["steps"]
        if "count_stub" in steps:  # the dealer counts the stub face down
            desks["dealer"].post(f"{path}/stub-count", {"count": view["cards_left"]})
        else:
            step = next(s for s in steps if s in STEPS)
            desks["dealer"].post(f"{path}/{STEPS[step]}")
    desks["player6"].post(f"{path}/leave")
    return rid


@pytest.mark.parametrize("table", list(SHOWN_TABLES))
def test_recall_replay_shows_each_hand_turned_up_at_settlement(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk], table: str
) -> None:
    rid = _played_round(desks, table, SHOWN_TABLES[table])
    records = desks["supervisor"].get(f"/api/rounds/{rid}/records")["records"]
    (shown,) = [r for r in records if r["kind"] == "hand_shown"]
    assert shown["seat"] == 3
    page = sign_in(browser, pit_server, "supervisor")
    page.get_by_role("tab", name="Game recall").click()
    # the recall's chooser (not the floor's "tables", drawn until the tab is)
    page.get_by_role("combobox", name="Table").select_option(table)
    page.get_by_role("button", name="Recall").click()
    page.locator(f'button[data-round="{rid}"]').click()
    counter = page.get_by_text(f"of {len(records)}")
    expect(counter).to_have_text(f"step {len(records)} of {len(records)}")
    page.get_by_role("button", name="« Start").click()
    at = records.index(shown) + 1
    replay = page.locator("#replay")
    seat = replay.get_by_label("seat 3 cards", exact=True)
    for n in range(1, at + 1):
        page.get_by_role("button", name="Step ▶").click()
        expect(counter).to_have_text(f"step {n} of {len(records)}")
    for card in shown["cards"]:
        expect(seat.locator(f'[data-card="{card}"]')).to_have_count(1)
    steps = page.get_by_role("list", name="records")
    expect(steps.locator("li.now")).to_contain_text("hand shown")
    shots.take(page, f"pit-replay-{table}")
    page.context.close()

"""The supervisor's functions driven through the pit page against a real ``croupier serve``
(the demo floor), each seen on the player's page: a void of a round in play at a table of every
game, buy-ins and cash-outs (the player's balance changes by exactly the amount; a cash-out is
refused while the player is in a round), the provable deal (the commitment shown before the first
wager, the order revealed after the round and verified in the browser) and ``audit verify``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import WAGERS, Desk, close_contexts, desks_of, finish_round, fmt, sign_in, spoken
from playwright.sync_api import Browser, Page, expect
from shots import Shots

STAKE = 500
SEAT = 2


@pytest.fixture()
def desks(pit_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(pit_server, "dealer", "supervisor", "player5") as made:
        yield made


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def _sit(player: Page, name: str) -> None:
    """The player takes seat :data:`SEAT` at the table called ``name`` by clicking."""
    player.get_by_role("button", name=f"sit at {name} seat {SEAT}").click()
    expect(player.locator("#player-title")).to_have_text(f"Seat {SEAT}", timeout=15_000)


def _cage(pit: Page, kind: str, player_id: str, dollars: str) -> None:
    pit.get_by_label("Player", exact=True).fill(player_id)
    pit.get_by_label("Amount ($)").fill(dollars)
    pit.get_by_role("button", name=kind, exact=True).click()


def _balance(player: Page, cents: int) -> None:
    """The player's page shows exactly ``cents``, live: the cage's ``chips`` event at the
    player's table makes the page read its balance again (no reload)."""
    expect(player.locator("#balance")).to_have_text(fmt(cents), timeout=15_000)


def test_641a_13_supervisor_void_at_every_game_returns_each_wager_on_the_players_page(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    dealer, sup, me = desks["dealer"], desks["supervisor"], desks["player5"]
    start = me.get("/api/me")["balance"]
    pit = sign_in(browser, pit_server, "supervisor")
    player = sign_in(browser, pit_server, "player5")
    expect(player.locator("#player-title")).to_have_text("Choose a seat", timeout=15_000)
    for table, wagers in WAGERS.items():
        path = f"/api/tables/{table}"
        name = sup.get(path)["name"]
        _sit(player, name)
        rid = dealer.post(f"{path}/rounds", {"cut_at": None})["round_id"]
        for wager in wagers:
            me.post(f"{path}/wagers", {"wager": wager, "amount": STAKE})
        dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        dealer.post(f"{path}/deal")
        expect(player.locator(".felt [data-card]")).not_to_have_count(0, timeout=15_000)
        phase = sup.get(f"{path}/view")["round"]["phase"]
        assert phase not in ("over", "void", "settlement"), (table, phase)
        expect(player.locator("#balance")).to_have_text(fmt(start - STAKE * len(wagers)))
        tile = pit.locator(f'.tile[data-table="{table}"]')
        expect(tile).to_contain_text(rid, timeout=15_000)
        tile.get_by_label(f"reason to void the round at {name}").fill("training: void drill")
        tile.get_by_role("button", name="Void round").click()
        expect(pit.locator("#callout")).to_contain_text(f"Round {rid} voided")
        assert sup.get(f"{path}/view")["round"]["phase"] == "void"
        expect(player.locator('[data-phase="void"]')).to_have_count(1, timeout=15_000)
        settle = player.get_by_label(f"settlement of seat {SEAT}")
        for wager in wagers:
            expect(settle).to_contain_text(f"{spoken(wager)} void")
        returned = [f"returned {fmt(STAKE)}"] * len(wagers)
        expect(settle.locator("li > span:last-child")).to_have_text(returned)
        expect(player.locator("#balance")).to_have_text(fmt(start), timeout=15_000)
        if table == "let-it-ride":
            shots.take(player, "player-void")
        player.get_by_role("button", name="Leave the table").click()
        expect(player.locator("#player-title")).to_have_text("Choose a seat", timeout=15_000)
    assert me.get("/api/me")["balance"] == start


def test_buy_in_and_cash_out_change_the_players_balance_by_exactly_the_amount(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    dealer, sup, me = desks["dealer"], desks["supervisor"], desks["player5"]
    start = me.get("/api/me")["balance"]
    player = sign_in(browser, pit_server, "player5")
    _sit(player, sup.get("/api/tables/mini-baccarat")["name"])
    expect(player.locator("#balance")).to_have_text(fmt(start))
    pit = sign_in(browser, pit_server, "supervisor")
    pit.get_by_role("tab", name="Buy-ins and cash-outs").click()
    _cage(pit, "Buy in", "P5", "25")
    said = f"Buy-in of $25 for P5 recorded; balance {fmt(start + 2500)}"
    expect(pit.locator("#callout")).to_contain_text(said)
    _balance(player, start + 2500)
    _cage(pit, "Cash out", "P5", "10.50")
    expect(pit.locator("#callout")).to_contain_text("Cash-out of $10.50 for P5 recorded")
    _balance(player, start + 2500 - 1050)
    # while the player is in a round the cash-out is refused and the balance does not move
    dealer.post("/api/tables/mini-baccarat/rounds", {"cut_at": None})
    me.post("/api/tables/mini-baccarat/wagers", {"wager": "banker", "amount": STAKE})
    _cage(pit, "Cash out", "P5", "1")
    expect(pit.locator("#callout")).to_contain_text("P5 is in a round at table mini-baccarat")
    expect(pit.locator("#callout")).to_have_class("callout callout-error")
    assert me.get("/api/me")["balance"] == start + 2500 - 1050 - STAKE
    shots.take(pit, "pit-cage")
    finish_round(dealer, "mini-baccarat", {SEAT: me})
    me.post("/api/tables/mini-baccarat/leave")


def _tab_to(page: Page, selector: str, *, presses: int = 80) -> None:
    """Press Tab (bounded) until the focus is on an element matching ``selector``."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_provable_deal_committed_before_the_wagers_revealed_after_and_verified_in_the_browser(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    dealer, sup, me = desks["dealer"], desks["supervisor"], desks["player5"]
    table, path = "three-card-poker", "/api/tables/three-card-poker"
    player = sign_in(browser, pit_server, "player5")
    _sit(player, sup.get(path)["name"])
    rid = dealer.post(f"{path}/rounds", {"cut_at": None})["round_id"]
    # the commitment is on the player's page before any wager
    committed = me.get(f"/api/rounds/{rid}/deal")
    assert not committed["revealed"] and committed.get("order") is None
    panel = player.get_by_role("region", name="provable deal")
    expect(panel.get_by_label("commitment")).to_have_text(committed["commitment"], timeout=15_000)
    expect(panel).to_have_attribute("data-revealed", "no")
    expect(panel).to_contain_text("revealed once the round is over")
    # the wager and the decision by keyboard alone: Tab to the control, Enter
    player.get_by_label(spoken("ante"), exact=True).focus()
    player.keyboard.press("Tab")
    expect(player.locator('button[data-wager="ante"]')).to_be_focused()
    player.keyboard.press("Enter")
    expect(player.locator('button[data-wager="ante"]')).to_have_count(0, timeout=15_000)
    dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
    dealer.post(f"{path}/deal")
    expect(player.locator('[data-decision="play 1"]')).to_be_visible(timeout=15_000)
    _tab_to(player, '[data-decision="play 1"]')
    player.keyboard.press("Enter")
    expect(player.locator("[data-decision]")).to_have_count(0, timeout=15_000)
    finish_round(dealer, table, {SEAT: me})
    records = sup.get(f"/api/rounds/{rid}/records")["records"]
    assert [r["wager"] for r in records if r["kind"] == "play_wagered"] == ["play"]
    # after the round: revealed; the player is told who checks the order (it holds every card)
    expect(panel).to_have_attribute("data-revealed", "yes", timeout=15_000)
    expect(panel.get_by_label("commitment")).to_have_text(committed["commitment"])
    expect(panel).to_contain_text("given to supervisors and auditors")
    shots.take(player, "player-deal-revealed")
    me.post(f"{path}/leave")
    # the supervisor's replay hashes the revealed order with its nonce in the browser
    pit = sign_in(browser, pit_server, "supervisor")
    pit.get_by_role("tab", name="Game recall").click()
    pit.get_by_role("combobox", name="Table").select_option(table)
    pit.get_by_role("button", name="Recall").click()
    pit.locator(f'button[data-round="{rid}"]').click()
    shown = pit.locator("#replay").get_by_role("region", name="provable deal")
    expect(shown.get_by_label("commitment")).to_have_text(committed["commitment"])
    expect(shown).to_have_attribute("data-verified", "yes", timeout=15_000)
    expect(shown).to_contain_text("Verified here")
    # the check can fail: two cards of the revealed order swapped do not hash to the commitment
    deal = sup.get(f"/api/rounds/{rid}/deal")
    order = deal["order"]
    deal["order"] = [order[1], order[0], *order[2:]]
    pit.evaluate(
        "(deal) => { const p = dealPanel(deal); p.id = 'tampered'; document.body.append(p); }",
        deal,
    )
    expect(pit.locator("#tampered")).to_have_attribute("data-verified", "no", timeout=15_000)
    expect(pit.locator("#tampered")).to_contain_text("Not verified")


def test_audit_verify_on_the_pit_page_shows_the_servers_result_and_balances(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk]
) -> None:
    report = desks["supervisor"].get("/api/audit/verify")
    assert report["ok"] and report["problems"] == []
    pit = sign_in(browser, pit_server, "supervisor")
    pit.get_by_role("tab", name="Audit").click()
    pit.get_by_role("button", name="Run audit verify").click()
    result = pit.get_by_label("audit result")
    expect(result).to_have_attribute("data-ok", "yes")
    expect(result).to_contain_text("clean: nothing differs")
    # croupier audit verify's own checks: every chain and settlement, with what it counted
    assert report["audit"]["findings"] == [] and "rounds" in report["audit"]["checked"]
    expect(result).to_contain_text("every chain, meter and settlement matches")
    checked = pit.get_by_role("table", name="checked")
    for kind, count in report["audit"]["checked"].items():
        expect(checked).to_contain_text(kind.replace("_", " "))
        if kind != "security_events":  # the pit's own sign-in since adds to the security log
            expect(checked).to_contain_text(str(count))
    rows = pit.get_by_role("table", name="ledger balances").locator("tbody tr")
    expect(rows).to_have_count(len(report["balances"]))
    me = desks["player5"].get("/api/me")
    mine = pit.locator('tr[data-account="player:P5"]')
    expect(mine).to_contain_text(fmt(me["balance"]))
    assert report["balances"]["player:P5"] == str(me["balance"])
    shots.take(pit, "pit-audit-balances")

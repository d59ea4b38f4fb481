"""Each wager's light on the pages (issue 39): at a Let It Ride table whose positions have two
progressive devices (the Three- and Five-Card Progressives, § 643a.2(c)(1)) the dealer's
console and the pit's device status show each wager's light, seat by seat, as the sensors
report them; a table of one device per position shows no light by wager."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from desks import close_contexts, dealer_at, desks_of, sign_in, step
from playwright.sync_api import Browser, expect

from croupier.faces.reader import ShoeReader

RULES = Path(__file__).parents[1] / "rules" / "let-it-ride.toml"
THREE, FIVE = "three_card_progressive", "five_card_progressive"
TABLE = "lir-two-lights"


@pytest.fixture(autouse=True)
def _close(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def _light(seat: int, wager: str, scope: str) -> str:
    """The span of ``seat``'s ``wager`` light within ``scope``."""
    return f'{scope} .wager-light[data-seat="{seat}"][data-wager="{wager}"]'.strip()


def test_643a_2_c_1_each_wagers_light_on_the_dealers_and_the_pits_pages(
    browser: Browser, fresh_server: str
) -> None:
    with desks_of(fresh_server, "supervisor", "player1", "player2") as desks:
        supervisor = desks["supervisor"]
        rules = supervisor.get("/api/tables/let-it-ride")["rules"]
        custom = tomllib.loads(RULES.read_text(encoding="utf-8"))["custom_paytables"]
        rules["custom_paytables"] = {**rules.get("custom_paytables", {}), THREE: custom[THREE]}
        rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
        supervisor.post("/api/tables", {"id": TABLE, "name": "Two lights", "rules": rules})
        supervisor.post(f"/api/tables/{TABLE}/open")
        token = supervisor.post(f"/api/tables/{TABLE}/devices")["token"]
        sensors = ShoeReader(fresh_server, TABLE, token)
        for seat in (1, 2):
            desks[f"player{seat}"].post(f"/api/tables/{TABLE}/sit", {"seat": seat})
        dealer = dealer_at(browser, fresh_server, TABLE)
        step(dealer, "rounds")
        expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
        for seat in (1, 2):
            for bet in ("bet1", "bet2", "bet3"):
                placed = {"seat": seat, "wager": bet, "amount": 500}
                desks[f"player{seat}"].post(f"/api/tables/{TABLE}/wagers", placed)
        for seat, wager in ((1, THREE), (1, FIVE), (2, FIVE)):
            assert sensors.sense(seat, "lit", wager)["accepted"]
        # the dealer's console: each wager's light, seat 2's Three-Card device dark
        shown = {(1, THREE): "lit", (1, FIVE): "lit", (2, THREE): "dark", (2, FIVE): "lit"}
        for (seat, wager), light in shown.items():
            expect(dealer.locator(_light(seat, wager, "#wager-lights"))).to_have_attribute(
                "data-light", light, timeout=15_000
            )
        expect(dealer.locator("#wager-lights")).to_contain_text("seat 2: ")
        # a chip taken off seat 1's Three-Card device before the lock-out: its light goes dark
        assert sensors.sense(1, "dark", THREE)["accepted"]
        expect(dealer.locator(_light(1, THREE, "#wager-lights"))).to_have_attribute(
            "data-light", "dark", timeout=15_000
        )
        expect(dealer.locator(_light(1, FIVE, "#wager-lights"))).to_have_attribute(
            "data-light", "lit"
        )
        # the pit's floor: the table's device shows the same lights by wager
        pit = sign_in(browser, fresh_server, "supervisor")
        tile = f'[data-table="{TABLE}"] .device'
        shown[(1, THREE)] = "dark"
        for (seat, wager), light in shown.items():
            expect(pit.locator(_light(seat, wager, tile))).to_have_attribute(
                "data-light", light, timeout=15_000
            )
        round_id = supervisor.get(f"/api/tables/{TABLE}")["round_id"]
        supervisor.post(f"/api/rounds/{round_id}/void", {"reason": "the lights checked"})
        sensors.close()


def test_a_table_of_one_device_per_position_shows_no_light_by_wager(
    browser: Browser, fresh_server: str
) -> None:
    table = "fcp-one-light"
    with desks_of(fresh_server, "supervisor", "player3") as desks:
        supervisor = desks["supervisor"]
        rules = supervisor.get("/api/tables/four-card-poker")["rules"]
        rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
        supervisor.post("/api/tables", {"id": table, "name": "One light", "rules": rules})
        supervisor.post(f"/api/tables/{table}/open")
        token = supervisor.post(f"/api/tables/{table}/devices")["token"]
        sensors = ShoeReader(fresh_server, table, token)
        desks["player3"].post(f"/api/tables/{table}/sit", {"seat": 1})
        dealer = dealer_at(browser, fresh_server, table)
        step(dealer, "rounds")
        expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
        desks["player3"].post(
            f"/api/tables/{table}/wagers", {"seat": 1, "wager": "ante", "amount": 500}
        )
        assert sensors.sense(1, "lit")["accepted"]
        expect(dealer.locator("#lights")).to_have_text("Lights: seat 1 lit", timeout=15_000)
        expect(dealer.locator("#wager-lights")).to_have_count(0)
        round_id = supervisor.get(f"/api/tables/{table}")["round_id"]
        supervisor.post(f"/api/rounds/{round_id}/void", {"reason": "the light checked"})
        sensors.close()

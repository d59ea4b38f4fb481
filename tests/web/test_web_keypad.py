"""The dealer's card keypad in Chromium (issue 39): at a Four Card Poker table of keyed cards
with progressive sensors, the console names the card it expects next ("seat 1, first card"),
takes a card from the keyboard (rank, then suit) and from the buttons, shows the lights, holds
a count that differs for a supervisor, and the pit shows the table's device; the demo floor of
``make run`` (``--demo-devices``) has a table dealt by the reader emulator."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import free_port, start_server, stop
from desks import Desk, close_contexts, dealer_at, desks_of, sign_in, step
from playwright.sync_api import Browser, Page, expect

from croupier.faces.reader import ShoeReader
from live.emulated import of_real_cards

TABLE = "fcp-keyed"


@pytest.fixture(scope="module")
def keyed(fresh_server: str) -> str:
    """A keypad table with progressive sensors on the module's floor; player1 seated."""
    with desks_of(fresh_server, "supervisor", "player1") as made:
        supervisor = made["supervisor"]
        rules = supervisor.get("/api/tables/four-card-poker")["rules"]
        table = {"cards": "keypad", "progressive_wagers": "sensors"}
        rules["table"] = {**rules.get("table", {}), **table}
        supervisor.post("/api/tables", {"id": TABLE, "name": "Keyed FCP", "rules": rules})
        supervisor.post(f"/api/tables/{TABLE}/open")
        made["player1"].post(f"/api/tables/{TABLE}/sit", {"seat": 1})
    return TABLE


@pytest.fixture()
def desks(fresh_server: str, keyed: str) -> Iterator[dict[str, Desk]]:
    with desks_of(fresh_server, "supervisor", "player1") as made:
        yield made


@pytest.fixture(autouse=True)
def _close(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def _sensors(base: str, supervisor: Desk) -> ShoeReader:
    """A sensor device of the table (the emulator's client speaks the protocol)."""
    return ShoeReader(base, TABLE, supervisor.post(f"/api/tables/{TABLE}/devices")["token"])


def _betting(base: str, browser: Browser, desks: dict[str, Desk]) -> tuple[Page, ShoeReader]:
    """The dealer's console with a round open (the last one voided if still in play), the
    player's Ante placed and the seat's sensor lit."""
    supervisor = desks["supervisor"]
    detail = supervisor.get(f"/api/tables/{TABLE}")
    if detail["phase"] not in (None, "over", "void"):
        supervisor.post(f"/api/rounds/{detail['round_id']}/void", {"reason": "a new test"})
    sensors = _sensors(base, supervisor)
    dealer = dealer_at(browser, base, TABLE)
    expect(dealer.get_by_role("region", name="card keypad")).to_be_visible()
    step(dealer, "rounds")
    expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
    expect(dealer.locator("#next-card")).to_have_text("No card is due.", timeout=15_000)
    wager = {"seat": 1, "wager": "ante", "amount": 500}
    desks["player1"].post(f"/api/tables/{TABLE}/wagers", wager)
    sensors.sense(1, "lit")
    expect(dealer.locator("#lights")).to_have_text("Lights: seat 1 lit", timeout=15_000)
    expect(dealer.locator("#prog-chips")).to_have_value("1")
    return dealer, sensors


def test_the_keypad_names_the_next_card_and_takes_keys_and_buttons(
    browser: Browser, fresh_server: str, desks: dict[str, Desk]
) -> None:
    dealer, sensors = _betting(fresh_server, browser, desks)
    step(dealer, "no-more-bets")
    expect(dealer.locator("#next-card")).to_have_text("Next: seat 1, first card", timeout=15_000)
    # the keyboard: the rank, then the suit
    dealer.locator("body").press("a")
    expect(dealer.locator('button[data-rank="A"]')).to_have_attribute("aria-pressed", "true")
    dealer.locator("body").press("s")
    expect(dealer.locator("#next-card")).to_have_text("Next: dealer, first card", timeout=15_000)
    # the buttons
    dealer.locator('button[data-rank="10"]').click()
    dealer.get_by_role("button", name="hearts").click()
    expect(dealer.locator("#next-card")).to_have_text("Next: seat 1, second card", timeout=15_000)
    view = desks["supervisor"].get(f"/api/tables/{TABLE}/view")["round"]
    dealt = [r["to"] for r in view["records"] if r["kind"] in ("card_dealt", "card_hidden")]
    assert dealt == ["1", "dealer"]  # face down: the supervisor's view hides them till over
    # a late chip on the sensor after the lock-out: refused, recorded, the lights unchanged
    assert sensors.sense(1, "dark")["records"] == ["sensor_refused"]
    expect(dealer.locator("#lights")).to_have_text("Lights: seat 1 lit")
    # the pit sees the table's device: connected, last heard, the lights
    pit = sign_in(browser, fresh_server, "supervisor")
    device = pit.locator(f'[data-table="{TABLE}"] .device')
    expect(device.first).to_contain_text(
        re.compile(r"sensors-\d: connected · last heard .* lights seat 1 lit"), timeout=15_000
    )
    # once the round is over (voided here) the supervisor reads the cards keyed
    round_id = desks["supervisor"].get(f"/api/tables/{TABLE}")["round_id"]
    desks["supervisor"].post(f"/api/rounds/{round_id}/void", {"reason": "the cards checked"})
    records = desks["supervisor"].get(f"/api/rounds/{round_id}/records")["records"]
    assert [r["card"] for r in records if r["kind"] == "card_dealt"] == ["As", "Th"]
    sensors.close()


def test_641a_8_b_the_console_shows_a_count_held_for_a_supervisor(
    browser: Browser, fresh_server: str, desks: dict[str, Desk]
) -> None:
    dealer, sensors = _betting(fresh_server, browser, desks)
    dealer.locator("#prog-chips").fill("2")
    step(dealer, "no-more-bets")
    expect(dealer.locator("#count-held")).to_contain_text(
        "2 chips counted, the system accepted 1", timeout=15_000
    )
    # the supervisor recounts on the pit's floor: one chip, as the sensors accepted
    pit = sign_in(browser, fresh_server, "supervisor")
    pit.get_by_label("progressive chips recounted at Keyed FCP").fill("1")
    pit.locator(f'button[data-recount="{TABLE}"]').click()
    expect(dealer.locator("#next-card")).to_have_text("Next: seat 1, first card", timeout=15_000)
    expect(dealer.locator("#count-held")).to_have_count(0)
    sensors.close()


@pytest.fixture(scope="module")
def device_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``croupier serve --demo-devices`` (``make run``): the demo floor with its tables of real
    cards, the reader table dealt by the emulator in the server's process."""
    db = tmp_path_factory.mktemp("devices") / "floor.sqlite"
    port = free_port()
    argv = [sys.executable, "-m", "croupier", "serve", "--db", f"sqlite:///{db}", "--demo-devices"]
    proc = start_server([*argv, "--host", "127.0.0.1", "--port", str(port)], port)
    yield f"http://127.0.0.1:{port}"
    stop(proc)


def test_the_demo_floor_has_a_table_dealt_by_the_reader_emulator_and_one_keyed(
    browser: Browser, device_demo: str
) -> None:
    with desks_of(device_demo, "supervisor", "player1") as desks:
        ids = [t["id"] for t in desks["supervisor"].get("/api/tables")]
        assert {"four-card-poker-reader", "four-card-poker-keypad"} <= set(ids)
        keyed = desks["supervisor"].get("/api/tables/four-card-poker-keypad")
        assert keyed["rules"]["table"]["cards"] == "keypad"
        table = "four-card-poker-reader"
        desks["player1"].post(f"/api/tables/{table}/sit", {"seat": 1})
        dealer = dealer_at(browser, device_demo, table)
        step(dealer, "rounds")
        expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
        wager = {"seat": 1, "wager": "ante", "amount": 500}
        desks["player1"].post(f"/api/tables/{table}/wagers", wager)
        step(dealer, "no-more-bets")
        # the emulator deals the round's eleven cards (a heartbeat a second while it waits);
        # the player decides next, and the console names no card (the click's command may
        # reach the server after the first read: betting, then dealing, then decisions)
        view: dict[str, Any] = {}
        for _ in range(60):
            view = desks["supervisor"].get(f"/api/tables/{table}/view")["round"]
            if view["phase"] not in ("betting", "dealing"):
                break
            time.sleep(0.5)
        assert view["phase"] == "decisions" and len(view["cards"]["dealer"]) == 6
        expect(dealer.locator("#next-card")).to_have_text("No card is due.", timeout=15_000)
        (reader,) = desks["supervisor"].get(f"/api/tables/{table}/devices")
        assert not reader["silent"] and reader["last_seq"] >= 11


def test_641a_11_c_5_ii_declared_on_the_console_verified_on_the_pit(
    browser: Browser, fresh_server: str
) -> None:
    """A table whose cards croupier does not see: the dealer declares the winning hand on the
    console, the supervisor verifies it on the pit's floor, the dealer closes."""
    felt = "fcp-felt"
    with desks_of(fresh_server, "supervisor", "player2") as desks:
        supervisor = desks["supervisor"]
        rules = supervisor.get("/api/tables/four-card-poker")["rules"]
        rules["table"] = {
            **rules.get("table", {}),
            "cards": "felt",
            "progressive_wagers": "sensors",
        }
        supervisor.post("/api/tables", {"id": felt, "name": "Felt FCP", "rules": rules})
        supervisor.post(f"/api/tables/{felt}/open")
        sensors = ShoeReader(
            fresh_server, felt, supervisor.post(f"/api/tables/{felt}/devices")["token"]
        )
        desks["player2"].post(f"/api/tables/{felt}/sit", {"seat": 2})
        dealer = dealer_at(browser, fresh_server, felt)
        step(dealer, "rounds")
        expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
        sensors.sense(2, "lit")
        expect(dealer.locator("#prog-chips")).to_have_value("1", timeout=15_000)
        step(dealer, "no-more-bets")
        dealer.get_by_label("seat of the winning hand").fill("2")
        dealer.get_by_label("the winning hand's cards").fill("9c 9d 9h 9s 2c")
        step(dealer, "declare")
        expect(dealer.get_by_text("seat 2: awaiting the supervisor")).to_be_visible(timeout=15_000)
        pit = sign_in(browser, fresh_server, "supervisor")
        pit.get_by_label("seat of the declared hand at Felt FCP").fill("2")
        pit.locator(f'button[data-verify="{felt}"]').click()
        expect(dealer.get_by_text("seat 2: verified")).to_be_visible(timeout=15_000)
        step(dealer, "declarations-close")
        round_id = supervisor.get(f"/api/tables/{felt}")["round_id"]
        expect(dealer.locator('button[data-step="rounds"]:not([disabled])')).to_have_count(
            1, timeout=15_000
        )
        records = supervisor.get(f"/api/rounds/{round_id}/records")["records"]
        kinds = [r["kind"] for r in records]
        assert kinds.index("hand_declared") < kinds.index("declaration_verified")
        assert "progressive_paid" in kinds and kinds[-1] != "declaration_verified"
        sensors.close()


def test_a_new_baccarat_shoe_keyed_between_coups_by_its_first_card(
    browser: Browser, fresh_server: str
) -> None:
    """A Mini-Baccarat table of keyed cards deals one shoe coup after coup: between coups the
    keypad offers a new shoe, keyed by its first card turned up, which the next coup carries."""
    table = "mini-keyed"
    with desks_of(fresh_server, "supervisor", "player5") as desks:
        supervisor = desks["supervisor"]
        rules = of_real_cards(supervisor.get("/api/tables/mini-baccarat")["rules"], "keypad")
        supervisor.post("/api/tables", {"id": table, "name": "Keyed Mini", "rules": rules})
        supervisor.post(f"/api/tables/{table}/open")
        desks["player5"].post(f"/api/tables/{table}/sit", {"seat": 1})
        dealer = dealer_at(browser, fresh_server, table)
        shoe = dealer.locator('#key-kind option[value="shoe"]')
        expect(shoe).to_have_count(1, timeout=15_000)
        dealer.get_by_label("report the card as").select_option("shoe")
        dealer.locator("body").press("k")
        dealer.locator("body").press("d")
        expect(dealer.locator("#callout")).to_contain_text(
            "A new shoe: the King of diamonds turned up.", timeout=15_000
        )
        expect(dealer.get_by_label("report the card as")).to_have_value("card")
        # the cards are shuffled and cut at the table: the console only opens the betting
        expect(dealer.locator('button[data-step="rounds"]')).to_have_text("Open betting")
        expect(dealer.locator("#cut-pos")).to_have_count(0)
        step(dealer, "rounds")
        expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
        # during a coup the shoe is not changed from the keypad
        expect(shoe).to_have_count(0)
        round_id = supervisor.get(f"/api/tables/{table}")["round_id"]
        records = supervisor.get(f"/api/tables/{table}/view")["round"]["records"]
        carried = [r for r in records if r["kind"] == "shoe_carried"]
        assert [r["gone"] for r in carried] == [["Kd"]] and carried[0]["burned"] == 10
        expect(dealer.get_by_role("region", name="card keypad")).to_be_visible()
        expect(dealer.get_by_text("Nothing called yet.")).to_be_visible()  # a round, not none
        supervisor.post(f"/api/rounds/{round_id}/void", {"reason": "the test is over"})
        desks["player5"].post(f"/api/tables/{table}/leave")


def test_a_poker_keypad_offers_no_new_shoe(
    browser: Browser, fresh_server: str, desks: dict[str, Desk]
) -> None:
    dealer = dealer_at(browser, fresh_server, TABLE)
    expect(dealer.get_by_role("region", name="card keypad")).to_be_visible(timeout=15_000)
    expect(dealer.locator('#key-kind option[value="card"]')).to_have_count(1)
    expect(dealer.locator('#key-kind option[value="shoe"]')).to_have_count(0)

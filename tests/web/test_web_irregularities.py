"""Every irregularity the dealer console offers, reported by clicking, at one table of every
game against a real ``croupier serve`` (the demo floor), with the player's page beside it.

At "no more bets", before the first card, a table offers: a card found face up in the deck (the
first is discarded, a second voids the round), a card drawn in error (used as the next card: the
round goes on), a wrong number of cards (void); where the dealer or the board holds face-down
cards, a dealer card exposed early (void); where the table deals from an automated shoe, a jam
(void): § 641a.13(a)-(d), (f) and their parallels (§ 649a.13, § 643a.13, § 653a.13,
§ 655a.13, § 627a.13, § 629a.13).  A void returns every wager.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import Desk, close_contexts, dealer_at, desks_of, fmt, sign_in, step
from playwright.sync_api import Browser, Page, expect
from shots import Shots

FACE_UP = "card_face_up_in_deck"
IN_ERROR = "card_drawn_in_error"
COUNT = "wrong_card_count"
EXPOSED = "dealer_card_exposed"
JAM = "automated_shoe_jam"

GAMES: dict[str, tuple[list[str], list[str]]] = {
    # table -> (the wagers the player places, the irregularities offered at "no more bets")
    # the demo Three Card Poker and Let It Ride tables deal from an automated shoe, which may
    # jam (§ 649a.13, § 643a.13(f)); the others from a manual shoe
    "three-card-poker": (["ante"], [FACE_UP, IN_ERROR, COUNT, EXPOSED, JAM]),
    "four-card-poker": (["ante"], [FACE_UP, IN_ERROR, COUNT, EXPOSED]),
    "let-it-ride": (["bet1", "bet2", "bet3"], [FACE_UP, IN_ERROR, COUNT, EXPOSED, JAM]),
    "ultimate-texas-holdem": (["ante", "blind"], [FACE_UP, IN_ERROR, COUNT, EXPOSED]),
    "mississippi-stud": (["ante"], [FACE_UP, IN_ERROR, COUNT]),
    "mini-baccarat": (["banker"], [FACE_UP, IN_ERROR, COUNT]),
    "midi-baccarat": (["player"], [FACE_UP, IN_ERROR, COUNT]),
    "ez-baccarat": (["banker"], [FACE_UP, IN_ERROR, COUNT]),
}
CHAPTER = {
    # the section each chapter gives its irregularities
    "three-card-poker": "§ 649a.13",
    "four-card-poker": "§ 641a.13",
    "let-it-ride": "§ 643a.13",
    "ultimate-texas-holdem": "§ 653a.13",
    "mississippi-stud": "§ 655a.13",
    "mini-baccarat": "§ 627a.13",
    "midi-baccarat": "§ 629a.13",
    "ez-baccarat": "§ 627a.13",
}
STAKE = 500


@pytest.fixture()
def desks(pit_server: str) -> Iterator[dict[str, Desk]]:
    with desks_of(pit_server, "supervisor", "player1") as made:
        yield made


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def _open_betting(dealer: Page, player: Desk, table: str, wagers: list[str]) -> str:
    """The dealer opens a round by clicking; the player's wagers go in over the API."""
    step(dealer, "rounds")
    expect(dealer.locator('[data-phase="betting"]')).to_have_count(1, timeout=15_000)
    for wager in wagers:
        player.post(f"/api/tables/{table}/wagers", {"wager": wager, "amount": STAKE})
    step(dealer, "no-more-bets")
    expect(dealer.locator('[data-phase="dealing"]')).to_have_count(1, timeout=15_000)
    rid: str = player.get(f"/api/tables/{table}/view")["round_id"]
    return rid


def _report(dealer: Page, kind: str) -> None:
    dealer.get_by_label("Irregularity", exact=True).select_option(kind)
    dealer.get_by_role("button", name="Report").click()


def _irregularities(desk: Desk, table: str) -> list[dict[str, str]]:
    """The round's irregularity records as the server gives them now (the table's view)."""
    records = desk.get(f"/api/tables/{table}/view")["round"]["records"]
    return [r for r in records if r["kind"] in ("irregularity", "round_voided", "card_discarded")]


def _assert_void(dealer: Page, player: Page, desk: Desk, table: str, rid: str, reason: str) -> None:
    """The round is void as the server records it; both pages show it; every wager back."""
    expect(dealer.locator('[data-phase="void"]')).to_have_count(1, timeout=15_000)
    (void,) = [r for r in _irregularities(desk, table) if r["kind"] == "round_voided"]
    assert void["reason"] == reason
    said = f"Round void: {reason}" + (f" ({void['section']})" if void["section"] else "")
    expect(dealer.get_by_role("list", name="calls")).to_contain_text(said)
    expect(dealer.locator("#callout")).to_contain_text(said)
    assert desk.get(f"/api/tables/{table}/view")["round"]["phase"] == "void"
    expect(player.locator('[data-phase="void"]')).to_have_count(1, timeout=15_000)
    expect(player.get_by_label("settlement of seat 1")).to_contain_text(f"returned {fmt(STAKE)}")


@pytest.mark.parametrize("table", list(GAMES))
def test_641a_13_each_irregularity_offered_is_reported_from_the_console(
    browser: Browser, pit_server: str, shots: Shots, desks: dict[str, Desk], table: str
) -> None:
    wagers, offered = GAMES[table]
    sup, seat = desks["supervisor"], desks["player1"]
    seat.post(f"/api/tables/{table}/sit", {"seat": 1})
    start = seat.get("/api/me")["balance"]
    dealer = dealer_at(browser, pit_server, table)
    player = sign_in(browser, pit_server, "player1")
    expect(player.locator("#player-title")).to_have_text("Seat 1", timeout=15_000)

    # a card face up in the deck (discarded), a card drawn in error (used), a second face up
    rid = _open_betting(dealer, seat, table, wagers)
    kinds = dealer.get_by_label("Irregularity", exact=True).locator("option")
    assert kinds.evaluate_all("els => els.map(e => e.value)") == offered
    calls = dealer.get_by_role("list", name="calls")
    _report(dealer, FACE_UP)
    expect(calls).to_contain_text("Irregularity: card face up in deck")
    expect(calls).to_contain_text("card discarded")
    (first,) = [r for r in _irregularities(sup, table) if r["kind"] == "irregularity"]
    assert (first["irregularity"], first["consequence"]) == (FACE_UP, "card discarded")
    assert first["section"].startswith(CHAPTER[table])
    if first["section"]:
        expect(calls).to_contain_text(f"card face up in deck ({first['section']})")
    _report(dealer, IN_ERROR)
    expect(calls).to_contain_text("used as the next card")
    expect(dealer.locator('[data-phase="dealing"]')).to_have_count(1)
    assert sup.get(f"/api/tables/{table}/view")["round"]["phase"] == "dealing"
    _report(dealer, FACE_UP)
    _assert_void(dealer, player, sup, table, rid, "a second card found face up in the deck")
    # the discarded card is not shown to the player (nor ever dealt to a box)
    records = sup.get(f"/api/rounds/{rid}/records")["records"]
    (discarded,) = [r["card"] for r in records if r["kind"] == "card_discarded"]
    expect(player.locator(f'[data-card="{discarded}"]')).to_have_count(0)
    shots.take(dealer, f"irregularity-{table}")

    # every other irregularity voids the round
    for kind in offered[2:]:
        rid = _open_betting(dealer, seat, table, wagers)
        _report(dealer, kind)
        _assert_void(dealer, player, sup, table, rid, kind.replace("_", " "))
    assert seat.get("/api/me")["balance"] == start
    expect(player.locator("#balance")).to_have_text(fmt(start))
    seat.post(f"/api/tables/{table}/leave")

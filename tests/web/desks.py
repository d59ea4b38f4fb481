"""What the newer browser tests share: an account on the live-table API (to set a table up
and to read what a page must show; the pages themselves are clicked) and a signed-in page."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from croupier.faces.client import tls_context
from croupier.games import GAMES


class Desk:
    """One demo account (``<user>`` / ``<user>-demo``) signed in over the API."""

    def __init__(self, base: str, user: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30, verify=tls_context())
        res = self.client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
        res.raise_for_status()
        self.client.headers["Authorization"] = f"Bearer {res.json()['token']}"

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        key = {"Idempotency-Key": str(uuid.uuid4())}
        res = self.client.post(path, json=body or {}, headers=key)
        res.raise_for_status()
        return res.json()

    def get(self, path: str) -> Any:
        res = self.client.get(path)
        res.raise_for_status()
        return res.json()

    def close(self) -> None:
        self.client.close()


@contextlib.contextmanager
def desks_of(base: str, *users: str) -> Iterator[dict[str, Desk]]:
    """A :class:`Desk` of each user, closed at the end."""
    made = {u: Desk(base, u) for u in users}
    try:
        yield made
    finally:
        for desk in made.values():
            desk.close()


def close_contexts(browser: Browser) -> None:
    """Close every browser context a test opened (its pages with it)."""
    for ctx in browser.contexts:
        ctx.close()


_BOX = """(sel) => { const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }"""


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The viewport box of the first element ``selector`` matches, measured in one script turn:
    the pages redraw on every event, so an element a locator found can be replaced before a
    second call measures it (``bounding_box()`` then answers None)."""
    box: dict[str, float] | None = page.evaluate(_BOX, selector)
    assert box is not None, f"nothing on the page matches {selector!r}"
    return box


def sign_in(browser: Browser, base: str, user: str, width: int = 1280, height: int = 800) -> Page:
    """A new browser context of its own, signed in as ``user`` on the sign-in page."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(base + "/")
    page.get_by_label("User name").fill(user)
    page.get_by_label("Password").fill(f"{user}-demo")
    page.get_by_role("button", name="Sign in").click()
    return page


def dealer_at(browser: Browser, base: str, table: str, **size: int) -> Page:
    """The dealer signed in and dealing ``table`` (chosen by its name on the console)."""
    page = sign_in(browser, base, "dealer", **size)
    observer = Desk(base, "observer")
    name = observer.get(f"/api/tables/{table}")["name"]
    observer.close()
    page.get_by_role("button", name=f"deal at {name}").click()
    expect(page.locator("#dealer-title")).to_have_text("Dealer console", timeout=15_000)
    return page


def step(dealer: Page, name: str) -> None:
    """Click the dealer's step ``name`` (``rounds``, ``no-more-bets``, ``deal``...) once the
    console enables it."""
    button = dealer.locator(f'button[data-step="{name}"]:not([disabled])')
    expect(button).to_have_count(1, timeout=15_000)
    button.click()


SPOKEN: dict[str, str] = {k: v for cls in GAMES.values() for k, v in cls.spoken_names().items()}
"""Every game's wagers and hands by key, named as the pages name them (the games' own
``spoken_names``: "bet1" is "Bet 1")."""


def spoken(key: str) -> str:
    """A wager's or hand's name as the pages show it."""
    return SPOKEN.get(key, key.replace("_", " "))


def fmt(cents: int) -> str:
    """Cents as the pages show them: ``$1,234.50``, ``$5``."""
    d, c = divmod(abs(cents), 100)
    return ("-" if cents < 0 else "") + f"${d:,}" + (f".{c:02d}" if c else "")


WAGERS: dict[str, list[str]] = {
    # table id (the demo floor: one table of every game) -> the wagers a test player places
    "three-card-poker": ["ante"],
    "four-card-poker": ["ante"],
    "let-it-ride": ["bet1", "bet2", "bet3"],
    "ultimate-texas-holdem": ["ante", "blind"],
    "mississippi-stud": ["ante"],
    "mini-baccarat": ["banker"],
    "midi-baccarat": ["player"],
    "ez-baccarat": ["banker"],
}
PLAYED = ("play 1", "check", "ride bet1", "ride bet2", "play 3")
"""The decision a test player takes, first offered: keeps the cards in play to the end."""
STEPS = {"deal": "deal", "turn_community_card": "deal", "reveal": "reveal", "settle": "settle"}
"""The dealer's steps (``GET .../actions``) and their endpoints."""


def finish_round(dealer: Desk, table: str, seats: dict[int, Desk]) -> None:
    """Play the open round at ``table`` to its end over the API (bounded): the seat to act takes
    the first of :data:`PLAYED` offered, the dealer the next step ("no more bets" with no
    progressive chip, the stub counted face down)."""
    path = f"/api/tables/{table}"
    for _ in range(60):
        view = dealer.get(f"{path}/view")["round"]
        if view["phase"] in ("over", "void"):
            return
        seat = view.get("to_act_seat")
        offered = (
            [d["decision"] for d in seats[seat].get(f"{path}/actions")["decisions"]]
            if seat in seats
            else []
        )
        if offered:
            choice = next(d for d in PLAYED if d in offered)
            seats[seat].post(f"{path}/decisions", {"decision": choice, "seat": seat})
            continue
        steps = dealer.get(f"{path}/actions")["steps"]
        if "no_more_bets" in steps:
            dealer.post(f"{path}/no-more-bets", {"progressive_chips": 0})
        elif "count_stub" in steps:
            dealer.post(f"{path}/stub-count", {"count": view["cards_left"]})
        else:
            dealer.post(f"{path}/{STEPS[next(s for s in steps if s in STEPS)]}")
    raise AssertionError(f"the round at {table} did not end")

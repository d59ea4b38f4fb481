"""Rounds played by clicking in Chromium against a real ``croupier serve`` process (shared by
test_web_tables*.py): the dealer and two players each in their own browser context, from sign-in
to settlement.  A player's page never holds another player's cards, the burn or discards, or the
dealer's face-down cards before they are turned: checked over every WebSocket message the page
received (the view and actions they carry included), every view and actions response it
fetched, and its DOM after every step."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

import httpx
from desks import spoken
from playwright.sync_api import BrowserContext, Page, Request, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from shots import Shots

from croupier.faces.client import tls_context

PLAYERS = (("player1", 1), ("player2", 4))
PREFERRED = ("play 1", "check", "ride bet1", "ride bet2", "play 2", "play 3")
"""The decision a test player takes, first available: keeps the cards in play to the end."""
CARD = re.compile(r"^(10|[2-9TJQKA])[shdc]$")
DATA_CARD = re.compile(r'data-card="([2-9TJQKA][shdc])"')
REVEALS = {
    "dealer_revealed",
    "community_card_turned",
    "street_card_turned",
    "result_announced",
    "hand_shown",
    "hand_turned",
    "cards_picked_up",
}
"""Records that turn cards face up (their cards are public from then on)."""
BOXES_DOWN = ("dealer", "board", "player", "banker", "six_card_bonus")


def _cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value.replace("10", "T"))
    elif isinstance(value, dict):
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _cards_in(v)
    return found


@dataclass
class Watched:
    """A signed-in page and everything it received."""

    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    snapshots: list[tuple[int, str]] = field(default_factory=list)
    """(number of frames received by then, the page's HTML)."""

    def snapshot(self) -> None:
        self.snapshots.append((len(self.frames), self.page.content()))


def _watch(context: BrowserContext, base: str, user: str) -> Watched:
    page = context.new_page()
    w = Watched(page)

    def on_ws(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: w.frames.append(json.loads(payload)))

    page.on("websocket", on_ws)
    page.on("requestfinished", lambda req: w.requests.append(req) if "/api/" in req.url else None)
    page.goto(base + "/")
    page.get_by_label("User name").fill(user)
    page.get_by_label("Password").fill(f"{user}-demo")
    page.get_by_role("button", name="Sign in").click()
    return w


def _get(base: str, user: str, path: str) -> Any:
    """GET ``path`` as ``user`` (signed in over the API)."""
    with httpx.Client(base_url=base, timeout=30, verify=tls_context()) as client:
        token = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
        client.headers["Authorization"] = f"Bearer {token.json()['token']}"
        res = client.get(path)
        res.raise_for_status()
        return res.json()


@dataclass
class Secrets:
    """What a seat's page may not hold: from the full records of the round."""

    own: set[str]
    never: set[str]
    """Other seats' cards, the burn and discards."""
    until_turned: set[str]
    """Cards dealt face down to the dealer, board, baccarat hands: allowed once turned."""


def _secrets(records: list[dict[str, Any]], seat: int) -> Secrets:
    own: set[str] = set()
    never: set[str] = set()
    until: set[str] = set()
    for r in records:
        if r["kind"] == "card_dealt":
            card, to = r["card"], str(r["to"])
            if to == str(seat):
                own.add(card)
            elif to.isdigit() or to in ("burn", "discard"):
                never.add(card)
            elif not r["face_up"]:
                until.add(card)
        elif r["kind"] == "card_discarded":
            never.add(r["card"])
    return Secrets(own=own, never=never - own, until_turned=until)


def _check_frames(w: Watched, s: Secrets, who: str) -> list[set[str]]:
    """Every frame: no forbidden card, a face-down card only from the frame that turns it.
    Returns the cards public after each frame (index i: after frames[:i])."""
    public: set[str] = set()
    after = [set(public)]
    for frame in w.frames:
        data = frame.get("data", {})
        cards = _cards_in(data)
        assert not cards & s.never, f"{who} received {cards & s.never} in {frame}"
        # a table's shoe event: a new baccarat shoe's first card is turned up for everyone
        record = data.get("record") if isinstance(data.get("record"), dict) else {}
        shown = data.get("kind") in REVEALS or record.get("kind") == "shoe_opened"
        turned = cards if shown or data.get("face_up") else set()
        early = (cards & s.until_turned) - public - turned
        assert not early, f"{who} received face-down {early} before the turn: {frame}"
        public |= turned
        after.append(set(public))
    return after


def _check_dom(w: Watched, s: Secrets, public_after: list[set[str]], who: str) -> None:
    for count, html in w.snapshots:
        shown = set(DATA_CARD.findall(html))
        assert not shown & s.never, f"{who}'s page showed {shown & s.never}"
        allowed = s.own | public_after[min(count, len(public_after) - 1)]
        early = (shown & s.until_turned) - allowed
        # the page may be a step ahead of the frames it has counted: allow what the view sent
        assert not early or all(c in public_after[-1] for c in early), (
            f"{who}'s page showed face-down {early} before the turn"
        )


def _check_body(body: Any, s: Secrets, who: str, where: str) -> None:
    """A view or actions answer (fetched, or carried by a stream message): no forbidden card,
    a face-down card only once its round's records turned it."""
    cards = _cards_in(body)
    assert not cards & s.never, f"{who} received {cards & s.never} from {where}"
    view = body.get("round") if isinstance(body, dict) else None
    if view:
        turned = _cards_in([r for r in view["records"] if r["kind"] in REVEALS])
        turned |= _cards_in([r for r in view["records"] if r.get("face_up")])
        early = (cards & s.until_turned) - turned
        assert not early, f"{who} received face-down {early} before the turn from {where}"


def _check_responses(w: Watched, s: Secrets, who: str) -> None:
    for req in w.requests:
        res = req.response()
        if res is None or not res.headers.get("content-type", "").startswith("application/json"):
            continue
        _check_body(res.json(), s, who, req.url)
    for frame in w.frames:  # the view and actions a table stream's message carries
        for part in ("view", "actions"):
            if part in frame:
                _check_body(frame[part], s, who, f"the {part} of stream message {frame['seq']}")


def _decide(w: Watched) -> bool:
    buttons = w.page.locator("[data-decision]")
    texts = [t for t in buttons.evaluate_all("els => els.map(e => e.dataset.decision)") if t]
    if not texts:
        return False
    choice = next((p for p in PREFERRED if p in texts), texts[0])
    try:  # the page may be drawn again meanwhile (another seat acted): then look again
        w.page.locator(f'[data-decision="{choice}"]').click(timeout=3_000)
    except PlaywrightTimeout:
        return False
    expect(w.page.locator(f'[data-decision="{choice}"]')).to_have_count(0, timeout=15_000)
    return True


def _dealer_step(dealer: Page) -> bool:
    for step in ("no-more-bets", "deal", "reveal", "settle"):
        button = dealer.locator(f'button[data-step="{step}"]:not([disabled])')
        if button.count():
            before = dealer.locator(".table-head").inner_text()
            try:
                button.click(timeout=3_000)
            except PlaywrightTimeout:
                return False
            expect(dealer.locator(".table-head")).not_to_have_text(before, timeout=15_000)
            return True
    return False


def _shot(page: Page, shots: Shots, name: str) -> None:
    shots.take(page, name)


def leave_every_seat(base: str) -> None:
    """The players stand up however the round ended: a player still seated would open that seat
    in the next game's test instead of the seat chooser (one failure must not fail the rest)."""
    with httpx.Client(base_url=base, timeout=30, verify=tls_context()) as client:
        for user, _ in PLAYERS:
            login = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
            auth = {"Authorization": f"Bearer {login.json()['token']}"}
            me = client.get("/api/me", headers=auth).json()
            for table in me.get("seats", {}):
                client.post(
                    f"/api/tables/{table}/leave", headers={**auth, "Idempotency-Key": uuid4().hex}
                )


@dataclass
class Seated:
    """The dealer's console and the players' pages, connected to one table."""

    dealer: Watched
    players: list[Watched]

    def pages(self) -> list[Watched]:
        return [self.dealer, *self.players]


def seat_round(contexts: list[BrowserContext], base: str, table: str) -> Seated:
    """The dealer takes ``table`` and the players sit (each page connected to the table)."""
    dealer = _watch(contexts[0], base, "dealer")
    players = [
        _watch(ctx, base, user) for ctx, (user, _) in zip(contexts[1:], PLAYERS, strict=True)
    ]
    _sit(dealer, players, table)
    return Seated(dealer, players)


def play_round(
    contexts: list[BrowserContext], base: str, shots: Shots, table: str, wagers: list[str]
) -> None:
    """A full round at ``table``: each player places ``wagers`` at $5 and the round is played to
    the end by clicking; the settlement and the security boundary are checked."""
    play_seated(seat_round(contexts, base, table), base, shots, table, wagers)


def play_seated(seated: Seated, base: str, shots: Shots, table: str, wagers: list[str]) -> None:
    """:func:`play_round` from the pages :func:`seat_round` connected."""
    dealer, players = seated.dealer, seated.players
    _open_and_wager(dealer, players, wagers)
    # provable deal: the commitment to the shoe's order is on the page before the first card
    commitment = _get(base, PLAYERS[0][0], f"/api/tables/{table}/view")["deal"]["commitment"]
    deal = players[0].page.get_by_role("region", name="provable deal")
    expect(deal).to_have_attribute("data-revealed", "no")
    expect(deal.get_by_label("commitment")).to_have_text(commitment)
    _shot(players[0].page, shots, f"{table}-player-betting")
    _play_to_the_end(dealer, players, shots, table)

    rid = dealer.page.locator(".table-head").inner_text().split("round ")[1].split(" ")[0]
    full = _get(base, "supervisor", f"/api/rounds/{rid}/records")
    _check_settlement(base, players, full)
    shoe = _get(base, PLAYERS[0][0], f"/api/tables/{table}/view").get("shoe")
    if shoe is not None and shoe["stage"] != "done":
        # a baccarat coup: its shoe deals on to the next coups, so the order stays sealed under
        # the shoe's commitment until the shoe ends
        expect(deal).to_have_attribute("data-revealed", "no")
        expect(deal).to_contain_text("revealed when the shoe ends")
    else:
        # after the round: revealed, the order and nonce kept for supervisors and auditors
        expect(deal).to_have_attribute("data-revealed", "yes", timeout=15_000)
        expect(deal).to_contain_text("given to supervisors and auditors")
    expect(deal.get_by_label("commitment")).to_have_text(commitment)
    _shot(players[0].page, shots, f"{table}-player-settled")
    _shot(players[1].page, shots, f"{table}-player2-settled")
    _shot(dealer.page, shots, f"{table}-dealer-settled")
    _check_boundary(players, full, table)
    _check_dealer_sees_shown_hands(dealer, full, table)
    for w in players:
        w.page.get_by_role("button", name="Leave the table").click()
        expect(w.page.locator("#player-title")).to_have_text("Choose a seat")


def _sit(dealer: Watched, players: list[Watched], table: str) -> None:
    """The dealer takes the table, the players sit."""
    dealer.page.locator(f'[data-table="{table}"] button').click()
    expect(dealer.page.locator("#dealer-title")).to_have_text("Dealer console", timeout=15_000)
    for w, (_, seat) in zip(players, PLAYERS, strict=True):
        w.page.locator(f'[data-table="{table}"]').get_by_role(
            "button", name=str(seat)
        ).first.click()
        expect(w.page.locator("#player-title")).to_have_text(f"Seat {seat}", timeout=15_000)


def _open_and_wager(dealer: Watched, players: list[Watched], wagers: list[str]) -> None:
    """The dealer opens betting, each player places the game's wagers at $5."""
    dealer.page.locator('button[data-step="rounds"]').click()
    for w in players:
        for wager in wagers:
            place = w.page.locator(f'button[data-wager="{wager}"]')
            expect(place).to_be_visible(timeout=15_000)
            w.page.get_by_label(spoken(wager), exact=True).select_option("500")
            place.click()
            expect(place).to_have_count(0, timeout=15_000)
        w.snapshot()


def _play_to_the_end(dealer: Watched, players: list[Watched], shots: Shots, table: str) -> None:
    """Each player takes a decision when one is offered, the dealer the next step, to the end
    (bounded)."""
    expect(dealer.page.locator('button[data-step="no-more-bets"]:not([disabled])')).to_be_visible(
        timeout=15_000
    )
    rounds_left, shot = 80, False
    while rounds_left:
        rounds_left -= 1
        if dealer.page.locator('[data-phase="over"], [data-phase="void"]').count():
            break
        if not shot and players[0].page.locator("[data-decision]").count():
            _shot(players[0].page, shots, f"{table}-player-decision")
            _shot(dealer.page, shots, f"{table}-dealer-decision")
            shot = True
        acted = any(_decide(w) for w in players) or _dealer_step(dealer.page)
        for w in players:
            w.snapshot()
        if not acted:
            dealer.page.wait_for_timeout(200)  # pacing while the pages catch up; not a timing
    expect(dealer.page.locator('[data-phase="over"]')).to_have_count(1)


def _check_settlement(base: str, players: list[Watched], full: dict[str, Any]) -> None:
    """The settlement, as the dealer announces it, on each player's page."""
    for w, (user, seat) in zip(players, PLAYERS, strict=True):
        mine = full["settlement"][str(seat)]
        settle = w.page.get_by_label(f"settlement of seat {seat}")
        expect(settle).to_be_visible(timeout=15_000)
        for wager, line in mine["wagers"].items():
            expect(settle).to_contain_text(spoken(wager))
            if line["result"] == "win":
                expect(settle).to_contain_text(_fmt(line["paid"]))
        expect(w.page.locator(".net")).to_contain_text(_fmt(mine["net"]))
        me = _get(base, user, "/api/me")
        expect(w.page.locator("#balance")).to_have_text(_fmt(me["balance"]))
        w.snapshot()


def _check_boundary(players: list[Watched], full: dict[str, Any], table: str) -> None:
    """The security boundary, over everything each player's page received."""
    for w, (user, seat) in zip(players, PLAYERS, strict=True):
        s = _secrets(full["records"], seat)
        # a baccarat player is dealt no card of their own: the Player and Banker hands are the
        # table's, face down until turned
        assert s.own or "baccarat" in table, f"{user} was dealt no card at {table}"
        assert any(r["kind"] == "card_dealt" for r in full["records"])
        public_after = _check_frames(w, s, user)
        _check_dom(w, s, public_after, user)
        _check_responses(w, s, user)
        assert any(f.get("type") == "record" for f in w.frames), "the stream sent no record"
        # another seat's hand turned over to settle it (§ 571.11(h)) reaches this page as its
        # seat and category only
        others = {r["seat"] for r in full["records"] if r["kind"] == "hand_shown"} - {seat}
        hidden = {
            f["data"]["seat"] for f in w.frames if f.get("data", {}).get("kind") == "hand_hidden"
        }
        assert others <= hidden, f"{user} was not told of the hands of seats {others - hidden}"


SHOWS_HANDS = (
    "three-card-poker",
    "four-card-poker",
    "let-it-ride",
    "ultimate-texas-holdem",
    "mississippi-stud",
)
"""The games whose dealer turns each remaining player's hand face up to settle it
(§ 641a.11(c)(1), § 569.11(h), § 571.11(h); Three Card Poker and Let It Ride as § 641a.11(c)(1))."""


def _check_dealer_sees_shown_hands(dealer: Watched, full: dict[str, Any], table: str) -> None:
    """The dealer's console received each player's hand as it was turned up, cards and all, and
    draws it at that seat (where the players' pages got the seat and category only)."""
    shown = {r["seat"]: r for r in full["records"] if r["kind"] == "hand_shown"}
    if table in SHOWS_HANDS:
        assert sorted(shown) == sorted(seat for _, seat in PLAYERS), f"{table}: {sorted(shown)}"
    got = {
        f["data"]["seat"]: f["data"]
        for f in dealer.frames
        if f.get("data", {}).get("kind") == "hand_shown"
    }
    for seat, record in shown.items():
        assert got.get(seat, {}).get("cards") == record["cards"], f"dealer missed seat {seat}"
        drawn = dealer.page.get_by_label(f"seat {seat} cards", exact=True)
        for card in record["cards"]:
            expect(drawn.locator(f'[data-card="{card}"]')).to_have_count(1)
        calls = dealer.page.get_by_role("list", name="calls")
        expect(calls).to_contain_text(f"Seat {seat} shows {record['category'].replace('_', ' ')}")


def _fmt(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    d, c = divmod(abs(cents), 100)
    return f"{sign}${d:,}" + (f".{c:02d}" if c else "")

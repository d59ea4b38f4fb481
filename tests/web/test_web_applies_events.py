"""The table pages apply the table stream's messages (issue 37, lila's way): each batch's last
message carries the view and actions the routes would answer at its seq, so after connecting a
page never asks ``GET /view`` nor ``GET /actions`` again for as long as its stream stays up,
and still shows every step of the round to its settlement."""

from __future__ import annotations

import re

from clicked_rounds import leave_every_seat, play_seated, seat_round
from playwright.sync_api import Browser, Request
from shots import Shots

TABLE = "three-card-poker"
ASKED = re.compile(r"/api/tables/[^/?]+/(view|actions)(\?|$)")


def test_a_full_round_after_connect_asks_no_view_nor_actions(
    browser: Browser, fresh_server: str, shots: Shots
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        seated = seat_round(contexts, fresh_server, TABLE)
        asked: dict[str, list[str]] = {}
        for n, w in enumerate(seated.pages()):
            # connected: the page asked both once (and drew the table from them)
            connect = [r.url for r in w.requests if ASKED.search(r.url)]
            for _ in range(100):
                if {m.group(1) for u in connect if (m := ASKED.search(u))} == {"view", "actions"}:
                    break
                w.page.wait_for_timeout(100)  # the request's event reaches the test late
                connect = [r.url for r in w.requests if ASKED.search(r.url)]
            assert len(connect) == 2, connect
            urls = asked.setdefault(str(n), [])

            def note(req: Request, urls: list[str] = urls) -> None:
                urls.append(req.url)

            w.page.on("request", note)
        # the round: betting, no more bets, the deal, the decisions, the reveal, the
        # settlement shown on each player's page (and the players leave)
        play_seated(seated, fresh_server, shots, TABLE, ["ante", "pair_plus"])
        for n, w in enumerate(seated.pages()):
            urls = asked[str(n)]
            assert urls, "the page made no request at all: the listener saw nothing"
            assert [u for u in urls if ASKED.search(u)] == [], n
            carried = [f for f in w.frames if "view" in f]
            assert carried and all("actions" in f for f in carried)
            phases = [(f["view"].get("round") or {}).get("phase") for f in carried]
            assert phases[-1] == "over", phases
    finally:
        for ctx in contexts:
            ctx.close()
        leave_every_seat(fresh_server)

"""A full round of Mississippi Stud and of the three baccarats played by clicking
(:mod:`clicked_rounds`: the dealer and two players in their own browser contexts; no player's
page ever holds a card it may not see, another seat's hand shown at settlement included).
A file apart from test_web_tables.py so that the suite's workers share the rounds."""

from __future__ import annotations

import pytest
from clicked_rounds import leave_every_seat, play_round
from playwright.sync_api import Browser
from shots import Shots

GAMES: dict[str, list[str]] = {
    # table id (the demo floor: one table of every game) -> the wagers each player places
    "mississippi-stud": ["ante"],
    "mini-baccarat": ["banker"],
    "midi-baccarat": ["player"],
    "ez-baccarat": ["banker"],
}


@pytest.mark.parametrize("table", list(GAMES))
def test_full_round_by_clicking_hides_every_card_a_player_may_not_see(
    browser: Browser, live_server: str, shots: Shots, table: str
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        play_round(contexts, live_server, shots, table, GAMES[table])
    finally:
        for ctx in contexts:
            ctx.close()
        leave_every_seat(live_server)

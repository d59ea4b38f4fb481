"""Baccarat's big road as the pages draw it (``roads`` in ``static/table.js``): a run of wins
longer than the six rows turns right along the bottom row, the "dragon tail" casinos' scoreboards
draw (a house convention: no chapter describes the roads).  Drawn in Chromium by the page's own
code from a shoe's results, as the dealer's console and the player's page draw them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from desks import close_contexts
from playwright.sync_api import Browser

STREAK_OF_8 = ["player", "tie", *["banker"] * 8, "player", "player", "banker"]
"""A shoe's coups: a Player win (a tie on it), eight Banker wins in a row, two Player, a Banker."""

DRAWN = """(results) => {
  const road = roads(results).querySelector('.big-road');
  document.body.append(road);
  return [...road.querySelectorAll('.cell')].map((c) => {
    const box = c.getBoundingClientRect();
    return { result: c.dataset.result, col: Number(c.style.gridColumn.split(' ')[0]),
      row: Number(c.style.gridRow.split(' ')[0]), ties: c.dataset.ties || '',
      left: Math.round(box.left), top: Math.round(box.top) };
  });
}"""


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def test_big_road_streak_of_8_turns_right_after_six_rows(
    browser: Browser, pages_server: str
) -> None:
    page = browser.new_context().new_page()
    page.goto(pages_server + "/par-sheets")
    page.wait_for_function("typeof roads === 'function'")
    cells = page.evaluate(DRAWN, STREAK_OF_8)
    placed = [(c["result"], c["col"], c["row"]) for c in cells]
    assert placed == [
        ("player", 1, 1),
        # the streak: down column 2 to the sixth row, then right along it
        *[("banker", 2, row) for row in range(1, 7)],
        ("banker", 3, 6),
        ("banker", 4, 6),
        # the next run starts at the top of the column after the streak's first
        ("player", 3, 1),
        ("player", 3, 2),
        ("banker", 4, 1),
    ]
    assert cells[0]["ties"] == "1"
    # drawn where placed: the tail on the sixth row's line, one column apart, no cell overlapping
    sixth = [c for c in cells if c["row"] == 6]
    assert len({c["top"] for c in sixth}) == 1
    assert len({(c["left"], c["top"]) for c in cells}) == len(cells)


def test_big_road_run_meeting_a_dragon_tail_turns_right_above_it(
    browser: Browser, pages_server: str
) -> None:
    # column 1's tail runs under columns 2 and 3; a 6-win run in column 2 turns at row 5
    results = [*["banker"] * 8, *["player"] * 6]
    page = browser.new_context().new_page()
    page.goto(pages_server + "/par-sheets")
    page.wait_for_function("typeof roads === 'function'")
    placed = [(c["result"], c["col"], c["row"]) for c in page.evaluate(DRAWN, results)]
    assert placed[8:] == [
        ("player", 2, 1),
        ("player", 2, 2),
        ("player", 2, 3),
        ("player", 2, 4),
        ("player", 2, 5),
        ("player", 3, 5),
    ]

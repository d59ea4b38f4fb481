"""§ 627a.8(c)(2) on the pages: a Minibaccarat table whose Rules Submission deals the first four
cards face down (the demo floor's ``mini-baccarat``).  The engine decides what a player may see
(:mod:`croupier.games.pov`); the player's page draws only that: a face-down card is not in the
player's DOM until the record that turns it (``hand_turned``: the Player's Hand called, then the
Banker's cards) has been drawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from desks import close_contexts, desks_of, finish_round, sign_in
from playwright.sync_api import Browser, expect

TABLE = "mini-baccarat"
PATH = f"/api/tables/{TABLE}"
WAIT = 15_000

DRAW_PREFIX = """([records, upto]) => {
  // the player's page's own renderer over the first ``upto`` records the player received
  const state = RoundState.from(records.slice(0, upto));
  const felt = drawFelt({ game: 'mini-baccarat', meters: {} }, state, { mySeat: 1 });
  document.querySelector('.felt').replaceWith(felt);
  const cards = (box) => [...document.querySelectorAll(`.felt [data-box="${box}"] [data-card]`)]
    .map((el) => el.dataset.card);
  return { player: cards('player'), banker: cards('banker') };
}"""


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def test_627a_8_c_2_face_down_card_not_in_the_players_dom_until_turned(
    browser: Browser, fresh_server: str
) -> None:
    with desks_of(fresh_server, "dealer", "player1") as desks:
        dealer, me = desks["dealer"], desks["player1"]
        me.post(f"{PATH}/sit", {"seat": 1})
        dealer.post(f"{PATH}/rounds", {"cut_at": None})
        me.post(f"{PATH}/wagers", {"wager": "banker", "amount": 500})
        page = sign_in(browser, fresh_server, "player1")
        expect(page.locator(".felt")).to_be_visible(timeout=WAIT)
        finish_round(dealer, TABLE, {1: me})
        records: list[dict[str, Any]] = me.get(f"{PATH}/view")["round"]["records"]
        # the live page, once the round is over: the four turned cards drawn face up
        expect(page.locator('.felt .zone[data-box="banker"] [data-card]').first).to_be_visible(
            timeout=WAIT
        )
    kinds = [r["kind"] for r in records]
    turned = [i for i, k in enumerate(kinds) if k == "hand_turned"]
    hidden = [i for i, k in enumerate(kinds) if k == "card_hidden" and records[i]["to"] != "burn"]
    assert [records[i]["hand"] for i in turned] == ["player", "banker"]
    assert len(hidden) >= 4 and hidden[3] < turned[0]
    assert all(records[i]["section"] == "§ 627a.8(c)(2)" for i in turned)
    dealt = {r["hand"]: list(r["cards"]) for r in (records[i] for i in turned)}
    # every prefix up to the turn: each of the four is drawn as a back, never as its face
    for upto in range(hidden[0] + 1, turned[0] + 1):
        drawn = page.evaluate(DRAW_PREFIX, [records, upto])
        assert set(drawn["player"]) <= {"back"} and set(drawn["banker"]) <= {"back"}, upto
    assert page.evaluate(DRAW_PREFIX, [records, turned[0] + 1])["banker"] == ["back", "back"]
    after = page.evaluate(DRAW_PREFIX, [records, turned[1] + 1])
    assert after == {"player": dealt["player"], "banker": dealt["banker"]}

"""Issue 40, defect 11 (words): the pay-table sign on the player's page carries no compliance
mark: "(not verified against the PA text)" stays on the compliance sign (``croupier rules
sign``, :meth:`Game.sign <croupier.games.base.Game.sign>`) where an auditor reads it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from desks import close_contexts, desks_of, sign_in
from playwright.sync_api import Browser, expect

from croupier.games import get_game
from croupier.games.paytables import UNVERIFIED_MARK
from croupier.rules.submission import load_rules

DEMO = Path(__file__).resolve().parents[2] / "src" / "croupier" / "server" / "demo"
TABLE = "three-card-poker"  # its demo Pair Plus table D is one the PA text did not confirm


@pytest.fixture(autouse=True)
def _close_contexts(browser: Browser) -> Iterator[None]:
    yield
    close_contexts(browser)


def test_issue40_d11_player_sign_has_no_not_verified_mark(
    browser: Browser, fresh_server: str
) -> None:
    compliance = get_game(load_rules(DEMO / f"{TABLE}.toml")).sign()
    assert UNVERIFIED_MARK in compliance  # the auditor's sign keeps it
    with desks_of(fresh_server, "player1") as desks:
        desks["player1"].post(f"/api/tables/{TABLE}/sit", {"seat": 1})
        posted = desks["player1"].get(f"/api/tables/{TABLE}")["sign"]
        page = sign_in(browser, fresh_server, "player1")
        sign = page.get_by_label("pay-table sign")
        expect(sign).to_contain_text("pay table D", timeout=15_000)
        shown = sign.inner_text()
        desks["player1"].post(f"/api/tables/{TABLE}/leave")
    assert "not verified" not in shown and "not verified" not in posted
    assert posted == compliance.replace(UNVERIFIED_MARK, "")

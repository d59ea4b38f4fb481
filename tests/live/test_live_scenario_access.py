"""Issue 35, defect 3: a round's scenario export holds every card dealt (a folded hand never
turned up among them), so only the roles entitled to every card of a finished round get it:
the supervisor and the auditor.  Every other role, the observer included, is refused (403: the
scenario format lists every card and has no way to write one as hidden), as the same observer's
deal and table recall already hide those cards."""

from __future__ import annotations

import pytest

from croupier.faces.client import ApiError
from live.live_harness import Server
from live.sight import tokens

TABLE = "three-card-poker"


def _folded_round(server: Server) -> tuple[str, list[str]]:
    """Player 1 antes at seat 1 and folds; the round is settled.  The round id and the three
    cards of the folded hand (from the auditor's records: never turned face up)."""
    dealer, p1 = server.client("dealer"), server.client("player1")
    p1.sit(TABLE, 1)
    rid = str(dealer.new_round(TABLE)["round_id"])
    p1.wager(TABLE, "ante", 500)
    dealer.no_more_bets(TABLE, 0)
    dealer.step(TABLE, "deal")
    p1.decide(TABLE, "fold")
    while dealer.view(TABLE)["round"]["phase"] not in ("over", "void"):
        phase = dealer.view(TABLE)["round"]["phase"]
        dealer.step(TABLE, {"reveal": "reveal", "settlement": "settle"}[phase])
    full = server.client("auditor").records(rid)["records"]
    folded = [r["card"] for r in full if r["kind"] == "card_dealt" and r["to"] == "1"]
    assert len(folded) == 3
    shown = [r for r in full if r["kind"] == "hand_shown" and r["seat"] == 1]
    assert not shown, "a folded hand is never turned face up"
    return rid, folded


def test_defect_3_observer_may_not_export_a_scenario_holding_a_folded_hand(
    sqlite_server: Server,
) -> None:
    rid, folded = _folded_round(sqlite_server)
    observer = sqlite_server.client("observer")
    # The observer's deal and table recall hide the folded hand ...
    deal = observer.get(f"/api/rounds/{rid}/deal")
    assert deal["revealed"] and deal["order"] is None
    assert not set(folded) & tokens(deal)
    recalled = observer.rounds(TABLE, last=1)
    assert [r["round_id"] for r in recalled] == [rid]
    assert not set(folded) & tokens(recalled)
    # ... and so does its scenario: refused, with no card in the problem.
    with pytest.raises(ApiError) as refused:
        observer.scenario(rid)
    assert refused.value.status == 403, refused.value.problem
    assert not tokens(refused.value.problem)
    # The player of the folded seat and the dealer get no whole record either.
    for username in ("player1", "dealer"):
        with pytest.raises(ApiError) as refused:
            sqlite_server.client(username).scenario(rid)
        assert refused.value.status == 403, (username, refused.value.problem)
    # The supervisor and the auditor, entitled to every card, get it whole.
    for username in ("supervisor", "auditor"):
        scenario = sqlite_server.client(username).scenario(rid)
        assert set(folded) <= set(scenario["cards"]), username

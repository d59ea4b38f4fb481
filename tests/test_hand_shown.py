"""The dealer turns each remaining player's hand face up to settle it (issue 16), in every game
that settles hands against the house: Four Card Poker (§ 641a.11(c)(1)), Ultimate Texas Hold 'Em
(§ 569.11(h)), Mississippi Stud (§ 571.11(h); tests/test_pov_hand_shown.py), and Three Card Poker
and Let It Ride (their completion sections, § 649a.11 and § 643a.11, are not among the
project's sources: as § 641a.11(c)(1)).  The ``HandShown`` record comes when the dealer turns to
that seat, before its first wager is settled; another seat's player learns the seat and the
category only (``HandHidden``), while the dealer, the supervisor and an observer see the cards.

Each round is a scenario with its stacked hands written out, replayed (``croupier replay``),
its records decoded as the store decodes them and rebuilt (the audit's replay), then viewed
from every point of view.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.games import get_game
from croupier.games.pov import HandHidden, Pov, supervisor_hands
from croupier.games.records import HandShown, Result, SeatSettling, WagerSettled, record_to_json
from croupier.games.round import Round
from croupier.store.codec import record_from_json
from croupier.table.scenario import run_scenario

TCP: dict[str, Any] = {
    # seat 1 plays a pair of nines; seat 4 plays K-Q-J suited (a straight flush) and seat 6
    # folds with nothing left in action (its cards went to the discard rack before the reveal)
    "game": "three-card-poker",
    "seats": {
        "1": {"wagers": {"ante": 500}, "decisions": ["play"], "hand": ["9s", "9h", "4c"]},
        "4": {"wagers": {"ante": 500}, "decisions": ["play"], "hand": ["Kd", "Qd", "Jd"]},
        "6": {"wagers": {"ante": 500}, "decisions": ["fold"], "hand": ["2c", "5h", "7s"]},
    },
    "dealer": ["Ac", "8d", "3s"],
}
FCP: dict[str, Any] = {
    # seat 4 folds but keeps its hand under the Aces Up (§ 641a.11(c)(4)): turned up as well
    "game": "four-card-poker",
    "seats": {
        "1": {
            "wagers": {"ante": 500},
            "decisions": ["play 1"],
            "hand": ["Kc", "Kd", "9h", "7s", "2c"],
        },
        "4": {
            "wagers": {"ante": 500, "aces_up": 500},
            "decisions": ["fold"],
            "hand": ["As", "Ad", "5h", "3c", "8d"],
        },
    },
    "dealer": ["Qh", "Qs", "9c", "7d", "3h", "4s"],
}
UTH: dict[str, Any] = {
    # seat 1 bets 4x before the flop; seat 4 checks to the river and plays 1x
    "game": "ultimate-texas-holdem",
    "seats": {
        "1": {"wagers": {"ante": 500, "blind": 500}, "decisions": ["play 4"], "hand": ["Ah", "Kd"]},
        "4": {
            "wagers": {"ante": 500, "blind": 500},
            "decisions": ["check", "check", "play 1"],
            "hand": ["7c", "7h"],
        },
    },
    "dealer": ["Qs", "Qc"],
    "community": ["2h", "7d", "9c", "Js", "3s"],
}
LIR: dict[str, Any] = {
    "game": "let-it-ride",
    "seats": {
        "1": {
            "wagers": {"bet1": 500, "bet2": 500, "bet3": 500},
            "decisions": ["ride", "ride"],
            "hand": ["9h", "9d", "2c"],
        },
        "4": {
            "wagers": {"bet1": 500, "bet2": 500, "bet3": 500},
            "decisions": ["pull", "pull"],
            "hand": ["As", "Ks", "Qs"],
        },
    },
    "community": ["Js", "Ts"],
}
SCENARIOS = {
    "three-card-poker": TCP,
    "four-card-poker": FCP,
    "ultimate-texas-holdem": UTH,
    "let-it-ride": LIR,
}
SHOWN_CATEGORY = {
    ("three-card-poker", 1): "pair",
    ("three-card-poker", 4): "straight_flush",
    ("four-card-poker", 1): "pair",
    ("four-card-poker", 4): "pair",
    ("ultimate-texas-holdem", 1): "high_card",
    ("ultimate-texas-holdem", 4): "three_of_a_kind",
    ("let-it-ride", 1): "pair",
    ("let-it-ride", 4): "royal_flush",
}


def replayed(data: dict[str, Any]) -> tuple[dict[str, Any], Round]:
    """The scenario's replay report and its round rebuilt from the decoded records."""
    report = run_scenario(data)
    records = [record_from_json(r) for r in report["records"]]
    rnd = Round.rebuild(get_game(data["game"]), records)
    assert rnd.history() == report["records"]  # the audit's replay derives the same records
    return report, rnd


def seen(rnd: Round, pov: Pov) -> str:
    """Everything ``pov`` is sent: its record stream and its view, as JSON text."""
    stream = [record_to_json(r) for r in rnd.records_for(pov)]
    return json.dumps([stream, rnd.view(pov).to_json()])


@pytest.mark.parametrize("slug", list(SCENARIOS))
def test_641a_11_c_1_each_remaining_hand_is_turned_up_before_its_wagers_settle(slug: str) -> None:
    data = SCENARIOS[slug]
    report, rnd = replayed(data)
    shown = [r for r in rnd.records if isinstance(r, HandShown)]
    assert sorted(r.seat for r in shown) == [1, 4]
    for r in shown:
        assert [str(c) for c in r.cards] == data["seats"][str(r.seat)]["hand"]
        assert r.category == SHOWN_CATEGORY[slug, r.seat]
        assert set(r.best) <= set(r.cards) | set(supervisor_hands(rnd).get("board", []))
        # when the dealer turns to the seat, before any of its wagers is settled
        at = rnd.records.index(r)
        assert rnd.records[at - 1] == SeatSettling(seat=r.seat)
        before = [w for w in rnd.records[:at] if isinstance(w, WagerSettled) and w.seat == r.seat]
        # only the decisions' own: a fold's forfeits, a bet taken back (§ 643a.11(b), (d))
        assert all(w.result is Result.FORFEIT or w.line == "withdrawn" for w in before)
        assert any(isinstance(w, WagerSettled) and w.seat == r.seat for w in rnd.records[at:])
    # the replay's output carries it for disputes and training
    assert sum(r["kind"] == "hand_shown" for r in report["records"]) == 2


def test_649a_11_b_a_folded_hand_collected_before_the_reveal_is_never_turned_up() -> None:
    _, rnd = replayed(TCP)
    assert 6 not in {r.seat for r in rnd.records if isinstance(r, HandShown)}
    assert all(
        not (isinstance(r, HandHidden) and r.seat == 6) for r in rnd.records_for(Pov.player(1))
    )


@pytest.mark.parametrize("slug", list(SCENARIOS))
def test_a_shown_hand_reaches_its_seat_the_dealer_and_the_floor_never_another_seat(
    slug: str,
) -> None:
    data = SCENARIOS[slug]
    _, rnd = replayed(data)
    hands = {s: data["seats"][str(s)]["hand"] for s in (1, 4)}
    for seat, other in ((1, 4), (4, 1)):
        mine = seen(rnd, Pov.player(seat))
        assert all(f'"{c}"' in mine for c in hands[seat])
        assert not any(f'"{c}"' in mine for c in hands[other]), (slug, seat)
        assert rnd.view(Pov.player(seat)).cards[str(other)] == (None,) * len(hands[other])
        hidden = [r for r in rnd.records_for(Pov.player(seat)) if isinstance(r, HandHidden)]
        assert [(r.seat, r.category) for r in hidden] == [(other, SHOWN_CATEGORY[slug, other])]
    for pov in (Pov.dealer(), Pov.supervisor(), Pov.public()):
        text = seen(rnd, pov)
        for seat in (1, 4):
            assert all(f'"{c}"' in text for c in hands[seat]), (slug, pov, seat)
            assert rnd.view(pov).cards[str(seat)] == tuple(hands[seat]), (slug, pov, seat)

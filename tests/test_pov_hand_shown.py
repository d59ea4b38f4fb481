"""A hand turned over to settle it stays with its seat (issue 16): Mississippi Stud's dealer turns
each live player's two cards face up at settlement (§ 571.11(h)); the dealer, the supervisor and
an observer at the table see them on the layout, the other players' views learn the hand's
category but never its cards.

Stacked deal (manual procedure: one card to each player at a time from the far left, then the
three community cards face down): seat 1 holds 4d 5h, seat 4 holds As 5c; the board is
Qc 7c 3h.  Both bet 1x on every street and are settled: seat 4 shows high card (As Qc 7c 5c 3h).
"""

from __future__ import annotations

import json

from croupier.core.cards import DECK, parse_cards
from croupier.games import get_game
from croupier.games.pov import HandHidden, Pov
from croupier.games.records import HandShown, PlaceWager, record_to_json
from croupier.games.round import ActorKind, Round
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import StackedShoe

SEAT_1, SEAT_4 = parse_cards("4d 5h"), parse_cards("As 5c")
BOARD = parse_cards("Qc 7c 3h")


def settled_round() -> Round:
    order = [SEAT_1[0], SEAT_4[0], SEAT_1[1], SEAT_4[1], *BOARD]
    rest = [c for c in DECK if c not in set(order)]
    rnd = get_game("mississippi-stud").new_round(
        shoe=StackedShoe(order + rest), meters=MemoryMeters()
    )
    for seat in (1, 4):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(rnd.parse_decision(actor.seat, "bet 1"))
        else:
            rnd.apply(rnd.dealer_step())
    return rnd


def seen(rnd: Round, pov: Pov) -> str:
    """Everything ``pov`` is sent: its record stream and its view, as JSON text."""
    stream = [record_to_json(r) for r in rnd.records_for(pov)]
    return json.dumps([stream, rnd.view(pov).to_json()])


def test_571_11_h_a_shown_hand_reaches_its_seat_the_dealer_and_the_floor_only() -> None:
    rnd = settled_round()
    shown = {r.seat: r for r in rnd.records if isinstance(r, HandShown)}
    assert sorted(shown) == [1, 4]
    assert shown[4].cards == SEAT_4 and shown[4].category == "high_card"
    for pov in (Pov.player(4), Pov.dealer(), Pov.supervisor(), Pov.public()):
        assert '"As"' in seen(rnd, pov) and '"5c"' in seen(rnd, pov), pov
        assert rnd.view(pov).cards["4"] == ("As", "5c"), pov
    text = seen(rnd, Pov.player(1))
    assert '"As"' not in text and '"5c"' not in text
    assert rnd.view(Pov.player(1)).cards["4"] == (None, None)
    hidden = [r for r in rnd.records_for(Pov.player(1)) if isinstance(r, HandHidden)]
    assert {(r.seat, r.category, r.was) for r in hidden} >= {(4, "high_card", "hand_shown")}
    # seat 1 still sees its own hand shown, and the board turned for everyone
    mine = rnd.view(Pov.player(1))
    assert mine.cards["1"] == ("4d", "5h")
    assert mine.cards["board"] == ("Qc", "7c", "3h")


def test_a_player_device_with_no_seat_in_the_round_never_holds_a_shown_hand() -> None:
    # A player's account that holds no seat of this round (between seats, or seated at another
    # table) sees what the pit sees, except the hands turned up: a player's device never holds
    # another player's cards (found by the live fuzzer, tests/live/test_chaos_fuzz.py).
    rnd = settled_round()
    text = seen(rnd, Pov.player())
    for card in ("As", "5c", "4d", "5h"):
        assert f'"{card}"' not in text, card
    assert '"Qc"' in text  # the board is face up for everyone
    assert rnd.view(Pov.player()).cards["4"] == (None, None)
    hidden = {r.seat for r in rnd.records_for(Pov.player()) if isinstance(r, HandHidden)}
    assert hidden == {1, 4}
    assert str(Pov.player()) == "player:"

"""Rare outcomes reached through a real server's training tables (issue 35), each player's
balance checked against the net the round's settlement gives the seat and against the round's
exported scenario replayed offline (a supervisor's void is no scenario event: a voided round is
checked against its settlement alone): Let It Ride's payout limit (§ 643a.12(d)), EZ Baccarat's
Dragon 7 and the Dragon Bonus (§ 541.8(a)(5), § 541.2(c)(6)), and a round voided at each of
betting, dealing, decisions and reveal (every wager returned, the win a stacked hand would have
had never paid): the supervisor's void while betting and at the reveal, the dealer's reports
that void at "no more bets" (a wrong card count, a second card face up) and in the decisions (a
dealer card exposed)."""

from __future__ import annotations

from typing import Any

from croupier.faces.client import Client
from live.live_harness import Server
from live.stacked import (
    Seat,
    balances,
    deal,
    nets,
    play,
    replayed_nets,
    stack_of,
    training_rules,
)

LIR_TABLE = "lir-training"
LIR: dict[str, Any] = {
    "game": "let-it-ride",
    "payout_limit": 2_500_000,  # $25,000 per hand (§ 643a.12(d))
    "paytables": {"base": "1000-200-50-11-8-5-3-2-1"},
    "table": {"deal": "automated_shoe", "shuffle": "automated", "decks": 1, "training": True},
    "limits": {bet: {"min": 500, "max": 50_000} for bet in ("bet1", "bet2", "bet3")},
}
EZ = "ez-training"
TCP = "tcp-void-training"


def _check_balances(
    supervisor: Client, seats: dict[int, Seat], start: dict[int, int], rid: str
) -> None:
    """Each player's balance moved by the seat's net in the round's settlement; the audit is
    clean."""
    net = nets(supervisor, rid)
    assert {s: b - start[s] for s, b in balances(seats).items()} == net
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]


def test_643a_12_d_a_royal_flush_is_paid_up_to_the_payout_limit(server: Server) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    supervisor.new_table(LIR_TABLE, "Let It Ride (training)", LIR)
    bets = {"bet1": 1000, "bet2": 1000, "bet3": 1000}
    seats = {
        1: Seat(server.client("player1"), dict(bets), ["ride", "ride"]),
        2: Seat(server.client("player2"), dict.fromkeys(bets, 500), ["ride", "ride"]),
    }
    for n, s in seats.items():
        s.player.sit(LIR_TABLE, n)
    start = balances(seats)
    hands = {1: ["As", "Ks", "Qs"], 2: ["2c", "7d", "9h"]}
    rid = play(dealer, LIR_TABLE, seats, stack_of(LIR, seats, hands, community=["Js", "Ts"]))
    record = supervisor.records(rid)
    (limited,) = [r for r in record["records"] if r["kind"] == "payout_limited"]
    # 1,000 to 1 on three $10 bets is $30,000; the hand is paid the $25,000 limit
    assert (limited["seat"], limited["due"], limited["paid"]) == (1, 1_000_000, 500_000)
    assert nets(supervisor, rid) == {1: 2_500_000, 2: -1500}
    _check_balances(supervisor, seats, start, rid)
    assert replayed_nets(supervisor, rid) == nets(supervisor, rid)


def test_541_8_a_5_dragon_7_and_the_dragon_bonus_on_a_stacked_ez_shoe(server: Server) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    rules = training_rules("ez-baccarat")
    supervisor.new_table(EZ, "EZ Baccarat (training)", rules)
    seats = {
        1: Seat(server.client("player1"), {"banker": 500, "dragon_7": 500}),
        2: Seat(server.client("player2"), {"player": 500}),
        3: Seat(server.client("player3"), {"banker": 1000, "dragon_bonus_banker": 500}),
    }
    for n, s in seats.items():
        s.player.sit(EZ, n)
    # Player T-6 stands on 6; Banker 3-2 draws a 2: a three-card 7 (the Dragon 7, 40 to 1; the
    # Banker wagers push).  Then Player T-J-K (0), Banker 3-T-6 (9): won by 9, not a natural
    # (the Dragon Bonus, 30 to 1).
    for cards, wager, line, paid in (
        (["Th", "3s", "6h", "2d", "2c"], ("1", "dragon_7"), "dragon_7", 20_000),
        (["Th", "3s", "Jh", "Ts", "Kd", "6c"], ("3", "dragon_bonus_banker"), "win_by_9", 15_000),
    ):
        start = balances(seats)
        rid = play(dealer, EZ, seats, stack_of(rules, seats, cards=cards))
        settled = supervisor.records(rid)["settlement"][wager[0]]["wagers"][wager[1]]
        assert (settled["result"], settled["line"], settled["paid"]) == ("win", line, paid)
        _check_balances(supervisor, seats, start, rid)
        assert replayed_nets(supervisor, rid) == nets(supervisor, rid)


def test_a_void_at_every_phase_returns_every_wager_and_pays_no_stacked_win(
    server: Server,
) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    rules = training_rules("three-card-poker", meter="tcp-void-jackpot")
    supervisor.new_table(TCP, "Three Card Poker (voids)", rules)
    seats = {
        1: Seat(server.client("player1"), {"ante": 500, "pair_plus": 500}, ["play"]),
        2: Seat(server.client("player2"), {"ante": 1000}, ["play"]),
    }
    for n, s in seats.items():
        s.player.sit(TCP, n)
    # seat 1 a straight flush (Pair Plus 40 to 1 and the Ante Bonus), had the round been paid
    hands = {1: ["7h", "8h", "9h"], 2: ["2c", "7d", "9c"]}
    stack = stack_of(rules, seats, hands, dealer=["Kd", "Qc", "4s"])
    phases = ("betting", "dealing", "dealing, a second card face up", "decisions", "reveal")
    for phase in phases:
        start = balances(seats)
        rid = _void_at(phase, supervisor, dealer, seats, stack)
        record = supervisor.records(rid)
        (voided,) = [r for r in record["records"] if r["kind"] == "round_voided"]
        assert record["phase"] == "void", (phase, voided)
        settled = [w for entry in record["settlement"].values() for w in entry["wagers"].values()]
        assert settled and all(w["result"] == "void" and w["paid"] == 0 for w in settled)
        assert all(w["returned"] == w["stake"] for w in settled), phase
        assert nets(supervisor, rid) == {1: 0, 2: 0}
        _check_balances(supervisor, seats, start, rid)


def _void_at(
    phase: str, supervisor: Client, dealer: Client, seats: dict[int, Seat], stack: str
) -> str:
    """A stacked round voided in ``phase``: by the supervisor while betting and at the reveal
    (no irregularity is reported there); by the dealer's report, once "no more bets" is called
    and before the first card, of a wrong card count or of a second card found face up in the
    deck (the first is discarded), and in the decisions (seat 1 has played) of a dealer's card
    exposed (§ 649a.13)."""
    rid = str(dealer.new_round(TCP, stack=stack)["round_id"])
    for n, s in seats.items():
        for wager, amount in s.wagers.items():
            s.player.wager(TCP, wager, amount, seat=n)
    if phase == "betting":
        supervisor.void(rid, "training: a void while betting")
        return rid
    dealer.no_more_bets(TCP, 0)
    report = f"/api/tables/{TCP}/irregularities"
    if phase == "dealing":
        dealer.post(report, {"kind": "wrong_card_count"})
        return rid
    if phase == "dealing, a second card face up":
        first = dealer.post(report, {"kind": "card_face_up_in_deck"})
        assert first["phase"] == "dealing"  # the first is discarded: the round goes on
        dealer.post(report, {"kind": "card_face_up_in_deck"})
        return rid
    deal(dealer, TCP)
    seats[1].player.decide(TCP, "play", seat=1)
    if phase == "decisions":
        dealer.post(report, {"kind": "dealer_card_exposed"})
        return rid
    last = seats[2].player.decide(TCP, "play", seat=2)
    assert last["phase"] == "reveal"
    supervisor.void(rid, "training: a void at the reveal")
    return rid

"""Training tables on a real server (issue 35): declared in the Rules Submission, marked in
every view and record header, stacked by the dealer's ``POST /api/tables/{id}/rounds``
(``"stack"``); a real table refuses a stack.  The stacks reach rare outcomes through the real
server: a 100% progressive paid as a hand-pay with a royal flush, Envy Bonuses to several
players, a payout limit, Dragon 7 and the Dragon Bonus, voids at several phases.  Every
player's balance moves by the net the round's settlement gives the seat, which the round's
exported scenario, replayed offline, gives too."""

from __future__ import annotations

import pytest

from croupier.faces.bots import play_round
from croupier.faces.client import ApiError, Client
from live.live_harness import Server
from live.stacked import Seat, balances, nets, play, replayed_nets, stack_of, training_rules

TCP = "tcp-training"
METER = "tcp-training-jackpot"


def _training_tcp(server: Server) -> tuple[Client, Client]:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    supervisor.new_table(
        TCP, "Three Card Poker (training)", training_rules("three-card-poker", meter=METER)
    )
    return supervisor, dealer


def test_a_real_table_refuses_a_stack_naming_it_and_nothing_changes(sqlite_server: Server) -> None:
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    player.sit("four-card-poker", 1)
    before = dealer.view("four-card-poker")
    with pytest.raises(ApiError) as refused:
        dealer.new_round("four-card-poker", stack="As 2c Ah 3c Ad 4c Ac 5h Kd 7h 9d")
    assert refused.value.status == 409
    assert refused.value.problem["title"] == "IllegalAction"
    assert refused.value.detail.startswith(
        "table four-card-poker is not a training table: real play never deals stacked cards"
    )
    assert dealer.view("four-card-poker") == before  # no round opened, no event
    assert dealer.table("four-card-poker")["training"] is False


@pytest.mark.parametrize(
    ("stack", "named"),
    [
        ("As Kd Xx", "'Xx'"),
        ("As Ks Qs As", "As x2"),
        (" ".join(["2c"] * 53), "holds 53 cards; the shoe holds 52"),
    ],
)
def test_an_invalid_stack_is_refused_naming_it_and_nothing_changes(
    sqlite_server: Server, stack: str, named: str
) -> None:
    _, dealer = _training_tcp(sqlite_server)
    sqlite_server.client("player1").sit(TCP, 1)
    before = dealer.view(TCP)
    with pytest.raises(ApiError) as refused:
        dealer.new_round(TCP, stack=stack)
    assert refused.value.status == 422 and named in refused.value.detail
    assert dealer.view(TCP) == before
    assert dealer.new_round(TCP)["phase"] == "betting"  # the table deals as it would have


def test_a_training_table_is_marked_in_every_view_and_record_header(server: Server) -> None:
    supervisor, dealer = _training_tcp(server)
    player = server.client("player1")
    player.sit(TCP, 1)
    listed = {t["id"]: t["training"] for t in player.tables()}
    assert listed[TCP] is True and listed["three-card-poker"] is False
    assert dealer.table(TCP)["training"] is True
    with player.stream(TCP) as stream:
        seats = {1: Seat(player, {"ante": 500}, ["play"])}
        stack = stack_of(training_rules("three-card-poker"), seats, SPADE_ROYAL, dealer=DEALER)
        rid = play(dealer, TCP, seats, stack)
        events = stream.drain(dealer.view(TCP)["seq"])
    assert [e.data["training"] for e in events if e.type == "round"] == [True]
    assert player.view(TCP)["training"] is True
    assert player.view(TCP)["round"]["mode"] == "training"
    header = supervisor.records(rid)
    assert (header["mode"], header["training"]) == ("training", True)
    assert supervisor.scenario(rid)["rules"]["table"]["training"] is True
    # recalled, each round says what its record header says
    assert [r["mode"] for r in supervisor.rounds(TCP)] == ["training"]
    assert [r["mode"] for r in player.seat_rounds(TCP, 1)] == ["training"]
    other = server.client("player2")
    other.sit("three-card-poker", 1)
    play_round(dealer, {1: other}, "three-card-poker", dealer.table("three-card-poker"))
    assert [r["mode"] for r in supervisor.rounds("three-card-poker")] == ["real"]


SPADE_ROYAL = {1: ["As", "Ks", "Qs"], 2: ["2c", "7d", "9h"], 3: ["3c", "8d", "4h"]}
"""Seat 1 the spade mini royal (the meter's 100%) and, with the dealer's J-10 of spades
(:data:`DEALER`), the Six Card Bonus's royal flush; the others nothing."""
DEALER = ["Js", "Ts", "2d"]


def test_649a_12_royal_flush_100_percent_hand_pay_and_envy_to_several_players(
    server: Server,
) -> None:
    supervisor, dealer = _training_tcp(server)
    players = {n: server.client(f"player{n}") for n in (1, 2, 3)}
    for n, p in players.items():
        p.sit(TCP, n)
    seats = {
        1: Seat(players[1], {"ante": 500, "six_card_bonus": 500, "progressive": 100}, ["play"]),
        2: Seat(players[2], {"ante": 500, "progressive": 100}, ["fold"]),
        3: Seat(players[3], {"ante": 500, "progressive": 100}, ["play"]),
    }
    start = balances(seats)
    stack = stack_of(training_rules("three-card-poker"), seats, SPADE_ROYAL, dealer=DEALER)
    rid = play(dealer, TCP, seats, stack)
    settled = supervisor.records(rid)["settlement"]
    assert settled["1"]["wagers"]["six_card_bonus"]["line"] == "royal_flush"
    (award,) = settled["1"]["progressive"]
    assert award["line"] == "mini_royal_spades" and award["from_meter"] is True
    assert [(e["for_seat"], e["amount"]) for e in settled["2"]["envy"]] == [(1, 10_000)]
    assert [(e["for_seat"], e["amount"]) for e in settled["3"]["envy"]] == [(1, 10_000)]
    # the whole meter waits for a supervisor's approval; the rest is paid at the table
    (pay,) = [h for h in supervisor.handpays() if h["round_id"] == rid]
    assert (pay["status"], pay["seat"], pay["amount"]) == ("pending", 1, award["amount"])
    net = nets(supervisor, rid)
    moved = {s: b - start[s] for s, b in balances(seats).items()}
    assert moved == {1: net[1] - award["amount"], 2: net[2], 3: net[3]}
    supervisor.approve(pay["id"])
    assert {s: b - start[s] for s, b in balances(seats).items()} == net
    assert replayed_nets(supervisor, rid) == net
    meter = {m["name"]: m for m in supervisor.meters()}[METER]
    assert meter["amount"] == meter["reset"] and meter["awards"] == 1
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]


def test_a_training_table_moves_no_progressive_meter_of_real_play(sqlite_server: Server) -> None:
    # the demo Three Card Poker table (real play) moves pa-poker-jackpot
    supervisor = sqlite_server.client("supervisor")
    before = supervisor.tables()
    with pytest.raises(ApiError) as refused:
        supervisor.new_table("tcp-shared", "shared", training_rules("three-card-poker"))
    assert refused.value.status == 409
    assert refused.value.detail.startswith(
        "table tcp-shared is a training table and its progressive meter pa-poker-jackpot is "
        "moved by "
    )
    assert refused.value.detail.endswith(", a real table: a training table's meters are its own")
    assert supervisor.tables() == before

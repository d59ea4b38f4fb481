"""Stacked rounds on a real server's training tables (issue 35): the stack a round needs, from
the engine's own scenario replay of the hands wanted; a round driven over HTTP with each seat's
decisions; and every balance checked against the round's settlement and its offline replay.

A stack is the cards in the order they leave the shoe, burned cards included, top first: a
scenario with the hands (or, for baccarat, the cards) is replayed by :func:`run_scenario` under
the table's own Rules Submission, and its records give that order.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.faces.client import Client
from croupier.server.demo import demo_rules
from croupier.table.scenario import run_scenario

MAX_STEPS = 100


def training_rules(table: str, *, meter: str | None = None) -> dict[str, Any]:
    """A demo table's Rules Submission as a training table's; ``meter``: its progressive's own
    meter (a training table never moves a real table's)."""
    rules = copy.deepcopy(demo_rules()[table])
    rules["table"] = {**rules.get("table", {}), "training": True}
    if meter is not None:
        rules["progressive"]["meter"] = meter
    return rules


@dataclass
class Seat:
    player: Client
    wagers: dict[str, int]
    decisions: list[str] = field(default_factory=list)


def stack_of(
    rules: Mapping[str, Any],
    seats: Mapping[int, Seat],
    hands: Mapping[int, list[str]] | None = None,
    **deal: list[str],
) -> str:
    """The stack that deals ``hands`` (seat -> cards) and ``deal`` (``dealer``, ``community``;
    or ``cards``, the shoe's order itself: baccarat) to ``seats`` wagering and deciding as
    they will, at a table under ``rules``."""
    table: dict[str, Any] = {}
    for seat, s in seats.items():
        table[str(seat)] = {"wagers": dict(s.wagers), "decisions": list(s.decisions)}
        if hands is not None and seat in hands:
            table[str(seat)]["hand"] = list(hands[seat])
    report = run_scenario({"game": rules["game"], "rules": dict(rules), "seats": table, **deal})
    kinds = ("card_dealt", "card_discarded")
    return " ".join(r["card"] for r in report["records"] if r["kind"] in kinds)


def play(dealer: Client, table: str, seats: Mapping[int, Seat], stack: str) -> str:
    """One stacked round at ``table``: the seats wager, the dealer deals, each seat decides in
    turn (its decisions in order), the dealer reveals and settles; returns the round id."""
    rid = str(dealer.new_round(table, stack=stack)["round_id"])
    chips = 0
    for seat, s in sorted(seats.items()):
        for wager, amount in s.wagers.items():
            s.player.wager(table, wager, amount, seat=seat)
            chips += wager.endswith("progressive")
    last = dealer.no_more_bets(table, chips)
    left = {seat: list(s.decisions) for seat, s in seats.items()}
    for _ in range(MAX_STEPS):
        phase, acting = str(last["phase"]), last.get("to_act")
        if phase in ("over", "void"):
            return rid
        if isinstance(acting, str) and acting.startswith("seat ") and phase == "decisions":
            seat = int(acting.removeprefix("seat "))
            last = seats[seat].player.decide(table, left[seat].pop(0), seat=seat)
        elif phase == "stub_count":
            last = count_stub(dealer, table)
        elif phase in ("dealing", "decisions"):
            last = dealer.step(table, "deal")
        elif phase in ("reveal", "settlement"):
            last = dealer.step(table, "reveal" if phase == "reveal" else "settle")
        else:
            raise AssertionError(f"round {rid} in phase {phase}")
    raise AssertionError(f"round {rid} did not finish")


def count_stub(dealer: Client, table: str) -> dict[str, Any]:
    """The dealer counts the stub where the table's cadence asks (§ 641a.8(f) and its
    parallels): the cards not yet out of the shoe."""
    rnd = dealer.view(table)["round"]
    out = sum(r["kind"] in ("card_dealt", "card_hidden", "card_discarded") for r in rnd["records"])
    decks = int(dealer.table(table)["rules"].get("table", {}).get("decks", 1))
    return dealer.stub_count(table, 52 * decks - out)


def deal(dealer: Client, table: str) -> dict[str, Any]:
    """The dealer's deal, the stub counted where the round asks for it."""
    last = dealer.step(table, "deal")
    return count_stub(dealer, table) if last["phase"] == "stub_count" else last


def balances(seats: Mapping[int, Seat]) -> dict[int, int]:
    return {seat: int(s.player.me()["balance"]) for seat, s in seats.items()}


def nets(supervisor: Client, rid: str) -> dict[int, int]:
    """Each seat's net over the round, as the server's settlement of its records says."""
    settlement = supervisor.records(rid)["settlement"]
    return {int(seat): int(entry["net"]) for seat, entry in settlement.items()}


def replayed_nets(supervisor: Client, rid: str) -> dict[int, int]:
    """Each seat's net as ``croupier replay`` settles the round's exported scenario offline."""
    report = run_scenario(supervisor.scenario(rid))
    return {int(seat): int(entry["net"]) for seat, entry in report["seats"].items()}

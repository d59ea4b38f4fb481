"""The view a table stream carries (:meth:`ReadModel.view_answer
<croupier.server.read_model.ReadModel.view_answer>`): the first person asking at a state of the
table is answered in full and the others share what is the same for all, joined to their own
sight of the round and deal.  Checked against the route's own answer, drawn afresh for each
person (``view_with_deal`` through the route's model), after every command of rounds of
several games, whichever role asks first, and after a refused command put its round back."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from croupier.core.errors import CroupierError
from croupier.games.records import Action, PlaceWager, ReportIrregularity
from croupier.games.round import ActorKind, Phase
from croupier.server.api_models import TableView
from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.policy import Access
from live.view_access import view_access

DEALER = Account("dealer", Role.DEALER, demo=True)
PLAYERS = [Account(f"player{i}", Role.PLAYER, player_id=f"P{i}") for i in (1, 2, 3)]
WATCHERS = [
    Account("supervisor", Role.SUPERVISOR),
    Account("observer", Role.OBSERVER),
    Account("auditor", Role.AUDITOR),
    Account("trainee", Role.TRAINEE),
]
PEOPLE = [*PLAYERS, DEALER, *WATCHERS]


def _route(floor: Floor, access: Access, lt: LiveTable) -> dict[str, Any]:
    data = floor.reads.view_with_deal(access, lt.id)
    return TableView.model_validate(data).model_dump(mode="json", by_alias=True)


def _steps(floor: Floor, lt: LiveTable, phases: tuple[Phase, ...], txn: Txn) -> int:
    return len(floor.rounds.dealer_steps(txn, lt, phases))


def _sit(floor: Floor, lt: LiveTable, player: Account, seat: int, txn: Txn) -> object:
    return floor.registry.sit(txn, lt, player, seat)


class Checked:
    """A table's people asked for the carried view after each command, the first asker
    turning with each command; each answer compared with the route's."""

    def __init__(self, floor: Floor, table: str) -> None:
        self.floor = floor
        self.lt = floor.table(table)
        self.commands = 0
        self.compared = 0
        self.firsts: set[Role] = set()

    def check(self) -> None:
        order = PEOPLE[self.commands % len(PEOPLE) :] + PEOPLE[: self.commands % len(PEOPLE)]
        first = True
        for person in order:
            access = view_access(person, self.lt)
            if access is None:
                continue
            if first:
                self.firsts.add(person.role)
                first = False
            answer = self.floor.reads.view_answer(access, self.lt.id)
            assert answer == _route(self.floor, access, self.lt), (person.username, answer["seq"])
            self.compared += 1

    def do(self, account: Account, run: Callable[[Txn], object]) -> None:
        self.commands += 1
        key = f"k{self.commands}"
        self.floor.commands.transact(account, key, key, self.lt.id, lambda txn: {"r": run(txn)})
        self.check()

    def apply(self, account: Account, action: Action) -> None:
        self.do(account, lambda txn: len(self.floor.rounds.apply(txn, self.lt, action)))

    def play_round(self) -> None:
        lt, rounds = self.lt, self.floor.rounds
        self.do(DEALER, lambda txn: rounds.begin_round(txn, lt, None))
        assert lt.round is not None
        for seat, player in enumerate(PLAYERS, start=1):
            for wager in lt.round.house_wagers(seat, unit=500):
                self.apply(player, wager)
        self.apply(DEALER, lt.round.dealer_no_more_bets())
        while not lt.round.is_over:
            rnd = lt.round
            actor = rnd.to_act()
            if actor.kind is ActorKind.SEAT and actor.seat is not None:
                choices = [
                    a
                    for a in rnd.legal_actions()
                    if getattr(a, "seat", None) == actor.seat
                    and not isinstance(a, ReportIrregularity | PlaceWager)
                ]
                self.apply(PLAYERS[actor.seat - 1], choices[self.commands % len(choices)])
            elif rnd.phase is Phase.STUB_COUNT:
                self.apply(DEALER, rnd.dealer_step())
            else:
                self.do(DEALER, partial(_steps, self.floor, lt, (rnd.phase,)))


@pytest.mark.parametrize(
    "table", ["three-card-poker", "mini-baccarat", "ultimate-texas-holdem", "let-it-ride"]
)
def test_the_carried_view_of_each_person_is_the_routes_answer(floor: Floor, table: str) -> None:
    checked = Checked(floor, table)
    checked.check()
    for seat, player in enumerate(PLAYERS, start=1):
        checked.do(player, partial(_sit, floor, checked.lt, player, seat))
    for _ in range(2):
        checked.play_round()
    assert checked.compared > 8 * checked.commands
    assert {Role.PLAYER, Role.DEALER, Role.SUPERVISOR} <= checked.firsts


def test_after_a_refused_command_puts_the_round_back_each_answer_is_still_the_routes(
    floor: Floor,
) -> None:
    """A command refused after its round moved in memory is put back from the records
    committed (a new round object at the same ``seq``): the answers shared at that state are
    still each person's route answer, and nothing of the refused command shows."""
    checked = Checked(floor, "three-card-poker")
    lt = checked.lt
    checked.do(PLAYERS[0], lambda txn: floor.registry.sit(txn, lt, PLAYERS[0], 1))
    checked.do(DEALER, lambda txn: floor.rounds.begin_round(txn, lt, None))
    checked.apply(PLAYERS[0], PlaceWager(seat=1, wager="ante", amount=500))
    before, seq = lt.round, lt.seq

    def moved_then_refused(txn: Txn) -> dict[str, Any]:
        floor.rounds.apply(txn, lt, PlaceWager(seat=1, wager="pair_plus", amount=500))
        raise CroupierError("refused after the round moved in memory")

    with pytest.raises(CroupierError):
        floor.commands.transact(PLAYERS[0], "k-refused", "k-refused", lt.id, moved_then_refused)
    assert lt.seq == seq and lt.round is not before
    checked.check()
    assert lt.round is not None and "pair_plus" not in lt.round.stakes.get(1, {})


def test_the_people_woken_by_one_event_share_one_full_answer(
    floor: Floor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked at once by the table's people (each stream's thread, woken by the same event),
    the state's full answer is made once: the others wait for it and join their own sight."""
    checked = Checked(floor, "three-card-poker")
    lt = checked.lt
    for seat, player in enumerate(PLAYERS, start=1):
        checked.do(player, partial(_sit, floor, lt, player, seat))
    checked.do(DEALER, lambda txn: floor.rounds.begin_round(txn, lt, None))
    ante = PlaceWager(seat=1, wager="ante", amount=500)
    # the event no one has been answered after yet
    floor.commands.transact(
        PLAYERS[0],
        "k-ante",
        "k-ante",
        lt.id,
        lambda txn: {"n": len(floor.rounds.apply(txn, lt, ante))},
    )
    made: list[int] = []
    full = floor.reads._view_with_deal_at

    def counted(access: Access, table: LiveTable) -> Any:
        made.append(table.seq)
        return full(access, table)

    monkeypatch.setattr(floor.reads, "_view_with_deal_at", counted)
    people = [p for p in PEOPLE if view_access(p, lt) is not None]
    start = threading.Barrier(len(people))
    answers: dict[str, dict[str, Any]] = {}

    def ask(person: Account) -> None:
        access = view_access(person, lt)
        assert access is not None
        start.wait()
        answers[person.username] = floor.reads.view_answer(access, lt.id)

    threads = [threading.Thread(target=ask, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made == [lt.seq]
    for person in people:
        access = view_access(person, lt)
        assert access is not None
        assert answers[person.username] == _route(floor, access, lt), person.username

"""The meters a table's view shows (``GET /api/tables/{id}/view``, and the state a page's stream
carries): the stored amount of every meter the table's wagers move, read with the view, so a
linked meter moved by another table shows at once, though this table's ``seq`` did not move
(§ 605a.7: a linked progressive meter is one amount on every table it is linked to)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from live.view_access import view_of

DEALER = Account("dealer", Role.DEALER, demo=True)
P1 = Account("player1", Role.PLAYER, player_id="P1")


def _stored(floor: Floor, table: str) -> dict[str, int]:
    snapshot = floor.meters.snapshot()
    return {m: snapshot[m] for m in floor.table(table).meters if m in snapshot}


def test_605a_7_a_view_shows_each_linked_meter_as_stored_before_and_in_a_round(
    floor: Floor,
) -> None:
    # Mississippi Stud moves three meters, one of them (stud-mega) linked with Ultimate Texas
    # Hold 'Em; its other two exist only once a round has opened them.
    stud, uth = "mississippi-stud", "ultimate-texas-holdem"
    lt = floor.table(stud)
    before = view_of(floor, P1, stud)
    assert before["meters"] == _stored(floor, stud)
    assert set(before["meters"]) == {"stud-mega"}

    steps = 0

    def do(account: Account, table: str, run: Any) -> None:
        nonlocal steps
        steps += 1
        floor.commands.transact(account, f"k{steps}", f"k{steps}", table, run)

    do(P1, stud, lambda txn: {"s": floor.registry.sit(txn, lt, P1, 1)})
    do(DEALER, stud, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    during = view_of(floor, P1, stud)
    assert during["round"] is not None
    assert during["meters"] == _stored(floor, stud)
    assert set(during["meters"]) == set(lt.meters) == {"stud-major", "stud-mega", "stud-minor"}
    assert during["meters"] == {m: during["round"]["meters"][m] for m in lt.meters}

    # another table's contribution to the linked meter (here the meter bank's own move): both
    # tables' views show it, though neither table's seq moved
    seq = lt.seq
    mega = during["meters"]["stud-mega"]
    floor.meters.contribute("stud-mega", Fraction(12345, 2))
    assert lt.seq == seq
    for table in (stud, uth):
        seen = view_of(floor, DEALER, table)["meters"]
        assert seen["stud-mega"] == mega + 6172  # the half cent stays in the exact amount
        assert seen == _stored(floor, table)

"""The floor's tables are read as a snapshot: on PostgreSQL sixteen writers (and on any database
the request threads) look through the tables while another thread may add one.

Found by ``benchmarks/bench_server.py --backend postgresql``: 200 tables made and seated at once,
and a seat command's look through the tables met a table being added (``RuntimeError:
dictionary changed size during iteration``, a 500).  Here the other thread's addition is made
to happen at that very moment: while the seat command reads another table's seats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn

PLAYER = Account("player1", Role.PLAYER, player_id="P1")
TABLE = "three-card-poker"


def _adding_a_table_when_read(floor: Floor, other: LiveTable) -> Callable[[], dict[int, str]]:
    """``other.seats`` that first adds a table to the floor, as another writer would."""
    seats = other.seats

    def read() -> dict[int, str]:
        if "added-meanwhile" not in floor.tables:
            floor.tables["added-meanwhile"] = other
        return seats()

    return read


def test_a_seat_command_reads_the_tables_while_another_writer_adds_one(floor: Floor) -> None:
    lt = floor.table(TABLE)
    other = next(t for t in floor.live_tables() if t is not lt)
    other.seats = _adding_a_table_when_read(floor, other)  # type: ignore[method-assign]

    def sit(txn: Txn) -> dict[str, Any]:
        return {"seats": floor.registry.sit(txn, lt, PLAYER, 1)}

    answer = floor.commands.transact(PLAYER, "sit", "sit", TABLE, sit)
    assert answer == {"seats": {1: "P1"}}
    assert "added-meanwhile" in floor.tables
    assert lt.seats() == {1: "P1"}

"""Tables created at once (found by ``benchmarks/bench_failover.py`` on PostgreSQL, whose
writers run commands concurrently: a creation checking that training and real tables share no
meter iterated the floor's tables while another creation placed one, and answered 500)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from croupier.core.errors import IllegalAction
from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.postings import verify_meters_apart
from croupier.server.snapshot import Snapshot
from croupier.server.table_registry import rules_json


class _ReadWhileAnotherIsPlaced:
    """A table on the floor; while the check reads its meters, another writer places a table
    (what a concurrent creation does between two steps of the check)."""

    def __init__(self, real: LiveTable, tables: dict[str, LiveTable], more: LiveTable) -> None:
        self.id, self.game, self._meters = real.id, real.game, real.meters
        self._tables, self._more = tables, more

    @property
    def meters(self) -> tuple[str, ...]:
        self._tables[self._more.id] = self._more
        return self._meters


def test_a_table_created_while_another_is_placed_is_checked_without_error(floor: Floor) -> None:
    def built(table_id: str, like: str) -> LiveTable:
        data: dict[str, Any] = rules_json(floor.table(like).game.rules)
        return floor.registry.built(table_id, table_id, data, "open")

    made, more = built("new-tcp", "three-card-poker"), built("other-fcp", "four-card-poker")
    tables: dict[str, LiveTable] = {}
    for lt in floor.registry.all():
        tables[lt.id] = cast(LiveTable, _ReadWhileAnotherIsPlaced(lt, tables, more))
    tables[made.id] = made
    verify_meters_apart(tables, made)  # no "dictionary changed size during iteration"
    assert made.id in tables and more.id in tables


def test_a_command_undone_keeps_the_table_another_command_created_meanwhile(
    floor: Floor,
) -> None:
    # PostgreSQL's writers run commands at once: a command whose transaction did not commit
    # took every table placed since its snapshot off the floor, another command's too
    snapshot = Snapshot.of(floor.registry, None)  # a command begins
    _create(floor, "k-other", "fcp-other")  # another writer's command commits meanwhile
    snapshot.restore(floor.registry, floor.store, floor.meters, None)  # the first is undone
    assert "fcp-other" in floor.registry.tables


def test_a_table_whose_creation_did_not_commit_is_taken_off_and_only_it(floor: Floor) -> None:
    _create(floor, "k-kept", "fcp-kept")

    def created_then_failed(txn: Txn) -> dict[str, Any]:
        txn.placed.append(floor.registry.create(txn.conn, "fcp-lost", "Lost", _fcp(floor)))
        raise IllegalAction("refused after the table was placed")

    with pytest.raises(IllegalAction):
        floor.commands.transact(SUPERVISOR, "k-lost", "k-lost", None, created_then_failed)
    assert "fcp-lost" not in floor.registry.tables and "fcp-kept" in floor.registry.tables


SUPERVISOR = Account("supervisor", Role.SUPERVISOR)


def _fcp(floor: Floor) -> dict[str, Any]:
    return dict(rules_json(floor.table("four-card-poker").game.rules))


def _create(floor: Floor, key: str, table_id: str) -> None:
    def create(txn: Txn) -> dict[str, Any]:
        txn.placed.append(floor.registry.create(txn.conn, table_id, table_id, _fcp(floor)))
        return {}

    floor.commands.transact(SUPERVISOR, key, key, None, create)

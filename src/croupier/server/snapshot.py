"""What a command may change of the floor in memory, taken before it runs (:class:`Snapshot`):
put back when the command's transaction does not commit (:meth:`Commands.transact
<croupier.server.commands.Commands.transact>`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from croupier.core.errors import IllegalAction
from croupier.games.round import Round
from croupier.rules.progressive import MeterBank
from croupier.server.live_tables import LiveTable
from croupier.server.table_registry import TableRegistry
from croupier.store import RoundStore

__all__ = ["Snapshot"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a command may change in memory, taken before it runs: :meth:`restore` puts it
    back when the command's transaction does not commit (its savepoint rolled back, or its
    batch)."""

    lt: LiveTable | None
    state: tuple[Any, ...] = ()
    dealing: Any = None
    """The table's seats and deck bookkeeping (:meth:`Dealing.memento`)."""

    @classmethod
    def of(cls, registry: TableRegistry, lt: LiveTable | None) -> Snapshot:
        if lt is None:
            return cls(None)
        state = (lt.round, lt.round_id, lt.stored, lt.seq, lt.numbers, lt.held, lt.status)
        return cls(lt, state, lt.table.memento())

    def restore(
        self,
        registry: TableRegistry,
        store: RoundStore,
        meters: MeterBank,
        conn: Connection | None,
    ) -> None:
        """Put the table back as it was (its seats, decks and their counts too); a round that
        moved in memory is replayed from what ``conn`` (or, if ``None``, a new transaction)
        holds: its committed records, dealing from its persisted shoe."""
        lt = self.lt
        if lt is None:
            return
        rnd, rid, stored, lt.seq, lt.numbers, lt.held, lt.status = self.state
        lt.round, lt.round_id, lt.stored = rnd, rid, stored
        lt.table.restore(self.dealing)
        if rnd is not None and rid is not None and len(rnd.records) != stored:
            # The round moved in memory but its records were not committed.
            try:
                replayed = store.replay(rid, conn)
            except IllegalAction:
                # Shown as committed (its records alone), held for a supervisor's void.
                records = rnd.records[:stored]
                lt.round = Round.rebuild(
                    rnd.game, records, players=rnd.players, stub_check=rnd.stub_check
                )
                lt.held = "a write failed during this round"
            else:
                lt.round = replayed
            lt.round.attach_meters(meters)
            lt.table.resume(lt.round)

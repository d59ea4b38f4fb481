"""What an open stream reads when it wakes (issue 38): nothing from the database when nothing
was published after its ``seq``, also for a table this process has published nothing of since
it loaded (a quiet table after a restart; its streams had read the database at every wake); and
what a table keeps in memory for them: its last :data:`RECENT` events at least, twice that at
most (each kept event is objects the garbage collector scans)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from croupier.server.auth import Account, Role
from croupier.server.db import connect
from croupier.server.live_floor import Floor
from croupier.server.live_tables import RECENT, Txn
from croupier.server.streams import messages_in_memory, messages_seen

PLAYER = Account("player1", Role.PLAYER, player_id="P1")
SUPERVISOR = Account("supervisor", Role.SUPERVISOR)
TABLE = "three-card-poker"


def test_a_quiet_tables_stream_after_a_restart_reads_nothing_more(
    floor: Floor, tmp_path: Path
) -> None:
    lt = floor.table(TABLE)

    def sit(txn: Txn) -> dict[str, Any]:
        return {"seats": floor.registry.sit(txn, lt, PLAYER, 1)}

    floor.commands.transact(PLAYER, "sit", "sit", TABLE, sit)
    again = Floor(connect(f"sqlite:///{tmp_path / 'floor.sqlite'}"))  # the restart
    try:
        again.load()
        quiet = again.table(TABLE)
        assert quiet.top == 0 and quiet.seq == lt.seq > 0  # nothing published since the load
        seen: list[str] = []
        record = lambda *args: seen.append(str(args[2]))  # noqa: E731
        event.listen(again.engine, "before_cursor_execute", record)
        try:
            # caught up: nothing to send, nothing read
            assert messages_in_memory(again, SUPERVISOR, quiet, quiet.seq) == []
            assert seen == []
            # one event behind: the database must be read (not in memory), and it holds it
            assert messages_in_memory(again, SUPERVISOR, quiet, quiet.seq - 1) is None
            sent = messages_seen(again, SUPERVISOR, quiet, quiet.seq - 1)
        finally:
            event.remove(again.engine, "before_cursor_execute", record)
        assert [seq for seq, _text in sent] == [quiet.seq]
    finally:
        again.committer.close()
        again.engine.dispose()


def test_a_table_keeps_its_last_recent_events_for_its_streams_and_at_most_twice_that(
    floor: Floor,
) -> None:
    lt = floor.table(TABLE)
    start = lt.seq
    for n in range(1, 5 * RECENT + 1):
        lt.published([(start + n, "note", {"n": n}, None)])
        assert RECENT <= len(lt.recent) <= 2 * RECENT or n < RECENT
    top = start + 5 * RECENT
    # a stream RECENT events behind catches up from memory, every event in order
    batch = messages_in_memory(floor, SUPERVISOR, lt, top - RECENT)
    assert batch is not None
    assert [seq for seq, _text in batch] == list(range(top - RECENT + 1, top + 1))
    # one behind what is kept reads the database
    assert messages_in_memory(floor, SUPERVISOR, lt, min(lt.recent) - 2) is None

"""What an open stream reads when it wakes (issue 38): nothing from the database when nothing
was published after its ``seq``, also for a table this process has published nothing of since
it loaded (a quiet table after a restart; its streams had read the database at every wake)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from croupier.server.auth import Account, Role
from croupier.server.db import connect
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
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

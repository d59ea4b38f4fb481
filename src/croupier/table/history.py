"""Game recall for rounds stored by :class:`~croupier.store.RoundStore` under a table name:
the rounds whose id starts with ``TABLE-`` (as ``croupier play`` stores them), newest first,
each rebuilt from its records."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from croupier.core.errors import InvalidInput
from croupier.games.records import record_to_json
from croupier.store import RoundStore

__all__ = ["recall_round", "table_rounds"]

MAX_LAST = 1000


def recall_round(store: RoundStore, round_id: str) -> dict[str, Any]:
    """A stored round rebuilt from its records: status, players, settlement, records."""
    info = store.info(round_id)
    rnd = store.rebuild(round_id)
    return {
        "round_id": round_id,
        "game": info.game,
        "status": info.status.value,
        "phase": rnd.phase.value,
        "at": info.created_at.isoformat(),
        "players": {str(s): p for s, p in sorted(info.players.items())},
        "settlement": rnd.settlement(),
        "records": [record_to_json(r) for r in rnd.records],
    }


def table_rounds(
    store: RoundStore, table: str, *, seat: int | None = None, last: int = 10
) -> list[dict[str, Any]]:
    """The last ``last`` rounds stored under ``table`` (those where ``seat`` played, if
    given), newest first, rebuilt from their records."""
    from croupier.store.database import rounds

    if isinstance(last, bool) or not 1 <= last <= MAX_LAST:
        raise InvalidInput(f"--last {last!r} must be 1-{MAX_LAST}")
    if seat is not None and not 1 <= seat <= 7:
        raise InvalidInput(f"--seat {seat} is not a betting position 1-7")
    escaped = table.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    with store.engine.connect() as conn:
        ids = (
            conn.execute(
                select(rounds.c.id)
                .where(rounds.c.id.like(f"{escaped}-%", escape="\\"))
                .order_by(rounds.c.created_at.desc(), rounds.c.id.desc())
            )
            .scalars()
            .all()
        )
    if not ids:
        raise InvalidInput(f"no rounds stored under table {table!r} in this database")
    found = []
    for round_id in ids:
        if seat is not None and seat not in store.info(round_id).players:
            continue
        found.append(recall_round(store, round_id))
        if len(found) >= last:
            break
    return found

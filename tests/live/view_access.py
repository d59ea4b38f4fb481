"""The access policy's answer to an account on ``GET /api/tables/{id}/view``, as the route's guard
decides it, and the view the read model answers with it: for the tests that read views in the
server's process (no HTTP)."""

from __future__ import annotations

from typing import Any

from croupier.server.auth import Account
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable
from croupier.server.policy import Access, decide, resource, stage_of, table_seats

VIEW = resource("GET", "/api/tables/{table_id}/view")


def view_access(account: Account, lt: LiveTable) -> Access | None:
    """The policy's answer to ``account`` on the view of ``lt`` now; ``None`` where it refuses."""
    try:
        return decide(
            VIEW,
            account,
            table_id=lt.id,
            seats=table_seats(account, lt),
            stage=lambda: stage_of(lt.round, lt.held),
            refuse=lambda rule, why: PermissionError(why),
        )
    except PermissionError:
        return None


def view_of(floor: Floor, account: Account, table: str) -> dict[str, Any]:
    """The view of ``table`` the read model gives ``account`` (the deal with it)."""
    lt = floor.table(table)
    access = view_access(account, lt)
    assert access is not None, f"{account.username} may not read the view of {table}"
    return floor.reads.view_with_deal(access, lt.id)

"""What a table page needs at one ``seq`` of the table stream: the caller's view and actions,
as ``GET /api/tables/{id}/view`` and ``GET /api/tables/{id}/actions`` answer them.

The routes answer through the same functions
(:meth:`croupier.server.read_model.ReadModel.view_with_deal`, :func:`actions_answer`), and the
table stream (:mod:`croupier.server.streams`, ``carry=state``) sends the same answer with the
last event of each batch, so a page applies events instead of asking again.  Each part is given
only where the access policy's row of its
route answers the caller (:func:`croupier.server.policy.decide`), redacted as that row's point
of view: hidden information crosses the stream exactly as it crosses the route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.server.actions import ACTIONS, actions_answer
from croupier.server.auth import Account
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable
from croupier.server.policy import Access, Rule, decide, resource, stage_of, table_seats

__all__ = ["VIEW", "TableState", "table_state"]

VIEW = "/api/tables/{table_id}/view"

RETRIES = 8
"""Reads of the view and the actions before giving up on one ``seq`` for both (a command
committed between the two reads: read again)."""


@dataclass(frozen=True, slots=True)
class TableState:
    """The view and actions of one caller at one ``seq`` of the table (each ``None`` where
    the policy does not answer that caller on its route), in their JSON form."""

    seq: int
    view: dict[str, Any] | None
    actions: dict[str, Any] | None


def _refused(rule: Rule, why: str) -> Exception:
    return PermissionError(f"refused to the {why} ({rule.status})")


def _access(path: str, account: Account, lt: LiveTable) -> Access | None:
    """The policy's answer to ``account`` on the row ``GET path`` at ``lt`` now, as the route's
    guard decides it; ``None`` where it refuses."""
    try:
        return decide(
            resource("GET", path),
            account,
            table_id=lt.id,
            seats=table_seats(account, lt),
            stage=lambda: stage_of(lt.round, lt.held),
            refuse=_refused,
        )
    except PermissionError:
        return None


def table_state(floor: Floor, account: Account, lt: LiveTable) -> TableState | None:
    """``account``'s view and actions at ``lt``, both at one ``seq`` (``None`` where commands
    kept committing between the two reads :data:`RETRIES` times: the next batch carries it).
    Reads the database: run it in a thread."""
    for _ in range(RETRIES):
        seen = _access(VIEW, account, lt)
        # the read model's one answer behind GET /view (ReadModel.view_with_deal), as the
        # route's model sends it
        view = floor.reads.view_answer(seen, lt.id) if seen is not None else None
        allowed = _access(ACTIONS, account, lt)
        actions, seq = actions_answer(account, lt) if allowed is not None else (None, lt.seq)
        if view is not None and view["seq"] != seq:
            continue
        return TableState(seq, view, actions)
    return None

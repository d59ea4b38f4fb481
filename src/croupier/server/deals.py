"""Provable deals on the live server: who may read what of a round's committed deal.

Everyone may read the commitment (published before the first wager,
:mod:`croupier.table.commitment`)
and, once the round is over, where in the order the round dealt (``taken``) and the cards it
dealt *as that account may see them*: a card it may not see is ``null`` (hidden information is
a security boundary: a player never obtains another player's folded hand, nor the dealer's
face-down cards, even after the round).  The order and the nonce themselves, which hold every
card, go only to supervisors and auditors (and ``croupier audit verify-deal``), who check the
deal against the published commitment.  A coup of a baccarat shoe is revealed only once its
shoe has ended (:func:`croupier.table.commitment.read_deal`): the shoe's order holds the coups to
come.
"""

from __future__ import annotations

from typing import Any

from croupier.games.records import CardDealt, CardDiscarded
from croupier.server.views import ViewPov, redact_json
from croupier.store import Database, RoundStore
from croupier.table.commitment import Deal, read_deal

__all__ = ["TableDeals", "deal_for"]


def deal_for(db: Database, store: RoundStore, round_id: str, pov: ViewPov) -> dict[str, Any]:
    """The round's deal as ``pov`` may read it (the access policy's point of view of the
    caller, :mod:`croupier.server.policy`): the commitment while the round is open; once it is
    over the order and nonce to the whole (``full``), else the cards dealt as ``pov`` sees them.
    ``LookupError`` where no deal is committed."""
    with db.read() as conn:
        found = read_deal(conn, round_id)
    return _seen(store, round_id, found, pov)


def _seen(store: RoundStore, round_id: str, found: Deal | None, pov: ViewPov) -> dict[str, Any]:
    if found is None:
        raise LookupError(f"round {round_id[:80]!r} has no committed deal")
    if pov.kind == "full" or not found.revealed:
        return found.to_json()
    seen: list[str | None] = []
    for rec in store.load(round_id):
        if isinstance(rec, CardDealt | CardDiscarded):
            card = redact_json(rec, pov).get("card")
            seen.append(None if card is None else str(card))
    withheld = Deal(
        round_id=found.round_id, commitment=found.commitment, taken=found.taken, shoe=found.shoe
    )
    out = withheld.to_json()
    out["revealed"] = True
    out["dealt"] = seen
    out["order"] = None
    out["verified_by"] = "the order and nonce are given to supervisors and auditors"
    return out


class TableDeals:
    """The deal of each table's round as its view shows it (:func:`deal_for`), the stored deal
    kept while the table stays at one ``seq``.

    A deal changes only with its table's commands (the round ends, its shoe ends), and each
    moves the table's ``seq``; so the callers of one ``seq`` (a table's people, each sent the
    view with a batch of the stream, ``carry=state``) share one read of the database instead
    of one each.  What each may see of it is still decided per caller."""

    def __init__(self, db: Database, store: RoundStore) -> None:
        self._db = db
        self._store = store
        self._kept: dict[str, tuple[str, int, Deal | None]] = {}
        """By table: the round, the table's ``seq`` and the deal read at it."""

    def at(self, table_id: str, round_id: str, seq: int, pov: ViewPov) -> dict[str, Any]:
        """The deal of ``round_id``, the round of ``table_id`` at ``seq``, as ``pov`` may read
        it (``LookupError`` where none is committed)."""
        kept = self._kept.get(table_id)
        if kept is not None and kept[0] == round_id and kept[1] == seq:
            found = kept[2]
        else:
            with self._db.read() as conn:
                found = read_deal(conn, round_id)
            self._kept[table_id] = (round_id, seq, found)
        return _seen(self._store, round_id, found, pov)

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

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from croupier.games.records import CardDealt, CardDiscarded
from croupier.games.states import Phase
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
    return _seen(round_id, found, pov, lambda: _cards(store, round_id))


def _cards(store: RoundStore, round_id: str) -> tuple[CardDealt | CardDiscarded, ...]:
    """The round's cards dealt and discarded, in order, as stored."""
    return tuple(r for r in store.load(round_id) if isinstance(r, CardDealt | CardDiscarded))


def _seen(
    round_id: str,
    found: Deal | None,
    pov: ViewPov,
    cards: Callable[[], tuple[CardDealt | CardDiscarded, ...]],
) -> dict[str, Any]:
    if found is None:
        raise LookupError(f"round {round_id[:80]!r} has no committed deal")
    if pov.kind == "full" or not found.revealed:
        return found.to_json()
    seen: list[str | None] = []
    for rec in cards():
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


_ENDED = frozenset({Phase.OVER, Phase.VOID})
"""The phases of a round whose deal may be revealed (with its shoe's end, for a coup)."""


class _Kept:
    """A table's round's deal at one ``seq``: read by its first caller (the others wait for
    that read instead of making their own), and its cards once a caller needs them."""

    def __init__(self, round_id: str, seq: int) -> None:
        self.round_id = round_id
        self.seq = seq
        self._lock = threading.Lock()
        self._read = False
        self._found: Deal | None = None
        self._cards: tuple[CardDealt | CardDiscarded, ...] | None = None

    def holds(self, seq: int, phase: Phase | None) -> bool:
        """Whether this deal is the round's at ``seq`` (in ``phase``): read at ``seq``, or read
        unrevealed while the round is still being played and it still is."""
        if seq == self.seq:
            return True
        if phase is None or phase in _ENDED:
            return False
        # read without this deal's lock, which its first read holds while the database
        # answers (the caller holds the lock of every table's deal: all would wait behind
        # it); at worst a deal being read is not taken, and is read again
        found = self._found
        return self._read and found is not None and not found.revealed

    def found(self, db: Database) -> Deal | None:
        with self._lock:
            if not self._read:
                with db.read() as conn:
                    self._found = read_deal(conn, self.round_id)
                self._read = True
            return self._found

    def cards(self, store: RoundStore) -> tuple[CardDealt | CardDiscarded, ...]:
        with self._lock:
            if self._cards is None:
                self._cards = _cards(store, self.round_id)
            return self._cards


class TableDeals:
    """The deal of each table's round as its view shows it (:func:`deal_for`), the stored deal
    (and, once it is revealed, the round's cards) read once while the table stays at one
    ``seq``.

    A deal changes only with its table's commands (the round ends, its shoe ends), and each
    moves the table's ``seq``; so the callers of one ``seq`` (a table's people, each sent the
    view with a batch of the stream, ``carry=state``, all woken by the same event) share one
    read of the database instead of one each.  What each may see of it is still decided per
    caller."""

    def __init__(self, db: Database, store: RoundStore) -> None:
        self._db = db
        self._store = store
        self._lock = threading.Lock()
        self._kept: dict[str, _Kept] = {}
        """By table: its round's deal at the table's ``seq``."""

    def at(
        self, table_id: str, round_id: str, seq: int, pov: ViewPov, phase: Phase | None
    ) -> dict[str, Any]:
        """The deal of ``round_id``, the round of ``table_id`` at ``seq``, as ``pov`` may read
        it (``LookupError`` where none is committed).  ``phase``: the round's at ``seq``
        (``None`` where the table holds no round): a deal read while the round is still being
        played stays what it was (its commitment, not yet revealed: a round's deal is revealed
        only once it is over or void, :func:`~croupier.table.commitment.read_deal`), so it is
        not read again at each ``seq`` of the round."""
        with self._lock:
            kept = self._kept.get(table_id)
            if kept is None or kept.round_id != round_id or not kept.holds(seq, phase):
                kept = self._kept[table_id] = _Kept(round_id, seq)
        return _seen(round_id, kept.found(self._db), pov, partial(kept.cards, self._store))

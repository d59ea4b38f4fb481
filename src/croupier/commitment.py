"""Provable deals: a round's shoe order is committed to before any wager and revealed after.

When the dealer opens a round, its shoe has just been shuffled (every game on the floor
reshuffles for each round, § 641a.5(a) and the other chapters' deck procedures; the order a
round deals from is never dealt again).  The server persists the order with a fresh nonce
(:func:`croupier.store.shoes.capture`, 256 bits from :mod:`secrets`) and, in the same
transaction, publishes the **commitment** in the table's ``round`` event, before any wager can
be accepted:

    commitment = SHA-256( UTF-8( order || "\\n" || nonce ) )    (lowercase hex)

where ``order`` is the whole shoe, top first, each card as ``croupier.cards.Card`` prints it
(rank ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``; suit ``c``, ``d``, ``h``, ``s``), joined by
one space, and ``nonce`` is 64 lowercase hex digits.  This is scheme :data:`SCHEME`.  The
commitment says nothing of the order: the 256-bit secret nonce makes every order equally
consistent with it.

Once the round is over (or void) the order and the nonce are **revealed** (:class:`Deal`,
``GET /api/rounds/{id}/deal``): anyone recomputes the hash, compares it with what was published
before the first wager, and checks that the cards the round's records show dealt are the order's
cards from position ``taken`` on (``taken``: cards of the order gone before the round's first
card, a burn).  ``croupier audit verify-deal ROUND`` does exactly this against the database
(:func:`croupier.audit.verify_deal`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from croupier.cards import Card
from croupier.errors import InvalidInput, shown_value
from croupier.store._db import round_records, round_shoes, rounds

__all__ = [
    "SCHEME",
    "Deal",
    "dealt_mismatch",
    "digest",
    "published",
    "published_commitment",
    "read_deal",
]

SCHEME = "sha256-order-nonce-v1"


def digest(order: Sequence[str | Card], nonce: str) -> str:
    """The commitment (:data:`SCHEME`) to ``order`` (top first) under ``nonce``."""
    if isinstance(order, str | bytes) or not isinstance(order, Sequence):
        raise InvalidInput(f"shoe order {shown_value(order)} is not a sequence of cards")
    if not isinstance(nonce, str):
        raise InvalidInput(f"nonce {shown_value(nonce)} is not text")
    text = " ".join(str(card) for card in order) + "\n" + nonce
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def published(commitment: str) -> dict[str, str]:
    """What the server publishes before the first wager (the ``deal`` of the ``round``
    event)."""
    return {"scheme": SCHEME, "commitment": commitment}


@dataclass(frozen=True, kw_only=True, slots=True)
class Deal:
    """A round's deal as the public may see it: the commitment; once the round is over, the
    order, the nonce, ``taken`` and the cards dealt (none of them before)."""

    round_id: str
    commitment: str
    order: tuple[str, ...] | None = None
    nonce: str | None = None
    taken: int | None = None
    dealt: tuple[str, ...] | None = None

    @property
    def revealed(self) -> bool:
        return self.order is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "round_id": self.round_id,
            "scheme": SCHEME,
            "commitment": self.commitment,
            "revealed": self.revealed,
            "order": None if self.order is None else list(self.order),
            "nonce": self.nonce,
            "taken": self.taken,
            "dealt": None if self.dealt is None else list(self.dealt),
        }

    def problems(self) -> list[str]:
        """What does not hold in a revealed deal (empty when the deal is proven)."""
        if self.order is None or self.nonce is None or self.taken is None or self.dealt is None:
            return ["the deal is not revealed: the round is still open"]
        out = []
        if digest(self.order, self.nonce) != self.commitment:
            out.append("the revealed order and nonce do not hash to the commitment")
        mismatch = dealt_mismatch(self.dealt, self.order, self.taken)
        if mismatch is not None:
            out.append(mismatch)
        return out


def dealt_mismatch(dealt: Sequence[str], order: Sequence[str], taken: int) -> str | None:
    """Why ``dealt`` is not ``order`` from position ``taken`` on (``None`` when it is)."""
    due = list(order[taken : taken + len(dealt)])
    for i, (card, want) in enumerate(zip(dealt, due, strict=False)):
        if str(card) != str(want):
            return f"card {i + 1} dealt is {card}, the committed order gives {want}"
    if len(due) < len(dealt):
        return f"{len(dealt)} cards dealt, the committed order holds {len(due)} after {taken}"
    return None


def _dealt(conn: Connection, round_id: str) -> tuple[str, ...]:
    rows = conn.execute(
        select(round_records.c.data)
        .where(
            round_records.c.round_id == round_id,
            round_records.c.kind.in_(("card_dealt", "card_discarded")),
        )
        .order_by(round_records.c.seq)
    ).all()
    return tuple(str(json.loads(row.data)["card"]) for row in rows)


def read_deal(conn: Connection, round_id: str) -> Deal | None:
    """The round's :class:`Deal` from the database: revealed only once the round is over or
    void; ``None`` where the round was stored without a shoe order."""
    status = conn.execute(select(rounds.c.status).where(rounds.c.id == round_id)).scalar()
    shoe = conn.execute(select(round_shoes).where(round_shoes.c.round_id == round_id)).one_or_none()
    if status is None or shoe is None:
        return None
    if status == "open":
        return Deal(round_id=round_id, commitment=shoe.commitment)
    return Deal(
        round_id=round_id,
        commitment=shoe.commitment,
        order=tuple(shoe.cards.split()),
        nonce=shoe.nonce,
        taken=int(shoe.taken),
        dealt=_dealt(conn, round_id),
    )


def published_commitment(conn: Connection, round_id: str) -> str | None:
    """The commitment the live server published for ``round_id`` in its table's ``round``
    event, before the first wager (``None``: no such event, a round not played live)."""
    from croupier.server.schema import table_events  # the live server's event log

    rows = conn.execute(
        select(table_events.c.data).where(
            table_events.c.round_id == round_id, table_events.c.type == "round"
        )
    ).all()
    for row in rows:
        data = json.loads(row.data)
        deal = data.get("deal") if isinstance(data, dict) else None
        if isinstance(deal, dict) and data.get("round_id") == round_id:
            value = deal.get("commitment")
            return str(value) if value is not None else None
    return None

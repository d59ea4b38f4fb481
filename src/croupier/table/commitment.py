"""Provable deals: a round's shoe order is committed to before any wager and revealed after.

When the dealer opens a round, its shoe has just been shuffled (the poker games reshuffle for
each round, § 641a.5(a) and the other chapters' deck procedures: the order a round deals from
is never dealt again).  The server persists the order with a fresh nonce
(:func:`croupier.store.shoes.capture`, 256 bits from :mod:`secrets`) and, in the same
transaction, publishes the **commitment** in the table's ``round`` event, before any wager can
be accepted:

    commitment = SHA-256( UTF-8( order || "\\n" || nonce ) )    (lowercase hex)

where ``order`` is the whole shoe, top first, each card as ``croupier.core.cards.Card`` prints it
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

A baccarat table deals one shoe coup after coup down to its cut card
(:mod:`croupier.server.live_shoe`): the commitment covers the whole shoe and is published with
the shoe's first coup, before its first wager, then again with every coup (each coup's
``taken`` is where it begins in the order).  The order of a shoe still being dealt holds the
cards of the coups to come, so every coup of it is revealed only when the shoe ends
(``dealing_shoes.ended_at``); until then its :class:`Deal` holds the commitment and the shoe.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput, shown_value
from croupier.store.database import dealing_shoes, round_records, round_shoes, rounds

__all__ = [
    "SCHEME",
    "Deal",
    "coup_gap",
    "dealt_mismatch",
    "digest",
    "published",
    "published_commitment",
    "read_deal",
    "shoe_dealing",
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
    shoe: str | None = None
    """The shoe the round was dealt from, where its table deals one over many rounds."""

    @property
    def revealed(self) -> bool:
        return self.order is not None

    def to_json(self) -> dict[str, Any]:
        out = {
            "round_id": self.round_id,
            "scheme": SCHEME,
            "commitment": self.commitment,
            "revealed": self.revealed,
            "order": None if self.order is None else list(self.order),
            "nonce": self.nonce,
            "taken": self.taken,
            "dealt": None if self.dealt is None else list(self.dealt),
        }
        return out if self.shoe is None else {**out, "shoe": self.shoe}

    def problems(self) -> list[str]:
        """What does not hold in a revealed deal (empty when the deal is proven)."""
        if self.order is None or self.nonce is None or self.taken is None or self.dealt is None:
            return ["the deal is not revealed: the round, or its shoe, is still being dealt"]
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


def shoe_dealing(conn: Connection, shoe_id: str | None) -> bool:
    """Whether ``shoe_id`` names a shoe still being dealt (its order stays secret)."""
    if shoe_id is None:
        return False
    found = conn.execute(
        select(dealing_shoes.c.ended_at).where(dealing_shoes.c.id == shoe_id)
    ).one_or_none()
    return found is None or found.ended_at is None


def coup_gap(conn: Connection, round_id: str, shoe_id: str, taken: int) -> str | None:
    """Why a round dealt from the shoe ``shoe_id`` does not begin where the shoe stood: where
    the coup before it stopped or, for the shoe's first, right after the opening burn (the
    first card turned up, as many more burned: :func:`croupier.games.baccarat.open_shoe`);
    ``None`` when it does."""
    from croupier.core.cards import parse_cards
    from croupier.games.baccarat import open_shoe

    before = conn.execute(
        select(round_shoes.c.round_id, round_shoes.c.taken)
        .where(round_shoes.c.shoe_id == shoe_id, round_shoes.c.taken < taken)
        .order_by(round_shoes.c.taken.desc())
        .limit(1)
    ).first()
    if before is not None:
        due, after = int(before.taken) + len(_dealt(conn, before.round_id)), before.round_id
    else:
        row = conn.execute(select(dealing_shoes).where(dealing_shoes.c.id == shoe_id)).first()
        if row is None:
            return f"shoe {shoe_id} is not stored"
        order = parse_cards(row.cards, distinct=False)
        opened = open_shoe(order, decks=int(row.decks), cut_card=int(row.cut_card))[0]
        due, after = len(opened.burned), "the opening burn"
    if due != taken:
        return (
            f"round {round_id} begins at card {taken + 1} of shoe {shoe_id}, but {after} left "
            f"the shoe at card {due + 1}"
        )
    return None


def read_deal(conn: Connection, round_id: str) -> Deal | None:
    """The round's :class:`Deal` from the database: revealed only once the round is over or
    void and, for a round dealt from a shoe of many rounds, once that shoe has ended;
    ``None`` where the round was stored without a shoe order."""
    status = conn.execute(select(rounds.c.status).where(rounds.c.id == round_id)).scalar()
    shoe = conn.execute(select(round_shoes).where(round_shoes.c.round_id == round_id)).one_or_none()
    if status is None or shoe is None:
        return None
    if status == "open" or shoe_dealing(conn, shoe.shoe_id):
        return Deal(round_id=round_id, commitment=shoe.commitment, shoe=shoe.shoe_id)
    return Deal(
        round_id=round_id,
        commitment=shoe.commitment,
        order=tuple(shoe.cards.split()),
        nonce=shoe.nonce,
        taken=int(shoe.taken),
        dealt=_dealt(conn, round_id),
        shoe=shoe.shoe_id,
    )


def published_commitment(conn: Connection, round_id: str) -> str | None:
    """The commitment the live server published for ``round_id`` in its table's ``round``
    event, before the first wager (``None``: no such event, a round not played live)."""
    from croupier.store.schema import table_events  # the live server's event log

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

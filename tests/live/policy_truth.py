"""What a relation may see of a round at a moment, from the round's records as the auditor
reads them (``GET /api/rounds/{id}/records``), written from the regulations' rules of which
cards are face up when, not from the server's redaction:

- a player sees the cards dealt to the seats they held in the round, every card dealt face up,
  and every card another record shows (the dealer's reveal, a community card turned, a baccarat
  result, their own hand turned over to settle it), never a burnt or discarded card nor
  another seat's hand turned over (§ 571.11(h): its seat and category only);
- the table's view (the dealer, the pit, a supervisor while the round is in play) sees the
  same without any seat's face-down card, and every hand turned over to settle it
  (§ 641a.11(c)(1), § 569.11(h));
- the whole (a supervisor or an auditor once the round is over) sees everything.

Every string of an answer is read for cards: a string that parses as a card
(:meth:`croupier.core.cards.Card.parse`: ``"As"``, ``"10h"``, ``"ah"``), or a card word as the
server writes cards within a text (``"As Kd 7c"``, a message; a lower-case word such as "as" in
prose is not read as one), each with the round it belongs to (the nearest ``round_id`` above it
in the answer).  Cards are compared by name, so in a shoe of several decks
a hidden card equal to one shown elsewhere passes (the single-deck games tell every card apart).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from croupier.core.cards import Card
from croupier.server.policy import Sight

__all__ = ["cards_in", "visible"]

WORD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([cdhs])(?![0-9A-Za-z])")


OPAQUE = frozenset({"token"})
"""Keys whose value is a random secret, never a card: a bearer token's letters, split at its
``-`` and ``_``, read as a card now and then (``...-Ac_...``)."""


def _words(text: str) -> list[str]:
    if len(text.strip()) <= 3:
        try:
            return [str(Card.parse(text.strip()))]
        except ValueError:  # (CroupierError is one)
            pass
    return [("T" if m.group(1) == "10" else m.group(1)) + m.group(2) for m in WORD.finditer(text)]


def cards_in(data: Any, context: str | None = None) -> list[tuple[str | None, str]]:
    """Every card named anywhere in ``data`` (values and keys) with its round context."""
    out: list[tuple[str | None, str]] = []
    stack: list[tuple[Any, str | None]] = [(data, context)]
    while stack:
        item, here = stack.pop()
        if isinstance(item, dict):
            rid = item.get("round_id")
            inner = rid if isinstance(rid, str) and rid else here
            for key, value in item.items():
                out += [(inner, c) for c in _words(str(key))]
                if key not in OPAQUE:
                    stack.append((value, inner))
        elif isinstance(item, list):
            stack += [(value, here) for value in item]
        elif isinstance(item, str):
            out += [(here, c) for c in _words(item)]
    return out


def _shown(record: Mapping[str, Any]) -> set[str]:
    return {c for _, c in cards_in(record)}


def visible(
    sight: Sight, records: Iterable[Mapping[str, Any]], seats: Iterable[int]
) -> set[str] | None:
    """The cards ``sight`` may show after ``records`` (a prefix of the round's), for a player
    who held ``seats`` in the round; ``None``: every card (the whole)."""
    if sight is Sight.EVERY_CARD:
        return None
    if sight not in (Sight.SEAT, Sight.TABLE):
        return set()
    mine = {str(s) for s in seats} if sight is Sight.SEAT else set()
    out: set[str] = set()
    for r in records:
        kind = r["kind"]
        if kind == "card_dealt":
            if r["face_up"] or r["to"] in mine:
                out.add(str(r["card"]))
        elif kind == "hand_shown":
            if sight is Sight.TABLE or str(r["seat"]) in mine:
                out |= _shown(r)
        elif kind != "card_discarded":
            out |= _shown(r)
    return out

"""What cards a player may know at a point of a round, from the supervisor's records of it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["allowed", "tokens"]

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def tokens(data: object) -> set[str]:
    """Every card named anywhere in ``data`` (as JSON)."""
    return set(CARD.findall(json.dumps(data)))


def allowed(full: Iterable[dict[str, Any]], seats: Iterable[int]) -> set[str]:
    """The cards a player at ``seats`` may know after the records ``full`` (the supervisor's):
    its seats' cards, cards dealt face up, and the cards every record but a deal, a discard or
    another seat's shown hand shows (a reveal, a community card turned, a result)."""
    mine = {str(s) for s in seats}
    out: set[str] = set()
    for r in full:
        if r["kind"] == "card_dealt":
            if r["face_up"] or r["to"] in mine:
                out.add(r["card"])
        elif r["kind"] == "hand_shown":
            if str(r["seat"]) in mine:
                out |= tokens(r)
        elif r["kind"] != "card_discarded":
            out |= tokens(r)
    return out

"""What each connection may see: a point of view per account, records redacted per view.

A player sees their own seat's cards and every card turned face up; nobody sees a face-down
card of another seat, the dealer's face-down cards before the reveal, or the shoe's order
(never in a record).  The dealer, observers and supervisors see the layout face up only while
the round is live; supervisors and auditors recall full records of finished rounds.

The engine's :mod:`croupier.games.pov` (when present) decides; this module maps accounts onto
its points of view.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from croupier.cards import Card
from croupier.games.records import CardDealt, CardDiscarded, Record, record_to_json
from croupier.games.round import Round

__all__ = ["ViewPov", "redact_json", "round_view"]


@dataclass(frozen=True, slots=True)
class ViewPov:
    """``kind``: ``player`` (with its seats), ``dealer``, ``public`` or ``full`` (records of a
    finished round for supervisors and auditors)."""

    kind: str
    seats: frozenset[int] = frozenset()

    def sees(self, record: CardDealt) -> bool:
        if self.kind == "full" or record.face_up:
            return True
        return self.kind == "player" and record.to.isdigit() and int(record.to) in self.seats


def _has_cards(record: Record) -> bool:
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, Card) or (
            isinstance(value, tuple) and any(isinstance(v, Card) for v in value)
        ):
            return True
    return False


def redact_json(record: Record, pov: ViewPov) -> dict[str, Any]:
    """``record`` as JSON, with every card ``pov`` may not see replaced by ``None``."""
    if isinstance(record, CardDealt):
        if pov.sees(record):
            return record_to_json(record)
        return {"kind": "card_hidden", "to": record.to, "note": record.note}
    if isinstance(record, CardDiscarded) and pov.kind != "full":
        return {"kind": "card_hidden", "to": "discard", "note": record.section}
    seat = getattr(record, "seat", None)
    if (
        pov.kind == "player"
        and isinstance(seat, int)
        and seat not in pov.seats
        and _has_cards(record)
    ):
        data = record_to_json(record)
        for f in fields(record):
            value = getattr(record, f.name)
            if isinstance(value, Card):
                data[f.name] = None
            elif isinstance(value, tuple) and any(isinstance(v, Card) for v in value):
                data[f.name] = [None for _ in value]
        return data
    return record_to_json(record)


def round_view(rnd: Round, pov: ViewPov) -> dict[str, Any]:
    """The round as ``pov`` may see it: phase, who acts, stakes, the layout, the records."""
    records = [redact_json(r, pov) for r in rnd.records]
    layout: dict[str, list[str | None]] = {}
    for rec in records:
        if rec["kind"] in ("card_dealt", "card_hidden") and rec.get("to") != "discard":
            layout.setdefault(str(rec["to"]), []).append(rec.get("card"))
    actor = rnd.to_act()
    return {
        "game": rnd.game.slug,
        "phase": rnd.phase.value,
        "to_act": str(actor),
        "to_act_seat": actor.seat,
        "players": {str(s): p for s, p in sorted(rnd.players.items())},
        "stakes": {str(s): dict(w) for s, w in sorted(rnd.stakes.items())},
        "cards": layout,
        "seq": len(records),
        "records": records,
        "settlement": rnd.settlement() if rnd.is_over else {},
    }

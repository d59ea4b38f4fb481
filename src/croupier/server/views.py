"""What each connection may see: a point of view per account, records redacted per view.

A player sees their own seat's cards and every card turned face up; nobody sees a face-down
card of another seat, the dealer's face-down cards before the reveal, or the shoe's order
(never in a record).  The dealer, observers and supervisors see the layout face up only while
the round is live; supervisors and auditors recall full records of finished rounds.

The engine's :mod:`croupier.games.pov` (when present) decides; this module maps accounts onto
its points of view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.games.pov import Pov, redact
from croupier.games.records import CardDealt, Record, record_to_json
from croupier.games.round import Round

__all__ = ["ViewPov", "engine_pov", "redact_json", "round_view"]


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


def engine_pov(pov: ViewPov) -> Pov:
    """The engine's point of view for ``pov`` (the engine decides what each may see)."""
    if pov.kind == "player" and pov.seats:
        return Pov.player(*sorted(pov.seats))
    if pov.kind == "dealer":
        return Pov.dealer()
    if pov.kind == "full":
        return Pov.supervisor()
    return Pov.public()


def redact_json(record: Record, pov: ViewPov) -> dict[str, Any]:
    """``record`` as JSON as ``pov`` may see it (:func:`croupier.games.pov.redact`: a face-down
    card it may not see becomes ``{"kind": "card_hidden", "to", "was", "note"}``)."""
    return record_to_json(redact(record, engine_pov(pov)))


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

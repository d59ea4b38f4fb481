"""What each connection may see: a point of view per account, records redacted per view.

A player sees their own seat's cards and every card turned face up; nobody sees a face-down
card of another seat, the dealer's face-down cards before the reveal, or the shoe's order
(never in a record).  The dealer, observers and supervisors see the layout face up only while
the round is live; supervisors and auditors recall full records of finished rounds.

The engine's :mod:`croupier.games.pov` decides (``Round.view``, ``Round.records_for``); this
module maps accounts onto its points of view.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.games.pov import Pov, records_for
from croupier.games.records import Record, record_to_json
from croupier.games.round import Round

__all__ = ["SIGHT", "ViewPov", "engine_pov", "redact_json", "round_sight", "round_view"]


@dataclass(frozen=True, slots=True)
class ViewPov:
    """``kind``: ``player`` (with its seats), ``dealer``, ``public`` or ``full`` (records of a
    finished round for supervisors and auditors)."""

    kind: str
    seats: frozenset[int] = frozenset()


def engine_pov(pov: ViewPov) -> Pov:
    """The engine's point of view for ``pov`` (the engine decides what each may see)."""
    if pov.kind == "player":
        return Pov.player(*sorted(pov.seats))
    if pov.kind == "dealer":
        return Pov.dealer()
    if pov.kind == "full":
        return Pov.supervisor()
    return Pov.public()


def redact_json(record: Record, pov: ViewPov) -> dict[str, Any]:
    """``record`` as JSON as ``pov`` may see it (:func:`croupier.games.pov.records_for`: a
    face-down card it may not see becomes ``{"kind": "card_hidden", "to", "was", "note"}``)."""
    (seen,) = records_for((record,), engine_pov(pov))
    return record_to_json(seen)


def round_view(rnd: Round, pov: ViewPov) -> dict[str, Any]:
    """The engine's view of the round for ``pov``: :meth:`Round.view(pov).to_json()
    <croupier.games.pov.RoundView.to_json>` (phase, who acts, players, stakes, the layout with
    ``None`` for each face-down card it may not see, meters, cards left, what is settled), with
    the hand history as ``pov`` may see it (``records``: :meth:`Round.records_for`, a face-down
    card it may not see as ``card_hidden``), the seat to act (``to_act_seat``) and, once the
    round is over, its ``settlement``.  Never the shoe's order nor the shuffler's state."""
    seen = rnd.view(engine_pov(pov))
    data = seen.to_json()
    data["to_act_seat"] = rnd.to_act().seat
    data.update(_sight_json(rnd, seen.pov, seen.cards, seen.records))
    data["settlement"] = rnd.settlement() if rnd.is_over else {}
    return data


SIGHT = ("pov", "cards", "records")
"""The keys of :func:`round_view` whose values differ between points of view
(:func:`round_sight`); every other key is the same for each."""


def round_sight(rnd: Round, pov: ViewPov) -> dict[str, Any]:
    """The parts of :func:`round_view` for ``pov`` that differ between points of view
    (:data:`SIGHT`): the point of view, the layout and the hand history as it sees them
    (:meth:`Round.sight <croupier.games.round.Round.sight>`), without the rest of the view.
    Each record's JSON is made once for each point of view (:class:`_SeenJson`)."""
    seen = engine_pov(pov)
    line = rnd.sight(seen)
    return _sight_json(rnd, seen, line.layout, line.seen)


class _SeenJson:
    """Per round and point of view, the JSON of the records it has seen (:func:`round_sight`,
    asked after every event by each of a table's people, and :func:`round_view`): a history
    only grows, so each new
    record is encoded once, the JSON of the records before it kept while they are the same
    records.  The JSON is only read (sent on a stream), never changed."""

    def __init__(self) -> None:
        self._by_round: weakref.WeakKeyDictionary[Round, dict[Pov, _Encoded]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def of(self, rnd: Round, pov: Pov, seen: tuple[Record, ...]) -> list[dict[str, Any]]:
        """The JSON of ``seen`` (``pov``'s sight of ``rnd``'s records), as a new list."""
        with self._lock:
            lines = self._by_round.get(rnd)
            if lines is None:
                lines = self._by_round[rnd] = {}
            known = lines.get(pov)
        if known is None or len(known.seen) > len(seen) or seen[: len(known.seen)] != known.seen:
            known = _Encoded((), ())
        start = len(known.seen)
        if start < len(seen):
            known = _Encoded(seen, known.json + tuple(record_to_json(r) for r in seen[start:]))
            lines[pov] = known  # whole: a line raced by another is as true as this one
        return list(known.json)


@dataclass(frozen=True, slots=True)
class _Encoded:
    seen: tuple[Record, ...]
    json: tuple[dict[str, Any], ...]


_SEEN_JSON = _SeenJson()


def _sight_json(
    rnd: Round, pov: Pov, cards: Mapping[str, Sequence[str | None]], seen: tuple[Record, ...]
) -> dict[str, Any]:
    """The :data:`SIGHT` of ``rnd`` for ``pov``: the layout it sees (``cards``) and the records
    as it sees them (``seen``), their JSON from :class:`_SeenJson`."""
    return {
        "pov": str(pov),
        "cards": {k: list(v) for k, v in cards.items()},
        "records": _SEEN_JSON.of(rnd, pov, seen),
    }

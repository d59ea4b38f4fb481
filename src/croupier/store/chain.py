"""Tamper evidence: SHA-256 hash chains over canonical JSON.

Every stored round record and every meter-ledger row (and every table event) carries
``hash = SHA-256(previous hash || "\\n" || canonical JSON of the row)``, the previous hash being
that of the row before it in the same round (resp. meter, table).  A round's chain starts from
the hash of its header; a meter's and a table's from :data:`GENESIS`.  The canonical JSON is
the row's fields with sorted keys, no whitespace, UTF-8, exact values (integers as integers,
fractions of a cent as ``"p/q"`` text, times as ISO 8601 UTC).  :mod:`croupier.audit.chains`
recomputes every chain and names the first row that does not match.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from croupier.games.records import Record, record_to_json
from croupier.store.database import as_utc

__all__ = [
    "GENESIS",
    "canonical",
    "header_payload",
    "ledger_payload",
    "link",
    "record_data",
    "record_link",
    "record_payload",
    "stamp",
]

GENESIS = "0" * 64
"""The previous hash of the first row of a meter's or a table's chain."""


def canonical(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no whitespace, no NaN."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def link(previous: str, payload: Mapping[str, Any]) -> str:
    """The hash of a row whose predecessor's hash is ``previous``."""
    text = f"{previous}\n{canonical(payload)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stamp(at: datetime) -> str:
    """A stored time as hashed: ISO 8601 in UTC, to the microsecond (whatever time zone the
    database hands it back in)."""
    return as_utc(at).astimezone(UTC).isoformat(timespec="microseconds")


def header_payload(
    *,
    round_id: str,
    game: str,
    rules: Mapping[str, Any],
    players: Mapping[str, str],
    stub_check: str,
    mode: str,
    created_at: datetime,
) -> dict[str, Any]:
    return {
        "mode": mode,
        "round_id": round_id,
        "game": game,
        "rules": dict(rules),
        "players": dict(players),
        "stub_check": stub_check,
        "created_at": stamp(created_at),
    }


def record_payload(
    round_id: str, seq: int, data: Mapping[str, Any], at: datetime
) -> dict[str, Any]:
    return {"round_id": round_id, "seq": seq, "record": dict(data), "at": stamp(at)}


def record_link(previous: str, round_id: str, seq: int, data: str, at: datetime) -> str:
    """``link(previous, record_payload(round_id, seq, json.loads(data), at))`` without decoding
    the record's canonical JSON ``data`` (:func:`record_data`) and encoding it again: the
    payload's canonical text assembled around it (its keys in sorted order)."""
    text = (
        f'{previous}\n{{"at":{canonical(stamp(at))},"record":{data},'
        f'"round_id":{canonical(round_id)},"seq":{canonical(seq)}}}'
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_data(record: Record) -> str:
    """A record as stored: its canonical JSON."""
    return canonical(record_to_json(record))


def ledger_payload(
    *,
    meter: str,
    reason: str,
    before: int,
    after: int,
    paid: int,
    before_exact: Fraction | str,
    after_exact: Fraction | str,
    amount: str | None,
    share: str | None,
    config: str | None,
    round_id: str | None,
    at: datetime,
) -> dict[str, Any]:
    return {
        "meter": meter,
        "reason": reason,
        "before": before,
        "after": after,
        "paid": paid,
        "before_exact": str(before_exact),
        "after_exact": str(after_exact),
        "amount": amount,
        "share": share,
        "config": config,
        "round_id": round_id,
        "at": stamp(at),
    }

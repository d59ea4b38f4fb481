"""Persistence: progressive meters and every round's records (SQLite by default, PostgreSQL or
any SQLAlchemy backend by URL).

- :class:`SqlMeters`: the production :class:`~croupier.rules.progressive.MeterBank`: exact amounts,
  one locked transaction per change, the § 605a.7(a)(4) cumulative payout meter and a ledger of
  every movement.
- :class:`RoundStore`: each round's header and records as they happen; ``open_rounds()`` after
  a crash, ``load()`` / ``rebuild()`` / ``resume()`` to carry on; ``track()`` to store a round as
  it is played (records and meter moves in one transaction per action).
- :class:`TableEventStore`: each table's events (shuffles, cuts, deck changes, stub counts,
  seatings), so a table carries on after a restart (:meth:`croupier.table.table.Table.restore`).
- :class:`PersistedShoe`: the card order a round deals from, stored apart from its records
  (server side only) with a nonce and its commitment; ``resume()`` deals from it.
- :func:`record_from_json`: the inverse of :func:`croupier.games.records.record_to_json`.
- :mod:`croupier.store.schema`: every table (the store's and the live server's) on one
  ``metadata``; :class:`Database` (a reader and a writer engine), :func:`shared` (meter changes
  joining a caller's transaction) and the URL helpers are what the live server builds on.

Every record, meter-ledger row and table event carries a SHA-256 hash chained to the one
before it (:mod:`croupier.store.chain`); :func:`croupier.audit.verify` recomputes them.

::

    engine = open_engine("sqlite:///casino.sqlite")
    meters, store = SqlMeters(engine), RoundStore(engine)
    rnd = store.track("T1-000042", game.new_round(shoe=shoe, meters=meters))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
"""

from croupier.store.codec import record_classes, record_from_json, rules_to_json
from croupier.store.database import (
    DEFAULT_URL,
    Database,
    as_utc,
    error_line,
    masked_url,
    now,
    open_engine,
    open_existing,
    parse_url,
    prepare,
    shared,
    shown_url,
    unreadable,
)
from croupier.store.meters import LedgerEntry, MeterState, SqlMeters
from croupier.store.rounds import RoundStatus, RoundStore, StoredRound, TrackedRound
from croupier.store.shoes import PersistedShoe, commitment
from croupier.store.tables import TableEventStore

__all__ = [
    "DEFAULT_URL",
    "Database",
    "LedgerEntry",
    "MeterState",
    "PersistedShoe",
    "RoundStatus",
    "RoundStore",
    "SqlMeters",
    "StoredRound",
    "TableEventStore",
    "TrackedRound",
    "as_utc",
    "commitment",
    "error_line",
    "masked_url",
    "now",
    "open_engine",
    "open_existing",
    "parse_url",
    "prepare",
    "record_classes",
    "record_from_json",
    "rules_to_json",
    "shared",
    "shown_url",
    "unreadable",
]

"""Persistence: progressive meters and every round's records (SQLite by default, PostgreSQL or
any SQLAlchemy backend by URL).

- :class:`SqlMeters`: the production :class:`~croupier.progressive.MeterBank`: exact amounts,
  one locked transaction per change, the § 605a.7(a)(4) cumulative payout meter and a ledger of
  every movement.
- :class:`RoundStore`: each round's header and records as they happen; ``open_rounds()`` after
  a crash, ``load()`` / ``rebuild()`` / ``resume()`` to carry on; ``track()`` to store a round as
  it is played (records and meter moves in one transaction per action).
- :func:`record_from_json`: the inverse of :func:`croupier.games.records.record_to_json`.

::

    engine = open_engine("sqlite:///casino.sqlite")
    meters, store = SqlMeters(engine), RoundStore(engine)
    rnd = store.track("T1-000042", game.new_round(shoe=shoe, meters=meters))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
"""

from croupier.store._db import DEFAULT_URL, open_engine
from croupier.store.codec import record_classes, record_from_json, rules_to_json
from croupier.store.meters import LedgerEntry, MeterState, SqlMeters
from croupier.store.rounds import RoundStatus, RoundStore, StoredRound, TrackedRound

__all__ = [
    "DEFAULT_URL",
    "LedgerEntry",
    "MeterState",
    "RoundStatus",
    "RoundStore",
    "SqlMeters",
    "StoredRound",
    "TrackedRound",
    "open_engine",
    "record_classes",
    "record_from_json",
    "rules_to_json",
]

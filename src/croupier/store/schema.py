"""The schema: the store's own tables (rounds, their records and shoes, meters, table logs:
re-exported here) and the live table system's, on one :data:`metadata` (so one Alembic history
covers the whole schema; see :mod:`croupier.store.migrations`).  Importing this module puts the
live system's tables on the metadata (the server and the migrations do).

- ``accounts``, ``sessions``: people and their bearer tokens (only a SHA-256 of a token is
  stored; passwords are argon2 hashes); ``account_tables``: the tables each dealer deals (the one
  source of a dealer's binding); ``sign_in_limits``: failed sign-ins counted per account name and
  per client address, and their locks; ``setup_tokens``: the one-time token that creates a
  floor's first administrator (its SHA-256 only);
- ``security_log``, ``security_head``: every security event, append-only and hash-chained
  (:mod:`croupier.server.security_log`), and the chain's head;
- ``players``: player sessions (a chip balance is the ``chip_accounts`` row ``player:<id>``);
- ``chip_accounts``, ``chip_ledger``: the double-entry chip ledger; each movement is a set of
  rows summing to zero, written in the same transaction as the round records it accounts for;
- ``live_tables``, ``live_rounds``: the floor and each round's table and shoe order;
- ``table_events``: every event sent to a table's (or the floor's, ``table_id = ""``) streams,
  numbered per stream;
- ``idempotency``: the first response to each ``Idempotency-Key`` (per account);
- ``handpays``: 100% progressive awards waiting for a supervisor's approval;
- ``drills``: a trainee's dealer-training drills (:mod:`croupier.server.drills`): each question
  asked, the engine's answer and section, the trainee's answer, whether right and how long it
  took (a procedure drill's steps, each a row).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from croupier.store.database import (
    dealing_shoes,
    metadata,
    meter_ledger,
    meters,
    round_records,
    round_shoes,
    rounds,
    table_log,
    table_rounds,
)

__all__ = [
    "account_tables",
    "accounts",
    "card_devices",
    "chip_accounts",
    "chip_ledger",
    "dealing_shoes",
    "drills",
    "handpays",
    "idempotency",
    "live_rounds",
    "live_tables",
    "metadata",
    "meter_ledger",
    "meters",
    "players",
    "round_records",
    "round_shoes",
    "rounds",
    "security_head",
    "security_log",
    "sessions",
    "setup_tokens",
    "sign_in_limits",
    "table_events",
    "table_log",
    "table_rounds",
]

players = Table(
    "players",
    metadata,
    Column("id", String(100), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("username", String(100), primary_key=True),
    Column("role", String(20), nullable=False),
    Column("password_hash", Text, nullable=False),
    Column("player_id", String(100), ForeignKey("players.id"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # ``active`` or ``disabled`` (a disabled account signs in nowhere; its sessions ended).
    Column("status", String(20), nullable=False),
    # A demo account (``croupier.server.demo``): accepted only on a demo or training floor.
    Column("demo", Boolean, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=True),
)

account_tables = Table(
    "account_tables",
    metadata,
    Column("username", String(100), ForeignKey("accounts.username"), primary_key=True),
    Column("table_id", String(100), primary_key=True),
)

sign_in_limits = Table(
    "sign_in_limits",
    metadata,
    # ``account:<normalised name>`` (known or not: an unknown name is counted alike) or
    # ``address:<client address>``.
    Column("key", String(300), primary_key=True),
    Column("failures", Integer, nullable=False),
    # Attempts admitted whose password is being checked (counted against the limit).
    Column("pending", Integer, nullable=False),
    Column("last_at", DateTime(timezone=True), nullable=False),
    Column("locked_until", DateTime(timezone=True), nullable=True),
    # Attempts refused while locked (reported when the lock is released).
    Column("refused", Integer, nullable=False),
)

setup_tokens = Table(
    "setup_tokens",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

security_log = Table(
    "security_log",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("event", String(40), nullable=False),
    Column("username", String(100), nullable=True),
    Column("actor", String(100), nullable=True),
    Column("address", String(100), nullable=True),
    Column("detail", Text, nullable=False),
    # SHA-256 over the previous entry's hash and this entry (croupier.store.chain).
    Column("hash", String(64), nullable=False),
)

security_head = Table(
    "security_head",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("seq", Integer, nullable=False),
    Column("hash", String(64), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("username", String(100), ForeignKey("accounts.username"), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

chip_accounts = Table(
    "chip_accounts",
    metadata,
    Column("name", String(200), primary_key=True),
    # The exact balance in cents, ``num / den`` (a meter's share can be a fraction of a cent).
    Column("num", BigInteger, nullable=False),
    Column("den", BigInteger, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

chip_ledger = Table(
    "chip_ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("txn", String(64), nullable=False),
    Column("account", String(200), nullable=False),
    # Exact cents as text ("n" or "p/q"); the rows of one ``txn`` sum to zero.
    Column("amount", Text, nullable=False),
    Column("reason", String(40), nullable=False),
    Column("table_id", String(100), nullable=True),
    Column("round_id", String(200), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_chip_ledger_account", "account", "id"),
    Index("ix_chip_ledger_round", "round_id"),
    Index("ix_chip_ledger_txn", "txn"),
)

live_tables = Table(
    "live_tables",
    metadata,
    Column("id", String(100), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("rules", Text, nullable=False),
    Column("status", String(20), nullable=False),
    Column("seats", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

live_rounds = Table(
    "live_rounds",
    metadata,
    Column("round_id", String(200), primary_key=True),
    Column("table_id", String(100), ForeignKey("live_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("state", String(20), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_live_rounds_table", "table_id", "number"),
)

table_events = Table(
    "table_events",
    metadata,
    Column("table_id", String(100), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("type", String(40), nullable=False),
    Column("round_id", String(200), nullable=True),
    Column("data", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

idempotency = Table(
    "idempotency",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("username", String(100), primary_key=True),
    Column("request", String(64), nullable=False),
    Column("status", Integer, nullable=False),
    Column("response", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

card_devices = Table(
    "card_devices",
    metadata,
    # A card reader bound to one table (issue 39, docs/reader-protocol.md): its token's hash,
    # the last message it numbered and when it was last heard from.
    Column("id", String(100), primary_key=True),
    Column("table_id", String(100), ForeignKey("live_tables.id"), nullable=False),
    Column("token_sha256", String(64), nullable=False, unique=True),
    Column("created_by", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("last_seen", DateTime(timezone=True), nullable=True),
)

handpays = Table(
    "handpays",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(100), nullable=False),
    Column("round_id", String(200), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", String(100), nullable=False),
    Column("meter", String(200), nullable=False),
    Column("line", String(100), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("status", String(20), nullable=False),
    Column("approved_by", String(100), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_handpays_status", "status"),
)

drills = Table(
    "drills",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(100), ForeignKey("accounts.username"), nullable=False),
    Column("game", String(100), nullable=False),
    # ``payout``, ``commission``, ``decision``, ``case`` or ``procedure``.
    Column("kind", String(20), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("prompt", Text, nullable=False),
    # The engine's answer: cents, ``yes``/``no``, or the dealer's step expected.
    Column("expected", String(200), nullable=False),
    Column("section", String(200), nullable=False),
    Column("asked_at", DateTime(timezone=True), nullable=False),
    Column("answered_at", DateTime(timezone=True), nullable=True),
    Column("answer", String(200), nullable=True),
    Column("correct", Boolean, nullable=True),
    # Milliseconds from the question to the answer (a procedure step: none).
    Column("millis", Integer, nullable=True),
    Index("ix_drills_username", "username", "id"),
)

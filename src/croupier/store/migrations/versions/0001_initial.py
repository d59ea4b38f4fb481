"""the whole schema: store and live table system

Revision ID: 0001
Revises:
Create Date: 2026-12-01 11:20:50.705486
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    _create_chip_ledger()
    _create_handpays()
    _create_floor()
    _create_rounds()
    _create_accounts()
    _create_meter_ledger()


def _create_chip_ledger() -> None:
    """The chip accounts and the double-entry chip ledger."""
    op.create_table(
        "chip_accounts",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("num", sa.BigInteger(), nullable=False),
        sa.Column("den", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "chip_ledger",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("txn", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=200), nullable=False),
        sa.Column("amount", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=100), nullable=True),
        sa.Column("round_id", sa.String(length=200), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chip_ledger", schema=None) as batch_op:
        batch_op.create_index("ix_chip_ledger_account", ["account", "id"], unique=False)
        batch_op.create_index("ix_chip_ledger_round", ["round_id"], unique=False)
        batch_op.create_index("ix_chip_ledger_txn", ["txn"], unique=False)


def _create_handpays() -> None:
    """Hand-pays awaiting approval and the idempotency keys of commands."""
    op.create_table(
        "handpays",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=100), nullable=False),
        sa.Column("round_id", sa.String(length=200), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=100), nullable=False),
        sa.Column("meter", sa.String(length=200), nullable=False),
        sa.Column("line", sa.String(length=100), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("approved_by", sa.String(length=100), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("handpays", schema=None) as batch_op:
        batch_op.create_index("ix_handpays_status", ["status"], unique=False)

    op.create_table(
        "idempotency",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("request", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", "username"),
    )


def _create_floor() -> None:
    """The live tables, the progressive meters and the players."""
    op.create_table(
        "live_tables",
        sa.Column("id", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "meters",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("reset", sa.BigInteger(), nullable=False),
        sa.Column("rate_num", sa.BigInteger(), nullable=False),
        sa.Column("rate_den", sa.BigInteger(), nullable=False),
        sa.Column("cents", sa.BigInteger(), nullable=False),
        sa.Column("rem_num", sa.BigInteger(), nullable=False),
        sa.Column("rem_den", sa.BigInteger(), nullable=False),
        sa.Column("paid_total", sa.BigInteger(), nullable=False),
        sa.Column("awards", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def _create_rounds() -> None:
    """Stored rounds and each live table's event stream."""
    op.create_table(
        "rounds",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("game", sa.String(length=100), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("stub_check", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("records", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.create_index("ix_rounds_status", ["status"], unique=False)

    op.create_table(
        "table_events",
        sa.Column("table_id", sa.String(length=100), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("round_id", sa.String(length=200), nullable=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )


def _create_accounts() -> None:
    """Accounts (roles) and the rounds of each live table."""
    op.create_table(
        "accounts",
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("player_id", sa.String(length=100), nullable=True),
        sa.Column("table_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("username"),
    )
    op.create_table(
        "live_rounds",
        sa.Column("round_id", sa.String(length=200), nullable=False),
        sa.Column("table_id", sa.String(length=100), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["live_tables.id"],
        ),
        sa.PrimaryKeyConstraint("round_id"),
    )
    with op.batch_alter_table("live_rounds", schema=None) as batch_op:
        batch_op.create_index("ix_live_rounds_table", ["table_id", "number"], unique=False)


def _create_meter_ledger() -> None:
    """The meter ledger, each round's records and the login sessions."""
    op.create_table(
        "meter_ledger",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("meter", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("before", sa.BigInteger(), nullable=False),
        sa.Column("after", sa.BigInteger(), nullable=False),
        sa.Column("paid", sa.BigInteger(), nullable=False),
        sa.Column("before_exact", sa.Text(), nullable=False),
        sa.Column("after_exact", sa.Text(), nullable=False),
        sa.Column("round_id", sa.String(length=200), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["meter"],
            ["meters.name"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("meter_ledger", schema=None) as batch_op:
        batch_op.create_index("ix_meter_ledger_meter", ["meter", "id"], unique=False)
        batch_op.create_index("ix_meter_ledger_round", ["round_id"], unique=False)

    op.create_table(
        "round_records",
        sa.Column("round_id", sa.String(length=200), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.PrimaryKeyConstraint("round_id", "seq"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("username", sa.String(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["username"],
            ["accounts.username"],
        ),
        sa.PrimaryKeyConstraint("token_sha256"),
    )


def downgrade() -> None:

    op.drop_table("sessions")
    op.drop_table("round_records")
    with op.batch_alter_table("meter_ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_meter_ledger_round")
        batch_op.drop_index("ix_meter_ledger_meter")

    op.drop_table("meter_ledger")
    with op.batch_alter_table("live_rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_live_rounds_table")

    op.drop_table("live_rounds")
    op.drop_table("accounts")
    op.drop_table("table_events")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_rounds_status")

    op.drop_table("rounds")
    op.drop_table("players")
    op.drop_table("meters")
    op.drop_table("live_tables")
    op.drop_table("idempotency")
    with op.batch_alter_table("handpays", schema=None) as batch_op:
        batch_op.drop_index("ix_handpays_status")

    op.drop_table("handpays")
    with op.batch_alter_table("chip_ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_chip_ledger_txn")
        batch_op.drop_index("ix_chip_ledger_round")
        batch_op.drop_index("ix_chip_ledger_account")

    op.drop_table("chip_ledger")
    op.drop_table("chip_accounts")
